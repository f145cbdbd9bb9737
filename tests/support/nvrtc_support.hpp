// What the NVRTC tests share (built with the CUDA back end only): an H100's
// capabilities without a device, and the check that NVRTC loads.
#pragma once

#ifdef OPTUNE_WITH_CUDA

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "optune/optune.hpp"
#include "runtime/cuda/nvrtc_check.hpp"

namespace optune::test {

// The capabilities an H100 reports through the CUDA back end (the fields the
// descriptors and the capability macros read); minimal = the fallbacks (no
// fp16, no sub-groups).
inline Capabilities sm90_caps(bool minimal = false) {
  Capabilities c;
  c.backend = Backend::CUDA;
  c.type = DeviceType::GPU;
  c.spec = "cuda:0";
  c.architecture = "sm_90";
  c.compute_capability_major = 9;
  c.compute_capability_minor = 0;
  c.compute_units = 132;
  c.max_threads_per_cu = 2048;
  c.warp_size = 32;
  c.max_work_group_size = 1024;
  c.max_work_item_sizes = {1024, 1024, 64};
  c.local_mem_bytes = 48 * 1024;
  c.shared_mem_per_block_optin_bytes = 227 * 1024;
  c.shared_mem_per_cu_bytes = 228 * 1024;
  c.subgroups = !minimal;
  if (!minimal) c.subgroup_sizes = {32};
  c.fp16 = !minimal;
  c.fp64 = true;
  return c;
}

inline void require_nvrtc() {
  std::string why;
  // The toolkit's headers were found at build time, so NVRTC must load: a
  // skip here would hide CUDA compile errors from CI.
  ASSERT_TRUE(detail::nvrtc_available(&why)) << why;
}

// The target of a compile check. Sources that reach the prelude's inline PTX
// (cp.async, ldmatrix, mma, wgmma; their own asm) are checked as cubins for
// sm_90, since only ptxas reads the asm. The rest stop at PTX for
// compute_90: NVRTC's front end and NVVM are where C++ errors show, and ptxas
// costs as much again; the build's embedded cubins (tools/embed_cubins) take
// every program the operators build on the H100 and A100 profiles through
// ptxas, and the gpu label runs them.
inline std::string check_arch(std::string_view text) {
  for (const char* marker : {"asm(", "asm volatile", "optune_cp_async", "optune_ldmatrix", "optune_lds",
                             "optune_tf32", "optune_mma", "wgmma"})
    if (text.find(marker) != std::string_view::npos) return "sm_90";
  return "compute_90";
}

inline std::string describe(const detail::Defines& d) {
  std::string s;
  for (const auto& [k, v] : d) s += " " + k + "=" + v;
  return s.empty() ? " (defaults)" : s;
}

}  // namespace optune::test

#endif
