// BLAS level 3 in complex types (c32: std::complex<float>, c64:
// std::complex<double>, which needs fp64): the rank-k and triangular
// routines of optune/blas3_triangular.hpp with complex scalars, and the
// Hermitian rank-k updates.
//
//   syrk, syr2k, trmm, trsm, trsm_strided_batched: as in
//     optune/blas3_triangular.hpp, with complex alpha (and beta). The
//     templates there also take complex buffers with real scalars.
//     BlasTranspose::Conjugate is op(A) = A^H for trmm and trsm; complex
//     syrk and syr2k take No or Yes only (the reference's 'C' is an error
//     for csyrk and csyr2k: InvalidArgument, argument 2).
//   herk   C = alpha op(A) op(A)^H + beta C, alpha and beta real; op(A) = A
//          (No, A n x k) or A^H (Conjugate, A k x n); Yes is an error.
//   her2k  C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C,
//          alpha complex, beta real; trans No or Conjugate.
//
// herk and her2k read and write C's `uplo` triangle only, and set the
// imaginary parts of its diagonal to 0 (as the reference), reading only the
// real parts there; alpha == 0 or k == 0 makes the triangle beta C (the
// diagonal beta Re(C)), and with beta == 1 returns at once (the diagonal
// left as it is). Errors are those of optune/blas3_triangular.hpp, with
// netlib's positions (xHERK(UPLO, TRANS, N, K, ALPHA, A, LDA, BETA, C, LDC),
// xHER2K(UPLO, TRANS, N, K, ALPHA, A, LDA, B, LDB, BETA, C, LDC)); herk and
// her2k of real matrices are InvalidType; a real scalar given an imaginary
// part (the C API's) is InvalidArgument.
#pragma once

#include <complex>
#include <cstdint>

#include "optune/blas3_triangular.hpp"

namespace optune {

template <class T>
Event herk(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
           double alpha, const Buffer<T>& a, std::int64_t lda, double beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait = {});

template <class T>
Event her2k(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
            std::complex<double> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb,
            double beta, const Buffer<T>& c, std::int64_t ldc, const WaitList& wait = {});

#define OPTUNE_BLAS3_COMPLEX_DECL(Z)                                                                              \
  Event syrk(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,   \
             std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda, std::complex<double> beta,         \
             const Buffer<Z>& c, std::int64_t ldc, const WaitList& wait = {});                                    \
  Event syr2k(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,  \
              std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda, const Buffer<Z>& b,               \
              std::int64_t ldb, std::complex<double> beta, const Buffer<Z>& c, std::int64_t ldc,                  \
              const WaitList& wait = {});                                                                         \
  Event trmm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,       \
             std::int64_t m, std::int64_t n, std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda,    \
             const Buffer<Z>& b, std::int64_t ldb, const WaitList& wait = {});                                    \
  Event trsm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,       \
             std::int64_t m, std::int64_t n, std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda,    \
             const Buffer<Z>& b, std::int64_t ldb, const WaitList& wait = {});                                    \
  Event trsm_strided_batched(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a,      \
                             Diagonal diag, std::int64_t m, std::int64_t n, std::complex<double> alpha,           \
                             const Buffer<Z>& a, std::int64_t lda, std::int64_t stride_a, const Buffer<Z>& b,     \
                             std::int64_t ldb, std::int64_t stride_b, std::int64_t batch, const WaitList& wait = {});
OPTUNE_BLAS3_COMPLEX_DECL(std::complex<float>)
OPTUNE_BLAS3_COMPLEX_DECL(std::complex<double>)
#undef OPTUNE_BLAS3_COMPLEX_DECL

}  // namespace optune
