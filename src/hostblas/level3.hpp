// BLAS level 3 over host memory, with the reference's argument checks
// (xerbla's positions are the Fortran routine's) and quick returns, in s, d,
// c and z (T float, double, c32, c64; the complex routines reach the device
// through optune/blas3_complex.hpp and gemm's complex overloads). Both
// interfaces call these; CBLAS maps row-major calls onto them as netlib's
// CBLAS does (the transposed problem).
#pragma once

#include <cstdint>
#include <type_traits>

#include "hostblas/engine.hpp"
#include "hostblas/inline.hpp"
#include "hostblas/xerbla.hpp"
#include "optune/blas3.hpp"
#include "optune/blas3_complex.hpp"
#include "optune/gemm.hpp"

namespace optune::hostblas {

// Column-major extent of a rows x cols matrix with leading dimension ld.
inline std::size_t mat_count(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return rows <= 0 || cols <= 0 ? 0 : std::size_t(cols - 1) * std::size_t(ld) + std::size_t(rows);
}

template <class T> constexpr bool kComplex = std::is_same_v<T, c32> || std::is_same_v<T, c64>;

// C = beta C on the host, for the reference's alpha == 0 or k == 0 path
// (beta == 0 writes zeros without reading C).
template <class T>
void scale_host(std::int64_t m, std::int64_t n, T beta, T* c, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      T& v = c[i + j * ldc];
      v = beta == T(0) ? T(0) : beta * v;
    }
}

// xGEMM: name as xerbla spells it ("SGEMM "), trans* as Fortran's characters.
template <class T>
void gemm(const char* name, char transa, char transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  const auto valid = [](char t) { return t == 'N' || t == 'T' || t == 'C'; };
  const bool nota = transa == 'N', notb = transb == 'N';
  const std::int64_t nrowa = nota ? m : k, nrowb = notb ? k : n;
  int info = 0;
  if (!valid(transa)) info = 1;
  else if (!valid(transb)) info = 2;
  else if (m < 0) info = 3;
  else if (n < 0) info = 4;
  else if (k < 0) info = 5;
  else if (lda < std::max<std::int64_t>(1, nrowa)) info = 8;
  else if (ldb < std::max<std::int64_t>(1, nrowb)) info = 10;
  else if (ldc < std::max<std::int64_t>(1, m)) info = 13;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  if (alpha == T(0) || k == 0) return scale_host(m, n, beta, c, ldc);
  run<T>(name, Class::Level3, double(m) * double(n) * double(k),
         [&] { inl::gemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); }, [&](Call& call) {
    auto ab = call.in(a, mat_count(nrowa, nota ? k : m, lda));
    auto bb = call.in(b, mat_count(nrowb, notb ? n : k, ldb));
    // Without gaps between C's columns and with beta == 0, C is not uploaded.
    auto cb = beta == T(0) && ldc == m ? call.out(c, mat_count(m, n, ldc)) : call.inout(c, mat_count(m, n, ldc));
    if constexpr (kComplex<T>) {
      // 'C': the conjugate transpose (real types take it as 'T').
      const auto op = [](char t) { return t == 'N' ? Transpose::No : t == 'T' ? Transpose::Yes : Transpose::Conjugate; };
      optune::gemm(call.queue(), Layout::ColMajor, op(transa), op(transb), m, n, k, std::complex<double>(alpha), ab,
                   lda, bb, ldb, std::complex<double>(beta), cb, ldc);
    } else {
      optune::gemm<T>(call.queue(), Layout::ColMajor, nota ? Transpose::No : Transpose::Yes,
                      notb ? Transpose::No : Transpose::Yes, m, n, k, double(alpha), ab, lda, bb, ldb, double(beta),
                      cb, ldc);
    }
  });
}

namespace l3 {
inline bool is_side(char s) { return s == 'L' || s == 'R'; }
inline bool is_uplo(char u) { return u == 'U' || u == 'L'; }
inline bool is_trans(char t) { return t == 'N' || t == 'T' || t == 'C'; }
inline bool is_diag(char d) { return d == 'U' || d == 'N'; }
inline Side side_of(char s) { return s == 'L' ? Side::Left : Side::Right; }
inline Triangle uplo_of(char u) { return u == 'U' ? Triangle::Upper : Triangle::Lower; }
inline BlasTranspose trans_of(char t) {  // 'C': A^H (complex; the transpose of a real A)
  return t == 'N' ? BlasTranspose::No : t == 'T' ? BlasTranspose::Yes : BlasTranspose::Conjugate;
}
// The same, named by the element type (the complex level-3 wrappers').
template <class T> BlasTranspose trans_of(char t) {
  return trans_of(t);
}
inline Diagonal diag_of(char d) { return d == 'U' ? Diagonal::Unit : Diagonal::NonUnit; }
}  // namespace l3

// C's `uplo` triangle (n x n) = beta C on the host: the reference's path for
// alpha == 0 or k == 0 in syrk / syr2k (beta == 0 writes zeros unread); herm
// (herk, her2k): the diagonal becomes beta Re(C).
template <class T>
void scale_triangle_host(char uplo, std::int64_t n, T beta, T* c, std::int64_t ldc, bool herm = false) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = uplo == 'U' ? 0 : j; i < (uplo == 'U' ? j + 1 : n); ++i) {
      T& v = c[i + j * ldc];
      if (herm && i == j) v = T(std::real(v));
      v = beta == T(0) ? T(0) : beta * v;
    }
}

// xSYMM (xHEMM: hermitian): C = alpha A B + beta C (side L) or alpha B A +
// beta C (R).
template <class T>
void symm(const char* name, char side, char uplo, std::int64_t m, std::int64_t n, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc, bool hermitian = false) {
  using namespace l3;
  const std::int64_t nrowa = side == 'L' ? m : n;
  int info = 0;
  if (!is_side(side)) info = 1;
  else if (!is_uplo(uplo)) info = 2;
  else if (m < 0) info = 3;
  else if (n < 0) info = 4;
  else if (lda < std::max<std::int64_t>(1, nrowa)) info = 7;
  else if (ldb < std::max<std::int64_t>(1, m)) info = 9;
  else if (ldc < std::max<std::int64_t>(1, m)) info = 12;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  if (alpha == T(0)) return scale_host(m, n, beta, c, ldc);
  run<T>(name, Class::Level3, double(m) * double(n) * double(nrowa), [&](Call& call) {
    auto ab = call.in(a, mat_count(nrowa, nrowa, lda));
    auto bb = call.in(b, mat_count(m, n, ldb));
    auto cb = beta == T(0) && ldc == m ? call.out(c, mat_count(m, n, ldc)) : call.inout(c, mat_count(m, n, ldc));
    (hermitian ? optune::hemm<T> : optune::symm<T>)(call.queue(), Layout::ColMajor, side_of(side), uplo_of(uplo), m,
                                                    n, alpha, ab, lda, bb, ldb, beta, cb, ldc, {});
  });
}

// xSYRK (b == nullptr) and xSYR2K: C's triangle = alpha op(A) op(A)^T (+ the
// pair with B) + beta C; herm: xHERK and xHER2K (op(A) op(A)^H, her2k's
// second product by conj(alpha); beta, and herk's alpha, real: their
// imaginary parts are 0 here).
template <class T>
void syrk_any(const char* name, char uplo, char trans, std::int64_t n, std::int64_t k, T alpha, const T* a,
              std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc, bool herm = false) {
  using namespace l3;
  const bool two = b != nullptr;
  const std::int64_t nrowa = trans == 'N' ? n : k;
  // The reference's transposes: real N, T, C; complex syrk N, T; herk N, C.
  const bool trans_ok = !kComplex<T> ? is_trans(trans) : herm ? trans == 'N' || trans == 'C' : trans == 'N' || trans == 'T';
  int info = 0;
  if (!is_uplo(uplo)) info = 1;
  else if (!trans_ok) info = 2;
  else if (n < 0) info = 3;
  else if (k < 0) info = 4;
  else if (lda < std::max<std::int64_t>(1, nrowa)) info = 7;
  else if (two && ldb < std::max<std::int64_t>(1, nrowa)) info = 9;
  else if (ldc < std::max<std::int64_t>(1, n)) info = two ? 12 : 10;
  if (info) return report_xerbla(name, info);
  if (n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  if (alpha == T(0) || k == 0) return scale_triangle_host(uplo, n, beta, c, ldc, herm);
  const std::int64_t cola = trans == 'N' ? k : n;
  run<T>(name, Class::Level3, double(n) * double(n) * double(k) * (two ? 2 : 1), [&](Call& call) {
    auto ab = call.in(a, mat_count(nrowa, cola, lda));
    auto cb = call.inout(c, mat_count(n, n, ldc));
    if constexpr (kComplex<T>) {
      const Triangle u = uplo_of(uplo);
      const BlasTranspose t = trans_of<T>(trans);
      const std::complex<double> al(alpha), be(beta);
      const Queue& q = call.queue();
      if (two) {
        auto bb = call.in(b, mat_count(nrowa, cola, ldb));
        if (herm) optune::her2k(q, Layout::ColMajor, u, t, n, k, al, ab, lda, bb, ldb, be.real(), cb, ldc);
        else optune::syr2k(q, Layout::ColMajor, u, t, n, k, al, ab, lda, bb, ldb, be, cb, ldc);
      } else if (herm) {
        optune::herk(q, Layout::ColMajor, u, t, n, k, al.real(), ab, lda, be.real(), cb, ldc);
      } else {
        optune::syrk(q, Layout::ColMajor, u, t, n, k, al, ab, lda, be, cb, ldc);
      }
    } else if (two) {
      auto bb = call.in(b, mat_count(nrowa, cola, ldb));
      optune::syr2k<T>(call.queue(), Layout::ColMajor, uplo_of(uplo), trans_of(trans), n, k, double(alpha), ab, lda,
                       bb, ldb, double(beta), cb, ldc);
    } else {
      optune::syrk<T>(call.queue(), Layout::ColMajor, uplo_of(uplo), trans_of(trans), n, k, double(alpha), ab, lda,
                      double(beta), cb, ldc);
    }
  });
}

// xTRMM (solve false) and xTRSM: B = alpha op(A) B, alpha B op(A), or the
// solves, A triangular.
template <class T>
void trmm_any(const char* name, bool solve, char side, char uplo, char trans, char diag, std::int64_t m,
              std::int64_t n, T alpha, const T* a, std::int64_t lda, T* b, std::int64_t ldb) {
  using namespace l3;
  const std::int64_t nrowa = side == 'L' ? m : n;
  int info = 0;
  if (!is_side(side)) info = 1;
  else if (!is_uplo(uplo)) info = 2;
  else if (!is_trans(trans)) info = 3;
  else if (!is_diag(diag)) info = 4;
  else if (m < 0) info = 5;
  else if (n < 0) info = 6;
  else if (lda < std::max<std::int64_t>(1, nrowa)) info = 9;
  else if (ldb < std::max<std::int64_t>(1, m)) info = 11;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0) return;
  if (alpha == T(0)) return scale_host(m, n, T(0), b, ldb);
  run<T>(name, Class::Level3, double(m) * double(n) * double(nrowa), [&](Call& call) {
    auto ab = call.in(a, mat_count(nrowa, nrowa, lda));
    auto bb = call.inout(b, mat_count(m, n, ldb));
    if constexpr (kComplex<T>) {
      using Fn = Event (*)(const Queue&, Layout, Side, Triangle, BlasTranspose, Diagonal, std::int64_t, std::int64_t,
                           std::complex<double>, const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t,
                           const WaitList&);
      const Fn f = solve ? Fn(optune::trsm) : Fn(optune::trmm);
      f(call.queue(), Layout::ColMajor, side_of(side), uplo_of(uplo), trans_of<T>(trans), diag_of(diag), m, n,
        std::complex<double>(alpha), ab, lda, bb, ldb, {});
    } else {
      (solve ? optune::trsm<T> : optune::trmm<T>)(call.queue(), Layout::ColMajor, side_of(side), uplo_of(uplo),
                                                   trans_of(trans), diag_of(diag), m, n, double(alpha), ab, lda, bb,
                                                   ldb, {});
    }
  });
}

}  // namespace optune::hostblas
