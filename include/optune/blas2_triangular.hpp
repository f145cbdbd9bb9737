// BLAS level 2, the triangular routines, in s, d, c, z and h (optune::half:
// f16 storage, f32 arithmetic, x rounded once): x = op(A) x
// (trmv, tbmv, tpmv) and the solve of op(A) x = b in place (trsv, tbsv,
// tpsv), A triangular of order n, full (leading dimension lda), banded (k
// diagonals beside the main one, lda >= k + 1) or packed; op(A) is A, A^T
// or A^H (BlasTranspose::Conjugate; the plain transpose for real types).
//
// Layouts as CBLAS's: ColMajor is netlib's storage, RowMajor stores A's
// rows (banded: row r holds A(r, r .. r + k) for Upper, A(r, r - k .. r) for
// Lower, diagonal first resp. last; packed: rows of the triangle one after
// another). Unit diagonals are not read. x is a Buffer<T> view with an
// increment, as level 1 (optune/blas.hpp): a negative increment walks
// backwards from the view's end; A's view starts at its element (0, 0).
//
// Reference semantics: n = 0 returns at once (after the checks). No test
// for singularity or near-singularity is made: a zero on a non-unit
// diagonal gives infinities or NaN, as netlib's.
//
// Errors (optune::Error naming the routine and netlib's xerbla position):
// InvalidArgument for an unknown layout, uplo (1), trans (2) or diag (3),
// n < 0 (4), tbmv/tbsv's k < 0 (5), lda < max(1, n) (trmv/trsv: 6) or
// lda < k + 1 (tbmv/tbsv: 7), incx = 0 (trmv/trsv 8, tbmv/tbsv 9,
// tpmv/tpsv 7), an empty buffer or one of another context, A and x
// overlapping in one allocation; BufferTooSmall for views shorter than what
// n, k, lda and incx address; InvalidType for types other than f32, f64,
// c32, c64, f16 or a and x of different types; Unsupported for f64 and c64
// without fp64. Calls are asynchronous: the Event covers every command the
// call enqueued (empty when n = 0).
//
// Accuracy: each element of the result sums its row's products in blocks
// of the panel (NB rows, WGS / NB lanes: each lane in column order, then
// the lanes in order): error within about (n / L + L) eps sum |M_ij x_j|,
// as a dot product's; solves carry the forward-error bound of
// substitution with that dot product.
#pragma once

#include <cstdint>

#include "optune/blas_types.hpp"
#include "optune/gemm.hpp"
#include "optune/runtime.hpp"

namespace optune {

// x = op(A) x, A n x n triangular (lda >= max(1, n)).
template <class T>
Event trmv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, const WaitList& wait = {});
// x = op(A) x, A triangular banded with k diagonals beside the main one.
template <class T>
Event tbmv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           std::int64_t k, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx,
           const WaitList& wait = {});
// x = op(A) x, A triangular packed (n (n + 1) / 2 elements).
template <class T>
Event tpmv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& ap, const Buffer<T>& x, std::int64_t incx, const WaitList& wait = {});

// x = op(A)^-1 x: the solve of op(A) y = x, in place.
template <class T>
Event trsv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, const WaitList& wait = {});
template <class T>
Event tbsv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           std::int64_t k, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx,
           const WaitList& wait = {});
template <class T>
Event tpsv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& ap, const Buffer<T>& x, std::int64_t incx, const WaitList& wait = {});

}  // namespace optune
