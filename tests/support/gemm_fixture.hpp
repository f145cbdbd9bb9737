// What the GEMM tests share: the double-precision check (reference/
// gemm_check.hpp), running a chosen candidate kernel with forced parameters,
// and no cache file (many kernel variants: PoCL would compile each twice,
// once for the cache file's binary, see test_reduce).
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"
#include "ops/gemm_ops.hpp"
#include "reference/gemm_check.hpp"
#include "support/test_support.hpp"

namespace optune::test {

inline const int kGemmNoCacheFile = setenv("OPTUNE_CACHE", "off", 0);

// The candidate ("direct", "tiled", "mma"; "" for the routine's choice),
// with its family's parameters (gemm_<candidate>) when given.
inline detail::GemmForce force(const std::string& candidate, const detail::Params* params = nullptr) {
  detail::GemmForce f;
  f.candidate = candidate;
  if (params) f.params[detail::gemm_candidate(candidate).family().name()] = *params;
  return f;
}

// The routine's choice under forced gemm_routine parameters.
inline detail::GemmForce force_routine(const detail::Params& routine) {
  detail::GemmForce f;
  f.params["gemm_routine"] = routine;
  return f;
}

// An NVIDIA GPU as the CUDA back end (compute capability cc / 10) or
// NVIDIA's OpenCL reports it: the fields the GEMM descriptors read.
inline Capabilities nvidia_caps(Backend backend, int cc) {
  Capabilities c;
  c.backend = backend;
  c.type = DeviceType::GPU;
  c.vendor = "NVIDIA Corporation";
  c.architecture = "sm_" + std::to_string(cc);
  if (backend == Backend::CUDA) c.compute_capability_major = cc / 10, c.compute_capability_minor = cc % 10;
  c.max_work_group_size = 1024;
  c.max_work_item_sizes = {1024, 1024, 64};
  c.local_mem_bytes = 48 * 1024;
  // What a block may opt into: 227 KiB on sm_90, 163 KiB on sm_80.
  if (backend == Backend::CUDA)
    c.shared_mem_per_block_optin_bytes = cc >= 90 ? 227 * 1024 : cc >= 80 ? 163 * 1024 : 64 * 1024;
  c.fp16 = c.fp64 = true;
  return c;
}

// "" when this process's device is a CUDA device of compute capability 8.0
// or newer (cp.async, mma.sync); else why not, for GTEST_SKIP (`what`: the
// feature that needs it).
// `exact90`: compute capability 9.0 exactly (sm_90a code: wgmma).
inline std::string why_not_cuda_sm80(const std::string& what, bool exact90 = false) {
  try {
    const Capabilities& caps = device().caps();
    if (caps.backend != Backend::CUDA)
      return "the device under test (" + caps.spec + ") is not a CUDA device; the gpu label runs this test with "
             "OPTUNE_DEVICE=cuda:0";
    if (caps.compute_capability_major < 8) return what + " needs compute capability 8.0 or newer";
    if (exact90 && (caps.compute_capability_major != 9 || caps.compute_capability_minor != 0))
      return what + " needs compute capability 9.0";
  } catch (const Error& e) {
    return std::string("no device to test: ") + e.what();
  }
  return "";
}

// A product that shows whether the inputs were rounded to tf32: C = A B,
// kProbeK^3, A = kProbeA (1 + 2^-12: exact in f32, 1 in tf32), B = 1, run
// under `f` with `compute`. Every element of C is kProbeK in tf32 and
// kProbeK * kProbeA (exact) in f32.
inline constexpr std::int64_t kProbeK = 32;
inline constexpr float kProbeA = 1.0f + 0x1p-12f;
inline std::vector<float> tf32_probe(const detail::GemmForce& f, GemmCompute compute) {
  const Queue& q = queue();
  const std::int64_t k = kProbeK;
  const std::size_t n = std::size_t(k * k);
  auto a = q.context().alloc<float>(n), b = q.context().alloc<float>(n), c = q.context().alloc<float>(n);
  q.write(a, std::span<const float>(std::vector<float>(n, kProbeA))).wait();
  q.write(b, std::span<const float>(std::vector<float>(n, 1.0f))).wait();
  q.fill(c, -1.0f).wait();
  GemmOptions o;
  o.compute = compute;
  {
    detail::GemmForceScope scope(f);
    gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, k, k, k, 1.0, a, k, b, k, 0.0, c, k, o).wait();
  }
  std::vector<float> got(n);
  q.read(c, std::span<float>(got)).wait();
  return got;
}

// The GemmProblem of a dense row-major call (no memory attached).
inline detail::GemmProblem dense_problem(DType t, std::int64_t m, std::int64_t n, std::int64_t k,
                                         std::int64_t batch = 1) {
  detail::GemmCall call;
  call.dtype = t, call.c_dtype = t;
  call.m = m, call.n = n, call.k = k, call.batch = batch;
  call.a.ld = k, call.b.ld = n, call.c.ld = n;
  return detail::gemm_problem(call);
}

}  // namespace optune::test
