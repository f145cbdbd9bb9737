// The device's own ceilings, measured with optune's kernels: copy bandwidth
// (bytes read plus written) and arithmetic rate. Every other benchmark divides
// by these.
#pragma once

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace optune::tool {

struct Ceilings {
  double copy_gbs = 0;          // best of the backend's copy and optune's copy kernels
  double backend_copy_gbs = 0;  // clEnqueueCopyBuffer / cuMemcpyDtoDAsync
  double kernel_copy_gbs = 0;   // best optune copy kernel
  double fma_gflops[3] = {0, 0, 0};  // f32, f16, f64 (0 when unsupported)
  nlohmann::json detail;        // every measurement
};

struct CeilingOptions {
  std::size_t copy_bytes = 0;  // per buffer; 0 picks by device type
  int runs = 0;                // 0 picks by device type
  bool quiet = false;
};

Ceilings measure_ceilings(const Queue& queue, const CeilingOptions& opt);

}  // namespace optune::tool
