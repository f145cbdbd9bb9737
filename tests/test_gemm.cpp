// optune::gemm against the double-precision reference (see
// reference/gemm_check.hpp for the data, the poisoning and the error bound):
// every layout and transposition on both paths, the sizes around the tiles,
// leading dimensions and offsets, the alpha/beta grid with NaN in C, k = 0,
// the data types, and the kernels' non-default configurations forced.
#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

const Layout kLayouts[] = {Layout::RowMajor, Layout::ColMajor};
const Transpose kTrans[] = {Transpose::No, Transpose::Yes};

// A small tiled configuration, so that small problems take several tiles
// and K steps (the device's default tiles are as large as 128).
const Params kSmallTiles{{"MWG", 32}, {"NWG", 16}, {"KWG", 8},  {"MDIMC", 8}, {"NDIMC", 4},
                         {"MDIMA", 8}, {"NDIMB", 4}, {"KWI", 2}, {"VWM", 2},  {"VWN", 2},
                         {"STRM", 1},  {"STRN", 0},  {"SA", 1},  {"SB", 1},  {"DB", 1}};

GemmForce tiled(const Params* p) {
  return test::force("tiled", p);
}

}  // namespace

TEST(Gemm, EveryLayoutAndTransposition) {
  const GemmForce forces[] = {test::force("direct"), test::force("tiled"), tiled(&kSmallTiles)};
  for (const GemmForce& f : forces)
    for (Layout l : kLayouts)
      for (Transpose ta : kTrans)
        for (Transpose tb : kTrans)
          for (auto [m, n, k] : {std::tuple{7, 5, 3}, {17, 33, 16}, {64, 32, 24}}) {
            GemmCase c;
            c.layout = l, c.trans_a = ta, c.trans_b = tb, c.m = m, c.n = n, c.k = k;
            c.lda_extra = 3, c.ldb_extra = 1, c.ldc_extra = 2;
            c.a_off = 5, c.b_off = 1, c.c_off = 7;
            c.alpha = -0.5, c.beta = 2;
            EXPECT_TRUE(ref::check_gemm(c, &f));
          }
}

TEST(Gemm, Sizes) {
  int i = 0;
  for (std::int64_t s : {1, 2, 3, 7, 16, 17, 31, 33, 64, 65, 127, 129, 255, 257}) {
    GemmCase c;
    c.m = c.n = c.k = s;
    c.layout = kLayouts[i % 2];
    c.trans_a = kTrans[i / 2 % 2];
    c.beta = i % 3 ? 0.0 : 1.0;
    ++i;
    EXPECT_TRUE(ref::check_gemm(c));
  }
  for (auto [m, n, k] : {std::tuple{1, 257, 3}, {257, 1, 65}, {129, 7, 255}, {3, 33, 1}, {255, 64, 2},
                         {16, 129, 257}, {65, 2, 127}, {200, 160, 96}}) {
    GemmCase c;
    c.m = m, c.n = n, c.k = k;
    c.trans_b = Transpose::Yes;
    c.layout = m > n ? Layout::ColMajor : Layout::RowMajor;
    EXPECT_TRUE(ref::check_gemm(c));
  }
}

// Both paths at sizes beyond their usual ranges: the direct kernel on a
// large odd problem, the tiled one on tiny ones.
TEST(Gemm, BothPathsAtAnySize) {
  const GemmForce direct = test::force("direct"), tiled_default = test::force("tiled");
  for (auto [m, n, k] : {std::tuple{255, 257, 129}, {1, 1, 1}, {2, 3, 1}, {31, 1, 33}}) {
    GemmCase c;
    c.m = m, c.n = n, c.k = k;
    c.beta = 0.5;
    EXPECT_TRUE(ref::check_gemm(c, &direct));
    EXPECT_TRUE(ref::check_gemm(c, &tiled_default));
  }
}

TEST(Gemm, LeadingDimensionsAndOffsets) {
  const GemmForce forces[] = {test::force("direct"), tiled(&kSmallTiles)};
  for (const GemmForce& f : forces)
    for (Layout l : kLayouts)
      for (auto [lda, ldb, ldc, ao, bo, co] : {std::tuple{0, 0, 0, 1, 2, 3}, {13, 0, 5, 0, 0, 0}, {1, 17, 64, 4, 8, 4},
                                               {32, 32, 32, 31, 33, 17}}) {
        GemmCase c;
        c.layout = l, c.trans_a = Transpose::Yes, c.m = 32, c.n = 16, c.k = 24;
        c.lda_extra = lda, c.ldb_extra = ldb, c.ldc_extra = ldc, c.a_off = std::size_t(ao),
        c.b_off = std::size_t(bo), c.c_off = std::size_t(co);
        c.beta = -0.5;
        EXPECT_TRUE(ref::check_gemm(c, &f));
      }
}

// An operand stored as one line (A of M = 1, B of N = 1 stored N x K, either
// of K = 1, C of M = 1) has a leading dimension that addresses nothing, so
// its alignment is its offset's (the thin kernel's packs of a vector passed
// as a 1 x K matrix, gemv through GEMM): odd leading dimensions with aligned
// offsets, every layout and transposition, each path forced and the
// routine's own choice.
TEST(Gemm, SingleLineOperandsIgnoreTheirLeadingDimension) {
  detail::GemmCall call;
  call.m = 1, call.n = 300, call.k = 257;
  call.a.ld = 1027, call.b.ld = 301, call.c.ld = 303, call.b.offset = 8;
  detail::GemmProblem pr = detail::gemm_problem(call);
  EXPECT_EQ(pr.align_a, 16);  // one row: the offset (0) alone
  EXPECT_EQ(pr.align_b, 1);   // 257 rows of 301
  EXPECT_EQ(pr.align_c, 16);
  call.m = 2;
  EXPECT_EQ(detail::gemm_problem(call).align_a, 1);
  call.trans_a = true;  // stored K x M: 257 rows
  EXPECT_EQ(detail::gemm_problem(call).align_a, 1);
  call.k = 1;  // one row of M
  EXPECT_EQ(detail::gemm_problem(call).align_a, 16);
  EXPECT_EQ(detail::gemm_problem(call).align_b, 8);  // one row of N: the offset 8
  call.batch = 2, call.a.stride = 3;                  // the stride counts from two products on
  EXPECT_EQ(detail::gemm_problem(call).align_a, 1);

  const GemmForce forces[] = {test::force("direct"), test::force("tiled"), tiled(&kSmallTiles), test::force("thin")};
  int i = 0;
  for (auto [m, n, k] : {std::tuple{1, 300, 257}, {300, 1, 257}, {37, 45, 1}, {1, 1, 300}, {1, 64, 64}})
    for (Layout l : kLayouts)
      for (Transpose ta : kTrans)
        for (Transpose tb : kTrans) {
          GemmCase c;
          c.layout = l, c.trans_a = ta, c.trans_b = tb, c.m = m, c.n = n, c.k = k;
          c.lda_extra = 3, c.ldb_extra = 5, c.ldc_extra = 1;
          c.beta = i % 2 ? 0.0 : -0.5;
          const bool thin = std::min(m, n) <= 16;
          const GemmForce* f = i % 5 == 4 ? nullptr : &forces[std::size_t(i % 5)];
          ++i;
          if (f == &forces[3] && !thin) f = nullptr;
          EXPECT_TRUE(ref::check_gemm(c, f)) << "force " << (f ? f - forces : -1);
        }
}

// alpha and beta in {0, 1, -0.5, 2}; with beta = 0, C holds NaN that must not
// reach the result; with alpha = 0, A and B hold only NaN.
TEST(Gemm, AlphaBetaGrid) {
  const GemmForce forces[] = {test::force("direct"), tiled(&kSmallTiles)};
  for (const GemmForce& f : forces)
    for (double alpha : {0.0, 1.0, -0.5, 2.0})
      for (double beta : {0.0, 1.0, -0.5, 2.0}) {
        GemmCase c;
        c.m = 33, c.n = 17, c.k = 31;
        c.layout = beta == 1 ? Layout::ColMajor : Layout::RowMajor;
        c.alpha = alpha, c.beta = beta;
        EXPECT_TRUE(ref::check_gemm(c, &f));
      }
}

TEST(Gemm, EmptyInnerDimension) {
  for (double beta : {0.0, 1.0, 2.0})
    for (BiasMode bias : {BiasMode::None, BiasMode::PerColumn}) {
      GemmCase c;
      c.m = 9, c.n = 5, c.k = 0;
      c.beta = beta;
      c.bias_mode = bias;
      c.activation = bias == BiasMode::None ? Unary::Copy : Unary::Relu;
      EXPECT_TRUE(ref::check_gemm(c));
    }
  // m or n = 0: nothing happens.
  for (auto [m, n] : {std::pair{0, 4}, {4, 0}}) {
    GemmCase c;
    c.m = m, c.n = n, c.k = 3;
    EXPECT_TRUE(ref::check_gemm(c));
  }
}

TEST(Gemm, DataTypes) {
  std::vector<DType> types{DType::F16};
  if (test::device().caps().fp64) types.push_back(DType::F64);
  const GemmForce forces[] = {test::force("direct"), tiled(&kSmallTiles)};
  for (DType t : types)
    for (const GemmForce& f : forces)
      for (Accumulate acc : {Accumulate::Default, Accumulate::F32})
        for (Layout l : kLayouts) {
          if (t == DType::F64 && acc == Accumulate::F32) continue;
          GemmCase c;
          c.dtype = t, c.accumulate = acc, c.layout = l;
          c.m = 65, c.n = 33, c.k = 47, c.ldc_extra = 1, c.a_off = 1;
          c.trans_b = Transpose::Yes;
          c.beta = 0.5;
          c.bias_mode = BiasMode::PerRow;
          EXPECT_TRUE(ref::check_gemm(c, &f));
        }
}

// Bias per row and per column and the activations, in the store of both
// kernels and of the copy-back pass (each activation is a program of its
// own on every path, so each runs on one path here; the NVRTC test compiles
// them all on every kernel).
TEST(Gemm, FusedEpilogue) {
  const GemmForce direct = test::force("direct"), small = tiled(&kSmallTiles);
  const std::tuple<Unary, OpParams, const GemmForce*> acts[] = {
      {Unary::Copy, {}, &direct},       {Unary::Copy, {}, &small},          {Unary::Relu, {}, &direct},
      {Unary::Gelu, {}, &small},        {Unary::Silu, {}, &direct},         {Unary::LeakyRelu, {0.2, NAN}, &small},
      {Unary::Clamp, {-0.5, 0.5}, &direct}, {Unary::Tanh, {}, &small}};
  int i = 0;
  for (const auto& [act, params, f] : acts)
    for (BiasMode bias : {BiasMode::PerRow, BiasMode::PerColumn})
      for (std::int64_t m : {32, 37}) {  // the tiled store fits C, or copies back
        GemmCase c;
        c.layout = kLayouts[i % 2];
        c.m = m, c.n = 16, c.k = 20;
        c.beta = i % 3 ? 0.0 : 0.5;
        c.bias_mode = bias, c.activation = act, c.activation_params = params;
        ++i;
        EXPECT_TRUE(ref::check_gemm(c, f));
      }
}

// gemm_routine's threshold: always tiled, never tiled.
TEST(Gemm, RoutineThreshold) {
  for (std::int64_t t : {0, 1 << 20}) {
    const Params routine{{"INDIRECT_MIN", t}};
    const GemmForce f = test::force_routine(routine);
    GemmCase c;
    c.m = 70, c.n = 40, c.k = 50, c.beta = 1;
    EXPECT_TRUE(ref::check_gemm(c, &f));
  }
}
