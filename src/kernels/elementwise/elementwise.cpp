#include "kernels/elementwise/elementwise.hpp"

#include <algorithm>
#include "kernels/elementwise/expressions.hpp"

namespace optune::detail {

namespace {
// CUDA has vectors of up to 4 lanes, and 8-lane packs of halves (prelude).
std::int64_t max_pack(const Capabilities& caps, const ElementwiseProblem& problem) {
  if (caps.backend != Backend::CUDA) return 16;
  const bool all_half = problem.max_elem_bytes == 2 && problem.min_elem_bytes == 2;
  return all_half ? 8 : 4;
}

// VW = 0 means a 16-byte pack of the widest operand (narrower where the
// backend or the offsets do not allow it): what a device wants unless tuned
// otherwise, whatever the element size. Other values are taken as they are.
std::int64_t pack_of(const Params& p, const Capabilities& caps, const ElementwiseProblem& problem) {
  std::int64_t vw = p.at("VW");
  if (vw != 0) return vw;
  if (!problem.contiguous) return 1;
  vw = std::min(16 / std::max<std::int64_t>(1, problem.max_elem_bytes), max_pack(caps, problem));
  while (vw > 1 && problem.align % vw) vw /= 2;
  return std::max<std::int64_t>(vw, 1);
}
bool is_integer(DType t) { return t == DType::I32 || t == DType::I8 || t == DType::U8; }

// Kind 0 plain, 1 half storage, 2 saturating store from a floating compute
// type, 3 bf16 storage.
int operand_kind(DType t, ComputeType ct, bool output) {
  if (t == DType::F16) return 1;
  if (t == DType::BF16) return 3;
  if (output && is_integer(t) && ct != ComputeType::Int) return 2;
  return 0;
}

std::pair<std::string, std::string> integer_limits(DType t) {
  switch (t) {
    case DType::I32: return {"(-2147483647-1)", "2147483647"};
    case DType::I8: return {"(-128)", "127"};
    case DType::U8: return {"0", "255"};
    default: return {"0", "0"};
  }
}

}  // namespace

ComputeType compute_type_of(const std::vector<DType>& types) {
  bool any_float = false, any_double = false;
  for (DType t : types) {
    any_double |= t == DType::F64;
    any_float |= t == DType::F32 || t == DType::F16 || t == DType::BF16;
  }
  return any_double ? ComputeType::Double : any_float ? ComputeType::Float : ComputeType::Int;
}

ElementwiseProblem elementwise_tuning_problem(DType dtype, std::int64_t n) {
  ElementwiseProblem pr;
  pr.dtype = dtype;
  pr.n = n;
  pr.max_elem_bytes = pr.min_elem_bytes = std::int64_t(dtype_size(dtype));
  pr.body = "o0 = " + gelu_body() + ";";
  pr.inputs = pr.outputs = {dtype};
  pr.compute = compute_type_of({dtype});
  return pr;
}

std::vector<Parameter> ElementwiseFamily::parameters(const Capabilities&) const {
  return {
      {"VW", {0, 1, 2, 4, 8, 16}, 0,
       "elements per work-item and access (packs of up to 16 bytes); 0: a 16-byte pack of the widest operand"},
      {"EPT", {1, 2, 4}, 1, "packs per work-item, all loaded before any is computed (bytes in flight)"},
      {"WGS", {64, 128, 256, 512, 1024}, 256, "work-items per group"},
      {"GRID_STRIDE", {0, 1}, 0, "0: one pack per work-item; 1: grid-stride loop over WAVES waves"},
      {"WAVES", {1, 2, 4, 8}, 4, "waves of the device in the grid-stride grid"},
  };
}

std::string ElementwiseFamily::check(const Params& p, const Capabilities& caps, const ElementwiseProblem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::int64_t vw = pack_of(p, caps, problem), wgs = p.at("WGS");
  if (std::size_t(wgs) > caps.max_work_group_size || std::size_t(wgs) > caps.max_work_item_sizes[0])
    return "WGS exceeds the device's work-group limit";
  if (vw > max_pack(caps, problem)) return "pack wider than the backend's vectors";
  if (vw * problem.max_elem_bytes > 16)
    return "pack wider than 16 bytes";
  if (!problem.contiguous && (vw != 1 || p.at("EPT") != 1))
    return "strided operands move one element at a time";
  if (problem.align % vw) return "offsets not aligned to the pack";
  if (p.at("GRID_STRIDE") == 0 && p.at("WAVES") != 4) return "WAVES only applies to the grid-stride grid";
  return "";
}

Params ElementwiseFamily::fit(const Params& tuned, const Capabilities& caps,
                               const ElementwiseProblem& problem) const {
  Params p = complete(tuned, caps);
  p["VW"] = pack_of(p, caps, problem);  // the launch's defines need the actual width
  if (!problem.contiguous) p["EPT"] = 1;
  while (p["VW"] > 1 && !check(p, caps, problem).empty()) p["VW"] /= 2;
  if (p["VW"] == 1 && !check(p, caps, problem).empty()) p = defaults(caps), p["VW"] = 1;
  while (p["WGS"] > 64 && !check(p, caps, problem).empty()) p["WGS"] /= 2;
  return p;
}

Geometry ElementwiseFamily::geometry(const Params& p, const Capabilities& caps, const ElementwiseProblem& problem) const {
  const std::size_t n = std::size_t(problem.n);
  const std::size_t vw = std::size_t(pack_of(p, caps, problem)), wgs = std::size_t(p.at("WGS"));
  // Enough work-items for every pack (EPT each) and for the n mod VW tail elements.
  const std::size_t ept = std::size_t(p.at("EPT"));
  const std::size_t items = std::max({(n / vw + ept - 1) / ept, n % vw, std::size_t{1}});
  Geometry g;
  g.local[0] = wgs;
  g.global[0] = round_up(items, wgs);
  if (p.at("GRID_STRIDE")) {
    const std::size_t wave = std::size_t(caps.compute_units ? caps.compute_units : 1) * resident_per_unit(caps);
    g.global[0] = std::min(g.global[0], round_up(wave * std::size_t(p.at("WAVES")), wgs));
  }
  return g;
}

Defines ElementwiseFamily::defines(const Params& p, const ElementwiseProblem& problem) const {
  bool floats_all_half = problem.compute == ComputeType::Float;
  for (const auto* list : {&problem.inputs, &problem.outputs})
    for (DType t : *list) floats_all_half &= t != DType::F32;
  const ComputeType ct = problem.compute;
  Defines d{{"VW", std::to_string(p.at("VW"))},
            {"EPT", std::to_string(p.at("EPT"))},
            {"WGS", std::to_string(p.at("WGS"))},
            {"GRID_STRIDE", std::to_string(p.at("GRID_STRIDE"))},
            {"CT", ct == ComputeType::Double ? "double" : ct == ComputeType::Int ? "int" : "float"},
            {"EW_DOUBLE", ct == ComputeType::Double ? "1" : "0"},
            {"N_IN", std::to_string(problem.inputs.size())},
            {"N_OUT", std::to_string(problem.outputs.size())},
            {"CONTIGUOUS", problem.contiguous ? "1" : "0"},
            {"NDIM", std::to_string(problem.ndim)},
            {"N_SCALARS", std::to_string(problem.n_scalars)},
            {"ALIASED", problem.aliased ? "1" : "0"},
            {"EW_APPROX", floats_all_half ? "1" : "0"}};
  for (std::size_t k = 0; k < problem.inputs.size(); ++k) {
    d.emplace_back("IN" + std::to_string(k) + "_T", c_type_name(problem.inputs[k]));
    d.emplace_back("IN" + std::to_string(k) + "_KIND", std::to_string(operand_kind(problem.inputs[k], ct, false)));
  }
  for (std::size_t k = 0; k < problem.outputs.size(); ++k) {
    const std::string o = "OUT" + std::to_string(k);
    const DType t = problem.outputs[k];
    d.emplace_back(o + "_T", c_type_name(t));
    const int kind = operand_kind(t, ct, true);
    d.emplace_back(o + "_KIND", std::to_string(kind));
    if (kind == 2) {
      auto [lo, hi] = integer_limits(t);
      d.emplace_back(o + "_LO", lo);
      d.emplace_back(o + "_HI", hi);
    }
  }
  return d;
}

KernelSource ElementwiseFamily::program(const Params& p, const ElementwiseProblem& problem) const {
  const std::string label = source();
  const std::string text = "#define EW_BODY " + problem.body + "\n#line 1 \"" + label + "\"\n" +
                           embedded_kernel_text(label);
  return {label, text, defines(p, problem), kernel_name()};
}

std::string ElementwiseFamily::bucket(const ElementwiseProblem& problem) const {
  const std::string shape = problem.contiguous ? "" : "strided,";
  const std::int64_t n = problem.n;
  return shape + (n <= (1 << 16) ? "n<=2^16" : n <= (1 << 20) ? "n<=2^20" : n <= (1 << 24) ? "n<=2^24" : "n>2^24");
}

std::vector<std::string> ElementwiseFamily::buckets() const { return {"n<=2^16", "n<=2^20", "n<=2^24", "n>2^24"}; }

ElementwiseProblem ElementwiseFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  std::int64_t n = bucket == "n<=2^16" ? (1 << 16) : bucket == "n<=2^20" ? (1 << 20) : bucket == "n<=2^24" ? (1 << 24)
                                                                                                          : (1 << 26);
  const std::int64_t cap = std::int64_t(caps.max_alloc_bytes / 4 / dtype_size(dtype));
  if (caps.type == DeviceType::CPU) n = std::min<std::int64_t>(n, 1 << 24);
  return elementwise_tuning_problem(dtype, std::min(n, cap));
}

std::vector<DType> ElementwiseFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32, DType::F16, DType::BF16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

}  // namespace optune::detail
