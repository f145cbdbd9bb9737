// Batched GEMM against the double-precision reference: strided batches (a
// shared A among them) and offset lists with per-product alpha and beta, of
// 1, 3 and 100 products, on both paths; the fused epilogue on batches; and
// a batch longer than a CUDA grid's z dimension.
#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {


// Small tiles, so that small products take several tiles and K steps.
const Params kSmallTiles{{"MWG", 16}, {"NWG", 16}, {"KWG", 8},  {"MDIMC", 4}, {"NDIMC", 8},
                         {"MDIMA", 8}, {"NDIMB", 8}, {"KWI", 2}, {"VWM", 2},  {"VWN", 2},
                         {"STRM", 0},  {"STRN", 1},  {"SA", 1},  {"SB", 1},  {"DB", 1}};

GemmForce small_tiles() {
  return test::force("tiled", &kSmallTiles);
}

// Sizes per batch length: a product that fits the small tiles (32 x 16 x 16)
// and odd ones.
GemmCase batched(GemmCase::Mode mode, std::int64_t batch, int variant) {
  GemmCase c;
  c.mode = mode;
  c.batch = batch;
  c.layout = variant % 2 ? Layout::ColMajor : Layout::RowMajor;
  c.trans_a = variant % 3 == 1 ? Transpose::Yes : Transpose::No;
  c.trans_b = variant % 4 >= 2 ? Transpose::Yes : Transpose::No;
  if (batch >= 100) c.m = 7, c.n = 5, c.k = 3 + variant % 2 * 13;
  else if (variant % 2) c.m = 32, c.n = 16, c.k = 16;
  else c.m = 17, c.n = 9, c.k = 11;
  c.lda_extra = variant % 2, c.ldc_extra = 2;
  c.a_off = 3, c.c_off = 1;
  c.alpha = -0.5, c.beta = variant % 3 ? 0.0 : 2.0;
  return c;
}

}  // namespace

TEST(GemmBatched, Strided) {
  const GemmForce forces[] = {test::force("direct"), small_tiles()};
  for (const GemmForce& f : forces)
    for (std::int64_t batch : {1, 3, 100})
      for (int variant = 0; variant < 4; ++variant) {
        GemmCase c = batched(GemmCase::Mode::Strided, batch, variant);
        c.shared_a = variant == 3;  // stride_a = 0: one A for every product
        EXPECT_TRUE(ref::check_gemm(c, &f));
      }
}

// Offsets in shuffled order, alpha and beta per product (alpha = 0 or
// beta = 0 for some: their A, B or C may not be read).
TEST(GemmBatched, OffsetList) {
  const GemmForce forces[] = {test::force("direct"), small_tiles()};
  for (const GemmForce& f : forces)
    for (std::int64_t batch : {1, 3, 100})
      for (int variant = 0; variant < 4; ++variant) {
        GemmCase c = batched(GemmCase::Mode::List, batch, variant);
        for (std::int64_t i = 0; i < batch; ++i) {
          c.alphas.push_back(i % 5 == 3 ? 0.0 : 1.0 - 0.25 * double(i % 4));
          c.betas.push_back(i % 3 == 0 ? 0.0 : 0.5 * double(i % 4));
        }
        EXPECT_TRUE(ref::check_gemm(c, &f));
      }
}

TEST(GemmBatched, RoutineChoosesAPath) {
  for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List})
    for (std::int64_t batch : {3, 100}) {
      GemmCase c = batched(mode, batch, 1);
      c.beta = 1;
      EXPECT_TRUE(ref::check_gemm(c));
    }
}

TEST(GemmBatched, FusedEpilogue) {
  const GemmForce forces[] = {test::force("direct"), small_tiles()};
  for (const GemmForce& f : forces)
    for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List}) {
      GemmCase c = batched(mode, 3, mode == GemmCase::Mode::List ? 1 : 2);
      c.bias_mode = mode == GemmCase::Mode::List ? BiasMode::PerRow : BiasMode::PerColumn;
      c.activation = Unary::Relu;
      EXPECT_TRUE(ref::check_gemm(c, &f));
    }
}

// More products than a CUDA grid has groups in z: the batch launches in
// chunks (tiny products and groups keep it quick).
TEST(GemmBatched, LongerThanAGrid) {
  const Params tiny{{"WGD", 8}, {"MDIMCD", 2}, {"NDIMCD", 2}, {"KWID", 1}, {"VWMD", 1}, {"VWND", 1},
                    {"PADA", 1}, {"PADB", 1}};
  const GemmForce f = test::force("direct", &tiny);
  GemmCase c;
  c.mode = GemmCase::Mode::Strided;
  c.batch = 65536 + 7;
  c.m = 2, c.n = 1, c.k = 2;
  c.beta = 1;
  EXPECT_TRUE(ref::check_gemm(c, &f));
}
