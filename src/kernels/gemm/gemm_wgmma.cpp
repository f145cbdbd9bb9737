// The Hopper tensor-core GEMM kernel's parameters (gemm_wgmma.cl),
// constraints and grid. The rules mirror the kernel's static_asserts and its
// header comment, so a configuration this file accepts compiles and launches.
#include <algorithm>
#include <optional>

#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

namespace {

constexpr std::int64_t kRows = GemmWgmmaFamily::kTileRows;
constexpr std::int64_t kRowBytes = 128;    // bytes of K per stage and row (64 halves, 32 floats)
constexpr std::int64_t kThreads = 384;     // producer + two consumers
constexpr std::int64_t kMaxGridY = 65535;  // CUDA's grid limit in y (the M tiles)
constexpr std::int64_t kMaxCoordinate = (std::int64_t(1) << 31) - 1;  // the copy engine's int32 coordinates

}  // namespace

bool GemmWgmmaFamily::device_ok(const Capabilities& caps) {
  // sm_90a code runs on compute capability 9.0 and nothing else.
  return caps.backend == Backend::CUDA && caps.compute_capability_major == 9 && caps.compute_capability_minor == 0;
}

std::vector<DType> GemmWgmmaFamily::dtypes(const Capabilities& caps) const {
  if (!device_ok(caps)) return {};
  return {DType::F16, DType::BF16, DType::F32};
}

// 128 x 256 tiles, four stages of 64 along K (192 KiB): 0.95x cuBLAS at
// 8192 f16 on the H100 (scripts/gpu/wgmma_bench.cu, the prototype). Split K
// as the other tiles take it (SPLITK, SK_FILL, SK_MINK), but off unless an
// entry or a forced setting asks (SPLITK 1; 0 is the automatic count).
std::vector<Parameter> GemmWgmmaFamily::parameters(const Capabilities& caps) const {
  std::vector<Parameter> params{
      {"BN", {128, 256}, 256, "columns of C per group (rows: 128, two consumer warpgroups of 64)"},
      {"STAGES", {2, 3, 4, 5, 6}, 4, "shared stages of the copy ring (64 K each)"},
      {"SWIZZLE_GROUP", {1, 4, 8, 16}, 8, "tile rows (along M) visited together, for L2 reuse; 1: row by row"},
      {"PERSIST", {0, 1, 2}, 1,
       "0: a group per tile; 1: a group per multiprocessor walking the tiles (the next tile's copies overlap the "
       "stores); 2: the same with each consumer on alternate whole tiles (BN 128)"},
      {"STORE", {0, 1}, 0,
       "0: the consumers store C from registers; 1: through shared memory by the copy engine (asynchronous bulk "
       "stores; where C's offset, leading dimension, batch stride and N are 16-byte multiples and K is not split)"},
  };
  for (Parameter& sp : gemm_kernels::split_parameters(caps)) {
    if (sp.name == "SPLITK") sp.default_value = 1;
    params.push_back(std::move(sp));
  }
  return params;
}

std::int64_t GemmWgmmaFamily::groups(const Params& p, const GemmProblem& pr) {
  return gemm_kernels::tiles(pr.m, kRows) * gemm_kernels::tiles(pr.n, p.at("BN")) * pr.batch;
}

gemm_kernels::KSplit GemmWgmmaFamily::split(const Params& p, const GemmProblem& pr) {
  const auto it = p.find("SPLITK");
  if (it == p.end() || it->second <= 1) return {1, pr.k};
  // Ranges of whole stages (128 bytes of K: 64 halves, 32 tf32 floats);
  // the partials are f32.
  const std::int64_t stage_k = kRowBytes / std::int64_t(pr.dtype == DType::F32 ? 4 : 2);
  return gemm_kernels::split_k(p, pr.k, stage_k,
                               std::uint64_t(std::max<std::int64_t>(pr.m, 1)) *
                                   std::uint64_t(std::max<std::int64_t>(pr.n, 1)) * 4u,
                               pr.batch, pr.list);
}

bool GemmWgmmaFamily::store_by_copy(const Params& p, const GemmProblem& pr) {
  const auto it = p.find("STORE");
  // The copy engine writes whole 16-byte units: a row of C that ends
  // inside one would have its neighbours past N overwritten (seen on the
  // H200 for N = 1030 f16), so N must end on a unit too.
  const std::int64_t esize = std::int64_t(dtype_size(pr.c_dtype));
  return it != p.end() && it->second == 1 && !pr.list && split(p, pr).splits == 1 && pr.align_c * esize % 16 == 0 &&
         pr.n * esize % 16 == 0;
}

std::uint64_t GemmWgmmaFamily::smem_bytes(const Params& p, const GemmProblem& pr) {
  return std::uint64_t(p.at("STAGES")) * std::uint64_t(kRows + p.at("BN")) * std::uint64_t(kRowBytes) + 1024 +
         (store_by_copy(p, pr) ? 4 * 8192 : 0);
}

std::string GemmWgmmaFamily::check(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!device_ok(caps)) return "needs CUDA compute capability 9.0 (wgmma, sm_90a)";
  if (pr.dtype != DType::F16 && pr.dtype != DType::BF16 && !(pr.dtype == DType::F32 && pr.tf32))
    return "runs f16, bf16 and f32 as tf32 (GemmCompute::FastTF32) only";
  if (pr.dtype == DType::F32 && pr.c_dtype != DType::F32) return "tf32 products write f32";
  if (std::string why = gemm_kernels::fits_group(caps, kThreads, 1); !why.empty()) return why;
  const std::uint64_t smem = smem_bytes(p, pr);
  const std::uint64_t limit = std::max(caps.shared_mem_per_block_optin_bytes, caps.local_mem_bytes);
  if (smem > limit)
    return "shared memory STAGES (128 + BN) 128 + 1024 (+ 32768 for STORE 1) = " + std::to_string(smem) +
           " bytes exceeds the device's " + std::to_string(limit);
  if (p.count("PERSIST") && p.at("PERSIST") == 2 && p.at("BN") != 128)
    return "PERSIST 2 (each consumer on whole tiles) needs BN 128";
  if ((std::max<std::int64_t>(pr.m, 1) + kRows - 1) / kRows > kMaxGridY) return "more than 65535 tiles along M";
  if (pr.m > kMaxCoordinate || pr.n > kMaxCoordinate || pr.k > kMaxCoordinate || pr.batch > kMaxCoordinate)
    return "a size beyond the copy engine's 32-bit coordinates";
  return "";
}

Geometry GemmWgmmaFamily::geometry(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  const std::size_t bn = std::size_t(p.at("BN"));
  const std::size_t m = std::size_t(std::max<std::int64_t>(pr.m, 1));
  const std::size_t n = std::size_t(std::max<std::int64_t>(pr.n, 1));
  Geometry g;
  g.dims = 3;
  g.local[0] = std::size_t(kThreads);
  g.global[0] = (n + bn - 1) / bn * g.local[0];
  g.global[1] = (m + std::size_t(kRows) - 1) / std::size_t(kRows);
  g.global[2] = std::size_t(pr.batch);
  g.shared_bytes = std::size_t(smem_bytes(p, pr));
  if (p.count("PERSIST") && p.at("PERSIST") > 0) {
    // A group per multiprocessor (one fits: the stages' shared memory and
    // 384 work-items at the launch bounds' 168 registers), or per tile where
    // there are fewer; the kernel walks the tiles of a launch's share of the
    // products and ranges of K (gemm_kernels::kMaxGridZ).
    const std::int64_t z = std::min<std::int64_t>(pr.batch * split(p, pr).splits, gemm_kernels::kMaxGridZ);
    const std::int64_t tiles = std::int64_t(g.global[0] / g.local[0]) * std::int64_t(g.global[1]) * z;
    const std::int64_t units = std::max<std::int64_t>(std::int64_t(caps.compute_units), 1);
    g.global[0] = std::size_t(std::max<std::int64_t>(std::min(tiles, units), 1)) * g.local[0];
    g.global[1] = g.global[2] = 1;
    g.own_z = true;
  }
  return g;
}

Defines GemmWgmmaFamily::defines(const Params& p, const GemmProblem& pr) const {
  Defines d = gemm_kernels::type_defines(pr);
  for (auto& [k, v] : d)
    if (k == "COMP") v = "float";  // f32 accumulation whatever the call asked
  // tf32: A and B arrive packed K-major (M x K and N x K, the candidate's
  // passes), so the kernel reads A untransposed and B transposed.
  const bool tf32 = pr.dtype == DType::F32;
  d.insert(d.end(), {{"OPTUNE_NEED_SM90A", "1"}, {"TRANS_A", pr.trans_a && !tf32 ? "1" : "0"},
                     {"TRANS_B", pr.trans_b || tf32 ? "1" : "0"}, {"WG_TF32", tf32 ? "1" : "0"}});
  for (const auto& [k, v] : p) d.emplace_back(k, std::to_string(v));
  gemm_kernels::strip_split(d);
  d.emplace_back("WG_RAW", split(p, pr).splits > 1 ? "1" : "0");
  std::erase_if(d, [](const auto& kv) { return kv.first == "STORE"; });
  d.emplace_back("WG_STORE", store_by_copy(p, pr) ? "1" : "0");
  return d;
}

}  // namespace optune::detail
