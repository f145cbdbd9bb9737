// Public element-wise operators: type rules and the expression each one runs.
#include <cmath>
#include <set>

#include "ops/elementwise_ops.hpp"
#include "ops/traced.hpp"
#include "ops/validate.hpp"

namespace optune {

using detail::ComputeType;
using detail::ElementwiseCall;
using detail::trace_operand;
using detail::trace::Span;

std::string_view unary_name(Unary op) noexcept {
  static const char* names[] = {"copy", "neg", "abs", "relu", "leaky_relu", "relu6", "elu", "selu", "gelu",
                                "gelu_tanh", "silu", "mish", "sigmoid", "hard_sigmoid", "hard_swish", "tanh",
                                "softplus", "exp", "log", "sqrt", "rsqrt", "reciprocal", "square", "sin", "cos",
                                "floor", "ceil", "round", "sign", "clamp"};
  return int(op) >= 0 && int(op) <= int(Unary::Clamp) ? names[int(op)] : "?";
}
std::string_view binary_name(Binary op) noexcept {
  static const char* names[] = {"add", "sub", "mul", "div", "max", "min", "pow", "atan2",
                                "prelu", "eq", "ne", "lt", "le", "gt", "ge"};
  return int(op) >= 0 && int(op) <= int(Binary::Ge) ? names[int(op)] : "?";
}
std::string_view ternary_name(Ternary op) noexcept {
  static const char* names[] = {"where", "fma", "addcmul", "clamp"};
  return int(op) >= 0 && int(op) <= int(Ternary::Clamp) ? names[int(op)] : "?";
}

namespace {

bool is_integer(DType t) { return t == DType::I32 || t == DType::I8 || t == DType::U8; }
bool is_comparison(Binary op) { return op >= Binary::Eq; }

// Types are checked before anything uses their sizes or names.
void same_type(const std::string& what, const char* a_name, DType a, const char* b_name, DType b) {
  detail::validate::dtype_known((what + ": " + a_name).c_str(), a);
  detail::validate::dtype_known((what + ": " + b_name).c_str(), b);
  if (a != b)
    throw Error(Status::InvalidType, what + ": " + a_name + " is " + std::string(dtype_name(a)) + " but " + b_name +
                                         " is " + std::string(dtype_name(b)) + " (convert with optune::cast)");
}

void need_expression(const std::string& what, const char* expr, DType t) {
  detail::validate::dtype_known(what.c_str(), t);
  if (!expr)
    throw Error(Status::InvalidType, what + " is not defined for " + std::string(dtype_name(t)) + " tensors");
}

double param_or(double v, double fallback) { return std::isnan(v) ? fallback : v; }

std::vector<std::string> param_names(std::size_t first, std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < count; ++k) out.push_back("S(" + std::to_string(first + k) + ")");
  return out;
}

Event finish(const Queue& q, ElementwiseCall& call, const WaitList& wait) {
  return detail::run_elementwise(q, call, wait);
}

}  // namespace

namespace detail {

std::vector<double> unary_params(Unary op, const OpParams& p) {
  switch (op) {
    case Unary::LeakyRelu: return {param_or(p.alpha, 0.01)};
    case Unary::Elu: return {param_or(p.alpha, 1.0)};
    case Unary::Clamp:
      if (std::isnan(p.alpha) || std::isnan(p.beta))
        throw Error(Status::InvalidArgument, "clamp: alpha (low) and beta (high) are required");
      if (p.alpha > p.beta) throw Error(Status::InvalidArgument, "clamp: alpha (low) is greater than beta (high)");
      return {p.alpha, p.beta};
    default: return {};
  }
}

ElementwiseCall unary_call(Unary op, const Operand& x, const Operand& y, const OpParams& p) {
  const std::string what = std::string(unary_name(op));
  same_type(what, "x", x.dtype, "y", y.dtype);
  ElementwiseCall call{what, "", {&x}, {&y}, unary_params(op, p), compute_type_of({x.dtype})};
  const char* e = unary_expression(op, call.compute == ComputeType::Int);
  need_expression(what, e, x.dtype);
  call.body = "o0 = " + substitute(e, {"i0"}, param_names(0, call.scalars.size())) + ";";
  return call;
}

ElementwiseCall binary_call(Binary op, const Operand& a, const Operand& b, const Operand& y) {
  const std::string what = std::string(binary_name(op));
  same_type(what, "a", a.dtype, "b", b.dtype);
  if (!is_comparison(op)) same_type(what, "a", a.dtype, "y", y.dtype);
  ElementwiseCall call{what, "", {&a, &b}, {&y}, {}, compute_type_of({a.dtype})};
  const char* e = binary_expression(op, call.compute == ComputeType::Int);
  need_expression(what, e, a.dtype);
  call.body = "o0 = " + substitute(e, {"i0", "i1"}, {}) + ";";
  return call;
}

ElementwiseCall binary_scalar_call(Binary op, const Operand& t, double s, bool scalar_first, const Operand& y) {
  const std::string what = std::string(binary_name(op));
  const char* name = scalar_first ? "b" : "a";
  if (!is_comparison(op)) same_type(what, name, t.dtype, "y", y.dtype);
  ElementwiseCall call{what, "", {&t}, {&y}, {s}, compute_type_of({t.dtype})};
  const char* e = binary_expression(op, call.compute == ComputeType::Int);
  need_expression(what, e, t.dtype);
  call.body = "o0 = " + substitute(e, scalar_first ? std::vector<std::string>{"S(0)", "i0"}
                                                   : std::vector<std::string>{"i0", "S(0)"}, {}) + ";";
  return call;
}

ElementwiseCall ternary_call(Ternary op, const Operand& a, const Operand& b, const Operand& c, const Operand& y,
                             const OpParams& p) {
  const std::string what = std::string(ternary_name(op));
  same_type(what, "b", b.dtype, "c", c.dtype);
  same_type(what, "b", b.dtype, "y", y.dtype);
  if (op == Ternary::Where) {
    if (a.dtype != b.dtype && !is_integer(a.dtype))
      throw Error(Status::InvalidType, "where: the condition must be an integer mask (u8, i8, i32) or of the values' "
                                       "type, not " + std::string(dtype_name(a.dtype)));
  } else {
    same_type(what, "a", a.dtype, "y", y.dtype);
  }
  std::vector<double> scalars;
  if (op == Ternary::Addcmul) scalars.push_back(param_or(p.alpha, 1.0));
  ElementwiseCall call{what, "", {&a, &b, &c}, {&y}, scalars, compute_type_of({b.dtype})};
  const char* e = ternary_expression(op, call.compute == ComputeType::Int);
  call.body = "o0 = " + substitute(e, {"i0", "i1", "i2"}, param_names(0, scalars.size())) + ";";
  return call;
}

ElementwiseCall cast_call(const Operand& x, const Operand& y) {
  return ElementwiseCall{"cast", "o0 = i0;", {&x}, {&y}, {}, compute_type_of({x.dtype, y.dtype})};
}

}  // namespace detail

Event unary(const Queue& q, Unary op, const Operand& x, const Operand& y, OpParams p, const WaitList& wait) {
  Span traced("unary", unary_name(op));
  trace_operand(traced, "x", x);
  trace_operand(traced, "y", y);
  if (traced && !std::isnan(p.alpha)) traced.number("alpha", p.alpha);
  if (traced && !std::isnan(p.beta)) traced.number("beta", p.beta);
  return detail::run_elementwise(q, detail::unary_call(op, x, y, p), wait);
}

Event binary(const Queue& q, Binary op, const Operand& a, const Operand& b, const Operand& y, const WaitList& wait) {
  Span traced("binary", binary_name(op));
  trace_operand(traced, "a", a);
  trace_operand(traced, "b", b);
  trace_operand(traced, "y", y);
  return detail::run_elementwise(q, detail::binary_call(op, a, b, y), wait);
}

Event binary(const Queue& q, Binary op, const Operand& a, double s, const Operand& y, const WaitList& wait) {
  Span traced("binary", binary_name(op));
  trace_operand(traced, "a", a);
  if (traced) traced.number("scalar b", s);
  trace_operand(traced, "y", y);
  return detail::run_elementwise(q, detail::binary_scalar_call(op, a, s, false, y), wait);
}

Event binary(const Queue& q, Binary op, double s, const Operand& b, const Operand& y, const WaitList& wait) {
  Span traced("binary", binary_name(op));
  if (traced) traced.number("scalar a", s);
  trace_operand(traced, "b", b);
  trace_operand(traced, "y", y);
  return detail::run_elementwise(q, detail::binary_scalar_call(op, b, s, true, y), wait);
}

Event ternary(const Queue& q, Ternary op, const Operand& a, const Operand& b, const Operand& c, const Operand& y,
              OpParams p, const WaitList& wait) {
  Span traced("ternary", ternary_name(op));
  trace_operand(traced, "a", a);
  trace_operand(traced, "b", b);
  trace_operand(traced, "c", c);
  trace_operand(traced, "y", y);
  if (traced && !std::isnan(p.alpha)) traced.number("alpha", p.alpha);
  if (traced && !std::isnan(p.beta)) traced.number("beta", p.beta);
  return detail::run_elementwise(q, detail::ternary_call(op, a, b, c, y, p), wait);
}

Event cast(const Queue& q, const Operand& x, const Operand& y, const WaitList& wait) {
  Span traced("cast");
  trace_operand(traced, "x", x);
  trace_operand(traced, "y", y);
  return detail::run_elementwise(q, detail::cast_call(x, y), wait);
}

Event fused(const Queue& q, const std::vector<Step>& chain, const std::vector<Operand>& inputs, const Operand& y,
            const WaitList& wait) {
  Span traced("fused");
  if (traced) {
    std::string steps;
    for (const Step& s : chain)
      steps += std::string(steps.empty() ? "" : ", ") +
               std::string(s.kind == Step::Kind::Unary ? unary_name(s.unary) : binary_name(s.binary)) +
               (s.kind == Step::Kind::Scalar ? " scalar" : "");
    traced.text("chain", steps);
    for (std::size_t k = 0; k < inputs.size(); ++k)
      trace_operand(traced, ("input " + std::to_string(k)).c_str(), inputs[k]);
    trace_operand(traced, "y", y);
  }
  if (chain.empty()) throw Error(Status::InvalidArgument, "fused: the chain is empty");
  if (inputs.empty()) throw Error(Status::InvalidArgument, "fused: no input");
  std::size_t binaries = 0;
  for (const Step& s : chain) binaries += s.kind == Step::Kind::Binary;
  if (inputs.size() != binaries + 1)
    throw Error(Status::InvalidArgument, "fused: the chain's binary steps need " + std::to_string(binaries + 1) +
                                             " inputs, got " + std::to_string(inputs.size()));
  for (std::size_t k = 0; k < inputs.size(); ++k)
    same_type("fused", ("input " + std::to_string(k)).c_str(), inputs[k].dtype, "y", y.dtype);
  ElementwiseCall call{"fused", "", {}, {&y}, {}, detail::compute_type_of({y.dtype})};
  for (const Operand& in : inputs) call.inputs.push_back(&in);
  const bool integer = call.compute == ComputeType::Int;
  std::string body = "real v = i0;";
  std::size_t next_input = 1;
  for (const Step& s : chain) {
    const char* e = nullptr;
    std::vector<std::string> operands{"v"}, params;
    if (s.kind == Step::Kind::Unary) {
      e = detail::unary_expression(s.unary, integer);
      need_expression("fused: " + std::string(unary_name(s.unary)), e, y.dtype);
      const auto ps = detail::unary_params(s.unary, s.params);
      params = param_names(call.scalars.size(), ps.size());
      call.scalars.insert(call.scalars.end(), ps.begin(), ps.end());
    } else {
      e = detail::binary_expression(s.binary, integer);
      need_expression("fused: " + std::string(binary_name(s.binary)), e, y.dtype);
      if (s.kind == Step::Kind::Binary) {
        operands.push_back("i" + std::to_string(next_input++));
      } else {
        operands.push_back("S(" + std::to_string(call.scalars.size()) + ")");
        call.scalars.push_back(s.scalar);
      }
    }
    body += " v = " + detail::substitute(e, operands, params) + ";";
  }
  call.body = "{ " + body + " o0 = v; }";
  return finish(q, call, wait);
}

}  // namespace optune
