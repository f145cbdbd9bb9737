// The device's own ceilings, measured with optune's kernels: copy bandwidth
// (bytes read plus written), arithmetic rate on the FMA pipes and, on CUDA
// sm_80+, on the tensor cores. Every other benchmark divides by these.
#pragma once

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace optune::tool {

struct Ceilings {
  double copy_gbs = 0;          // best of the backend's copy and optune's copy kernels
  double backend_copy_gbs = 0;  // clEnqueueCopyBuffer / cuMemcpyDtoDAsync
  double kernel_copy_gbs = 0;   // best optune copy kernel
  double fma_gflops[3] = {0, 0, 0};  // f32, f16, f64 (0 when unsupported)
  // The tensor cores (CUDA, compute capability 8.0+): f16, bf16, tf32 with
  // f32 accumulation, the best of mma.sync and (9.0) wgmma; 0 elsewhere.
  double tensor_gflops[3] = {0, 0, 0};
  std::string tensor_unit[3];   // "mma.sync" or "wgmma": which gave it
  std::size_t copy_bytes = 0;   // per buffer of the copy measurement
  // The device's last-level cache as the API reports it (0: not reported):
  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE on OpenCL, the L2 size on CUDA.
  std::uint64_t cache_bytes = 0;
  std::string cache_source;
  nlohmann::json detail;        // every measurement
};

struct CeilingOptions {
  std::size_t copy_bytes = 0;  // per buffer; 0 picks by device type
  int runs = 0;                // 0 picks by device type
  bool quiet = false;
  // The tensor cores' peak (peak_mma, CUDA sm_80+): a dozen sm_90a compiles
  // on a cold cache, so measured only for the suites that report against it
  // (gemm, ceilings).
  bool tensor = true;
  // Which of f16, bf16 and tf32 to measure when `tensor` is on: a run of
  // `bench gemm --gemm-types f32` needs none of them (tf32's wgmma unit alone
  // took 109 s to build on the H100 on a cold cache).
  bool tensor_types[3] = {true, true, true};
};

Ceilings measure_ceilings(const Queue& queue, const CeilingOptions& opt);

// True when a row's working set (what its timed calls touch) fits in the
// device's cache: it may then run faster than the copy ceiling, which
// streams buffers larger than the cache (the bench marks such rows with *).
bool fits_in_cache(const Ceilings& c, double working_set_bytes);

// The bench header's line on that mark (empty when the cache size is unknown).
std::string cache_note(const Ceilings& c);

}  // namespace optune::tool
