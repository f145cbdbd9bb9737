// Bad input to the BLAS level-1 routines, through the C++ templates and the
// C API (whose untyped buffers reach the type checks): each validation
// error, with its status and a message naming the routine and argument; and
// complex data refused by the tensor operators.
#include <complex>
#include <limits>

#include "optune/blas.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;
using test::expect_error;
using test::capi::Buf;
using test::capi::env;

namespace {

using C = std::complex<float>;

Buffer<float> floats(std::size_t n) {
  Buffer<float> b = test::context().alloc<float>(n);
  test::queue().fill(b, 1.0f).wait();
  return b;
}

// A C API call's status and message.
void expect_c(optune_status status, optune_status want, const std::string& needle) {
  EXPECT_EQ(status, want) << optune_last_error_message();
  EXPECT_NE(std::string(optune_last_error_message()).find(needle), std::string::npos)
      << "'" << needle << "' not in: " << optune_last_error_message();
}

}  // namespace

TEST(Blas1Errors, EmptyAndForeignBuffers) {
  const Queue& q = test::queue();
  Buffer<float> x = floats(8), y = floats(8), r = floats(1);
  expect_error(Status::InvalidArgument, "axpy: x is an empty buffer", [&] { axpy(q, 4, 2.0f, Buffer<float>(), 1, y, 1); });
  expect_error(Status::InvalidArgument, "swap: y is an empty buffer", [&] { swap(q, 4, x, 1, Buffer<float>(), 1); });
  expect_error(Status::InvalidArgument, "dot: result is an empty buffer", [&] { dot(q, 4, x, 1, y, 1, Buffer<float>()); });
  // Validated even when n <= 0 leaves nothing to do.
  expect_error(Status::InvalidArgument, "copy: x is an empty buffer", [&] { copy(q, 0, Buffer<float>(), 1, y, 1); });
  const Context other(test::device());
  Buffer<float> foreign = other.alloc<float>(8);
  expect_error(Status::InvalidArgument, "scal: x belongs to another context", [&] { scal(q, 4, 2.0f, foreign, 1); });
  expect_error(Status::InvalidArgument, "nrm2: result belongs to another context",
               [&] { nrm2(q, 4, x, 1, other.alloc<float>(1)); });
}

TEST(Blas1Errors, BuffersTooSmall) {
  const Queue& q = test::queue();
  Buffer<float> x = floats(10), y = floats(10), r = floats(2);
  // n = 4 with inc 3 spans (4 - 1) 3 + 1 = 10 elements; inc -4 spans 13.
  axpy(q, 4, 1.0f, x, 3, y, -3).wait();
  expect_error(Status::BufferTooSmall, "axpy: y", [&] { axpy(q, 4, 1.0f, x, 3, y, -4); });
  expect_error(Status::BufferTooSmall, "copy: x", [&] { copy(q, 4, x.view(1, 9), 3, y, 1); });
  expect_error(Status::BufferTooSmall, "rot: x", [&] { rot(q, 11, x, 1, y, 0, 1.0f, 0.0f); });
  expect_error(Status::BufferTooSmall, "dot: result", [&] { dot(q, 4, x, 1, y, 1, r.view(1, 0)); });
  expect_error(Status::BufferTooSmall, "asum: result", [&] { asum(q, 0, x, 1, r.view(2, 0)); });
  // scal, asum and iamax do nothing for incx <= 0: no extent to check.
  scal(q, 100, 2.0f, x, -1).wait();
}

// A hand-made view that claims more elements, or a larger offset, than its
// allocation holds is refused for x, y and the result before any kernel runs.
TEST(Blas1Errors, ViewsBeyondTheirAllocation) {
  const Queue& q = test::queue();
  Buffer<float> x = floats(8), y = floats(8), r = floats(1);
  for (bool far : {false, true}) {
    const auto beyond = [&](const Buffer<float>& b) {
      return Buffer<float>(b.mem(), far ? std::size_t(1) << 40 : 0, b.size() + 4096);
    };
    expect_error(Status::BufferTooSmall, "axpy: x", [&] { axpy(q, 4000, 2.0f, beyond(x), 1, y, 0); });
    expect_error(Status::BufferTooSmall, "swap: y", [&] { swap(q, 4, x, 1, beyond(y), 1); });
    expect_error(Status::BufferTooSmall, "dot: result", [&] { dot(q, 4, x, 1, y, 1, beyond(r)); });
    expect_error(Status::BufferTooSmall, "scal: x", [&] { scal(q, 4, 2.0f, beyond(x), 1); });
  }
}

TEST(Blas1Errors, Overflow) {
  const Queue& q = test::queue();
  Buffer<float> x = floats(8), y = floats(8), r = floats(1);
  const std::int64_t big = std::int64_t(1) << 40;
  expect_error(Status::Overflow, "swap: x (n, incx)", [&] { swap(q, big, x, big, y, 1); });
  expect_error(Status::Overflow, "sum: x (n, incx)",
               [&] { sum(q, big, x, std::numeric_limits<std::int64_t>::min(), r); });
  Buffer<std::int32_t> ri = test::context().alloc<std::int32_t>(1);
  expect_error(Status::Overflow, "iamax: n = 4294967296 exceeds the int32", [&] { iamax(q, big / 256, x, 1, ri); });
}

// Vectors written element by element in parallel must be the same elements
// in the same order, or share none.
TEST(Blas1Errors, Overlap) {
  const Queue& q = test::queue();
  Buffer<float> x = floats(16);
  expect_error(Status::InvalidArgument, "axpy: x (elements 0 to 3, increment 1) and y (2 to 5, increment 1) overlap",
               [&] { axpy(q, 4, 1.0f, x.view(0, 8), 1, x.view(2, 6), 1); });
  expect_error(Status::InvalidArgument, "swap: x (elements 0 to 6, increment 2) and y (0 to 6, increment -2) overlap",
               [&] { swap(q, 4, x, 2, x, -2); });
  expect_error(Status::InvalidArgument, "overlap", [&] { copy(q, 4, x, 2, x.view(4, 12), 1); });
  // The same vector, interleaved ones, and an output of increment 0 (the
  // reference's loop on one work-item) are fine.
  axpy(q, 4, 1.0f, x, 1, x, 1).wait();
  rot(q, 4, x, 2, x.view(1, 15), 2, 0.6f, 0.8f).wait();
  copy(q, 8, x, 1, x.view(3, 1), 0).wait();
  EXPECT_EQ(q.download(x)[3], q.download(x)[7]);  // the last write: x[7]
}

TEST(Blas1Errors, RotmFlag) {
  const Queue& q = test::queue();
  Buffer<float> x = floats(8), y = floats(8);
  expect_error(Status::InvalidArgument, "rotm: param[0] (the flag) is 2", [&] {
    rotm(q, 4, x, 1, y, 1, std::array<float, 5>{2, 1, 1, 1, 1});
  });
}

TEST(Blas1Errors, TypesThroughTheCApi) {
  const auto& e = env();
  Buf xf(OPTUNE_F32, 8), yd(OPTUNE_F64, 8), xc(OPTUNE_C32, 8), yc(OPTUNE_C32, 8), xh(OPTUNE_BF16, 8),
      ri(OPTUNE_I32, 1), rf(OPTUNE_F32, 1), rc(OPTUNE_C32, 1);
  const optune_complex one{1, 0}, imag{0, 1};
  expect_c(optune_blas_axpy(e.queue, 4, one, xf.h, 1, yd.h, 1, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "axpy: x is f32 but y is f64");
  expect_c(optune_blas_copy(e.queue, 4, xf.h, 1, yd.h, 1, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "copy: x is f32 but y is f64");
  expect_c(optune_blas_scal(e.queue, 4, one, xh.h, 1, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "scal: x is bf16; f32, f64, c32, c64 or f16 expected");
  expect_c(optune_blas_dot(e.queue, 4, xc.h, 1, yc.h, 1, rc.h, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "dot: x is complex: use dotu or dotc");
  expect_c(optune_blas_dotc(e.queue, 4, xf.h, 1, xf.h, 1, rf.h, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "dotc: x is f32: use dot");
  expect_c(optune_blas_nrm2(e.queue, 4, xc.h, 1, rc.h, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "nrm2: result is c32; f32 expected");
  expect_c(optune_blas_iamax(e.queue, 4, xf.h, 1, rf.h, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "iamax: result is f32; i32 expected");
  expect_c(optune_blas_sum(e.queue, 4, xc.h, 1, rf.h, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "sum: result is f32; c32 expected");
  const double param[5] = {-1, 1, 0, 0, 1};
  expect_c(optune_blas_rotm(e.queue, 4, xc.h, 1, yc.h, 1, param, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "rotm: x is complex");
  expect_c(optune_blas_rotm(e.queue, 4, xf.h, 1, xf.h, 1, nullptr, nullptr, 0, nullptr), OPTUNE_INVALID_ARGUMENT,
           "optune_blas_rotm: param is NULL");
  expect_c(optune_blas_rscal(e.queue, 4, 2.0, xf.h, 1, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
           "scal: a real alpha of a real vector");
  expect_c(optune_blas_axpy(e.queue, 4, imag, xf.h, 1, xf.h, 1, nullptr, 0, nullptr), OPTUNE_INVALID_ARGUMENT,
           "optune_blas_axpy: alpha has an imaginary part");
  expect_c(optune_blas_swap(e.queue, 4, nullptr, 1, xf.h, 1, nullptr, 0, nullptr), OPTUNE_INVALID_ARGUMENT,
           "optune_blas_swap: x is NULL");
  expect_c(optune_blas_asum(nullptr, 4, xf.h, 1, rf.h, nullptr, 0, nullptr), OPTUNE_INVALID_ARGUMENT,
           "optune_blas_asum: queue is NULL");
  float a = 1, b = 1, c, s;
  expect_c(optune_blas_srotg(&a, &b, nullptr, &s), OPTUNE_INVALID_ARGUMENT, "optune_blas_srotg: c is NULL");
  double d1 = 1, d2 = 1, x1 = 1, p[5];
  expect_c(optune_blas_drotmg(&d1, &d2, &x1, 1.0, nullptr), OPTUNE_INVALID_ARGUMENT, "optune_blas_drotmg: param is NULL");
  // And one that works: c32 axpy through the C API, read back.
  const float ones[16] = {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
  C_OK(optune_buffer_write(e.queue, xc.h, ones, 8, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, yc.h, ones, 8, nullptr, 0, nullptr));
  C_OK(optune_blas_axpy(e.queue, 8, imag, xc.h, 1, yc.h, 1, nullptr, 0, nullptr));  // y = (1 + 2i) + i (1 + 2i)
  float out[16];
  C_OK(optune_buffer_read(e.queue, yc.h, out, 8, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(out[2 * i], -1.0f);
    EXPECT_EQ(out[2 * i + 1], 3.0f);
  }
  C_OK(optune_blas_srotg(&a, &b, &c, &s));
  EXPECT_NEAR(c, std::sqrt(0.5), 1e-6);
  C_OK(optune_blas_drotmg(&d1, &d2, &x1, 1.0, p));
}

// The tensor operators refuse complex operands with a clear error.
TEST(Blas1Errors, ComplexRefusedByTensorOperators) {
  const Queue& q = test::queue();
  Buffer<C> z = test::context().alloc<C>(8);
  Operand o;
  o.mem = z.mem();
  o.dtype = DType::C32;
  o.count = 8;
  o.shape = {8};
  expect_error(Status::InvalidType, "complex data (c32) is only taken by the BLAS routines",
               [&] { unary(q, Unary::Copy, o, o); });
  expect_error(Status::InvalidType, "complex data", [&] { reduce(q, ReduceOp::Sum, o, {}, false, o); });
  EXPECT_EQ(parse_dtype("complex64"), DType::C32);
  EXPECT_EQ(parse_dtype("c64"), DType::C64);
  EXPECT_EQ(dtype_size(DType::C64), 16u);
  EXPECT_EQ(dtype_name(DType::C32), "c32");
  EXPECT_EQ(real_dtype(DType::C64), DType::F64);
  EXPECT_EQ(optune_dtype_size(OPTUNE_C64), 16u);
}
