// The tiled GEMM kernel's parameters (gemm_tiled.cl), constraints and grid.
#include <algorithm>

#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

namespace {

struct TiledDefaults {
  std::int64_t mwg, nwg, kwg, mdimc, ndimc, mdima, ndimb, kwi, vwm, vwn, strm, strn, sa, sb, db;
};

// NVIDIA: 128 x 128 tiles of 256 work-items with 8 x 8 accumulators each,
// float4 accesses everywhere, both operands staged and double-buffered
// (32 KiB of local memory) -- the shape of the fastest published SGEMM
// kernels on Ampere and Hopper without tensor cores. Other GPUs: the same
// with 64 x 64 tiles (4 x 4 per work-item), which fits mobile GPUs' smaller
// register files and local memories. CPUs (PoCL): no local memory (a work-
// group runs on one core, whose caches stage the tiles), each work-item an
// 8 x 32 block as two 16-lane vectors per row (AVX-512 registers), the
// shape measured best on a 2-core EPYC.
TiledDefaults defaults_for(const Capabilities& caps) {
  if (caps.type == DeviceType::CPU) return {64, 64, 32, 8, 2, 8, 2, 4, 8, 16, 0, 0, 0, 0, 0};
  if (caps.architecture.rfind("sm_", 0) == 0 || caps.vendor.find("NVIDIA") != std::string::npos)
    return {128, 128, 16, 16, 16, 32, 32, 2, 4, 4, 1, 1, 1, 1, 1};
  return {64, 64, 16, 16, 16, 16, 16, 2, 4, 4, 1, 1, 1, 1, 1};
}

// "" when ASYNC = 1 can run: cp.async exists (CUDA, compute capability 8.0
// or newer) and each copy is one 16-byte vector of the storage type, which
// local memory holds unconverted (f32 with VWM = VWN = 4, f64 with 2; f16 is
// refused: half storage is staged as float, and CUDA has no 8-lane half
// vector). A and B must be staged; the routine then stores them in the
// kernel's layout (K x M, K x N) rather than loading them along K.
std::string async_check(const Params& p, const Capabilities& caps, const Problem& pr, const TiledDefaults& d) {
  if (caps.backend != Backend::CUDA || caps.compute_capability_major < 8)
    return "ASYNC needs CUDA on compute capability 8.0 or newer (cp.async)";
  if (pr.dtype != DType::F32 && pr.dtype != DType::F64) return "ASYNC runs f32 and f64 only";
  if (!p.at("SA") || !p.at("SB")) return "ASYNC needs SA = 1 and SB = 1";
  const std::int64_t bytes = std::int64_t(gemm::comp_bytes(pr));
  if (p.at("VWM") * bytes != 16 || p.at("VWN") * bytes != 16)
    return "ASYNC needs 16-byte vectors (VWM = VWN = 16 / element size)";
  if (p.at("DB") != d.db) return "DB only applies with ASYNC = 0";
  return "";
}

}  // namespace

std::vector<Parameter> GemmTiledFamily::parameters(const Capabilities& caps) const {
  const TiledDefaults d = defaults_for(caps);
  const std::vector<std::int64_t> tiles{8, 16, 32, 64, 128, 256}, dims{1, 2, 4, 8, 16, 32}, widths{1, 2, 4, 8, 16};
  return {
      {"MWG", tiles, d.mwg, "rows of C per group"},
      {"NWG", tiles, d.nwg, "columns of C per group"},
      {"KWG", {8, 16, 32, 64}, d.kwg, "K per step (depth of the staged tiles)"},
      {"MDIMC", dims, d.mdimc, "work-items along M"},
      {"NDIMC", dims, d.ndimc, "work-items along N"},
      {"MDIMA", dims, d.mdima, "work-items along M when loading the A tile (with SA)"},
      {"NDIMB", dims, d.ndimb, "work-items along N when loading the B tile (with SB)"},
      {"KWI", {1, 2, 4, 8}, d.kwi, "unroll of the loop over a tile's K"},
      {"VWM", widths, d.vwm, "vector width along M (A loads)"},
      {"VWN", widths, d.vwn, "vector width along N (B loads, accumulators, C)"},
      {"STRM", {0, 1}, d.strm, "0: a work-item's rows are contiguous; 1: strided by MDIMC vectors"},
      {"STRN", {0, 1}, d.strn, "0: a work-item's columns are contiguous; 1: strided by NDIMC vectors"},
      {"SA", {0, 1}, d.sa, "1: stage A tiles in local memory"},
      {"SB", {0, 1}, d.sb, "1: stage B tiles in local memory"},
      {"DB", {0, 1}, d.db, "1: two local stages, next tile prefetched to registers, one barrier per step"},
      {"KCONTIG", {0, 1}, 1,
       "1: A stored M x K and B stored N x K are read as they lie (transposed on the way to local memory); 0: by a "
       "transposition pass"},
      {"KSEG", {1, 2, 4, 8, 32}, 32,
       "with KCONTIG: vectors along K that adjacent work-items load from one row (32: the whole row of the tile)"},
      // Off by default everywhere: the tuner (or OPTUNE_PARAMS) turns it on
      // where it measures faster.
      {"ASYNC", {0, 1}, 0, "1: cp.async copies global -> local, STAGES deep (CUDA, compute capability 8.0+)"},
      {"STAGES", {2, 3}, 2, "local stages with ASYNC = 1"},
  };
}

std::string GemmTiledFamily::check(const Params& p, const Capabilities& caps, const Problem& pr) const {
  if (std::string why = KernelFamily::check(p, caps, pr); !why.empty()) return why;
  const TiledDefaults d = defaults_for(caps);
  const std::int64_t mwg = p.at("MWG"), nwg = p.at("NWG"), kwg = p.at("KWG"), mdimc = p.at("MDIMC"),
                     ndimc = p.at("NDIMC"), vwm = p.at("VWM"), vwn = p.at("VWN"), wgs = mdimc * ndimc;
  const bool sa = p.at("SA"), sb = p.at("SB");
  if (std::string why = gemm::fits_group(caps, ndimc, mdimc); !why.empty()) return why;
  if (mwg % (mdimc * vwm)) return "MWG is not a multiple of MDIMC * VWM";
  if (nwg % (ndimc * vwn)) return "NWG is not a multiple of NDIMC * VWN";
  if (kwg % p.at("KWI")) return "KWG is not a multiple of KWI";
  if ((mwg / mdimc) * (nwg / ndimc) > 256) return "more than 256 accumulators per work-item";
  if (!gemm::vector_ok(caps, pr, vwm, true) || !gemm::vector_ok(caps, pr, vwn, false))
    return "vector width not available for this type on this backend";
  if (sa) {
    const std::int64_t mdima = p.at("MDIMA");
    if (wgs % mdima) return "MDIMA does not divide the work-group";
    if (mwg % (mdima * vwm)) return "MWG is not a multiple of MDIMA * VWM";
    if (kwg % (wgs / mdima)) return "KWG is not a multiple of the A-loading rows (MDIMC NDIMC / MDIMA)";
  } else if (p.at("MDIMA") != d.mdima) {
    return "MDIMA only applies with SA = 1";
  }
  if (sb) {
    const std::int64_t ndimb = p.at("NDIMB");
    if (wgs % ndimb) return "NDIMB does not divide the work-group";
    if (nwg % (ndimb * vwn)) return "NWG is not a multiple of NDIMB * VWN";
    if (kwg % (wgs / ndimb)) return "KWG is not a multiple of the B-loading rows (MDIMC NDIMC / NDIMB)";
  } else if (p.at("NDIMB") != d.ndimb) {
    return "NDIMB only applies with SB = 1";
  }
  if (p.at("DB") && !sa && !sb) return "DB needs SA or SB";
  if (!p.at("KCONTIG") && p.at("KSEG") != 32) return "KSEG only applies with KCONTIG = 1";
  const bool async = p.at("ASYNC");
  if (async) {
    if (std::string why = async_check(p, caps, pr, d); !why.empty()) return why;
  } else if (p.at("STAGES") != 2) {
    return "STAGES only applies with ASYNC = 1";
  }
  const std::uint64_t stages = async ? std::uint64_t(p.at("STAGES")) : p.at("DB") ? 2 : 1;
  const std::uint64_t local = stages * std::uint64_t(kwg) * std::uint64_t((sa ? mwg : 0) + (sb ? nwg : 0)) *
                              gemm::comp_bytes(pr);
  if (local > gemm::local_limit(caps)) return "local tiles exceed the device's local memory";
  return "";
}

Geometry GemmTiledFamily::geometry(const Params& p, const Capabilities&, const Problem& pr) const {
  const std::size_t mwg = std::size_t(p.at("MWG")), nwg = std::size_t(p.at("NWG"));
  Geometry g;
  g.dims = 3;
  g.local[0] = std::size_t(p.at("NDIMC"));
  g.local[1] = std::size_t(p.at("MDIMC"));
  g.global[0] = round_up(std::size_t(std::max<std::int64_t>(pr.sizes.at(1), 1)), nwg) / nwg * g.local[0];
  g.global[1] = round_up(std::size_t(std::max<std::int64_t>(pr.sizes.at(0), 1)), mwg) / mwg * g.local[1];
  g.global[2] = std::size_t(pr.sizes.size() > 3 ? pr.sizes[3] : 1);
  return g;
}

}  // namespace optune::detail
