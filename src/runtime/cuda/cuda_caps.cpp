#include "runtime/cuda/cuda_caps.hpp"

namespace optune::detail {

Capabilities cuda_capabilities(const CudaAttributes& a, int ordinal) {
  Capabilities c;
  c.backend = Backend::CUDA;
  c.type = DeviceType::GPU;
  c.spec = "cuda:" + std::to_string(ordinal);
  c.name = a.name;
  c.vendor = "NVIDIA";
  c.platform = "CUDA";
  c.driver_version = a.driver_version;
  c.compute_capability_major = a.cc_major;
  c.compute_capability_minor = a.cc_minor;
  c.device_version = "CUDA " + std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor);
  c.architecture = "sm_" + std::to_string(a.cc_major) + std::to_string(a.cc_minor);

  c.compute_units = std::uint32_t(a.multiprocessors);
  c.max_clock_mhz = std::uint32_t(a.clock_khz / 1000);
  c.global_mem_bytes = a.total_mem;
  c.max_alloc_bytes = a.total_mem;
  c.local_mem_bytes = std::uint64_t(a.shared_per_block);
  c.shared_mem_per_block_optin_bytes = std::uint64_t(a.shared_per_block_optin);
  c.shared_mem_per_cu_bytes = std::uint64_t(a.shared_per_multiprocessor);
  c.max_constant_buffer_bytes = std::uint64_t(a.total_constant);
  c.max_work_group_size = std::size_t(a.max_threads_per_block);
  c.max_work_item_sizes = {std::size_t(a.block_dim[0]), std::size_t(a.block_dim[1]), std::size_t(a.block_dim[2])};
  c.max_threads_per_cu = std::uint32_t(a.max_threads_per_multiprocessor);
  c.l2_bytes = std::uint64_t(a.l2_bytes);
  c.memory_clock_mhz = std::uint32_t(a.memory_clock_khz / 1000);
  c.memory_bus_width_bits = std::uint32_t(a.bus_width_bits);
  c.warp_size = a.warp_size ? std::uint32_t(a.warp_size) : 32;
  c.unified_memory = a.integrated;

  // The widest load is 16 bytes, so "native" and "preferred" are 16 bytes' worth.
  const VectorWidths w{16, 8, 4, 2, 4, 2, 8};
  c.preferred_vector_width = w;
  c.native_vector_width = w;
  // The prelude's warp functions assume 32 lanes, which every NVIDIA GPU has.
  c.subgroups = c.warp_size == 32;
  if (c.subgroups) c.subgroup_sizes = {32};
  c.fp64 = true;
  c.images = false;
  // cuda_fp16.h comes from the toolkit's include folder; without it half is
  // storage only (vload_half/vstore_half), as on OpenCL without cl_khr_fp16.
  c.fp16 = a.cc_major * 10 + a.cc_minor >= 53 && a.fp16_headers;
  return c;
}

std::vector<CudaProfile> embedded_cubin_profiles(bool fp16_headers) {
  CudaAttributes h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.driver_version = "13.0";
  h100.cc_major = 9, h100.cc_minor = 0;
  h100.multiprocessors = 132;
  h100.clock_khz = 1980000;
  h100.total_mem = 85017493504ull;
  h100.shared_per_block = 49152, h100.shared_per_block_optin = 232448, h100.shared_per_multiprocessor = 233472;
  h100.total_constant = 65536;
  h100.max_threads_per_block = 1024;
  h100.block_dim[0] = 1024, h100.block_dim[1] = 1024, h100.block_dim[2] = 64;
  h100.max_threads_per_multiprocessor = 2048;
  h100.l2_bytes = 52428800;
  h100.memory_clock_khz = 2619000;
  h100.bus_width_bits = 5120;
  h100.warp_size = 32;
  h100.fp16_headers = fp16_headers;

  CudaAttributes a100 = h100;
  a100.name = "NVIDIA A100-SXM4-80GB";
  a100.cc_major = 8, a100.cc_minor = 0;
  a100.multiprocessors = 108;
  a100.clock_khz = 1410000;
  a100.total_mem = 85198045184ull;
  a100.shared_per_block_optin = 166912, a100.shared_per_multiprocessor = 167936;
  a100.l2_bytes = 41943040;
  a100.memory_clock_khz = 1593000;
  return {{"h100", h100}, {"a100", a100}};
}

}  // namespace optune::detail
