#include "kernels/blas/blas1.hpp"

#include <algorithm>

#include "kernels/blas/blas_types.hpp"

namespace optune::detail {

const char* blas1_routine_name(Blas1Routine r) noexcept {
  static const char* names[] = {"swap", "scal", "copy", "axpy", "rot",  "rotm",  "dot",
                                "dotu", "dotc", "sum",  "asum", "nrm2", "iamax", "iamin"};
  const int i = int(r);
  return i >= 0 && i <= int(Blas1Routine::Iamin) ? names[i] : "?";
}

bool blas1_is_reduction(Blas1Routine r) noexcept { return int(r) >= int(Blas1Routine::Dot); }

// Packs of at most blas_pack_bytes (on PoCL axpy f32 by packs of 8: 0.81x ->
// 1.17-1.79x CLBlast; f64 by 4 434-452 us against 629-693 by 2).
std::vector<Parameter> Blas1Family::parameters(const Capabilities& caps) const {
  return {
      {"WGS", {64, 128, 256, 512}, 256, "work-items per group (a power of two)"},
      {"VW", {1, 2, 4, 8}, caps.type == DeviceType::CPU ? 8 : 4,
       "increments 1: elements per access (packs of at most 16 bytes, 32 on CPUs; complex types on CPUs only, at "
       "most 4 elements, in the element-wise routines)"},
      {"WAVES", {0, 1, 2, 4, 8}, 0,
       "element-wise routines: at most this many waves of the device, grid-stride (0: a pack of VW per work-item)"},
      {"GROUPS", {0, 16, 32, 64, 128, 256, 512, 1024}, 1024,
       "reductions: at most this many groups in the first pass (0: a wave of the device, at most 1024)"},
      // PoCL vectorizes the packs' squares, not Blue's branch per part:
      // f32 nrm2 of 16 MiB 5.8 -> 2.2 ms (2-core EPYC). Not timed on GPUs.
      {"NRM2V", {0, 1}, caps.type == DeviceType::CPU ? 1 : 0,
       "nrm2 by packs (real types, increment 1): 1 the middle range's squares as vectors (OpenCL), 0 part by part"},
  };
}

std::string Blas1Family::check(const Params& p, const Capabilities& caps, const Blas1Problem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::size_t wgs = std::size_t(p.at("WGS"));
  if (wgs > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (wgs > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  if (wgs * partial_bytes(problem.dtype) > local_limit(caps)) return "the group's partial states exceed local memory";
  const std::int64_t vw = p.at("VW");
  // Complex packs: measured on PoCL only (axpy c32 950-1064 -> 539-646 us
  // by packs of 4 on a 2-core EPYC); GPUs keep single elements, and the
  // reductions read complex vectors element by element whatever VW says
  // (refused there, so that the tuner does not time one program twice).
  if (is_complex(problem.dtype) && vw > 1 && (caps.type != DeviceType::CPU || blas1_is_reduction(problem.routine)))
    return "complex vectors go by packs on CPUs only, in the element-wise routines (VW 1)";
  if (is_complex(problem.dtype) && vw > 4) return "complex vectors go by packs of at most 4 elements";
  if (std::size_t(vw) * dtype_size(problem.dtype) > blas_pack_bytes(caps))
    return "pack wider than " + std::to_string(blas_pack_bytes(caps)) + " bytes";
  return "";
}

Params Blas1Family::fit(const Params& tuned, const Capabilities& caps, const Blas1Problem& problem) const {
  const std::size_t es = dtype_size(problem.dtype);
  const auto adjust = [&](Params p) {
    // Packs of at most blas_pack_bytes (complex: on CPUs, of at most 4
    // elements, the element-wise entries only).
    if (is_complex(problem.dtype))
      p["VW"] = caps.type == DeviceType::CPU && !blas1_is_reduction(problem.routine)
                    ? std::min<std::int64_t>(p.at("VW"), 4) : 1;
    while (p.at("VW") > 1 && std::size_t(p.at("VW")) * es > blas_pack_bytes(caps)) p["VW"] /= 2;
    // Halve the group until the device takes it (CPUs through PoCL may cap it).
    while (p.at("WGS") > 64 && !check(p, caps, problem).empty()) p["WGS"] /= 2;
    return p;
  };
  const Params p = adjust(complete(tuned, caps));
  return check(p, caps, problem).empty() ? p : adjust(defaults(caps));
}

std::size_t Blas1Family::reduction_groups(const Params& p, const Capabilities& caps,
                                          const Blas1Problem& problem) const {
  const std::size_t wgs = std::size_t(p.at("WGS"));
  const std::size_t n = std::size_t(std::max<std::int64_t>(problem.n, 1));
  std::size_t cap = std::size_t(p.at("GROUPS"));
  if (cap == 0) {
    const std::size_t wave = std::size_t(caps.compute_units ? caps.compute_units : 1) * resident_per_unit(caps);
    cap = std::clamp<std::size_t>(wave / wgs, 1, 1024);
  }
  return std::clamp<std::size_t>((n + wgs - 1) / wgs, 1, cap);
}

Geometry Blas1Family::geometry(const Params& p, const Capabilities& caps, const Blas1Problem& problem) const {
  const std::size_t wgs = std::size_t(p.at("WGS"));
  const std::size_t n = std::size_t(std::max<std::int64_t>(problem.n, 1));
  Geometry g;
  g.local[0] = wgs;
  if (blas1_is_reduction(problem.routine)) {
    g.global[0] = reduction_groups(p, caps, problem) * wgs;
  } else if (problem.serial) {
    g.global[0] = wgs;
  } else {
    const std::size_t vw = std::size_t(p.at("VW")), packs = (n + vw - 1) / vw;
    const std::size_t wave = std::size_t(caps.compute_units ? caps.compute_units : 1) * resident_per_unit(caps);
    g.global[0] = p.at("WAVES") == 0 ? round_up(packs, wgs)
                                     : std::min(round_up(packs, wgs), round_up(wave * std::size_t(p.at("WAVES")), wgs));
  }
  return g;
}

Defines Blas1Family::defines(const Params& p, const Blas1Problem& problem) const {
  Defines d = blas_type_defines(problem.dtype);
  d.insert(d.end(), {{"REAL_DOUBLE", real_dtype(problem.dtype) == DType::F64 ? "1" : "0"},
                     {"WGS", std::to_string(p.at("WGS"))},
                     {"VW", std::to_string(p.at("VW"))},
                     {"NRM2V", std::to_string(p.at("NRM2V"))}});
  return d;
}

std::string Blas1Family::entry(Blas1Routine r) {
  switch (r) {
    case Blas1Routine::Dotu: case Blas1Routine::Dotc: case Blas1Routine::Sum: return "blas1_dot";
    case Blas1Routine::Iamin: return "blas1_iamax";
    default: return std::string("blas1_") + blas1_routine_name(r);
  }
}

std::string Blas1Family::final_entry(Blas1Routine r) {
  const std::string first = entry(r);
  return "blas1_final_" + first.substr(6);
}

KernelSource Blas1Family::program(const Params& p, const Blas1Problem& problem) const {
  return {source(), blas_program_text(source()), defines(p, problem), entry(problem.routine)};
}

std::string Blas1Family::bucket(const Blas1Problem& problem) const {
  const std::string kind = blas1_is_reduction(problem.routine) ? "reduce" : "map";
  const std::int64_t n = problem.n;
  return kind + (n <= (1 << 16) ? "/n<=2^16" : n <= (1 << 22) ? "/n<=2^22" : "/n>2^22");
}

std::vector<std::string> Blas1Family::buckets() const {
  return {"map/n<=2^16", "map/n<=2^22", "map/n>2^22", "reduce/n<=2^16", "reduce/n<=2^22", "reduce/n>2^22"};
}

Blas1Problem Blas1Family::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  Blas1Problem pr;
  pr.dtype = dtype;
  pr.routine = bucket.rfind("reduce", 0) == 0 ? Blas1Routine::Dot : Blas1Routine::Axpy;
  if (is_complex(dtype) && pr.routine == Blas1Routine::Dot) pr.routine = Blas1Routine::Dotc;
  std::int64_t n = bucket.find("2^16") != std::string::npos   ? (1 << 16)
                   : bucket.find("<=2^22") != std::string::npos ? (1 << 22)
                                                                : (1 << 25);
  // Two vectors within a quarter of the device's largest allocation each.
  const std::int64_t cap = std::int64_t(caps.max_alloc_bytes / 4 / dtype_size(dtype));
  if (cap > 0 && n > cap) n = cap;
  pr.n = n;
  return pr;
}

std::vector<DType> Blas1Family::dtypes(const Capabilities& caps) const { return blas_family_dtypes(caps); }

}  // namespace optune::detail
