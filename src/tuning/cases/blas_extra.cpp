// Tuning case of the blas_extra family: had (z = alpha x .* y + beta z) on
// random vectors with increment 1, through the operator's own launcher with
// forced parameters (the buckets are sizes; the routines share the grid).
#include "kernels/families.hpp"
#include "ops/blas_extra_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class BlasExtraCase : public TuningCase {
 public:
  BlasExtraCase(const Queue& q, const BlasExtraProblem& pr) : q_(q), pr_(pr) {
    const DType real = real_dtype(pr.dtype);
    const std::int64_t n = std::max<std::int64_t>(pr.elements, 1), parts = n * (is_complex(pr.dtype) ? 2 : 1);
    x_ = random_operand(q, real, {parts}, -1.0, 1.0, 31);
    y_ = random_operand(q, real, {parts}, -1.0, 1.0, 32);
    z_ = random_operand(q, real, {parts}, 0.0, 0.0, 33);
    call_.routine = BlasExtraRoutine::Had;
    call_.n = n;
    call_.alpha = 0.5;
    call_.beta = 0;  // z written, not read: poisoning shows unwritten elements
    call_.x = {x_.mem, pr.dtype, 0, std::size_t(n)};
    call_.y = {y_.mem, pr.dtype, 0, std::size_t(n)};
    call_.z = {z_.mem, pr.dtype, 0, std::size_t(n)};
  }
  Event run(const Params& p) override { return run_blas_extra(q_, call_, {}, &p); }
  void poison() override { poison_operand(q_, z_); }
  std::vector<double> output() override { return read_operand(q_, z_); }
  double tolerance() const override { return real_dtype(pr_.dtype) == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override { return 3 * double(pr_.elements) * double(dtype_size(pr_.dtype)); }

 private:
  Queue q_;
  BlasExtraProblem pr_;
  Operand x_, y_, z_;
  BlasExtraCall call_;
};

}  // namespace

std::unique_ptr<TuningCase> blas_extra(const Queue& q, const Problem& pr) {
  return std::make_unique<BlasExtraCase>(q, pr.as<BlasExtraProblem>());
}

}  // namespace optune::detail::cases
