#include "kernels/blas/blas_tri.hpp"

#include <algorithm>

#include "kernels/blas/blas_types.hpp"

namespace optune::detail {

std::vector<Parameter> BlasTriFamily::parameters(const Capabilities& caps) const {
  return {
      {"WGS", {64, 128, 256, 512}, 256, "work-items per group (NB rows times WGS / NB lanes)"},
      // GPUs: half as many steps in the solve's chain as with 32 (its local
      // inverse needs 64^2 elements: fit() halves NB where they do not fit).
      {"NB", {8, 16, 32, 64}, caps.type == DeviceType::CPU ? 32 : 64,
       "rows per panel (solves: the diagonal block's order, the chain's step)"},
      // GPUs: enough groups to stream the triangle at the memory's rate.
      {"SW", {0, 64, 128, 256, 512, 1024, 2048}, caps.type == DeviceType::CPU ? 0 : 256,
       "products: columns per slice of a panel's rows (0: one slice, the whole row)"},
      // GPUs: 4-wide loads down the columns where they are aligned.
      {"RV", {1, 4}, caps.type == DeviceType::CPU ? 1 : 4,
       "products: rows per work-item (4: tri_mv4, one 4-wide load per column where aligned)"},
      // CPUs (PoCL) run a few groups at a time on shared cores, where a group
      // that spins costs its thread: one launch per panel there.
      {"PERSIST", {0, 1}, caps.type == DeviceType::CPU ? 0 : 1,
       "solves: 1 one launch whose groups wait on each other's flags, 0 one launch per panel"},
      // GPUs: the late panels' long rows streamed by 3 groups besides the
      // solving one (PERSIST 1 only).
      {"HELP", {0, 1, 3, 7}, caps.type == DeviceType::CPU ? 0 : 3,
       "solves with PERSIST 1: groups per panel that stream its rows for the solving group"},
  };
}

std::string BlasTriFamily::check(const Params& p, const Capabilities& caps, const BlasTriProblem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::size_t wgs = std::size_t(p.at("WGS")), nb = std::size_t(p.at("NB"));
  if (wgs > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (wgs > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  if (nb > wgs || wgs % nb != 0) return "NB must divide WGS";
  const std::size_t es = dtype_size(blas_compute_dtype(problem.dtype));
  // Solves: red[WGS], dinv[NB^2], vec[NB] and col[NB]; products red[WGS]
  // (tri_mv4: red[4 WGS]). Every kernel is in each program of the type, NB
  // and WGS, so each must fit whatever the problem (a c64 product with NB 64
  // failed to build on CUDA: tri_sv's 70 KiB).
  const std::size_t local = std::max(wgs + nb * nb + 2 * nb, 4 * wgs) * es + 16;
  if (local > local_limit(caps)) return "the group's local arrays exceed local memory";
  return "";
}

Params BlasTriFamily::fit(const Params& tuned, const Capabilities& caps, const BlasTriProblem& problem) const {
  // A group beyond the device's limits halves WGS (NB with it where NB
  // would no longer divide it); local arrays beyond its memory halve NB.
  const auto adjust = [&](Params p) {
    const auto limit = std::int64_t(std::min(caps.max_work_group_size, caps.max_work_item_sizes[0]));
    while (!check(p, caps, problem).empty()) {
      if (p.at("WGS") > 64 && p.at("WGS") > limit) {
        p["WGS"] /= 2;
        p["NB"] = std::min(p.at("NB"), p.at("WGS"));
      } else if (p.at("NB") > 8) {
        p["NB"] /= 2;
      } else if (p.at("WGS") > 64) {
        p["WGS"] /= 2;
      } else {
        break;
      }
    }
    return p;
  };
  const Params p = adjust(complete(tuned, caps));
  return check(p, caps, problem).empty() ? p : adjust(defaults(caps));
}

Geometry BlasTriFamily::geometry(const Params& p, const Capabilities&, const BlasTriProblem& problem) const {
  const std::size_t wgs = std::size_t(p.at("WGS")), nb = std::size_t(p.at("NB"));
  const std::size_t n = std::size_t(std::max<std::int64_t>(problem.n, 1));
  Geometry g;
  g.local[0] = wgs;
  const std::size_t panels = (n + nb - 1) / nb;
  if (problem.solve) {
    // Launched per panel: one group each; in one launch, HELP + 1 per panel.
    g.global[0] = p.at("PERSIST") == 0 ? wgs : panels * std::size_t(p.at("HELP") + 1) * wgs;
  } else {
    // Products: panels x slices of a full triangle's longest span (the
    // host narrows it for bands).
    g.dims = 2;
    g.global[0] = panels * wgs;
    g.global[1] = mv_slices(p, n, n - 1);
  }
  return g;
}

std::size_t BlasTriFamily::mv_slices(const Params& p, std::size_t n, std::size_t k) {
  const std::size_t sw = std::size_t(p.at("SW")), span = std::min(n, k + std::size_t(p.at("NB")));
  return sw == 0 ? 1 : (span + sw - 1) / sw;
}

Defines BlasTriFamily::defines(const Params& p, const BlasTriProblem& problem) const {
  Defines d = blas_type_defines(problem.dtype);
  d.insert(d.end(), {{"WGS", std::to_string(p.at("WGS"))}, {"NB", std::to_string(p.at("NB"))}});
  return d;
}

KernelSource BlasTriFamily::program(const Params& p, const BlasTriProblem& problem) const {
  return {source(), blas_program_text(source()), defines(p, problem),
          problem.solve ? "tri_sv" : p.at("RV") == 4 ? "tri_mv4" : "tri_mv"};
}

std::string BlasTriFamily::bucket(const BlasTriProblem& problem) const {
  const std::int64_t n = problem.n;
  return std::string(problem.solve ? "sv" : "mv") + (n <= 256 ? "/n<=256" : n <= 4096 ? "/n<=4096" : "/n>4096");
}

std::vector<std::string> BlasTriFamily::buckets() const {
  return {"mv/n<=256", "mv/n<=4096", "mv/n>4096", "sv/n<=256", "sv/n<=4096", "sv/n>4096"};
}

BlasTriProblem BlasTriFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  BlasTriProblem pr;
  pr.dtype = dtype;
  pr.solve = bucket.rfind("sv", 0) == 0;
  std::int64_t n = bucket.find("<=256") != std::string::npos ? 256 : bucket.find("<=4096") != std::string::npos ? 4096 : 8192;
  // The full matrix within half the device's largest allocation.
  while (n > 256 && std::uint64_t(n) * std::uint64_t(n) * dtype_size(dtype) > caps.max_alloc_bytes / 2) n /= 2;
  pr.n = n;
  return pr;
}

std::vector<DType> BlasTriFamily::dtypes(const Capabilities& caps) const {
  return blas_family_dtypes(caps);
}

namespace families {
const BlasTriFamily& blas_tri() { static const BlasTriFamily f; return f; }
}  // namespace families

}  // namespace optune::detail
