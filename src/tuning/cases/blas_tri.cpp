// Tuning case of the blas_tri family: trmv ("mv" buckets) or trsv ("sv"),
// column-major, lower, no transposition, unit diagonal, on a random n x n
// matrix whose entries lie in [-1/n, 1/n] (so that the solve's growth stays
// below e), through the operator's own launcher with forced parameters.
// x is read and written: each run first restores it from a pristine copy
// (that copy is outside the timed event).
#include "kernels/families.hpp"
#include "ops/blas_tri_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class BlasTriCase : public TuningCase {
 public:
  BlasTriCase(const Queue& q, const BlasTriProblem& pr) : q_(q), pr_(pr) {
    const DType real = real_dtype(pr.dtype);
    const std::int64_t n = std::max<std::int64_t>(pr.n, 1), w = is_complex(pr.dtype) ? 2 : 1;
    const double bound = 1.0 / double(n);
    a_ = random_operand(q, real, {n * n * w}, -bound, bound, 21);
    x0_ = random_operand(q, real, {n * w}, -1.0, 1.0, 22);
    x_ = random_operand(q, real, {n * w}, 0.0, 0.0, 23);
    call_.solve = pr.solve;
    call_.layout = Layout::ColMajor;
    call_.uplo = Triangle::Lower;
    call_.diag = Diagonal::Unit;
    call_.n = n;
    call_.lda = n;
    call_.a = {a_.mem, pr.dtype, 0, std::size_t(n * n)};
    call_.x = {x_.mem, pr.dtype, 0, std::size_t(n)};
  }
  Event run(const Params& p) override {
    const std::size_t bytes = x_.count * dtype_size(x_.dtype);
    const Event restored = q_.copy(Buffer<std::uint8_t>(x0_.mem, 0, bytes), Buffer<std::uint8_t>(x_.mem, 0, bytes));
    return run_blas_tri(q_, call_, {restored}, &p);
  }
  // x is the input too (restored by run()): nothing to poison beforehand;
  // the kernels write every element of it.
  void poison() override {}
  std::vector<double> output() override { return read_operand(q_, x_); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : real_dtype(pr_.dtype) == DType::F64 ? 1e-9 : 1e-3; }
  double work_bytes() const override {
    // The triangle once, x read and written.
    const double es = double(dtype_size(pr_.dtype)), n = double(pr_.n);
    return (n * (n - 1) / 2 + 2 * n) * es;
  }
  double work_flops() const override {
    const double n = double(pr_.n);
    return (is_complex(pr_.dtype) ? 4.0 : 1.0) * n * (n - 1);
  }

 private:
  Queue q_;
  BlasTriProblem pr_;
  Operand a_, x0_, x_;
  BlasTriCall call_;
};

}  // namespace

std::unique_ptr<TuningCase> blas_tri(const Queue& q, const Problem& pr) {
  return std::make_unique<BlasTriCase>(q, pr.as<BlasTriProblem>());
}

}  // namespace optune::detail::cases
