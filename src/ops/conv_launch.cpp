// The conv2d routine: its candidates (direct, depthwise, pointwise as GEMM)
// and the choice among them by the database or the tuner's forced choice.
#include "kernels/families.hpp"
#include "ops/conv_ops.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/params.hpp"

namespace optune::detail {

namespace {

KernelArg int_arg(std::int64_t v) { return KernelArg::scalar(std::int32_t(v)); }
KernelArg ulong_arg(std::size_t v) { return KernelArg::scalar(std::uint64_t(v)); }

// Bias and residual stand in for themselves or, when absent, for the output
// (never read: the flags say so).
const ConvTensor& or_out(const ConvCall& c, const ConvTensor& t, bool present) { return present ? t : c.out; }

// The tensor block every conv kernel takes after its sizes: input, weight,
// bias, residual, output (buffer and offset each), flags, act_p0, act_p1.
std::vector<KernelArg> tensor_args(const ConvCall& c) {
  const ConvProblem& pr = c.problem;
  std::vector<KernelArg> args;
  for (const ConvTensor* t : {&c.in, &c.wt, &or_out(c, c.bias, pr.bias), &or_out(c, c.res, pr.residual), &c.out}) {
    args.push_back(KernelArg::buffer(*t->mem));
    args.push_back(ulong_arg(t->offset));
  }
  const auto param = [&](std::size_t i) { return i < c.activation_params.size() ? c.activation_params[i] : 0.0; };
  args.push_back(KernelArg::scalar(std::uint32_t((pr.bias ? kConvBias : 0u) | (pr.residual ? kConvResidual : 0u))));
  args.push_back(KernelArg::scalar(float(param(0))));
  args.push_back(KernelArg::scalar(float(param(1))));
  return args;
}

// Compiles the family's program and launches it over the sizes (as int
// arguments) and the tensor block.
template <class Family>
void launch_family(const Family& fam, const Queue& q, const ConvCall& c, const Params& p,
                   std::initializer_list<std::int64_t> sizes, const WaitList& wait, EventSpan& span) {
  std::vector<KernelArg> args;
  for (std::int64_t v : sizes) args.push_back(int_arg(v));
  const std::vector<KernelArg> tensors = tensor_args(c);
  args.insert(args.end(), tensors.begin(), tensors.end());
  KernelPtr k = fam.kernel(q, p, c.problem);
  span.add(launch_kernel(q, *k, args, fam.geometry(p, q.device().caps(), c.problem), wait, &p));
}

class DirectCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "direct"; }
  int id() const override { return 1; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_direct(); }
  std::string applies(const ConvProblem&, const Capabilities&) const override { return ""; }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    launch_family(families::conv_direct(), q, c, p,
                  {pr.n, pr.c, pr.h, pr.w, pr.k, pr.oh, pr.ow, pr.r, pr.s, pr.stride_h, pr.stride_w, pr.dil_h, pr.dil_w,
                   pr.pad_t, pr.pad_l, pr.groups},
                  wait, span);
  }
};

class DepthwiseCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "depthwise"; }
  int id() const override { return 2; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_depthwise(); }
  std::string applies(const ConvProblem& pr, const Capabilities&) const override {
    if (!pr.depthwise()) return "not depthwise (groups == C == K)";
    if (pr.in_nhwc != pr.out_nhwc) return "input and output in different layouts";
    return "";
  }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    launch_family(families::conv_depthwise(), q, c, p,
                  {pr.n, pr.c, pr.h, pr.w, pr.oh, pr.ow, pr.stride_h, pr.stride_w, pr.dil_h, pr.dil_w, pr.pad_t,
                   pr.pad_l},
                  wait, span);
  }
};

// 1x1, stride 1, unpadded, one group, input and output in one layout: a
// GEMM over the tensors where they lie, with GEMM's fused epilogue (the
// residual as C with beta = 1, copied into the output first unless it is
// the output).
//   NHWC: out[NHW x K] = in[NHW x C] * wt[K x C]^T, bias per column.
//   NCHW: out[n][K x HW] = wt[K x C] * in[n][C x HW], N products sharing
//         the weight, bias per row.
class PointwiseCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "pointwise"; }
  int id() const override { return 3; }
  const FamilyOf<ConvProblem>* family() const override { return nullptr; }
  std::string applies(const ConvProblem& pr, const Capabilities&) const override {
    if (!pr.pointwise()) return "not a 1x1, stride 1, unpadded convolution";
    if (pr.groups != 1) return "grouped";
    if (pr.in_nhwc != pr.out_nhwc) return "input and output in different layouts";
    return "";
  }
  void run(const Queue& q, const ConvCall& c, const Params&, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    const std::int64_t hw = pr.h * pr.w;
    WaitList pending = wait;
    if (pr.residual && (c.res.mem != c.out.mem || c.res.offset != c.out.offset)) {
      const std::int64_t elements = pr.n * pr.k * hw;
      Operand from, to;
      from.mem = c.res.mem, from.offset = c.res.offset;
      to.mem = c.out.mem, to.offset = c.out.offset;
      for (Operand* o : {&from, &to}) o->count = std::size_t(elements), o->dtype = pr.dtype, o->shape = {elements};
      const Event copied = unary(q, Unary::Copy, from, to, {}, wait);
      span.add(copied);
      pending = {copied};
    }
    GemmCall g;
    g.dtype = g.c_dtype = pr.dtype;
    g.comp_half = false;  // conv sums in f32 for f16 and bf16
    g.alpha = 1;
    g.beta = pr.residual ? 1 : 0;
    if (pr.in_nhwc) {
      g.m = pr.n * hw, g.n = pr.k, g.k = pr.c;
      g.trans_b = true;
      g.a = GemmOperand{c.in.mem, c.in.offset, pr.c, 0};
      g.b = GemmOperand{c.wt.mem, c.wt.offset, pr.c, 0};
      g.c = GemmOperand{c.out.mem, c.out.offset, pr.k, 0};
      g.bias_mode = pr.bias ? 2 : 0;
    } else {
      g.m = pr.k, g.n = hw, g.k = pr.c, g.batch = pr.n;
      g.a = GemmOperand{c.wt.mem, c.wt.offset, pr.c, 0};
      g.b = GemmOperand{c.in.mem, c.in.offset, hw, pr.c * hw};
      g.c = GemmOperand{c.out.mem, c.out.offset, hw, pr.k * hw};
      g.bias_mode = pr.bias ? 1 : 0;
    }
    if (pr.bias) g.bias = c.bias.mem, g.bias_offset = c.bias.offset;
    g.activation = pr.activation;
    g.activation_params = c.activation_params;
    span.add(run_gemm(q, g, pending));
  }
};

const DirectCandidate direct_conv;
const DepthwiseCandidate depthwise_conv;
const PointwiseCandidate pointwise_conv;

}  // namespace

const std::vector<const ConvCandidate*>& conv_candidates() {
  static const std::vector<const ConvCandidate*> order{&pointwise_conv, &depthwise_conv, &direct_conv};
  return order;
}

const ConvCandidate& conv_candidate(const std::string& name) {
  std::string names;
  for (const ConvCandidate* c : conv_candidates()) {
    if (c->name() == name) return *c;
    names += (names.empty() ? "" : ", ") + c->name();
  }
  throw Error(Status::NotFound, "conv2d: no candidate kernel '" + name + "' (candidates: " + names + ")");
}

ConvChoice choose_conv(const Queue& q, const ConvProblem& pr, const ConvForce* force) {
  const Capabilities& caps = q.device().caps();
  const auto fitted = [&](const ConvCandidate& cand) -> Params {
    const FamilyOf<ConvProblem>* fam = cand.family();
    if (!fam) return {};
    const Params* forced = force ? force->find(fam->name()) : nullptr;
    const Params p = forced ? fam->complete(*forced, caps) : fam->fit(params_for(q, *fam, pr), caps, pr);
    // Forced values run as given where the device allows them (derived
    // values, VEC, still come from fit).
    const Params run = forced ? fam->fit(p, caps, pr) : p;
    if (std::string why = fam->check(run, caps, Problem(pr)); !why.empty())
      throw Error(Status::Unsupported, "conv2d: the " + cand.name() + " parameters cannot run here: " + why);
    return run;
  };
  if (force && !force->candidate.empty()) {
    const ConvCandidate& cand = conv_candidate(force->candidate);
    if (std::string why = cand.applies(pr, caps); !why.empty())
      throw Error(Status::Unsupported, "conv2d: the forced " + cand.name() + " kernel does not apply: " + why);
    return {&cand, fitted(cand)};
  }
  const ConvRoutineFamily& routine = families::conv_routine();
  const Params* forced_routine = force ? force->find(routine.name()) : nullptr;
  const Params rp = routine.complete(forced_routine ? *forced_routine : params_for(q, routine, pr), caps);
  const std::int64_t wanted = rp.at("KERNEL");
  for (const ConvCandidate* cand : conv_candidates())
    if (cand->id() == wanted && cand->applies(pr, caps).empty()) return {cand, fitted(*cand)};
  for (const ConvCandidate* cand : conv_candidates())
    if (cand->applies(pr, caps).empty()) return {cand, fitted(*cand)};
  return {&direct_conv, fitted(direct_conv)};
}

Event run_conv(const Queue& q, const ConvCall& call, const WaitList& wait, const ConvForce* force) {
  if (!force) force = ConvForceScope::current();
  const ConvChoice choice = choose_conv(q, call.problem, force);
  EventSpan span;
  choice.candidate->run(q, call, choice.params, wait, span);
  return span.result();
}

}  // namespace optune::detail
