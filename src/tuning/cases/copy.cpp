// Tuning case of the copy family: random words copied, compared bit for bit.
#include <random>

#include "kernels/families.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class CopyCase : public TuningCase {
 public:
  CopyCase(const Queue& q, const CopyProblem& pr) : q_(q), pr_(pr) {
    const std::size_t words = std::size_t(pr.n) * dtype_size(pr.dtype) / 4 + 1;
    std::vector<std::uint32_t> host(words);
    std::mt19937 rng(std::random_device{}());
    for (auto& v : host) v = rng();
    x_ = q.context().alloc<std::uint32_t>(words);
    y_ = q.context().alloc<std::uint32_t>(words);
    q.upload(x_, std::span<const std::uint32_t>(host));
  }
  Event run(const Params& p) override { return families::copy().launch(q_, p, pr_, *x_.mem(), *y_.mem()); }
  void poison() override { q_.fill(y_, 0xDEADBEEFu).wait(); }
  std::vector<double> output() override {
    const auto words = q_.download(y_);
    const std::size_t bytes = std::size_t(pr_.n) * dtype_size(pr_.dtype);
    std::vector<double> out(bytes / 2 + 1);
    const auto* b = reinterpret_cast<const std::uint8_t*>(words.data());
    for (std::size_t i = 0; i < bytes; ++i) out[i / 2] = out[i / 2] * 256 + b[i];
    return out;
  }
  double tolerance() const override { return 0; }
  double work_bytes() const override { return 2.0 * double(pr_.n) * double(dtype_size(pr_.dtype)); }

 private:
  Queue q_;
  CopyProblem pr_;
  Buffer<std::uint32_t> x_, y_;
};

}  // namespace

std::unique_ptr<TuningCase> copy(const Queue& q, const Problem& pr) {
  return std::make_unique<CopyCase>(q, pr.as<CopyProblem>());
}

}  // namespace optune::detail::cases
