// BLAS level 3: the rank-k updates and the triangular routines, in f32, f64,
// c32, c64 and f16 (optune::half: run in f32 on widened copies of the
// operands, the output rounded to half once) (these templates take real
// scalars; complex alpha and beta,
// herk and her2k are in optune/blas3_complex.hpp), on every device optune
// runs on (the products run as GEMMs, see docs/DESIGN.md "BLAS level 3"):
//
//   syrk   C = alpha op(A) op(A)^T + beta C          (C n x n symmetric, op(A) n x k)
//   syr2k  C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C
//   trmm   B = alpha op(A) B  (Side::Left)  or  alpha B op(A)  (Side::Right)
//   trsm   solves op(A) X = alpha B (Left) or X op(A) = alpha B (Right); X overwrites B
//   trsm_strided_batched: batch trsm's, the i-th on A at i * stride_a and B at i * stride_b
//
// Semantics are the reference BLAS's (netlib):
// - syrk and syr2k read and write only C's `uplo` triangle (the other is
//   never touched); op(X) = X for Transpose No, X^T for Yes (and, for real
//   types, Conjugate, as the reference's 'C'; complex syrk and syr2k refuse
//   it, as the reference). trmm and trsm: Conjugate is A^H.
// - trmm and trsm read only A's `uplo` triangle of the m x m (Left) or n x n
//   (Right) matrix; Diagonal::Unit takes its diagonal as ones without
//   reading it. B is m x n.
// - beta == 0 (syrk, syr2k): C's triangle is not read, so NaN or Inf in it
//   does not reach the result. alpha == 0 or k == 0 (syrk, syr2k): A and B
//   are not read, C's triangle = beta C (nothing at all for beta == 1).
//   alpha == 0 (trmm, trsm): A is not read and B = 0, without reading B.
// - n == 0 (or m == 0) returns at once; the buffers are still validated.
// - Layout says how every matrix is stored (RowMajor: element (i, j) at
//   i * ld + j; ColMajor: at i + j * ld, as the reference); a leading
//   dimension must be at least its stored row length (RowMajor: columns,
//   ColMajor: rows) and at least 1. Buffer views carry the offsets.
// - trsm does not check for singularity (nor does the reference): a zero on
//   a non-unit diagonal gives Inf or NaN.
//
// Errors (optune::Error) name the routine and the argument with its
// position in netlib's argument list, as xerbla numbers them (e.g. "syrk:
// argument 3 (n) = -1 must be >= 0"): InvalidArgument (negative sizes,
// leading dimensions too small, enum values out of range, batch < 1, an
// output overlapping an input in the same memory), BufferTooSmall,
// Overflow, InvalidType (other element types), Unsupported (f64 or c64
// without fp64). Calls are asynchronous; the Event covers every kernel they enqueue.
#pragma once

#include <cstdint>

#include "optune/blas_types.hpp"
#include "optune/gemm.hpp"

namespace optune {

template <class T>
Event syrk(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
           double alpha, const Buffer<T>& a, std::int64_t lda, double beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait = {});

template <class T>
Event syr2k(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
            double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb, double beta,
            const Buffer<T>& c, std::int64_t ldc, const WaitList& wait = {});

template <class T>
Event trmm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,
           std::int64_t m, std::int64_t n, double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, const WaitList& wait = {});

template <class T>
Event trsm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,
           std::int64_t m, std::int64_t n, double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, const WaitList& wait = {});

// Strides in elements, >= 0: stride_a may be 0 (one triangle for every
// system); stride_b must keep the B's apart (at least one B's extent) unless
// batch == 1. batch >= 1.
template <class T>
Event trsm_strided_batched(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a,
                           Diagonal diag, std::int64_t m, std::int64_t n, double alpha, const Buffer<T>& a,
                           std::int64_t lda, std::int64_t stride_a, const Buffer<T>& b, std::int64_t ldb,
                           std::int64_t stride_b, std::int64_t batch, const WaitList& wait = {});

}  // namespace optune
