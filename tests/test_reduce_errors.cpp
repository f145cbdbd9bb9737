// Bad input to reduce, softmax, log_softmax, layer_norm and rms_norm: each
// validation error, with its status and a message that names the argument.
#include <cmath>

#include "reference/elementwise_ref.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

using test::expect_error;

ref::DeviceData data(DType t, std::size_t n) { return ref::upload(test::queue(), t, std::vector<double>(n, 1.0)); }

}  // namespace

TEST(ReduceErrors, AxisOutOfRange) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 12), y = data(DType::F32, 12);
  expect_error(Status::InvalidArgument, "axis 2 is out of range", [&] {
    reduce(q, ReduceOp::Sum, x.operand({3, 4}), {2}, false, y.operand({3}));
  });
  expect_error(Status::InvalidArgument, "axis -3 is out of range", [&] {
    reduce(q, ReduceOp::Sum, x.operand({3, 4}), {-3}, false, y.operand({3}));
  });
  expect_error(Status::InvalidArgument, "axis 5", [&] { softmax(q, x.operand({3, 4}), 5, y.operand({3, 4})); });
  expect_error(Status::InvalidArgument, "axis -3", [&] { log_softmax(q, x.operand({3, 4}), -3, y.operand({3, 4})); });
}

TEST(ReduceErrors, RepeatedAxes) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 24), y = data(DType::F32, 24);
  expect_error(Status::InvalidArgument, "repeated", [&] {
    reduce(q, ReduceOp::Max, x.operand({2, 3, 4}), {1, 1}, false, y.operand({2, 4}));
  });
  expect_error(Status::InvalidArgument, "repeated", [&] {
    reduce(q, ReduceOp::Sum, x.operand({2, 3, 4}), {2, -1}, false, y.operand({2, 3}));
  });
}

TEST(ReduceErrors, EmptyTensors) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 4), y = data(DType::F32, 4);
  auto yi = data(DType::I32, 4);
  for (ReduceOp op : {ReduceOp::Max, ReduceOp::Min})
    expect_error(Status::InvalidShape, "empty", [&] {
      reduce(q, op, x.operand({3, 0}), {1}, false, y.operand({3}));
    });
  for (ReduceOp op : {ReduceOp::ArgMax, ReduceOp::ArgMin})
    expect_error(Status::InvalidShape, "empty", [&] {
      reduce(q, op, x.operand({0, 2}), {0}, false, yi.operand({2}));
    });
  expect_error(Status::InvalidShape, "empty", [&] {
    layer_norm(q, x.operand({2, 0}), std::nullopt, std::nullopt, 1e-5, y.operand({2, 0}));
  });
  expect_error(Status::InvalidShape, "empty", [&] { rms_norm(q, x.operand({4, 0}), std::nullopt, 1e-5, y.operand({4, 0})); });
  // A tensor without a dimension is no tensor here.
  Operand scalar = x.operand();
  scalar.shape = {};
  expect_error(Status::InvalidShape, "rank 0", [&] { reduce(q, ReduceOp::Sum, scalar, {}, false, y.operand({1})); });
}

TEST(ReduceErrors, OutputShapeMismatch) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 24), y = data(DType::F32, 24);
  expect_error(Status::InvalidShape, "y has shape [2, 1, 4]", [&] {
    reduce(q, ReduceOp::Sum, x.operand({2, 3, 4}), {1}, false, y.operand({2, 1, 4}));
  });
  expect_error(Status::InvalidShape, "gives [2, 1, 4]", [&] {
    reduce(q, ReduceOp::Mean, x.operand({2, 3, 4}), {1}, true, y.operand({2, 4}));
  });
  expect_error(Status::InvalidShape, "y has shape", [&] { softmax(q, x.operand({2, 12}), 1, y.operand({24})); });
  auto g = data(DType::F32, 5);
  expect_error(Status::InvalidShape, "gamma has shape [5]", [&] {
    layer_norm(q, x.operand({6, 4}), g.operand({5}), std::nullopt, 1e-5, y.operand({6, 4}));
  });
  expect_error(Status::InvalidShape, "beta", [&] {
    layer_norm(q, x.operand({6, 4}), std::nullopt, g.operand({2, 2}, {}, 1), 1e-5, y.operand({6, 4}));
  });
  auto m = data(DType::F32, 6), r = data(DType::F32, 6);
  expect_error(Status::InvalidShape, "mean_out has shape [3]", [&] {
    layer_norm(q, x.operand({6, 4}), std::nullopt, std::nullopt, 1e-5, y.operand({6, 4}), m.operand({3}), r.operand({6}));
  });
}

TEST(ReduceErrors, DataTypeMismatch) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 8), xi = data(DType::I32, 8);
  auto yf = data(DType::F32, 8), yh = data(DType::F16, 8), yi = data(DType::I32, 8), yu = data(DType::U8, 8);
  expect_error(Status::InvalidType, "y is f16 but must be f32", [&] {
    reduce(q, ReduceOp::Sum, x.operand({2, 4}), {1}, false, yh.operand({2}));
  });
  expect_error(Status::InvalidType, "must be i32", [&] {
    reduce(q, ReduceOp::ArgMax, x.operand({2, 4}), {1}, false, yf.operand({2}));
  });
  expect_error(Status::InvalidType, "must be u8", [&] {
    reduce(q, ReduceOp::Any, x.operand({2, 4}), {1}, false, yi.operand({2}));
  });
  expect_error(Status::InvalidType, "x is i32", [&] {
    reduce(q, ReduceOp::Sum, xi.operand({2, 4}), {1}, false, yi.operand({2}));
  });
  expect_error(Status::InvalidType, "y is f16", [&] { softmax(q, x.operand({2, 4}), 0, yh.operand({2, 4})); });
  expect_error(Status::InvalidType, "x is i32", [&] { log_softmax(q, xi.operand({2, 4}), 0, yi.operand({2, 4})); });
  auto gh = data(DType::F16, 4);
  expect_error(Status::InvalidType, "gamma is f16", [&] {
    rms_norm(q, x.operand({2, 4}), gh.operand({4}), 1e-5, yf.operand({2, 4}));
  });
  auto m = data(DType::F32, 2), r = data(DType::F16, 2);
  expect_error(Status::InvalidType, "share a data type", [&] {
    layer_norm(q, x.operand({2, 4}), std::nullopt, std::nullopt, 1e-5, yf.operand({2, 4}), m.operand({2}), r.operand({2}));
  });
  expect_error(Status::InvalidType, "mean_out is i32", [&] {
    layer_norm(q, x.operand({2, 4}), std::nullopt, std::nullopt, 1e-5, yf.operand({2, 4}), yi.operand({2}));
  });
  if (!test::device().caps().fp64) {
    auto xd = data(DType::F64, 4), yd = data(DType::F64, 4);
    expect_error(Status::Unsupported, "fp64", [&] { reduce(q, ReduceOp::Sum, xd.operand(), {}, false, yd.operand({1})); });
  }
}

TEST(ReduceErrors, BufferTooSmall) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 10), y = data(DType::F32, 10);
  expect_error(Status::BufferTooSmall, "x", [&] {
    reduce(q, ReduceOp::Sum, x.operand({3, 4}), {1}, false, y.operand({3}));
  });
  expect_error(Status::BufferTooSmall, "y", [&] {
    Operand yv = y.operand({2});
    yv.strides = {10};
    reduce(q, ReduceOp::Sum, x.operand({2, 5}), {1}, false, yv);
  });
  expect_error(Status::BufferTooSmall, "x", [&] { softmax(q, x.operand({11}), 0, y.operand({11})); });
  Operand big = x.operand({10});
  big.count = 100;  // a view past the allocation
  expect_error(Status::BufferTooSmall, "x", [&] { rms_norm(q, big, std::nullopt, 1e-5, y.operand({10})); });
}

TEST(ReduceErrors, RankAndOverlapAndEps) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 512), y = data(DType::F32, 512);
  expect_error(Status::InvalidShape, "rank 9", [&] {
    reduce(q, ReduceOp::Sum, x.operand(std::vector<std::int64_t>(9, 2)), {0}, false,
           y.operand(std::vector<std::int64_t>(8, 2)));
  });
  expect_error(Status::InvalidArgument, "overlaps", [&] {
    reduce(q, ReduceOp::Sum, x.operand({4, 8}), {1}, false, x.operand({4}, {}, 8));
  });
  expect_error(Status::InvalidArgument, "overlaps", [&] { softmax(q, x.operand({4, 8}), 1, x.operand({4, 8}, {}, 1)); });
  for (double eps : {-1.0, double(NAN), double(INFINITY)})
    expect_error(Status::InvalidArgument, "eps", [&] {
      layer_norm(q, x.operand({4, 8}), std::nullopt, std::nullopt, eps, y.operand({4, 8}));
    });
  Context other(test::device());
  Buffer<float> foreign = other.alloc<float>(32);
  expect_error(Status::InvalidArgument, "another context", [&] {
    reduce(q, ReduceOp::Sum, Operand(foreign, {4, 8}), {1}, false, y.operand({4}));
  });
  expect_error(Status::InvalidArgument, "empty queue", [&] {
    reduce(Queue(), ReduceOp::Sum, x.operand({4, 8}), {1}, false, y.operand({4}));
  });
}

TEST(ReduceErrors, NormOutputTypeMismatch) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 24), yh = data(DType::F16, 24);
  expect_error(Status::InvalidType, "y is f16 but x is f32", [&] {
    layer_norm(q, x.operand({4, 6}), std::nullopt, std::nullopt, 1e-5, yh.operand({4, 6}));
  });
  expect_error(Status::InvalidType, "y is f16 but x is f32", [&] {
    rms_norm(q, x.operand({4, 6}), std::nullopt, 1e-5, yh.operand({4, 6}));
  });
}

TEST(ReduceErrors, NormOutputShapeMismatch) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 24), y = data(DType::F32, 24);
  expect_error(Status::InvalidShape, "y has shape [6, 4], x [4, 6]", [&] {
    layer_norm(q, x.operand({4, 6}), std::nullopt, std::nullopt, 1e-5, y.operand({6, 4}));
  });
  expect_error(Status::InvalidShape, "y has shape [24], x [4, 6]", [&] {
    rms_norm(q, x.operand({4, 6}), std::nullopt, 1e-5, y.operand({24}));
  });
}

TEST(ReduceErrors, GammaOrBetaOverlapsY) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 24), y = data(DType::F32, 30);
  // gamma in the last 6 elements of y's allocation, y the first 24: apart.
  EXPECT_NO_THROW(rms_norm(q, x.operand({4, 6}), y.operand({6}, {}, 24), 1e-5, y.operand({4, 6})).wait());
  expect_error(Status::InvalidArgument, "y overlaps gamma", [&] {
    rms_norm(q, x.operand({4, 6}), y.operand({6}, {}, 20), 1e-5, y.operand({4, 6}));
  });
  expect_error(Status::InvalidArgument, "y overlaps beta", [&] {
    layer_norm(q, x.operand({4, 6}), std::nullopt, y.operand({6}, {}, 3), 1e-5, y.operand({4, 6}));
  });
}

TEST(ReduceErrors, StatisticsOverlapX) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 30), y = data(DType::F32, 24), r = data(DType::F32, 4);
  expect_error(Status::InvalidArgument, "mean_out overlaps x", [&] {
    layer_norm(q, x.operand({4, 6}), std::nullopt, std::nullopt, 1e-5, y.operand({4, 6}), x.operand({4}, {}, 22),
               r.operand({4}));
  });
  expect_error(Status::InvalidArgument, "rstd_out overlaps x", [&] {
    layer_norm(q, x.operand({4, 6}), std::nullopt, std::nullopt, 1e-5, y.operand({4, 6}), std::nullopt,
               x.operand({4}, {}, 0));
  });
}

TEST(ReduceErrors, Overflow) {
  const Queue& q = test::queue();
  auto x = data(DType::F32, 16), y = data(DType::F32, 16);
  auto yi = data(DType::I32, 4);
  // Element counts past 2^63.
  expect_error(Status::Overflow, "x: shape [4294967296, 4294967296, 4] has too many elements", [&] {
    reduce(q, ReduceOp::Sum, x.operand({std::int64_t(1) << 32, std::int64_t(1) << 32, 4}, {0, 0, 1}), {2}, false,
           y.operand({std::int64_t(1) << 32, std::int64_t(1) << 32}, {0, 0}));
  });
  expect_error(Status::Overflow, "too many elements", [&] {
    softmax(q, x.operand({std::int64_t(1) << 40, std::int64_t(1) << 40}, {0, 1}), 1,
            y.operand({std::int64_t(1) << 40, std::int64_t(1) << 40}, {0, 1}));
  });
  // A stride whose span passes 2^63.
  expect_error(Status::Overflow, "x: strides overflow", [&] {
    reduce(q, ReduceOp::Max, x.operand({3, 4}, {INT64_MAX / 2, 1}), {1}, false, y.operand({3}));
  });
  expect_error(Status::Overflow, "strides overflow", [&] {
    layer_norm(q, x.operand({4, 4}), std::nullopt, std::nullopt, 1e-5, y.operand({4, 4}, {4, INT64_MIN / 2}));
  });
  // An argmax over more elements than i32 indices hold (a broadcast view).
  expect_error(Status::Overflow, "do not fit the i32 indices", [&] {
    reduce(q, ReduceOp::ArgMax, x.operand({2, (std::int64_t(1) << 31) + 1}, {1, 0}), {1}, false, yi.operand({2}));
  });
}
