// Host side of GEMM: the validated, row-major form of a call and the
// routine that runs it through one of the GEMM candidates
// (ops/gemm_candidates.hpp), shared by the public entry points and the
// tuning cases.
#pragma once

#include <complex>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/gemm/gemm.hpp"
#include "ops/force.hpp"
#include "optune/gemm.hpp"

namespace optune::detail {

// One operand of the row-major problem: memory, the view's offset, leading
// dimension and batch stride, in elements.
struct GemmOperand {
  std::shared_ptr<MemImpl> mem;
  std::size_t offset = 0;
  std::int64_t ld = 1, stride = 0;
};

// C = act(alpha * op(A) op(B) + beta * C + bias), row-major, for `batch`
// products. A is m x k (trans_a: stored k x m), B is k x n (trans_b: stored
// n x k). In list mode product i uses a.offset + a_offsets[i] (likewise B,
// C) and alphas[i], betas[i]; otherwise the strides and alpha, beta.
struct GemmCall {
  DType dtype = DType::F32;    // A and B
  DType c_dtype = DType::F32;  // C and the bias
  bool comp_half = false;  // f16 arithmetic (else f32 for f16 storage)
  bool tf32 = false;       // f32 A and B may run on tensor cores in tf32
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  GemmOperand a, b, c;
  double alpha = 1, beta = 0;
  bool list = false;
  std::vector<std::int64_t> a_offsets, b_offsets, c_offsets;
  std::vector<double> alphas, betas;
  int bias_mode = 0;  // 0 none, 1 per row of C (m), 2 per column (n)
  std::shared_ptr<MemImpl> bias;
  std::size_t bias_offset = 0;
  Unary activation = Unary::Copy;
  std::vector<double> activation_params;  // P0, P1 of the unary expression
  // The thin candidate's C^T = B^T A^T form of a call (A and B, m and n,
  // the transposes and the bias's side exchanged): C is stored transposed
  // and the table's A and B slots are swapped (GEMM_TRANS_C,
  // GEMM_LISTS_SWAPPED).
  bool swapped = false;
};

// GEMM's forced candidate ("direct", "tiled", "mma", "wgmma", "thin") and
// parameters by family ("gemm_direct", "gemm_tiled", "gemm_mma",
// "gemm_thin", "gemm_routine"; ops/force.hpp). Forced parameters run as
// given (fitted to the device, not shrunk).
using GemmForce = CandidateForce;
struct GemmForceTag;
// While alive, the GEMM calls of this thread that pass no GemmForce use it.
using GemmForceScope = ForceScope<GemmForceTag>;

// An untyped matrix (the C API's buffers): memory, the view, the element type.
struct GemmMatrix {
  std::shared_ptr<MemImpl> mem;
  std::size_t offset = 0, count = 0;
  DType dtype = DType::F32;
};
// optune::gemm (strided = false: one product, the strides ignored) or
// gemm_strided_batched over matrices of any types: the same validation, so a
// combination the templates cannot express is an Error(InvalidType). Real
// products use alpha's and beta's real parts (callers refuse imaginary ones).
Event gemm_untyped(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::complex<double> alpha, const GemmMatrix& a, std::int64_t lda,
                   std::int64_t stride_a, const GemmMatrix& b, std::int64_t ldb, std::int64_t stride_b,
                   std::complex<double> beta,
                   const GemmMatrix& c, std::int64_t ldc, std::int64_t stride_c, std::int64_t batch, bool strided,
                   const GemmOptions& options, const WaitList& wait);

// The GemmProblem the GEMM families see for a call.
GemmProblem gemm_problem(const GemmCall& call);
// Enqueues the call (already validated).
Event run_gemm(const Queue& q, const GemmCall& call, const WaitList& wait, const GemmForce* force = nullptr);
// A list-batch table: call's 3 offsets per product, then values.size() /
// batch scalars per product in order, each as a part of part_bytes (4: float,
// 8: double). It goes into the queue's scratch slot `slot` by a non-blocking
// write (the host copy is kept until the write completes), so the call
// neither allocates nor waits for the queue.
Buffer<std::uint8_t> upload_list_table(const Queue& q, const GemmCall& call, std::size_t part_bytes,
                                       const std::vector<double>& values, std::size_t slot);

}  // namespace optune::detail
