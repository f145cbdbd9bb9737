// The conv2d routine: its candidates (direct, depthwise on buffers and on
// images, pointwise and im2col as GEMM, Winograd, implicit GEMM)
// and the choice among them by the database or the tuner's forced choice.
#include "kernels/families.hpp"
#include "ops/conv_ops.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/params.hpp"
#include "runtime/scratch.hpp"

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

// The residual into the output (one element-wise copy) unless it is the
// output: GEMM's C, read with beta = 1. Returns what the GEMMs wait for.
WaitList residual_into_output(const Queue& q, const ConvCall& c, const WaitList& wait, EventSpan& span) {
  const ConvProblem& pr = c.problem;
  if (!pr.residual || (c.res.mem == c.out.mem && c.res.offset == c.out.offset)) return wait;
  const std::int64_t elements = pr.outputs();
  Operand from, to;
  from.mem = c.res.mem, from.offset = c.res.offset;
  to.mem = c.out.mem, to.offset = c.out.offset;
  for (Operand* o : {&from, &to}) o->count = std::size_t(elements), o->dtype = pr.dtype, o->shape = {elements};
  const Event copied = unary(q, Unary::Copy, from, to, {}, wait);
  span.add(copied);
  return {copied};
}

// A matrix of `depth` values per output pixel for images [n0, n0 + images):
// pixel-major (row p holds pixel p's values: NHWC input, or im2col's
// patches) or channel-major per image (NCHW input: depth rows of OH OW).
struct GemmSource {
  std::shared_ptr<MemImpl> mem;
  std::size_t offset = 0;
  bool pixel_major = true;
  std::int64_t depth = 0;
};

// out[images n0..., group g's K / groups channels] = act(src W_g^T + bias +
// out) through GEMM, reading both where they lie (W_g is group g's
// K / groups x depth rows of the weights):
//   NHWC output: one product [images OH OW x Kg] = src [.. x depth] W_g^T
//                (pixel-major source) into columns g Kg.. of rows K apart,
//                bias per column;
//   NCHW output: `images` products out[n][g Kg..] = W_g src[n]^T
//                (pixel-major) or W_g src[n] (channel-major), sharing W_g,
//                bias per row.
Event gemm_into_output(const Queue& q, const ConvCall& c, const GemmSource& src, std::int64_t n0,
                       std::int64_t images, std::int64_t g, const WaitList& wait) {
  const ConvProblem& pr = c.problem;
  const std::int64_t pixels = pr.oh * pr.ow, d = src.depth, kg = pr.k / pr.groups;
  GemmCall gc;
  gc.dtype = gc.c_dtype = pr.dtype;
  gc.comp_half = false;  // conv sums in f32 for f16 and bf16
  gc.alpha = 1;
  gc.beta = pr.residual ? 1 : 0;
  const std::size_t w_off = c.wt.offset + std::size_t(g * kg * d);
  if (pr.out_nhwc) {
    gc.m = images * pixels, gc.n = kg, gc.k = d;
    gc.trans_b = true;
    gc.a = GemmOperand{src.mem, src.offset, d, 0};
    gc.b = GemmOperand{c.wt.mem, w_off, d, 0};
    gc.c = GemmOperand{c.out.mem, c.out.offset + std::size_t(n0 * pixels * pr.k + g * kg), pr.k, 0};
    gc.bias_mode = pr.bias ? 2 : 0;
  } else {
    gc.m = kg, gc.n = pixels, gc.k = d, gc.batch = images;
    gc.a = GemmOperand{c.wt.mem, w_off, d, 0};
    gc.trans_b = src.pixel_major;
    gc.b = src.pixel_major ? GemmOperand{src.mem, src.offset, d, pixels * d}
                           : GemmOperand{src.mem, src.offset, pixels, d * pixels};
    gc.c = GemmOperand{c.out.mem, c.out.offset + std::size_t((n0 * pr.k + g * kg) * pixels), pixels, pr.k * pixels};
    gc.bias_mode = pr.bias ? 1 : 0;
  }
  if (pr.bias) gc.bias = c.bias.mem, gc.bias_offset = c.bias.offset + std::size_t(g * kg);
  gc.activation = pr.activation;
  gc.activation_params = c.activation_params;
  return run_gemm(q, gc, wait);
}

// 1x1, stride 1, unpadded, one group, input and output in one layout: GEMM
// over the tensors where they lie (NHWC: one product; NCHW: one per image),
// with GEMM's fused epilogue. No copy of the input or the weight.
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
  std::string passed_over(const ConvProblem& pr) const override { return thin_pixel_major(pr, pr.in_nhwc); }
  void run(const Queue& q, const ConvCall& c, const Params&, const WaitList& wait, EventSpan& span) const override {
    const WaitList pending = residual_into_output(q, c, wait, span);
    const GemmSource src{c.in.mem, c.in.offset, c.problem.in_nhwc, c.problem.c};
    span.add(gemm_into_output(q, c, src, 0, c.problem.n, 0, pending));
  }
};

// Any groups and layouts: for each chunk of images and each group, the
// patches over the group's channels as a matrix in scratch
// (blas/im2col.cl, slot 3), then GEMM by the group's weights (as pointwise,
// pixel-major) into its output channels; up to kMaxGroups groups (more are
// as many small GEMMs: direct takes them). A chunk's matrix stays within
// CHUNK_KIB and the device's largest allocation (or one image's patches,
// which applies() checks against the latter).
class Im2colCandidate : public ConvCandidate {
 public:
  static constexpr std::int64_t kMaxGroups = 32;
  std::string name() const override { return "im2col"; }
  int id() const override { return 4; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_im2col(); }
  std::string applies(const ConvProblem& pr, const Capabilities& caps) const override {
    if (pr.depthwise() && pr.groups > 1) return "depthwise (one channel per group: the depthwise kernel's)";
    if (pr.groups > kMaxGroups) return "more than " + std::to_string(kMaxGroups) + " groups (a GEMM each)";
    if (image_bytes(pr) > caps.max_alloc_bytes) return "one image's patches exceed the device's largest allocation";
    return "";
  }
  std::string passed_over(const ConvProblem& pr) const override { return thin_pixel_major(pr, true); }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    const ConvIm2colFamily& fam = families::conv_im2col();
    const std::size_t budget =
        std::min<std::size_t>(std::size_t(p.at("CHUNK_KIB")) << 10, q.device().caps().max_alloc_bytes);
    const std::int64_t per_chunk = std::clamp<std::int64_t>(std::int64_t(budget / image_bytes(pr)), 1, pr.n);
    ScratchLease s = lease_scratch(q, {0, 0, 0, std::size_t(per_chunk) * image_bytes(pr)});
    WaitList pending = residual_into_output(q, c, wait, span);
    KernelPtr k = fam.kernel(q, p, pr);
    const std::int64_t cg = pr.c / pr.groups, depth = cg * pr.r * pr.s;
    // The input's strides of (n, c, y, x) in its layout.
    const std::size_t hw = std::size_t(pr.h * pr.w), chw = std::size_t(pr.c) * hw;
    const std::size_t sc = pr.in_nhwc ? 1 : hw, sy = pr.in_nhwc ? std::size_t(pr.w * pr.c) : std::size_t(pr.w),
                      sx = pr.in_nhwc ? std::size_t(pr.c) : 1;
    for (std::int64_t n0 = 0; n0 < pr.n; n0 += per_chunk)
      for (std::int64_t g = 0; g < pr.groups; ++g) {
        const std::int64_t images = std::min(per_chunk, pr.n - n0);
        std::vector<KernelArg> args;
        for (std::int64_t v : {cg, pr.h, pr.w, pr.oh, pr.ow, pr.r, pr.s, pr.stride_h, pr.stride_w, pr.dil_h, pr.dil_w,
                               pr.pad_t, pr.pad_l, std::int64_t(0)})
          args.push_back(int_arg(v));
        for (std::size_t v : {std::size_t(images), chw, sc, sy, sx}) args.push_back(ulong_arg(v));
        args.insert(args.end(), {KernelArg::buffer(*c.in.mem),
                                 ulong_arg(c.in.offset + std::size_t(n0) * chw + std::size_t(g * cg) * sc),
                                 KernelArg::buffer(*s.slot[3]), ulong_arg(0)});
        ConvProblem chunk = pr;
        chunk.n = images;
        const Event patched = launch_kernel(q, *k, args, fam.geometry(p, q.device().caps(), chunk), pending, &p);
        span.add(patched);
        const Event multiplied =
            gemm_into_output(q, c, GemmSource{s.slot[3], 0, true, depth}, n0, images, g, {patched});
        span.add(multiplied);
        pending = {multiplied};
      }
  }

 private:
  // One image's patches over one group's channels.
  static std::size_t image_bytes(const ConvProblem& pr) {
    return std::size_t(pr.oh * pr.ow) * std::size_t(pr.c / pr.groups * pr.r * pr.s) * dtype_size(pr.dtype);
  }
};

// 3 x 3, stride 1, dilation 1, one group, any layouts and pads: Winograd
// F(2x2, 3x3) (conv_winograd.cl). Slot 3 of the queue's scratch holds, in
// f32, the transformed weights U (16 K x C, stored C x K so that with few
// tiles, P <= 16, GEMM's thin kernel streams U along K rather than reducing
// a short C per work-group row: ResNet-50's 3x3 512 at 7 x 7, batch 1, took
// 1.7 s on PoCL stored K x C), then for a chunk of images the
// transformed input tiles V (16 C x P, P the chunk's 2 x 2 output tiles)
// and the product M = U V (16 K x P), one batched GEMM of 16 (GEMM's own
// choice of kernel); the output transform applies the epilogue. A chunk's V
// and M stay within CHUNK_KIB and the device's largest allocation (at least
// one image, which applies() checks against the latter).
class WinogradCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "winograd"; }
  int id() const override { return 6; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_winograd(); }
  std::string applies(const ConvProblem& pr, const Capabilities& caps) const override {
    if (!ConvWinogradFamily::applies(pr)) return "not a 3x3, stride 1, dilation 1 convolution of one group";
    if (weight_bytes(pr) + image_bytes(pr) > caps.max_alloc_bytes)
      return "the transformed weights and one image's tiles exceed the device's largest allocation";
    return "";
  }
  // Its GEMM runs in f32 (the transformed matrices), so f16 and bf16 would
  // forgo the half arithmetic and tensor cores that im2col's GEMM reaches.
  std::string passed_over(const ConvProblem& pr) const override {
    return pr.dtype == DType::F32 ? "" : "16-bit storage (its GEMM is f32; im2col's reaches half arithmetic)";
  }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    const ConvWinogradFamily& fam = families::conv_winograd();
    const std::int64_t th = (pr.oh + 1) / 2, tw = (pr.ow + 1) / 2;
    const std::size_t budget = std::min<std::size_t>(std::size_t(p.at("CHUNK_KIB")) << 10,
                                                     q.device().caps().max_alloc_bytes - weight_bytes(pr));
    const std::int64_t per_chunk = std::clamp<std::int64_t>(std::int64_t(budget / image_bytes(pr)), 1, pr.n);
    ScratchLease s = lease_scratch(q, {0, 0, 0, weight_bytes(pr) + std::size_t(per_chunk) * image_bytes(pr)});
    const std::shared_ptr<MemImpl>& scratch = s.slot[3];
    KernelPtr weights = compile_kernel(q, fam.entry_program(p, pr, "conv_wino_weights"));
    KernelPtr input = compile_kernel(q, fam.entry_program(p, pr, "conv_wino_input"));
    KernelPtr output = fam.kernel(q, p, pr);
    const std::size_t u_off = 0, v_off = std::size_t(16 * pr.k * pr.c);
    std::vector<KernelArg> args{int_arg(pr.k), int_arg(pr.c), KernelArg::buffer(*c.wt.mem), ulong_arg(c.wt.offset),
                                KernelArg::buffer(*scratch), ulong_arg(u_off)};
    Event done = launch_kernel(q, *weights, args, fam.items_geometry(p, pr.k * pr.c), wait, &p);
    span.add(done);
    const std::vector<KernelArg> tensors = tensor_args(c);
    for (std::int64_t n0 = 0; n0 < pr.n; n0 += per_chunk) {
      const std::int64_t images = std::min(per_chunk, pr.n - n0), tiles = images * th * tw;
      const std::size_t m_off = v_off + std::size_t(16 * pr.c * tiles);
      args.clear();
      for (std::int64_t v : {pr.c, pr.h, pr.w, th, tw, pr.pad_t, pr.pad_l, n0, images}) args.push_back(int_arg(v));
      args.insert(args.end(), {KernelArg::buffer(*c.in.mem), ulong_arg(c.in.offset), KernelArg::buffer(*scratch),
                               ulong_arg(v_off)});
      const Event transformed = launch_kernel(q, *input, args, fam.items_geometry(p, tiles * pr.c), {done}, &p);
      span.add(transformed);
      GemmCall gc;
      gc.dtype = gc.c_dtype = DType::F32;
      gc.m = pr.k, gc.n = tiles, gc.k = pr.c, gc.batch = 16;
      gc.trans_a = true;  // U stored C x K (conv_winograd.cl)
      gc.a = GemmOperand{scratch, u_off, pr.k, pr.k * pr.c};
      gc.b = GemmOperand{scratch, v_off, tiles, pr.c * tiles};
      gc.c = GemmOperand{scratch, m_off, tiles, pr.k * tiles};
      const Event multiplied = run_gemm(q, gc, {transformed});
      span.add(multiplied);
      args.clear();
      for (std::int64_t v : {pr.k, pr.oh, pr.ow, th, tw, n0, images}) args.push_back(int_arg(v));
      args.insert(args.end(), {KernelArg::buffer(*scratch), ulong_arg(m_off)});
      // The tensor block from the bias on (input and weights are in scratch).
      args.insert(args.end(), tensors.begin() + 4, tensors.end());
      done = launch_kernel(q, *output, args, fam.items_geometry(p, tiles * pr.k), {multiplied}, &p);
      span.add(done);
    }
  }

 private:
  static std::size_t weight_bytes(const ConvProblem& pr) { return std::size_t(16 * pr.k * pr.c) * sizeof(float); }
  // One image's transformed tiles and their product.
  static std::size_t image_bytes(const ConvProblem& pr) {
    return std::size_t(16 * (pr.c + pr.k) * ((pr.oh + 1) / 2) * ((pr.ow + 1) / 2)) * sizeof(float);
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
  std::string passed_over(const ConvProblem& pr) const override {
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
const PointwiseCandidate pointwise_conv;
const Im2colCandidate im2col_conv;
const WinogradCandidate winograd_conv;
const ImplicitCandidate implicit_conv;

}  // namespace

const std::vector<const ConvCandidate*>& conv_candidates() {
  static const std::vector<const ConvCandidate*> order{&pointwise_conv, &depthwise_conv, &depthwise_image_conv,
                                                       &winograd_conv, &implicit_conv, &im2col_conv,
                                                       &direct_conv};
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
    if (cand->applies(pr, caps).empty() && cand->passed_over(pr).empty()) return {cand, fitted(*cand)};
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
