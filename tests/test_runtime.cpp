// Devices, buffers, copies, fills, events and images on the test device.
#include <algorithm>
#include <cstring>

#include "runtime/opencl/cl_util.hpp"
#include "support/test_support.hpp"

using namespace optune;
using optune::test::queue;

TEST(Devices, EnumerationAndDefault) {
  const auto all = devices();
  ASSERT_FALSE(all.empty());
  for (const Device& d : all) {
    const Capabilities& c = d.caps();
    EXPECT_FALSE(c.name.empty());
    EXPECT_FALSE(c.spec.empty());
    EXPECT_GT(c.compute_units, 0u);
    EXPECT_GT(c.max_work_group_size, 0u);
    EXPECT_GT(c.global_mem_bytes, 0u);
    EXPECT_GT(c.max_alloc_bytes, 0u);
    EXPECT_GT(c.local_mem_bytes, 0u);
    EXPECT_FALSE(c.architecture.empty());
    EXPECT_EQ(select_device(c.spec), d);
  }
  EXPECT_TRUE(default_device().valid());
}

TEST(Devices, UnknownSpecListsDevices) {
  try {
    select_device("opencl:97:3");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::DeviceNotFound);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("opencl:97:3"), std::string::npos);
    EXPECT_NE(msg.find("devices that exist"), std::string::npos);
    EXPECT_NE(msg.find(devices().front().spec()), std::string::npos) << msg;
  }
  EXPECT_THROW(select_device("tpu"), Error);
  EXPECT_THROW(select_device(""), Error);
}

TEST(Buffers, RoundTripWithOffsets) {
  const Queue& q = queue();
  for (std::size_t n : {1u, 2u, 3u, 17u, 1023u, 1025u, 65537u}) {
    const auto host = test::random_floats(n + 7);
    Buffer<float> b = q.context().alloc<float>(n + 7);
    q.fill(b, -99.0f).wait();
    // Write the middle n elements through a view at offset 3.
    Buffer<float> mid = b.view(3, n);
    EXPECT_EQ(mid.offset(), 3u);
    EXPECT_EQ(mid.size(), n);
    EXPECT_EQ(mid.capacity(), n + 7);
    q.upload(mid, std::span<const float>(host.data(), n));
    const auto all = q.download(b);
    for (std::size_t i = 0; i < n + 7; ++i) {
      const float want = (i >= 3 && i < 3 + n) ? host[i - 3] : -99.0f;
      ASSERT_EQ(all[i], want) << "n=" << n << " i=" << i;
    }
    // A partial read from an offset view.
    std::vector<float> part(n > 1 ? n - 1 : 1, 0.0f);
    Buffer<float> tail = b.view(4, part.size());
    q.read(tail, std::span<float>(part)).wait();
    for (std::size_t i = 0; i < part.size(); ++i) ASSERT_EQ(part[i], all[4 + i]);
  }
}

TEST(Buffers, CopyBetweenBuffersWithOffsets) {
  const Queue& q = queue();
  const auto host = test::random_words(1000);
  Buffer<std::uint32_t> a = q.context().alloc<std::uint32_t>(1000);
  Buffer<std::uint32_t> b = q.context().alloc<std::uint32_t>(1200);
  q.upload(a, std::span<const std::uint32_t>(host));
  q.fill(b, 0xDEADBEEFu).wait();
  q.copy(a.view(5, 500), b.view(101, 500)).wait();
  const auto out = q.download(b);
  for (std::size_t i = 0; i < 1200; ++i) {
    const std::uint32_t want = (i >= 101 && i < 601) ? host[i - 101 + 5] : 0xDEADBEEFu;
    ASSERT_EQ(out[i], want) << i;
  }
}

template <class T>
void check_fill(T value) {
  const Queue& q = queue();
  Buffer<T> b = q.context().alloc<T>(37);
  q.fill(b, T{}).wait();
  q.fill(b.view(3, 31), value).wait();
  const auto out = q.download(b);
  for (std::size_t i = 0; i < 37; ++i) {
    const T want = (i >= 3 && i < 34) ? value : T{};
    ASSERT_EQ(std::memcmp(&out[i], &want, sizeof(T)), 0) << "element " << i << " of " << sizeof(T) << "-byte fill";
  }
}

TEST(Buffers, FillEveryWidth) {
  check_fill<std::uint8_t>(0xA5);
  check_fill<half>(half(-2.5f));
  check_fill<float>(3.25f);
  check_fill<std::int32_t>(-123456);
  check_fill<double>(1.0 / 3.0);
}

TEST(Buffers, BadArguments) {
  const Queue& q = queue();
  const Context& ctx = q.context();
  EXPECT_THROW(ctx.alloc<float>(0), Error);
  try {
    ctx.alloc<float>(SIZE_MAX / 2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::Overflow);
  }
  try {
    ctx.alloc<std::uint8_t>(std::size_t(ctx.device().caps().max_alloc_bytes) + 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::OutOfResources);
  }
  Buffer<float> b = ctx.alloc<float>(10);
  std::vector<float> big(11, 1.0f);
  try {
    q.write(b, std::span<const float>(big));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::BufferTooSmall);
    EXPECT_NE(std::string(e.what()).find("Queue::write"), std::string::npos);
  }
  EXPECT_THROW(q.read(b, std::span<float>(big)), Error);
  EXPECT_THROW(b.view(5, 6), Error);
  EXPECT_THROW(b.view(11, 0), Error);
  EXPECT_NO_THROW(b.view(10, 0));
  Buffer<float> small = ctx.alloc<float>(5);
  EXPECT_THROW(q.copy(b, small), Error);
  EXPECT_THROW(q.copy(b.view(0, 5), b.view(3, 5)), Error);  // overlap
  EXPECT_THROW(q.write(Buffer<float>(), std::span<const float>(big)), Error);
  // A buffer of another context is refused by a queue.
  Context other(ctx.device());
  Buffer<float> foreign = other.alloc<float>(10);
  try {
    q.upload(foreign, std::span<const float>(big.data(), 10));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("another context"), std::string::npos);
  }
}

TEST(Events, OrderedAndMonotone) {
  const Queue& q = queue();
  const std::size_t n = 1 << 20;
  Buffer<float> a = q.context().alloc<float>(n), b = q.context().alloc<float>(n);
  const auto host = test::random_floats(n);
  Event e1 = q.write(a, std::span<const float>(host));
  Event e2 = q.copy(a, b, {e1});
  Event e3 = q.fill(a, 0.0f, {e2});
  e3.wait();
  for (const Event& e : {e1, e2, e3}) {
    EXPECT_TRUE(e.complete());
    const EventTimes t = e.times();
    EXPECT_LE(t.queued, t.submit);
    EXPECT_LE(t.submit, t.start);
    EXPECT_LE(t.start, t.end);
    EXPECT_GE(e.seconds(), 0.0);
  }
  // In-order queue: each command starts after the previous one ended.
  EXPECT_LE(e1.times().end, e2.times().start);
  EXPECT_LE(e2.times().end, e3.times().start);
  const auto out = q.download(b);
  EXPECT_EQ(out, host);
}

TEST(Images, RoundTrip) {
  const Queue& q = queue();
  if (!q.device().caps().images) {
    EXPECT_THROW(Image2D(q.context(), 4, 4, ChannelType::Float), Error);
    GTEST_SKIP() << "device has no image support";
  }
  const std::size_t w = 33, h = 7;
  const auto host = test::random_floats(w * h * 4);
  Image2D img(q.context(), w, h, ChannelType::Float);
  EXPECT_EQ(img.width(), w);
  EXPECT_EQ(img.height(), h);
  q.write_image(img, host.data(), host.size() * 4).wait();
  std::vector<float> out(host.size(), -1.0f);
  q.read_image(img, out.data(), out.size() * 4).wait();
  EXPECT_EQ(out, host);
  EXPECT_THROW(q.write_image(img, host.data(), host.size() * 4 - 1), Error);
  EXPECT_THROW(Image2D(q.context(), 0, 5, ChannelType::Float), Error);
  EXPECT_THROW(Image2D(q.context(), q.device().caps().image2d_max_width + 1, 1, ChannelType::Float), Error);
}

TEST(Devices, ArchitectureKeys) {
  using detail::cl::architecture_key;
  EXPECT_EQ(architecture_key("NVIDIA Corporation", "NVIDIA H100 80GB HBM3", "NVIDIA CUDA", 9, 0), "sm_90");
  EXPECT_EQ(architecture_key("QUALCOMM", "QUALCOMM Adreno(TM) 740", "QUALCOMM Snapdragon(TM)", 0, 0), "adreno-7xx");
  EXPECT_EQ(architecture_key("ARM", "Mali-G78 r1p1", "ARM Platform", 0, 0), "mali-valhall");
  EXPECT_EQ(architecture_key("ARM", "Mali-G715-Immortalis MC11", "ARM Platform", 0, 0), "mali-valhall");
  EXPECT_EQ(architecture_key("ARM", "Mali-G76 MP10", "ARM Platform", 0, 0), "mali-bifrost");
  EXPECT_EQ(architecture_key("ARM", "Mali-G720-Immortalis MC12", "ARM Platform", 0, 0), "mali-5th-gen");
  EXPECT_EQ(architecture_key("ARM", "Mali-T880", "ARM Platform", 0, 0), "mali-midgard");
  EXPECT_EQ(architecture_key("AuthenticAMD", "pthread-skylake-avx512-AMD EPYC 7B13", "Portable Computing Language", 0, 0),
            "pocl-skylake-avx512");
  EXPECT_EQ(architecture_key("Some Vendor", "Some GPU", "Some Platform", 0, 0), "some gpu");
}
