// Bad input to gemm, gemm_strided_batched and gemm_batched: each validation
// error, with its status and a message that names the argument.
#include <cmath>
#include <cstdlib>
#include <vector>

#include "ops/gemm_ops.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

const int kNoCacheFile = setenv("OPTUNE_CACHE", "off", 0);

using test::expect_error;

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
  expect_error(Status::InvalidType, "bias is f16 but c is f32", [&] { Call().run(R, N, N, o); });
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

// A hand-made view that claims more elements, or a larger offset, than its
// allocation holds is refused for every operand, before any kernel runs
// (the kernel would otherwise write past the allocation).
TEST(GemmErrors, ViewsBeyondTheirAllocation) {
  for (const char* which : {"a", "b", "c"}) {
    Call x;
    Buffer<float>& m = which[0] == 'a' ? x.a : which[0] == 'b' ? x.b : x.c;
    m = Buffer<float>(m.mem(), 0, m.size() + 1000);  // claims 1000 more than allocated
    expect_error(Status::BufferTooSmall, std::string("gemm: ") + which, [&] { x.run(); });
    x = Call();
    Buffer<float>& o = which[0] == 'a' ? x.a : which[0] == 'b' ? x.b : x.c;
    o = Buffer<float>(o.mem(), std::size_t(1) << 40, o.size());  // an offset far past the end
    expect_error(Status::BufferTooSmall, std::string("gemm: ") + which, [&] { x.run(); });
  }
  GemmOptions opt;
  opt.bias_mode = BiasMode::PerColumn;
  Buffer<float> small = buf(3);
  opt.bias = Operand(Buffer<float>(small.mem(), 0, 300), {300});
  Call x;
  x.n = 3;
  expect_error(Status::BufferTooSmall, "gemm: bias", [&] { x.run(R, N, N, opt); });
}

// C may not share elements with A, B or the bias, and no two products may
// write one element of C.
TEST(GemmErrors, OverlapsAreRefused) {
  Call x;
  x.c = x.a;  // 20 elements: C is 4 x 3 inside A
  expect_error(Status::InvalidArgument, "c overlaps a", [&] { x.run(); });
  x = Call();
  x.c = x.b.view(0, 12);
  expect_error(Status::InvalidArgument, "c overlaps b", [&] { x.run(); });
  // Disjoint views of one allocation are fine.
  Buffer<float> big = buf(64);
  x = Call();
  x.a = big.view(0, 20), x.b = big.view(20, 15), x.c = big.view(40, 12);
  EXPECT_NO_THROW(x.run().wait());
  GemmOptions opt;
  opt.bias_mode = BiasMode::PerColumn;
  x = Call();
  opt.bias = Operand(x.c.view(0, 3), {3});
  expect_error(Status::InvalidArgument, "the bias overlaps c", [&] { x.run(R, N, N, opt); });

  // Strided batches: stride_c below a product's extent overlaps; products
  // that interleave their rows without sharing an element do not.
  const Queue& q = test::queue();
  Buffer<float> a = buf(4 * 5 * 3), b = buf(5 * 3 * 3), c = buf(200);
  expect_error(Status::InvalidArgument, "stride_c = 6", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 20, b, 3, 15, 0.0, c, 3, 6, 3);
  });
  // ldc = 6, stride_c = 3: product 1 fills the columns product 0 leaves.
  EXPECT_NO_THROW(gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 20, b, 3, 15, 0.0, c, 6, 3, 2).wait());

  // Listed products: equal or overlapping c_offsets.
  const std::vector<double> ones{1.0, 1.0}, zeros{0.0, 0.0};
  const std::vector<std::int64_t> ao{0, 20}, bo{0, 15};
  for (const std::vector<std::int64_t>& co : {std::vector<std::int64_t>{0, 0}, std::vector<std::int64_t>{12, 5}})
    expect_error(Status::InvalidArgument, "c_offsets[0] and c_offsets[1]", [&] {
      gemm_batched(q, R, N, N, 4, 3, 5, std::span<const double>(ones), a, 5, std::span<const std::int64_t>(ao), b, 3,
                   std::span<const std::int64_t>(bo), std::span<const double>(zeros), c, 3,
                   std::span<const std::int64_t>(co));
    });
}

// The enumerations and options the tests above leave, every operand's batch
// layout (strides, offsets, list lengths), a bias of an unknown type or of
// two dimensions too long to multiply, and an unknown element type (only
// the untyped call, the C API's, can carry one).
TEST(GemmErrors, EnumsBatchesAndTypes) {
  expect_error(Status::InvalidArgument, "gemm: unknown layout or transposition", [&] { Call().run(Layout(5)); });
  expect_error(Status::InvalidArgument, "gemm: unknown layout or transposition", [&] { Call().run(R, N, Transpose(3)); });
  GemmOptions o;
  o.accumulate = Accumulate(9);
  expect_error(Status::InvalidArgument, "gemm: unknown accumulate mode", [&] { Call().run(R, N, N, o); });
  o = GemmOptions();
  o.bias_mode = BiasMode::PerRow;
  o.bias = buf(4);
  o.bias.dtype = DType(99);
  expect_error(Status::InvalidArgument, "gemm: bias: unknown data type 99", [&] { Call().run(R, N, N, o); });
  o.bias = Operand(buf(4), {std::int64_t(1) << 32, std::int64_t(1) << 32});
  expect_error(Status::InvalidArgument, "bias must be a vector", [&] { Call().run(R, N, N, o); });

  const Queue& q = test::queue();
  Buffer<float> a = buf(40), b = buf(30), c = buf(24);
  expect_error(Status::InvalidArgument, "gemm_strided_batched: stride_b = -1 is negative", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 20, b, 3, -1, 0.0, c, 3, 12, 2);
  });
  expect_error(Status::InvalidArgument, "gemm_strided_batched: stride_c = -12 is negative", [&] {
    gemm_strided_batched(q, R, N, N, 4, 3, 5, 1.0, a, 5, 20, b, 3, 15, 0.0, c, 3, -12, 2);
  });
  const std::vector<double> two{1, 1};
  const std::vector<std::int64_t> offs{0, 12}, one{0}, neg{0, -3};
  const auto batched = [&](const std::vector<std::int64_t>& ao, const std::vector<std::int64_t>& bo,
                           const std::vector<std::int64_t>& co) {
    gemm_batched<float>(q, R, N, N, 4, 3, 5, two, a, 5, ao, b, 3, bo, two, c, 3, co);
  };
  expect_error(Status::InvalidArgument, "a_offsets has 1 elements but alphas has 2", [&] { batched(one, offs, offs); });
  expect_error(Status::InvalidArgument, "b_offsets has 1 elements but alphas has 2", [&] { batched(offs, one, offs); });
  expect_error(Status::InvalidArgument, "b_offsets[1] = -3 is negative", [&] { batched(offs, neg, offs); });
  expect_error(Status::InvalidArgument, "c_offsets[1] = -3 is negative", [&] { batched(offs, offs, neg); });

  const detail::GemmMatrix ma{a.mem(), 0, 40, DType::F32}, mb{b.mem(), 0, 30, DType(99)}, mc{c.mem(), 0, 24, DType::F32};
  expect_error(Status::InvalidArgument, "gemm: b: unknown data type 99", [&] {
    detail::gemm_untyped(q, R, N, N, 4, 3, 5, 1.0, ma, 5, 0, mb, 3, 0, 0.0, mc, 3, 0, 1, false, GemmOptions(), {});
  });
}
