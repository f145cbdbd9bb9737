// Helpers shared by the BLAS levels' launchers (ops/blas1.cpp, blas2.cpp):
// increments, vector bases in the kernels' convention, scalars as the
// kernel's TYPE.
#pragma once

#include <complex>
#include <string>
#include <type_traits>

#include "ops/blas1_ops.hpp"
#include "ops/validate.hpp"
#include "runtime/program.hpp"

namespace optune::detail {

inline std::uint64_t blas_magnitude(std::int64_t inc) {
  return inc < 0 ? std::uint64_t(0) - std::uint64_t(inc) : std::uint64_t(inc);
}

// Elements a vector of n with increment inc spans: (n - 1) |inc| + 1.
inline std::size_t blas_extent(const std::string& what, std::int64_t n, std::int64_t inc) {
  if (n <= 0) return 0;
  return validate::add(what.c_str(), validate::mul(what.c_str(), std::size_t(n - 1), blas_magnitude(inc)), 1);
}

// The index of element 0 in the view: the first for inc >= 0, the last
// addressed one for inc < 0 (netlib's (1 - n) inc start).
inline std::uint64_t blas_base_of(const BlasVector& v, std::int64_t n, std::int64_t inc) {
  return v.offset + (inc < 0 && n > 0 ? std::uint64_t(n - 1) * blas_magnitude(inc) : 0);
}

// A scalar as the kernel's TYPE.
inline KernelArg blas_type_arg(DType t, std::complex<double> v) {
  switch (t) {
    case DType::F64: return KernelArg::scalar(v.real());
    case DType::C32: return KernelArg::scalar(std::complex<float>(v));
    case DType::C64: return KernelArg::scalar(v);
    default: return KernelArg::scalar(float(v.real()));
  }
}

// A host scalar of any BLAS type as a complex double (the untyped calls').
// (f16: its value, exactly.)
template <class T>
std::complex<double> blas_as_complex(const T& v) {
  if constexpr (std::is_same_v<T, half>) return {double(float(v)), 0.0};
  else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return {double(v), 0.0};
  else return {double(v.real()), double(v.imag())};
}

// A real host scalar (f16 included) as a double, exactly.
template <class T>
double blas_as_double(const T& v) {
  if constexpr (std::is_same_v<T, half>) return double(float(v));
  else return double(v);
}

}  // namespace optune::detail
