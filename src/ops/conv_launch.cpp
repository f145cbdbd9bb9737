// The conv2d routine: its candidates (direct, depthwise on buffers and on
// images, implicit GEMM here; pointwise and im2col as GEMM and Winograd in
// conv_gemm_candidates.cpp) and the choice among them by the database or the
// tuner's forced choice.
#include "kernels/families.hpp"
#include "ops/conv_ops.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/params.hpp"
#include "ops/conv_launch.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

// Bias and residual stand in for themselves or, when absent, for the output
// (never read: the flags say so).
const ConvTensor& or_out(const ConvCall& c, const ConvTensor& t, bool present) { return present ? t : c.out; }

}  // namespace

// (ops/conv_launch.hpp)
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

namespace {

// Compiles the family's program and launches it over the sizes (as int
// arguments), the tensor block and `extra` (arguments after it); returns
// the launch's event (also in `span`).
template <class Family>
Event launch_family(const Family& fam, const Queue& q, const ConvCall& c, const Params& p,
                    std::initializer_list<std::int64_t> sizes, const WaitList& wait, EventSpan& span,
                    const std::vector<KernelArg>& extra = {}) {
  std::vector<KernelArg> args;
  for (std::int64_t v : sizes) args.push_back(int_arg(v));
  const std::vector<KernelArg> tensors = tensor_args(c);
  args.insert(args.end(), tensors.begin(), tensors.end());
  args.insert(args.end(), extra.begin(), extra.end());
  KernelPtr k = fam.kernel(q, p, c.problem);
  const Event e = launch_kernel(q, *k, args, fam.geometry(p, q.device().caps(), c.problem), wait, &p);
  span.add(e);
  return e;
}

// The kernels of every descriptor (conv_direct, conv_implicit) take all of
// its sizes: N, C, H, W, K, OH, OW, R, S, strides, dilations, top and left
// pads, groups.
template <class Family>
Event launch_every_size(const Family& fam, const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait,
                        EventSpan& span, const std::vector<KernelArg>& extra = {}) {
  const ConvProblem& pr = c.problem;
  return launch_family(fam, q, c, p,
                       {pr.n, pr.c, pr.h, pr.w, pr.k, pr.oh, pr.ow, pr.r, pr.s, pr.stride_h, pr.stride_w, pr.dil_h,
                        pr.dil_w, pr.pad_t, pr.pad_l, pr.groups},
                       wait, span, extra);
}

}  // namespace

// A GEMM-based candidate's product has the output channels of a group as
// one side; with at most GemmThinFamily::kMaxThinAlongK (16) of them GEMM's
// routine gives it to the thin kernel (gemm_thin.cl), the pixels being its
// wide operand. Where that operand is pixel-major (an NHWC input, im2col's
// patches) it is stored N x K, and the thin kernel's K-contiguous path gives
// each pixel's column of the output to one row of work-items, reducing over
// the depth (C / groups R S) across its lanes: made for long products (a
// GEMV over thousands), it runs a group per pixel with a depth of tens, and
// PoCL runs those groups one after another (MobileNetV2's 1 x 1 32 -> 16 at
// 112 x 112 NHWC: 2.7 s through thin, 8.4 ms through the direct kernel; the
// same in NCHW is a channel-major operand, K x N, 1.7 ms through thin). The
// default order passes such shapes over; a tuned KERNEL (the conv_routine
// bucket pointwise_thin) may still choose them.
std::string thin_pixel_major(const ConvProblem& pr, bool pixel_major) {
  if (!pixel_major || pr.k / pr.groups > GemmThinFamily::kMaxThinAlongK) return "";
  return "at most " + std::to_string(GemmThinFamily::kMaxThinAlongK) +
         " output channels per group over pixel-major pixels (GEMM's thin kernel, one work-group row per pixel)";
}

namespace {

class DirectCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "direct"; }
  int id() const override { return 1; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_direct(); }
  std::string applies(const ConvProblem&, const Capabilities&) const override { return ""; }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    launch_every_size(families::conv_direct(), q, c, p, wait, span);
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

// groups == C == K, any layouts, on devices with images: the input packed
// tile by tile into an RGBA image in NC4HW4 order (conv_pack_nc4hw4), then
// the depthwise kernel reading it with read_imagef into the output buffer.
// A tile is as many channel blocks of 4 as fit the image's width limit
// (W texels each) and as many images as fit its height limit (H rows each),
// within the device's largest allocation; an input one of whose images'
// channel blocks alone exceeds a limit is the buffer candidate's.
// f16 is packed as half texels where the device has that format (else
// float); f32 and bf16 as float.
class DepthwiseImageCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "depthwise_image"; }
  int id() const override { return 5; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_depthwise_image(); }
  std::string applies(const ConvProblem& pr, const Capabilities& caps) const override {
    if (!pr.depthwise()) return "not depthwise (groups == C == K)";
    if (!caps.images) return "the device has no images (the CUDA back end has none in optune)";
    if (const auto [tile_cb, tile_n] = tile_of(pr, caps); tile_cb < 1 || tile_n < 1) {
      const auto [lw, lh] = ConvImageLimitScope::limits(caps);
      return "one image's channel block exceeds the device's image limits (" + std::to_string(lw) + " x " +
             std::to_string(lh) + " texels, " + std::to_string(caps.max_alloc_bytes) + " bytes): the buffer kernel's";
    }
    return "";
  }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    const ConvDepthwiseImageFamily& fam = families::conv_depthwise_image();
    const std::int64_t blocks = (pr.c + 3) / 4;
    const auto [tile_cb, tile_n] = tile_of(pr, q.device().caps());
    const Image2D img = make_image(q, std::size_t(tile_cb * pr.w), std::size_t(tile_n * pr.h), pr.dtype);
    KernelPtr pack = compile_kernel(q, fam.entry_program(p, pr, "conv_pack_nc4hw4"));
    KernelPtr conv = fam.kernel(q, p, pr);
    const std::vector<KernelArg> tensors = tensor_args(c);
    WaitList pending = wait;
    for (std::int64_t n0 = 0; n0 < pr.n; n0 += tile_n)
      for (std::int64_t cb0 = 0; cb0 < blocks; cb0 += tile_cb) {
        ConvProblem tile = pr;
        tile.n = std::min(tile_n, pr.n - n0);
        const std::int64_t cbt = std::min(tile_cb, blocks - cb0);
        tile.c = std::min(4 * cbt, pr.c - 4 * cb0);
        std::vector<KernelArg> args;
        for (std::int64_t v : {pr.c, pr.h, pr.w, n0, tile.n, cb0, cbt}) args.push_back(int_arg(v));
        args.insert(args.end(), {KernelArg::buffer(*c.in.mem), ulong_arg(c.in.offset), KernelArg::img(*img.impl())});
        const Event packed = launch_kernel(q, *pack, args, fam.pack_geometry(p, tile), pending, &p);
        span.add(packed);
        args.clear();
        for (std::int64_t v : {pr.c, pr.h, pr.w, pr.oh, pr.ow, pr.stride_h, pr.stride_w, pr.dil_h, pr.dil_w, pr.pad_t,
                               pr.pad_l, n0, tile.n, cb0, cbt})
          args.push_back(int_arg(v));
        args.push_back(KernelArg::img(*img.impl()));
        // The tensor block without the input (read through the image).
        args.insert(args.end(), tensors.begin() + 2, tensors.end());
        const Event done = launch_kernel(q, *conv, args, fam.geometry(p, q.device().caps(), tile), {packed}, &p);
        span.add(done);
        pending = {done};
      }
  }

 private:
  // Channel blocks and images of a tile: within the image limits and, at 16
  // bytes a texel, the device's largest allocation (0 where one image's
  // block alone does not fit).
  static std::array<std::int64_t, 2> tile_of(const ConvProblem& pr, const Capabilities& caps) {
    const auto [lw, lh] = ConvImageLimitScope::limits(caps);
    const std::int64_t plane = pr.w * pr.h, texels = std::int64_t(caps.max_alloc_bytes / 16);
    const std::int64_t cb = std::min<std::int64_t>({(pr.c + 3) / 4, std::int64_t(lw) / pr.w, texels / plane});
    if (cb < 1) return {0, 0};
    return {cb, std::min<std::int64_t>({pr.n, std::int64_t(lh) / pr.h, texels / (cb * plane)})};
  }
  // Half texels for f16 where the device has them, else float.
  static Image2D make_image(const Queue& q, std::size_t w, std::size_t h, DType t) {
    if (t == DType::F16) {
      try {
        return Image2D(q.context(), w, h, ChannelType::Half);
      } catch (const Error& e) {
        if (e.status() != Status::Unsupported) throw;
      }
    }
    return Image2D(q.context(), w, h, ChannelType::Float);
  }
};

// Any descriptor as an implicit GEMM per group (conv_implicit.cl): the
// pixels' patches gathered from the input into local tiles as the product
// needs them (no patch matrix in memory, unlike im2col), the weights read
// where they lie, the epilogue fused in the store; one launch for every
// group. The default order passes depthwise shapes over (one output channel
// per group: a product one column wide, the depthwise kernels' shape).
class ImplicitCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "implicit"; }
  int id() const override { return 7; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_implicit(); }
  std::string applies(const ConvProblem&, const Capabilities&) const override { return ""; }
  std::string passed_over(const ConvProblem& pr, const Capabilities&) const override {
    return pr.depthwise() ? "depthwise (a product one output channel wide per group)" : "";
  }
  // With SPLITK > 1 the slices' raw sums go to scratch (slot 3, laid out as
  // the output, one copy per slice) and conv_implicit_sum adds them in slice
  // order through the epilogue.
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvImplicitFamily& fam = families::conv_implicit();
    const std::int64_t splitk = p.at("SPLITK");
    if (splitk <= 1) {
      launch_every_size(fam, q, c, p, wait, span);
      return;
    }
    const ConvProblem& pr = c.problem;
    const std::size_t total = std::size_t(pr.outputs());
    ScratchLease s = lease_scratch(q, {0, 0, 0, std::size_t(splitk) * total * sizeof(float)});
    const Event summed = launch_every_size(fam, q, c, p, wait, span, {KernelArg::buffer(*s.slot[3])});
    std::vector<KernelArg> args{int_arg(pr.n), int_arg(pr.k), int_arg(pr.oh), int_arg(pr.ow),
                                KernelArg::buffer(*s.slot[3])};
    // The tensor block from the bias on.
    const std::vector<KernelArg> tensors = tensor_args(c);
    args.insert(args.end(), tensors.begin() + 4, tensors.end());
    KernelPtr sum = compile_kernel(q, fam.entry_program(p, pr, "conv_implicit_sum"));
    Geometry g;
    g.dims = 1;
    g.local[0] = 256;
    g.global[0] = (total + 255) / 256 * 256;
    span.add(launch_kernel(q, *sum, args, g, {summed}, &p));
  }
};

const DirectCandidate direct_conv;
const DepthwiseCandidate depthwise_conv;
const DepthwiseImageCandidate depthwise_image_conv;
const ImplicitCandidate implicit_conv;

}  // namespace

const std::vector<const ConvCandidate*>& conv_candidates() {
  static const std::vector<const ConvCandidate*> order{&pointwise_candidate(),      &depthwise_conv,
                                                       &depthwise_image_conv,       &winograd_fused_candidate(),
                                                       &winograd_candidate(),       &implicit_conv,
                                                       &im2col_candidate(),         &direct_conv};
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
    if (cand->applies(pr, caps).empty() && cand->passed_over(pr, caps).empty()) return {cand, fitted(*cand)};
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
