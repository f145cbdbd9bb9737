// The direct candidate: gemm_direct.cl on the operands as they lie, any
// shape, layout and alignment, one launch. It also runs the calls with no
// product to compute (the epilogue alone).
#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"

namespace optune::detail {

namespace {

class DirectCandidate : public GemmCandidate {
 public:
  std::string name() const override { return "direct"; }
  int id() const override { return 1; }
  const KernelFamily& family() const override { return families::gemm_direct(); }
  std::string applies(const GemmProblem&, const Capabilities&) const override { return ""; }
  bool preferred(const GemmProblem&, const Params&) const override { return true; }
  std::optional<Params> fit(const Params& tuned, bool forced, const Capabilities& caps,
                            const GemmProblem& pr) const override {
    const GemmDirectFamily& fam = families::gemm_direct();
    const Params p = fam.fit(tuned, caps, pr);
    return forced ? p : fam.shrink(p, caps, pr);
  }
  Needs needs(const Params&, const Capabilities&, const GemmProblem&) const override { return {}; }
  void prepare(const Queue& q, const GemmProblem& pr, const Params& p) const override {
    families::gemm_direct().kernel(q, p, pr);
  }

  Event run(const GemmLaunch& l, const Params& p) const override {
    const GemmDirectFamily& fam = families::gemm_direct();
    KernelPtr k = fam.kernel(l.q, p, l.problem);
    return l.in_place(*k, fam.geometry(p, l.q.device().caps(), l.problem));
  }
};

}  // namespace

const GemmCandidate& direct_candidate() {
  static const DirectCandidate c;
  return c;
}

}  // namespace optune::detail
