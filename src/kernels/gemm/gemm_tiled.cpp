// The tiled GEMM kernel's parameters (gemm_tiled_defs.cl, gemm_tiled.cl), constraints and grid.
#include <algorithm>
#include <optional>

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
std::string async_check(const Params& p, const Capabilities& caps, const GemmProblem& pr, const TiledDefaults& d) {
  if (caps.backend != Backend::CUDA || caps.compute_capability_major < 8)
    return "ASYNC needs CUDA on compute capability 8.0 or newer (cp.async)";
  if (pr.dtype != DType::F32 && pr.dtype != DType::F64) return "ASYNC runs f32 and f64 only";
  if (!p.at("SA") || !p.at("SB")) return "ASYNC needs SA = 1 and SB = 1";
  const std::int64_t bytes = std::int64_t(gemm_kernels::comp_bytes(pr));
  if (p.at("VWM") * bytes != 16 || p.at("VWN") * bytes != 16)
    return "ASYNC needs 16-byte vectors (VWM = VWN = 16 / element size)";
  if (p.at("DB") != d.db) return "DB only applies with ASYNC = 0";
  return "";
}

}  // namespace

std::vector<Parameter> GemmTiledFamily::parameters(const Capabilities& caps) const {
  const TiledDefaults d = defaults_for(caps);
  const std::vector<std::int64_t> tiles{8, 16, 32, 64, 128, 256}, dims{1, 2, 4, 8, 16, 32}, widths{1, 2, 4, 8, 16};
  std::vector<Parameter> params{
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
      // Per operand: which of the two costs less depends on the pair of
      // transposes (an NT product has both operands along K), so the
      // database keys on the pair (buckets "large/nt", ...).
      {"KCONTIG_A", {0, 1}, 1,
       "1: A stored M x K is read as it lies (transposed on the way to local memory); 0: by a transposition pass"},
      {"KCONTIG_B", {0, 1}, 1,
       "1: B stored N x K is read as it lies (transposed on the way to local memory); 0: by a transposition pass"},
      {"KSEG", {1, 2, 4, 8, 32}, 32,
       "with KCONTIG_A or KCONTIG_B: vectors along K that adjacent work-items load from one row (32: the whole row "
       "of the tile)"},
      // Off by default everywhere: the tuner (or OPTUNE_PARAMS) turns it on
      // where it measures faster.
      {"ASYNC", {0, 1}, 0, "1: cp.async copies global -> local, STAGES deep (CUDA, compute capability 8.0+)"},
      {"STAGES", {2, 3}, 2, "local stages with ASYNC = 1"},
  };
  // Split K (the host's: not defines).
  for (Parameter& sp : gemm_kernels::split_parameters(caps)) params.push_back(std::move(sp));
  return params;
}

std::string GemmTiledFamily::check(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const TiledDefaults d = defaults_for(caps);
  const std::int64_t mwg = p.at("MWG"), nwg = p.at("NWG"), kwg = p.at("KWG"), mdimc = p.at("MDIMC"),
                     ndimc = p.at("NDIMC"), vwm = p.at("VWM"), vwn = p.at("VWN"), wgs = mdimc * ndimc;
  const bool sa = p.at("SA"), sb = p.at("SB");
  if (std::string why = gemm_kernels::fits_group(caps, ndimc, mdimc); !why.empty()) return why;
  if (mwg % (mdimc * vwm)) return "MWG is not a multiple of MDIMC * VWM";
  if (nwg % (ndimc * vwn)) return "NWG is not a multiple of NDIMC * VWN";
  if (kwg % p.at("KWI")) return "KWG is not a multiple of KWI";
  if ((mwg / mdimc) * (nwg / ndimc) > 256) return "more than 256 accumulators per work-item";
  if (!gemm_kernels::vector_ok(caps, pr, vwm) || !gemm_kernels::vector_ok(caps, pr, vwn))
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
  if (!p.at("KCONTIG_A") && !p.at("KCONTIG_B") && p.at("KSEG") != 32)
    return "KSEG only applies with KCONTIG_A = 1 or KCONTIG_B = 1";
  const bool async = p.at("ASYNC");
  if (async) {
    if (std::string why = async_check(p, caps, pr, d); !why.empty()) return why;
  } else if (p.at("STAGES") != 2) {
    return "STAGES only applies with ASYNC = 1";
  }
  const std::uint64_t stages = async ? std::uint64_t(p.at("STAGES")) : p.at("DB") ? 2 : 1;
  const std::uint64_t local = stages * std::uint64_t(kwg) * std::uint64_t((sa ? mwg : 0) + (sb ? nwg : 0)) *
                              gemm_kernels::comp_bytes(pr);
  if (local > local_limit(caps)) return "local tiles exceed the device's local memory";
  return "";
}

Geometry GemmTiledFamily::geometry(const Params& p, const Capabilities&, const GemmProblem& pr) const {
  // Over the padded problem: whole tiles.
  const std::size_t mwg = std::size_t(p.at("MWG")), nwg = std::size_t(p.at("NWG"));
  Geometry g;
  g.dims = 3;
  g.local[0] = std::size_t(p.at("NDIMC"));
  g.local[1] = std::size_t(p.at("MDIMC"));
  g.global[0] = round_up(std::size_t(std::max<std::int64_t>(pr.n, 1)), nwg) / nwg * g.local[0];
  g.global[1] = round_up(std::size_t(std::max<std::int64_t>(pr.m, 1)), mwg) / mwg * g.local[1];
  g.global[2] = std::size_t(pr.batch);
  return g;
}

std::optional<Params> GemmTiledFamily::fit_or_none(const Params& tuned, const Capabilities& caps,
                                                   const GemmProblem& pr) const {
  Params p = complete(tuned, caps);
  while (p["VWM"] > 1 && !gemm_kernels::vector_ok(caps, pr, p["VWM"])) p["VWM"] /= 2;
  while (p["VWN"] > 1 && !gemm_kernels::vector_ok(caps, pr, p["VWN"])) p["VWN"] /= 2;
  if (p["ASYNC"] && !check(p, caps, pr).empty()) p["STAGES"] = 2;
  if (p["ASYNC"] && !check(p, caps, pr).empty()) p["ASYNC"] = 0;
  if (!check(p, caps, pr).empty()) p["DB"] = 0;
  if (!check(p, caps, pr).empty()) return std::nullopt;
  if (p["SPLITK"] == 0) {
    if (const std::int64_t s = auto_split(p, caps, pr); s > 1) p["SPLITK"] = s;
  }
  return p;
}

std::int64_t GemmTiledFamily::auto_split(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  using gemm_kernels::tiles;
  const std::int64_t groups = tiles(pr.m, p.at("MWG")) * tiles(pr.n, p.at("NWG")) * pr.batch;
  return gemm_kernels::auto_split(p, caps, groups, tiles(pr.k, p.at("KWG")) * p.at("KWG"), pr.list);
}

Params GemmTiledFamily::fit(const Params& tuned, const Capabilities& caps, const GemmProblem& pr) const {
  if (auto p = fit_or_none(tuned, caps, pr)) return *p;
  throw Error(Status::Unsupported, "gemm: the tiled kernel cannot run " + params_to_json(tuned) + " here (" +
                                       check(complete(tuned, caps), caps, pr) + ")");
}

namespace {

// Whether the tiled kernel can address an operand in place with 32-bit tile
// offsets.
bool small_ld(std::int64_t ld, std::int64_t rows) { return ld * rows < (std::int64_t(1) << 31); }

// Whether the tiled kernel can load an operand stored with its rows along K
// (A_KCONTIG, B_KCONTIG): staged in local memory, rows of whole vectors, and
// the group's work-items cover the tile in whole rows.
bool kcontig_ok(const Params& p, bool staged, std::int64_t tile, std::int64_t vw) {
  const std::int64_t wgs = p.at("MDIMC") * p.at("NDIMC"), kwg = p.at("KWG");
  if (!staged || kwg % vw) return false;
  const std::int64_t per_row = kwg / vw;
  return wgs % per_row == 0 && tile % (wgs / per_row) == 0;
}

}  // namespace

TiledPlan GemmTiledFamily::plan(const Params& p, const GemmProblem& pr) const {
  TiledPlan t;
  const std::int64_t mwg = p.at("MWG"), nwg = p.at("NWG"), kwg = p.at("KWG"), vwm = p.at("VWM"), vwn = p.at("VWN");
  t.mp = (pr.m + mwg - 1) / mwg * mwg, t.np = (pr.n + nwg - 1) / nwg * nwg, t.kp = (pr.k + kwg - 1) / kwg * kwg;
  // A fits stored K x M, or M x K when the kernel can transpose it on its
  // way to local memory (KCONTIG_A = 1; the in-kernel transposition costs
  // scattered local stores, a separate pass costs a read and a write of A);
  // B likewise (K x N, or N x K with KCONTIG_B). cp.async (ASYNC) copies
  // tiles unchanged, so it needs K x M and K x N.
  const bool async = p.at("ASYNC");
  const bool a_kc = p.at("KCONTIG_A") && !async && !pr.trans_a && kcontig_ok(p, p.at("SA"), mwg, vwm);
  const bool b_kc = p.at("KCONTIG_B") && !async && pr.trans_b && kcontig_ok(p, p.at("SB"), nwg, vwn);
  t.a_fits = (pr.trans_a || a_kc) && pr.m == t.mp && pr.k == t.kp && pr.align_a % vwm == 0 &&
             small_ld(pr.lda, pr.trans_a ? kwg : mwg);
  t.b_fits = (!pr.trans_b || b_kc) && pr.n == t.np && pr.k == t.kp && pr.align_b % vwn == 0 &&
             small_ld(pr.ldb, pr.trans_b ? nwg : kwg);
  t.c_fits = pr.m == t.mp && pr.n == t.np && pr.align_c % vwn == 0;
  t.a_kcontig = t.a_fits && !pr.trans_a;
  t.b_kcontig = t.b_fits && pr.trans_b;
  const std::size_t elem = dtype_size(pr.dtype), epi = pr.dtype == DType::F64 ? 8 : 4;
  // Split K: whole K steps per range, every range non-empty.
  const gemm_kernels::KSplit sk =
      gemm_kernels::split_k(p, t.kp, kwg, std::uint64_t(t.mp) * std::uint64_t(t.np) * epi, pr.batch, pr.list);
  t.splits = sk.splits, t.kspan = sk.kspan;
  if (t.splits > 1) t.c_fits = false;
  if (!t.a_fits) t.scratch[0] = gemm_kernels::scratch_bytes(t.kp, t.mp, elem, pr.batch, "padded A");
  if (!t.b_fits) t.scratch[1] = gemm_kernels::scratch_bytes(t.kp, t.np, elem, pr.batch, "padded B");
  if (!t.c_fits)
    t.scratch[2] = gemm_kernels::scratch_bytes(t.mp * t.splits, t.np, epi, pr.batch,
                                               t.splits > 1 ? "split-K partial products" : "padded C");
  return t;
}

Defines GemmTiledFamily::defines(const Params& p, const GemmProblem& pr) const {
  const TiledPlan t = plan(p, pr);
  Defines d = GemmFamilyBase::defines(p, pr);
  gemm_kernels::strip_split(d);  // the host's: one program serves every count
  d.insert(d.end(), {{"C_DIRECT", t.c_fits ? "1" : "0"}, {"COMP_HALF", pr.dtype == DType::F16 && pr.comp_half ? "1" : "0"},
                     {"A_KCONTIG", t.a_kcontig ? "1" : "0"}, {"B_KCONTIG", t.b_kcontig ? "1" : "0"}});
  return d;
}

}  // namespace optune::detail
