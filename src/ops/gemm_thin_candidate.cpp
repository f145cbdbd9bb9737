// The thin candidate: gemm_thin.cl for products whose M or N is at most 16 (32 where B is read along N)
// (decode-time inference, GEMV), reading the wide operand once. A call whose
// N is the thinner dimension runs as C^T = B^T A^T over the same memory
// (GemmCall::swapped). Where the grid would not fill the device, K is split
// over groups: the partial sums go to scratch, and each tile's last group to
// finish (FUSE 1: arrival tickets in the zero-kept scratch slot) or a second
// kernel, gemm_thin_reduce (FUSE 0), adds them in split order and applies the
// epilogue (deterministic: the order does not depend on the groups').
#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

KernelArg ulong_arg(std::uint64_t v) { return KernelArg::scalar(v); }

// The call as the kernel sees it (GemmThinFamily::view): A thin. The list
// offsets and per-product scalars stay in the uploaded table.
GemmCall kernel_call(const GemmCall& c, bool swap) {
  GemmCall t;
  t.dtype = c.dtype, t.comp_half = c.comp_half;
  t.m = swap ? c.n : c.m, t.n = swap ? c.m : c.n, t.k = c.k, t.batch = c.batch;
  t.trans_a = swap ? !c.trans_b : c.trans_a;
  t.trans_b = swap ? !c.trans_a : c.trans_b;
  t.a = swap ? c.b : c.a, t.b = swap ? c.a : c.b, t.c = c.c;
  t.alpha = c.alpha, t.beta = c.beta, t.list = c.list;
  t.bias_mode = swap && c.bias_mode ? 3 - c.bias_mode : c.bias_mode;
  t.bias = c.bias, t.bias_offset = c.bias_offset;
  t.activation = c.activation, t.activation_params = c.activation_params;
  t.swapped = swap;
  return t;
}

class ThinCandidate : public GemmCandidate {
 public:
  std::string name() const override { return "thin"; }
  int id() const override { return 4; }
  const KernelFamily& family() const override { return families::gemm_thin(); }
  std::string applies(const GemmProblem& pr, const Capabilities&) const override {
    if (!GemmThinFamily::fits_thin(pr))
      return "applies to products whose M or N is at most 16, or at most 32 where B is read along N";
    return "";
  }
  bool preferred(const GemmProblem& pr, const Params& routine) const override {
    return GemmRoutineFamily::use_thin(routine, pr);
  }
  std::optional<Params> fit(const Params& tuned, bool, const Capabilities& caps,
                            const GemmProblem& pr) const override {
    return families::gemm_thin().fit_or_none(tuned, caps, pr);
  }
  Needs needs(const Params& p, const Capabilities& caps, const GemmProblem& pr) const override {
    Needs n;
    n.scratch[0] = families::gemm_thin().scratch_bytes(p, caps, pr);
    if (n.scratch[0] && !families::gemm_thin().ticket_bytes(p, caps, pr))
      n.passes.push_back("gemm_thin_reduce (split K)");
    return n;
  }
  void prepare(const Queue& q, const GemmProblem& pr, const Params& p) const override {
    // One program holds both entry points.
    families::gemm_thin().kernel(q, p, pr);
  }

  Event run(const GemmLaunch& l, const Params& p) const override { return run_thin(l, p); }
};

}  // namespace

Event run_thin(const GemmLaunch& l, const Params& p) {
  const GemmThinFamily& fam = families::gemm_thin();
  const Capabilities& caps = l.q.device().caps();
  const ThinSplit sp = fam.split(p, caps, l.problem);
  const GemmCall kc = kernel_call(l.call, GemmThinFamily::view(l.problem).swapped);
  const GemmLaunch kl{l.q, kc, l.problem, l.table, l.wait, l.span};
  const std::size_t tickets = fam.ticket_bytes(p, caps, l.problem);
  std::array<std::size_t, kScratchSlots> bytes{fam.scratch_bytes(p, caps, l.problem)};
  bytes[kTicketSlot] = tickets;
  ScratchLease s = lease_scratch(l.q, bytes);
  const MemImpl& part = sp.splits > 1 ? *s.slot[0] : *kc.c.mem;
  KernelPtr k = fam.kernel(l.q, p, l.problem);
  // The second pass's kernel is found before the first launches, so that no
  // lookup sits between the two on the device.
  KernelPtr r = sp.splits > 1 && !tickets ? compile_kernel(l.q, fam.reduce_program(p, l.problem)) : nullptr;

  const bool lists[3] = {kc.list, kc.list, kc.list};
  const std::vector<KernelArg> operands = kl.operand_args(kc.a, kc.b, kc.c, lists);
  std::vector<KernelArg> args{ulong_arg(std::uint64_t(kc.m)), ulong_arg(std::uint64_t(kc.n)),
                              ulong_arg(std::uint64_t(kc.k)), kl.real(kc.alpha), kl.real(kc.beta)};
  args.insert(args.end(), operands.begin(), operands.end());
  std::vector<KernelArg> tail = kl.activation_args();
  tail.insert(tail.end(), {KernelArg::buffer(part), ulong_arg(std::uint64_t(sp.splits)),
                           ulong_arg(std::uint64_t(sp.kspan)), KernelArg::buffer(tickets ? *s.slot[kTicketSlot] : part)});
  Event e = kl.batched(*k, args, tail, fam.geometry(p, caps, l.problem), l.wait);
  if (!r) return e;

  // Second pass: C, bias, table, batch and flags as the first took them.
  std::vector<KernelArg> rargs{ulong_arg(std::uint64_t(kc.m)), ulong_arg(std::uint64_t(kc.n)), kl.real(kc.alpha),
                               kl.real(kc.beta), KernelArg::buffer(part), ulong_arg(std::uint64_t(sp.splits))};
  rargs.insert(rargs.end(), operands.begin() + 8, operands.end());
  return kl.batched(*r, rargs, kl.activation_args(), fam.reduce_geometry(caps, l.problem), {});
}

const GemmCandidate& thin_candidate() {
  static const ThinCandidate c;
  return c;
}

}  // namespace optune::detail
