// Descriptors of the convolution families: conv_direct (conv/conv_direct.cl,
// any descriptor), conv_depthwise (conv/conv_depthwise.cl, groups == C == K),
// conv_depthwise_image, conv_winograd, conv_winograd_fused, conv_im2col, conv_implicit
// (conv/conv_implicit.cl, any descriptor) and conv_routine (routine
// parameters only: which candidate runs). The 1x1
// candidate runs GEMM's families (ops/conv_candidates.cpp).
#pragma once

#include "kernels/descriptor.hpp"
#include "optune/elementwise.hpp"

namespace optune::detail {

// One convolution as the kernels see it (validated sizes, NCHW or NHWC per
// tensor, the epilogue's presence). Weights are K x C/groups x R x S.
struct ConvProblem {
  DType dtype = DType::F32;
  std::int64_t n = 1, c = 1, h = 1, w = 1, k = 1, r = 1, s = 1, oh = 1, ow = 1;
  std::int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1, pad_t = 0, pad_l = 0, pad_b = 0, pad_r = 0;
  std::int64_t groups = 1;
  bool in_nhwc = false, out_nhwc = false;
  bool bias = false, residual = false;
  Unary activation = Unary::Copy;
  // The largest pack (elements, a power of two up to 16) that the input's,
  // output's and residual's offsets allow.
  std::int64_t align = 16;
  // The same for the weights' offset (conv_depthwise loads them as packs).
  std::int64_t wt_align = 16;
  // f16 whose caller lets the sums run in f16 (Conv2dOptions::accumulate
  // Default): a kernel may add its products in half arithmetic where the
  // device has it (conv_depthwise's HALF).
  bool half_arith = false;
  std::vector<std::int64_t> sizes() const { return {n, c, h, w, k, r, s}; }
  std::map<std::string, std::int64_t> fields() const {
    return {{"oh", oh},         {"ow", ow},           {"stride_h", stride_h}, {"stride_w", stride_w},
            {"dil_h", dil_h},   {"dil_w", dil_w},     {"pad_t", pad_t},       {"pad_l", pad_l},
            {"pad_b", pad_b},   {"pad_r", pad_r},     {"groups", groups},     {"in_nhwc", in_nhwc},
            {"out_nhwc", out_nhwc}, {"bias", bias},   {"residual", residual}, {"activation", int(activation)},
            {"align", align},         {"half_arith", half_arith}};
  }
  bool depthwise() const { return groups == c && k == c; }
  bool pointwise() const {
    return r == 1 && s == 1 && stride_h == 1 && stride_w == 1 && pad_t == 0 && pad_l == 0 && pad_b == 0 &&
           pad_r == 0;
  }
  std::int64_t outputs() const { return n * k * oh * ow; }  // output elements
  double flops() const;  // 2 N K OH OW (C / groups) R S
  double bytes() const;  // input, weight and output once (and the residual)
};

// Runtime flag bits of the conv kernels (conv/conv_common.cl names the same).
constexpr unsigned kConvBias = 1u, kConvResidual = 2u;

class ConvFamilyBase : public FamilyOf<ConvProblem> {
 public:
  // Layout buckets of the kernel families: the input's layout.
  std::string bucket(const ConvProblem& problem) const override;
  std::vector<std::string> buckets() const override { return {"nchw", "nhwc"}; }
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  // The activation macro, then conv_common.cl's parts, then the source.
  KernelSource program(const Params& p, const ConvProblem& problem) const override;
  // Element types and layouts, then the parameters.
  Defines defines(const Params& p, const ConvProblem& problem) const override;
  // program() with another entry point of the same text (families with
  // several kernels: one program, compiled once).
  KernelSource entry_program(const Params& p, const ConvProblem& problem, const std::string& entry) const;
};

// Any convolution: each work-item computes KPT output channels of one
// output pixel (one group along pixels shares its channels).
class ConvDirectFamily : public ConvFamilyBase {
 public:
  std::string name() const override { return "conv_direct"; }
  std::string source() const override { return "conv/conv_direct.cl"; }
  std::string kernel_name() const override { return "conv_direct"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const ConvProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
};

// groups == C == K, input and output in one layout: NCHW work-items compute
// WPT outputs along W (stored as one pack where aligned: VEC), NHWC ones VW
// channels (one pack) of PPT pixels along W. The filter size is a define.
class ConvDepthwiseFamily : public ConvFamilyBase {
 public:
  std::string name() const override { return "conv_depthwise"; }
  std::string source() const override { return "conv/conv_depthwise.cl"; }
  std::string kernel_name() const override { return "conv_depthwise"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  // Adds the derived VEC (NCHW: the WPT outputs stored as one pack).
  Params fit(const Params& tuned, const Capabilities& caps, const ConvProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Defines defines(const Params& p, const ConvProblem& problem) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
};

// groups == C == K read through a 2-D image (OpenCL devices with images):
// conv_pack_nc4hw4 packs a tile of the input (images n0.., channel blocks
// cb0..) into an RGBA image in NC4HW4 order, width (channel blocks) W and
// height (images) H; conv_depthwise_image computes 4 channels of WPT
// outputs along W per work-item, reading the taps with read_imagef (the
// sampler's zero border is the padding), into the output buffer in either
// layout. geometry() and pack_geometry() take the tile as the problem (n:
// its images, c: its channels).
class ConvDepthwiseImageFamily : public ConvFamilyBase {
 public:
  std::string name() const override { return "conv_depthwise_image"; }
  std::string source() const override { return "conv/conv_depthwise_image.cl"; }
  std::string kernel_name() const override { return "conv_depthwise_image"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  // Nothing where the device has no images (the tuner skips the family).
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const ConvProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& tile) const override;
  Defines defines(const Params& p, const ConvProblem& problem) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  // The packing kernel (entry conv_pack_nc4hw4): one texel per work-item
  // over the tile.
  Geometry pack_geometry(const Params& p, const ConvProblem& tile) const;
};

// Winograd F(2x2, 3x3) or, with WT 4, F(4x4, 3x3) (3 x 3, stride 1,
// dilation 1, one group): the kernels conv_wino_weights, conv_wino_input
// and conv_wino_output of conv/conv_winograd.cl around a batched GEMM of
// GEMM's families over the 16 or 36 transformed positions
// (ops/conv_gemm_candidates.cpp). CHUNK_KIB (host only) bounds the
// transformed input and product of a chunk of images.
class ConvWinogradFamily : public ConvFamilyBase {
 public:
  std::string name() const override { return "conv_winograd"; }
  std::string source() const override { return "conv/conv_winograd.cl"; }
  std::string kernel_name() const override { return "conv_wino_output"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const ConvProblem& problem) const override;
  // One work-item per element of `items` (the candidate counts them).
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Geometry items_geometry(const Params& p, std::int64_t items) const;
  Defines defines(const Params& p, const ConvProblem& problem) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  static bool applies(const ConvProblem& pr) {
    return pr.r == 3 && pr.s == 3 && pr.stride_h == 1 && pr.stride_w == 1 && pr.dil_h == 1 && pr.dil_w == 1 &&
           pr.groups == 1;
  }
  // (WT + 2)^2 positions; the transformed weights' bytes (positions K C
  // floats); one image's transformed tiles and their product (positions
  // (C + K) tiles floats).
  static std::int64_t positions(const Params& p);
  // WT x WT output tiles over the batch.
  static std::int64_t tiles(const Params& p, const ConvProblem& pr);
  static std::size_t weight_bytes(const Params& p, const ConvProblem& pr);
  static std::size_t image_bytes(const Params& p, const ConvProblem& pr);
  // The fewest 4 x 4 tiles (over the batch) that fit leaves WT 4 at.
  static constexpr std::int64_t kWt4MinTiles = 32;
};

// Winograd F(2x2, 3x3) or, with WT 4, F(4x4, 3x3) in one kernel
// (conv/conv_wino_fused.cl, the same descriptors as conv_winograd): BK
// output channels of BT WT x WT tiles per work-group, the input transformed
// into local memory BC channels at a time and the 16 or 36 products summed
// in registers (KPT x TPT per work-item), the output transform and epilogue
// fused in the store. The weights come transformed by conv_winograd's
// conv_wino_weights (built with the same WT).
class ConvWinoFusedFamily : public ConvFamilyBase {
 public:
  std::string name() const override { return "conv_winograd_fused"; }
  std::string source() const override { return "conv/conv_wino_fused.cl"; }
  std::string kernel_name() const override { return "conv_wino_fused"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  // Shrinks BK towards K and the block within the device; adds UVEC.
  Params fit(const Params& tuned, const Capabilities& caps, const ConvProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  // (WT + 2)^2 positions (ConvWinogradFamily::positions) (BK / KPT) (BT / TPT).
  static std::int64_t work_items(const Params& p);
  // The larger of the product's tiles and the output passes' stage.
  static std::int64_t local_bytes(const Params& p);
};

// The patches of a chunk of images over one group's channels as a
// row-major matrix (either input layout), which GEMM multiplies by the
// group's weights: one element per work-item, its bits copied (ELEM). The
// kernel is the BLAS extras' im2col (blas/im2col.cl) with the taps fastest
// (TAPS_FASTEST 1) and the input's strides for its layout.
class ConvIm2colFamily : public ConvFamilyBase {
 public:
  std::string name() const override { return "conv_im2col"; }
  std::string source() const override { return "blas/im2col.cl"; }
  std::string kernel_name() const override { return "im2col"; }
  // The shared source alone (no conv_common.cl, no activation): it needs none.
  KernelSource program(const Params& p, const ConvProblem& problem) const override;
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const ConvProblem& problem) const override;
  // For the whole batch; the candidate launches chunks of images itself.
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Defines defines(const Params& p, const ConvProblem& problem) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
};

// Implicit GEMM (conv/conv_implicit.cl, kernels/conv/conv_implicit.cpp):
// any descriptor, per group the product of the pixels' patches (gathered
// from the input as loaded) by the group's weights, MWG x NWG tiles of
// MDIMC x NDIMC work-items over KWG-deep local tiles, the epilogue fused in
// the store; MMA = 1 the product on tensor cores (CUDA sm_80+, f16 / bf16).
// fit() shrinks the tiles towards small problems.
class ConvImplicitFamily : public ConvFamilyBase {
 public:
  std::string name() const override { return "conv_implicit"; }
  std::string source() const override { return "conv/conv_implicit.cl"; }
  std::string kernel_name() const override { return "conv_implicit"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const ConvProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  // Without SK_FILL and SK_MINK (host parameters).
  Defines defines(const Params& p, const ConvProblem& problem) const override;
  // SPLITK 0's count for these (fitted) tiles.
  static std::int64_t auto_split(const Params& p, const Capabilities& caps, const ConvProblem& problem);
  // FLAT 2's choice for the tuned KWG.
  static std::int64_t auto_flat(const Params& p, const ConvProblem& problem);
  // The two stages of A and B tiles (float rows padded by one; MMA: 16-bit
  // rows padded by 8).
  static std::int64_t local_bytes(const Params& p);
};

// Which candidate runs (KERNEL: 0 the first that applies and is not passed
// over in the order pointwise, depthwise, depthwise_image, winograd_fused,
// winograd, implicit, im2col, direct; 1 direct; 2 depthwise; 3 pointwise;
// 4 im2col; 5 depthwise_image; 6 winograd; 7 implicit; 8 winograd_fused,
// each where it applies). No kernel of its own: its tuning case times the
// routine.
class ConvRoutineFamily : public FamilyOf<ConvProblem> {
 public:
  std::string name() const override { return "conv_routine"; }
  std::string source() const override { return ""; }
  std::string kernel_name() const override { return ""; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ConvProblem& problem) const override;
  std::string bucket(const ConvProblem& problem) const override;
  // winograd_deep, then general.
  std::vector<std::string> bucket_chain(const ConvProblem& problem) const override;
  // pointwise_thin: 1 x 1 with at most 16 output channels per group (GEMM's
  // thin side, ops/conv_launch.cpp); winograd_deep: Winograd's descriptors
  // (3 x 3, stride 1, one group) with at least kDeepChannels input and
  // output channels, whose products are long enough for the unfused form's
  // batched GEMM (ResNet-50's 3 x 3 layers past the first stage).
  std::vector<std::string> buckets() const override {
    return {"pointwise", "pointwise_thin", "depthwise", "winograd_deep", "general"};
  }
  static constexpr std::int64_t kDeepChannels = 128;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  ConvProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
};

namespace conv_kernels {
// The output size of one dimension, or <= 0 when none fits.
std::int64_t out_size(std::int64_t in, std::int64_t pad_lo, std::int64_t pad_hi, std::int64_t dil, std::int64_t k,
                      std::int64_t stride);
// A problem of these sizes with output sizes and a dense layout filled in.
ConvProblem make(DType dtype, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k,
                 std::int64_t r, std::int64_t s, std::int64_t stride, std::int64_t pad, std::int64_t groups, bool nhwc);
// The general buckets' tuning example: the conv 3x3 32 x 64 x 56 x
// 56 -> 64 (CPUs: 1 x 32 x 28 x 28 -> 32).
ConvProblem general_example(DType dtype, bool nhwc, const Capabilities& caps);
// The depthwise buckets' tuning example: the depthwise 3x3
// 8 x 256 x 112 x 112 (CPUs: 1 x 64 x 56 x 56).
ConvProblem depthwise_example(DType dtype, bool nhwc, const Capabilities& caps);
// What the family descriptors share: whether a group of wgs work-items fits
// the device; the widest pack (lanes) a backend's vectors carry (more than 4
// on OpenCL only); a / b rounded up; a 1-D launch of items in groups of wgs;
// the storage types of the kernel families (f32, f16, bf16).
bool group_fits(std::int64_t wgs, const Capabilities& caps);
std::int64_t max_lanes(const Capabilities& caps);
std::int64_t ceil_div(std::int64_t a, std::int64_t b);
Geometry one_dim(std::int64_t items, std::int64_t wgs);
std::vector<DType> storage_types();
}  // namespace conv_kernels

}  // namespace optune::detail
