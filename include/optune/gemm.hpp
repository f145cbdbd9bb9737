// General matrix multiplication (BLAS level 3): C = act(alpha * op(A) * op(B) + beta * C + bias),
// single and batched, on every device optune runs on.
//
// Semantics are BLAS's, exactly:
// - op(A) is m x k, op(B) is k x n, C is m x n; op(X) = X or X^T per trans_x.
// - Layout says how every matrix is stored: RowMajor (element (i, j) at
//   i * ld + j) or ColMajor (at i + j * ld). The leading dimension of a stored
//   matrix must be at least its stored row length (RowMajor: columns; ColMajor:
//   rows) and at least 1.
// - beta == 0: C is not read (NaN or Inf already in C never reaches the result).
// - alpha == 0 or k == 0: A and B are not read; C = act(beta * C + bias).
// - m == 0 or n == 0: nothing happens (an empty Event); buffers still validated.
// - Buffer<T> views carry their offsets; each operand must hold every element
//   it addresses: offset + (rows - 1) * ld + cols (RowMajor, in its stored
//   shape) elements, or the transposed count for ColMajor.
//
// Data types: float (f32), double (f64, devices with fp64) and half (f16
// storage). For half, Accumulate::Default computes in f16 where the device has
// f16 arithmetic (cl_khr_fp16, CUDA) and in f32 elsewhere; Accumulate::F32
// forces f32 accumulation everywhere. On CUDA devices of compute capability
// 8.0 or newer, half products that the tensor cores run (large enough, A and B
// with leading dimensions, offsets and strides multiples of 8) accumulate in
// f32 under either setting.
//
// Epilogue (GemmOptions): an optional bias vector of C's type added to every
// row (BiasMode::PerColumn: n elements, bias[j] added to C(i, j)) or every
// column (BiasMode::PerRow: m elements, bias[i] added to C(i, j)), then an
// element-wise activation (any optune::Unary; Unary::Copy means none), all in
// the GEMM kernel's own store, never as a second pass.
//
// Every call validates first and throws optune::Error naming the argument:
// InvalidArgument (negative sizes or leading dimensions, leading dimension too
// small, bias shape, empty batch, spans of different lengths), BufferTooSmall
// (an operand's view too small for its offset and extent), Overflow (index
// arithmetic beyond 64 bits), InvalidType (mixed data types), Unsupported (f64
// without fp64). Calls are asynchronous; the Event covers every kernel the
// call enqueued (padding, transposition, the product, copies back).
#pragma once

#include <cstdint>
#include <span>

#include "optune/elementwise.hpp"

namespace optune {

enum class Layout { RowMajor, ColMajor };
enum class Transpose { No, Yes };
enum class BiasMode { None, PerRow, PerColumn };
enum class Accumulate { Default, F32 };

struct GemmOptions {
  BiasMode bias_mode = BiasMode::None;
  Operand bias;                  // m (PerRow) or n (PerColumn) elements of C's type
  Unary activation = Unary::Copy;
  OpParams activation_params;    // e.g. the leaky_relu slope, clamp bounds
  Accumulate accumulate = Accumulate::Default;
};

// C = act(alpha * op(A) * op(B) + beta * C + bias).
template <class T>
Event gemm(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
           std::int64_t k, double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb,
           double beta, const Buffer<T>& c, std::int64_t ldc, const GemmOptions& options = {},
           const WaitList& wait = {});

// batch products in one launch: the i-th reads A at a's offset + i * stride_a
// (likewise B and C). Strides may be 0 for A or B (a shared operand), never
// for C unless batch == 1. batch must be >= 1.
template <class T>
Event gemm_strided_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                           std::int64_t n, std::int64_t k, double alpha, const Buffer<T>& a, std::int64_t lda,
                           std::int64_t stride_a, const Buffer<T>& b, std::int64_t ldb, std::int64_t stride_b,
                           double beta, const Buffer<T>& c, std::int64_t ldc, std::int64_t stride_c,
                           std::int64_t batch, const GemmOptions& options = {}, const WaitList& wait = {});

// A list of products in one launch (CLBlast's GemmBatched): product i uses
// alphas[i], betas[i] and the element offsets a_offsets[i], b_offsets[i],
// c_offsets[i], counted from each buffer view's own offset. Every span has
// the same, non-zero length.
template <class T>
Event gemm_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::span<const double> alphas, const Buffer<T>& a,
                   std::int64_t lda, std::span<const std::int64_t> a_offsets, const Buffer<T>& b, std::int64_t ldb,
                   std::span<const std::int64_t> b_offsets, std::span<const double> betas, const Buffer<T>& c,
                   std::int64_t ldc, std::span<const std::int64_t> c_offsets, const GemmOptions& options = {},
                   const WaitList& wait = {});

}  // namespace optune
