// conv2d's candidates that run GEMM (ops/gemm_ops.hpp) for the product:
// pointwise (1 x 1 over the tensors where they lie), im2col (the patches
// into scratch, then a GEMM per group) and Winograd F(2x2, 3x3) (the
// transforms into scratch around a batched GEMM, or fused into one kernel
// after the weights' transform); ops/conv_launch.cpp holds
// the others and the choice.
#include "kernels/families.hpp"
#include "ops/conv_launch.hpp"
#include "ops/conv_ops.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/params.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

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

// Winograd's transformed weights U (16 or 36 positions' K x C floats,
// stored C x K: conv_winograd.cl's conv_wino_weights, built with the
// candidate's WT), which both Winograd candidates write at the start of
// their scratch; F(2x2)'s size where the parameters are not yet known.
std::size_t wino_weight_bytes(const ConvProblem& pr) { return ConvWinogradFamily::weight_bytes({{"WT", 2}}, pr); }

// Launches conv_wino_weights (conv_winograd's parameters wp) from the call's
// weights into U at offset 0 of `scratch`; returns its event (also in span).
Event transform_wino_weights(const Queue& q, const ConvCall& c, const Params& wp, MemImpl& scratch,
                             const WaitList& wait, EventSpan& span) {
  const ConvWinogradFamily& wf = families::conv_winograd();
  const ConvProblem& pr = c.problem;
  KernelPtr k = compile_kernel(q, wf.entry_program(wp, pr, "conv_wino_weights"));
  const std::vector<KernelArg> args{int_arg(pr.k),          int_arg(pr.c),
                                    KernelArg::buffer(*c.wt.mem), ulong_arg(c.wt.offset),
                                    KernelArg::buffer(scratch), ulong_arg(0)};
  const Event e = launch_kernel(q, *k, args, wf.items_geometry(wp, pr.k * pr.c), wait, &wp);
  span.add(e);
  return e;
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
  std::string passed_over(const ConvProblem& pr, const Capabilities&) const override {
    return thin_pixel_major(pr, pr.in_nhwc);
  }
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
  std::string passed_over(const ConvProblem& pr, const Capabilities&) const override {
    return thin_pixel_major(pr, true);
  }
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
// F(2x2, 3x3) or, with WT 4, F(4x4, 3x3) (conv_winograd.cl; 16 or 36
// positions: 16 below). Slot 3 of the queue's scratch holds, in
// f32, the transformed weights U (16 K x C, stored C x K so that with few
// tiles, P <= 16, GEMM's thin kernel streams U along K rather than reducing
// a short C per work-group row: ResNet-50's 3x3 512 at 7 x 7, batch 1, took
// 1.7 s on PoCL stored K x C), then for a chunk of images the
// transformed input tiles V (16 C x P, P the chunk's 2 x 2 output tiles)
// and the product M = U V (16 K x P), one batched GEMM of 16 (GEMM's own
// choice of kernel; V and M lie P x C and P x K where the input and the
// output are NHWC); the output transform applies the epilogue. A chunk's V
// and M stay within CHUNK_KIB and the device's largest allocation (at least
// one image, which applies() checks against the latter).
class WinogradCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "winograd"; }
  int id() const override { return 6; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_winograd(); }
  std::string applies(const ConvProblem& pr, const Capabilities& caps) const override {
    if (!ConvWinogradFamily::applies(pr)) return "not a 3x3, stride 1, dilation 1 convolution of one group";
    if (wino_weight_bytes(pr) + ConvWinogradFamily::image_bytes({{"WT", 2}}, pr) > caps.max_alloc_bytes)
      return "the transformed weights and one image's tiles exceed the device's largest allocation";
    return "";
  }
  // Its GEMM runs in f32 (the transformed matrices), so f16 and bf16 would
  // forgo the half arithmetic and tensor cores that im2col's GEMM reaches.
  std::string passed_over(const ConvProblem& pr, const Capabilities&) const override {
    return pr.dtype == DType::F32 ? "" : "16-bit storage (its GEMM is f32; im2col's reaches half arithmetic)";
  }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    const ConvWinogradFamily& fam = families::conv_winograd();
    const std::int64_t wt = p.at("WT"), np = ConvWinogradFamily::positions(p);
    const std::int64_t th = (pr.oh + wt - 1) / wt, tw = (pr.ow + wt - 1) / wt;
    const std::size_t u_bytes = ConvWinogradFamily::weight_bytes(p, pr), one = ConvWinogradFamily::image_bytes(p, pr);
    // (fit keeps u_bytes + one within the largest allocation.)
    const std::size_t budget =
        std::min<std::size_t>(std::size_t(p.at("CHUNK_KIB")) << 10, q.device().caps().max_alloc_bytes - u_bytes);
    const std::int64_t per_chunk = std::clamp<std::int64_t>(std::int64_t(budget / one), 1, pr.n);
    ScratchLease s = lease_scratch(q, {0, 0, 0, u_bytes + std::size_t(per_chunk) * one});
    const std::shared_ptr<MemImpl>& scratch = s.slot[3];
    KernelPtr input = compile_kernel(q, fam.entry_program(p, pr, "conv_wino_input"));
    KernelPtr output = fam.kernel(q, p, pr);
    const std::size_t u_off = 0, v_off = std::size_t(np * pr.k * pr.c);
    Event done = transform_wino_weights(q, c, p, *scratch, wait, span);
    std::vector<KernelArg> args;
    const std::vector<KernelArg> tensors = tensor_args(c);
    for (std::int64_t n0 = 0; n0 < pr.n; n0 += per_chunk) {
      const std::int64_t images = std::min(per_chunk, pr.n - n0), tiles = images * th * tw;
      const std::size_t m_off = v_off + std::size_t(np * pr.c * tiles);
      args.clear();
      for (std::int64_t v : {pr.c, pr.h, pr.w, th, tw, pr.pad_t, pr.pad_l, n0, images}) args.push_back(int_arg(v));
      args.insert(args.end(), {KernelArg::buffer(*c.in.mem), ulong_arg(c.in.offset), KernelArg::buffer(*scratch),
                               ulong_arg(v_off)});
      const Event transformed = launch_kernel(q, *input, args, fam.items_geometry(p, tiles * pr.c), {done}, &p);
      span.add(transformed);
      // U is stored C x K; V C x P, or P x C from an NHWC input; M K x P, or
      // P x K (M^T = V^T U) for an NHWC output (conv_winograd.cl).
      GemmCall gc;
      gc.dtype = gc.c_dtype = DType::F32;
      gc.k = pr.c, gc.batch = np;
      const GemmOperand u{scratch, u_off, pr.k, pr.k * pr.c};
      const GemmOperand v{scratch, v_off, pr.in_nhwc ? pr.c : tiles, pr.c * tiles};
      if (pr.out_nhwc) {
        gc.m = tiles, gc.n = pr.k;
        gc.trans_a = !pr.in_nhwc;
        gc.a = v, gc.b = u;
        gc.c = GemmOperand{scratch, m_off, pr.k, pr.k * tiles};
      } else {
        gc.m = pr.k, gc.n = tiles;
        gc.trans_a = true, gc.trans_b = pr.in_nhwc;
        gc.a = u, gc.b = v;
        gc.c = GemmOperand{scratch, m_off, tiles, pr.k * tiles};
      }
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

};

// The same descriptors as WinogradCandidate, in one kernel
// (conv_wino_fused.cl) after conv_winograd's weight transform: U (16 K x C
// floats, stored C x K) in slot 3 of the queue's scratch, and no
// transformed input or product in memory.
class WinogradFusedCandidate : public ConvCandidate {
 public:
  std::string name() const override { return "winograd_fused"; }
  int id() const override { return 8; }
  const FamilyOf<ConvProblem>* family() const override { return &families::conv_winograd_fused(); }
  std::string applies(const ConvProblem& pr, const Capabilities& caps) const override {
    if (!ConvWinogradFamily::applies(pr)) return "not a 3x3, stride 1, dilation 1 convolution of one group";
    if (wino_weight_bytes(pr) > caps.max_alloc_bytes)
      return "the transformed weights exceed the device's largest allocation";
    // The smallest block (64 work-items, 10 KiB of local memory) within the device.
    const ConvWinoFusedFamily& fam = families::conv_winograd_fused();
    if (std::string why = fam.check(fam.fit(fam.complete({}, caps), caps, pr), caps, pr); !why.empty())
      return "no block of the kernel fits the device: " + why;
    return "";
  }
  // Its products are f32 (SIMT): 16-bit storage keeps the implicit GEMM,
  // whose product reaches half arithmetic and tensor cores. On CPUs the
  // unfused form's GEMM is faster (PoCL, 2 cores, conv 3x3 1 x 64 x 28 x 28
  // -> 64: 1.0 ms NCHW against the fused kernel's 3.9, whose groups of 256
  // work-items meet at two barriers a step).
  std::string passed_over(const ConvProblem& pr, const Capabilities& caps) const override {
    if (pr.dtype != DType::F32) return "16-bit storage (its products are f32; the implicit GEMM's reach tensor cores)";
    if (caps.type == DeviceType::CPU) return "a CPU (the unfused Winograd's GEMM measured faster there)";
    return "";
  }
  void run(const Queue& q, const ConvCall& c, const Params& p, const WaitList& wait, EventSpan& span) const override {
    const ConvProblem& pr = c.problem;
    const Capabilities& caps = q.device().caps();
    const ConvWinogradFamily& wf = families::conv_winograd();
    Params wp = wf.fit(wf.complete({}, caps), caps, pr);
    wp["WT"] = p.at("WT");  // the weights' transform for the kernel's tiles
    // (fit keeps WT 4's 36 planes within the device's largest allocation.)
    ScratchLease s = lease_scratch(q, {0, 0, 0, ConvWinogradFamily::weight_bytes(wp, pr)});
    const Event transformed = transform_wino_weights(q, c, wp, *s.slot[3], wait, span);
    const ConvWinoFusedFamily& fam = families::conv_winograd_fused();
    std::vector<KernelArg> args;
    for (std::int64_t v : {pr.n, pr.c, pr.h, pr.w, pr.k, pr.oh, pr.ow, pr.pad_t, pr.pad_l}) args.push_back(int_arg(v));
    const std::vector<KernelArg> tensors = tensor_args(c);
    args.insert(args.end(), tensors.begin(), tensors.end());
    args.insert(args.end(), {KernelArg::buffer(*s.slot[3]), ulong_arg(0)});
    KernelPtr k = fam.kernel(q, p, pr);
    span.add(launch_kernel(q, *k, args, fam.geometry(p, caps, pr), {transformed}, &p));
  }
};

}  // namespace

const ConvCandidate& pointwise_candidate() {
  static const PointwiseCandidate c;
  return c;
}
const ConvCandidate& im2col_candidate() {
  static const Im2colCandidate c;
  return c;
}
const ConvCandidate& winograd_candidate() {
  static const WinogradCandidate c;
  return c;
}
const ConvCandidate& winograd_fused_candidate() {
  static const WinogradFusedCandidate c;
  return c;
}

}  // namespace optune::detail
