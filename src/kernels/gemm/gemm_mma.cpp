// The tensor-core GEMM kernel's parameters (gemm_mma_defs.cl, gemm_mma.cl), constraints and
// grid. The rules mirror the kernel's static_asserts and its header comment,
// so a configuration this file accepts compiles and launches.
#include <algorithm>
#include <optional>

#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

namespace {

// Static shared memory a kernel may declare; beyond it the kernel declares
// its stages `extern` and needs a dynamic launch, which this family does not ask for.
constexpr std::uint64_t kStaticSmem = 48 * 1024;
// CUDA's grid limit in y (the M tiles).
constexpr std::int64_t kMaxGridY = 65535;

bool mma_device(const Capabilities& caps) {
  return caps.backend == Backend::CUDA && caps.compute_capability_major >= 8;
}

// f64 runs the m16n8k8 f64 shape, which compute capability 9.0 introduced.
bool f64_device(const Capabilities& caps) { return mma_device(caps) && caps.compute_capability_major >= 9; }

bool power_of_two(std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// FULL_TILES as the kernel takes it: 2 is 1 for f64, 0 otherwise.
std::int64_t full_tiles(std::int64_t v, const GemmProblem& pr) { return v == 2 ? pr.dtype == DType::F64 : v; }

std::int64_t threads_of(const Params& p) {
  return 32 * (p.at("BM") / p.at("WM")) * (p.at("BN") / p.at("WN"));
}

// Bytes of one A or B element: 8 for f64, 4 for f32 (tf32), else 2.
std::size_t elem_of(const GemmProblem& pr) {
  return pr.dtype == DType::F64 ? 8 : pr.dtype == DType::F32 ? 4 : 2;
}

// The shared memory a configuration may take: f16, bf16 and tf32 declare
// their stages statically (48 KiB); f64, whose 128 x 128 tiles of doubles
// need 32 KiB per stage, asks for dynamic shared memory up to the device's
// opt-in limit.
std::uint64_t smem_limit(const Capabilities& caps, const GemmProblem& pr) {
  if (pr.dtype != DType::F64) return kStaticSmem;
  return std::max(caps.shared_mem_per_block_optin_bytes, caps.local_mem_bytes);
}

}  // namespace

std::vector<DType> GemmMmaFamily::dtypes(const Capabilities& caps) const {
  if (!mma_device(caps)) return {};
  if (f64_device(caps)) return {DType::F16, DType::BF16, DType::F32, DType::F64};
  return {DType::F16, DType::BF16, DType::F32};
}

// The kernel's own defaults for f16 (BK 32, WN 64): 128 x 128 tiles of four
// 64 x 64 warps, three stages of 32 along K (48 KiB, the static limit).
std::vector<Parameter> GemmMmaFamily::parameters(const Capabilities& caps) const {
  std::vector<Parameter> params{
      {"BM", {16, 32, 64, 128, 256}, 128, "rows of C per group (16, 32: thin products)"},
      {"BN", {16, 32, 64, 128, 256}, 128, "columns of C per group (16, 32: thin products)"},
      {"BK", {16, 32, 64}, 32, "K per shared stage (an even number of mma steps: 16 deep, 8 for tf32)"},
      {"WM", {16, 32, 64}, 64, "rows of C per warp"},
      {"WN", {16, 32, 64}, 64, "columns of C per warp"},
      {"STAGES", {2, 3, 4, 5}, 3, "shared stages of the cp.async pipeline"},
      {"SWIZZLE_GROUP", {1, 4, 8, 16}, 8, "tile rows (along M) visited together, for L2 reuse; 1: row by row"},
      // H200: f64 4096^3 2859 -> 2520 us with 1; tf32's three products
      // 1-4% slower with it (48 x 4096 x 4096, 512 x 2048 x 512), f16
      // unchanged: 2 takes 1 for f64 only (docs/DESIGN.md, "gemm_mma's f64 loads").
      {"FULL_TILES", {0, 1, 2}, 2,
       "1: K tiles wholly inside A, B and the K range are copied without edge tests; 0: every tile tested; "
       "2: 1 for f64, 0 otherwise"},
  };
  for (Parameter& sp : gemm_kernels::split_parameters(caps)) params.push_back(std::move(sp));
  params.push_back({"FUSE", {0, 1}, 0,
                    "split K: 1 the partials added by each tile's last range in the same kernel (arrival tickets), "
                    "0 by gemm_copy_back, a second launch"});
  // H200, f32 (three tf32 products) from a 64 x 64 entry: 512^3 28.6 -> 19.0
  // us, 640^3 37.4 -> 32.0, 384^3 23.1 -> 16.2; 768^3 and 1024^3 fill the
  // device with 64 x 64 tiles and keep them (docs/DESIGN.md, "Tiles that fill").
  params.push_back({"TILE_FILL", {0, 1}, 0,
                    "1: where the tiles leave compute units idle (fewer groups than SK_FILL per compute unit), "
                    "BM, BN, WM and WN are halved while the warp tiles stay 16 or more and the tile square or at least 64 a "
                    "side, before K is split"});
  // H200, f32 64 x 512^3: 4096 tiles of 64 x 64 (31 per multiprocessor)
  // 476.6 us on three tf32 products a term, 399.1-409.9 on the FFMA tiles;
  // 1024^3's 256 tiles (two per multiprocessor) 58.6 against 76-100
  // (docs/DESIGN.md, "Full grids").
  params.push_back({"X3_FILL_MAX", {0, 4, 8, 16, 32, 64}, 0,
                    "f32 as three tf32 products: groups per compute unit beyond which the candidate declines the "
                    "product (the routine's default order, the FFMA tiles, runs it); 0: never"});
  return params;
}

std::int64_t GemmMmaFamily::groups(const Params& p, const GemmProblem& pr) {
  return gemm_kernels::tiles(pr.m, p.at("BM")) * gemm_kernels::tiles(pr.n, p.at("BN")) * pr.batch;
}

gemm_kernels::KSplit GemmMmaFamily::split(const Params& p, const GemmProblem& pr) const {
  const auto it = p.find("SPLITK");
  if (it == p.end() || it->second <= 1) return {1, pr.k};  // (also parameters that are not complete)
  // The partials are EPI: double for f64, float otherwise.
  const std::uint64_t epi = pr.dtype == DType::F64 ? 8 : 4;
  return gemm_kernels::split_k(p, pr.k, p.at("BK"), std::uint64_t(std::max<std::int64_t>(pr.m, 1)) *
                                                        std::uint64_t(std::max<std::int64_t>(pr.n, 1)) * epi,
                               pr.batch, pr.list);
}

std::uint64_t GemmMmaFamily::smem_bytes(const Params& p, std::size_t elem) {
  return std::uint64_t(p.at("STAGES")) * std::uint64_t(p.at("BM") + p.at("BN")) * std::uint64_t(p.at("BK")) * elem;
}

std::string GemmMmaFamily::check(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!mma_device(caps)) return "needs CUDA sm_80+ (mma.sync)";
  if (pr.dtype == DType::F64) {
    if (!f64_device(caps)) return "f64 needs CUDA sm_90+ (mma.sync m16n8k8 f64)";
    if (pr.c_dtype != DType::F64) return "f64 products write f64";
  } else if (pr.dtype != DType::F16 && pr.dtype != DType::BF16 && pr.dtype != DType::F32) {
    return "runs f16, bf16, tf32 and f64";
  }
  if (pr.dtype == DType::F32 && pr.c_dtype != DType::F32) return "tf32 products write f32";
  const std::size_t elem = elem_of(pr);
  const std::int64_t chunk = std::int64_t(16 / elem), kstep = elem == 2 ? 16 : 8;
  const std::int64_t bm = p.at("BM"), bn = p.at("BN"), bk = p.at("BK"), wm = p.at("WM"), wn = p.at("WN");
  if (bm % wm) return "BM is not a multiple of WM";
  if (bn % wn) return "BN is not a multiple of WN";
  if (wm % 16 || wn % 16) return "WM and WN must be multiples of 16";
  // f64: WM WN / 32 double accumulators per work-item, two registers each;
  // beyond 64 of them (a 64 x 32 warp tile) the kernel spills.
  if (pr.dtype == DType::F64 && wm * wn > 2048) return "f64 warp tiles hold at most 2048 elements (WM x WN)";
  if (bk % (2 * kstep)) return "BK must hold an even number of mma steps (" + std::to_string(kstep) + " deep)";
  const std::int64_t threads = threads_of(p);
  if (std::string why = gemm_kernels::fits_group(caps, threads, 1); !why.empty()) return why;
  if (threads > 1024) return "more than 1024 work-items per group";
  // f64: about 2 registers per accumulator plus 96 (measured: 241 for a 64 x
  // 32 warp tile, 164 for 32 x 32); a group must fit the 65536 of a multiprocessor.
  if (pr.dtype == DType::F64 && threads * (wm * wn / 16 + 96) > 65536)
    return "f64: more registers per group than a multiprocessor has (work-items x (WM WN / 16 + 96))";
  // The copies: rows of 16-byte chunks (8 halves, 4 floats) of each
  // operand's contiguous dimension; a work-item's copies share their column.
  const std::int64_t a_cpr = (pr.trans_a ? bm : bk) / chunk, b_cpr = (pr.trans_b ? bk : bn) / chunk;
  if (!power_of_two(a_cpr) || !power_of_two(b_cpr)) return "tile rows are not a power of two of 16-byte chunks";
  if (threads % a_cpr || threads % b_cpr) return "the work-items do not cover whole rows of the staged tiles";
  if ((bm * bk / chunk + threads - 1) / threads > 32 || (bn * bk / chunk + threads - 1) / threads > 32)
    return "more than 32 copies per work-item and stage";
  const std::uint64_t smem = smem_bytes(p, elem);
  if (smem > smem_limit(caps, pr))
    return "shared memory STAGES (BM + BN) BK " + std::to_string(elem) + " = " + std::to_string(smem) +
           (pr.dtype == DType::F64 ? " bytes exceeds the device's opt-in shared memory"
                                   : " bytes exceeds 48 KiB (f16, bf16 and tf32 declare static shared memory only)");
  if (pr.dtype != DType::F64 && smem > local_limit(caps)) return "shared memory exceeds the device's local memory";
  if ((std::max<std::int64_t>(pr.m, 1) + bm - 1) / bm > kMaxGridY) return "more than 65535 tiles along M";
  return "";
}

Geometry GemmMmaFamily::geometry(const Params& p, const Capabilities&, const GemmProblem& pr) const {
  const std::size_t bm = std::size_t(p.at("BM")), bn = std::size_t(p.at("BN"));
  const std::size_t m = std::size_t(std::max<std::int64_t>(pr.m, 1));
  const std::size_t n = std::size_t(std::max<std::int64_t>(pr.n, 1));
  Geometry g;
  g.dims = 3;
  g.local[0] = std::size_t(threads_of(p));
  g.global[0] = (n + bn - 1) / bn * g.local[0];
  g.global[1] = (m + bm - 1) / bm;
  g.global[2] = std::size_t(pr.batch);
  // Stages beyond 48 KiB (f64 only) are the kernel's dynamic shared memory.
  if (const std::uint64_t smem = smem_bytes(p, elem_of(pr)); smem > kStaticSmem) g.shared_bytes = std::size_t(smem);
  return g;
}

Defines GemmMmaFamily::defines(const Params& p, const GemmProblem& pr) const {
  Defines d = gemm_kernels::type_defines(pr);
  // f32 accumulation either way (f64 accumulates in f64): the kernel never
  // reads COMP, and one program serves comp_half and f32-accumulating calls alike.
  for (auto& [k, v] : d)
    if (k == "COMP" && pr.dtype != DType::F64) v = "float";
  d.insert(d.end(), {{"MMA_TF32", pr.dtype == DType::F32 ? "1" : "0"},
                     {"MMA_X3", pr.dtype == DType::F32 && !pr.tf32 ? "1" : "0"},
                     {"MMA_F64", pr.dtype == DType::F64 ? "1" : "0"},
                     {"TRANS_A", pr.trans_a ? "1" : "0"}, {"TRANS_B", pr.trans_b ? "1" : "0"}});
  // (FULL_TILES as settle() makes it, for parameters that were not fitted.)
  for (const auto& [k, v] : p) d.emplace_back(k, std::to_string(k == "FULL_TILES" ? full_tiles(v, pr) : v));
  gemm_kernels::strip_split(d);
  std::erase_if(d, [](const auto& kv) {
    return kv.first == "FUSE" || kv.first == "TILE_FILL" || kv.first == "X3_FILL_MAX";
  });
  const bool split_k = split(p, pr).splits > 1, fuse = split_k && fused(p);
  d.emplace_back("MMA_RAW", split_k && !fuse ? "1" : "0");
  d.emplace_back("MMA_FUSE", fuse ? "1" : "0");
  return d;
}

void GemmMmaFamily::settle(Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  if (auto it = p.find("FULL_TILES"); it != p.end()) it->second = full_tiles(it->second, pr);
  fill_tiles(p, caps, pr);
  if (auto it = p.find("TILE_FILL"); it != p.end()) it->second = 0;
  // X3_FILL_MAX stays only where it declines this product (for the
  // candidate's fit to see), else 0: one run for the tuner either way.
  if (auto it = p.find("X3_FILL_MAX"); it != p.end() && !declines(p, caps, pr)) it->second = 0;
}

bool GemmMmaFamily::declines(const Params& p, const Capabilities& caps, const GemmProblem& pr) {
  const auto it = p.find("X3_FILL_MAX");
  if (it == p.end() || it->second == 0 || pr.dtype != DType::F32 || pr.tf32) return false;
  return groups(p, pr) > it->second * std::max<std::int64_t>(caps.compute_units, 1);
}

void GemmMmaFamily::fill_tiles(Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  const auto it = p.find("TILE_FILL");
  if (it == p.end() || it->second == 0) return;
  const std::int64_t target = gemm_kernels::fill_target(p, caps);
  while (groups(p, pr) < target && p.at("WM") >= 32 && p.at("WN") >= 32) {
    Params half = p;
    for (const char* k : {"BM", "BN", "WM", "WN"}) half[k] /= 2;
    // Never a thin tile (the candidate keeps those for thin products), nor
    // one check() refuses (the copies' cover).
    if (thin_tile(half) || !check(half, caps, pr).empty()) return;
    p = std::move(half);
  }
}

bool GemmMmaFamily::thin_tile(const Params& p) {
  const std::int64_t bm = p.at("BM"), bn = p.at("BN");
  return (bm < 64 && bm < bn) || (bn < 64 && bn < bm);
}

bool GemmMmaFamily::fused(const Params& p) {
  const auto it = p.find("FUSE");
  return it != p.end() && it->second != 0;
}

std::size_t GemmMmaFamily::ticket_bytes(const Params& p, const GemmProblem& pr) const {
  if (split(p, pr).splits <= 1 || !fused(p)) return 0;
  return std::size_t(groups(p, pr)) * sizeof(std::uint32_t);
}

Params GemmMmaFamily::fallback(const Capabilities& caps, const GemmProblem& pr) const {
  Params p = defaults(caps);
  if (pr.dtype == DType::F32) p["BK"] = 16, p["WN"] = 32;  // the kernel's tf32 defaults (48 KiB, registers)
  // f64: 128 x 128 tiles of eight 64 x 32 warps (64 double accumulators a
  // work-item), three 32 KiB stages of 16 along K (dynamic shared memory).
  if (pr.dtype == DType::F64) p["BK"] = 16, p["WN"] = 32;
  if (pr.dtype == DType::F64 && !check(p, caps, pr).empty()) p["BM"] = p["BN"] = 64, p["WM"] = 32;
  return p;
}

}  // namespace optune::detail
