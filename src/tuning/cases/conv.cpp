// Tuning case of the convolution families: the routine on random tensors of
// the problem's layouts with the family's parameters forced (conv_direct:
// the direct candidate; conv_depthwise: the depthwise candidate;
// conv_routine: the choice, with the other families' stored parameters),
// bias and activation-free so that runs are repeatable.
#include <cmath>

#include "kernels/families.hpp"
#include "ops/conv_ops.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

namespace {

class ConvCase : public TuningCase {
 public:
  ConvCase(const Queue& q, const ConvProblem& pr, std::string family) : q_(q), family_(std::move(family)) {
    call_.problem = pr;
    call_.problem.bias = call_.problem.residual = false;
    call_.problem.activation = Unary::Copy;
    call_.problem.align = 16;
    in_ = random_operand(q, pr.dtype, {pr.n * pr.c * pr.h * pr.w}, -1, 1, 41);
    wt_ = random_operand(q, pr.dtype, {pr.k * (pr.c / pr.groups) * pr.r * pr.s}, -1, 1, 42);
    out_ = random_operand(q, pr.dtype, {pr.outputs()}, 0, 0, 43);
    call_.in = {in_.mem, 0};
    call_.wt = {wt_.mem, 0};
    call_.out = {out_.mem, 0};
  }

  Event run(const Params& p) override {
    ConvForce f;
    f.params[family_] = p;
    for (const ConvCandidate* c : conv_candidates())
      if (c->family() && c->family()->name() == family_) f.candidate = c->name();
    return run_conv(q_, call_, {}, &f);
  }
  void poison() override { poison_operand(q_, out_); }
  std::vector<double> output() override { return read_operand(q_, out_); }
  // Sums of C/groups R S products in another order (f32), or a rounding of
  // the f16 or bf16 output.
  double tolerance() const override {
    const ConvProblem& pr = call_.problem;
    if (pr.dtype == DType::F16) return 1e-2;
    if (pr.dtype == DType::BF16) return 2e-2;
    return 2e-5 * std::max(1.0, std::sqrt(double(pr.c / pr.groups * pr.r * pr.s) / 256));
  }
  double work_flops() const override { return call_.problem.flops(); }
  double work_bytes() const override { return call_.problem.bytes(); }

 private:
  Queue q_;
  std::string family_;
  ConvCall call_;
  Operand in_, wt_, out_;
};

}  // namespace

std::unique_ptr<TuningCase> conv(const KernelFamily& family, const Queue& q, const Problem& pr) {
  return std::make_unique<ConvCase>(q, pr.as<ConvProblem>(), family.name());
}

}  // namespace optune::detail::cases
