// Tuning case of the GEMM families: the whole routine on random row-major
// operands with the family's parameters forced (gemm_direct: the direct
// candidate; gemm_tiled: the tiled candidate with its helper passes;
// gemm_mma: the tensor-core candidate, f16, bf16 and f32 as tf32 on CUDA
// sm_80+, f64 on sm_90+; gemm_thin: the thin candidate on its buckets' decode-time shapes,
// B stored K x N or N x K; gemm_routine: the choice, with the other
// families' stored parameters).
#include <cmath>

#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class GemmCase : public TuningCase {
 public:
  GemmCase(const Queue& q, const GemmProblem& pr, std::string family) : q_(q), pr_(pr), family_(std::move(family)) {
    const std::int64_t m = pr.m, n = pr.n, k = pr.k, batch = pr.batch;
    call_.dtype = pr.dtype;
    call_.c_dtype = pr.c_dtype;
    call_.comp_half = pr.comp_half;
    // The tensor-core family's f32 entries are tf32 (the only f32 it runs).
    call_.tf32 = pr.tf32 || (pr.dtype == DType::F32 && (family_ == families::gemm_mma().name() ||
                                                         family_ == families::gemm_wgmma().name()));
    call_.trans_a = pr.trans_a;
    call_.trans_b = pr.trans_b;
    call_.m = m, call_.n = n, call_.k = k, call_.batch = batch;
    const std::int64_t ar = call_.trans_a ? k : m, ac = call_.trans_a ? m : k;
    const std::int64_t br = call_.trans_b ? n : k, bc = call_.trans_b ? k : n;
    a_ = random_operand(q, pr.dtype, {batch * ar * ac}, -1, 1, 31);
    b_ = random_operand(q, pr.dtype, {batch * br * bc}, -1, 1, 32);
    c_ = random_operand(q, pr.c_dtype, {batch * m * n}, 0, 0, 33);
    call_.a = GemmOperand{a_.mem, 0, ac, ar * ac};
    call_.b = GemmOperand{b_.mem, 0, bc, br * bc};
    call_.c = GemmOperand{c_.mem, 0, n, m * n};
    // beta = 0 keeps runs repeatable (C is only written).
    call_.alpha = 1;
    call_.beta = 0;
  }

  Event run(const Params& p) override {
    GemmForce f;
    f.params[family_] = p;
    // The candidate that runs the family's kernel (none for gemm_routine).
    for (const GemmCandidate* c : gemm_candidates())
      if (c->family().name() == family_) f.candidate = c->name();
    return run_gemm(q_, call_, {}, &f);
  }
  void poison() override { poison_operand(q_, c_); }
  std::vector<double> output() override { return read_operand(q_, c_); }
  // Relative to the largest |C|; sums of k products in another order differ
  // by about sqrt(k) roundings; f16 results by a rounding of the output
  // (f32 accumulation) or of every partial sum (f16 arithmetic).
  double tolerance() const override {
    const double k = double(std::max<std::int64_t>(call_.k, 1));
    if (pr_.dtype == DType::F64) return 1e-12 * std::max(1.0, std::sqrt(k / 64));
    if (pr_.dtype == DType::F16) return call_.comp_half ? 5e-2 : 1e-2;
    // bf16 inputs and output: 8 significant bits; tf32: 11 bits per input.
    if (pr_.dtype == DType::BF16 || pr_.c_dtype == DType::BF16) return 2e-2;
    if (call_.tf32) return 5e-3;
    return 2e-5 * std::max(1.0, std::sqrt(k / 256));
  }
  double work_flops() const override {
    return 2.0 * double(call_.m) * double(call_.n) * double(call_.k) * double(call_.batch);
  }
  double work_bytes() const override {
    const double e = double(dtype_size(pr_.dtype)), ec = double(dtype_size(pr_.c_dtype)), b = double(call_.batch);
    return b * (e * double(call_.m * call_.k + call_.k * call_.n) + ec * double(call_.m * call_.n));
  }

 private:
  Queue q_;
  GemmProblem pr_;
  std::string family_;
  GemmCall call_;
  Operand a_, b_, c_;
};

}  // namespace

std::unique_ptr<TuningCase> gemm(const KernelFamily& family, const Queue& q, const Problem& pr) {
  return std::make_unique<GemmCase>(q, pr.as<GemmProblem>(), family.name());
}

}  // namespace optune::detail::cases
