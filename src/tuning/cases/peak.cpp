// Tuning cases of the peak families: the FMA chains, checked for finite
// results; the tensor-core products, checked for their exact output.
#include <cmath>
#include <cstring>

#include "kernels/families.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class PeakCase : public TuningCase {
 public:
  PeakCase(const Queue& q, const PeakProblem& pr) : q_(q), pr_(pr) {
    out_ = q.context().alloc<std::uint8_t>(round_up(std::size_t(pr.items), 1024) * dtype_size(pr.dtype));
  }
  Event run(const Params& p) override {
    last_ = p;
    return families::peak().launch(q_, p, pr_, *out_.mem());
  }
  void poison() override { q_.fill(out_, std::uint8_t(0xff)).wait(); }
  std::vector<double> output() override {
    // Results depend on VW (lanes are summed), so only finiteness is checked:
    // report a single 1 when every float is finite and 0 otherwise.
    if (pr_.dtype != DType::F32) return {1.0};
    auto bytes = q_.download(out_);
    const std::size_t n = std::size_t(pr_.items);
    for (std::size_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, bytes.data() + 4 * i, 4);
      if (!std::isfinite(f)) return {0.0};
    }
    return {1.0};
  }
  double tolerance() const override { return 0; }
  double work_flops() const override { return PeakFamily::flops(last_, pr_); }

 private:
  Queue q_;
  PeakProblem pr_;
  Params last_;
  Buffer<std::uint8_t> out_;
};

class PeakMmaCase : public TuningCase {
 public:
  PeakMmaCase(const Queue& q, const PeakMmaProblem& pr) : q_(q), pr_(pr) {
    out_ = q.context().alloc<float>(round_up(std::size_t(pr.items), 1024));
  }
  Event run(const Params& p) override {
    last_ = p;
    return families::peak_mma().launch(q_, p, pr_, *out_.mem());
  }
  void poison() override { q_.fill(out_, -1.0f).wait(); }
  // 1 when every work-item wrote the exact sum its products give, else 0.
  std::vector<double> output() override {
    const std::vector<float> got = q_.download(out_);
    const double want = PeakMmaFamily::expected_output(pr_);
    for (std::size_t i = 0; i < std::size_t(pr_.items); ++i)
      if (double(got[i]) != want) return {0.0};
    return {1.0};
  }
  double tolerance() const override { return 0; }
  double work_flops() const override { return PeakMmaFamily::flops(last_, pr_); }

 private:
  Queue q_;
  PeakMmaProblem pr_;
  Params last_;
  Buffer<float> out_;
};

}  // namespace

std::unique_ptr<TuningCase> peak(const Queue& q, const Problem& pr) {
  return std::make_unique<PeakCase>(q, pr.as<PeakProblem>());
}

std::unique_ptr<TuningCase> peak_mma(const Queue& q, const Problem& pr) {
  return std::make_unique<PeakMmaCase>(q, pr.as<PeakMmaProblem>());
}

}  // namespace optune::detail::cases
