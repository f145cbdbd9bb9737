// The tiled candidate: gemm_tiled.cl on operands in its layout. The family's
// plan says which operands it reads in place; the others go through the
// helper passes of gemm_helpers.cl first (pad, pad-transpose into scratch),
// and a C that does not fit receives the raw product in scratch, which
// gemm_copy_back then brings through the epilogue. Split K (SPLITK, resolved
// by the family's fit where it is 0) runs each product as `splits` ranges of
// K in one launch, each writing its raw partial product to scratch, and
// gemm_copy_back sums them in order through the epilogue.
#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

KernelArg ulong_arg(std::uint64_t v) { return KernelArg::scalar(v); }

// Operand `which` (0 A, 1 B) goes into the kernel's layout (K x M, K x N):
// transposed on the way when it is stored the other way round.
bool pad_transposes(int which, const GemmProblem& pr) { return which == 0 ? !pr.trans_a : pr.trans_b; }
const char* pad_entry(int which, const GemmProblem& pr) {
  return pad_transposes(which, pr) ? "gemm_pad_transpose" : "gemm_pad";
}

class TiledCandidate : public GemmCandidate {
 public:
  std::string name() const override { return "tiled"; }
  int id() const override { return 2; }
  const KernelFamily& family() const override { return families::gemm_tiled(); }
  std::string applies(const GemmProblem&, const Capabilities&) const override { return ""; }
  bool preferred(const GemmProblem& pr, const Params& routine) const override {
    return GemmRoutineFamily::use_tiled(routine, pr);
  }
  std::optional<Params> fit(const Params& tuned, bool, const Capabilities& caps,
                            const GemmProblem& pr) const override {
    return families::gemm_tiled().fit_or_none(tuned, caps, pr);
  }
  Needs needs(const Params& p, const Capabilities&, const GemmProblem& pr) const override {
    const TiledPlan t = families::gemm_tiled().plan(p, pr);
    Needs n;
    for (int i = 0; i < 3; ++i) n.scratch[i] = t.scratch[i];
    if (!t.a_fits) n.passes.push_back(std::string(pad_entry(0, pr)) + " (A)");
    if (!t.b_fits) n.passes.push_back(std::string(pad_entry(1, pr)) + " (B)");
    if (t.splits > 1)
      n.passes.push_back(gemm_kernels::split_pass({t.splits, t.kspan}));
    else if (!t.c_fits)
      n.passes.push_back("gemm_copy_back (C)");
    return n;
  }

  void prepare(const Queue& q, const GemmProblem& pr, const Params& p) const override {
    const TiledPlan t = families::gemm_tiled().plan(p, pr);
    const std::size_t tile = gemm_helper_tile(q.device().caps());
    if (!t.a_fits) compile_kernel(q, gemm_kernels::helper_program(pr, pad_entry(0, pr), tile));
    if (!t.b_fits) compile_kernel(q, gemm_kernels::helper_program(pr, pad_entry(1, pr), tile));
    if (!t.c_fits) compile_kernel(q, gemm_kernels::helper_program(pr, "gemm_copy_back", tile));
    families::gemm_tiled().kernel(q, p, pr);
  }

  Event run(const GemmLaunch& l, const Params& p) const override {
    const GemmTiledFamily& fam = families::gemm_tiled();
    const GemmCall& c = l.call;
    const TiledPlan t = fam.plan(p, l.problem);
    ScratchLease s = lease_scratch(l.q, {t.scratch[0], t.scratch[1], t.scratch[2]});
    WaitList pending = l.wait;
    GemmOperand a = c.a, b = c.b, out = c.c;
    if (!t.a_fits) {
      l.pack(c.a, 0, pad_transposes(0, l.problem), c.k, c.m, t.kp, t.mp, *s.slot[0], pending);
      pending.clear();
      a = GemmOperand{s.slot[0], 0, t.mp, t.kp * t.mp};
    }
    if (!t.b_fits) {
      l.pack(c.b, 1, pad_transposes(1, l.problem), c.k, c.n, t.kp, t.np, *s.slot[1], pending);
      pending.clear();
      b = GemmOperand{s.slot[1], 0, t.np, t.kp * t.np};
    }
    if (!t.c_fits) out = GemmOperand{s.slot[2], 0, t.np, t.mp * t.np};

    KernelPtr k = fam.kernel(l.q, p, l.problem);
    std::vector<KernelArg> args{ulong_arg(std::uint64_t(t.kp)), l.real(c.alpha), l.real(c.beta)};
    const bool lists[3] = {c.list && t.a_fits, c.list && t.b_fits, c.list && t.c_fits};
    const std::vector<KernelArg> operands = l.operand_args(a, b, out, lists);
    args.insert(args.end(), operands.begin(), operands.end());
    std::vector<KernelArg> tail = l.activation_args();
    tail.insert(tail.end(), {ulong_arg(std::uint64_t(t.splits)), ulong_arg(std::uint64_t(t.kspan))});
    Event e = l.batched(*k, args, tail, fam.geometry(p, l.q.device().caps(), l.problem), pending, t.splits);
    return t.c_fits ? e : l.copy_back(out, t.mp, t.np, t.splits);
  }
};

}  // namespace

const GemmCandidate& tiled_candidate() {
  static const TiledCandidate c;
  return c;
}

}  // namespace optune::detail
