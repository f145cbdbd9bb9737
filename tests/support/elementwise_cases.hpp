// What the element-wise suites share: tolerances by type, the sizes every
// remainder of a pack occurs in, and the floating types of the device.
#pragma once

#include <vector>

#include "optune/optune.hpp"
#include "support/test_support.hpp"

namespace optune::test {

struct Tol {
  double rtol, atol;
};

// Relative tolerance by type, and an absolute one below the results a type
// can hold with that precision: f32 subnormals may flush on OpenCL devices
// (1e-30 covers them, and bf16's, which have f32's range); f16 and f64
// subnormal results are checked.
inline Tol tolerance(DType t) {
  switch (t) {
    case DType::F64: return {1e-12, 1e-320};
    case DType::F16: return {1e-2, 1e-7};
    case DType::BF16: return {2e-2, 1e-30};  // 8 significant bits; f32's range (subnormals may flush)
    case DType::F32: return {1e-5, 1e-30};
    default: return {0, 0};
  }
}

inline std::vector<DType> float_types() {
  std::vector<DType> t{DType::F32, DType::F16};
  if (device().caps().fp64) t.push_back(DType::F64);
  return t;
}

// Every size from 1 past two packs of 16 (every remainder of every pack
// width), then around 64, 1024 and a prime past 4096.
inline const std::vector<std::size_t>& sizes() {
  static const std::vector<std::size_t> s = [] {
    std::vector<std::size_t> v;
    for (std::size_t n = 1; n <= 37; ++n) v.push_back(n);
    for (std::size_t n : {63, 64, 65, 1023, 1025, 4099}) v.push_back(n);
    return v;
  }();
  return s;
}

}  // namespace optune::test
