// Errors of the C API, each on its own: NULL handles and pointers, bad data
// types and enum values, buffers too small, shapes that do not fit, build
// failures. Each comes back as its status with a message naming the argument.
#include <string>
#include <vector>

#include "support/capi_support.hpp"

using namespace optune;
using namespace optune::test::capi;

TEST(CApi, NullHandlesAndPointersAreInvalidArguments) {
  Buf x(OPTUNE_F32, 8), y(OPTUNE_F32, 8);
  Tensor tx(x.h, {8}), ty(y.h, {8});
  optune_event ev = reinterpret_cast<optune_event>(&ev);  // must come back NULL
  EXPECT_TRUE(fails(optune_unary(nullptr, OPTUNE_UNARY_RELU, tx.get(), ty.get(), nullptr, nullptr, 0, &ev),
                    OPTUNE_INVALID_ARGUMENT, "queue is NULL"));
  EXPECT_EQ(ev, nullptr);
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_RELU, nullptr, ty.get(), nullptr, nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "optune_unary: x is NULL"));
  Tensor no_buffer(nullptr, {8});
  EXPECT_TRUE(fails(optune_softmax(env().queue, tx.get(), 0, no_buffer.get(), nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "y.buffer is NULL"));
  optune_tensor no_shape = *tx.get();
  no_shape.shape = nullptr;
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_RELU, &no_shape, ty.get(), nullptr, nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "shape is NULL"));
  EXPECT_TRUE(fails(optune_buffer_write(env().queue, x.h, nullptr, 8, nullptr, 0, nullptr), OPTUNE_INVALID_ARGUMENT,
                    "src is NULL"));
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_RELU, tx.get(), ty.get(), nullptr, nullptr, 2, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "wait_list is NULL"));
  optune_event holes[1] = {nullptr};
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_RELU, tx.get(), ty.get(), nullptr, holes, 1, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "wait_list[0] is NULL"));
  EXPECT_TRUE(fails(optune_context_create(nullptr, nullptr), OPTUNE_INVALID_ARGUMENT, "context is NULL"));
  EXPECT_TRUE(fails(optune_queue_finish(nullptr), OPTUNE_INVALID_ARGUMENT, "queue is NULL"));
  EXPECT_TRUE(fails(optune_event_wait(nullptr), OPTUNE_INVALID_ARGUMENT, "event is NULL"));
  EXPECT_TRUE(fails(optune_device_select(nullptr, nullptr), OPTUNE_INVALID_ARGUMENT, "device is NULL"));
  EXPECT_TRUE(fails(optune_elementwise(env().queue, nullptr, tx.get(), 1, nullptr, ty.get(), 1, nullptr, nullptr,
                                       nullptr, 0, nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "code is NULL"));
  // Releasing NULL is allowed, and a success clears the message.
  EXPECT_EQ(optune_buffer_release(nullptr), OPTUNE_SUCCESS);
  EXPECT_STREQ(optune_last_error_message(), "");
}

TEST(CApi, BadDataTypesAndEnumValues) {
  optune_buffer b = reinterpret_cast<optune_buffer>(&b);
  EXPECT_TRUE(fails(optune_buffer_alloc(env().ctx, optune_dtype(9), 8, &b), OPTUNE_INVALID_TYPE, "data type 9"));
  EXPECT_EQ(b, nullptr);
  EXPECT_TRUE(fails(optune_buffer_alloc(env().ctx, optune_dtype(-3), 8, &b), OPTUNE_INVALID_TYPE, "-3"));
  Buf x(OPTUNE_F32, 8), y(OPTUNE_F32, 8), i(OPTUNE_I32, 8), u(OPTUNE_U8, 8);
  Tensor tx(x.h, {8}), ty(y.h, {8}), ti(i.h, {8}), tu(u.h, {8});
  EXPECT_TRUE(fails(optune_unary(env().queue, optune_unary_op(30), tx.get(), ty.get(), nullptr, nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "operator 30"));
  EXPECT_TRUE(fails(optune_binary(env().queue, optune_binary_op(-1), tx.get(), tx.get(), ty.get(), nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "operator -1"));
  EXPECT_TRUE(fails(optune_reduce(env().queue, optune_reduce_op(12), tx.get(), nullptr, 0, 0, ty.get(), nullptr, 0,
                                  nullptr),
                    OPTUNE_INVALID_ARGUMENT, "operator 12"));
  // Mismatched and unsupported types, as the C++ operators report them.
  EXPECT_TRUE(fails(optune_binary(env().queue, OPTUNE_BINARY_ADD, tx.get(), ti.get(), ty.get(), nullptr, 0, nullptr),
                    OPTUNE_INVALID_TYPE, "i32"));
  EXPECT_TRUE(fails(optune_softmax(env().queue, tu.get(), 0, tu.get(), nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
                    "u8"));
  EXPECT_TRUE(fails(optune_buffer_copy(env().queue, x.h, i.h, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE,
                    "dst is i32"));
}

TEST(CApi, BuffersTooSmall) {
  Buf x(OPTUNE_F32, 10), y(OPTUNE_F32, 12);
  std::vector<float> host(11, 1.0f);
  EXPECT_TRUE(fails(optune_buffer_write(env().queue, x.h, host.data(), 11, nullptr, 0, nullptr),
                    OPTUNE_BUFFER_TOO_SMALL, "dst"));
  optune_buffer v = nullptr;
  EXPECT_TRUE(fails(optune_buffer_view(x.h, 4, 7, &v), OPTUNE_BUFFER_TOO_SMALL, "10 elements"));
  EXPECT_EQ(v, nullptr);
  // A tensor that reaches past its buffer, by shape or by offset.
  Tensor big(x.h, {12}), ty(y.h, {12});
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_ABS, big.get(), ty.get(), nullptr, nullptr, 0, nullptr),
                    OPTUNE_BUFFER_TOO_SMALL, "view of 10"));
  Tensor shifted(x.h, {10}, {}, 3), ty10(y.h, {10});
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_ABS, shifted.get(), ty10.get(), nullptr, nullptr, 0,
                                 nullptr),
                    OPTUNE_BUFFER_TOO_SMALL, "view of 7"));
  Tensor beyond(x.h, {1}, {}, 11);
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_ABS, beyond.get(), ty10.get(), nullptr, nullptr, 0,
                                 nullptr),
                    OPTUNE_BUFFER_TOO_SMALL, "offset 11"));
  EXPECT_TRUE(fails(optune_buffer_alloc(env().ctx, OPTUNE_F32, 0, &v), OPTUNE_INVALID_ARGUMENT, "count"));
}

TEST(CApi, ShapesThatDoNotFit) {
  Buf x(OPTUNE_F32, 12), y(OPTUNE_F32, 12), r(OPTUNE_F32, 4);
  Tensor a(x.h, {3, 4}), b(y.h, {4, 3}), out(y.h, {3, 4}), t34(y.h, {3, 4});
  EXPECT_TRUE(fails(optune_binary(env().queue, OPTUNE_BINARY_ADD, a.get(), b.get(), out.get(), nullptr, 0, nullptr),
                    OPTUNE_INVALID_SHAPE, "[4, 3]"));
  EXPECT_TRUE(fails(optune_softmax(env().queue, a.get(), 1, b.get(), nullptr, 0, nullptr), OPTUNE_INVALID_SHAPE,
                    "softmax"));
  const int axes[] = {0};
  Tensor wrong(r.h, {4, 1});
  EXPECT_TRUE(fails(optune_reduce(env().queue, OPTUNE_REDUCE_MAX, a.get(), axes, 1, 0, wrong.get(), nullptr, 0,
                                  nullptr),
                    OPTUNE_INVALID_SHAPE, "reduce(max)"));
  const int bad_axis[] = {2};
  Tensor r4(r.h, {4});
  EXPECT_TRUE(fails(optune_reduce(env().queue, OPTUNE_REDUCE_SUM, a.get(), bad_axis, 1, 0, r4.get(), nullptr, 0,
                                  nullptr),
                    OPTUNE_INVALID_ARGUMENT, "axis"));
  EXPECT_TRUE(fails(optune_reduce(env().queue, OPTUNE_REDUCE_SUM, a.get(), nullptr, 1, 0, r4.get(), nullptr, 0,
                                  nullptr),
                    OPTUNE_INVALID_ARGUMENT, "axes is NULL"));
  optune_tensor deep = *a.get();
  deep.ndim = 9;
  EXPECT_TRUE(fails(optune_unary(env().queue, OPTUNE_UNARY_ABS, &deep, t34.get(), nullptr, nullptr, 0, nullptr),
                    OPTUNE_INVALID_SHAPE, "9 dimensions"));
  Tensor gamma(r.h, {3});
  EXPECT_TRUE(fails(optune_layer_norm(env().queue, a.get(), gamma.get(), nullptr, 1e-5, t34.get(), nullptr, nullptr,
                                      nullptr, 0, nullptr),
                    OPTUNE_INVALID_SHAPE, "gamma"));
}

TEST(CApi, BuildFailureCarriesTheCompilerMessage) {
  Buf x(OPTUNE_F32, 8), y(OPTUNE_F32, 8);
  Tensor tx(x.h, {8}), ty(y.h, {8});
  EXPECT_TRUE(fails(optune_elementwise(env().queue, "y = x +* undefined_thing", tx.get(), 1, nullptr, ty.get(), 1,
                                       nullptr, nullptr, nullptr, 0, nullptr, 0, nullptr),
                    OPTUNE_BUILD_FAILURE, "undefined_thing"));
  const char* names[] = {"k", "k"};
  const double values[] = {1, 2};
  EXPECT_TRUE(fails(optune_elementwise(env().queue, "y = x * k", tx.get(), 1, nullptr, ty.get(), 1, nullptr, names,
                                       values, 2, nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "repeats"));
}
