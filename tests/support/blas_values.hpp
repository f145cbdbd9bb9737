// Scalars of the BLAS tests (test_blas1.cpp, test_blas2.cpp, test_blas_tri.cpp,
// test_blas_extra.cpp): the long double reference types, NaN poison, fresh
// random values of s, d, c, z and where a vector's element lies in its view.
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include "optune/blas.hpp"
#include "support/test_support.hpp"

namespace optune::test::blas {

using LD = long double;
using CL = std::complex<LD>;  // a reference value of any type, as a complex

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

// Uniform in [lo, hi) (each part).
template <class T> T random_value(double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> d(lo, hi);
  if constexpr (kComplex<T>) return T(Real<T>(d(test::rng())), Real<T>(d(test::rng())));
  else return T(Real<T>(d(test::rng())));
}

// The elements a vector of n with increment inc spans.
inline std::size_t span_of(std::int64_t n, std::int64_t inc) {
  return n <= 0 ? 0 : std::size_t((n - 1) * std::abs(inc) + 1);
}

// Where element i of a vector of n with increment inc lies in its view.
inline std::size_t at(std::int64_t i, std::int64_t n, std::int64_t inc) {
  return std::size_t(inc >= 0 ? i * inc : (n - 1 - i) * -inc);
}

// A level-1 case: n elements of x and y with their increments, each vector
// at an offset in its buffer (packs of 4 where both offsets allow them).
struct VectorCase {
  std::int64_t n, incx, incy;
  std::size_t offx, offy;
};

inline std::string label(const VectorCase& c) {
  return "n=" + std::to_string(c.n) + " incx=" + std::to_string(c.incx) + " incy=" + std::to_string(c.incy) +
         " offx=" + std::to_string(c.offx) + " offy=" + std::to_string(c.offy);
}

}  // namespace optune::test::blas
