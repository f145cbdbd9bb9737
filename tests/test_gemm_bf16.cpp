// GEMM with bf16 storage and with an output type other than the inputs'
// (f16 or bf16 A and B; f16, bf16 or f32 C), on the direct and tiled
// candidates (every device; the tensor cores' cases are in
// test_gemm_candidate_mma.cpp), against the double-precision reference on
// the stored (rounded) inputs (reference/gemm_check.hpp: NaN around A and B,
// a sentinel around C, f32 accumulation, the output's rounding); the type
// rules' errors (C++ and C API); and GemmCompute::FastTF32 where no tensor
// core runs it (exact f32).
#include <cmath>

#include "support/capi_support.hpp"
#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

const Params kSmallTiles{{"MWG", 32}, {"NWG", 16}, {"KWG", 8},  {"MDIMC", 8}, {"NDIMC", 4},
                         {"MDIMA", 8}, {"NDIMB", 4}, {"KWI", 2}, {"VWM", 2},  {"VWN", 2},
                         {"STRM", 1},  {"STRN", 0},  {"SA", 1},  {"SB", 1},  {"DB", 1}};

const std::pair<DType, DType> kTypes[] = {{DType::BF16, DType::BF16}, {DType::BF16, DType::F32},
                                          {DType::BF16, DType::F16},  {DType::F16, DType::BF16},
                                          {DType::F16, DType::F32}};

}  // namespace

// Every type pair on the direct kernel; on the tiled one (small tiles, so
// that both C in place and the raw product with the copy-back pass occur)
// bf16 loads with each output type and half loads into f32. PoCL compiles
// each type pair's programs anew: the lists are kept short.
TEST(GemmBf16, EveryTypeLayoutAndTransposition) {
  const GemmForce direct = test::force("direct"), tiled = test::force("tiled", &kSmallTiles);
  for (auto [t, tc] : kTypes)
    for (const GemmForce* f : {&direct, &tiled}) {
      if (f == &tiled && t == DType::F16 && tc != DType::F32) continue;
      for (Layout l : {Layout::RowMajor, Layout::ColMajor})
        for (Transpose ta : {Transpose::No, Transpose::Yes})
          for (Transpose tb : {Transpose::No, Transpose::Yes})
            for (auto [m, n, k] : {std::tuple{7, 5, 3}, {64, 32, 24}}) {
              GemmCase c;
              c.dtype = t, c.c_dtype = tc;
              c.layout = l, c.trans_a = ta, c.trans_b = tb, c.m = m, c.n = n, c.k = k;
              c.lda_extra = 3, c.ldb_extra = 1, c.ldc_extra = m == 64 ? 0 : 2;
              c.a_off = 5, c.b_off = 1, c.c_off = m == 64 ? 0 : 7;
              c.alpha = -0.5, c.beta = 2;
              EXPECT_TRUE(ref::check_gemm(c, f));
            }
    }
}

// Odd sizes with the epilogue (bias of C's type, an activation) on the
// routine's choice, and batches on both kernels.
TEST(GemmBf16, SizesEpilogueAndBatches) {
  int i = 0;
  for (auto [t, tc] : {std::pair{DType::BF16, DType::BF16}, {DType::BF16, DType::F32}, {DType::F16, DType::BF16}})
    for (auto [m, n, k] : {std::tuple{1, 1, 1}, {33, 17, 31}, {129, 65, 257}}) {
      GemmCase c;
      c.dtype = t, c.c_dtype = tc;
      c.m = m, c.n = n, c.k = k;
      c.beta = i % 2 ? 0.0 : 0.5;
      c.bias_mode = i % 2 ? BiasMode::PerRow : BiasMode::PerColumn;
      c.activation = i == 4 ? Unary::Gelu : Unary::Copy;
      c.layout = i % 2 ? Layout::ColMajor : Layout::RowMajor;
      ++i;
      EXPECT_TRUE(ref::check_gemm(c));
    }
  for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List}) {
    GemmCase c;
    c.dtype = DType::BF16, c.c_dtype = DType::F32;
    c.m = 20, c.n = 33, c.k = 17, c.mode = mode, c.batch = 4, c.trans_a = Transpose::Yes, c.beta = 0.5;
    if (mode == GemmCase::Mode::List) c.alphas = {1.0, 0.0, -2.0, 0.5}, c.betas = {0.0, 2.0, 0.5, 1.0};
    for (const GemmForce& f : {test::force("direct"), test::force("tiled", &kSmallTiles)})
      EXPECT_TRUE(ref::check_gemm(c, &f)) << f.candidate;
  }
}

// k = 0 and alpha = 0: the epilogue alone, in C's type.
TEST(GemmBf16, EpilogueOnly) {
  for (auto [t, tc] : kTypes) {
    GemmCase c;
    c.dtype = t, c.c_dtype = tc;
    c.m = 9, c.n = 5, c.k = 0, c.beta = 2, c.bias_mode = BiasMode::PerColumn, c.activation = Unary::Relu;
    EXPECT_TRUE(ref::check_gemm(c));
    c.k = 4, c.alpha = 0;
    EXPECT_TRUE(ref::check_gemm(c));
  }
}

// FastTF32 where no tensor-core kernel runs: exact f32. A = 1 + 2^-12 (1 in
// tf32), B = 1: k * A exactly.
TEST(GemmBf16, FastTf32ElsewhereIsExactF32) {
  const Capabilities& caps = test::device().caps();
  if (caps.backend == Backend::CUDA && caps.compute_capability_major >= 8)
    GTEST_SKIP() << "the tensor cores run tf32 here (test_gemm_candidate_mma's Tf32RoundsTheInputs)";
  for (const char* cand : {"", "direct", "tiled"})
    for (float v : test::tf32_probe(test::force(cand), GemmCompute::FastTF32))
      ASSERT_EQ(v, float(test::kProbeK) * test::kProbeA) << cand;
  GemmCase g;
  g.compute = GemmCompute::FastTF32;
  g.m = 65, g.n = 33, g.k = 100, g.beta = 1;
  EXPECT_TRUE(ref::check_gemm(g));
}

// ---- the type rules ----

TEST(GemmBf16, TypeErrorsInCpp) {
  const Queue& q = test::queue();
  auto a = q.context().alloc<bfloat16>(20), b = q.context().alloc<bfloat16>(15);
  auto c = q.context().alloc<float>(12);
  auto run = [&](const GemmOptions& o) {
    gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, 4, 3, 5, 1.0, a, 5, b, 3, 0.0, c, 3, o);
  };
  EXPECT_NO_THROW(run({}));
  // The bias has C's type (f32 here), not the inputs'.
  GemmOptions o;
  o.bias_mode = BiasMode::PerColumn;
  auto bias16 = q.context().alloc<bfloat16>(3);
  o.bias = bias16;
  test::expect_error(Status::InvalidType, "bias is bf16 but c is f32", [&] { run(o); });
  auto bias32 = q.context().alloc<float>(3);
  q.fill(bias32, 0.0f).wait();
  o.bias = bias32;
  EXPECT_NO_THROW(run(o));
  // FastTF32 is for f32 matrices.
  GemmOptions t;
  t.compute = GemmCompute::FastTF32;
  test::expect_error(Status::InvalidArgument, "FastTF32 applies to f32 matrices, not bf16", [&] { run(t); });
  t.compute = GemmCompute(7);
  test::expect_error(Status::InvalidArgument, "unknown compute mode", [&] { run(t); });
}

namespace capi = optune::test::capi;

// The C API's buffers are untyped: every combination reaches the library's
// rules.
TEST(GemmBf16, TypeErrorsInTheCApi) {
  using capi::Buf;
  using capi::env;
  // Runs the call and keeps its status and message (releasing the buffers
  // afterwards is a call of its own, which clears the message).
  struct Result {
    optune_status status;
    std::string message;
  };
  const auto call = [](optune_dtype ta, optune_dtype tb, optune_dtype tc, const optune_gemm_options* o = nullptr) {
    Buf a(ta, 20), b(tb, 15), c(tc, 12);
    for (optune_buffer h : {a.h, b.h, c.h}) optune_buffer_fill(env().queue, h, 0, nullptr, 0, nullptr);
    const optune_status st = optune_gemm(env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_NO_TRANS, 4, 3, 5,
                                         1.0, a.h, 5, b.h, 3, 0.0, c.h, 3, o, nullptr, 0, nullptr);
    return Result{st, optune_last_error_message()};
  };
  const auto fails = [](const Result& r, optune_status want, const std::string& needle) -> ::testing::AssertionResult {
    if (r.status != want || r.message.find(needle) == std::string::npos)
      return ::testing::AssertionFailure() << optune_status_name(r.status) << ": '" << r.message << "'";
    return ::testing::AssertionSuccess();
  };
  EXPECT_TRUE(fails(call(OPTUNE_F16, OPTUNE_BF16, OPTUNE_F32), OPTUNE_INVALID_TYPE, "a is f16 but b is bf16"));
  EXPECT_TRUE(fails(call(OPTUNE_BF16, OPTUNE_BF16, OPTUNE_F64), OPTUNE_INVALID_TYPE, "c is f64 but a and b are bf16"));
  EXPECT_TRUE(fails(call(OPTUNE_F32, OPTUNE_F32, OPTUNE_F16), OPTUNE_INVALID_TYPE, "f32 products write f32"));
  EXPECT_TRUE(fails(call(OPTUNE_I32, OPTUNE_I32, OPTUNE_I32), OPTUNE_INVALID_TYPE, "i32 matrices are not supported"));
  EXPECT_TRUE(fails(call(OPTUNE_U8, OPTUNE_U8, OPTUNE_F32), OPTUNE_INVALID_TYPE, "u8 matrices"));
  EXPECT_TRUE(fails(call(OPTUNE_BF16, OPTUNE_BF16, OPTUNE_I8), OPTUNE_INVALID_TYPE, "c is i8"));
  optune_gemm_options o{};
  o.compute = OPTUNE_GEMM_COMPUTE_FAST_TF32;
  EXPECT_TRUE(fails(call(OPTUNE_F16, OPTUNE_F16, OPTUNE_F16, &o), OPTUNE_INVALID_ARGUMENT, "FastTF32"));
  o.compute = optune_gemm_compute(2);
  EXPECT_TRUE(fails(call(OPTUNE_F32, OPTUNE_F32, OPTUNE_F32, &o), OPTUNE_INVALID_ARGUMENT, "options->compute"));
  // Valid mixed calls run, and compute: a bf16 product into f32 through the C API.
  o.compute = OPTUNE_GEMM_COMPUTE_FAST_TF32;
  const Result ok = call(OPTUNE_F32, OPTUNE_F32, OPTUNE_F32, &o);
  EXPECT_EQ(ok.status, OPTUNE_SUCCESS) << ok.message;
  Buf a(OPTUNE_BF16, 6), b(OPTUNE_BF16, 6), c(OPTUNE_F32, 4);
  const std::uint16_t av[] = {bfloat16(1.0f).bits, bfloat16(2.0f).bits, bfloat16(3.0f).bits,
                              bfloat16(-1.0f).bits, bfloat16(0.5f).bits, bfloat16(0.25f).bits};
  const std::uint16_t bv[] = {bfloat16(1.0f).bits, bfloat16(0.0f).bits, bfloat16(1.0f).bits,
                              bfloat16(1.0f).bits, bfloat16(2.0f).bits, bfloat16(-1.0f).bits};
  C_OK(optune_buffer_write(env().queue, a.h, av, 6, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(env().queue, b.h, bv, 6, nullptr, 0, nullptr));
  // A 2 x 3, B 3 x 2, C 2 x 2 row-major.
  C_OK(optune_gemm(env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_NO_TRANS, 2, 2, 3, 1.0, a.h, 3, b.h, 2, 0.0,
                   c.h, 2, nullptr, nullptr, 0, nullptr));
  const auto got = capi::read_f32(c.h, 4);
  EXPECT_EQ(got, (std::vector<float>{1 + 2 + 6, 0 + 2 - 3, -1 + 0.5f + 0.5f, 0 + 0.5f - 0.25f}));
}
