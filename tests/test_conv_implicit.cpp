// The implicit-GEMM convolution (conv_implicit.cl) forced, against the
// double-precision direct convolution (reference/conv_check): every layout
// pair over the general shapes with small and large tiles, deep products
// and 16-bit storage, the SIMT product's packed local reads (VWM, VWN) and
// the NHWC input's packed loads (AV, which fit derives), and on CUDA
// sm_80+ the tensor-core variant.
#include <gtest/gtest.h>

#include <iterator>

#include "kernels/families.hpp"
#include "reference/conv_check.hpp"
#include "support/gemm_fixture.hpp"
#include "support/test_support.hpp"

namespace optune {
namespace {

using ref::conv_desc;
using ref::conv_force;
using ref::ConvCase;
using ref::general_descs;
using ref::problem_of;
using detail::ConvForce;
constexpr ConvLayout NCHW = ConvLayout::NCHW, NHWC = ConvLayout::NHWC;

// The implicit GEMM (conv_implicit.cl) against the reference. Every layout
// pair over the general shapes (odd sizes, stride 2, groups 2, a
// depthwise-shaped 3 x 1, dilation 2 with asymmetric pads and strides, a
// filter as large as the input) with the smallest tiles (MWG 16 x NWG 4
// over KWG 8, which fit keeps: many tiles, rows, columns and depths past
// M, Kg and KD); then larger tiles, which fit shrinks only to the problem's
// extent (tiles larger than the problem) on two shapes per layout pair.
// One activation throughout (relu6; bias and residual are runtime flags):
// a program per layout pair and tile set, PoCL taking a second or more per
// program.
const detail::Params kImplicitSmall{{"MWG", 16}, {"NWG", 4}, {"KWG", 8}, {"MDIMC", 8}, {"NDIMC", 4}, {"FLAT", 0}};

ConvCase implicit_case(const Conv2dDesc& d, std::size_t i, DType t = DType::F32) {
  ConvCase c;
  c.desc = d;
  c.dtype = t;
  c.bias = i % 2 == 0;
  c.residual = i % 2 == 0;
  c.residual_in_place = i % 4 == 0 && d.input_layout == d.output_layout;
  c.activation = Unary::Relu6;
  c.offset = i % 3;
  return c;
}

TEST(Conv, ImplicitEveryLayoutAndShape) {
  std::size_t i = 0;
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC}) {
      const std::vector<Conv2dDesc> descs = general_descs(in, out);
      for (const Conv2dDesc& d : descs) {
        const ConvForce f = conv_force("implicit", "conv_implicit", kImplicitSmall);
        EXPECT_TRUE(ref::check_conv(implicit_case(d, i++), &f));
      }
      const detail::Params large = in == out ? detail::Params{{"MWG", 64}, {"NWG", 16}, {"KWG", 16}, {"MDIMC", 16},
                                                              {"NDIMC", 8}}
                                             : detail::Params{{"MWG", 32}, {"NWG", 32}, {"KWG", 32}, {"MDIMC", 8},
                                                              {"NDIMC", 8}};
      for (std::size_t j : {0, 3}) {
        const ConvForce f = conv_force("implicit", "conv_implicit", large);
        EXPECT_TRUE(ref::check_conv(implicit_case(descs[j], i++), &f)) << "large tiles, shape " << j;
      }
    }
}

// Depths of many tiles (the two local stages alternating, a partial last
// tile), pixels and channels of several tiles, with the default parameters
// (fit shrinks them) and the smallest tiles; f16 and bf16 storage with the
// epilogue, one layout pair each.
TEST(Conv, ImplicitDeepAndHalfStorage) {
  const ConvForce dflt = conv_force("implicit");
  const ConvForce small = conv_force("implicit", "conv_implicit", kImplicitSmall);
  std::size_t i = 0;
  for (ConvLayout l : {NCHW, NHWC}) {
    const ConvLayout other = l == NCHW ? NHWC : NCHW;
    const Conv2dDesc d = conv_desc(2, 21, 9, 11, 37, 3, 3, 1, 1, 1, l, other);  // KD 189, Kg 37, M 198
    EXPECT_TRUE(ref::check_conv(implicit_case(d, i++), &dflt));
    EXPECT_TRUE(ref::check_conv(implicit_case(d, i++), &small));
    const DType t = l == NCHW ? DType::F16 : DType::BF16;
    EXPECT_TRUE(ref::check_conv(implicit_case(conv_desc(2, 8, 7, 6, 12, 3, 3, 2, 1, 2, l, l), 0, t), &dflt));  // in place
    EXPECT_TRUE(ref::check_conv(implicit_case(conv_desc(1, 6, 5, 9, 10, 3, 3, 1, 1, 2, l, l), 1, t), &dflt));
  }
}

// The tensor-core variant (MMA = 1: CUDA compute capability 8.0+, f16 and
// bf16): every layout pair, groups, strides, partial channel chunks, tiles
// past M and Kg, with the epilogue; elsewhere check refuses it (and fit
// turns a tuned MMA = 1 off).
TEST(Conv, ImplicitTensorCores) {
  const Capabilities& caps = test::device().caps();
  const auto& fam = detail::families::conv_implicit();
  detail::ConvProblem f32 = problem_of(conv_desc(1, 32, 8, 8, 32, 3, 3, 1, 1));
  detail::Params mma = fam.defaults(caps);
  mma["MMA"] = 1;
  EXPECT_NE(fam.check(mma, caps, f32), "");
  EXPECT_EQ(fam.fit(mma, caps, f32).at("MMA"), 0);
  detail::ConvProblem f16 = f32;
  f16.dtype = DType::F16;
  if (caps.backend != Backend::CUDA || caps.compute_capability_major < 8) {
    EXPECT_NE(fam.check(mma, caps, f16), "");
    GTEST_SKIP() << "no mma.sync on this device";
  }
  EXPECT_EQ(fam.check(fam.fit(mma, caps, f16), caps, f16), "");
  const detail::Params tile_sets[] = {
      {{"MMA", 1}},
      {{"MMA", 1}, {"MWG", 64}, {"NWG", 16}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}},
      {{"MMA", 1}, {"SPLITK", 4}},
      {{"MMA", 1}, {"FLAT", 1}},
      {{"MMA", 1}, {"TAPS_INNER", 1}, {"SPLITK", 2}},
  };
  std::size_t i = 0;
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC})
      for (DType t : {DType::F16, DType::BF16})
        for (const Conv2dDesc& d : {conv_desc(2, 21, 9, 11, 37, 3, 3, 1, 1, 1, in, out),
                                    conv_desc(1, 40, 10, 9, 24, 3, 3, 2, 1, 2, in, out),
                                    conv_desc(3, 64, 7, 7, 80, 1, 1, 1, 0, 1, in, out)}) {
          const ConvForce f = conv_force("implicit", "conv_implicit", tile_sets[i % std::size(tile_sets)]);
          EXPECT_TRUE(ref::check_conv(implicit_case(d, i++, t), &f));
        }
}

// The SIMT product's local reads as packs (VWM rows, VWN columns: every
// pairing of 1, 2 and 4 that the tile takes) over shapes whose NHWC input
// loads packs of 4 or 2 channels (AV, from C / G and the offset) or single
// channels, both layouts, the epilogue, a partial last tile of pixels and
// of columns; the derived AV itself on three problems.
TEST(Conv, ImplicitPacks) {
  const Capabilities& caps = test::device().caps();
  const auto& fam = detail::families::conv_implicit();
  const detail::Params tiles{{"MWG", 64}, {"NWG", 16}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 4}, {"MMA", 0}};
  detail::ConvProblem pr = problem_of(conv_desc(2, 24, 9, 7, 20, 3, 3, 1, 1, 1, NHWC, NCHW));
  EXPECT_EQ(fam.fit(tiles, caps, pr).at("AV"), 4);
  pr.align = 2;
  EXPECT_EQ(fam.fit(tiles, caps, pr).at("AV"), 2);
  pr.in_nhwc = false;
  EXPECT_EQ(fam.fit(tiles, caps, pr).at("AV"), 1);
  std::size_t i = 0;
  for (const auto& [vwm, vwn] : {std::pair{2, 1}, std::pair{4, 4}, std::pair{1, 2}, std::pair{4, 1}})
    for (const Conv2dDesc& d : {conv_desc(2, 24, 9, 7, 20, 3, 3, 1, 1, 1, NHWC, NCHW),  // AV 4 (or 2 at offset 2)
                                conv_desc(1, 12, 8, 9, 18, 3, 3, 2, 1, 2, NHWC, NHWC),  // groups 2: C / G 6, AV 2
                                conv_desc(1, 5, 11, 6, 9, 1, 1, 1, 0, 1, NCHW, NHWC)}) {
      detail::Params p = tiles;
      p["VWM"] = vwm;
      p["VWN"] = vwn;
      const ConvForce f = conv_force("implicit", "conv_implicit", p);
      ConvCase c = implicit_case(d, i++);
      c.offset = i % 3 == 0 ? 2 : 0;
      EXPECT_TRUE(ref::check_conv(c, &f)) << "VWM " << vwm << " VWN " << vwn;
    }
}

// The taps within each channel chunk (TAPS_INNER): the general shapes in two
// layout pairs, a deep product of several chunks per tap, 16-bit storage
// and a split depth.
TEST(Conv, ImplicitTapsInner) {
  detail::Params p = kImplicitSmall;
  p["TAPS_INNER"] = 1;
  std::size_t i = 0;
  for (const auto& [in, out] : {std::pair{NCHW, NCHW}, std::pair{NHWC, NHWC}}) {
    const ConvForce f = conv_force("implicit", "conv_implicit", p);
    for (const Conv2dDesc& d : general_descs(in, out)) EXPECT_TRUE(ref::check_conv(implicit_case(d, i++), &f));
    EXPECT_TRUE(ref::check_conv(implicit_case(conv_desc(1, 37, 6, 7, 9, 3, 3, 1, 1, 1, in, out), i++), &f));
    EXPECT_TRUE(ref::check_conv(implicit_case(conv_desc(2, 24, 5, 6, 12, 3, 3, 1, 1, 1, in, out), i++, DType::F16), &f));
  }
  p["SPLITK"] = 4;
  const ConvForce f = conv_force("implicit", "conv_implicit", p);
  EXPECT_TRUE(ref::check_conv(implicit_case(conv_desc(2, 21, 9, 11, 37, 3, 3, 1, 1, 1, NCHW, NHWC), i++), &f));
}

// The depth split in slices (SPLITK): each slice's raw sums to scratch, then
// conv_implicit_sum adds them in slice order through the epilogue (bias,
// residual, the residual in place), over layout pairs, groups, stride 2,
// 16-bit storage, and slices of one step or none (16 slices over 9 steps:
// fit trims them to 8, and 8 over 9 leaves slices of one); fit keeps no more
// slices than steps.
TEST(Conv, ImplicitSplitK) {
  const Capabilities& caps = test::device().caps();
  const auto& fam = detail::families::conv_implicit();
  detail::Params p = kImplicitSmall;
  p["SPLITK"] = 8;
  EXPECT_EQ(fam.fit(p, caps, problem_of(conv_desc(1, 5, 6, 6, 4, 1, 1))).at("SPLITK"), 1);  // one step
  p["SPLITK"] = 16;
  EXPECT_EQ(fam.fit(p, caps, problem_of(conv_desc(2, 21, 9, 11, 37, 3, 3, 1, 1))).at("SPLITK"), 16);  // 27 steps
  EXPECT_EQ(fam.fit(p, caps, problem_of(conv_desc(1, 3, 10, 10, 8, 3, 3, 1, 1))).at("SPLITK"), 8);    // 9 steps
  std::size_t i = 0;
  for (std::int64_t splitk : {2, 4, 16})
    for (const Conv2dDesc& d : {conv_desc(2, 21, 9, 11, 37, 3, 3, 1, 1, 1, NCHW, NHWC),
                                conv_desc(1, 12, 8, 9, 18, 3, 3, 2, 1, 2, NHWC, NHWC),
                                conv_desc(1, 3, 10, 10, 8, 3, 3, 1, 1, 1, NHWC, NCHW)}) {
      p["SPLITK"] = splitk;
      const ConvForce f = conv_force("implicit", "conv_implicit", p);
      EXPECT_TRUE(ref::check_conv(implicit_case(d, i++), &f)) << "SPLITK " << splitk;
    }
  p["SPLITK"] = 4;
  const ConvForce f = conv_force("implicit", "conv_implicit", p);
  EXPECT_TRUE(ref::check_conv(implicit_case(conv_desc(2, 8, 7, 6, 12, 3, 3, 2, 1, 2, NHWC, NHWC), 0, DType::F16), &f));
  EXPECT_TRUE(ref::check_conv(implicit_case(conv_desc(1, 6, 5, 9, 10, 3, 3, 1, 1, 2, NCHW, NCHW), 1, DType::BF16), &f));
}

// The depth over channels and taps together (FLAT): the general shapes in
// two layout pairs, a 7 x 7 stride-2 stem of 3 channels (alone and split in
// slices), 16-bit storage; fit shrinks KWG towards the whole depth and loads
// NHWC inputs element by element (AV 1).
TEST(Conv, ImplicitFlatDepth) {
  const Capabilities& caps = test::device().caps();
  const auto& fam = detail::families::conv_implicit();
  detail::Params p = kImplicitSmall;
  p["FLAT"] = 1;
  p["KWG"] = 32;
  const Conv2dDesc stem = conv_desc(1, 3, 15, 13, 8, 7, 7, 2, 3, 1, NHWC, NHWC);
  detail::Params fitted = fam.fit(p, caps, problem_of(stem));
  EXPECT_EQ(fitted.at("KWG"), 32);  // a depth of 147
  EXPECT_EQ(fitted.at("AV"), 1);
  EXPECT_EQ(fam.fit(p, caps, problem_of(conv_desc(1, 2, 6, 6, 4, 2, 2, 1, 1))).at("KWG"), 8);  // a depth of 8
  p["KWG"] = 8;
  std::size_t i = 0;
  for (const auto& [in, out] : {std::pair{NCHW, NHWC}, std::pair{NHWC, NCHW}})
    for (const Conv2dDesc& d : general_descs(in, out)) {
      const ConvForce f = conv_force("implicit", "conv_implicit", p);
      EXPECT_TRUE(ref::check_conv(implicit_case(d, i++), &f));
    }
  for (std::int64_t splitk : {1, 4}) {
    p["SPLITK"] = splitk;
    const ConvForce f = conv_force("implicit", "conv_implicit", p);
    EXPECT_TRUE(ref::check_conv(implicit_case(stem, i++), &f)) << "SPLITK " << splitk;
    Conv2dDesc nchw = stem;
    nchw.input_layout = nchw.output_layout = NCHW;
    EXPECT_TRUE(ref::check_conv(implicit_case(nchw, i++, DType::F16), &f)) << "SPLITK " << splitk;
  }
}

// The automatic rules on an H200's CUDA capabilities (132 compute units):
// SPLITK 0 slices ResNet-50's deep 7 x 7 layer until the grid holds SK_FILL
// work-items per compute unit, halved while a slice would hold less than
// SK_MINK of the depth (0: 1024 on tensor cores, 128 SIMT), and leaves wide
// layers whole; FLAT 2 takes the flat depth where a group's channels fill at
// most a quarter of KWG over more than one tap. On a CPU SPLITK is 1.
TEST(Conv, ImplicitAutomaticSplitAndFlat) {
  const auto& fam = detail::families::conv_implicit();
  Capabilities h200 = test::nvidia_caps(Backend::CUDA, 90);
  h200.compute_units = 132;
  h200.max_alloc_bytes = std::uint64_t(1) << 36;
  const detail::Params d = fam.defaults(h200);
  EXPECT_EQ(d.at("SPLITK"), 0);
  EXPECT_EQ(d.at("FLAT"), 2);
  const detail::Params simt{{"MWG", 128}, {"NWG", 64}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"MMA", 0}};
  const auto fit = [&](detail::Params p, const Conv2dDesc& desc, DType t = DType::F32) {
    detail::ConvProblem pr = problem_of(desc);
    pr.dtype = t;
    return fam.fit(p, h200, pr);
  };
  const Conv2dDesc deep = conv_desc(32, 512, 7, 7, 512, 3, 3, 1, 1);   // 13 x 8 tiles, a depth of 4608
  const Conv2dDesc wide = conv_desc(32, 64, 56, 56, 64, 3, 3, 1, 1);   // 784 tiles
  const Conv2dDesc point = conv_desc(32, 1024, 14, 14, 256, 1, 1);      // 49 x 4 tiles, a depth of 1024
  EXPECT_EQ(fit(simt, deep).at("SPLITK"), 4);  // 26624 work-items: 4 slices pass 132 x 512
  EXPECT_EQ(fit(simt, wide).at("SPLITK"), 1);
  EXPECT_EQ(fit(simt, point).at("SPLITK"), 2);
  // MobileNetV2's 1 x 1 384 -> 64 at 14 x 14, batch 8: 13 tiles, a depth of
  // 384: two slices of 192 (the SIMT least of 128; 256 left it whole).
  EXPECT_EQ(fit(simt, conv_desc(8, 384, 14, 14, 64, 1, 1)).at("SPLITK"), 2);
  detail::Params p = simt;
  p["SK_MINK"] = 2048;
  EXPECT_EQ(fit(p, deep).at("SPLITK"), 2);
  p["SK_FILL"] = 2048;
  EXPECT_EQ(fit(p, wide).at("SPLITK"), 1);  // 2 slices would fill 132 x 2048; a depth of 576 holds none
  p = simt;
  p["MMA"] = 1;
  EXPECT_EQ(fit(p, deep, DType::F16).at("SPLITK"), 4);   // 4608 over 4 slices of at least 1024
  EXPECT_EQ(fit(p, point, DType::F16).at("SPLITK"), 1);  // 1024: one slice
  EXPECT_EQ(fit(p, deep).at("SPLITK"), 4);               // f32: MMA off, 128 a slice
  p = simt;
  p["SPLITK"] = 2;  // a tuned count stays
  EXPECT_EQ(fit(p, wide).at("SPLITK"), 2);
  // The rule's parameters are back at their defaults once fit has used
  // them; check refuses them away from the defaults where they split as
  // the defaults do, and beside a count (so a tuner keeps the defaults).
  detail::Params r = simt;
  r["SK_MINK"] = 2048;
  EXPECT_EQ(fit(r, deep).at("SK_MINK"), d.at("SK_MINK"));
  EXPECT_EQ(fam.check(fam.complete(r, h200), h200, problem_of(deep)), "");  // 2 slices, not 4
  EXPECT_NE(fam.check(fam.complete(r, h200), h200, problem_of(wide)), "");  // none either way
  r["SPLITK"] = 4;
  EXPECT_NE(fam.check(fam.complete(r, h200), h200, problem_of(deep)), "");

  EXPECT_EQ(fit(simt, conv_desc(8, 3, 224, 224, 64, 7, 7, 2, 3)).at("FLAT"), 1);
  EXPECT_EQ(fit(simt, conv_desc(8, 3, 224, 224, 64, 1, 1)).at("FLAT"), 0);  // one tap
  EXPECT_EQ(fit(simt, conv_desc(8, 8, 28, 28, 64, 3, 3, 1, 1)).at("FLAT"), 0);
  p = simt;
  p["KWG"] = 32;
  EXPECT_EQ(fit(p, conv_desc(8, 8, 28, 28, 64, 3, 3, 1, 1)).at("FLAT"), 1);
  EXPECT_EQ(fit(p, conv_desc(8, 32, 28, 28, 64, 3, 3, 1, 1, 4)).at("FLAT"), 1);  // 8 channels per group
  p["FLAT"] = 0;
  EXPECT_EQ(fit(p, conv_desc(8, 3, 224, 224, 64, 7, 7, 2, 3)).at("FLAT"), 0);

  Capabilities cpu = h200;
  cpu.type = DeviceType::CPU;
  EXPECT_EQ(fam.defaults(cpu).at("SPLITK"), 1);
}

}  // namespace
}  // namespace optune
