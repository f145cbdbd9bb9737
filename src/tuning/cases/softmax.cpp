// Tuning case of softmax_cols: softmax along the middle axis through the
// operator's launch, parameters forced.
#include "ops/reduce_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class SoftmaxColsCase : public TuningCase {
 public:
  SoftmaxColsCase(const Queue& q, const SoftmaxColsProblem& pr) : q_(q), pr_(pr) {
    const std::vector<std::int64_t> shape{pr.outer * pr.rows * pr.inner};
    x_ = random_operand(q, pr.dtype, shape, -4, 4, 11);
    y_ = random_operand(q, pr.dtype, shape, 0, 0, 12);
  }
  Event run(const Params& p) override {
    SoftmaxColsCall c;
    c.log = pr_.log;
    c.outer = std::size_t(pr_.outer);
    c.rows = std::size_t(pr_.rows);
    c.inner = std::size_t(pr_.inner);
    c.x = x_;
    c.y = y_;
    return run_softmax_cols(q_, c, {}, &p);
  }
  void poison() override { poison_operand(q_, y_); }
  std::vector<double> output() override { return read_operand(q_, y_); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : pr_.dtype == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override {
    return 3.0 * double(pr_.outer * pr_.rows * pr_.inner) * double(dtype_size(pr_.dtype));
  }

 private:
  Queue q_;
  SoftmaxColsProblem pr_;
  Operand x_, y_;
};

}  // namespace

std::unique_ptr<TuningCase> softmax_cols(const Queue& q, const Problem& pr) {
  return std::make_unique<SoftmaxColsCase>(q, pr.as<SoftmaxColsProblem>());
}

}  // namespace optune::detail::cases
