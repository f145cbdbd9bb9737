// The CUDA back end. Without a GPU (CI): the missing-driver path. With a CUDA
// device (label gpu): buffers, fills, events and kernels on cuda:0. NVRTC
// without a driver: test_cuda_nvrtc.cpp and test_cuda_nvrtc_ops.cpp.
#include <gtest/gtest.h>

#ifdef OPTUNE_WITH_CUDA

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "optune/optune.hpp"
#include "runtime/program.hpp"

using namespace optune;
using namespace optune::detail;

// ---- without a driver ----

TEST(CudaBackend, MissingDriverIsReported) {
  const std::vector<BackendStatus> all = backends();
  auto it = std::find_if(all.begin(), all.end(), [](const BackendStatus& b) { return b.backend == Backend::CUDA; });
  ASSERT_NE(it, all.end()) << "backends() does not list CUDA";
  if (it->available) GTEST_SKIP() << "a CUDA driver and device are present";
  EXPECT_FALSE(it->reason.empty());
  if (void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(h);
  } else {
    EXPECT_NE(it->reason.find("libcuda.so.1 not found"), std::string::npos) << it->reason;
  }
  std::vector<Device> list;
  ASSERT_NO_THROW(list = devices());
  for (const Device& d : list) EXPECT_NE(d.backend(), Backend::CUDA) << d.spec();
  try {
    select_device("cuda:0");
    ADD_FAILURE() << "select_device(cuda:0) found a device";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::DeviceNotFound);
    EXPECT_NE(std::string(e.what()).find("cuda unavailable"), std::string::npos) << e.what();
  }
}

// ---- on a CUDA device (label gpu; skipped elsewhere) ----

class CudaDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    BackendImpl* b = cuda_backend();
    std::string why;
    if (!b || !b->available(&why) || b->devices().empty()) GTEST_SKIP() << "no CUDA device: " << why;
  }
  // Never destroyed, as in tests/support: driver objects must not be
  // released from static destructors.
  static const Queue& queue() {
    static Queue* q = new Queue(Context(select_device("cuda:0")));
    return *q;
  }
  static ContextImpl& ctx() { return *queue().context().impl(); }
};

TEST_F(CudaDevice, Capabilities) {
  const Capabilities& c = queue().device().caps();
  EXPECT_EQ(c.backend, Backend::CUDA);
  EXPECT_EQ(c.spec, "cuda:0");
  EXPECT_EQ(c.type, DeviceType::GPU);
  EXPECT_EQ(c.architecture,
            "sm_" + std::to_string(c.compute_capability_major) + std::to_string(c.compute_capability_minor));
  EXPECT_GT(c.compute_units, 0u);
  EXPECT_EQ(c.warp_size, 32u);
  EXPECT_TRUE(c.subgroups);
  EXPECT_GE(c.max_work_group_size, 1024u);
  EXPECT_GT(c.local_mem_bytes, 0u);
  EXPECT_GE(c.shared_mem_per_block_optin_bytes, c.local_mem_bytes);
  EXPECT_GE(c.shared_mem_per_cu_bytes, c.local_mem_bytes);
  EXPECT_GT(c.l2_bytes, 0u);
  EXPECT_GT(c.memory_bus_width_bits, 0u);
  EXPECT_GT(c.global_mem_bytes, 0u);
  EXPECT_EQ(c.preferred_vector_width.float_, 4u);
}

TEST_F(CudaDevice, WriteReadCopyWithOffsets) {
  const Queue& q = queue();
  const std::size_t n = 1000;
  std::vector<std::uint32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i * 2654435761u);
  Buffer<std::uint32_t> a = q.context().alloc<std::uint32_t>(n), b = q.context().alloc<std::uint32_t>(n);
  q.upload(a, std::span<const std::uint32_t>(host));
  q.fill(b, 0xdeadbeefu).wait();
  q.write(a.view(10, 5), std::span<const std::uint32_t>(host.data() + 500, 5)).wait();
  std::vector<std::uint32_t> want_a = host;
  std::copy(host.begin() + 500, host.begin() + 505, want_a.begin() + 10);
  q.copy(a.view(3, 100), b.view(7, 100)).wait();
  std::vector<std::uint32_t> want_b(n, 0xdeadbeefu);
  std::copy(want_a.begin() + 3, want_a.begin() + 103, want_b.begin() + 7);
  EXPECT_EQ(q.download(a), want_a);
  EXPECT_EQ(q.download(b), want_b);
  std::vector<std::uint32_t> part(4);
  q.read(a.view(11, 4), std::span<std::uint32_t>(part)).wait();
  EXPECT_EQ(part, std::vector<std::uint32_t>(want_a.begin() + 11, want_a.begin() + 15));
}

struct Pair16 {
  std::uint64_t a, b;
};

// Fills the middle of a poisoned buffer; its ends must keep the poison.
template <class T>
void check_fill(const Queue& q, T value, T poison) {
  const std::size_t n = 1031, lo = 5, hi = n - 4;
  Buffer<T> buf = q.context().alloc<T>(n);
  q.upload(buf, std::span<const T>(std::vector<T>(n, poison)));
  q.fill(buf.view(lo, hi - lo), value).wait();
  const std::vector<T> got = q.download(buf);
  for (std::size_t i = 0; i < n; ++i) {
    const T& want = i >= lo && i < hi ? value : poison;
    ASSERT_EQ(std::memcmp(&got[i], &want, sizeof(T)), 0) << "element " << i << " of " << sizeof(T) << "-byte fill";
  }
}

TEST_F(CudaDevice, FillPatterns) {
  const Queue& q = queue();
  check_fill<std::uint8_t>(q, 0xab, 0x11);
  check_fill<std::uint16_t>(q, 0xabcd, 0x1111);
  check_fill<std::uint32_t>(q, 0x01020304u, 0x11111111u);
  check_fill<std::uint64_t>(q, 0x0102030405060708ull, 0x1111111111111111ull);  // kernel
  check_fill<std::uint64_t>(q, 0, 0x1111111111111111ull);                    // memset
  check_fill<double>(q, 1.5, -2.0);
  check_fill<Pair16>(q, Pair16{1, 2}, Pair16{9, 9});  // kernel, period 16
  check_fill<Pair16>(q, Pair16{7, 7}, Pair16{9, 9});  // kernel, period 8
}

TEST_F(CudaDevice, CopyKernelRoundTrip) {
  const Queue& q = queue();
  for (std::size_t n : {1ul, 2ul, 3ul, 17ul, 1023ul, 1025ul, 1ul << 20})
    for (int vw : {1, 2, 4})
      for (int grid_stride : {0, 1}) {
        SCOPED_TRACE("n=" + std::to_string(n) + " VW=" + std::to_string(vw) + " GRID_STRIDE=" +
                     std::to_string(grid_stride));
        const std::uint64_t xo = 2 * vw, yo = 3 * vw;  // offsets aligned to the pack
        std::vector<std::uint32_t> x(n + xo), y(n + yo + 5, 0xfefefefeu);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::uint32_t(i * 2246822519u + 7);
        Buffer<std::uint32_t> bx = q.context().alloc<std::uint32_t>(x.size());
        Buffer<std::uint32_t> by = q.context().alloc<std::uint32_t>(y.size());
        q.upload(bx, std::span<const std::uint32_t>(x));
        q.upload(by, std::span<const std::uint32_t>(y));
        KernelPtr k = get_program(ctx(), "copy/copy.cl",
                                  {{"TYPE", "uint"}, {"VW", std::to_string(vw)}, {"WGS", "256"},
                                   {"GRID_STRIDE", std::to_string(grid_stride)}})
                          ->kernel("copy");
        Geometry g;
        g.local[0] = 256;
        g.global[0] = (std::max<std::size_t>(n / vw, 1) + 255) / 256 * 256;
        if (grid_stride) g.global[0] = std::min<std::size_t>(g.global[0], 256 * 16);
        Event e = Launch(q, k).arg(std::uint64_t(n)).buf(bx).arg(xo).buf(by).arg(yo).run(g);
        const EventTimes t = e.times();
        EXPECT_LE(t.start, t.end);
        std::copy(x.begin() + long(xo), x.begin() + long(xo + n), y.begin() + long(yo));
        ASSERT_EQ(q.download(by), y);
      }
}

TEST_F(CudaDevice, EventsAreOrdered) {
  const Queue& q = queue();
  const std::size_t n = 1 << 22;
  std::vector<float> host(n, 1.0f), back(n);
  Buffer<float> a = q.context().alloc<float>(n), b = q.context().alloc<float>(n);
  Event e1 = q.write(a, std::span<const float>(host));
  Event e2 = q.copy(a, b);
  Event e3 = q.read(b, std::span<float>(back));
  e3.wait();
  EXPECT_TRUE(e1.complete() && e2.complete() && e3.complete());
  const EventTimes t1 = e1.times(), t2 = e2.times(), t3 = e3.times();
  for (const EventTimes& t : {t1, t2, t3}) {
    EXPECT_LE(t.queued, t.submit);
    EXPECT_LE(t.start, t.end);
  }
  EXPECT_LE(t1.end, t2.start);
  EXPECT_LE(t2.end, t3.start);
  EXPECT_GT(t2.end, t2.start);  // 32 MiB do not copy in zero time
  EXPECT_EQ(back, host);
}

TEST_F(CudaDevice, WaitListAcrossQueues) {
  const Queue& q1 = queue();
  Queue q2(q1.context());
  const std::size_t n = 1 << 22;
  std::vector<std::uint32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i);
  Buffer<std::uint32_t> a = q1.context().alloc<std::uint32_t>(n), b = q1.context().alloc<std::uint32_t>(n);
  Event written = q1.write(a, std::span<const std::uint32_t>(host));
  Event copied = q2.copy(a, b, {written});
  std::vector<std::uint32_t> back(n);
  q2.read(b, std::span<std::uint32_t>(back), {copied}).wait();
  EXPECT_EQ(back, host);
}

TEST_F(CudaDevice, PreludeAtRunTime) {
  const char* probe = R"CL(
__kernel void probe(__global uint* out, __global half* h, __global int* counter) {
  const size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);
  out[4 * i + 0] = (uint)(get_global_id(0) + 1000 * get_global_id(1));
  out[4 * i + 1] = sub_group_reduce_add(1u);
  out[4 * i + 2] = get_sub_group_local_id() + 100 * get_sub_group_size();
  out[4 * i + 3] = get_work_dim() + 10 * (uint)get_local_linear_id();
  vstore_half(vload_half(i, h) * 2.0f, i, h);
  atomic_inc(counter);
}
)CL";
  const Queue& q = queue();
  const std::size_t w = 64, hgt = 4, n = w * hgt;
  Buffer<std::uint32_t> out = q.context().alloc<std::uint32_t>(4 * n);
  Buffer<half> h = q.context().alloc<half>(n);
  Buffer<std::int32_t> counter = q.context().alloc<std::int32_t>(1);
  std::vector<half> hv;
  for (std::size_t i = 0; i < n; ++i) hv.emplace_back(float(i) * 0.25f);
  q.upload(h, std::span<const half>(hv));
  q.fill(counter, 0).wait();
  KernelPtr k = get_program_from_text(ctx(), "probe.cl", probe, {})->kernel("probe");
  Geometry g;
  g.dims = 2;
  g.global[0] = w, g.global[1] = hgt;
  g.local[0] = 32, g.local[1] = 2;  // 64 work-items, two warps per group
  Launch(q, k).buf(out).buf(h).buf(counter).run(g).wait();
  const std::vector<std::uint32_t> o = q.download(out);
  const std::vector<half> hb = q.download(h);
  for (std::size_t y = 0; y < hgt; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const std::size_t i = x + w * y, linear = (x % 32) + 32 * (y % 2);
      ASSERT_EQ(o[4 * i + 0], x + 1000 * y) << i;
      ASSERT_EQ(o[4 * i + 1], 32u) << i;
      ASSERT_EQ(o[4 * i + 2], linear % 32 + 3200) << i;
      ASSERT_EQ(o[4 * i + 3], 2 + 10 * linear) << i;
      ASSERT_EQ(float(hb[i]), float(i) * 0.5f) << i;
    }
  EXPECT_EQ(q.download(counter)[0], std::int32_t(n));
}

// The CUDA meaning of prelude functions, one warp, against values known on the host.
TEST_F(CudaDevice, PreludeSemantics) {
  const char* kernel = R"CL(
__kernel void semantics(__global float* out, __global half* h) {
  const uint lane = get_sub_group_local_id();
  const float f = (float)lane;
  __global float* o = out + 24 * lane;
  o[0] = sub_group_reduce_min(f);
  o[1] = sub_group_reduce_max(f);
  o[2] = (float)sub_group_scan_inclusive_add((int)lane);
  o[3] = sub_group_scan_exclusive_add(f);
  o[4] = sub_group_broadcast(f, 5);
  o[5] = (float)sub_group_reduce_add((double)lane);
  o[6] = clamp(f, 4.0f, 9.0f);
  o[7] = sign(f - 16.0f);
  o[8] = select(1.0f, 2.0f, (int)(lane & 1));
  const float4 v = select(OPTUNE_SPLAT(float, 4, 0.0f), OPTUNE_SPLAT(float, 4, 1.0f), make_int4(-1, 0, -1, 0));
  o[9] = v.x + 10.0f * v.y;
  o[10] = mix(2.0f, 4.0f, 0.25f);
  o[11] = step(16.0f, f);
  vstore_half(1.0f + 1.0f / 2048.0f, 2 * lane, h);         // halfway: to even (1)
  vstore_half(1.0f + 3.0f / 2048.0f, 2 * lane + 1, h);     // halfway: to even (1 + 2^-9)
  o[12] = vload_half(2 * lane, h) + 10.0f * vload_half(2 * lane + 1, h);
  o[13] = (float)(convert_int_rte(2.5f) + 10 * convert_int_rte(3.5f));
  o[14] = dot(make_float4(1.0f, 2.0f, 3.0f, 4.0f), OPTUNE_SPLAT(float, 4, 1.0f));
  o[15] = fma(make_float2(2.0f, 3.0f), make_float2(4.0f, 5.0f), OPTUNE_SPLAT(float, 2, 1.0f)).y;
  const int4 i4 = make_int4(7, 8, 9, 10);
  o[16] = (float)((i4 % 3).w + 100 * (i4 << 1).x);
  o[17] = (float)(clz(1) + 100 * popcount(0xffu));
  o[18] = as_float(as_uint(1.5f));
  o[19] = native_divide(1.0f, 4.0f);
  o[20] = (float)(sub_group_any(lane == 3) + 10 * sub_group_all(lane < 40));
  o[21] = OPTUNE_VSUM(4, (make_float4(1.0f, 2.0f, 3.0f, 4.0f) - 1.0f) * 2.0f / OPTUNE_SPLAT(float, 4, 2.0f));
  o[22] = (float)get_num_sub_groups() + 10.0f * (float)get_sub_group_size();
  o[23] = rsqrt(4.0f) + native_recip(8.0f);
}
)CL";
  const Queue& q = queue();
  Buffer<float> out = q.context().alloc<float>(24 * 32);
  Buffer<half> h = q.context().alloc<half>(64);
  KernelPtr k = get_program_from_text(ctx(), "semantics.cl", kernel, {})->kernel("semantics");
  Geometry g;
  g.global[0] = g.local[0] = 32;
  Launch(q, k).buf(out).buf(h).run(g).wait();
  const std::vector<float> o = q.download(out);
  for (int lane = 0; lane < 32; ++lane) {
    const float* r = o.data() + 24 * lane;
    const float sign = lane > 16 ? 1.0f : lane < 16 ? -1.0f : 0.0f;
    const float want[24] = {0, 31, float(lane * (lane + 1) / 2), float(lane * (lane - 1) / 2), 5, 496,
                            float(std::clamp(lane, 4, 9)), sign, lane & 1 ? 2.0f : 1.0f, 1, 2.5f,
                            lane < 16 ? 0.0f : 1.0f, 1.0f + 10.0f * (1.0f + 1.0f / 512), 2 + 40, 10, 16, 1 + 1400,
                            31 + 800, 1.5f, 0.25f, 11, 6, 1 + 320, 0.625f};
    for (int j = 0; j < 24; ++j)
      EXPECT_NEAR(r[j], want[j], 1e-6f * std::max(1.0f, std::fabs(want[j]))) << "lane " << lane << " item " << j;
  }
}

TEST_F(CudaDevice, ProgramBinaryReloads) {
  ProgramPtr p = get_program(ctx(), "copy/copy.cl", {});
  const std::vector<std::uint8_t> bin = p->binary();
  ASSERT_FALSE(bin.empty());
  ProgramPtr again = ctx().load_binary(bin, "");
  ASSERT_TRUE(again);
  EXPECT_NO_THROW(again->kernel("copy"));
  EXPECT_EQ(ctx().load_binary({1, 2, 3, 4}, ""), nullptr);
  try {
    p->kernel("no_such_kernel");
    ADD_FAILURE() << "found a kernel that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::NotFound);
  }
}

TEST_F(CudaDevice, ErrorsCarryStatus) {
  const Queue& q = queue();
  auto status_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.status();
    }
    return Status::Success;
  };
  const std::uint64_t total = q.device().caps().global_mem_bytes;
  EXPECT_EQ(status_of([&] { q.context().alloc<std::uint8_t>(total); }), Status::OutOfResources);
  EXPECT_EQ(status_of([&] { Image2D(q.context(), 4, 4, ChannelType::Float); }), Status::Unsupported);
  EXPECT_EQ(status_of([&] { get_program_from_text(ctx(), "bad.cl", "__kernel void k() { nope; }", {}); }),
            Status::BuildFailure);
  // Argument checks need the driver to describe parameters (12.4+).
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (lib && dlsym(lib, "cuFuncGetParamInfo")) {
    KernelPtr k = get_program(ctx(), "copy/copy.cl", {})->kernel("copy");
    Buffer<float> x = q.context().alloc<float>(4);
    Geometry g;
    g.global[0] = g.local[0] = 256;
    EXPECT_EQ(status_of([&] { Launch(q, k).arg(std::uint64_t(4)).buf(x).run(g); }), Status::InvalidArgument);
    EXPECT_EQ(status_of([&] { Launch(q, k).arg(4).buf(x).arg(std::uint64_t(0)).buf(x).arg(std::uint64_t(0)).run(g); }),
              Status::InvalidArgument);
  }
}

#else  // !OPTUNE_WITH_CUDA

TEST(CudaBackend, NotBuilt) { GTEST_SKIP() << "optune was built without the CUDA toolkit"; }

#endif
