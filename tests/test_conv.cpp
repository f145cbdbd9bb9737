// conv2d against a double-precision direct convolution (reference/conv_check):
// every candidate (direct, depthwise on buffers and on images, pointwise,
// im2col and Winograd around GEMM; the implicit GEMM is test_conv_implicit.cpp's,
// the fused Winograd test_conv_winograd.cpp's) forced in turn with several parameter
// sets, odd sizes, strides, dilations, asymmetric pads, groups 1, 2 and C,
// both layouts for input and output, the epilogue (bias, activation,
// residual, in place), f32, f16 and bf16, views at offsets and 4-d shapes,
// the image candidate past (lowered) image limits; then the routine's own
// choice and the default order's pinned choices.
#include <gtest/gtest.h>

#include <tuple>
#include <utility>

#include "kernels/families.hpp"
#include "ops/gemm_ops.hpp"
#include "reference/conv_check.hpp"
#include "support/gemm_fixture.hpp"
#include "support/test_support.hpp"

namespace optune {
namespace {

using ref::ConvCase;
using ref::conv_desc;
using ref::conv_force;
using ref::general_descs;
using ref::problem_of;
using detail::ConvForce;
constexpr ConvLayout NCHW = ConvLayout::NCHW, NHWC = ConvLayout::NHWC;



TEST(Conv, DirectEveryLayoutAndShape) {
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC})
      for (const Conv2dDesc& d : general_descs(in, out))
        for (std::int64_t kpt : {1, 4, 16}) {
          ConvCase c;
          c.desc = d;
          const ConvForce f = conv_force("direct", "conv_direct", {{"KPT", kpt}, {"WGS", kpt == 16 ? 32 : 64}});
          EXPECT_TRUE(ref::check_conv(c, &f)) << "KPT " << kpt;
        }
}

TEST(Conv, DirectEpilogueAndTypes) {
  for (DType t : {DType::F32, DType::F16, DType::BF16})
    for (ConvLayout layout : {NCHW, NHWC}) {
      ConvCase c;
      c.dtype = t;
      c.desc = conv_desc(2, 4, 6, 7, 6, 3, 3, 2, 1, 2, layout, layout);
      c.bias = true;
      c.residual = true;
      c.activation = Unary::Relu6;
      c.offset = 3;
      const ConvForce f = conv_force("direct");
      EXPECT_TRUE(ref::check_conv(c, &f));
      c.residual_in_place = true;
      c.activation = Unary::Gelu;
      c.rank4 = true;
      EXPECT_TRUE(ref::check_conv(c, &f));
    }
}

std::vector<Conv2dDesc> depthwise_descs(ConvLayout l) {
  std::vector<Conv2dDesc> v;
  v.push_back(conv_desc(2, 8, 9, 13, 8, 3, 3, 1, 1, 8, l, l));   // 3x3, pad 1, odd width
  v.push_back(conv_desc(1, 4, 10, 11, 4, 3, 3, 2, 0, 4, l, l));  // stride 2, no pad
  v.push_back(conv_desc(2, 4, 11, 12, 4, 3, 3, 2, 1, 4, l, l));  // stride 2, pad 1 (MobileNetV2's)
  Conv2dDesc d = conv_desc(1, 12, 12, 9, 12, 5, 5, 1, 0, 12, l, l);  // 5x5, dilation 2, asymmetric pads
  d.dilation_h = d.dilation_w = 2;
  d.pad_top = 3, d.pad_bottom = 1, d.pad_left = 0, d.pad_right = 4;
  v.push_back(d);
  Conv2dDesc e = conv_desc(3, 6, 5, 16, 6, 1, 3, 1, 0, 6, l, l);  // 1x3, stride 2 along W only
  e.stride_w = 2, e.pad_left = 1;
  v.push_back(e);
  // Stride 1, W a multiple of every WPT (the NCHW window's middle as a pack),
  // OH = 7 not a multiple of RPT; then a left pad of FS - 1 and none on the
  // right (the pack's place in the window at its far end).
  v.push_back(conv_desc(2, 3, 7, 16, 3, 3, 3, 1, 1, 3, l, l));
  Conv2dDesc f = conv_desc(1, 4, 6, 8, 4, 3, 3, 1, 0, 4, l, l);
  f.pad_left = 2, f.pad_top = 2, f.pad_bottom = 1;
  v.push_back(f);
  return v;
}

TEST(Conv, DepthwiseNchwEveryWorkPerItem) {
  for (const Conv2dDesc& d : depthwise_descs(NCHW))
    // Every WPT and every RPT, not every pairing (a program each: PoCL
    // takes a second or more per program).
    // IDX64 (the index divided in 64 bits, for grids past 2^32 work-items)
    // with one of them.
    for (const auto& [wpt, rpt] : {std::pair<std::int64_t, std::int64_t>{1, 4}, {2, 1}, {4, 4}, {8, 2}, {4, 8}}) {
      ConvCase c;
      c.desc = d;
      const ConvForce f = conv_force("depthwise", "conv_depthwise",
                                     {{"WPT", wpt}, {"RPT", rpt}, {"WGS", 64}, {"VW", 1}, {"PPT", 1}, {"IDX64", wpt == 8}, {"FILL", 0}});
      EXPECT_TRUE(ref::check_conv(c, &f)) << "WPT " << wpt << " RPT " << rpt;
    }
}

TEST(Conv, DepthwiseNhwcEveryPack) {
  for (const Conv2dDesc& d : depthwise_descs(NHWC))
    for (const auto& [vw, ppt, rpt] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{1, 4, 2},
                                        {2, 1, 1}, {4, 8, 4}, {4, 1, 1}, {2, 2, 8}}) {
      ConvCase c;
      c.desc = d;
      const ConvForce f = conv_force("depthwise", "conv_depthwise",
                                     {{"VW", vw}, {"PPT", ppt}, {"RPT", rpt}, {"WGS", 32}, {"WPT", 1}, {"IDX64", vw == 4 && ppt == 1}, {"FILL", 0}});
      EXPECT_TRUE(ref::check_conv(c, &f)) << "VW " << vw << " PPT " << ppt << " RPT " << rpt;
    }
}

// HALF (NHWC f16, half arithmetic): sums in half2 pairs of channels, with
// every pack width, the tall rolled tiles, strides (no window), edges and
// the epilogue, checked against conv.hpp's f16-sum bound; fit takes it only
// where it applies (a device with half arithmetic, Accumulate::Default,
// VW even, NHWC) and check refuses it elsewhere.
TEST(Conv, DepthwiseHalfSums) {
  const auto& fam = detail::families::conv_depthwise();
  const Capabilities caps = test::device().caps();
  const auto f16 = [](const Conv2dDesc& d, Accumulate a = Accumulate::Default) {
    detail::ConvProblem pr = problem_of(d);
    pr.dtype = DType::F16;
    pr.half_arith = a == Accumulate::Default;
    return pr;
  };
  const detail::Params half{{"HALF", 1}, {"VW", 4}, {"PPT", 2}, {"RPT", 4}, {"WGS", 32}, {"WPT", 1}, {"FILL", 0}};
  const Conv2dDesc nhwc = conv_desc(2, 8, 7, 9, 8, 3, 3, 1, 1, 8, NHWC, NHWC);
  if (!caps.fp16) {
    EXPECT_NE(fam.check(fam.complete(half, caps), caps, f16(nhwc)), "");
    EXPECT_EQ(fam.fit(half, caps, f16(nhwc)).at("HALF"), 0);
    GTEST_SKIP() << "the device has no half arithmetic";
  }
  EXPECT_EQ(fam.check(fam.complete(half, caps), caps, f16(nhwc)), "");
  EXPECT_EQ(fam.fit(half, caps, f16(nhwc)).at("HALF"), 1);
  // Not with f32 sums asked for (the rest of the set still serves: check
  // accepts it, fit drops HALF), f32 data, NCHW or an odd VW.
  EXPECT_EQ(fam.check(fam.complete(half, caps), caps, f16(nhwc, Accumulate::F32)), "");
  EXPECT_EQ(fam.fit(half, caps, f16(nhwc, Accumulate::F32)).at("HALF"), 0);
  EXPECT_NE(fam.check(fam.complete(half, caps), caps, problem_of(nhwc)), "");
  const Conv2dDesc nchw = conv_desc(2, 8, 7, 9, 8, 3, 3, 1, 1, 8, NCHW, NCHW);
  EXPECT_NE(fam.check(fam.complete(half, caps), caps, f16(nchw)), "");
  EXPECT_EQ(fam.fit(half, caps, f16(nchw)).at("HALF"), 0);
  detail::Params odd = half;
  odd["VW"] = 1;
  EXPECT_NE(fam.check(fam.complete(odd, caps), caps, f16(nhwc)), "");
  // C 6 lets VW 4 fall to 2 in fit: still pairs.
  EXPECT_EQ(fam.fit(half, caps, f16(conv_desc(1, 6, 5, 5, 6, 3, 3, 1, 1, 6, NHWC, NHWC))).at("HALF"), 1);

  std::vector<std::pair<Conv2dDesc, detail::Params>> runs;
  Conv2dDesc tall = conv_desc(2, 8, 7, 16, 8, 3, 3, 1, 1, 8, NHWC, NHWC);
  tall.pad_top = 2, tall.pad_bottom = 0;
  runs.push_back({tall, {{"VW", 4}, {"PPT", 4}, {"RPT", 8}, {"ROLL", 1}}});
  runs.push_back({conv_desc(1, 16, 9, 11, 16, 3, 3, 1, 1, 16, NHWC, NHWC), {{"VW", 8}, {"PPT", 2}, {"RPT", 2}}});
  runs.push_back({conv_desc(1, 32, 6, 7, 32, 3, 3, 1, 1, 32, NHWC, NHWC), {{"VW", 16}, {"PPT", 1}, {"RPT", 4}}});
  runs.push_back({conv_desc(2, 6, 10, 9, 6, 3, 3, 2, 1, 6, NHWC, NHWC), {{"VW", 2}, {"PPT", 2}, {"RPT", 2}}});
  runs.push_back({conv_desc(1, 4, 9, 20, 4, 5, 5, 1, 2, 4, NHWC, NHWC), {{"VW", 4}, {"PPT", 8}, {"RPT", 4}, {"ROLL", 1}}});
  Conv2dDesc dil = conv_desc(1, 8, 11, 10, 8, 3, 3, 1, 0, 8, NHWC, NHWC);
  dil.dilation_h = 2, dil.pad_top = 2, dil.pad_left = 1, dil.pad_right = 3;
  runs.push_back({dil, {{"VW", 4}, {"PPT", 1}, {"RPT", 2}}});
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto& [d, p] = runs[i];
    p["HALF"] = 1, p["WGS"] = 32, p["WPT"] = 1, p["FILL"] = 0;
    ASSERT_EQ(fam.fit(p, caps, f16(d)).at("HALF"), 1) << "run " << i;
    ConvCase c;
    c.desc = d;
    c.dtype = DType::F16;
    c.bias = true;
    c.residual = i % 2 == 1;
    c.activation = i % 3 == 2 ? Unary::Relu6 : Unary::Copy;
    const ConvForce f = conv_force("depthwise", "conv_depthwise", p);
    EXPECT_TRUE(ref::check_conv(c, &f)) << "run " << i;
    // The same parameters with f32 sums asked for: the f32 bound holds.
    c.accumulate = Accumulate::F32;
    EXPECT_TRUE(ref::check_conv(c, &f)) << "run " << i << ", accumulate f32";
  }
}

// ROLL (the windows: dilation 1, strides 1 and 2): each output row stored
// once its last input row is in. Tall tiles (RPT 16 past OH; RPT 4 against
// OH 7), pads that put the first or last input rows outside the input (their
// rows' stores must still happen), NCHW with and without the local staging,
// NHWC with packs, strides of 2, the epilogue with a residual; and where it
// changes nothing (stride 3; one row per work-item) fit drops it.
TEST(Conv, DepthwiseRolledRows) {
  std::vector<std::pair<Conv2dDesc, detail::Params>> runs;
  for (const ConvLayout l : {NCHW, NHWC}) {
    const bool nchw = l == NCHW;
    Conv2dDesc d = conv_desc(2, 4, 7, 16, 4, 3, 3, 1, 1, 4, l, l);
    d.pad_top = 2, d.pad_bottom = 0;
    runs.push_back({d, {{"RPT", 16}}});
    runs.push_back({conv_desc(1, 4, 9, 20, 4, 5, 5, 1, 2, 4, l, l), {{"RPT", 4}}});
    runs.push_back({conv_desc(2, 8, 7, 16, 8, 3, 3, 1, 1, 8, l, l), {{"RPT", 4}, {"LOC", nchw ? 1 : 0}}});
    // Strides 2 (the windows step two inputs per output; a row is done
    // after input row 2 j + FR - 1) and 2 along H only, with a 5 x 5.
    runs.push_back({conv_desc(2, 4, 13, 17, 4, 3, 3, 2, 1, 4, l, l), {{"RPT", 4}}});
    Conv2dDesc s21 = conv_desc(1, 4, 14, 9, 4, 5, 5, 1, 2, 4, l, l);
    s21.stride_h = 2, s21.pad_top = 1, s21.pad_bottom = 3;
    runs.push_back({s21, {{"RPT", 8}}});
    for (auto& [desc, p] : runs)
      if (desc.input_layout == l) {
        p["ROLL"] = 1, p["WGS"] = 32, p["FILL"] = 0;
        p["WPT"] = nchw ? 4 : 1, p["VW"] = nchw ? 1 : 4, p["PPT"] = nchw ? 1 : 2;
      }
  }
  const auto& fam = detail::families::conv_depthwise();
  const Capabilities caps = test::device().caps();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& [d, p] = runs[i];
    const detail::ConvProblem pr = problem_of(d);
    const detail::Params fitted = fam.fit(p, caps, pr);
    ASSERT_EQ(fitted.at("ROLL"), 1) << "run " << i;
    ASSERT_EQ(fam.check(fitted, caps, pr), "") << "run " << i;
    ConvCase c;
    c.desc = d;
    c.bias = true;
    c.residual = i % 2 == 1;
    const ConvForce f = conv_force("depthwise", "conv_depthwise", p);
    EXPECT_TRUE(ref::check_conv(c, &f)) << "run " << i;
  }
  // A layer without windows (stride 3) takes the set without ROLL (check
  // accepts it: a stored entry serves every layer of its bucket); one row
  // per work-item is refused (no layer gains), and fit drops it where FILL
  // leaves one row.
  detail::Params rolled{{"ROLL", 1}, {"RPT", 4}, {"FILL", 0}};
  const detail::ConvProblem strided = problem_of(conv_desc(1, 4, 9, 20, 4, 3, 3, 3, 1, 4, NCHW, NCHW));
  EXPECT_EQ(fam.check(fam.complete(rolled, caps), caps, strided), "");
  EXPECT_EQ(fam.fit(rolled, caps, strided).at("ROLL"), 0);
  rolled["RPT"] = 1;
  const detail::ConvProblem unit = problem_of(conv_desc(1, 4, 9, 20, 4, 3, 3, 1, 1, 4, NCHW, NCHW));
  EXPECT_NE(fam.check(fam.complete(rolled, caps), caps, unit), "");
  EXPECT_EQ(fam.fit(rolled, caps, unit).at("ROLL"), 0);
}

// LOC (NCHW, stride 1): rows staged in local memory, with groups that end
// in the middle of a row (W 96 / WPT 4 = 24 work-items per row against
// groups of 32: the first and last work-items of a group load their edges),
// every left pad up to FS - 1, a 5 x 5 filter whose edges fill a
// neighbour's whole pack (WPT 2), and layers it does not apply to (stride
// 2; W not a multiple of WPT).
TEST(Conv, DepthwiseLocalStaging) {
  std::vector<std::tuple<Conv2dDesc, detail::Params, bool>> runs;
  for (std::int64_t pl : {0, 1, 2}) {
    Conv2dDesc d = conv_desc(2, 3, 7, 96, 3, 3, 3, 1, 1, 3, NCHW, NCHW);
    d.pad_left = pl, d.pad_right = 2 - pl;
    runs.push_back({d, {{"WPT", 4}, {"RPT", pl == 1 ? 4 : 2}}, true});
  }
  runs.push_back({conv_desc(1, 2, 9, 20, 2, 5, 5, 1, 2, 2, NCHW, NCHW), {{"WPT", 2}, {"RPT", 8}}, true});
  runs.push_back({conv_desc(1, 4, 10, 16, 4, 3, 3, 2, 1, 4, NCHW, NCHW), {{"WPT", 4}, {"RPT", 2}}, false});
  runs.push_back({conv_desc(1, 2, 6, 18, 2, 3, 3, 1, 1, 2, NCHW, NCHW), {{"WPT", 4}, {"RPT", 2}}, false});
  const auto& fam = detail::families::conv_depthwise();
  const Capabilities caps = test::device().caps();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto& [d, p, applies] = runs[i];
    p["WGS"] = 32, p["FILL"] = 0, p["LOC"] = 1, p["VW"] = 1, p["PPT"] = 1;
    detail::ConvProblem pr = problem_of(d);
    const detail::Params fitted = fam.fit(p, caps, pr);
    EXPECT_EQ(fitted.at("STAGE"), applies ? 1 : 0) << "run " << i;
    EXPECT_EQ(fitted.at("LOC"), fitted.at("STAGE")) << "run " << i;  // what runs
    // A layer it does not apply to still takes the rest of the set (a
    // stored entry serves every layer of its bucket): fit drops the staging.
    EXPECT_EQ(fam.check(fam.complete(p, caps), caps, pr), "") << "run " << i;
    // Whatever fit returns passes check (an NHWC layer or WPT 1: LOC goes).
    EXPECT_EQ(fam.check(fitted, caps, pr), "") << "run " << i;
    detail::ConvProblem nhwc = pr;
    nhwc.in_nhwc = nhwc.out_nhwc = true;
    EXPECT_EQ(fam.check(fam.fit(p, caps, nhwc), caps, nhwc), "") << "run " << i;
    detail::Params one = p;
    one["WPT"] = 1;
    EXPECT_EQ(fam.check(fam.fit(one, caps, pr), caps, pr), "") << "run " << i;
    ConvCase c;
    c.desc = d;
    c.bias = i % 2 == 0;
    const ConvForce f = conv_force("depthwise", "conv_depthwise", p);
    EXPECT_TRUE(ref::check_conv(c, &f)) << "run " << i;
  }
}

// fit's FILL on an H200's CUDA capabilities (132 compute units): a small
// layer (MobileNetV2 b1's 192 channels at 28 x 28, stride 2) takes fewer
// rows, then pixels, per work-item than the large layer's entry until the
// grid holds FILL work-items per compute unit or none are left to give; the
// large layer keeps the entry; FILL 0 and CPUs (default 0) keep it always.
TEST(Conv, DepthwiseFillsTheDevice) {
  const auto& fam = detail::families::conv_depthwise();
  Capabilities h200 = test::nvidia_caps(Backend::CUDA, 90);
  h200.compute_units = 132;
  const detail::Params entry{{"VW", 4}, {"PPT", 8}, {"RPT", 2}, {"WGS", 128}};
  const auto fit = [&](const detail::Params& p, const Conv2dDesc& d) {
    detail::ConvProblem pr = problem_of(d);
    pr.dtype = DType::F16;
    return fam.fit(p, h200, pr);
  };
  const Conv2dDesc small = conv_desc(1, 192, 28, 28, 192, 3, 3, 2, 1, 192, NHWC, NHWC);
  const Conv2dDesc large = conv_desc(8, 256, 112, 112, 256, 3, 3, 1, 1, 256, NHWC, NHWC);
  EXPECT_EQ(fit(entry, small).at("RPT"), 1);
  EXPECT_EQ(fit(entry, small).at("PPT"), 1);  // 14 x 14 x 48 work-items: still under, none left to give
  EXPECT_EQ(fit(entry, large).at("RPT"), 2);
  EXPECT_EQ(fit(entry, large).at("PPT"), 8);
  EXPECT_EQ(fit(entry, conv_desc(8, 96, 112, 112, 96, 3, 3, 2, 1, 96, NHWC, NHWC)).at("PPT"), 4);  // 37632, at one row 75264
  detail::Params fixed = entry;
  fixed["FILL"] = 0;
  EXPECT_EQ(fit(fixed, small).at("RPT"), 2);
  EXPECT_EQ(fit(fixed, small).at("PPT"), 8);
  // FILL is back at its default once fit has used it; check refuses another
  // value where it changes nothing (so a tuner's large example keeps the default).
  EXPECT_EQ(fit(fixed, small).at("FILL"), fam.defaults(h200).at("FILL"));
  detail::Params fill256 = fam.complete(entry, h200);
  fill256["FILL"] = 256;
  for (const auto& [d, changes] : {std::pair{large, false}, std::pair{small, true}}) {
    detail::ConvProblem pr = problem_of(d);
    pr.dtype = DType::F16;
    EXPECT_EQ(fam.check(fill256, h200, pr).empty(), changes);
  }
  const Conv2dDesc nchw = conv_desc(1, 192, 28, 28, 192, 3, 3, 2, 1, 192);
  EXPECT_EQ(fit({{"WPT", 4}, {"RPT", 8}}, nchw).at("RPT"), 1);  // NCHW: rows only
  EXPECT_EQ(fit({{"WPT", 4}, {"RPT", 8}}, nchw).at("WPT"), 4);
  Capabilities cpu = h200;
  cpu.type = DeviceType::CPU;
  EXPECT_EQ(fam.defaults(cpu).at("FILL"), 0);
}

// A depthwise case of C channels with bias and residual in type t and layout
// l: 4-d tensors at offset 0, else rank-1 views at the offset; the residual
// is the output itself at in_place_offset, and the activation silu at
// silu_offset (relu6 elsewhere).
ConvCase depthwise_epilogue_case(DType t, ConvLayout l, std::int64_t ch, std::size_t offset,
                                 std::size_t in_place_offset, std::size_t silu_offset) {
  ConvCase c;
  c.dtype = t;
  c.desc = conv_desc(2, ch, 7, 8, ch, 3, 3, 1, 1, ch, l, l);
  c.bias = true;
  c.residual = true;
  c.residual_in_place = offset == in_place_offset;
  c.activation = offset == silu_offset ? Unary::Silu : Unary::Relu6;
  c.offset = offset;
  c.rank4 = offset == 0;
  return c;
}

TEST(Conv, DepthwiseEpilogueTypesAndOffsets) {
  // The default parameters: the packs shrink to what the offsets allow.
  const ConvForce f = conv_force("depthwise");
  for (DType t : {DType::F32, DType::F16, DType::BF16})
    for (ConvLayout l : {NCHW, NHWC})
      for (std::size_t offset : {0, 1, 4})
        EXPECT_TRUE(ref::check_conv(depthwise_epilogue_case(t, l, 8, offset, 4, 1), &f));
}

std::string families_bucket(const detail::ConvProblem& pr) { return detail::families::conv_routine().bucket(pr); }


// The image candidate needs a device with images (PoCL and oclgrind have
// them; the CUDA back end has none).
bool has_images() { return test::device().caps().images; }

// Every layout pair (the image kernel reads either input layout through the
// image and stores either output layout), every stride, dilation and pad
// case of the buffer kernel's tests, channel counts that leave a partial
// block of 4, and every WPT.
TEST(Conv, DepthwiseImageEveryLayoutAndWorkPerItem) {
  if (!has_images()) GTEST_SKIP() << "the device has no images";
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC}) {
      std::vector<Conv2dDesc> descs = depthwise_descs(in);
      descs.push_back(conv_desc(2, 5, 6, 7, 5, 3, 3, 1, 1, 5, in, in));  // one block of 4 and one of 1
      // Each layout pair meets every WPT, not every pairing of them (a
      // program each: PoCL takes a second or more per program).
      for (std::size_t i = 0; i < descs.size(); ++i) {
        descs[i].output_layout = out;
        const std::int64_t wpt = std::int64_t(1) << ((i + (in == NHWC) + 2 * (out == NHWC)) % 4);
        ConvCase c;
        c.desc = descs[i];
        const ConvForce f = conv_force("depthwise_image", "conv_depthwise_image", {{"WPT", wpt}, {"WGS", 32}});
        EXPECT_TRUE(ref::check_conv(c, &f)) << "WPT " << wpt;
      }
    }
}

TEST(Conv, DepthwiseImageEpilogueTypesAndOffsets) {
  if (!has_images()) GTEST_SKIP() << "the device has no images";
  const ConvForce f = conv_force("depthwise_image");
  for (DType t : {DType::F32, DType::F16, DType::BF16})
    for (ConvLayout l : {NCHW, NHWC})
      for (std::size_t offset : {0, 3})
        EXPECT_TRUE(ref::check_conv(depthwise_epilogue_case(t, l, 7, offset, 3, 3), &f));
}

// Past the image limits (lowered by the test's scope): tiles of channel
// blocks and images, partial ones at the ends; where one image's W or H
// alone exceeds a limit the candidate does not apply and the routine's
// KERNEL = 5 falls back to the buffer kernel, never the host.
TEST(Conv, DepthwiseImageTilesPastTheLimits) {
  if (!has_images()) GTEST_SKIP() << "the device has no images";
  for (ConvLayout l : {NCHW, NHWC}) {
    const Conv2dDesc d = conv_desc(3, 10, 7, 9, 10, 3, 3, 1, 1, 10, l, l);  // 3 blocks of W 9, 3 images of H 7
    for (auto [w, h] : {std::pair<std::size_t, std::size_t>{20, 15}, {9, 7}, {27, 14}}) {
      const detail::ConvImageLimitScope limit(w, h);
      ConvCase c;
      c.desc = d;
      c.bias = true;
      c.residual = true;
      c.activation = Unary::Relu;
      const ConvForce f = conv_force("depthwise_image", "conv_depthwise_image", {{"WPT", 2}, {"WGS", 64}});
      EXPECT_TRUE(ref::check_conv(c, &f)) << "limit " << w << " x " << h;
    }
    const Queue& q = test::queue();
    detail::ConvForce routine;
    routine.params["conv_routine"] = {{"KERNEL", 5}};
    EXPECT_EQ(detail::choose_conv(q, problem_of(d), &routine).candidate->name(), "depthwise_image");
    for (auto [w, h] : {std::pair<std::size_t, std::size_t>{8, 100}, {100, 6}}) {
      const detail::ConvImageLimitScope limit(w, h);
      EXPECT_NE(detail::conv_candidate("depthwise_image").applies(problem_of(d), q.device().caps()), "");
      EXPECT_EQ(detail::choose_conv(q, problem_of(d), &routine).candidate->name(), "depthwise");
      ConvCase c;
      c.desc = d;
      EXPECT_TRUE(ref::check_conv(c, &routine));
      const ConvForce f = conv_force("depthwise_image");
      const auto r = ref::check_conv(c, &f);
      EXPECT_FALSE(r);
      EXPECT_NE(std::string(r.message()).find("image limits"), std::string::npos) << r.message();
    }
  }
}

// GEMM's direct kernel with its default parameters, not shrunk per product
// size: one GEMM program per type and activation (PoCL spends seconds on
// each), however many shapes a test runs. The routine test below lets GEMM
// choose.
struct PinnedGemm {
  detail::GemmForce f{"direct", {{"gemm_direct", {}}}};
  detail::GemmForceScope scope{f};
};

// Every GEMM-based case below uses leaky_relu (0.2): bias and residual are
// runtime flags, the activation is compiled in, so f32, f16 and bf16 make
// three GEMM programs in all.
ConvCase gemm_case(const Conv2dDesc& d, DType t = DType::F32) {
  ConvCase c;
  c.desc = d;
  c.dtype = t;
  c.activation = Unary::LeakyRelu;
  c.activation_params.alpha = 0.2;
  return c;
}

TEST(Conv, PointwiseAsGemm) {
  const PinnedGemm pinned;
  const ConvForce f = conv_force("pointwise");
  for (ConvLayout l : {NCHW, NHWC}) {
    ConvCase c = gemm_case(conv_desc(2, 13, 5, 7, 9, 1, 1, 1, 0, 1, l, l));
    EXPECT_TRUE(ref::check_conv(c, &f));
    c.bias = true;
    c.offset = 2;
    EXPECT_TRUE(ref::check_conv(c, &f));
    c.residual = true;
    EXPECT_TRUE(ref::check_conv(c, &f));
    c.residual_in_place = true;
    c.rank4 = true;
    EXPECT_TRUE(ref::check_conv(c, &f));
    for (DType t : {DType::F16, DType::BF16}) {
      c.dtype = t;
      c.residual_in_place = t == DType::BF16;
      EXPECT_TRUE(ref::check_conv(c, &f));
    }
  }
}

// Any layouts and groups (a product per group): the patch matrix in one
// chunk, then one image per chunk (CHUNK_KIB = 1), with the epilogue and in
// every storage type.
TEST(Conv, Im2colThenGemm) {
  const PinnedGemm pinned;
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC})
      for (const Conv2dDesc& d : general_descs(in, out)) {
        if (d.groups == d.in_channels) continue;  // depthwise-shaped: not im2col's
        for (std::int64_t chunk : {262144, 1}) {
          ConvCase c = gemm_case(d);
          c.bias = chunk == 1;
          c.residual = chunk == 1 && in == out;
          const ConvForce f = conv_force("im2col", "conv_im2col", {{"CHUNK_KIB", chunk}});
          EXPECT_TRUE(ref::check_conv(c, &f)) << "CHUNK_KIB " << chunk;
        }
      }
  for (DType t : {DType::F16, DType::BF16}) {
    ConvCase c = gemm_case(conv_desc(3, 6, 6, 7, 4, 3, 3, 1, 1, 2, NHWC, NCHW), t);
    c.bias = true;
    c.residual = true;
    c.offset = 1;
    const ConvForce f = conv_force("im2col", "conv_im2col", {{"CHUNK_KIB", 1}});
    EXPECT_TRUE(ref::check_conv(c, &f));
  }
}

// Winograd F(2x2, 3x3) against the reference with its wider bound
// (ConvCase::winograd, reference/conv_check.hpp): odd output sizes (a
// partial 2 x 2 tile), asymmetric and no pads, every layout pair, the whole
// batch in one chunk and one image per chunk (CHUNK_KIB = 1), the epilogue,
// f16 and bf16 storage.
TEST(Conv, WinogradEveryLayoutAndPad) {
  const PinnedGemm pinned;
  std::vector<Conv2dDesc> descs;
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC}) {
      descs.push_back(conv_desc(2, 3, 7, 9, 5, 3, 3, 1, 1, 1, in, out));  // OH 7, OW 9: partial tiles
      descs.push_back(conv_desc(3, 6, 6, 8, 4, 3, 3, 1, 0, 1, in, out));  // no pad, even outputs
      Conv2dDesc d = conv_desc(1, 5, 5, 6, 7, 3, 3, 1, 0, 1, in, out);     // asymmetric pads
      d.pad_top = 2, d.pad_bottom = 0, d.pad_left = 0, d.pad_right = 3;
      descs.push_back(d);
    }
  for (std::size_t i = 0; i < descs.size(); ++i) {
    const bool one_image = i % 2;
    ConvCase c;
    c.desc = descs[i];
    c.winograd = true;
    c.bias = one_image;
    c.residual = one_image && descs[i].input_layout == descs[i].output_layout;
    c.activation = one_image ? Unary::Relu : Unary::Copy;
    c.offset = i % 3;
    const ConvForce f = conv_force("winograd", "conv_winograd", {{"CHUNK_KIB", one_image ? 1 : 262144}, {"WGS", 64}});
    EXPECT_TRUE(ref::check_conv(c, &f)) << i;
  }
  for (DType t : {DType::F16, DType::BF16}) {
    ConvCase c;
    c.dtype = t;
    c.desc = conv_desc(2, 8, 5, 7, 6, 3, 3, 1, 1, 1, NHWC, NCHW);
    c.winograd = true;
    c.bias = true;
    c.residual = true;
    c.activation = Unary::Silu;
    c.offset = 1;
    const ConvForce f = conv_force("winograd", "conv_winograd", {{"WT", 2}});  // F(2x2)'s bound
    EXPECT_TRUE(ref::check_conv(c, &f));
  }
  // Many channels: the transforms' rounding against the bound's C term.
  ConvCase c;
  c.desc = conv_desc(1, 64, 6, 6, 8, 3, 3, 1, 1, 1);
  c.winograd = true;
  const ConvForce f = conv_force("winograd", "conv_winograd", {{"WT", 2}});  // F(2x2)'s bound
  EXPECT_TRUE(ref::check_conv(c, &f));
}

// Winograd's product on GEMM's thin kernel, forced, with either side thin:
// 9 tiles (U streamed along K: stored C x K) and 16 output channels (V
// streamed along the tiles).
TEST(Conv, WinogradOnThinGemm) {
  const detail::GemmForce thin{"thin", {}};
  const detail::GemmForceScope scope(thin);
  for (const Conv2dDesc& d : {conv_desc(1, 40, 6, 5, 72, 3, 3, 1, 1), conv_desc(2, 24, 11, 12, 16, 3, 3, 1, 1, 1,
                                                                                NHWC, NHWC)}) {
    ConvCase c;
    c.desc = d;
    c.winograd = true;
    c.bias = true;
    const ConvForce f = conv_force("winograd", "conv_winograd", {{"WT", 2}});  // F(2x2)'s bound
    EXPECT_TRUE(ref::check_conv(c, &f));
  }
}

TEST(Conv, RoutineChoosesAnApplicableCandidate) {
  std::vector<ConvCase> cases;
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC}) {
      for (const Conv2dDesc& d : {conv_desc(1, 6, 6, 5, 6, 3, 3, 1, 1, 6, in, out),
                                  conv_desc(2, 5, 4, 6, 3, 1, 1, 1, 0, 1, in, out),
                                  conv_desc(1, 4, 6, 6, 4, 1, 1, 2, 0, 2, in, out)}) {
        ConvCase c;
        c.desc = d;
        c.bias = true;
        c.residual = true;
        c.activation = Unary::Relu;
        cases.push_back(c);
      }
    }
  for (const ConvCase& c : cases) EXPECT_TRUE(ref::check_conv(c));
}

// The default order (conv_routine KERNEL = 0, forced here so that no
// database entry decides) passes over GEMM products whose thin side (at
// most 16 output channels per group) meets a pixel-major operand: GEMM's
// thin kernel runs a work-group row per pixel there (PoCL: MobileNetV2's
// 1 x 1 32 -> 16 at 112 x 112 NHWC took 2.7 s); the implicit GEMM, which
// comes before im2col and takes every descriptor but depthwise ones, runs
// them. A KERNEL that names a candidate still runs it.
TEST(Conv, DefaultOrderPassesOverThinPixelMajorGemm) {
  const Queue& q = test::queue();
  const auto chosen = [&](const Conv2dDesc& d, std::int64_t kernel = 0) {
    detail::ConvForce f;
    f.params["conv_routine"] = {{"KERNEL", kernel}};
    return detail::choose_conv(q, problem_of(d), &f).candidate->name();
  };
  const auto passed_over = [](const char* candidate, const Conv2dDesc& d) {
    return detail::conv_candidate(candidate).passed_over(problem_of(d), test::device().caps());
  };
  EXPECT_EQ(chosen(conv_desc(1, 32, 112, 112, 16, 1, 1, 1, 0, 1, NHWC, NHWC)), "implicit");
  EXPECT_EQ(chosen(conv_desc(1, 32, 112, 112, 16, 1, 1, 1, 0, 1, NCHW, NCHW)), "pointwise");  // channel-major
  EXPECT_EQ(chosen(conv_desc(1, 32, 112, 112, 17, 1, 1, 1, 0, 1, NHWC, NHWC)), "pointwise");  // not thin
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 16, 3, 3, 2, 1, 1, NHWC, NHWC)), "implicit");
  EXPECT_NE(passed_over("im2col", conv_desc(1, 32, 14, 14, 16, 3, 3, 2, 1, 1, NHWC, NHWC)), "");  // its patches
  EXPECT_NE(passed_over("im2col", conv_desc(1, 32, 14, 14, 16, 3, 3, 2, 1, 1, NCHW, NCHW)), "");
  EXPECT_EQ(passed_over("im2col", conv_desc(1, 32, 14, 14, 32, 3, 3, 2, 1, 1, NCHW, NCHW)), "");
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 32, 3, 3, 2, 1, 1, NCHW, NCHW)), "implicit");
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 32, 3, 3, 2, 1, 1, NCHW, NCHW), 4), "im2col");
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 32, 3, 3, 2, 1, 1, NCHW, NCHW), 1), "direct");
  // 3 x 3 stride 1 goes to the fused Winograd first on GPUs (CPUs pass it
  // over); the unfused one is not passed over either: its V is
  // channel-major (C x tiles), which thin GEMM reads K x N.
  const char* wino = test::device().caps().type == DeviceType::CPU ? "winograd" : "winograd_fused";
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 16, 3, 3, 1, 1, 1, NHWC, NHWC)), wino);
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 32, 3, 3, 1, 1, 1, NCHW, NHWC)), wino);
  EXPECT_EQ(passed_over("winograd", conv_desc(1, 32, 14, 14, 16, 3, 3, 1, 1, 1, NHWC, NHWC)), "");
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 16, 3, 3, 1, 1, 1, NHWC, NHWC), 6), "winograd");
  EXPECT_EQ(chosen(conv_desc(1, 32, 14, 14, 32, 3, 3, 1, 1, 1, NCHW, NHWC), 7), "implicit");
  EXPECT_EQ(chosen(conv_desc(1, 64, 14, 14, 64, 3, 3, 1, 1, 2, NHWC, NHWC)), "implicit");    // 32 per group
  EXPECT_EQ(chosen(conv_desc(1, 64, 14, 14, 32, 1, 1, 1, 0, 2, NCHW, NCHW)), "implicit");    // 16 per group
  EXPECT_EQ(chosen(conv_desc(1, 32, 112, 112, 16, 1, 1, 1, 0, 1, NHWC, NHWC), 3), "pointwise");
  // Depthwise shapes are the depthwise kernels' (implicit: one column per group).
  EXPECT_NE(passed_over("implicit", conv_desc(1, 8, 9, 9, 8, 3, 3, 1, 1, 8, NCHW, NHWC)), "");
  EXPECT_EQ(passed_over("implicit", conv_desc(1, 8, 9, 9, 16, 3, 3, 1, 1, 8, NCHW, NHWC)), "");  // multiplier 2
  // 16-bit storage passes Winograd (an f32 GEMM) over for the implicit GEMM.
  detail::ConvForce routine;
  routine.params["conv_routine"] = {{"KERNEL", 0}};
  detail::ConvProblem half3x3 = problem_of(conv_desc(1, 32, 14, 14, 32, 3, 3, 1, 1, 1, NHWC, NHWC));
  half3x3.dtype = DType::F16;
  EXPECT_EQ(detail::choose_conv(q, half3x3, &routine).candidate->name(), "implicit");
  half3x3.dtype = DType::BF16;
  EXPECT_EQ(detail::choose_conv(q, half3x3, &routine).candidate->name(), "implicit");
  EXPECT_NE(passed_over("pointwise", conv_desc(1, 32, 9, 9, 16, 1, 1, 1, 0, 1, NHWC, NHWC)), "");
  EXPECT_EQ(families_bucket(problem_of(conv_desc(1, 32, 9, 9, 16, 1, 1, 1, 0, 1, NHWC, NHWC))), "pointwise_thin");
  EXPECT_EQ(families_bucket(problem_of(conv_desc(1, 32, 9, 9, 17, 1, 1, 1, 0, 1, NHWC, NHWC))), "pointwise");
}

TEST(Conv, CandidatesApplyAsDocumented) {
  const Capabilities& caps = test::device().caps();
  const auto problem = problem_of;
  const auto& pw = detail::conv_candidate("pointwise");
  const auto& dw = detail::conv_candidate("depthwise");
  const auto& direct = detail::conv_candidate("direct");
  EXPECT_EQ(pw.applies(problem(conv_desc(1, 4, 5, 5, 3, 1, 1)), caps), "");
  EXPECT_NE(pw.applies(problem(conv_desc(1, 4, 5, 5, 3, 1, 1, 2)), caps), "");         // stride 2
  EXPECT_NE(pw.applies(problem(conv_desc(1, 4, 5, 5, 4, 1, 1, 1, 0, 2)), caps), "");   // grouped
  EXPECT_NE(pw.applies(problem(conv_desc(1, 4, 5, 5, 3, 1, 1, 1, 0, 1, NCHW, NHWC)), caps), "");
  EXPECT_EQ(dw.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 4)), caps), "");
  EXPECT_NE(dw.applies(problem(conv_desc(1, 4, 5, 5, 8, 3, 3, 1, 1, 4)), caps), "");   // channel multiplier 2
  EXPECT_NE(dw.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 2)), caps), "");
  EXPECT_EQ(direct.applies(problem(conv_desc(1, 4, 5, 5, 8, 3, 3, 1, 1, 4, NHWC, NCHW)), caps), "");
  // The implicit GEMM takes every descriptor, as direct does.
  const auto& implicit = detail::conv_candidate("implicit");
  EXPECT_EQ(implicit.applies(problem(conv_desc(1, 4, 5, 5, 8, 3, 3, 1, 1, 4, NHWC, NCHW)), caps), "");
  EXPECT_EQ(implicit.applies(problem(conv_desc(1, 66, 5, 5, 66, 3, 3, 1, 1, 33)), caps), "");
  // A forced candidate that does not apply is an error, not a fallback.
  const ConvForce f = conv_force("pointwise");
  ConvCase c;
  c.desc = conv_desc(1, 4, 5, 5, 3, 3, 3);
  const auto r = ref::check_conv(c, &f);
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("does not apply"), std::string::npos) << r.message();
  const auto& im2col = detail::conv_candidate("im2col");
  EXPECT_EQ(im2col.applies(problem(conv_desc(1, 4, 5, 5, 3, 3, 3, 2, 1, 1, NHWC, NCHW)), caps), "");
  EXPECT_EQ(im2col.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 2)), caps), "");  // grouped
  EXPECT_NE(im2col.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 4)), caps), "");  // depthwise
  EXPECT_EQ(im2col.applies(problem(conv_desc(1, 4, 5, 5, 8, 3, 3, 1, 1, 4)), caps), "");  // channel multiplier 2
  EXPECT_EQ(im2col.applies(problem(conv_desc(1, 64, 5, 5, 64, 3, 3, 1, 1, 32)), caps), "");  // 32 groups
  EXPECT_NE(im2col.applies(problem(conv_desc(1, 66, 5, 5, 66, 3, 3, 1, 1, 33)), caps), "");  // 33: direct's
  const auto& wino = detail::conv_candidate("winograd");
  EXPECT_EQ(wino.applies(problem(conv_desc(1, 4, 5, 5, 3, 3, 3, 1, 1, 1, NHWC, NCHW)), caps), "");
  EXPECT_NE(wino.applies(problem(conv_desc(1, 4, 5, 5, 3, 3, 3, 2, 1)), caps), "");        // stride 2
  EXPECT_NE(wino.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 2)), caps), "");     // grouped
  EXPECT_NE(wino.applies(problem(conv_desc(1, 4, 5, 5, 3, 3, 1, 1, 1)), caps), "");        // 3 x 1
  detail::ConvProblem dilated = problem(conv_desc(1, 4, 9, 9, 3, 3, 3, 1, 2));
  dilated.dil_h = dilated.dil_w = 2;
  EXPECT_NE(wino.applies(dilated, caps), "");
  const auto& dwi = detail::conv_candidate("depthwise_image");
  Capabilities no_images = caps;
  no_images.images = false;
  EXPECT_NE(dwi.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 4)), no_images), "");  // CUDA
  EXPECT_NE(dwi.applies(problem(conv_desc(1, 4, 5, 5, 8, 3, 3, 1, 1, 4)), caps), "");
  if (caps.images) {
    EXPECT_EQ(dwi.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 4)), caps), "");
    EXPECT_EQ(dwi.applies(problem(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 4, NCHW, NHWC)), caps), "");
    // One image's channel block (5 x 5 texels of at most 16 bytes) must fit
    // the largest allocation.
    Capabilities small = caps;
    small.max_alloc_bytes = 16 * 25 - 1;
    EXPECT_NE(dwi.applies(problem(conv_desc(2, 8, 5, 5, 8, 3, 3, 1, 1, 8)), small), "");
    small.max_alloc_bytes = 16 * 25;
    EXPECT_EQ(dwi.applies(problem(conv_desc(2, 8, 5, 5, 8, 3, 3, 1, 1, 8)), small), "");
  }
  test::expect_error(Status::NotFound,
                     "candidates: pointwise, depthwise, depthwise_image, winograd_fused, winograd, implicit, im2col, "
                     "direct",
                     [] { detail::conv_candidate("fft"); });
}

}  // namespace
}  // namespace optune
