#include "kernels/blas/blas_extra.hpp"

#include <algorithm>

#include "kernels/blas/blas_types.hpp"

namespace optune::detail {

namespace {

constexpr std::int64_t kDefaultPv = 4;

}  // namespace

std::vector<Parameter> BlasExtraFamily::parameters(const Capabilities&) const {
  return {
      {"WGS", {64, 128, 256, 512}, 256, "work-items per group"},
      {"WAVES", {0, 1, 2, 4, 8}, 0, "at most this many waves of the device, grid-stride (0: an element per work-item)"},
      {"PV", {1, 2, 4}, kDefaultPv,
       "im2col (CLBlast's layout): consecutive pixels per work-item, stored as one pack of at most 16 bytes (fewer "
       "where the matrix's offset or an image's pixels are not a multiple); col2im: consecutive image elements of a "
       "row per work-item"},
  };
}

std::string BlasExtraFamily::check(const Params& p, const Capabilities& caps, const BlasExtraProblem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  // (So that a tuning run of had, omatcopy or axpy_batched times no setting twice.)
  if (!is_patches(problem.routine) && p.at("PV") != kDefaultPv) return "PV applies to im2col and col2im only";
  const std::size_t wgs = std::size_t(p.at("WGS"));
  if (wgs > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (wgs > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  return "";
}

Params BlasExtraFamily::fit(const Params& tuned, const Capabilities& caps, const BlasExtraProblem& problem) const {
  const auto adjust = [&](Params p) {
    if (!is_patches(problem.routine)) p["PV"] = kDefaultPv;
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
  const std::string wgs = std::to_string(p.at("WGS"));
  const std::string idx = std::max(problem.indices, problem.elements) < (std::int64_t(1) << 32) ? "uint" : "ulong";
  if (problem.routine == BlasExtraRoutine::Im2col) {
    // Bits: f16 one ushort, f32 one uint, f64 and c32 one ulong, c64 two.
    const std::size_t es = dtype_size(problem.dtype);
    return {{"ELEM", es == 2 ? "ushort" : es == 4 ? "uint" : "ulong"},
            {"WORDS", es == 16 ? "2" : "1"},
            {"IDX", idx},
            {"PV", std::to_string(problem.pack)},
            {"WGS", wgs}};
  }
  if (problem.routine == BlasExtraRoutine::Col2im) {
    const std::string pv = std::to_string(problem.pack);
    if (problem.dtype == DType::F16) return {{"HALF", "1"}, {"IDX", idx}, {"PV", pv}, {"WGS", wgs}};
    const bool cx = is_complex(problem.dtype);
    return {{"TYPE", c_type_name(problem.dtype)},
            {"REAL", c_type_name(real_dtype(problem.dtype))},
            {"COMPLEX", cx ? "1" : "0"},
            {"ACC", c_type_name(problem.dtype)},
            {"IDX", idx},
            {"PV", pv},
            {"WGS", wgs}};
  }
  Defines d = blas_type_defines(problem.dtype);
  d.emplace_back("WGS", std::to_string(p.at("WGS")));
  return d;
}

KernelSource BlasExtraFamily::program(const Params& p, const BlasExtraProblem& problem) const {
  static const char* entries[] = {"extra_had", "extra_omatcopy", "extra_axpy_batched", "im2col", "col2im"};
  const std::string src = is_patches(problem.routine) ? "blas/im2col.cl" : source();
  return {src, is_patches(problem.routine) ? embedded_kernel_text(src) : blas_program_text(src), defines(p, problem),
          entries[int(problem.routine)]};
}

std::string BlasExtraFamily::bucket(const BlasExtraProblem& problem) const {
  const std::int64_t n = problem.elements * std::max<std::int64_t>(problem.batch, 1);
  const std::string size = n <= (1 << 16) ? "n<=2^16" : n <= (1 << 22) ? "n<=2^22" : "n>2^22";
  if (problem.routine == BlasExtraRoutine::Im2col) return "im2col/" + size;
  if (problem.routine == BlasExtraRoutine::Col2im) return "col2im/" + size;
  return size;
}

std::vector<std::string> BlasExtraFamily::buckets() const {
  return {"n<=2^16",        "n<=2^22",        "n>2^22",        "im2col/n<=2^16", "im2col/n<=2^22",
          "im2col/n>2^22",  "col2im/n<=2^16", "col2im/n<=2^22", "col2im/n>2^22"};
}

// im2col and col2im examples: 3 x 3 patches of 32 x 32 images (pad 1, stride
// 1), as many channels as the bucket's size asks (the tuning case makes the
// same shape from `elements`).
BlasExtraProblem BlasExtraFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  BlasExtraProblem pr;
  pr.dtype = dtype;
  if (bucket.rfind("im2col/", 0) == 0) pr.routine = BlasExtraRoutine::Im2col;
  if (bucket.rfind("col2im/", 0) == 0) pr.routine = BlasExtraRoutine::Col2im;
  std::int64_t n = bucket.find("n<=2^16") != std::string::npos   ? (1 << 16)
                   : bucket.find("n<=2^22") != std::string::npos ? (1 << 22)
                                                                   : (1 << 25);
  const std::int64_t cap = std::int64_t(caps.max_alloc_bytes / 4 / dtype_size(dtype));
  if (cap > 0 && n > cap) n = cap;
  if (is_patches(pr.routine)) n = blas_extra_patch_channels(n) * kPatchPlane;
  pr.elements = n;
  return pr;
}

std::int64_t blas_extra_patch_channels(std::int64_t elements) {
  return std::max<std::int64_t>(1, elements / kPatchPlane);
}

std::vector<DType> BlasExtraFamily::dtypes(const Capabilities& caps) const { return blas_family_dtypes(caps); }

namespace families {
const BlasExtraFamily& blas_extra() { static const BlasExtraFamily f; return f; }
}  // namespace families

}  // namespace optune::detail
