// Runs one GEMM call (single, strided-batched or list-batched) on fresh
// random data through the public API and checks every element of C against
// the double-precision reference (reference/gemm_ref.hpp).
//
// Poisoning: elements of A and B outside the matrices (leading-dimension
// gaps, before the offsets, between products) are NaN, so reading one
// shows; so are A and B entirely when the call must not read them (alpha =
// 0 or k = 0). C is NaN inside the matrices when beta = 0 (it must not be
// read) and a sentinel outside them (it must not be written).
//
// Error bound per element (rounding of a k-term sum in any order, then of
// the epilogue and of the stored result):
//   |got - ref| <= u * (k + 4) * L * scale + r * |ref| + a
// where scale = |alpha| sum_p |a_ip b_pj| + |beta c_ij| + |bias|, u the unit
// roundoff of the arithmetic (2^-24 f32, 2^-53 f64), L
// = 1.5 with an activation (their slopes stay below 1.2), r the rounding of
// the stored result (2^-11 for f16 storage, 2^-8 for bf16) plus the
// activation's own evaluation error, and a = 1e-30 (so exact zeros compare).
// The inputs are the values stored (rounded to f16 or bf16 on the host); with
// GemmCompute::FastTF32 each is also rounded to tf32 on the device (relative
// 2^-11), which adds 2 * 2^-11 * L * scale. f16 arithmetic (f16 -> f16 with
// Accumulate::Default on a device with half arithmetic) sums at most
// half_terms products in f16 (one K tile of the kernel) and the tiles in
// f32: u * (k + 4) becomes 2^-11 (min(k, half_terms) + 4) + 2^-24 (k + 4).
#pragma once

#include <optional>

#include <gtest/gtest.h>

#include "ops/gemm_ops.hpp"
#include "optune/optune.hpp"

namespace optune::ref {

struct GemmCase {
  enum class Mode { Single, Strided, List };
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 1, n = 1, k = 1;
  std::int64_t lda_extra = 0, ldb_extra = 0, ldc_extra = 0;  // beyond the smallest leading dimension
  std::size_t a_off = 0, b_off = 0, c_off = 0;              // the buffer views' offsets
  double alpha = 1, beta = 0;
  DType dtype = DType::F32;                // A and B
  std::optional<DType> c_dtype;            // C and the bias (empty: dtype)
  Accumulate accumulate = Accumulate::Default;
  GemmCompute compute = GemmCompute::Default;
  BiasMode bias_mode = BiasMode::None;
  Unary activation = Unary::Copy;
  OpParams activation_params;
  Mode mode = Mode::Single;
  std::int64_t batch = 1;
  bool shared_a = false;             // strided: stride_a = 0
  std::vector<double> alphas, betas;  // list: per product (empty: alpha, beta for all)
  std::size_t product_align = 1;     // batches: products start at multiples of this (from the view)
  // f16 arithmetic: products summed in f16 before the f32 sum (the kernels'
  // K tile; 128, the direct kernel's largest, unless a test forces a smaller one).
  std::int64_t half_terms = 128;
};

std::string describe(const GemmCase& c);
// Runs the case (with `force` when given) and checks it.
::testing::AssertionResult check_gemm(const GemmCase& c, const detail::GemmForce* force = nullptr);

}  // namespace optune::ref
