// Host side of GEMM: the validated, row-major form of a call and the
// routine that runs it (direct kernel, or helpers + tiled kernel), shared
// by the public entry points and the tuning cases.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/descriptor.hpp"
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
  DType dtype = DType::F32;
  bool comp_half = false;  // f16 arithmetic (else f32 for f16 storage)
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
};

// The family parameters to use instead of the database's (tuner, tests).
enum class GemmPath { Auto, Direct, Tiled };
struct GemmForce {
  GemmPath path = GemmPath::Auto;
  const Params* direct = nullptr;
  const Params* tiled = nullptr;
  const Params* routine = nullptr;
};

// While alive, the GEMM calls of this thread that pass no GemmForce use f
// (tests run the public entry points with forced configurations this way).
class GemmForceScope {
 public:
  explicit GemmForceScope(const GemmForce& f);
  ~GemmForceScope();
  GemmForceScope(const GemmForceScope&) = delete;
  GemmForceScope& operator=(const GemmForceScope&) = delete;

 private:
  const GemmForce* previous_;
};

// The direct kernel's stored or default parameters for a product that fits
// in half a tile: WGD halved while M and N still fit in half of it, the
// work-items along M, N and the K unroll halved as the tile needs, so small
// products (batched 32^3 under a 64 x 64 tile, say) do not spend most of each
// group on padding. Forced parameters (tuner, tests) run as given.
Params shrink_direct(Params p, const Capabilities& caps, const Problem& pr);

// The Problem that the GEMM families see for a call.
Problem gemm_problem(const GemmCall& call);
// Enqueues the call (already validated).
Event run_gemm(const Queue& q, const GemmCall& call, const WaitList& wait, const GemmForce* force = nullptr);

// The program text of a GEMM kernel source: the activation macro, then
// gemm_common.cl, then the source, under #line directives (also used by the
// NVRTC test to compile the fused epilogues).
std::string gemm_program_text(const std::string& source, Unary activation);
// The element-type defines of a call's kernels.
Defines gemm_type_defines(const GemmCall& call);

}  // namespace optune::detail
