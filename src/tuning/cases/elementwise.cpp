// Tuning case of the elementwise family: the family's tuning problem (gelu
// over random data) through the operator's own launch, parameters forced.
#include <cstring>
#include <random>

#include "ops/elementwise_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class ElementwiseCase : public TuningCase {
 public:
  ElementwiseCase(const Queue& q, const ElementwiseProblem& pr) : q_(q), pr_(pr) {
    const std::size_t n = std::size_t(pr.n), es = dtype_size(pr.dtype);
    std::vector<std::uint8_t> host(n * es);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    for (std::size_t i = 0; i < n; ++i) {
      const float f = d(rng);
      if (pr.dtype == DType::F32) std::memcpy(&host[i * 4], &f, 4);
      if (pr.dtype == DType::F16) { const half h(f); std::memcpy(&host[i * 2], &h.bits, 2); }
      if (pr.dtype == DType::F64) { const double v = f; std::memcpy(&host[i * 8], &v, 8); }
    }
    x_ = q.context().alloc<std::uint8_t>(n * es);
    y_ = q.context().alloc<std::uint8_t>(n * es);
    q.upload(x_, std::span<const std::uint8_t>(host));
  }
  Event run(const Params& p) override {
    const Operand x = view(x_), y = view(y_);
    const ElementwiseCall call{"gelu", pr_.body, {&x}, {&y}, {}, pr_.compute};
    return run_elementwise(q_, call, {}, &p);
  }
  void poison() override { q_.fill(y_, std::uint8_t(0xff)).wait(); }
  std::vector<double> output() override {
    const auto bytes = q_.download(y_);
    const std::size_t n = std::size_t(pr_.n);
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (pr_.dtype == DType::F32) { float f; std::memcpy(&f, &bytes[i * 4], 4); out[i] = f; }
      if (pr_.dtype == DType::F16) { std::uint16_t h; std::memcpy(&h, &bytes[i * 2], 2); out[i] = half::to_float(h); }
      if (pr_.dtype == DType::F64) std::memcpy(&out[i], &bytes[i * 8], 8);
    }
    return out;
  }
  // The same function under another shape of code: compilers may fuse
  // multiply-adds differently, a last-bit difference (one f16 rounding step).
  double tolerance() const override {
    return pr_.dtype == DType::F16 ? 1e-3 : pr_.dtype == DType::F64 ? 1e-14 : 1e-6;
  }
  double work_bytes() const override { return 2.0 * double(pr_.n) * double(dtype_size(pr_.dtype)); }

 private:
  Operand view(const Buffer<std::uint8_t>& b) const {
    Operand o;
    o.mem = b.mem();
    o.dtype = pr_.dtype;
    o.count = std::size_t(pr_.n);
    o.shape = {std::int64_t(o.count)};
    return o;
  }
  Queue q_;
  ElementwiseProblem pr_;
  Buffer<std::uint8_t> x_, y_;
};

}  // namespace

std::unique_ptr<TuningCase> elementwise(const Queue& q, const Problem& pr) {
  return std::make_unique<ElementwiseCase>(q, pr.as<ElementwiseProblem>());
}

}  // namespace optune::detail::cases
