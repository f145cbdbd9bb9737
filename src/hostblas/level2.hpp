// BLAS level 2 over host memory (s and d; gemv, gbmv, syr_any and the
// triangular ones also c and z, level2_complex.hpp the rest of c and z),
// with the reference's argument checks (xerbla's positions and order are the
// Fortran routine's) and quick returns, then the device routine
// (optune/blas2.hpp, optune/blas2_triangular.hpp) through the engine.
// Characters are the Fortran arguments' first letters, upper-cased.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "hostblas/engine.hpp"
#include "hostblas/level3.hpp"
#include "hostblas/xerbla.hpp"
#include "optune/blas2.hpp"
#include "optune/blas2_triangular.hpp"

namespace optune::hostblas {

namespace l2 {
using i64 = std::int64_t;
using namespace l3;  // the characters' checks and meanings
inline std::size_t packed_count(i64 n) { return std::size_t(n) * std::size_t(n + 1) / 2; }
// Band matrix of `cols` columns, `rows` = the band's width, leading dimension ld.
inline std::size_t band_count(i64 width, i64 cols, i64 ld) { return mat_count(std::min(width, ld), cols, ld); }
}  // namespace l2

// y = alpha op(A) x + beta y, A m x n (gemv) or banded with kl, ku (gbmv: band
// when kl >= 0).
template <class T>
void gemv(const char* name, char trans, std::int64_t m, std::int64_t n, T alpha, const T* a, std::int64_t lda,
          const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy) {
  using namespace l2;
  int info = 0;
  if (!is_trans(trans)) info = 1;
  else if (m < 0) info = 2;
  else if (n < 0) info = 3;
  else if (lda < std::max<i64>(1, m)) info = 6;
  else if (incx == 0) info = 8;
  else if (incy == 0) info = 11;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  const i64 lx = trans == 'N' ? n : m, ly = trans == 'N' ? m : n;
  run<T>(name, Class::Level2, double(m) * double(n),
         [&] { inl::gemv(trans, m, n, alpha, a, lda, x, incx, beta, y, incy); }, [&](Call& c) {
    optune::gemv<T>(c.queue(), Layout::ColMajor, trans_of(trans), m, n, alpha, c.in(a, mat_count(m, n, lda)), lda,
                    c.in(x, vec_count(lx, incx)), incx, beta, c.inout(y, vec_count(ly, incy)), incy);
  });
}

template <class T>
void gbmv(const char* name, char trans, std::int64_t m, std::int64_t n, std::int64_t kl, std::int64_t ku, T alpha,
          const T* a, std::int64_t lda, const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy) {
  using namespace l2;
  int info = 0;
  if (!is_trans(trans)) info = 1;
  else if (m < 0) info = 2;
  else if (n < 0) info = 3;
  else if (kl < 0) info = 4;
  else if (ku < 0) info = 5;
  else if (lda < kl + ku + 1) info = 8;
  else if (incx == 0) info = 10;
  else if (incy == 0) info = 13;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  const i64 lx = trans == 'N' ? n : m, ly = trans == 'N' ? m : n;
  run<T>(name, Class::Level2, double(std::min(m, n)) * double(kl + ku + 1), [&](Call& c) {
    optune::gbmv<T>(c.queue(), Layout::ColMajor, trans_of(trans), m, n, kl, ku, alpha,
                    c.in(a, band_count(kl + ku + 1, n, lda)), lda, c.in(x, vec_count(lx, incx)), incx, beta,
                    c.inout(y, vec_count(ly, incy)), incy);
  });
}

// y = alpha A x + beta y, A symmetric: full (symv), banded with k (sbmv) or
// packed (spmv).
template <class T>
void symv(const char* name, char uplo, std::int64_t n, T alpha, const T* a, std::int64_t lda, const T* x,
          std::int64_t incx, T beta, T* y, std::int64_t incy) {
  using namespace l2;
  int info = 0;
  if (!is_uplo(uplo)) info = 1;
  else if (n < 0) info = 2;
  else if (lda < std::max<i64>(1, n)) info = 5;
  else if (incx == 0) info = 7;
  else if (incy == 0) info = 10;
  if (info) return report_xerbla(name, info);
  if (n == 0 || (alpha == T(0) && beta == T(1))) return;
  run<T>(name, Class::Level2, double(n) * double(n), [&](Call& c) {
    optune::symv<T>(c.queue(), Layout::ColMajor, uplo_of(uplo), n, alpha, c.in(a, mat_count(n, n, lda)), lda,
                    c.in(x, vec_count(n, incx)), incx, beta, c.inout(y, vec_count(n, incy)), incy);
  });
}

template <class T>
void sbmv(const char* name, char uplo, std::int64_t n, std::int64_t k, T alpha, const T* a, std::int64_t lda,
          const T* x, std::int64_t incx, T beta, T* y, std::int64_t incy) {
  using namespace l2;
  int info = 0;
  if (!is_uplo(uplo)) info = 1;
  else if (n < 0) info = 2;
  else if (k < 0) info = 3;
  else if (lda < k + 1) info = 6;
  else if (incx == 0) info = 8;
  else if (incy == 0) info = 11;
  if (info) return report_xerbla(name, info);
  if (n == 0 || (alpha == T(0) && beta == T(1))) return;
  run<T>(name, Class::Level2, double(n) * double(2 * k + 1), [&](Call& c) {
    optune::sbmv<T>(c.queue(), Layout::ColMajor, uplo_of(uplo), n, k, alpha, c.in(a, band_count(k + 1, n, lda)),
                    lda, c.in(x, vec_count(n, incx)), incx, beta, c.inout(y, vec_count(n, incy)), incy);
  });
}

template <class T>
void spmv(const char* name, char uplo, std::int64_t n, T alpha, const T* ap, const T* x, std::int64_t incx, T beta,
          T* y, std::int64_t incy) {
  using namespace l2;
  int info = 0;
  if (!is_uplo(uplo)) info = 1;
  else if (n < 0) info = 2;
  else if (incx == 0) info = 6;
  else if (incy == 0) info = 9;
  if (info) return report_xerbla(name, info);
  if (n == 0 || (alpha == T(0) && beta == T(1))) return;
  run<T>(name, Class::Level2, double(n) * double(n), [&](Call& c) {
    optune::spmv<T>(c.queue(), Layout::ColMajor, uplo_of(uplo), n, alpha, c.in(ap, packed_count(n)),
                    c.in(x, vec_count(n, incx)), incx, beta, c.inout(y, vec_count(n, incy)), incy);
  });
}

// A += alpha x y^T, A m x n.
template <class T>
void ger(const char* name, std::int64_t m, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,
         std::int64_t incy, T* a, std::int64_t lda) {
  using namespace l2;
  int info = 0;
  if (m < 0) info = 1;
  else if (n < 0) info = 2;
  else if (incx == 0) info = 5;
  else if (incy == 0) info = 7;
  else if (lda < std::max<i64>(1, m)) info = 9;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0 || alpha == T(0)) return;
  run<T>(name, Class::Level2, double(m) * double(n),
         [&] { inl::ger(false, m, n, alpha, x, incx, y, incy, a, lda); }, [&](Call& c) {
    optune::ger<T>(c.queue(), Layout::ColMajor, m, n, alpha, c.in(x, vec_count(m, incx)), incx,
                   c.in(y, vec_count(n, incy)), incy, c.inout(a, mat_count(m, n, lda)), lda);
  });
}

// Symmetric rank-1 and rank-2 updates: y == nullptr for syr / spr; lda < 0
// for the packed forms (spr, spr2), whose argument positions are shorter.
// For complex T the Hermitian ones, whose checks are the same: her, hpr
// (alpha's real part: the caller's real alpha), her2, hpr2.
template <class T>
void syr_any(const char* name, char uplo, std::int64_t n, T alpha, const T* x, std::int64_t incx, const T* y,
             std::int64_t incy, T* a, std::int64_t lda) {
  using namespace l2;
  const bool packed = lda < 0, two = y != nullptr;
  int info = 0;
  if (!is_uplo(uplo)) info = 1;
  else if (n < 0) info = 2;
  else if (incx == 0) info = 5;
  else if (two && incy == 0) info = 7;
  else if (!packed && lda < std::max<i64>(1, n)) info = two ? 9 : 7;
  if (info) return report_xerbla(name, info);
  if (n == 0 || alpha == T(0)) return;
  run<T>(name, Class::Level2, double(n) * double(n), [&](Call& c) {
    const auto q = c.queue();
    const auto t = uplo_of(uplo);
    auto xb = c.in(x, vec_count(n, incx));
    auto ab = c.inout(a, packed ? packed_count(n) : mat_count(n, n, lda));
    if constexpr (!std::is_floating_point_v<T>) {
      if (!two) {
        packed ? optune::hpr<T>(q, Layout::ColMajor, t, n, alpha.real(), xb, incx, ab)
               : optune::her<T>(q, Layout::ColMajor, t, n, alpha.real(), xb, incx, ab, lda);
        return;
      }
      auto yb = c.in(y, vec_count(n, incy));
      packed ? optune::hpr2<T>(q, Layout::ColMajor, t, n, alpha, xb, incx, yb, incy, ab)
             : optune::her2<T>(q, Layout::ColMajor, t, n, alpha, xb, incx, yb, incy, ab, lda);
    } else if (two) {
      auto yb = c.in(y, vec_count(n, incy));
      if (packed) optune::spr2<T>(q, Layout::ColMajor, t, n, alpha, xb, incx, yb, incy, ab);
      else optune::syr2<T>(q, Layout::ColMajor, t, n, alpha, xb, incx, yb, incy, ab, lda);
    } else if (packed) {
      optune::spr<T>(q, Layout::ColMajor, t, n, alpha, xb, incx, ab);
    } else {
      optune::syr<T>(q, Layout::ColMajor, t, n, alpha, xb, incx, ab, lda);
    }
  });
}

// Triangular products and solves: x = op(A) x or op(A)^-1 x, A full (kind
// Full, lda), banded (Band, k and lda) or packed (Packed).
enum class Tri { Full, Band, Packed };
namespace l2 {
// Elements of an n x n triangular or Hermitian A stored as kind says (Band:
// k diagonals beside the main one).
inline std::size_t stored_count(Tri kind, i64 n, i64 k, i64 lda) {
  return kind == Tri::Full ? mat_count(n, n, lda) : kind == Tri::Band ? band_count(k + 1, n, lda) : packed_count(n);
}
}  // namespace l2
template <class T>
void tr_any(const char* name, bool solve, Tri kind, char uplo, char trans, char diag, std::int64_t n, std::int64_t k,
            const T* a, std::int64_t lda, T* x, std::int64_t incx) {
  using namespace l2;
  int info = 0;
  if (!is_uplo(uplo)) info = 1;
  else if (!is_trans(trans)) info = 2;
  else if (!is_diag(diag)) info = 3;
  else if (n < 0) info = 4;
  else if (kind == Tri::Band && k < 0) info = 5;
  else if (kind == Tri::Full && lda < std::max<i64>(1, n)) info = 6;
  else if (kind == Tri::Band && lda < k + 1) info = 7;
  else if (incx == 0) info = kind == Tri::Full ? 8 : kind == Tri::Band ? 9 : 7;
  if (info) return report_xerbla(name, info);
  if (n == 0) return;
  const double work = kind == Tri::Band ? double(n) * double(k + 1) : double(n) * double(n) / 2;
  run<T>(name, Class::Level2, work, [&](Call& c) {
    const auto q = c.queue();
    const auto u = uplo_of(uplo);
    const auto t = trans_of(trans);
    const auto d = diag_of(diag);
    auto ab = c.in(a, stored_count(kind, n, k, lda));
    auto xb = c.inout(x, vec_count(n, incx));
    switch (kind) {
      case Tri::Full:
        solve ? optune::trsv<T>(q, Layout::ColMajor, u, t, d, n, ab, lda, xb, incx)
              : optune::trmv<T>(q, Layout::ColMajor, u, t, d, n, ab, lda, xb, incx);
        break;
      case Tri::Band:
        solve ? optune::tbsv<T>(q, Layout::ColMajor, u, t, d, n, k, ab, lda, xb, incx)
              : optune::tbmv<T>(q, Layout::ColMajor, u, t, d, n, k, ab, lda, xb, incx);
        break;
      case Tri::Packed:
        solve ? optune::tpsv<T>(q, Layout::ColMajor, u, t, d, n, ab, xb, incx)
              : optune::tpmv<T>(q, Layout::ColMajor, u, t, d, n, ab, xb, incx);
        break;
    }
  });
}

}  // namespace optune::hostblas
