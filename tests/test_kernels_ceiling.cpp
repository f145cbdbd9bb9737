// The prelude on a sample kernel that uses every macro, and the ceiling
// families (copy, peak) against CPU references, on the test device.
#include <cmath>
#include <cstring>

#include "kernels/families.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;

namespace {

const char* kSample = R"(
OPTUNE_FUNC float twice(const float v) { return 2.0f * v; }

__kernel OPTUNE_WG_SIZE(64, 1, 1)
void sample(__global const float* restrict x, __global float* restrict y, __global float* restrict z,
            const uint n) {
  __local float tile[64];
  const uint lid = (uint)get_local_id(0);
  const uint gid = (uint)get_global_id(0);
  tile[lid] = gid < n ? x[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid >= n) return;
  __global float* out = y + 8 * gid;
  out[0] = tile[get_local_size(0) - 1 - lid];
  out[1] = twice(x[gid]);
  const OPTUNE_VEC(float, 4) v = OPTUNE_GLOAD(float, 4, gid, x);
  out[2] = OPTUNE_VSUM(4, v);
  out[3] = OPTUNE_VSUM(2, OPTUNE_SPLAT(float, 2, x[gid]));
  out[4] = (float)OPTUNE_CEIL_DIV(gid, 3u);
  out[5] = (float)(OPTUNE_HAS_FP64 * 1 + OPTUNE_HAS_FP16 * 2 + OPTUNE_HAS_SUBGROUPS * 4 + OPTUNE_HAS_IMAGES * 8 +
                   OPTUNE_BACKEND_CUDA * 16 + OPTUNE_BACKEND_OPENCL * 32);
  const float4 w = make_float4(x[gid], 1.0f, 2.0f, 3.0f);
  out[6] = w.x * w.w + w.z;
#if OPTUNE_HAS_SUBGROUPS
  out[7] = sub_group_reduce_add(1.0f) - (float)get_sub_group_size() + (float)get_group_id(0);
#else
  out[7] = (float)get_group_id(0);
#endif
  OPTUNE_GSTORE(float, 4, v * 2.0f, gid, z);
#if OPTUNE_HAS_FP64
  const double d = (double)x[gid];
  out[1] = (float)(d + d);
#endif
}
)";

}  // namespace

TEST(Prelude, SampleKernelUsesEveryMacro) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const std::uint32_t n = 64 * 5;
  const auto host = test::random_floats(4 * n);
  Buffer<float> x = q.context().alloc<float>(4 * n), y = q.context().alloc<float>(8 * n),
                z = q.context().alloc<float>(4 * n);
  q.upload(x, std::span<const float>(host));
  q.fill(y, NAN).wait();
  q.fill(z, NAN).wait();
  ProgramPtr prog = get_program_from_text(*q.context().impl(), "sample.cl", kSample, {});
  Geometry g;
  g.global[0] = n;
  g.local[0] = 64;
  Launch(q, prog->kernel("sample")).buf(x).buf(y).buf(z).arg(n).run(g).wait();
  const auto out = q.download(y);
  const auto zo = q.download(z);
  const float flags = float((caps.fp64 ? 1 : 0) + (caps.fp16 ? 2 : 0) + (caps.subgroups ? 4 : 0) +
                            (caps.images ? 8 : 0) + (caps.backend == Backend::CUDA ? 16 : 32));
  for (std::uint32_t i = 0; i < n; ++i) {
    const float* o = &out[8 * i];
    const std::uint32_t grp = i / 64, lid = i % 64;
    ASSERT_EQ(o[0], host[grp * 64 + 63 - lid]) << i;
    ASSERT_EQ(o[1], 2.0f * host[i]) << i;
    const double s = double(host[4 * i]) + host[4 * i + 1] + host[4 * i + 2] + host[4 * i + 3];
    ASSERT_NEAR(o[2], s, 1e-5 * (1 + std::fabs(s))) << i;
    ASSERT_EQ(o[3], 2.0f * host[i]) << i;
    ASSERT_EQ(o[4], float((i + 2) / 3)) << i;
    ASSERT_EQ(o[5], flags) << i;
    ASSERT_NEAR(o[6], 3.0 * host[i] + 2.0, 1e-6) << i;
    ASSERT_EQ(o[7], float(grp)) << i;
    for (int k = 0; k < 4; ++k) ASSERT_EQ(zo[4 * i + k], 2.0f * host[4 * i + k]) << i;
  }
}

TEST(CopyFamily, EveryConfigurationEverySize) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const CopyFamily& fam = families::copy();
  const std::size_t cap = 4099 + 8;
  const auto host = test::random_words(cap);
  Buffer<std::uint32_t> x = q.context().alloc<std::uint32_t>(cap), y = q.context().alloc<std::uint32_t>(cap);
  q.upload(x, std::span<const std::uint32_t>(host));
  int configs = 0;
  for (std::int64_t vw : {1, 2, 4})
    for (std::int64_t wgs : {64, 256, 1024})
      for (std::int64_t gs : {0, 1})
        for (std::int64_t waves : {1, 4}) {
          const Params p{{"VW", vw}, {"WGS", wgs}, {"GRID_STRIDE", gs}, {"WAVES", waves}};
          for (std::int64_t n : {1, 2, 3, 17, 1023, 1025, 4099})
            for (std::int64_t off : {0, 4, 1}) {
              const CopyProblem pr{DType::F32, n, off, off == 1 ? 3 : off};
              if (!fam.check(p, caps, pr).empty()) continue;
              q.fill(y, 0xDEADBEEFu).wait();
              fam.launch(q, p, pr, *x.mem(), *y.mem()).wait();
              const auto out = q.download(y);
              const std::size_t xo = std::size_t(pr.x_offset), yo = std::size_t(pr.y_offset);
              for (std::size_t i = 0; i < cap; ++i) {
                const bool inside = i >= yo && i < yo + std::size_t(n);
                ASSERT_EQ(out[i], inside ? host[i - yo + xo] : 0xDEADBEEFu)
                    << params_to_json(p) << " n=" << n << " off=" << off << " i=" << i;
              }
              ++configs;
            }
        }
  EXPECT_GT(configs, 100);
}

TEST(CopyFamily, RejectsWhatCannotRun) {
  const Capabilities& caps = test::device().caps();
  const CopyFamily& fam = families::copy();
  CopyProblem pr{DType::F32, 100, 2, 0};
  EXPECT_NE(fam.check({{"VW", 4}, {"WGS", 256}, {"GRID_STRIDE", 0}, {"WAVES", 4}}, caps, pr), "");
  EXPECT_EQ(fam.check({{"VW", 2}, {"WGS", 256}, {"GRID_STRIDE", 0}, {"WAVES", 4}}, caps, pr), "");
  EXPECT_NE(fam.check({{"VW", 3}, {"WGS", 256}, {"GRID_STRIDE", 0}, {"WAVES", 4}}, caps, pr), "");
  EXPECT_NE(fam.check({{"VW", 1}}, caps, pr), "");
  pr.dtype = DType::F64;
  pr.x_offset = 0;
  EXPECT_NE(fam.check({{"VW", 4}, {"WGS", 256}, {"GRID_STRIDE", 0}, {"WAVES", 4}}, caps, pr), "");
  const Queue& q = test::queue();
  Buffer<std::uint32_t> small = q.context().alloc<std::uint32_t>(10);
  pr.dtype = DType::F32;
  EXPECT_THROW(fam.launch(q, fam.defaults(caps), pr, *small.mem(), *small.mem()), Error);
}

TEST(PeakFamily, MatchesTheRecurrence) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const PeakFamily& fam = families::peak();
  for (DType t : {DType::F32, DType::F64}) {
    if (t == DType::F64 && !caps.fp64) continue;
    const PeakProblem pr{t, 1000, 37};
    Buffer<std::uint8_t> out = q.context().alloc<std::uint8_t>(1024 * 8);
    for (std::int64_t vw : {1, 2, 4, 8, 16}) {
      const Params p{{"VW", vw}, {"WGS", 64}};
      if (!fam.check(p, caps, pr).empty()) continue;
      q.fill(out, std::uint8_t(0xff)).wait();
      fam.launch(q, p, pr, *out.mem()).wait();
      const auto bytes = q.download(out);
      for (std::size_t i = 0; i < 1000; ++i) {
        // Host replay in double of what each work-item computes.
        const double a = t == DType::F32 ? double(0.999f) : double(float(0.999f));
        const double b = double(0.001f);
        double sum = 0;
        for (int c = 0; c < 8; ++c) {
          double v = double(i & 7) + c * b;
          for (int k = 0; k < 37; ++k) v = v * a + b;
          sum += v;
        }
        sum *= double(vw);
        double got;
        if (t == DType::F32) {
          float f;
          std::memcpy(&f, bytes.data() + 4 * i, 4);
          got = f;
        } else {
          std::memcpy(&got, bytes.data() + 8 * i, 8);
        }
        ASSERT_NEAR(got, sum, 1e-4 * std::fabs(sum)) << "vw=" << vw << " i=" << i;
      }
    }
  }
}
