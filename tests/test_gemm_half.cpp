// f16 arithmetic in the tiled and direct GEMM kernels (COMP_HALF): on a
// device with half arithmetic (cl_khr_fp16, or CUDA with cuda_fp16.h), an
// f16 -> f16 product with Accumulate::Default multiplies and sums each K
// tile in half (half vector FMAs, at most KWG or WGD terms) and adds the
// tiles' partial sums in f32. Elsewhere f16 is storage with f32 arithmetic.
//
// The descriptors' rules run everywhere. The products run where the device
// has half arithmetic: the gpu label's CUDA entry (OPTUNE_DEVICE=cuda:0,
// where the tiled candidate is forced past the tensor-core ones), NVIDIA's
// OpenCL, Adreno, Mali, Intel; PoCL here reports no cl_khr_fp16 and skips.
// They check every element against the double reference with the bound of
// half rounding over one K tile (GemmCase::half_terms = the forced tile) plus
// f32 rounding over K (reference/gemm_check.hpp), and a product of ones with
// K = 4096 whose exact result 4096 a sum kept in half all along would miss
// (2048 + 1 rounds to 2048 in f16).
#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

std::map<std::string, std::string> defines_of(const detail::Defines& list) {
  std::map<std::string, std::string> d;
  for (const auto& [k, v] : list) d[k] = v;
  return d;
}

detail::GemmProblem half_problem(bool comp_half) {
  detail::GemmProblem pr = test::dense_problem(DType::F16, 256, 256, 256);
  pr.comp_half = comp_half;
  return pr;
}

// Tiled shapes: K tiles of 16 and 32, scalar and two-lane vectors (CUDA's
// half2), operands staged or read from global memory.
const Params kTiledShapes[] = {
    {{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"MDIMA", 8}, {"NDIMB", 8}, {"VWM", 2},
     {"VWN", 2}, {"SA", 1}, {"SB", 1}, {"DB", 1}},
    {{"MWG", 64}, {"NWG", 64}, {"KWG", 32}, {"MDIMC", 16}, {"NDIMC", 8}, {"MDIMA", 16}, {"NDIMB", 8}, {"VWM", 1},
     {"VWN", 1}, {"KWI", 4}, {"SA", 1}, {"SB", 1}, {"DB", 0}},
    {{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}, {"SA", 0}, {"SB", 0},
     {"DB", 0}},
};

// Direct shapes: K steps of 16 and 32 (one group's tile of C and of K).
const Params kDirectShapes[] = {{{"WGD", 16}, {"MDIMCD", 8}, {"NDIMCD", 8}, {"KWID", 2}, {"VWMD", 1}, {"VWND", 1}},
                                {{"WGD", 32}, {"MDIMCD", 8}, {"NDIMCD", 8}, {"KWID", 2}, {"VWMD", 1}, {"VWND", 1}}};

}  // namespace

// ---- the descriptors (no device needed) ----

TEST(GemmHalfDescriptor, TiledAndDirectDefines) {
  const detail::GemmTiledFamily& tiled = detail::families::gemm_tiled();
  const detail::GemmDirectFamily& direct = detail::families::gemm_direct();
  const Capabilities caps = test::nvidia_caps(Backend::OpenCL, 90);
  for (bool comp_half : {false, true}) {
    const detail::GemmProblem pr = half_problem(comp_half);
    for (const auto& d : {defines_of(tiled.defines(tiled.defaults(caps), pr)),
                          defines_of(direct.defines(direct.defaults(caps), pr))}) {
      EXPECT_EQ(d.at("TYPE"), "half");
      EXPECT_EQ(d.at("COMP"), comp_half ? "half" : "float");
      EXPECT_EQ(d.at("COMP_HALF"), comp_half ? "1" : "0");
    }
  }
  // bf16 and f32 never compute in half, whatever comp_half says.
  for (DType t : {DType::BF16, DType::F32}) {
    detail::GemmProblem pr = test::dense_problem(t, 256, 256, 256);
    pr.comp_half = true;
    EXPECT_EQ(defines_of(tiled.defines(tiled.defaults(caps), pr)).at("COMP_HALF"), "0");
    EXPECT_EQ(defines_of(direct.defines(direct.defaults(caps), pr)).at("COMP_HALF"), "0");
  }
}

// CUDA's half vectors are half2: half arithmetic keeps VWN = 2 (half2 FMAs)
// and VWM = 2; wider stored values are narrowed by fit, refused by check.
TEST(GemmHalfDescriptor, CudaHalfVectorsAreHalf2) {
  const detail::GemmTiledFamily& tiled = detail::families::gemm_tiled();
  const Capabilities cuda = test::nvidia_caps(Backend::CUDA, 90);
  const detail::GemmProblem pr = half_problem(true);
  const Params wide{{"VWM", 4}, {"VWN", 4}};
  const auto fitted = tiled.fit_or_none(wide, cuda, pr);
  ASSERT_TRUE(fitted);
  EXPECT_EQ(fitted->at("VWM"), 2);
  EXPECT_EQ(fitted->at("VWN"), 2);
  EXPECT_NE(tiled.check(tiled.complete(wide, cuda), cuda, pr), "");
  // OpenCL has half4 .. half16.
  const Capabilities ocl = test::nvidia_caps(Backend::OpenCL, 90);
  EXPECT_EQ(tiled.fit(wide, ocl, pr).at("VWN"), 4);
  // f16 storage with f32 arithmetic loads half packs as float4.
  EXPECT_EQ(tiled.fit(wide, cuda, half_problem(false)).at("VWN"), 4);
}

// The shapes the device tests force run on every kind of device that has
// half arithmetic: CUDA (half2), NVIDIA's OpenCL, a mobile GPU, a CPU.
TEST(GemmHalfDescriptor, ForcedShapesRunEverywhere) {
  const detail::GemmTiledFamily& tiled = detail::families::gemm_tiled();
  const detail::GemmDirectFamily& direct = detail::families::gemm_direct();
  Capabilities mali = test::nvidia_caps(Backend::OpenCL, 90), cpu = mali;
  mali.vendor = "ARM", mali.architecture = "mali-valhall", mali.max_work_group_size = 512;
  mali.max_work_item_sizes = {512, 512, 512}, mali.local_mem_bytes = 32 * 1024;
  cpu.type = DeviceType::CPU, cpu.vendor = "GenuineIntel", cpu.architecture = "pocl-x86";
  const detail::GemmProblem pr = half_problem(true);
  const Capabilities all[] = {test::nvidia_caps(Backend::CUDA, 90), test::nvidia_caps(Backend::OpenCL, 90), mali, cpu};
  for (const Capabilities& caps : all) {
    for (const Params& p : kTiledShapes) {
      const Params full = tiled.complete(p, caps);
      EXPECT_EQ(tiled.check(full, caps, pr), "") << caps.architecture << " " << detail::params_to_json(p);
      const auto fitted = tiled.fit_or_none(p, caps, pr);
      ASSERT_TRUE(fitted);
      EXPECT_EQ(*fitted, full) << caps.architecture << ": fit changed the forced shape";
    }
    for (const Params& p : kDirectShapes)
      EXPECT_EQ(direct.check(direct.complete(p, caps), caps, pr), "") << caps.architecture;
  }
}

// ---- on a device with half arithmetic ----

namespace {

class GemmHalfArithmetic : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      if (!test::device().caps().fp16)
        GTEST_SKIP() << "the device under test (" << test::device().caps().spec
                     << ") has no half arithmetic (cl_khr_fp16); f16 is storage there";
    } catch (const Error& e) {
      GTEST_SKIP() << "no device to test: " << e.what();
    }
  }

  // An f16 -> f16 product with the default accumulation (half arithmetic here).
  static GemmCase half_case(std::int64_t m, std::int64_t n, std::int64_t k) {
    GemmCase c;
    c.dtype = DType::F16, c.accumulate = Accumulate::Default;
    c.m = m, c.n = n, c.k = k;
    return c;
  }
  static ::testing::AssertionResult check(GemmCase c, const std::string& candidate, const Params& p,
                                          std::int64_t tile) {
    c.half_terms = tile;
    const GemmForce f = test::force(candidate, &p);
    ::testing::AssertionResult r = ref::check_gemm(c, &f);
    if (!r) r << " (" << candidate << " with " << detail::params_to_json(p) << ")";
    return r;
  }
};

const std::tuple<int, int, int> kSizes[] = {{1, 1, 1}, {33, 17, 45}, {64, 96, 128}, {130, 70, 1000}};

}  // namespace

TEST_F(GemmHalfArithmetic, TiledTranspositionsAndSizes) {
  for (const Params& p : kTiledShapes)
    for (Layout l : {Layout::RowMajor, Layout::ColMajor})
      for (Transpose ta : {Transpose::No, Transpose::Yes})
        for (Transpose tb : {Transpose::No, Transpose::Yes})
          for (auto [m, n, k] : kSizes) {
            GemmCase c = half_case(m, n, k);
            c.layout = l, c.trans_a = ta, c.trans_b = tb;
            c.ldc_extra = 3, c.c_off = 5;
            c.alpha = -0.5, c.beta = 2;
            EXPECT_TRUE(check(c, "tiled", p, p.at("KWG")));
          }
}

TEST_F(GemmHalfArithmetic, TiledEpilogueAndBatches) {
  const Params& p = kTiledShapes[0];
  int i = 0;
  for (Unary act : {Unary::Copy, Unary::Relu, Unary::Gelu})
    for (BiasMode bias : {BiasMode::None, BiasMode::PerRow, BiasMode::PerColumn}) {
      GemmCase c = half_case(70, 45, 300);
      c.layout = i % 2 ? Layout::ColMajor : Layout::RowMajor;
      c.beta = i % 3 ? 0.0 : 0.5;
      c.bias_mode = bias, c.activation = act;
      ++i;
      EXPECT_TRUE(check(c, "tiled", p, p.at("KWG")));
    }
  for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List}) {
    GemmCase c = half_case(40, 33, 70);
    c.mode = mode, c.batch = 5, c.beta = 1;
    EXPECT_TRUE(check(c, "tiled", p, p.at("KWG")));
  }
}

TEST_F(GemmHalfArithmetic, DirectKernel) {
  for (const Params& p : kDirectShapes)
    for (Transpose ta : {Transpose::No, Transpose::Yes})
      for (auto [m, n, k] : kSizes) {
        GemmCase c = half_case(m, n, k);
        c.trans_a = ta, c.beta = -1;
        EXPECT_TRUE(check(c, "direct", p, p.at("WGD")));
      }
}

// Every element of ones(M x 4096) ones(4096 x N) is 4096, exact in f16; a
// sum kept in f16 all along stops at 2048 (2048 + 1 rounds to 2048), one
// summed in f16 over a K tile and in f32 across tiles is exact.
TEST_F(GemmHalfArithmetic, PartialSumsReachF32) {
  const Queue& q = test::queue();
  const std::int64_t m = 64, n = 64, k = 4096;
  auto a = q.context().alloc<half>(std::size_t(m * k)), b = q.context().alloc<half>(std::size_t(k * n));
  auto c = q.context().alloc<half>(std::size_t(m * n));
  q.fill(a, half(1.0f)).wait();
  q.fill(b, half(1.0f)).wait();
  const std::pair<std::string, Params> forced[] = {{"tiled", kTiledShapes[0]}, {"tiled", kTiledShapes[1]},
                                                   {"direct", kDirectShapes[1]}};
  for (const auto& [candidate, p] : forced) {
    q.fill(c, half(-1.0f)).wait();
    {
      const GemmForce f = test::force(candidate, &p);
      detail::GemmForceScope scope(f);
      gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0, a, k, b, n, 0.0, c, n).wait();
    }
    const std::vector<half> got = q.download(c);
    std::size_t wrong = 0;
    for (const half& v : got) wrong += float(v) != 4096.0f;
    EXPECT_EQ(wrong, 0u) << candidate << " " << detail::params_to_json(p) << ": first element " << float(got[0]);
  }
}
