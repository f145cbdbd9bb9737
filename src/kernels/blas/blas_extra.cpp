#include "kernels/blas/blas_extra.hpp"

#include <algorithm>

namespace optune::detail {

std::vector<Parameter> BlasExtraFamily::parameters(const Capabilities&) const {
  return {
      {"WGS", {64, 128, 256, 512}, 256, "work-items per group"},
      {"WAVES", {0, 1, 2, 4, 8}, 0, "at most this many waves of the device, grid-stride (0: an element per work-item)"},
  };
}

std::string BlasExtraFamily::check(const Params& p, const Capabilities& caps, const BlasExtraProblem&) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::size_t wgs = std::size_t(p.at("WGS"));
  if (wgs > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (wgs > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  return "";
}

Params BlasExtraFamily::fit(const Params& tuned, const Capabilities& caps, const BlasExtraProblem& problem) const {
  const auto adjust = [&](Params p) {
    while (p.at("WGS") > 64 && !check(p, caps, problem).empty()) p["WGS"] /= 2;
    return p;
  };
  const Params p = adjust(complete(tuned, caps));
  return check(p, caps, problem).empty() ? p : adjust(defaults(caps));
}

Geometry BlasExtraFamily::geometry(const Params& p, const Capabilities& caps, const BlasExtraProblem& problem) const {
  const std::size_t wgs = std::size_t(p.at("WGS"));
  const std::size_t n = std::size_t(std::max<std::int64_t>(problem.elements, 1));
  const std::size_t wave = std::size_t(caps.compute_units ? caps.compute_units : 1) * resident_per_unit(caps);
  Geometry g;
  g.local[0] = wgs;
  g.global[0] = p.at("WAVES") == 0 ? round_up(n, wgs) : std::min(round_up(n, wgs), round_up(wave * std::size_t(p.at("WAVES")), wgs));
  if (problem.routine == BlasExtraRoutine::AxpyBatched) {
    g.dims = 2;
    g.global[1] = std::size_t(std::max<std::int64_t>(problem.batch, 1));
  }
  return g;
}

Defines BlasExtraFamily::defines(const Params& p, const BlasExtraProblem& problem) const {
  return {{"TYPE", c_type_name(problem.dtype)},
          {"REAL", c_type_name(real_dtype(problem.dtype))},
          {"COMPLEX", is_complex(problem.dtype) ? "1" : "0"},
          {"WGS", std::to_string(p.at("WGS"))}};
}

KernelSource BlasExtraFamily::program(const Params& p, const BlasExtraProblem& problem) const {
  static const char* entries[] = {"extra_had", "extra_omatcopy", "extra_axpy_batched"};
  return {source(), embedded_kernel_text(source()), defines(p, problem), entries[int(problem.routine)]};
}

std::string BlasExtraFamily::bucket(const BlasExtraProblem& problem) const {
  const std::int64_t n = problem.elements * std::max<std::int64_t>(problem.batch, 1);
  return n <= (1 << 16) ? "n<=2^16" : n <= (1 << 22) ? "n<=2^22" : "n>2^22";
}

std::vector<std::string> BlasExtraFamily::buckets() const { return {"n<=2^16", "n<=2^22", "n>2^22"}; }

BlasExtraProblem BlasExtraFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  BlasExtraProblem pr;
  pr.dtype = dtype;
  std::int64_t n = bucket == "n<=2^16" ? (1 << 16) : bucket == "n<=2^22" ? (1 << 22) : (1 << 25);
  const std::int64_t cap = std::int64_t(caps.max_alloc_bytes / 4 / dtype_size(dtype));
  if (cap > 0 && n > cap) n = cap;
  pr.elements = n;
  return pr;
}

std::vector<DType> BlasExtraFamily::dtypes(const Capabilities& caps) const {
  if (caps.fp64) return {DType::F32, DType::F64, DType::C32, DType::C64};
  return {DType::F32, DType::C32};
}

namespace families {
const BlasExtraFamily& blas_extra() { static const BlasExtraFamily f; return f; }
}  // namespace families

}  // namespace optune::detail
