// gemm_tiled with cp.async staging (ASYNC = 1), forced, against the
// double-precision reference (reference/gemm_check.hpp: fresh random data,
// NaN around the operands and in C where beta = 0, a sentinel around C):
// operands in the kernel's layout (no helper pass) and off it (the helpers
// pad and transpose; C copies back), both layouts and every transposition,
// leading dimensions and offsets, the alpha/beta grid, K steps fewer than
// the stages, batches (a list product with alpha = 0 runs no K step), the
// fused epilogue, two and three stages, f32 and f64.
//
// Runs on CUDA devices of compute capability 8.0 or newer: the gpu label's
// entry (test_gemm_async.cuda, OPTUNE_DEVICE=cuda:0). Every case skips on
// other devices, and where OPTUNE_DEVICE names a device that does not exist.
#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

// The NVIDIA defaults (128 x 128 x 16 tiles, 256 work-items, float4) with
// cp.async; `small` shrinks the tiles so that small problems take several
// tiles and K steps.
Params async_f32(std::int64_t stages, bool small) {
  Params p{{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"MDIMA", 32},
           {"NDIMB", 32}, {"KWI", 2},   {"VWM", 4},  {"VWN", 4},    {"STRM", 1},   {"STRN", 1},
           {"SA", 1},     {"SB", 1},    {"DB", 1},   {"ASYNC", 1},  {"STAGES", stages}};
  if (small) {
    p["MWG"] = 32, p["NWG"] = 64, p["MDIMC"] = 8, p["NDIMC"] = 8, p["MDIMA"] = 8, p["NDIMB"] = 16;
    p["KWI"] = 4, p["STRM"] = 0;
  }
  return p;
}

// f64: double2 copies on 64 x 64 tiles (three stages fill 48 KiB).
Params async_f64(std::int64_t stages) {
  return {{"MWG", 64},  {"NWG", 64}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"MDIMA", 16},
          {"NDIMB", 16}, {"KWI", 2},  {"VWM", 2},  {"VWN", 2},    {"STRM", 1},   {"STRN", 1},
          {"SA", 1},     {"SB", 1},   {"DB", 1},   {"ASYNC", 1},  {"STAGES", stages}};
}

class GemmAsync : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string why = test::why_not_cuda_sm80("cp.async"); !why.empty()) GTEST_SKIP() << why;
  }

  // Runs c with p forced on the tiled path. The descriptor must accept p
  // for the call: the routine would otherwise drop ASYNC and the case would
  // test the register path.
  static ::testing::AssertionResult check(const Params& p, const GemmCase& c) {
    const Capabilities& caps = test::device().caps();
    const auto& fam = detail::families::gemm_tiled();
    const detail::GemmProblem pr = test::dense_problem(c.dtype, c.m, c.n, c.k, c.batch);
    if (std::string why = fam.check(fam.complete(p, caps), caps, pr); !why.empty())
      return ::testing::AssertionFailure() << detail::params_to_json(p) << " refused: " << why;
    const GemmForce f = test::force("tiled", &p);
    ::testing::AssertionResult r = ref::check_gemm(c, &f);
    if (!r) r << " with " << detail::params_to_json(p);
    return r;
  }

  static std::vector<Params> f32_configs() {
    return {async_f32(2, false), async_f32(3, false), async_f32(2, true), async_f32(3, true)};
  }
};

detail::GemmProblem problem(DType t) { return test::dense_problem(t, 4096, 4096, 4096); }

// "" or the descriptor's reason, for p completed with the defaults.
std::string why(const Params& p, const Capabilities& caps, DType t = DType::F32) {
  const auto& fam = detail::families::gemm_tiled();
  return fam.check(fam.complete(p, caps), caps, problem(t));
}

}  // namespace

// ---- the descriptor's rules (no device needed) ----

TEST(GemmAsyncDescriptor, OnlyWhereCpAsyncRuns) {
  const Capabilities sm90 = test::nvidia_caps(Backend::CUDA, 90), sm80 = test::nvidia_caps(Backend::CUDA, 80);
  EXPECT_EQ(why(async_f32(2, false), sm90), "");
  EXPECT_EQ(why(async_f32(3, false), sm80), "");  // 48 KiB: the static limit exactly
  EXPECT_EQ(why(async_f32(3, true), sm90), "");
  EXPECT_EQ(why(async_f64(3), sm90, DType::F64), "");
  const auto refused = [](const std::string& reason, const char* what) {
    EXPECT_NE(reason.find("ASYNC"), std::string::npos) << what << ": '" << reason << "'";
  };
  refused(why(async_f32(2, false), test::nvidia_caps(Backend::CUDA, 75)), "compute capability 7.5");
  refused(why(async_f32(2, false), test::nvidia_caps(Backend::OpenCL, 90)), "OpenCL");
  refused(why(async_f32(2, false), sm90, DType::F16), "f16");
  Params p = async_f64(2);
  p["VWN"] = 1;
  refused(why(p, sm90, DType::F64), "f64 with 8-byte copies of B");
  p = async_f32(2, false);
  p["VWN"] = 2;
  refused(why(p, sm90), "8-byte copies of B");
  p = async_f32(2, false);
  p["SA"] = 0;
  refused(why(p, sm90), "A not staged");
  p = async_f32(2, false);
  p["DB"] = 0;
  refused(why(p, sm90), "DB other than the default");
  // Three f64 stages of 128 x 128 x 16 tiles exceed local memory.
  p = async_f64(3);
  p["MWG"] = p["NWG"] = 128, p["MDIMA"] = p["NDIMB"] = 32;
  EXPECT_NE(why(p, sm90, DType::F64).find("local memory"), std::string::npos);
  // STAGES is the pipeline's: without ASYNC only its default is a point.
  p = async_f32(3, false);
  p["ASYNC"] = 0;
  EXPECT_NE(why(p, sm90).find("STAGES"), std::string::npos);
}

// Entries stored before ASYNC existed (the shipped H100 one has none of its
// keys) mean ASYNC = 0, and stay valid.
TEST(GemmAsyncDescriptor, EntriesWithoutTheKeysMeanOff) {
  const Params old{{"DB", 1},   {"KWG", 16},   {"KWI", 2},  {"MDIMA", 32}, {"MDIMC", 16},
                   {"MWG", 128}, {"NDIMB", 32}, {"NDIMC", 16}, {"NWG", 128}, {"SA", 1},
                   {"SB", 1},   {"STRM", 1},   {"STRN", 1}, {"VWM", 4},   {"VWN", 4}};
  const Capabilities sm90 = test::nvidia_caps(Backend::CUDA, 90);
  const Params full = detail::families::gemm_tiled().complete(old, sm90);
  EXPECT_EQ(full.at("ASYNC"), 0);
  EXPECT_EQ(full.at("STAGES"), 2);
  EXPECT_EQ(why(old, sm90), "");
  EXPECT_EQ(why(old, test::nvidia_caps(Backend::OpenCL, 90)), "");
  for (const Capabilities& caps : {sm90, test::nvidia_caps(Backend::OpenCL, 90)}) {
    const Params d = detail::families::gemm_tiled().defaults(caps);
    EXPECT_EQ(d.at("ASYNC"), 0);
    EXPECT_EQ(why(d, caps), "");
  }
}

// ---- on a CUDA device ----

// m, n and k multiples of the tiles with A stored K x M and B K x N (no
// helper pass), then sizes around the tiles (padding, C copied back),
// including K of one step and of fewer steps than stages.
TEST_F(GemmAsync, Sizes) {
  for (const Params& p : f32_configs()) {
    GemmCase fits;
    fits.trans_a = Transpose::Yes;
    fits.m = 256, fits.n = 256, fits.k = 128;
    fits.beta = 0.5;
    EXPECT_TRUE(check(p, fits));
    for (auto [m, n, k] : {std::tuple{1, 1, 1}, {3, 5, 16}, {17, 33, 17}, {37, 21, 19}, {129, 130, 131},
                           {300, 200, 40}, {128, 128, 1000}, {513, 1024, 257}}) {
      GemmCase c;
      c.m = m, c.n = n, c.k = k;
      c.beta = 1;
      EXPECT_TRUE(check(p, c));
    }
  }
}

TEST_F(GemmAsync, LayoutsAndTranspositions) {
  for (const Params& p : {async_f32(2, false), async_f32(3, true)})
    for (Layout l : {Layout::RowMajor, Layout::ColMajor})
      for (Transpose ta : {Transpose::No, Transpose::Yes})
        for (Transpose tb : {Transpose::No, Transpose::Yes})
          for (auto [m, n, k] : {std::tuple{256, 128, 64}, {70, 45, 33}}) {
            GemmCase c;
            c.layout = l, c.trans_a = ta, c.trans_b = tb, c.m = m, c.n = n, c.k = k;
            c.alpha = -0.5, c.beta = 2;
            EXPECT_TRUE(check(p, c));
          }
}

// Aligned leading dimensions and offsets keep the operands in place;
// unaligned ones send them through the helpers.
TEST_F(GemmAsync, LeadingDimensionsAndOffsets) {
  for (const Params& p : {async_f32(2, true), async_f32(3, false)})
    for (auto [lda, ldb, ldc, ao, bo, co] : {std::tuple{4, 8, 4, 4, 8, 12}, {64, 0, 128, 0, 4, 0},
                                             {1, 3, 5, 1, 2, 3}, {13, 4, 0, 4, 31, 4}}) {
      GemmCase c;
      c.trans_a = Transpose::Yes, c.m = 256, c.n = 128, c.k = 96;
      c.lda_extra = lda, c.ldb_extra = ldb, c.ldc_extra = ldc;
      c.a_off = std::size_t(ao), c.b_off = std::size_t(bo), c.c_off = std::size_t(co);
      c.beta = -0.5;
      EXPECT_TRUE(check(p, c));
    }
}

// beta = 0 with NaN in C (check_gemm poisons it); alpha = 0 takes the
// direct kernel, so it is left to the batch test below.
TEST_F(GemmAsync, AlphaBetaGrid) {
  for (const Params& p : {async_f32(2, false), async_f32(3, true)})
    for (double alpha : {1.0, -0.5, 2.0})
      for (double beta : {0.0, 1.0, -0.5, 2.0})
        for (auto [m, n, k] : {std::tuple{256, 256, 64}, {33, 17, 31}}) {
          GemmCase c;
          c.m = m, c.n = n, c.k = k;
          c.layout = beta == 1 ? Layout::ColMajor : Layout::RowMajor;
          c.alpha = alpha, c.beta = beta;
          EXPECT_TRUE(check(p, c));
        }
}

// Strided and list batches; the list's second product has alpha = 0, so
// its groups run no K step (their copies are never issued).
TEST_F(GemmAsync, Batches) {
  for (const Params& p : {async_f32(2, true), async_f32(3, false)})
    for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List})
      for (auto [m, n, k] : {std::tuple{128, 128, 64}, {45, 70, 50}}) {
        GemmCase c;
        c.mode = mode, c.batch = 3;
        c.trans_a = Transpose::Yes;
        c.m = m, c.n = n, c.k = k;
        c.beta = 0.5;
        if (mode == GemmCase::Mode::List) c.alphas = {1.0, 0.0, -2.0}, c.betas = {0.0, 2.0, 0.5};
        EXPECT_TRUE(check(p, c));
      }
}

TEST_F(GemmAsync, FusedEpilogue) {
  for (const Params& p : {async_f32(2, false), async_f32(3, true)})
    for (std::int64_t m : {256, 250}) {  // the store fits C, or copies back
      GemmCase c;
      c.m = m, c.n = 128, c.k = 48;
      c.beta = 0.5;
      c.bias_mode = m == 256 ? BiasMode::PerColumn : BiasMode::PerRow;
      c.activation = Unary::Gelu;
      EXPECT_TRUE(check(p, c));
    }
}

TEST_F(GemmAsync, Double) {
  if (!test::device().caps().fp64) GTEST_SKIP() << "no fp64";
  for (std::int64_t stages : {2, 3})
    for (auto [m, n, k] : {std::tuple{128, 128, 64}, {65, 33, 47}, {200, 130, 300}})
      for (Transpose tb : {Transpose::No, Transpose::Yes}) {
        GemmCase c;
        c.dtype = DType::F64;
        c.trans_b = tb;
        c.m = m, c.n = n, c.k = k;
        c.alpha = -0.5, c.beta = m == 128 ? 0.0 : 1.5;
        EXPECT_TRUE(check(async_f64(stages), c));
      }
}
