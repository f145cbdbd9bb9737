// Bad input to gemm, gemm_strided_batched and gemm_batched: each validation
// error, with its status and a message that names the argument.
#include <cmath>
#include <cstdlib>
#include <vector>

#include "support/test_support.hpp"

using namespace optune;

namespace {

const int kNoCacheFile = setenv("OPTUNE_CACHE", "off", 0);

template <class Fn>
void expect_error(Status status, const std::string& needle, Fn&& fn) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected " << status_name(status) << " mentioning '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "'" << needle << "' not in: " << e.what();
  }
}

constexpr auto R = Layout::RowMajor;
constexpr auto C = Layout::ColMajor;
constexpr auto N = Transpose::No;
constexpr auto T = Transpose::Yes;

Buffer<float> buf(std::size_t n) {
  Buffer<float> b = test::context().alloc<float>(n);
  test::queue().fill(b, 0.0f).wait();
  return b;
}

// A valid 4 x 3 x 5 row-major NN call: A 4x5, B 5x3, C 4x3.
struct Call {
  Buffer<float> a = buf(20), b = buf(15), c = buf(12);
  std::int64_t m = 4, n = 3, k = 5, lda = 5, ldb = 3, ldc = 3;
  Event run(Layout l = R, Transpose ta = N, Transpose tb = N, const GemmOptions& o = {}) const {
    return gemm(test::queue(), l, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc, o);
  }
};

}  // namespace

TEST(GemmErrors, ValidCallRuns) { EXPECT_NO_THROW(Call().run().wait()); }

TEST(GemmErrors, NegativeSizes) {
  for (const char* arg : {"m", "n", "k"}) {
    Call x;
    (arg[0] == 'm' ? x.m : arg[0] == 'n' ? x.n : x.k) = -1;
    expect_error(Status::InvalidArgument, std::string("gemm: ") + arg + " must not be negative", [&] { x.run(); });
  }
}

TEST(GemmErrors, LeadingDimensionTooSmall) {
  Call x;
  x.lda = 4;
  expect_error(Status::InvalidArgument, "lda = 4 is smaller than 5", [&] { x.run(); });
  x = Call();
  x.ldb = 2;
  expect_error(Status::InvalidArgument, "ldb = 2 is smaller than 3", [&] { x.run(); });
  x = Call();
  x.ldc = 0;
  expect_error(Status::InvalidArgument, "ldc = 0 is smaller than 3", [&] { x.run(); });
  // Column-major: the stored column length counts; transposition swaps it.
  x = Call();
  x.lda = 3;
  expect_error(Status::InvalidArgument, "lda = 3 is smaller than 4", [&] { x.run(C); });
  x = Call();
  x.lda = 4, x.ldb = 5, x.ldc = 4;
  expect_error(Status::InvalidArgument, "lda = 4 is smaller than 5", [&] { x.run(C, T, N); });
  // m = 0 does nothing, but its arguments are still checked.
  x = Call();
  x.m = 0, x.ldb = 1;
  expect_error(Status::InvalidArgument, "ldb = 1 is smaller than 3", [&] { x.run(); });
}

TEST(GemmErrors, BufferTooSmallForOffsetAndExtent) {
  Call x;
  x.a = buf(19);
  expect_error(Status::BufferTooSmall, "gemm: a: needs 20 elements", [&] { x.run(); });
  x = Call();
  x.b = buf(40).view(26, 14);
  expect_error(Status::BufferTooSmall, "gemm: b: needs 15", [&] { x.run(); });
  x = Call();
  x.ldc = 5;  // (4 - 1) * 5 + 3 = 18 elements
  expect_error(Status::BufferTooSmall, "gemm: c: needs 18", [&] { x.run(); });
  const Queue& q = test::queue();
  Buffer<float> a = buf(20), b = buf(15), c = buf(12 * 3);
  expect_error(Status::BufferTooSmall, "gemm_strided_batched: a: needs 40", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 20, b, 3, 0, 0.0, c, 3, 12, 2);
  });
  const std::vector<double> ab{1, 1};
  const std::vector<std::int64_t> ok{0, 0}, far{0, 1}, c_offs{0, 12};
  expect_error(Status::BufferTooSmall, "gemm_batched: b: needs 16", [&] {
    gemm_batched<float>(q, R, N, N, 4, 3, 5, ab, a, 5, ok, b, 3, far, ab, c, 3, c_offs);
  });
}

TEST(GemmErrors, OverflowingSizes) {
  const Queue& q = test::queue();
  Buffer<float> a = buf(20), b = buf(15), c = buf(12);
  expect_error(Status::Overflow, "gemm: a", [&] {
    gemm(q, R, N, N, std::int64_t(1) << 62, 3, 5, 1.0, a, std::int64_t(1) << 40, b, 3, 0.0, c, 3);
  });
  expect_error(Status::Overflow, "gemm_strided_batched: b", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 0, b, 3, std::int64_t(1) << 62, 0.0, c, 3, 12, 8);
  });
}

TEST(GemmErrors, MixedDataTypes) {
  Buffer<half> h = test::context().alloc<half>(3);
  GemmOptions o;
  o.bias_mode = BiasMode::PerColumn;
  o.bias = h;
  expect_error(Status::InvalidType, "bias is f16 but the matrices are f32", [&] { Call().run(R, N, N, o); });
}

TEST(GemmErrors, EmptyBatch) {
  const Queue& q = test::queue();
  Buffer<float> a = buf(20), b = buf(15), c = buf(12);
  expect_error(Status::InvalidArgument, "empty batch", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 20, b, 3, 15, 0.0, c, 3, 12, 0);
  });
  const std::vector<double> none;
  const std::vector<std::int64_t> no_offsets;
  expect_error(Status::InvalidArgument, "empty batch", [&] {
    gemm_batched<float>(q, R, N, N, 4, 3, 5, none, a, 5, no_offsets, b, 3, no_offsets, none, c, 3, no_offsets);
  });
}

TEST(GemmErrors, BatchLayouts) {
  const Queue& q = test::queue();
  Buffer<float> a = buf(40), b = buf(30), c = buf(24);
  expect_error(Status::InvalidArgument, "stride_a = -20 is negative", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, -20, b, 3, 15, 0.0, c, 3, 12, 2);
  });
  expect_error(Status::InvalidArgument, "stride_c = 0 with batch > 1", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 20, b, 3, 15, 0.0, c, 3, 0, 2);
  });
  const std::vector<double> two{1, 1}, three{1, 1, 1};
  const std::vector<std::int64_t> offs{0, 12}, offs3{0, 0, 0}, neg{0, -1};
  expect_error(Status::InvalidArgument, "betas has 3 elements but alphas has 2", [&] {
    gemm_batched<float>(q, R, N, N, 4, 3, 5, two, a, 5, offs, b, 3, offs, three, c, 3, offs);
  });
  expect_error(Status::InvalidArgument, "c_offsets has 2 elements but alphas has 3", [&] {
    gemm_batched<float>(q, R, N, N, 4, 3, 5, three, a, 5, offs3, b, 3, offs3, three, c, 3, offs);
  });
  expect_error(Status::InvalidArgument, "a_offsets[1] = -1 is negative", [&] {
    gemm_batched<float>(q, R, N, N, 4, 3, 5, two, a, 5, neg, b, 3, offs, two, c, 3, offs);
  });
}

TEST(GemmErrors, Bias) {
  GemmOptions o;
  o.bias_mode = BiasMode::PerRow;
  o.bias = buf(3);  // m = 4 needed
  expect_error(Status::InvalidArgument, "bias has 3 elements but m = 4", [&] { Call().run(R, N, N, o); });
  o.bias = Operand();
  o.bias.dtype = DType::F32;
  expect_error(Status::InvalidArgument, "bias is an empty buffer", [&] { Call().run(R, N, N, o); });
  o.bias = Operand(buf(8), {2, 4});
  expect_error(Status::InvalidArgument, "bias must be a vector", [&] { Call().run(R, N, N, o); });
  o.bias = Operand(buf(8), {4}, {2});
  expect_error(Status::InvalidArgument, "bias must be contiguous", [&] { Call().run(R, N, N, o); });
  o.bias = Operand(buf(3), {4});  // a shape larger than the view
  expect_error(Status::BufferTooSmall, "bias: needs 4", [&] { Call().run(R, N, N, o); });
  o.bias_mode = BiasMode(7);
  expect_error(Status::InvalidArgument, "unknown bias mode", [&] { Call().run(R, N, N, o); });
}

TEST(GemmErrors, Activation) {
  GemmOptions o;
  o.activation = Unary::Clamp;
  expect_error(Status::InvalidArgument, "clamp: alpha (low) and beta (high) are required", [&] { Call().run(R, N, N, o); });
  o.activation = Unary(99);
  expect_error(Status::InvalidArgument, "unknown activation", [&] { Call().run(R, N, N, o); });
}

TEST(GemmErrors, BuffersOnAnotherContext) {
  Context other(test::device());
  Call x;
  x.b = other.alloc<float>(15);
  expect_error(Status::InvalidArgument, "gemm: b belongs to another context", [&] { x.run(); });
  x = Call();
  x.c = Buffer<float>();
  expect_error(Status::InvalidArgument, "gemm: c is an empty buffer", [&] { x.run(); });
  expect_error(Status::InvalidArgument, "empty queue", [&] {
    Call y;
    gemm(Queue(), R, N, N, 4, 3, 5, 1.0, y.a, 5, y.b, 3, 0.0, y.c, 3);
  });
}

TEST(GemmErrors, DoubleNeedsFp64) {
  if (test::device().caps().fp64) GTEST_SKIP() << "the device has fp64";
  Buffer<double> a = test::context().alloc<double>(4);
  expect_error(Status::Unsupported, "fp64", [&] {
    gemm(test::queue(), R, N, N, 2, 2, 2, 1.0, a, 2, a, 2, 0.0, a, 2);
  });
}
