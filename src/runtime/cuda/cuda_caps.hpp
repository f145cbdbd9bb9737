// The CUDA capability probe as a function of the driver's answers: the
// runtime's CuDevice reads the attributes from the driver and calls
// cuda_capabilities; the cubin generator (tools/embed_cubins) calls it with
// the answers of the devices it compiles for, so both get the very same
// Capabilities (and with them the same capability macros, database choices
// and program texts). Needs no cuda.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optune/runtime.hpp"

namespace optune::detail {

// What the probe asks the driver (cuDeviceGetAttribute and friends), in the
// driver's units.
struct CudaAttributes {
  std::string name;            // cuDeviceGetName
  std::string driver_version;  // "13.0", from cuDriverGetVersion
  int cc_major = 0, cc_minor = 0;
  int multiprocessors = 0;
  int clock_khz = 0;
  std::uint64_t total_mem = 0;  // cuDeviceTotalMem
  int shared_per_block = 0, shared_per_block_optin = 0, shared_per_multiprocessor = 0;
  int total_constant = 0;
  int max_threads_per_block = 0;
  int block_dim[3] = {0, 0, 0};
  int max_threads_per_multiprocessor = 0;
  int l2_bytes = 0;
  int memory_clock_khz = 0;
  int bus_width_bits = 0;
  int warp_size = 0;
  bool integrated = false;
  // Whether NVRTC finds cuda_fp16.h (cu::include_dir() is not empty):
  // without it half is storage only.
  bool fp16_headers = false;
};

// The Capabilities of device `ordinal` with these answers.
Capabilities cuda_capabilities(const CudaAttributes& a, int ordinal);

// Devices whose programs the build compiles and embeds (tools/embed_cubins):
// the answers their probe gives, recorded from real runs where we had one.
struct CudaProfile {
  std::string id;  // "h100": what messages and the generator's report say
  CudaAttributes attributes;
};
// The H100 80GB HBM3 (sm_90; the probe's answers as recorded by `optune bench`
// on 2026-11-24, bench/results/2026-11-24-h100-cuda-5.json) and the A100
// SXM4 80GB (sm_80; its published limits). fp16_headers as given.
std::vector<CudaProfile> embedded_cubin_profiles(bool fp16_headers);

}  // namespace optune::detail
