#include "kernels/descriptor.hpp"

#include <charconv>

#include <nlohmann/json.hpp>
#include <sstream>

#include "kernels/copy/copy.hpp"
#include "kernels/elementwise/elementwise.hpp"
#include "kernels/gemm/gemm.hpp"
#include "kernels/peak/peak.hpp"
#include "kernels/norm/norm.hpp"
#include "kernels/reduce/reduce.hpp"
#include "kernels/softmax/softmax.hpp"

namespace optune::detail {

std::string KernelFamily::check(const Params& p, const Capabilities& caps, const Problem&) const {
  for (const Parameter& def : parameters(caps)) {
    auto it = p.find(def.name);
    if (it == p.end()) return "parameter " + def.name + " missing";
    bool known = false;
    for (auto v : def.values) known |= v == it->second;
    if (!known) return def.name + "=" + std::to_string(it->second) + " is not a candidate";
  }
  return "";
}

Defines KernelFamily::defines(const Params& p, const Problem& problem) const {
  Defines d{{"TYPE", c_type_name(problem.dtype)}};
  for (const auto& [k, v] : p) d.emplace_back(k, std::to_string(v));
  return d;
}

Params KernelFamily::defaults(const Capabilities& caps) const {
  Params p;
  for (const Parameter& def : parameters(caps)) p[def.name] = def.default_value;
  return p;
}

Params KernelFamily::complete(const Params& in, const Capabilities& caps) const {
  Params p;
  for (const Parameter& def : parameters(caps)) {
    auto it = in.find(def.name);
    p[def.name] = it == in.end() ? def.default_value : it->second;
  }
  return p;
}

KernelPtr KernelFamily::kernel(const Queue& queue, const Params& p, const Problem& problem) const {
  ProgramPtr prog = get_program(*queue.context().impl(), source(), defines(p, problem));
  return prog->kernel(kernel_name());
}

const std::vector<const KernelFamily*>& families() {
  static const CopyFamily copy;
  static const PeakFamily peak;
  static const ElementwiseFamily elementwise;
  static const ReduceRowsFamily reduce_rows;
  static const ReduceColsFamily reduce_cols;
  static const NormRowsFamily norm_rows;
  static const SoftmaxColsFamily softmax_cols;
  static const GemmDirectFamily gemm_direct;
  static const GemmTiledFamily gemm_tiled;
  static const GemmRoutineFamily gemm_routine;
  static const std::vector<const KernelFamily*> all{&copy,         &peak,        &elementwise, &reduce_rows,
                                                    &reduce_cols,  &norm_rows,   &softmax_cols, &gemm_direct,
                                                    &gemm_tiled,   &gemm_routine};
  return all;
}

const KernelFamily& find_family(const std::string& name) {
  std::string names;
  for (const KernelFamily* f : families()) {
    if (f->name() == name) return *f;
    names += (names.empty() ? "" : ", ") + f->name();
  }
  throw Error(Status::NotFound, "no kernel family '" + name + "' (families: " + names + ")");
}

std::string c_type_name(DType t) {
  switch (t) {
    case DType::F32: return "float";
    case DType::F16: return "half";
    case DType::F64: return "double";
    case DType::I32: return "int";
    case DType::I8: return "char";
    case DType::U8: return "uchar";
  }
  return "float";
}

std::size_t round_up(std::size_t x, std::size_t m) { return m ? (x + m - 1) / m * m : x; }

std::size_t resident_per_unit(const Capabilities& caps) {
  if (caps.max_threads_per_cu) return caps.max_threads_per_cu;
  if (caps.architecture.rfind("sm_", 0) == 0) return 2048;  // NVIDIA through OpenCL
  return caps.max_work_group_size ? caps.max_work_group_size : 256;
}

std::string params_to_json(const Params& p) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : p) j[k] = v;
  return j.dump();
}

std::optional<std::int64_t> parse_param_value(const std::string& text) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

Params params_from_json(const std::string& text) {
  Params p;
  try {
    auto j = nlohmann::json::parse(text);
    if (!j.is_object()) throw Error(Status::InvalidArgument, "parameters must be a JSON object: " + text);
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!it.value().is_number_integer())
        throw Error(Status::InvalidArgument, "parameter " + it.key() + " must be an integer in " + text);
      p[it.key()] = it.value().get<std::int64_t>();
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(Status::InvalidArgument, std::string("bad parameter JSON: ") + e.what());
  }
  return p;
}

}  // namespace optune::detail
