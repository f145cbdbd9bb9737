// Scalars through the C API (issue 23, items 9 and 10): a rank-0 tensor is a
// scalar, as optune.h promises, for every element-wise entry point; an
// integer scalar that int32 cannot hold is refused on every path rather than
// truncated (2^32 + 5 became INT_MIN).
#include <cstdint>
#include <string>
#include <vector>

#include "support/capi_support.hpp"

using namespace optune;
using namespace optune::test::capi;

namespace {

std::vector<std::int32_t> read_i32(optune_buffer b, std::size_t n) {
  std::vector<std::int32_t> out(n, -1);
  if (optune_buffer_read(env().queue, b, out.data(), n, nullptr, 0, nullptr) != OPTUNE_SUCCESS ||
      optune_queue_finish(env().queue) != OPTUNE_SUCCESS)
    throw std::runtime_error(optune_last_error_message());
  return out;
}

void write_i32(optune_buffer b, const std::vector<std::int32_t>& v) {
  if (optune_buffer_write(env().queue, b, v.data(), v.size(), nullptr, 0, nullptr) != OPTUNE_SUCCESS ||
      optune_queue_finish(env().queue) != OPTUNE_SUCCESS)
    throw std::runtime_error(optune_last_error_message());
}

}  // namespace

TEST(CApiRankZero, UnaryOnAScalar) {
  Buf x(OPTUNE_F32, 4), y(OPTUNE_F32, 4);
  write_f32(x.h, {1, -2, 3, -4});
  write_f32(y.h, {9, 9, 9, 9});
  Tensor tx(x.h, {}, {}, 1), ty(y.h, {}, {}, 2);  // element 1 of x into element 2 of y
  C_OK(optune_unary(env().queue, OPTUNE_UNARY_NEG, tx.get(), ty.get(), nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(read_f32(y.h, 4), (std::vector<float>{9, 9, 2, 9}));
}

TEST(CApiRankZero, ScalarBroadcastsAgainstATensor) {
  Buf a(OPTUNE_F32, 1), b(OPTUNE_F32, 5), y(OPTUNE_F32, 5);
  write_f32(a.h, {10});
  write_f32(b.h, {1, 2, 3, 4, 5});
  Tensor ta(a.h, {}), tb(b.h, {5}), ty(y.h, {5});
  C_OK(optune_binary(env().queue, OPTUNE_BINARY_SUB, ta.get(), tb.get(), ty.get(), nullptr, 0, nullptr));
  EXPECT_EQ(read_f32(y.h, 5), (std::vector<float>{9, 8, 7, 6, 5}));
  Tensor ty0(y.h, {});
  C_OK(optune_binary_tensor_scalar(env().queue, OPTUNE_BINARY_MUL, ta.get(), 0.5, ty0.get(), nullptr, 0, nullptr));
  EXPECT_EQ(read_f32(y.h, 1)[0], 5.0f);
  const char* names[] = {"x"};
  C_OK(optune_elementwise(env().queue, "y = x * x", ta.get(), 1, names, ty0.get(), 1, nullptr, nullptr, nullptr, 0,
                          nullptr, 0, nullptr));
  EXPECT_EQ(read_f32(y.h, 1)[0], 100.0f);
}

TEST(CApiRankZero, ScalarPastTheViewIsTooSmall) {
  Buf x(OPTUNE_F32, 2), y(OPTUNE_F32, 2);
  Tensor tx(x.h, {}, {}, 2), ty(y.h, {});
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_NEG, tx.get(), ty.get(), nullptr, nullptr, 0, nullptr),
                    OPTUNE_BUFFER_TOO_SMALL, "input 0: shape [1] with strides [1] reaches elements 0..0 of a view of 0"));
}

TEST(CApiRankZero, OperatorsThatNeedAnAxisSaySo) {
  Buf x(OPTUNE_F32, 1), y(OPTUNE_F32, 1);
  Tensor tx(x.h, {}), ty(y.h, {});
  EXPECT_TRUE(fails(optune_softmax(env().queue, tx.get(), 0, ty.get(), nullptr, 0, nullptr), OPTUNE_INVALID_SHAPE,
                    "rank 0 (a scalar) is outside 1..8 that this operator takes"));
}

TEST(IntegerScalars, OutOfInt32RangeIsRefusedInCustomExpressions) {
  Buf x(OPTUNE_I32, 3), y(OPTUNE_I32, 3);
  write_i32(x.h, {1, 2, 3});
  Tensor tx(x.h, {3}), ty(y.h, {3});
  const char* names[] = {"s"};
  for (double s : {4294967301.0, 2147483648.0, -2147483649.0, 1e300}) {
    const double values[] = {s};
    EXPECT_TRUE(fails(optune_elementwise(env().queue, "y = x + s", tx.get(), 1, nullptr, ty.get(), 1, nullptr, names,
                                         values, 1, nullptr, 0, nullptr),
                      OPTUNE_INVALID_ARGUMENT, "is not a 32-bit integer"))
        << s;
  }
  // The same through C++, naming the scalar and its value in full.
  const Queue& q = test::queue();
  auto xi = q.context().alloc<std::int32_t>(3);
  try {
    elementwise(q, "y = x + s", {xi}, {xi}, {{"s", 4294967301.0}});
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("scalar s = 4294967301"), std::string::npos) << e.what();
  }
  // The ends of the range still work.
  const double limits[] = {-2147483648.0};
  C_OK(optune_elementwise(env().queue, "y = s + x - x", tx.get(), 1, nullptr, ty.get(), 1, nullptr, names, limits, 1,
                          nullptr, 0, nullptr));
  EXPECT_EQ(read_i32(y.h, 3), (std::vector<std::int32_t>{INT32_MIN, INT32_MIN, INT32_MIN}));
}

TEST(IntegerScalars, BuiltInOperatorsRefuseThemToo) {
  Buf x(OPTUNE_I32, 3), y(OPTUNE_I32, 3);
  Tensor tx(x.h, {3}), ty(y.h, {3});
  EXPECT_TRUE(fails(optune_binary_tensor_scalar(env().queue, OPTUNE_BINARY_ADD, tx.get(), 4294967301.0, ty.get(),
                                                nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "32-bit integer"));
}
