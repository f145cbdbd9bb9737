// BLAS level 2 on the device, the general and symmetric / Hermitian
// routines, in s (float), d (double), c (std::complex<float>) and z
// (std::complex<double>), with the reference BLAS's semantics and CLBlast's
// argument order (layout first; CBLAS's meaning of RowMajor). The real
// routines also take h (optune::half: f16 storage, f32 arithmetic, each
// result rounded once; alpha and beta as half, exact in f32).
//
// Matrices are Buffer<T> views with a leading dimension (the view's offset is
// CLBlast's a_offset); vectors are views with an increment as in level 1
// (optune/blas.hpp): a negative increment walks backwards, but 0 is an
// error here, as netlib's xerbla says. Band matrices (gbmv, sbmv, hbmv) are
// in BLAS band storage for the layout (column-major: A(i, j) at
// ku + i - j + j lda; row-major: kl + j - i + i lda; sbmv / hbmv use k for
// the stored side's width), packed ones (spmv, hpmv, spr, spr2, hpr, hpr2)
// in BLAS packed storage of the triangle for the layout.
//
// Semantics (netlib's, per routine):
// - products (gemv, gbmv, symv, hemv, sbmv, hbmv, spmv, hpmv):
//   y = alpha op(A) x + beta y; m = 0 or n = 0, or alpha = 0 and beta = 1,
//   return at once; beta = 0 writes y without reading it (NaN in y does not
//   propagate); alpha = 0 reads neither A nor x. BlasTranspose::Conjugate
//   (complex gemv / gbmv) is A^H; on real matrices it is A^T. Hermitian
//   matrices' diagonals are read as real (the imaginary part ignored).
// - rank updates: ger (real), geru, gerc (complex): A += alpha x y^T
//   (gerc: x y^H); syr, spr (real): A += alpha x x^T; syr2, spr2 (real):
//   A += alpha (x y^T + y x^T); her, hpr (complex, real alpha):
//   A += alpha x x^H; her2, hpr2 (complex): A += alpha x y^H +
//   conj(alpha) y x^H. Only the given triangle is read or written; the
//   diagonal of a Hermitian matrix is made real. m = 0, n = 0 or alpha = 0
//   return at once. As the reference's column loop does, the column j of
//   the update is skipped where y_j (ger; x_j for syr / her) is 0, or x_j
//   and y_j both are (syr2 / her2), in either layout.
// - Accuracy: each y_i is a sum in T's precision over the row, split into
//   TJ interleaved partial sums and at most 64 slices, added in a fixed
//   order: deterministic, error within about (n / TJ + log2 TJ + slices) eps
//   sum |a_ij x_j|.
// - y must not overlap A or x (undefined, as in the reference).
//
// Validation (optune::Error naming the routine and the argument with
// netlib's xerbla position): InvalidArgument for a transpose, triangle or
// layout out of range (position 1), m, n, kl, ku or k < 0, lda too small
// (column-major: lda >= max(1, rows) for dense, kl + ku + 1 / k + 1 for
// band; row-major: lda >= max(1, cols)), an increment of 0, an empty buffer
// or one of another context; BufferTooSmall for a view shorter than what the
// call addresses; InvalidType for a routine on the wrong kind of type (symv
// on complex, hemv on real, ...) and mixed types; Unsupported for double and
// complex<double> without fp64. Calls are asynchronous; the Event covers every
// kernel the call enqueued (empty when there was nothing to do).
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "optune/blas.hpp"
#include "optune/blas_types.hpp"
#include "optune/gemm.hpp"

namespace optune {

// y = alpha op(A) x + beta y, A m x n (s, d, c, z).
template <class T>
Event gemv(const Queue& q, Layout layout, BlasTranspose trans, std::int64_t m, std::int64_t n,
           std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx,
           std::type_identity_t<T> beta, const Buffer<T>& y, std::int64_t incy, const WaitList& wait = {});
// The same, A a band matrix with kl sub- and ku super-diagonals (s, d, c, z).
template <class T>
Event gbmv(const Queue& q, Layout layout, BlasTranspose trans, std::int64_t m, std::int64_t n, std::int64_t kl,
           std::int64_t ku, std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x,
           std::int64_t incx, std::type_identity_t<T> beta, const Buffer<T>& y, std::int64_t incy,
           const WaitList& wait = {});
// y = alpha A x + beta y, A n x n symmetric (s, d) / Hermitian (c, z), from
// its `uplo` triangle.
template <class T>
Event symv(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, std::type_identity_t<T> beta,
           const Buffer<T>& y, std::int64_t incy, const WaitList& wait = {});
template <class T>
Event hemv(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, std::type_identity_t<T> beta,
           const Buffer<T>& y, std::int64_t incy, const WaitList& wait = {});
// Band (k super- or sub-diagonals).
template <class T>
Event sbmv(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, std::type_identity_t<T> beta,
           const Buffer<T>& y, std::int64_t incy, const WaitList& wait = {});
template <class T>
Event hbmv(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, std::type_identity_t<T> beta,
           const Buffer<T>& y, std::int64_t incy, const WaitList& wait = {});
// Packed (n (n + 1) / 2 elements).
template <class T>
Event spmv(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& ap, const Buffer<T>& x, std::int64_t incx, std::type_identity_t<T> beta, const Buffer<T>& y,
           std::int64_t incy, const WaitList& wait = {});
template <class T>
Event hpmv(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& ap, const Buffer<T>& x, std::int64_t incx, std::type_identity_t<T> beta, const Buffer<T>& y,
           std::int64_t incy, const WaitList& wait = {});

// A += alpha x y^T (ger: s, d; geru: c, z), alpha x y^H (gerc: c, z).
template <class T>
Event ger(const Queue& q, Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,
          const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& a,
          std::int64_t lda, const WaitList& wait = {});
template <class T>
Event geru(const Queue& q, Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& a,
           std::int64_t lda, const WaitList& wait = {});
template <class T>
Event gerc(const Queue& q, Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& a,
           std::int64_t lda, const WaitList& wait = {});
// A += alpha x x^T (s, d), A += alpha x x^H (c, z; real alpha).
template <class T>
Event syr(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
          const Buffer<T>& x, std::int64_t incx, const Buffer<T>& a, std::int64_t lda, const WaitList& wait = {});
template <class T>
Event spr(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
          const Buffer<T>& x, std::int64_t incx, const Buffer<T>& ap, const WaitList& wait = {});
template <class T>
Event her(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, blas_real_t<T> alpha, const Buffer<T>& x,
          std::int64_t incx, const Buffer<T>& a, std::int64_t lda, const WaitList& wait = {});
template <class T>
Event hpr(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, blas_real_t<T> alpha, const Buffer<T>& x,
          std::int64_t incx, const Buffer<T>& ap, const WaitList& wait = {});
// A += alpha (x y^T + y x^T) (s, d), A += alpha x y^H + conj(alpha) y x^H (c, z).
template <class T>
Event syr2(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& a,
           std::int64_t lda, const WaitList& wait = {});
template <class T>
Event spr2(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& ap,
           const WaitList& wait = {});
template <class T>
Event her2(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& a,
           std::int64_t lda, const WaitList& wait = {});
template <class T>
Event hpr2(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
           const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& ap,
           const WaitList& wait = {});

}  // namespace optune
