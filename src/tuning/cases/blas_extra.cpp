// Tuning case of the blas_extra family: had (z = alpha x .* y + beta z) on
// random vectors with increment 1 for the size buckets (had, omatcopy and
// axpy_batched share the grid), and im2col / col2im for theirs (3 x 3
// patches of 32 x 32 images, pad 1, as many channels as the bucket's
// elements ask: make_example's shape), through the operator's own launcher
// with forced parameters.
#include "kernels/families.hpp"
#include "ops/blas_extra_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

// im2col writes col (poisoned); col2im adds col into im, so "poisoning" im
// restores its first random values: an element a run skipped keeps them.
class PatchesCase : public TuningCase {
 public:
  PatchesCase(const Queue& q, const BlasExtraProblem& pr) : q_(q), pr_(pr) {
    const DType real = real_dtype(pr.dtype);
    const std::int64_t parts = is_complex(pr.dtype) ? 2 : 1, side = kPatchSide;
    const std::int64_t channels = blas_extra_patch_channels(pr.elements);
    const std::int64_t im = channels * side * side, col = channels * kPatchPlane;
    im_ = random_operand(q, real, {im * parts}, -1.0, 1.0, 34);
    col_ = random_operand(q, real, {col * parts}, -1.0, 1.0, 35);
    if (pr.routine == BlasExtraRoutine::Col2im) im0_ = random_operand(q, real, {im * parts}, -1.0, 1.0, 36);
    call_.routine = pr.routine;
    call_.channels = channels;
    call_.height = call_.width = side;
    call_.kernel_h = call_.kernel_w = 3;
    call_.pad_h = call_.pad_w = 1;
    call_.x = {im_.mem, pr.dtype, 0, std::size_t(im)};
    call_.y = {col_.mem, pr.dtype, 0, std::size_t(col)};
  }
  Event run(const Params& p) override { return run_blas_extra(q_, call_, {}, &p); }
  void poison() override {
    if (pr_.routine == BlasExtraRoutine::Im2col) return poison_operand(q_, col_);
    const std::size_t bytes = im_.count * dtype_size(im_.dtype);
    q_.copy(Buffer<std::uint8_t>(im0_.mem, 0, bytes), Buffer<std::uint8_t>(im_.mem, 0, bytes)).wait();
  }
  std::vector<double> output() override {
    return read_operand(q_, pr_.routine == BlasExtraRoutine::Im2col ? col_ : im_);
  }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : real_dtype(pr_.dtype) == DType::F64 ? 1e-12 : 1e-5; }
  // The patch matrix read or written, the image read (and written by col2im).
  double work_bytes() const override {
    const double es = double(dtype_size(pr_.dtype)), im = double(call_.x.count), col = double(call_.y.count);
    return es * (col + im * (pr_.routine == BlasExtraRoutine::Col2im ? 2 : 1));
  }

 private:
  Queue q_;
  BlasExtraProblem pr_;
  Operand im_, col_, im0_;
  BlasExtraCall call_;
};

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
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : real_dtype(pr_.dtype) == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override { return 3 * double(pr_.elements) * double(dtype_size(pr_.dtype)); }

 private:
  Queue q_;
  BlasExtraProblem pr_;
  Operand x_, y_, z_;
  BlasExtraCall call_;
};

}  // namespace

std::unique_ptr<TuningCase> blas_extra(const Queue& q, const Problem& pr) {
  const BlasExtraProblem& p = pr.as<BlasExtraProblem>();
  if (p.routine == BlasExtraRoutine::Im2col || p.routine == BlasExtraRoutine::Col2im)
    return std::make_unique<PatchesCase>(q, p);
  return std::make_unique<BlasExtraCase>(q, p);
}

}  // namespace optune::detail::cases
