// The direct GEMM kernel's parameters (gemm_direct.cl), constraints and grid.
#include <algorithm>

#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

// GPUs: CLBlast's direct-kernel defaults (32 x 32 tiles, 8 x 8 work-items,
// padded local tiles). CPUs (PoCL): 64 x 64 tiles with each work-item an
// 8 x 8 block (8 adjacent rows, two groups of 4 adjacent columns), the best
// of a random search on a 2-core EPYC (3.5x the GPU shape at 128^3).
std::vector<Parameter> GemmDirectFamily::parameters(const Capabilities& caps) const {
  const bool cpu = caps.type == DeviceType::CPU;
  return {
      {"WGD", {8, 16, 32, 64, 128}, cpu ? 64 : 32, "tile of C per group (M and N) and of K per step"},
      {"MDIMCD", {2, 4, 8, 16, 32}, 8, "work-items along M"},
      {"NDIMCD", {2, 4, 8, 16, 32}, 8, "work-items along N"},
      {"KWID", {1, 2, 4, 8, 16}, cpu ? 1 : 2, "unroll of the loop over a tile's K"},
      {"VWMD", {1, 2, 4, 8}, cpu ? 8 : 1, "adjacent rows a work-item owns per row group (1: interleaved rows)"},
      {"VWND", {1, 2, 4, 8}, cpu ? 4 : 1, "adjacent columns a work-item owns per column group"},
      {"PADA", {0, 1}, 1, "extra local elements per row of the A tile"},
      {"PADB", {0, 1}, cpu ? 0 : 1, "extra local elements per row of the B tile"},
      {"LCHUNK", {1, 4, 8, 16}, 8, "tile loads per operand a work-item issues before storing them to local memory"},
  };
}

std::string GemmDirectFamily::check(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::int64_t wgd = p.at("WGD"), mc = p.at("MDIMCD"), nc = p.at("NDIMCD");
  if (std::string why = gemm_kernels::fits_group(caps, nc, mc); !why.empty()) return why;
  if (wgd % (mc * p.at("VWMD"))) return "WGD is not a multiple of MDIMCD * VWMD";
  if (wgd % (nc * p.at("VWND"))) return "WGD is not a multiple of NDIMCD * VWND";
  if (wgd % p.at("KWID")) return "WGD is not a multiple of KWID";
  if ((wgd / mc) * (wgd / nc) > 256) return "more than 256 accumulators per work-item";
  const std::uint64_t local = std::uint64_t(wgd) * std::uint64_t(2 * wgd + p.at("PADA") + p.at("PADB")) *
                              gemm_kernels::comp_bytes(pr);
  if (local > local_limit(caps)) return "local tiles exceed the device's local memory";
  return "";
}

Geometry GemmDirectFamily::geometry(const Params& p, const Capabilities&, const GemmProblem& pr) const {
  const std::size_t wgd = std::size_t(p.at("WGD"));
  const std::size_t m = std::size_t(std::max<std::int64_t>(pr.m, 1));
  const std::size_t n = std::size_t(std::max<std::int64_t>(pr.n, 1));
  Geometry g;
  g.dims = 3;
  g.local[0] = std::size_t(p.at("NDIMCD"));
  g.local[1] = std::size_t(p.at("MDIMCD"));
  g.global[0] = (n + wgd - 1) / wgd * g.local[0];
  g.global[1] = (m + wgd - 1) / wgd * g.local[1];
  g.global[2] = std::size_t(pr.batch);
  return g;
}

Defines GemmDirectFamily::defines(const Params& p, const GemmProblem& pr) const {
  Defines d = GemmFamilyBase::defines(p, pr);
  d.emplace_back("COMP_HALF", pr.dtype == DType::F16 && pr.comp_half ? "1" : "0");
  return d;
}

Params GemmDirectFamily::fit(const Params& tuned, const Capabilities& caps, const GemmProblem& pr) const {
  Params p = complete(tuned, caps);
  if (check(p, caps, pr).empty()) return p;
  p = defaults(caps);
  while (p["WGD"] > 8 && !check(p, caps, pr).empty()) p["WGD"] /= 2;
  if (std::string why = check(p, caps, pr); !why.empty())
    throw Error(Status::Unsupported, "gemm: no direct kernel configuration fits this device: " + why);
  return p;
}

Params GemmDirectFamily::shrink(Params p, const Capabilities& caps, const GemmProblem& pr) const {
  const std::int64_t extent = std::max<std::int64_t>({pr.m, pr.n, 1});
  while (p["WGD"] > 8 && extent * 2 <= p["WGD"]) {
    Params q = p;
    q["WGD"] /= 2;
    while (q["MDIMCD"] > 1 && q["WGD"] % (q["MDIMCD"] * q["VWMD"])) q["MDIMCD"] /= 2;
    while (q["NDIMCD"] > 1 && q["WGD"] % (q["NDIMCD"] * q["VWND"])) q["NDIMCD"] /= 2;
    while (q["KWID"] > 1 && q["WGD"] % q["KWID"]) q["KWID"] /= 2;
    if (!check(q, caps, pr).empty()) break;
    p = q;
  }
  return p;
}

}  // namespace optune::detail
