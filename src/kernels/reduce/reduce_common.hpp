// Small helpers shared by the reduction, softmax and norm descriptors: powers
// of two, accumulation types, pack limits and how many groups fill a device.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "kernels/descriptor.hpp"
#include "optune/elementwise.hpp"

namespace optune::detail::reduction {

inline std::int64_t pow2_ceil(std::int64_t x) {
  std::int64_t p = 1;
  while (p < x) p *= 2;
  return p;
}

inline bool is_pow2(std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// f64 accumulates in f64; everything else (f16 and the integer inputs of
// any/all included) in f32.
inline DType acc_dtype(DType data) { return data == DType::F64 ? DType::F64 : DType::F32; }

// The widest pack, in elements of `bytes` each: 16 bytes on GPUs (64 on CPUs,
// where a pack is also VW independent accumulators), and 4 lanes on CUDA (no
// wider vectors there).
inline std::int64_t max_pack(const Capabilities& caps, std::size_t bytes) {
  const std::int64_t lanes = caps.backend == Backend::CUDA ? 4 : 16;
  const std::int64_t span = caps.type == DeviceType::CPU ? 64 : 16;
  return std::max<std::int64_t>(1, std::min<std::int64_t>(lanes, span / std::int64_t(bytes)));
}

// The default pack: 16 elements on CPUs (independent accumulators for the
// out-of-order core), 4 on GPUs; fit() narrows it to what the data allows.
inline std::int64_t default_pack(const Capabilities& caps) { return caps.type == DeviceType::CPU ? 16 : 4; }

// The subgroup size when the device reports exactly one, else 0.
inline std::int64_t subgroup_size(const Capabilities& caps) {
  if (!caps.subgroups) return 0;
  if (caps.backend == Backend::CUDA) return caps.warp_size ? caps.warp_size : 32;
  return caps.subgroup_sizes.size() == 1 ? std::int64_t(caps.subgroup_sizes[0]) : 0;
}

// Groups of `wgs` work-items that fill the device `waves` times. A CPU core
// runs one group at a time (its work-group limit says nothing of residency).
inline std::int64_t target_groups(const Capabilities& caps, std::int64_t wgs, std::int64_t waves) {
  const std::int64_t units = caps.compute_units ? caps.compute_units : 1;
  const std::int64_t per_unit =
      caps.type == DeviceType::CPU ? 1 : std::max<std::int64_t>(1, std::int64_t(resident_per_unit(caps)) / wgs);
  return units * per_unit * waves;
}

// The largest pack width (power of two up to `limit`) dividing every value.
inline std::int64_t common_pack(std::int64_t limit, std::initializer_list<std::int64_t> values) {
  std::int64_t w = std::max<std::int64_t>(limit, 1);
  while (w > 1) {
    bool ok = true;
    for (std::int64_t v : values) ok = ok && v % w == 0;
    if (ok) break;
    w /= 2;
  }
  return w;
}

inline std::vector<std::int64_t> powers_of_two(std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> v;
  for (std::int64_t p = lo; p <= hi; p *= 2) v.push_back(p);
  return v;
}

}  // namespace optune::detail::reduction
