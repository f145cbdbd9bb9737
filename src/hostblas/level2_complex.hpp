// BLAS level 2's complex-only routines over host memory (c and z): the
// Hermitian products (hemv, hbmv, hpmv) and geru / gerc, with the
// reference's argument checks (xerbla's positions and order are the Fortran
// routine's) and quick returns, then the device routine (optune/blas2.hpp)
// through the engine. The complex gemv, gbmv, triangular routines and
// Hermitian rank updates (her, hpr, her2, hpr2: syr_any) are level2.hpp's
// templates.
//
// Also the host side of netlib CBLAS's row-major mapping for complex types:
// where the transposed problem needs a conjugated vector, netlib's CBLAS makes
// a conjugated copy (read-only operands) or conjugates in place and back
// (operands it writes); Conjugated and ConjugatedInPlace do the same here.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "hostblas/level2.hpp"

namespace optune::hostblas {

// y = alpha A x + beta y, A Hermitian of order n from its `uplo` triangle:
// full (Tri::Full, lda), banded with k diagonals beside the main one
// (Tri::Band, k, lda) or packed (Tri::Packed).
template <class T>
void hemv_any(const char* name, Tri kind, char uplo, std::int64_t n, std::int64_t k, T alpha, const T* a,
              std::int64_t lda, const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy) {
  using namespace l2;
  // Positions after n: chemv (.., alpha, a, lda, x, incx, beta, y, incy),
  // chbmv (.., k, alpha, ...), chpmv (.., alpha, ap, x, ...).
  const int shift = kind == Tri::Full ? 0 : kind == Tri::Band ? 1 : -1;
  int info = 0;
  if (!is_uplo(uplo)) info = 1;
  else if (n < 0) info = 2;
  else if (kind == Tri::Band && k < 0) info = 3;
  else if (kind == Tri::Full && lda < std::max<i64>(1, n)) info = 5;
  else if (kind == Tri::Band && lda < k + 1) info = 6;
  else if (incx == 0) info = 7 + shift;
  else if (incy == 0) info = 10 + shift;
  if (info) return report_xerbla(name, info);
  if (n == 0 || (alpha == T(0) && beta == T(1))) return;
  const double work = kind == Tri::Band ? double(n) * double(2 * k + 1) : double(n) * double(n);
  run<T>(name, Class::Level2, work, [&](Call& c) {
    const auto q = c.queue();
    const auto u = uplo_of(uplo);
    auto ab = c.in(a, stored_count(kind, n, k, lda));
    auto xb = c.in(x, vec_count(n, incx));
    auto yb = c.inout(y, vec_count(n, incy));
    switch (kind) {
      case Tri::Full: optune::hemv<T>(q, Layout::ColMajor, u, n, alpha, ab, lda, xb, incx, beta, yb, incy); break;
      case Tri::Band: optune::hbmv<T>(q, Layout::ColMajor, u, n, k, alpha, ab, lda, xb, incx, beta, yb, incy); break;
      case Tri::Packed: optune::hpmv<T>(q, Layout::ColMajor, u, n, alpha, ab, xb, incx, beta, yb, incy); break;
    }
  });
}

// A += alpha x y^T (geru, conj false) or alpha x y^H (gerc), A m x n.
template <class T>
void geru_any(const char* name, bool conj, std::int64_t m, std::int64_t n, T alpha, const T* x, std::int64_t incx,
              const T* y, std::int64_t incy, T* a, std::int64_t lda) {
  using namespace l2;
  // cgeru (m, n, alpha, x, incx, y, incy, a, lda).
  const int info = m < 0 ? 1 : n < 0 ? 2 : incx == 0 ? 5 : incy == 0 ? 7 : lda < std::max<i64>(1, m) ? 9 : 0;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0 || alpha == T(0)) return;
  run<T>(name, Class::Level2, double(m) * double(n), [&](Call& c) {
    auto xb = c.in(x, vec_count(m, incx));
    auto yb = c.in(y, vec_count(n, incy));
    auto ab = c.inout(a, mat_count(m, n, lda));
    (conj ? optune::gerc<T> : optune::geru<T>)(c.queue(), Layout::ColMajor, m, n, alpha, xb, incx, yb, incy, ab,
                                                lda, {});
  });
}

// The conjugate of the vector of n elements at v with increment inc, as
// netlib's CBLAS copies it for a row-major call: a host copy in the
// vector's order, read with increment 1 (p, inc); where n <= 0, the vector
// itself (p = v, inc unchanged), as netlib's CBLAS passes it.
template <class T>
struct Conjugated {
  std::vector<T> copy;
  const T* p;
  std::int64_t inc;
  Conjugated(std::int64_t n, const T* v, std::int64_t incv) : p(v), inc(incv) {
    if (n <= 0) return;
    copy.resize(std::size_t(n));
    const std::int64_t step = incv < 0 ? -incv : incv;
    for (std::int64_t i = 0; i < n; ++i) copy[std::size_t(incv < 0 ? n - 1 - i : i)] = std::conj(v[i * step]);
    p = copy.data();
    inc = 1;
  }
};

// Conjugates the n elements of v (increment inc) while it lives: netlib's
// CBLAS does this to an operand that the transposed problem writes (y of
// gemv / hemv, x of trmv / trsv), before the call and after it.
template <class T>
class ConjugatedInPlace {
 public:
  ConjugatedInPlace(std::int64_t n, T* v, std::int64_t inc)
      : v_(v), n_(inc == 0 && n > 0 ? 1 : n), step_(inc < 0 ? -inc : inc) {
    flip();
  }
  ConjugatedInPlace(const ConjugatedInPlace&) = delete;
  ConjugatedInPlace& operator=(const ConjugatedInPlace&) = delete;
  ~ConjugatedInPlace() { flip(); }

 private:
  void flip() {
    for (std::int64_t i = 0; i < n_; ++i) v_[i * step_] = std::conj(v_[i * step_]);
  }
  T* v_;
  std::int64_t n_, step_;
};

}  // namespace optune::hostblas
