// Values for the BLAS tests of level 2 triangular and the extras: the real type
// of an element, its long double complex reference value, NaN poison and
// uniform random values (test_blas1.cpp keeps its own, older copies).
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <type_traits>

#include "support/test_support.hpp"

namespace optune::test::blas {

using LD = long double;
using CL = std::complex<LD>;

template <class T> struct RealOf { using type = T; };
template <class R> struct RealOf<std::complex<R>> { using type = R; };
template <class T> using Real = typename RealOf<T>::type;
template <class T> constexpr bool kComplex = !std::is_same_v<T, Real<T>>;

template <class T> CL to_ref(const T& v) {
  if constexpr (kComplex<T>) return {LD(v.real()), LD(v.imag())};
  else return {LD(v), 0};
}
template <class T> T nan_value() {
  const Real<T> q = std::numeric_limits<Real<T>>::quiet_NaN();
  if constexpr (kComplex<T>) return T(q, q);
  else return q;
}
template <class T> bool has_nan(const T& v) {
  if constexpr (kComplex<T>) return std::isnan(v.real()) || std::isnan(v.imag());
  else return std::isnan(v);
}
// Uniform in [lo, hi) (each part of a complex value).
template <class T> T random_value(double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> d(lo, hi);
  if constexpr (kComplex<T>) return T(Real<T>(d(test::rng())), Real<T>(d(test::rng())));
  else return T(d(test::rng()));
}
// Where element i of a vector of n with increment inc lies in its view.
inline std::size_t at(std::int64_t i, std::int64_t n, std::int64_t inc) {
  return std::size_t(inc >= 0 ? i * inc : (n - 1 - i) * -inc);
}

}  // namespace optune::test::blas
