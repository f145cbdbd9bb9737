// BLAS level 3 besides GEMM (optune/gemm.hpp): symm (also in h,
// optune::half: one f16 GEMM accumulating in f32) and hemm. (syrk, herk,
// syr2k, her2k, trmm and trsm are in optune/blas3_triangular.hpp and
// optune/blas3_complex.hpp.)
//
//   symm: C = alpha A B + beta C   (Side::Left,  A m x m symmetric)
//         C = alpha B A + beta C   (Side::Right, A n x n symmetric)
//   hemm: the same with A Hermitian (complex types only)
//
// B and C are m x n. Only the `triangle` of A is read (Upper: elements
// (i, j) with i <= j; Lower: i >= j); hemm takes the imaginary parts of A's
// diagonal as 0, as netlib's. Layout says how A, B and C are stored, as
// gemm's. T is float, double, std::complex<float> or std::complex<double>
// (hemm: the complex ones); f64 and c64 need fp64 (Unsupported elsewhere).
//
// Semantics are the reference BLAS's: m = 0 or n = 0 returns at once (an
// empty Event; buffers still validated); alpha = 0 does not read A or B and
// C = beta C; beta = 0 does not read C (NaN in C does not survive); alpha = 0
// with beta = 1 returns at once.
//
// They run as CLBlast's do: one kernel expands A's triangle into the full
// matrix in the queue's scratch (mirrored, conjugated for hemm), then one
// GEMM (so every GEMM candidate, complex GEMM included, and its tuning
// serves them). The Event covers both.
//
// Errors (optune::Error), naming the argument and its position in netlib's
// xSYMM(SIDE, UPLO, M, N, ALPHA, A, LDA, B, LDB, BETA, C, LDC):
// InvalidArgument: an unknown layout, side (1) or triangle (2); m (3) or n
// (4) negative; lda (7) below max(1, ka) (ka = m for Left, n for Right);
// ldb (9) or ldc (12) below max(1, the stored row length: n row-major, m
// column-major); C overlapping A or B. BufferTooSmall: a view too small for
// its matrix. InvalidType: hemm of real matrices. Unsupported: f64 or c64
// without fp64.
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "optune/blas_types.hpp"
#include "optune/gemm.hpp"

namespace optune {

template <class T>
Event symm(const Queue& q, Layout layout, Side side, Triangle triangle, std::int64_t m, std::int64_t n,
           std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, std::type_identity_t<T> beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait = {});

template <class T>
Event hemm(const Queue& q, Layout layout, Side side, Triangle triangle, std::int64_t m, std::int64_t n,
           std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, std::type_identity_t<T> beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait = {});

}  // namespace optune
