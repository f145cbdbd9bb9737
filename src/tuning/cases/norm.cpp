// Tuning case of norm_rows: the problem's operator (gamma and beta where it
// takes them) through the operator's launch, parameters forced.
#include "ops/reduce_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class NormCase : public TuningCase {
 public:
  NormCase(const Queue& q, const NormProblem& pr) : q_(q), pr_(pr) {
    const std::size_t rows = std::size_t(pr.rows), cols = std::size_t(pr.cols);
    x_ = random_operand(q, pr.dtype, {std::int64_t(rows), std::int64_t(cols)}, -4, 4, 1);
    y_ = random_operand(q, pr.dtype, {std::int64_t(rows), std::int64_t(cols)}, 0, 0, 2);
    if (pr.gamma) gamma_ = random_operand(q, pr.dtype, {std::int64_t(cols)}, 0.5, 1.5, 3);
    if (pr.beta) beta_ = random_operand(q, pr.dtype, {std::int64_t(cols)}, -1, 1, 4);
  }
  Event run(const Params& p) override {
    NormCall c;
    c.op = pr_.op;
    c.rows = std::size_t(pr_.rows);
    c.cols = std::size_t(pr_.cols);
    c.x = x_;
    c.y = y_;
    c.gamma = gamma_;
    c.beta = beta_;
    c.eps = 1e-5;
    return run_norm_rows(q_, c, {}, &p);
  }
  void poison() override { poison_operand(q_, y_); }
  std::vector<double> output() override { return read_operand(q_, y_); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : pr_.dtype == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override {
    return 2.0 * double(pr_.rows * pr_.cols) * double(dtype_size(pr_.dtype));
  }

 private:
  Queue q_;
  NormProblem pr_;
  Operand x_, y_;
  std::optional<Operand> gamma_, beta_;
};

}  // namespace

std::unique_ptr<TuningCase> norm_rows(const Queue& q, const Problem& pr) {
  return std::make_unique<NormCase>(q, pr.as<NormProblem>());
}

}  // namespace optune::detail::cases
