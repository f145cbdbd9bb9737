// Tuning cases of the GEMM families: the whole routine on random row-major
// operands with the family's parameters forced (gemm_direct: the direct
// path; gemm_tiled: the tiled path with its helper passes; gemm_routine:
// the threshold, with the other two families' stored parameters).
#include <cmath>

#include "kernels/gemm/gemm.hpp"
#include "kernels/reduce/reduce_common.hpp"
#include "ops/gemm_ops.hpp"

namespace optune::detail {

namespace {

class GemmCase : public TuningCase {
 public:
  GemmCase(const Queue& q, const Problem& pr, std::string family) : q_(q), pr_(pr), family_(std::move(family)) {
    const std::int64_t m = pr.sizes.at(0), n = pr.sizes.at(1), k = pr.sizes.at(2);
    const std::int64_t batch = pr.sizes.size() > 3 ? pr.sizes[3] : 1;
    call_.dtype = pr.dtype;
    call_.comp_half = pr.get("comp_half");
    call_.trans_a = pr.get("trans_a");
    call_.trans_b = pr.get("trans_b");
    call_.m = m, call_.n = n, call_.k = k, call_.batch = batch;
    const std::int64_t ar = call_.trans_a ? k : m, ac = call_.trans_a ? m : k;
    const std::int64_t br = call_.trans_b ? n : k, bc = call_.trans_b ? k : n;
    a_ = reduction::random_operand(q, pr.dtype, {batch * ar * ac}, -1, 1, 31);
    b_ = reduction::random_operand(q, pr.dtype, {batch * br * bc}, -1, 1, 32);
    c_ = reduction::random_operand(q, pr.dtype, {batch * m * n}, 0, 0, 33);
    call_.a = GemmOperand{a_.mem, 0, ac, ar * ac};
    call_.b = GemmOperand{b_.mem, 0, bc, br * bc};
    call_.c = GemmOperand{c_.mem, 0, n, m * n};
    // beta = 0 keeps runs repeatable (C is only written).
    call_.alpha = 1;
    call_.beta = 0;
  }

  Event run(const Params& p) override {
    GemmForce f;
    if (family_ == "gemm_direct") f.path = GemmPath::Direct, f.direct = &p;
    if (family_ == "gemm_tiled") f.path = GemmPath::Tiled, f.tiled = &p;
    if (family_ == "gemm_routine") f.routine = &p;
    return run_gemm(q_, call_, {}, &f);
  }
  void poison() override { reduction::poison_operand(q_, c_); }
  std::vector<double> output() override { return reduction::read_operand(q_, c_); }
  // Relative to the largest |C|; sums of k products in another order differ
  // by about sqrt(k) roundings; f16 results by a rounding of the output
  // (f32 accumulation) or of every partial sum (f16 arithmetic).
  double tolerance() const override {
    const double k = double(std::max<std::int64_t>(call_.k, 1));
    if (pr_.dtype == DType::F64) return 1e-12 * std::max(1.0, std::sqrt(k / 64));
    if (pr_.dtype == DType::F16) return call_.comp_half ? 5e-2 : 1e-2;
    return 2e-5 * std::max(1.0, std::sqrt(k / 256));
  }
  double work_flops() const override {
    return 2.0 * double(call_.m) * double(call_.n) * double(call_.k) * double(call_.batch);
  }
  double work_bytes() const override {
    const double e = double(dtype_size(pr_.dtype)), b = double(call_.batch);
    return e * b * double(call_.m * call_.k + call_.k * call_.n + call_.m * call_.n);
  }

 private:
  Queue q_;
  Problem pr_;
  std::string family_;
  GemmCall call_;
  Operand a_, b_, c_;
};

}  // namespace

std::unique_ptr<TuningCase> GemmFamilyBase::make_case(const Queue& queue, const Problem& problem) const {
  return std::make_unique<GemmCase>(queue, problem, name());
}

}  // namespace optune::detail
