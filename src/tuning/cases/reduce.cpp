// Tuning case of the reduction families: a whole sum through the operator's
// launch (both passes when the parameters split it), parameters forced.
#include "ops/reduce_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

// A whole sum over the problem's layout (rows: [rows][cols]; cols:
// [outer][rows][inner]), both passes when the parameters split it.
class ReduceCase : public TuningCase {
 public:
  ReduceCase(const Queue& q, const ReduceProblem& pr) : q_(q), pr_(pr) {
    call_.op = ReduceOp(pr.op);
    call_.outer = std::size_t(pr.outer);
    call_.reduced = std::size_t(pr.reduced);
    call_.inner = std::size_t(pr.inner);
    const std::int64_t in = std::int64_t(call_.outer * call_.reduced * call_.inner);
    const std::int64_t out = std::int64_t(call_.outer * call_.inner);
    call_.x = random_operand(q, pr.dtype, {in}, 0.5, 1.5, 21);
    call_.y = random_operand(q, pr.out, {out}, 0, 0, 22);
  }
  Event run(const Params& p) override { return run_reduce(q_, call_, {}, &p); }
  void poison() override { poison_operand(q_, call_.y); }
  std::vector<double> output() override { return read_operand(q_, call_.y); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : pr_.dtype == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override {
    return double(call_.outer * call_.reduced * call_.inner) * double(dtype_size(pr_.dtype));
  }

 private:
  Queue q_;
  ReduceProblem pr_;
  ReduceCall call_;
};

}  // namespace

std::unique_ptr<TuningCase> reduce(const KernelFamily&, const Queue& q, const Problem& pr) {
  return std::make_unique<ReduceCase>(q, pr.as<ReduceProblem>());
}

}  // namespace optune::detail::cases
