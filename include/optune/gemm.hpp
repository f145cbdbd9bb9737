// General matrix multiplication (BLAS level 3): C = act(alpha * op(A) * op(B) + beta * C + bias),
// single and batched, on every device optune runs on.
//
// Semantics are BLAS's, exactly:
// - op(A) is m x k, op(B) is k x n, C is m x n; op(X) = X, X^T or X^H per
//   trans_x (Transpose::Conjugate is X^H; real matrices take it as X^T, as
//   BLAS does).
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
// Data types: A and B have one type; C (and the bias) has A's type or, for
// half and bfloat16 inputs, any of half, bfloat16 and float:
//   A, B      C
//   float     float                        (f32)
//   double    double                       (f64, devices with fp64)
//   half      half, bfloat16 or float      (f16 storage)
//   bfloat16  bfloat16, half or float      (bf16 storage)
//   complex<float>   complex<float>   (c32: cgemm)
//   complex<double>  complex<double>  (c64: zgemm, devices with fp64)
// Any other combination is an Error(InvalidType) (the templates are only
// instantiated for these; the C API checks its untyped buffers the same way).
// bf16 products, and f16 products whose C is not f16, accumulate in f32.
// For half -> half, Accumulate::Default computes in f16 where the device has
// f16 arithmetic (cl_khr_fp16, CUDA): the products and partial sums of one K
// tile of the kernel (at most 128 terms) in f16, the tiles' partial sums
// added in f32, so the error is about 2^-11 (tile + 4) (|A||B|)(i, j) rather
// than growing with K; elsewhere in f32. Accumulate::F32
// forces f32 accumulation everywhere. On CUDA devices of compute capability
// 8.0 or newer, half and bfloat16 products that the tensor cores run (large
// enough, A and B with leading dimensions, offsets and strides multiples of
// 16 bytes) accumulate in f32 under either setting. Elsewhere half and
// bfloat16 are storage: converted to f32, multiplied and summed in f32.
//
// TF32 (GemmOptions::compute = GemmCompute::FastTF32, as cuBLAS's
// CUBLAS_COMPUTE_32F_FAST_TF32; off by default): float products may run on
// the tensor cores (CUDA, compute capability 8.0 or newer, A and B 16-byte
// aligned as above). Precision contract: every element of A and B is rounded
// to tf32 (10 explicit mantissa bits, f32's exponent; round to nearest, ties
// away from zero), the products are exact and accumulate in f32, so
//   |C - C_exact| <= about K * 2^-11 * (|A| |B|)(i, j)  (plus f32 summation)
// per element: about 1e-3 relative for well-scaled data, where f32 gives
// 1e-7. Where the tensor-core kernel does not run (other devices and back
// ends, unaligned operands) the option is ignored and the product is exact
// f32. It applies to float matrices only (InvalidArgument otherwise).
//
// Without it, float products keep f32's accuracy. Where a device's tuning
// entry says so (the H200's thin products, 5 to 16 rows) they may run on the
// FP64 tensor cores as f64 products (each f32 converted exactly, products
// exact, sums in f64: more accurate than f32 arithmetic), or on the tensor
// cores as three tf32 products per term (each element split
// as hi + lo, both tf32; hi*hi + hi*lo + lo*hi summed in f32, K >= 32): each
// input is then represented to about 2^-22 of itself and each term takes
// three f32 additions, so the bound is a small multiple of f32's own K *
// 2^-24 * (|A| |B|)(i, j) (the tests hold it to f32's bound itself). An
// infinity times a nonzero finite value gives an infinity there as in f32,
// but two infinities in one term give NaN.
//
// Epilogue (GemmOptions): an optional bias vector of C's type added to every
// row (BiasMode::PerColumn: n elements, bias[j] added to C(i, j)) or every
// column (BiasMode::PerRow: m elements, bias[i] added to C(i, j)), then an
// element-wise activation (any optune::Unary; Unary::Copy means none), all in
// the GEMM kernel's own store, never as a second pass.
//
// Complex products take complex alpha and beta (the overloads below; the
// templates' real alpha and beta serve them too) and no epilogue (a bias or
// an activation is InvalidArgument). They run as one real GEMM of twice the
// size on the real type's tuned kernels: C, m x n complex, is the real
// m x 2n matrix of its (re, im) pairs, op(A) the real m x 2k one, and
// alpha op(B) is expanded into scratch as a real 2k x 2n matrix whose 2 x 2
// block for b is [[re b, im b], [-im b, re b]] (op(A) is packed first where
// it is transposed or conjugated; a beta with an imaginary part scales C
// first). The rounding is BLAS's (alpha b is rounded once, as netlib's
// TEMP = ALPHA * B(L, J)); beta = 0 does not read C.
//
// Every call validates first and throws optune::Error naming the argument:
// InvalidArgument (negative sizes or leading dimensions, leading dimension too
// small, bias shape, empty batch, spans of different lengths, FastTF32 with
// other than float), BufferTooSmall (an operand's view too small for its
// offset and extent), Overflow (index arithmetic beyond 64 bits), InvalidType
// (A and B of different types, a C type the table above lacks, integer
// matrices, a bias of another type than C), Unsupported (f64 without fp64). Calls are asynchronous; the Event covers every kernel the
// call enqueued (padding, transposition, the product, copies back).
#pragma once

#include <complex>
#include <cstdint>
#include <span>

#include "optune/elementwise.hpp"

namespace optune {

enum class Layout { RowMajor, ColMajor };
enum class Transpose { No, Yes, Conjugate };
enum class BiasMode { None, PerRow, PerColumn };
enum class Accumulate { Default, F32 };
// Default: float products at f32's accuracy (f32 FMAs, or f64 products or
// three tf32 products a term where an entry picks that; see above). FastTF32: float
// products may run on tensor cores in tf32 (see above); ignored where none run them.
enum class GemmCompute { Default, FastTF32 };

struct GemmOptions {
  BiasMode bias_mode = BiasMode::None;
  Operand bias;                  // m (PerRow) or n (PerColumn) elements of C's type
  Unary activation = Unary::Copy;
  OpParams activation_params;    // e.g. the leaky_relu slope, clamp bounds
  Accumulate accumulate = Accumulate::Default;
  GemmCompute compute = GemmCompute::Default;
};

// C = act(alpha * op(A) * op(B) + beta * C + bias). T is A's and B's type,
// TC C's (deduced from c: gemm<float>(...) still names T alone).
template <class T, class TC>
Event gemm(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
           std::int64_t k, double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb,
           double beta, const Buffer<TC>& c, std::int64_t ldc, const GemmOptions& options = {},
           const WaitList& wait = {});

// batch products in one launch: the i-th reads A at a's offset + i * stride_a
// (likewise B and C). Strides may be 0 for A or B (a shared operand), never
// for C unless batch == 1. batch must be >= 1.
template <class T, class TC>
Event gemm_strided_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                           std::int64_t n, std::int64_t k, double alpha, const Buffer<T>& a, std::int64_t lda,
                           std::int64_t stride_a, const Buffer<T>& b, std::int64_t ldb, std::int64_t stride_b,
                           double beta, const Buffer<TC>& c, std::int64_t ldc, std::int64_t stride_c,
                           std::int64_t batch, const GemmOptions& options = {}, const WaitList& wait = {});

// A list of products in one launch (CLBlast's GemmBatched): product i uses
// alphas[i], betas[i] and the element offsets a_offsets[i], b_offsets[i],
// c_offsets[i], counted from each buffer view's own offset. Every span has
// the same, non-zero length.
template <class T, class TC>
Event gemm_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::span<const double> alphas, const Buffer<T>& a,
                   std::int64_t lda, std::span<const std::int64_t> a_offsets, const Buffer<T>& b, std::int64_t ldb,
                   std::span<const std::int64_t> b_offsets, std::span<const double> betas, const Buffer<TC>& c,
                   std::int64_t ldc, std::span<const std::int64_t> c_offsets, const GemmOptions& options = {},
                   const WaitList& wait = {});

// Complex products (cgemm, zgemm) with complex alpha and beta; otherwise as
// the templates above. alphas and betas of gemm_batched are per product.
Event gemm(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
           std::int64_t k, std::complex<double> alpha, const Buffer<std::complex<float>>& a, std::int64_t lda,
           const Buffer<std::complex<float>>& b, std::int64_t ldb, std::complex<double> beta,
           const Buffer<std::complex<float>>& c, std::int64_t ldc, const GemmOptions& options = {},
           const WaitList& wait = {});
Event gemm(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
           std::int64_t k, std::complex<double> alpha, const Buffer<std::complex<double>>& a, std::int64_t lda,
           const Buffer<std::complex<double>>& b, std::int64_t ldb, std::complex<double> beta,
           const Buffer<std::complex<double>>& c, std::int64_t ldc, const GemmOptions& options = {},
           const WaitList& wait = {});
Event gemm_strided_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                           std::int64_t n, std::int64_t k, std::complex<double> alpha,
                           const Buffer<std::complex<float>>& a, std::int64_t lda, std::int64_t stride_a,
                           const Buffer<std::complex<float>>& b, std::int64_t ldb, std::int64_t stride_b,
                           std::complex<double> beta, const Buffer<std::complex<float>>& c, std::int64_t ldc,
                           std::int64_t stride_c, std::int64_t batch, const GemmOptions& options = {},
                           const WaitList& wait = {});
Event gemm_strided_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                           std::int64_t n, std::int64_t k, std::complex<double> alpha,
                           const Buffer<std::complex<double>>& a, std::int64_t lda, std::int64_t stride_a,
                           const Buffer<std::complex<double>>& b, std::int64_t ldb, std::int64_t stride_b,
                           std::complex<double> beta, const Buffer<std::complex<double>>& c, std::int64_t ldc,
                           std::int64_t stride_c, std::int64_t batch, const GemmOptions& options = {},
                           const WaitList& wait = {});
Event gemm_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::span<const std::complex<double>> alphas,
                   const Buffer<std::complex<float>>& a, std::int64_t lda, std::span<const std::int64_t> a_offsets,
                   const Buffer<std::complex<float>>& b, std::int64_t ldb, std::span<const std::int64_t> b_offsets,
                   std::span<const std::complex<double>> betas, const Buffer<std::complex<float>>& c,
                   std::int64_t ldc, std::span<const std::int64_t> c_offsets, const GemmOptions& options = {},
                   const WaitList& wait = {});
Event gemm_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::span<const std::complex<double>> alphas,
                   const Buffer<std::complex<double>>& a, std::int64_t lda, std::span<const std::int64_t> a_offsets,
                   const Buffer<std::complex<double>>& b, std::int64_t ldb, std::span<const std::int64_t> b_offsets,
                   std::span<const std::complex<double>> betas, const Buffer<std::complex<double>>& c,
                   std::int64_t ldc, std::span<const std::int64_t> c_offsets, const GemmOptions& options = {},
                   const WaitList& wait = {});

}  // namespace optune
