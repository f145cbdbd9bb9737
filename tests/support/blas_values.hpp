// Scalars of the BLAS tests (test_blas1.cpp, test_blas2.cpp): the long
// double reference types, NaN poison and fresh random values of s, d, c, z.
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <type_traits>

#include "optune/blas.hpp"
#include "support/test_support.hpp"

namespace optune::test::blas {

using LD = long double;

template <class T> using Real = blas_real_t<T>;
template <class T> constexpr bool kComplex = !std::is_same_v<T, Real<T>>;
template <class T> using Ref = std::conditional_t<kComplex<T>, std::complex<LD>, LD>;

template <class T> Ref<T> to_ref(const T& v) {
  if constexpr (kComplex<T>) return {LD(v.real()), LD(v.imag())};
  else return LD(v);
}
template <class T> T from_ref(const Ref<T>& v) {
  if constexpr (kComplex<T>) return T(Real<T>(v.real()), Real<T>(v.imag()));
  else return T(Real<T>(v));
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
template <class T> LD eps() { return LD(std::numeric_limits<Real<T>>::epsilon()); }

// Uniform in [-1, 1] (each part).
template <class T> T random_value() {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (kComplex<T>) return T(Real<T>(d(test::rng())), Real<T>(d(test::rng())));
  else return T(Real<T>(d(test::rng())));
}

}  // namespace optune::test::blas
