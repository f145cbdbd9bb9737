// OPTUNE_PARAMS with impossible values: every one is dropped with a warning
// naming it, an unknown family too, and the operators still compute right
// (they once gave softmax errors of 2e38 with norm_rows:WGS=3, a kernel
// crash with REG_TPR=-1 and build failures with WGS=0 or VW=-1). The
// variable is read once per process, so this file sets it before any call.
#include <cmath>
#include <cstdlib>

#include "kernels/descriptor.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

const int kParams = setenv("OPTUNE_PARAMS",
                           "norm_rows:WGS=3,REG_TPR=-1,NOPE=4;reduce_cols:WGS=100000;elementwise:VW=-1,WGS=0;"
                           "reduce_rows:WGS=7;nofamily:X=1",
                           1);

std::vector<float> run_softmax(const std::vector<float>& x, std::size_t rows, std::size_t cols) {
  const Queue& q = test::queue();
  Buffer<float> bx = q.context().alloc<float>(x.size()), by = q.context().alloc<float>(x.size());
  q.upload(bx, std::span<const float>(x));
  q.fill(by, std::nanf("")).wait();
  softmax(q, Operand(bx, {std::int64_t(rows), std::int64_t(cols)}), -1,
          Operand(by, {std::int64_t(rows), std::int64_t(cols)})).wait();
  return q.download(by);
}

}  // namespace

TEST(ParamsEnv, ImpossibleValuesAreDroppedWithAWarning) {
  testing::internal::CaptureStderr();
  const std::size_t rows = 7, cols = 1000;
  const std::vector<float> x = test::random_floats(rows * cols, -4, 4);
  const std::vector<float> y = run_softmax(x, rows, cols);
  for (std::size_t r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (std::size_t c = 0; c < cols; ++c) m = std::max(m, double(x[r * cols + c]));
    for (std::size_t c = 0; c < cols; ++c) s += std::exp(double(x[r * cols + c]) - m);
    for (std::size_t c = 0; c < cols; ++c) {
      const double want = std::exp(double(x[r * cols + c]) - m) / s;
      ASSERT_NEAR(y[r * cols + c], want, 1e-5 * want + 1e-9) << r << " " << c;
    }
  }
  // Column sums (reduce_cols), row sums (reduce_rows) and an element-wise op.
  const Queue& q = test::queue();
  Buffer<float> bx = q.context().alloc<float>(x.size()), bc = q.context().alloc<float>(cols),
                br = q.context().alloc<float>(rows), bu = q.context().alloc<float>(x.size());
  q.upload(bx, std::span<const float>(x));
  const Operand xt(bx, {std::int64_t(rows), std::int64_t(cols)});
  reduce(q, ReduceOp::Sum, xt, {0}, false, Operand(bc, {std::int64_t(cols)})).wait();
  reduce(q, ReduceOp::Sum, xt, {1}, false, Operand(br, {std::int64_t(rows)})).wait();
  unary(q, Unary::Abs, bx, bu).wait();
  const auto cs = q.download(bc), rs = q.download(br), us = q.download(bu);
  for (std::size_t c = 0; c < cols; ++c) {
    double s = 0;
    for (std::size_t r = 0; r < rows; ++r) s += x[r * cols + c];
    ASSERT_NEAR(cs[c], s, 1e-4);
  }
  for (std::size_t r = 0; r < rows; ++r) {
    double s = 0;
    for (std::size_t c = 0; c < cols; ++c) s += x[r * cols + c];
    ASSERT_NEAR(rs[r], s, 1e-3);
  }
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(us[i], std::fabs(x[i]));
  const std::string err = testing::internal::GetCapturedStderr();
  for (const char* said : {"norm_rows:WGS=3 is not one of its values", "norm_rows:REG_TPR=-1 is not one of its values",
                           "norm_rows has no parameter NOPE", "reduce_cols:WGS=100000 is not one of its values",
                           "elementwise:VW=-1 is not one of its values", "elementwise:WGS=0 is not one of its values",
                           "reduce_rows:WGS=7 is not one of its values", "no kernel family 'nofamily'"})
    EXPECT_NE(err.find(said), std::string::npos) << "'" << said << "' not in:\n" << err;
  // Each value is warned about once, not per call.
  run_softmax(x, rows, cols);
  testing::internal::CaptureStderr();
  run_softmax(x, rows, cols);
  EXPECT_EQ(testing::internal::GetCapturedStderr().find("WGS=3"), std::string::npos);
}

// An operand whose data type is not one of DType's (a value cast from an
// integer) is refused before any size arithmetic (it once divided by a zero
// element size).
TEST(ParamsEnv, UnknownDataTypeIsRefused) {
  const Queue& q = test::queue();
  Buffer<float> b = q.context().alloc<float>(16);
  Operand x(b), y(b);
  x.dtype = static_cast<DType>(9);
  test::expect_error(Status::InvalidArgument, "unknown data type 9", [&] { unary(q, Unary::Relu, x, y); });
  test::expect_error(Status::InvalidArgument, "unknown data type 9", [&] { binary(q, Binary::Add, x, y, y); });
  test::expect_error(Status::InvalidArgument, "unknown data type 9",
                     [&] { reduce(q, ReduceOp::Sum, x, {}, false, y); });
}

// A parameter of 2^63 in JSON (a database file, an import) is refused, not
// wrapped to -2^63 (which messages once printed as WGS=-9223372036854775808).
TEST(ParamsEnv, ParameterBeyondInt64IsRefused) {
  test::expect_error(Status::InvalidArgument, "must be a 64-bit integer",
                     [] { detail::params_from_json(R"({"WGS": 9223372036854775808})"); });
  EXPECT_EQ(detail::params_from_json(R"({"WGS": 9223372036854775807})").at("WGS"), INT64_MAX);
}
