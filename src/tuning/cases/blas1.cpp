// Tuning case of the blas1 family: axpy for the element-wise buckets, dot
// (dotc for complex) for the reductions, on random vectors with increment 1,
// through the operator's own launcher with forced parameters.
#include <algorithm>
#include <cmath>

#include "kernels/families.hpp"
#include "ops/blas1_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class Blas1Case : public TuningCase {
 public:
  Blas1Case(const Queue& q, const Blas1Problem& pr) : q_(q), pr_(pr) {
    const DType real = real_dtype(pr.dtype);
    const std::int64_t parts = std::max<std::int64_t>(pr.n, 1) * (is_complex(pr.dtype) ? 2 : 1);
    // Values in [0, 1]: the reductions' results do not cancel, so the grids'
    // roundings compare within a relative tolerance (f16: in [0, 16 / sqrt(n)],
    // so that dot stays far below f16's 65504).
    const double hi = pr.dtype == DType::F16 ? std::min(1.0, 16.0 / std::sqrt(double(parts))) : 1.0;
    x_ = as_vector(random_operand(q, real, {parts}, 0.0, hi, 11));
    y_ = as_vector(random_operand(q, real, {parts}, 0.0, hi, 12));
    call_.routine = pr.routine;
    call_.n = pr.n;
    call_.x = x_;
    call_.y = y_;
    call_.alpha = 0.5;
    if (blas1_is_reduction(pr.routine)) {
      Operand r = random_operand(q, pr.dtype, {1}, 0.0, 0.0, 13);
      call_.result = {r.mem, r.dtype, 0, 1};
      out_ = r;
    } else {
      out_.mem = y_.mem;
      out_.dtype = real;
      out_.count = std::size_t(parts);
      out_.shape = {parts};
    }
  }
  Event run(const Params& p) override { return run_blas1(q_, call_, {}, &p); }
  void poison() override { poison_operand(q_, out_); }
  std::vector<double> output() override { return read_operand(q_, out_); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : real_dtype(pr_.dtype) == DType::F64 ? 1e-10 : 1e-4; }
  double work_bytes() const override {
    const double es = double(dtype_size(pr_.dtype)), n = double(pr_.n);
    return blas1_is_reduction(pr_.routine) ? 2 * n * es : 3 * n * es;  // dot reads x, y; axpy also writes y
  }

 private:
  BlasVector as_vector(const Operand& o) const {
    return {o.mem, pr_.dtype, 0, o.count / (is_complex(pr_.dtype) ? 2 : 1)};
  }
  Queue q_;
  Blas1Problem pr_;
  BlasVector x_, y_;
  Blas1Call call_;
  Operand out_;
};

}  // namespace

std::unique_ptr<TuningCase> blas1(const Queue& q, const Problem& pr) {
  return std::make_unique<Blas1Case>(q, pr.as<Blas1Problem>());
}

}  // namespace optune::detail::cases
