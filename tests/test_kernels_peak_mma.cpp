// The tensor cores' ceiling (peak/peak_mma.cl, family peak_mma): its
// descriptor everywhere; on a CUDA device of compute capability 8.0 or newer
// (the gpu label's entry) every mma.sync type, and on 9.0 every wgmma type,
// run and checked element by element: every element of A and B is 2^-4, so
// each work-item's sum of accumulators is known exactly (> 0).
#include "kernels/families.hpp"
#include "support/gemm_fixture.hpp"

using namespace optune;
using namespace optune::detail;

namespace {

const PeakMmaFamily& fam() { return families::peak_mma(); }

PeakMmaProblem problem(DType t, bool wgmma, std::int64_t items = 512, std::int64_t iters = 16) {
  PeakMmaProblem pr;
  pr.dtype = t, pr.wgmma = wgmma, pr.items = items, pr.iters = iters;
  return pr;
}

std::map<std::string, std::string> defines_of(const Defines& list) {
  std::map<std::string, std::string> d;
  for (const auto& [k, v] : list) d[k] = v;
  return d;
}

}  // namespace

TEST(PeakMmaDescriptor, WhereItRuns) {
  const Capabilities sm80 = test::nvidia_caps(Backend::CUDA, 80), sm90 = test::nvidia_caps(Backend::CUDA, 90);
  const Params p = fam().defaults(sm90);
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    EXPECT_EQ(fam().check(p, sm80, problem(t, false)), "");
    EXPECT_EQ(fam().check(p, sm90, problem(t, true)), "");
    EXPECT_NE(fam().check(p, sm80, problem(t, true)).find("9.0"), std::string::npos);
    EXPECT_NE(fam().check(p, test::nvidia_caps(Backend::CUDA, 100), problem(t, true)), "");
    EXPECT_NE(fam().check(p, test::nvidia_caps(Backend::CUDA, 75), problem(t, false)).find("8.0"),
              std::string::npos);
    EXPECT_NE(fam().check(p, test::nvidia_caps(Backend::OpenCL, 90), problem(t, false)), "");
  }
  EXPECT_NE(fam().check(p, sm90, problem(DType::F64, false)), "");
  EXPECT_NE(fam().check(p, sm90, problem(DType::F16, false, 0)), "");
  EXPECT_EQ(fam().dtypes(sm80), (std::vector<DType>{DType::F16, DType::BF16, DType::F32}));
  EXPECT_TRUE(fam().dtypes(test::nvidia_caps(Backend::OpenCL, 90)).empty());
  EXPECT_TRUE(fam().dtypes(test::nvidia_caps(Backend::CUDA, 75)).empty());
}

TEST(PeakMmaDescriptor, DefinesFlopsAndExpectedOutput) {
  const Params p{{"WGS", 128}};
  auto d = defines_of(fam().defines(p, problem(DType::BF16, true)));
  EXPECT_EQ(d["MMA_TYPE"], "1");
  EXPECT_EQ(d["WGMMA"], "1");
  EXPECT_EQ(d["OPTUNE_NEED_SM90A"], "1");
  EXPECT_EQ(d["ITERS"], "16");
  d = defines_of(fam().defines(p, problem(DType::F32, false)));
  EXPECT_EQ(d["MMA_TYPE"], "2");
  EXPECT_EQ(d["WGMMA"], "0");
  EXPECT_FALSE(d.count("OPTUNE_NEED_SM90A"));
  // mma.sync: 512 work-items = 16 warps, 16 rounds of 8 products of
  // 2 x 16 x 8 x 16 flops (tf32: k 8); wgmma: 4 warpgroups, 16 rounds of 4
  // products of 2 x 64 x 256 x 16.
  EXPECT_DOUBLE_EQ(PeakMmaFamily::flops(p, problem(DType::F16, false)), 16.0 * 16 * 8 * 4096);
  EXPECT_DOUBLE_EQ(PeakMmaFamily::flops(p, problem(DType::F32, false)), 16.0 * 16 * 8 * 2048);
  EXPECT_DOUBLE_EQ(PeakMmaFamily::flops(p, problem(DType::F16, true)), 4.0 * 16 * 4 * 524288);
  EXPECT_DOUBLE_EQ(PeakMmaFamily::flops({{"WGS", 256}}, problem(DType::F16, true, 300)), 4.0 * 16 * 4 * 524288);
  // Each product adds K / 256 to each accumulator (32 per mma.sync work-item, 128 per wgmma one).
  EXPECT_DOUBLE_EQ(PeakMmaFamily::expected_output(problem(DType::F16, false)), 32.0 * 16 * 16 / 256);
  EXPECT_DOUBLE_EQ(PeakMmaFamily::expected_output(problem(DType::F32, true)), 128.0 * 16 * 4 * 8 / 256);
  EXPECT_EQ(PeakMmaFamily::operand_bits(DType::F16), 0x2C002C00u);
  EXPECT_EQ(PeakMmaFamily::operand_bits(DType::BF16), 0x3D803D80u);
  EXPECT_EQ(PeakMmaFamily::operand_bits(DType::F32), 0x3D800000u);
  const Geometry g =
      fam().geometry({{"WGS", 256}}, test::nvidia_caps(Backend::CUDA, 90), problem(DType::F16, true, 300));
  EXPECT_EQ(g.local[0], 256u);
  EXPECT_EQ(g.global[0], 512u);
}

TEST(PeakMma, EveryTypeAndUnitOnTheDevice) {
  if (std::string why = test::why_not_cuda_sm80("the tensor-core peak"); !why.empty()) GTEST_SKIP() << why;
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  int ran = 0;
  for (bool wgmma : {false, true})
    for (DType t : {DType::F16, DType::BF16, DType::F32})
      for (std::int64_t wgs : {128, 256}) {
        const PeakMmaProblem pr = problem(t, wgmma, 1024, 8);
        const Params p{{"WGS", wgs}};
        if (!fam().check(p, caps, pr).empty()) continue;  // wgmma off 9.0
        Buffer<float> out = q.context().alloc<float>(1024);
        q.fill(out, -1.0f).wait();
        fam().launch(q, p, pr, *out.mem()).wait();
        const std::vector<float> got = q.download(out);
        const double want = PeakMmaFamily::expected_output(pr);
        ASSERT_GT(want, 0.0);
        std::size_t wrong = 0;
        for (float v : got) wrong += double(v) != want;
        EXPECT_EQ(wrong, 0u) << dtype_name(t) << (wgmma ? " wgmma" : " mma.sync") << " WGS " << wgs
                             << ": first " << got[0] << ", expected " << want;
        ++ran;
      }
  EXPECT_GE(ran, 6);
}

TEST(PeakMma, RefusedWhereItCannotRun) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  Buffer<float> out = q.context().alloc<float>(1024);
  const auto launch = [&](const PeakMmaProblem& pr, const Buffer<float>& b) {
    return [&, pr] { fam().launch(q, {{"WGS", 128}}, pr, *b.mem()); };
  };
  if (caps.backend == Backend::CUDA && caps.compute_capability_major >= 8) {
    test::expect_error(Status::Unsupported, "f16, bf16 and f32", launch(problem(DType::F64, false), out));
    Buffer<float> small = q.context().alloc<float>(16);
    test::expect_error(Status::BufferTooSmall, "too small", launch(problem(DType::F16, false), small));
  } else {
    test::expect_error(Status::Unsupported, "8.0", launch(problem(DType::F16, false), out));
  }
}
