// The fused Winograd F(2x2, 3x3) and F(4x4, 3x3) convolution
// (conv_wino_fused.cl) forced,
// against the double-precision direct convolution with Winograd's wider
// bound (ConvCase::winograd, reference/conv_check): every layout pair with
// partial tiles, asymmetric and absent pads, channels that are no multiple
// of the step (BC), output channels that are no multiple of the block (BK)
// or of 4 (U loaded element by element), tiles past the last block (BT);
// every block and work-item shape the family lists; the epilogue in every
// storage type; the family's limits and fit; the routine's default order.
#include <gtest/gtest.h>

#include "kernels/families.hpp"
#include "ops/gemm_ops.hpp"
#include "reference/conv_check.hpp"
#include "support/test_support.hpp"

namespace optune {
namespace {

using ref::conv_desc;
using ref::conv_force;
using ref::ConvCase;
using ref::problem_of;
using detail::ConvForce;
constexpr ConvLayout NCHW = ConvLayout::NCHW, NHWC = ConvLayout::NHWC;

const detail::Params kSmall{{"BK", 16}, {"BT", 16}, {"BC", 4}, {"KPT", 4}, {"TPT", 4}};

ConvCase fused_case(const Conv2dDesc& d, std::size_t i, DType t = DType::F32) {
  ConvCase c;
  c.desc = d;
  c.dtype = t;
  c.winograd = true;
  c.bias = i % 2 == 0;
  c.residual = i % 3 == 0 && d.input_layout == d.output_layout;
  c.activation = i % 2 ? Unary::Relu6 : Unary::Copy;
  c.offset = i % 4;
  return c;
}

TEST(ConvWinogradFused, EveryLayoutPadAndPartialBlock) {
  std::size_t i = 0;
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC}) {
      std::vector<Conv2dDesc> descs{
          conv_desc(2, 3, 7, 9, 5, 3, 3, 1, 1, 1, in, out),    // OH 7, OW 9: partial tiles; C < BC; K odd
          conv_desc(3, 9, 6, 8, 20, 3, 3, 1, 0, 1, in, out),   // no pad; C past two steps; K past BK
          conv_desc(1, 6, 13, 11, 17, 3, 3, 1, 1, 1, in, out)  // 42 tiles: past two blocks of 16
      };
      Conv2dDesc d = conv_desc(2, 5, 5, 6, 8, 3, 3, 1, 0, 1, in, out);  // asymmetric pads
      d.pad_top = 2, d.pad_bottom = 0, d.pad_left = 0, d.pad_right = 3;
      descs.push_back(d);
      for (const Conv2dDesc& desc : descs) {
        detail::Params p = kSmall;
        p["PREFETCH"] = in == out;
        const ConvForce f = conv_force("winograd_fused", "conv_winograd_fused", p);
        EXPECT_TRUE(ref::check_conv(fused_case(desc, i), &f)) << i;
        ++i;
      }
    }
}

// Block and work-item shapes across the family's lists (every value of
// each parameter at least once, both PREFETCH modes, the product's loop
// unrolled wholly, twice and once), on problems with
// partial blocks everywhere, each set as given (fit keeps it).
TEST(ConvWinogradFused, BlockShapes) {
  const Capabilities& caps = test::device().caps();
  const auto& fam = detail::families::conv_winograd_fused();
  // Each within 256 work-items and 48 KiB of local memory (CUDA's static
  // limit), so that the GPUs run all five.
  const std::vector<detail::Params> sets{
      {{"BK", 32}, {"BT", 32}, {"BC", 8}, {"KPT", 8}, {"TPT", 8}, {"PREFETCH", 1}},
      {{"BK", 64}, {"BT", 16}, {"BC", 8}, {"KPT", 8}, {"TPT", 8}, {"PREFETCH", 1}},
      {{"BK", 16}, {"BT", 64}, {"BC", 4}, {"KPT", 8}, {"TPT", 8}, {"PREFETCH", 0}},
      {{"BK", 16}, {"BT", 16}, {"BC", 16}, {"KPT", 4}, {"TPT", 4}, {"PREFETCH", 0}, {"CU", 2}},
      {{"BK", 16}, {"BT", 32}, {"BC", 8}, {"KPT", 4}, {"TPT", 8}, {"PREFETCH", 1}, {"CU", 1}}};
  std::size_t i = 0, ran = 0;
  for (const detail::Params& p : sets) {
    const std::int64_t bk = p.at("BK"), bt = p.at("BT"), bc = p.at("BC");
    const Conv2dDesc d = conv_desc(1, 2 * bc + 3, 9, bt / 2 + 3, bk + 4, 3, 3, 1, 1, 1, i % 2 ? NHWC : NCHW,
                                   i % 3 ? NCHW : NHWC);
    const detail::Params fitted = fam.fit(fam.complete(p, caps), caps, problem_of(d));
    ++i;
    if (!fam.check(fitted, caps, problem_of(d)).empty() || fitted.at("BK") != bk || fitted.at("BT") != bt ||
        fitted.at("BC") != bc)
      continue;
    const ConvForce f = conv_force("winograd_fused", "conv_winograd_fused", p);
    EXPECT_TRUE(ref::check_conv(fused_case(d, i), &f)) << "set " << i - 1;
    ++ran;
  }
  EXPECT_EQ(ran, sets.size());
}

// F(4x4, 3x3) (WT 4): every layout pair with tiles cut by OH and OW at each
// of their four offsets, pads absent and asymmetric, channels past the
// step and block, each output pass size (OE) and both PREFETCH modes;
// then the epilogue in each storage type and many channels, against the
// bound that weights the transforms' amplification (winograd_tile 4).
TEST(ConvWinogradFused, Tile4x4) {
  std::size_t i = 0;
  const std::int64_t oe[] = {1, 2, 4};
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC}) {
      // OH 7, OW 9: tiles cut at 3 and 1 (C < BC, K odd); then in turn no
      // pad (OH 6, OW 8; C past two steps, K past BK), 12 tiles of which
      // the last block holds few, asymmetric pads.
      std::vector<Conv2dDesc> descs{conv_desc(2, 3, 7, 9, 5, 3, 3, 1, 1, 1, in, out)};
      if (in == out && in == NCHW) descs.push_back(conv_desc(3, 9, 8, 10, 20, 3, 3, 1, 0, 1, in, out));
      if (in != out) descs.push_back(conv_desc(1, 6, 14, 11, 17, 3, 3, 1, 1, 1, in, out));
      if (in == out && in == NHWC) {
        Conv2dDesc d = conv_desc(2, 5, 5, 6, 8, 3, 3, 1, 0, 1, in, out);
        d.pad_top = 2, d.pad_bottom = 0, d.pad_left = 0, d.pad_right = 3;
        descs.push_back(d);
      }
      for (const Conv2dDesc& desc : descs) {
        detail::Params p = kSmall;
        p["WT"] = 4;
        p["OE"] = oe[i % 3];
        p["PREFETCH"] = i % 2;
        const ConvForce f = conv_force("winograd_fused", "conv_winograd_fused", p);
        ConvCase c = fused_case(desc, i);
        c.winograd_tile = 4;
        EXPECT_TRUE(ref::check_conv(c, &f)) << i;
        ++i;
      }
    }
  for (DType t : {DType::F32, DType::F16, DType::BF16}) {
    ConvCase c = fused_case(conv_desc(2, 8, 9, 7, 12, 3, 3, 1, 1, 1, NCHW, NHWC), i++, t);
    c.winograd_tile = 4;
    c.bias = c.residual = true;
    c.activation = Unary::Silu;
    c.offset = 1;
    detail::Params p{{"WT", 4}, {"BK", 16}, {"BT", 16}, {"BC", 8}, {"KPT", 4}, {"TPT", 4}, {"OE", 2}};
    const ConvForce f = conv_force("winograd_fused", "conv_winograd_fused", p);
    EXPECT_TRUE(ref::check_conv(c, &f)) << dtype_name(t);
  }
  ConvCase c = fused_case(conv_desc(1, 64, 10, 10, 8, 3, 3, 1, 1, 1), 1);
  c.winograd_tile = 4;
  detail::Params p = kSmall;
  p["WT"] = 4;
  p["OE"] = 1;
  const ConvForce f = conv_force("winograd_fused", "conv_winograd_fused", p);
  EXPECT_TRUE(ref::check_conv(c, &f));
}

// The unfused F(4x4, 3x3) (conv_winograd WT 4: 36 GEMMs on GEMM's direct
// kernel, pinned so that one program serves): each layout pair with tiles
// cut by OH and OW, no pad and asymmetric pads, the whole batch in one
// chunk and one image per chunk, the epilogue, f16 storage, many channels;
// every case at least 32 tiles (kWt4MinTiles), so that fit keeps WT 4.
TEST(ConvWinograd, Tile4x4Unfused) {
  const detail::GemmForce direct{"direct", {{"gemm_direct", {}}}};
  const detail::GemmForceScope pinned(direct);
  std::vector<Conv2dDesc> descs;
  for (ConvLayout in : {NCHW, NHWC})
    for (ConvLayout out : {NCHW, NHWC}) descs.push_back(conv_desc(6, 3, 7, 9, 5, 3, 3, 1, 1, 1, in, out));
  descs.push_back(conv_desc(8, 6, 8, 10, 4, 3, 3, 1, 0, 1));  // no pad: OH 6, OW 8
  Conv2dDesc d = conv_desc(6, 5, 9, 6, 7, 3, 3, 1, 0, 1, NHWC, NHWC);
  d.pad_top = 2, d.pad_bottom = 0, d.pad_left = 0, d.pad_right = 3;
  descs.push_back(d);
  descs.push_back(conv_desc(4, 64, 10, 10, 8, 3, 3, 1, 1, 1));  // many channels
  for (std::size_t i = 0; i < descs.size(); ++i) {
    ConvCase c = fused_case(descs[i], i);
    c.winograd_tile = 4;
    const ConvForce f = conv_force("winograd", "conv_winograd", {{"WT", 4}, {"CHUNK_KIB", i % 2 ? 1 : 262144}});
    EXPECT_TRUE(ref::check_conv(c, &f)) << i;
  }
  ConvCase c = fused_case(conv_desc(8, 8, 5, 7, 6, 3, 3, 1, 1, 1, NHWC, NCHW), 0, DType::F16);
  c.winograd_tile = 4;
  c.activation = Unary::Silu;
  const ConvForce f = conv_force("winograd", "conv_winograd", {{"WT", 4}});
  EXPECT_TRUE(ref::check_conv(c, &f));
  // fit keeps F(2x2) where 36 planes of weights and one image's tiles
  // exceed the largest allocation.
  const auto& fam = detail::families::conv_winograd();
  Capabilities small = test::device().caps();
  const detail::ConvProblem pr = problem_of(conv_desc(4, 64, 10, 10, 64, 3, 3, 1, 1));
  small.max_alloc_bytes = 36 * 64 * 64 * 4 + 36 * 128 * 9 * 4 - 1;
  EXPECT_EQ(fam.fit(fam.complete({{"WT", 4}}, small), small, pr).at("WT"), 2);
  small.max_alloc_bytes += 1;
  EXPECT_EQ(fam.fit(fam.complete({{"WT", 4}}, small), small, pr).at("WT"), 4);
  // ... and where F(4x4) would leave fewer than 32 tiles: 10 x 10 has 9 an
  // image (4 images: 36), 7 x 7 has 4 (8 images: 32).
  const Capabilities& caps = test::device().caps();
  const auto wt = [&](const Conv2dDesc& desc) {
    return fam.fit(fam.complete({{"WT", 4}}, caps), caps, problem_of(desc)).at("WT");
  };
  EXPECT_EQ(wt(conv_desc(3, 8, 10, 10, 8, 3, 3, 1, 1)), 2);
  EXPECT_EQ(wt(conv_desc(4, 8, 10, 10, 8, 3, 3, 1, 1)), 4);
  EXPECT_EQ(wt(conv_desc(7, 8, 7, 7, 8, 3, 3, 1, 1)), 2);
  EXPECT_EQ(wt(conv_desc(8, 8, 7, 7, 8, 3, 3, 1, 1)), 4);
}

TEST(ConvWinogradFused, EpilogueAndStorageTypes) {
  std::size_t i = 0;
  for (DType t : {DType::F32, DType::F16, DType::BF16})
    for (ConvLayout layout : {NCHW, NHWC}) {
      ConvCase c = fused_case(conv_desc(2, 8, 5, 7, 12, 3, 3, 1, 1, 1, layout, layout), i++, t);
      c.bias = c.residual = true;
      c.activation = Unary::Silu;
      c.offset = 1;
      const ConvForce f = conv_force("winograd_fused");
      EXPECT_TRUE(ref::check_conv(c, &f)) << dtype_name(t);
      if (t != DType::F32) continue;
      c.residual_in_place = true;
      c.rank4 = true;
      c.activation = Unary::Gelu;
      EXPECT_TRUE(ref::check_conv(c, &f)) << dtype_name(t);
    }
  // Many channels: the transforms' rounding against the bound's C term.
  ConvCase c = fused_case(conv_desc(1, 64, 6, 6, 8, 3, 3, 1, 1, 1), 1);
  const ConvForce f = conv_force("winograd_fused");
  EXPECT_TRUE(ref::check_conv(c, &f));
}

TEST(ConvWinogradFused, FamilyLimitsAndFit) {
  const Capabilities& caps = test::device().caps();
  const auto& fam = detail::families::conv_winograd_fused();
  const detail::ConvProblem pr = problem_of(conv_desc(2, 16, 10, 10, 64, 3, 3, 1, 1));
  const detail::Params big{{"BK", 64}, {"BT", 64}, {"BC", 16}, {"KPT", 8}, {"TPT", 8}};
  // 16 x 8 x 8 work-items; 16 (16 64 + 16 + 16 68 + 16) floats for the
  // product, more than the output passes' 16 x 32 x 65.
  EXPECT_EQ(detail::ConvWinoFusedFamily::work_items(fam.complete(big, caps)), 1024);
  EXPECT_EQ(detail::ConvWinoFusedFamily::local_bytes(fam.complete(big, caps)), 16 * (1040 + 1104) * 4);
  // A device of 256 work-items and 48 KiB: fit takes fewer tiles (64 -> 16),
  // then fewer channels per step (16 -> 8).
  Capabilities small = caps;
  small.max_work_group_size = 256;
  small.max_work_item_sizes[0] = 256;
  small.local_mem_bytes = 48 * 1024;
  EXPECT_NE(fam.check(fam.complete(big, small), small, pr), "");
  const detail::Params fitted = fam.fit(fam.complete(big, small), small, pr);
  EXPECT_EQ(fam.check(fitted, small, pr), "");
  EXPECT_EQ(fitted.at("BT"), 16);
  EXPECT_EQ(fitted.at("BC"), 8);
  EXPECT_EQ(fitted.at("BK"), 64);
  EXPECT_EQ(fitted.at("UVEC"), 1);
  // 64 work-items: the smallest block, with 8 x 8 sums per work-item.
  small.max_work_group_size = small.max_work_item_sizes[0] = 64;
  const detail::Params least = fam.fit(fam.complete({{"KPT", 4}, {"TPT", 4}}, small), small, pr);
  EXPECT_EQ(fam.check(least, small, pr), "");
  EXPECT_EQ(detail::ConvWinoFusedFamily::work_items(least), 64);
  // Below it the candidate does not apply (the default order moves on).
  const auto& cand = detail::conv_candidate("winograd_fused");
  EXPECT_EQ(cand.applies(pr, small), "");
  small.max_work_group_size = small.max_work_item_sizes[0] = 32;
  EXPECT_NE(cand.applies(pr, small).find("no block"), std::string::npos);
  // BK shrinks towards K (at least 16; KPT 8 stays: two work-items along
  // k); K not a multiple of 4 loads U by elements.
  const detail::ConvProblem narrow = problem_of(conv_desc(1, 8, 6, 6, 7, 3, 3, 1, 1));
  const detail::Params n = fam.fit(fam.complete({{"BK", 64}, {"KPT", 8}}, caps), caps, narrow);
  EXPECT_EQ(n.at("BK"), 16);
  EXPECT_EQ(n.at("KPT"), 8);
  EXPECT_EQ(n.at("UVEC"), 0);
  detail::Params forced = n;
  forced["UVEC"] = 1;
  EXPECT_NE(fam.check(forced, caps, narrow), "");
  // WT 4: 36 positions; fit halves OE while the output passes' planes
  // (36 (BK / KPT) OE (BT + 1) floats) hold more local memory than the
  // product's tiles (36 (80 + 176)), and takes WT 2 where 36 planes of
  // transformed weights exceed the largest allocation.
  const detail::Params f4{{"WT", 4}, {"BK", 16}, {"BT", 32}, {"BC", 4}, {"KPT", 4}, {"TPT", 8}};
  EXPECT_EQ(detail::ConvWinoFusedFamily::work_items(fam.complete(f4, caps)), 36 * 4 * 4);
  EXPECT_EQ(detail::ConvWinoFusedFamily::local_bytes(fam.complete(f4, caps)), 36 * 4 * 4 * 33 * 4);
  Capabilities wide = caps;
  wide.max_work_group_size = wide.max_work_item_sizes[0] = 1024;
  wide.local_mem_bytes = 48 * 1024;
  const detail::Params f4fit = fam.fit(fam.complete(f4, wide), wide, pr);
  EXPECT_EQ(fam.check(f4fit, wide, pr), "");
  EXPECT_EQ(f4fit.at("OE"), 2);
  EXPECT_EQ(f4fit.at("WT"), 4);
  EXPECT_EQ(f4fit.at("BT"), 32);
  EXPECT_EQ(detail::ConvWinoFusedFamily::local_bytes(f4fit), 36 * 4 * 2 * 33 * 4);
  wide.max_alloc_bytes = 36 * 64 * 16 * 4 - 1;
  EXPECT_EQ(fam.fit(fam.complete(f4, wide), wide, pr).at("WT"), 2);
  // The descriptors it takes: Winograd's.
  EXPECT_EQ(cand.applies(problem_of(conv_desc(1, 4, 5, 5, 3, 3, 3, 1, 1, 1, NHWC, NCHW)), caps), "");
  EXPECT_NE(cand.applies(problem_of(conv_desc(1, 4, 5, 5, 3, 3, 3, 2, 1)), caps), "");     // stride 2
  EXPECT_NE(cand.applies(problem_of(conv_desc(1, 4, 5, 5, 4, 3, 3, 1, 1, 2)), caps), "");  // grouped
  EXPECT_NE(fam.check(fam.complete({}, caps), caps, problem_of(conv_desc(1, 4, 5, 5, 3, 3, 1, 1, 1))), "");
}

// The default order (KERNEL 0) takes the fused kernel for f32 3 x 3 stride
// 1 of one group on GPUs, before the unfused one, which CPUs keep; 16-bit
// storage passes it over for the implicit GEMM; KERNEL 6 and 8 name either.
TEST(ConvWinogradFused, DefaultOrder) {
  const Queue& q = test::queue();
  const auto chosen = [&](detail::ConvProblem pr, std::int64_t kernel = 0) {
    detail::ConvForce f;
    f.params["conv_routine"] = {{"KERNEL", kernel}};
    return detail::choose_conv(q, pr, &f).candidate->name();
  };
  detail::ConvProblem pr = problem_of(conv_desc(1, 32, 14, 14, 32, 3, 3, 1, 1, 1, NCHW, NHWC));
  Capabilities caps = test::device().caps();
  const bool cpu = caps.type == DeviceType::CPU;
  EXPECT_EQ(chosen(pr), cpu ? "winograd" : "winograd_fused");
  const auto& fused = detail::conv_candidate("winograd_fused");
  caps.type = DeviceType::GPU;
  EXPECT_EQ(fused.passed_over(pr, caps), "");
  caps.type = DeviceType::CPU;
  EXPECT_NE(fused.passed_over(pr, caps).find("CPU"), std::string::npos);
  EXPECT_EQ(chosen(pr, 6), "winograd");
  EXPECT_EQ(chosen(pr, 8), "winograd_fused");
  pr.dtype = DType::F16;
  EXPECT_EQ(chosen(pr), "implicit");
  EXPECT_EQ(chosen(pr, 8), "winograd_fused");
}

// conv_routine's winograd_deep bucket: Winograd's descriptors with at least
// 128 input and output channels, refining general (whose entries it falls
// back to); fewer channels, a stride or groups keep general.
TEST(ConvWinogradFused, DeepBucket) {
  const auto& routine = detail::families::conv_routine();
  const detail::ConvProblem deep = problem_of(conv_desc(2, 128, 14, 14, 128, 3, 3, 1, 1));
  EXPECT_EQ(routine.bucket(deep), "winograd_deep");
  EXPECT_EQ(routine.bucket_chain(deep), (std::vector<std::string>{"winograd_deep", "general"}));
  EXPECT_EQ(routine.bucket(problem_of(conv_desc(2, 127, 14, 14, 128, 3, 3, 1, 1))), "general");
  EXPECT_EQ(routine.bucket(problem_of(conv_desc(2, 128, 14, 14, 64, 3, 3, 1, 1))), "general");
  EXPECT_EQ(routine.bucket(problem_of(conv_desc(2, 128, 14, 14, 128, 3, 3, 2, 1))), "general");
  EXPECT_EQ(routine.bucket(problem_of(conv_desc(2, 128, 14, 14, 128, 3, 3, 1, 1, 2))), "general");
  EXPECT_EQ(routine.bucket_chain(problem_of(conv_desc(2, 64, 14, 14, 64, 3, 3, 1, 1))),
            (std::vector<std::string>{"general"}));
  const Capabilities& caps = test::device().caps();
  EXPECT_EQ(routine.bucket(routine.make_example(DType::F32, "winograd_deep", caps)), "winograd_deep");
}

}  // namespace
}  // namespace optune
