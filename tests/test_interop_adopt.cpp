// interop::adopt, adopt_host, map_host and join (include/optune/interop.hpp):
// memory of other libraries and host memory used in place, and ordering with
// a native queue. The Python module's DLPack and __cuda_array_interface__
// rest on these.
#include <CL/cl.h>

#include <cmath>
#include <memory>

#include "optune/interop.hpp"
#include "support/test_support.hpp"

namespace optune::test {
namespace {

bool is_opencl() { return device().backend() == Backend::OpenCL; }

std::vector<float> relu_of(const std::vector<float>& x) {
  std::vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] > 0 ? x[i] : 0;
  return y;
}

// Memory allocated by "another library" (here optune's own native calls),
// adopted, used by an operator, and its owner released with the last view.
TEST(InteropAdopt, ForeignMemoryRunsAnOperatorAndReleasesItsOwner) {
  const Queue& q = queue();
  const std::size_t n = 1000;
  auto x = random_floats(n, -2, 2);
  Buffer<float> src = context().alloc<float>(n);
  q.upload(src, std::span<const float>(x));
  auto owner = std::make_shared<int>(7);
  std::weak_ptr<int> watch = owner;
  interop::NativeBuffer nb;
  cl_mem made = nullptr;
  Buffer<float> backing;  // CUDA: the memory "another library" owns
  if (is_opencl()) {
    cl_int err = CL_SUCCESS;
    auto ctx = static_cast<cl_context>(interop::native_queue(q).context);
    made = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    nb.cl_mem = made;
  } else {
    backing = context().alloc<float>(n);
    nb = interop::native_buffer(backing);
  }
  {
    Buffer<float> dst = interop::adopt<float>(context(), nb, n, owner);
    owner.reset();
    EXPECT_FALSE(watch.expired());
    std::vector<float> poison(n, -1e30f);
    q.upload(dst, std::span<const float>(poison));
    unary(q, Unary::Relu, src, dst).wait();
    EXPECT_EQ(q.download(dst), relu_of(x));
    // A view of the adopted buffer keeps it too.
    Buffer<float> tail = dst.view(10, 20);
    dst = Buffer<float>();
    EXPECT_FALSE(watch.expired());
    EXPECT_EQ(q.download(tail)[0], relu_of(x)[10]);
  }
  EXPECT_TRUE(watch.expired());
  if (made) {
    // optune released only its own reference: the creator's is still valid.
    std::size_t size = 0;
    EXPECT_EQ(clGetMemObjectInfo(made, CL_MEM_SIZE, sizeof size, &size, nullptr), CL_SUCCESS);
    EXPECT_EQ(size, n * sizeof(float));
    clReleaseMemObject(made);
  }
}

TEST(InteropAdopt, DeviceMemoryIsNotFreedByTheAdopter) {
  if (is_opencl()) GTEST_SKIP() << "CUDA device pointers";
  const Queue& q = queue();
  Buffer<float> b = context().alloc<float>(64);
  std::vector<float> v(64, 3.0f);
  q.upload(b, std::span<const float>(v));
  { Buffer<float> a = interop::adopt<float>(context(), interop::native_buffer(b), 64); }
  EXPECT_EQ(q.download(b), v);  // still allocated and intact
}

TEST(InteropAdopt, Errors) {
  interop::NativeBuffer none;
  expect_error(Status::InvalidArgument, is_opencl() ? "cl_mem is null" : "device_pointer is null",
               [&] { interop::adopt<float>(context(), none, 4); });
  expect_error(Status::InvalidArgument, "count must be positive", [&] { interop::adopt<float>(context(), none, 0); });
  expect_error(Status::InvalidArgument, "empty context", [&] { interop::adopt<float>(Context(), none, 4); });
  Buffer<float> b = context().alloc<float>(16);
  interop::NativeBuffer nb = interop::native_buffer(b);
  if (is_opencl()) {
    interop::NativeBuffer off = interop::native_buffer(b.view(4, 4));
    expect_error(Status::InvalidArgument, "offset_bytes must be 0", [&] { interop::adopt<float>(context(), off, 4); });
    expect_error(Status::BufferTooSmall, "interop::adopt", [&] { interop::adopt<float>(context(), nb, 17); });
    // A buffer of another context on the same device.
    cl_device_id id = nullptr;
    clGetCommandQueueInfo(static_cast<cl_command_queue>(interop::native_queue(queue()).queue), CL_QUEUE_DEVICE,
                          sizeof id, &id, nullptr);
    cl_int err = CL_SUCCESS;
    cl_context other = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem m = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, nullptr, &err);
    interop::NativeBuffer foreign;
    foreign.cl_mem = m;
    expect_error(Status::InvalidArgument, "another OpenCL context", [&] { interop::adopt<float>(context(), foreign, 4); });
    cl_command_queue oq = clCreateCommandQueueWithProperties(other, id, nullptr, &err);
    expect_error(Status::InvalidArgument, "another OpenCL context",
                 [&] { interop::join(queue(), oq, interop::Join::NativeWaits); });
    clReleaseCommandQueue(oq);
    clReleaseMemObject(m);
    clReleaseContext(other);
    expect_error(Status::InvalidArgument, "native queue is null",
                 [&] { interop::join(queue(), nullptr, interop::Join::QueueWaits); });
  } else {
    std::vector<float> host(4);
    interop::NativeBuffer h;
    h.device_pointer = reinterpret_cast<std::uintptr_t>(host.data());
    expect_error(Status::InvalidArgument, "not CUDA memory", [&] { interop::adopt<float>(context(), h, 4); });
    float x = 0;
    expect_error(Status::Unsupported, "adopt_host", [&] { interop::adopt_host(context(), &x, 1); });
    expect_error(Status::Unsupported, "map_host", [&] { interop::map_host(queue(), b); });
  }
  float x = 0;
  expect_error(Status::InvalidArgument, "data is null",
               [&] { interop::adopt_host<float>(context(), nullptr, 1); });
  expect_error(Status::InvalidArgument, "count must be positive", [&] { interop::adopt_host(context(), &x, 0); });
  expect_error(Status::InvalidArgument, "not a Join value",
               [&] { interop::join(queue(), nullptr, interop::Join(7)); });
  expect_error(Status::InvalidArgument, "empty buffer", [&] { interop::map_host(queue(), Buffer<float>()); });
}

// Host memory in place and mappings, on devices that share memory (PoCL).
TEST(InteropAdopt, HostMemoryInPlace) {
  if (!is_opencl()) GTEST_SKIP() << "OpenCL";
  const Queue& q = queue();
  if (!device().caps().unified_memory) {
    float x = 0;
    expect_error(Status::Unsupported, "does not share memory", [&] { interop::adopt_host(context(), &x, 1); });
    GTEST_SKIP() << device().name() << " does not share memory with the host";
  }
  const std::size_t n = 777;
  auto x = random_floats(n, -3, 3);
  std::vector<float> y(n, -1e30f);
  {
    Buffer<float> bx = interop::adopt_host(context(), x.data(), n);
    Buffer<float> by = interop::adopt_host(context(), y.data(), n);
    unary(q, Unary::Relu, bx, by).wait();
  }
  EXPECT_EQ(y, relu_of(x));  // written in place, no read back
  // A mapping of an optune buffer reads and writes its memory.
  Buffer<float> b = context().alloc<float>(n);
  q.upload(b, std::span<const float>(x));
  {
    std::shared_ptr<float> host = interop::map_host(q, b.view(5, 100));
    EXPECT_EQ(host.get()[0], x[5]);
    host.get()[1] = 42.0f;
  }
  EXPECT_EQ(q.download(b.view(6, 1))[0], 42.0f);
}

TEST(InteropAdopt, JoinOrdersANativeQueue) {
  if (!is_opencl()) GTEST_SKIP() << "the CUDA join runs in the Python suite on the GPU machine";
  const Queue& q = queue();
  auto nq = interop::native_queue(q);
  cl_device_id id = nullptr;
  clGetCommandQueueInfo(static_cast<cl_command_queue>(nq.queue), CL_QUEUE_DEVICE, sizeof id, &id, nullptr);
  cl_int err = CL_SUCCESS;
  cl_command_queue other =
      clCreateCommandQueueWithProperties(static_cast<cl_context>(nq.context), id, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const std::size_t n = 1 << 16;
  auto x = random_floats(n);
  Buffer<float> a = context().alloc<float>(n), b = context().alloc<float>(n);
  q.upload(a, std::span<const float>(x));
  unary(q, Unary::Relu, a, b);  // not waited for
  interop::join(q, other, interop::Join::NativeWaits);
  std::vector<float> got(n);
  ASSERT_EQ(clEnqueueReadBuffer(other, static_cast<cl_mem>(interop::native_buffer(b).cl_mem), CL_TRUE, 0,
                                n * sizeof(float), got.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(got, relu_of(x));
  // The other way: optune's queue waits for the native one's write.
  std::vector<float> ones(n, 1.0f);
  ASSERT_EQ(clEnqueueWriteBuffer(other, static_cast<cl_mem>(interop::native_buffer(a).cl_mem), CL_FALSE, 0,
                                 n * sizeof(float), ones.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  clFlush(other);
  interop::join(q, other, interop::Join::QueueWaits);
  EXPECT_EQ(q.download(a), ones);
  clReleaseCommandQueue(other);
}

}  // namespace
}  // namespace optune::test
