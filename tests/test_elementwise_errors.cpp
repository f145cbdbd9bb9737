// Bad input to the element-wise operators: one test per validation error,
// each expecting its status.
#include <functional>

#include "reference/elementwise_ref.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

Status status_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.status();
  }
  return Status::Success;
}

struct BadInputs : ::testing::Test {
  const Queue& q = test::queue();
  ref::DeviceData f = ref::upload(q, DType::F32, std::vector<double>(24, 1.0));
  ref::DeviceData g = ref::upload(q, DType::F32, std::vector<double>(24, 1.0));
  ref::DeviceData h = ref::upload(q, DType::F16, std::vector<double>(24, 1.0));
  ref::DeviceData i = ref::upload(q, DType::I32, std::vector<double>(24, 1.0));
};

}  // namespace

TEST_F(BadInputs, ShapesThatDoNotBroadcast) {
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, f.operand({4, 6}), g.operand({4}), g.operand({4, 6})); }), Status::InvalidShape);
  EXPECT_EQ(status_of([&] { ternary(q, Ternary::Fma, f.operand({4, 6}), g.operand({6}), g.operand({5}), g.operand({4, 6})); }), Status::InvalidShape);
}

TEST_F(BadInputs, OutputSmallerThanTheBroadcastShape) {
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, f.operand({4, 6}), g.operand({6}), g.operand({6})); }), Status::InvalidShape);
}

TEST_F(BadInputs, OutputsOfDifferentShapes) {
  EXPECT_EQ(status_of([&] { elementwise(q, "y = x; z = x;", {f.operand({24})}, {g.operand({24}), h.operand({4, 6})}); }), Status::InvalidShape);
}

TEST_F(BadInputs, DataTypesThatDiffer) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Relu, f.operand(), h.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, f.operand(), h.operand(), g.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, f.operand(), 1.0, h.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { ternary(q, Ternary::Where, f.operand(), g.operand(), g.operand(), h.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { ternary(q, Ternary::Fma, h.operand(), g.operand(), g.operand(), g.operand()); }), Status::InvalidType);
}

TEST_F(BadInputs, OperatorNotDefinedForTheType) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Log, i.operand(), i.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { binary(q, Binary::Div, i.operand(), i.operand(), i.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { fused(q, {Unary::Exp}, {i.operand()}, i.operand()); }), Status::InvalidType);
}

TEST_F(BadInputs, WhereConditionOfAnotherFloatingType) {
  EXPECT_EQ(status_of([&] { ternary(q, Ternary::Where, h.operand(), g.operand(), g.operand(), g.operand()); }), Status::InvalidType);
}

TEST_F(BadInputs, BufferTooSmall) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({5, 5}), g.operand({5, 5})); }), Status::BufferTooSmall);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({24}, {}, 1), g.operand({24})); }), Status::BufferTooSmall);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({4, 6}, {7, 1}), g.operand({4, 6})); }), Status::BufferTooSmall);
  // Backwards past the start of the allocation.
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({24}, {-1}), g.operand({24})); }), Status::BufferTooSmall);
  // A view larger than its allocation.
  Operand big = f.operand();
  big.count = 25;
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, big, g.operand()); }), Status::BufferTooSmall);
}

TEST_F(BadInputs, RankAboveEight) {
  const std::vector<std::int64_t> nine{1, 1, 1, 1, 1, 1, 1, 1, 24};
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand(nine), g.operand(nine)); }), Status::InvalidShape);
}

TEST_F(BadInputs, NegativeDimension) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({-1}), g.operand({-1})); }), Status::InvalidShape);
}

TEST_F(BadInputs, StrideCountDiffersFromRank) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({4, 6}, {6}), g.operand({4, 6})); }), Status::InvalidShape);
}

TEST_F(BadInputs, OutputWritesAnElementTwice) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({4, 6}), g.operand({4, 6}, {0, 1})); }), Status::InvalidShape);
}

TEST_F(BadInputs, OutputOverlapsAnInputPartially) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({20}), f.operand({20}, {}, 2)); }), Status::InvalidArgument);
  // Two outputs over the same elements.
  EXPECT_EQ(status_of([&] { elementwise(q, "y = x; z = x;", {f.operand({12})}, {g.operand({12}), g.operand({12}, {}, 6)}); }),
            Status::InvalidArgument);
}

TEST_F(BadInputs, MissingOrReversedClampBounds) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Clamp, f.operand(), g.operand()); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Clamp, f.operand(), g.operand(), {2, 1}); }), Status::InvalidArgument);
}

TEST_F(BadInputs, NonIntegerScalarForIntegerTensors) {
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, i.operand(), 0.5, i.operand()); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, 3e9, i.operand(), i.operand()); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Clamp, i.operand(), i.operand(), {0.5, 2}); }), Status::InvalidArgument);
}

TEST_F(BadInputs, EmptyHandle) {
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, Operand(), g.operand()); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { unary(Queue(), Unary::Neg, f.operand(), g.operand()); }), Status::InvalidArgument);
}

TEST_F(BadInputs, BufferOfAnotherContext) {
  Context other(q.device());
  Buffer<float> foreign = other.alloc<float>(24);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, Operand(foreign), g.operand()); }), Status::InvalidArgument);
}

// Index arithmetic past 2^63: a shape with too many elements, or strides
// whose spans do not fit (alone, or summed over the dimensions).
TEST_F(BadInputs, Overflow) {
  const std::int64_t big = std::int64_t(1) << 40;
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({big, big}, {0, 0}), g.operand({24})); }), Status::Overflow);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({3, 4}, {INT64_MAX / 2 + 1, 1}), g.operand({3, 4})); }), Status::Overflow);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({3, 4}, {INT64_MAX / 2, 1}), g.operand({3, 4})); }), Status::Overflow);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({3, 4}, {INT64_MIN / 4, INT64_MIN / 3}), g.operand({3, 4})); }), Status::Overflow);
}
