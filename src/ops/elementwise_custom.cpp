// Custom element-wise expressions: user statements placed into the same
// data-movement template as the built-in operators.
#include <cctype>
#include <cmath>
#include <set>

#include "ops/elementwise_ops.hpp"
#include "ops/traced.hpp"
#include "runtime/log.hpp"

namespace optune {

namespace {

bool identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Names the template itself reads, and macro-like names (all capitals, as
// every define of the kernel is), cannot name operands or scalars.
bool reserved(const std::string& s) {
  static const std::set<std::string> names{"i0", "i1", "i2", "i3", "o0", "o1", "sc", "real", "meta"};
  bool all_caps = true;
  for (char c : s) all_caps = all_caps && !std::islower(static_cast<unsigned char>(c));
  return names.count(s) || all_caps || s.rfind("OPTUNE_", 0) == 0 || s.rfind("optune_", 0) == 0 ||
         s.rfind("__", 0) == 0;
}

// One line for the EW_BODY macro: // comments dropped (they would swallow
// the rest of a joined line), newlines joined; preprocessor lines refused.
std::string one_line(const std::string& code) {
  std::string out;
  std::size_t i = 0;
  bool line_start = true;
  while (i < code.size()) {
    const char c = code[i];
    if (line_start && !std::isspace(static_cast<unsigned char>(c))) {
      if (c == '#') throw Error(Status::InvalidArgument, "elementwise: expressions cannot hold preprocessor lines");
      line_start = false;
    }
    if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
      while (i < code.size() && code[i] != '\n') ++i;
      continue;
    }
    if (c == '\n' || c == '\r') {
      out += ' ';
      line_start = true;
    } else if (c == '\\') {
      throw Error(Status::InvalidArgument, "elementwise: backslashes are not allowed in expressions");
    } else {
      out += c;
    }
    ++i;
  }
  return out;
}

}  // namespace

Event elementwise(const Queue& q, const Expression& expr, const std::vector<Operand>& inputs,
                  const std::vector<Operand>& outputs, const std::map<std::string, double>& scalars,
                  const WaitList& wait) {
  detail::trace::Span traced("elementwise");
  if (traced) {
    traced.text("code", expr.code);
    for (std::size_t k = 0; k < inputs.size(); ++k)
      detail::trace_operand(traced, ("input " + std::to_string(k)).c_str(), inputs[k]);
    for (std::size_t k = 0; k < outputs.size(); ++k)
      detail::trace_operand(traced, ("output " + std::to_string(k)).c_str(), outputs[k]);
    for (const auto& [name, v] : scalars) traced.number("scalar " + name, v);
  }
  if (inputs.size() > 4) throw Error(Status::InvalidArgument, "elementwise: at most 4 inputs");
  if (outputs.empty() || outputs.size() > 2) throw Error(Status::InvalidArgument, "elementwise: 1 or 2 outputs");
  static const char* default_in[] = {"x", "b", "c", "d"};
  static const char* default_out[] = {"y", "z"};
  std::vector<std::string> in_names = expr.input_names, out_names = expr.output_names;
  if (in_names.empty())
    for (std::size_t k = 0; k < inputs.size(); ++k) in_names.push_back(default_in[k]);
  if (out_names.empty())
    for (std::size_t k = 0; k < outputs.size(); ++k) out_names.push_back(default_out[k]);
  if (in_names.size() != inputs.size() || out_names.size() != outputs.size())
    throw Error(Status::InvalidArgument, "elementwise: " + std::to_string(in_names.size()) + " input names for " +
                                             std::to_string(inputs.size()) + " inputs, " +
                                             std::to_string(out_names.size()) + " output names for " +
                                             std::to_string(outputs.size()) + " outputs");
  std::set<std::string> seen;
  auto claim = [&](const std::string& name) {
    if (!identifier(name) || reserved(name))
      throw Error(Status::InvalidArgument, "elementwise: '" + name + "' cannot name an operand or scalar");
    if (!seen.insert(name).second) throw Error(Status::InvalidArgument, "elementwise: name '" + name + "' repeats");
  };
  for (const auto& n : in_names) claim(n);
  for (const auto& n : out_names) claim(n);
  for (const auto& [n, v] : scalars) claim(n);

  std::vector<DType> types;
  for (const Operand& o : inputs) types.push_back(o.dtype);
  for (const Operand& o : outputs) types.push_back(o.dtype);
  detail::ElementwiseCall call{"elementwise", "", {}, {}, {}, detail::compute_type_of(types)};
  for (const Operand& o : inputs) call.inputs.push_back(&o);
  for (const Operand& o : outputs) call.outputs.push_back(&o);
  std::string body = "{";
  for (std::size_t k = 0; k < in_names.size(); ++k) body += " const real " + in_names[k] + " = i" + std::to_string(k) + ";";
  for (const auto& n : out_names) body += " real " + n + " = (real)0;";
  for (const auto& [n, v] : scalars) {
    body += " const real " + n + " = S(" + std::to_string(call.scalars.size()) + ");";
    call.scalars.push_back(v);
    call.scalar_names.push_back(n);
  }
  body += " " + one_line(expr.code) + " ;";
  for (std::size_t k = 0; k < out_names.size(); ++k) body += " o" + std::to_string(k) + " = " + out_names[k] + ";";
  call.body = body + " }";
  return detail::run_elementwise(q, call, wait);
}

Event elementwise(const Queue& q, const std::string& code, const std::vector<Operand>& inputs,
                  const std::vector<Operand>& outputs, const std::map<std::string, double>& scalars,
                  const WaitList& wait) {
  return elementwise(q, Expression{code, {}, {}}, inputs, outputs, scalars, wait);
}

}  // namespace optune
