// Every validation error of conv2d (and of Conv2dDesc::validate(), which
// touches no device), through the C++ API and the C API: each names the
// argument with its status, and nothing reaches the device.
#include <gtest/gtest.h>

#include <climits>

#include "capi/capi.hpp"
#include "reference/conv_check.hpp"
#include "support/test_support.hpp"

namespace optune {
namespace {

using ref::conv_desc;
using test::expect_error;

// A valid 1 x 4 x 6 x 6 -> 4, 3x3, pad 1 call on f32 tensors, which each
// test breaks one way.
struct Call {
  Conv2dDesc d = conv_desc(1, 4, 6, 6, 4, 3, 3, 1, 1, 1);
  Buffer<float> in = test::context().alloc<float>(1 * 4 * 6 * 6);
  Buffer<float> wt = test::context().alloc<float>(4 * 4 * 3 * 3);
  Buffer<float> out = test::context().alloc<float>(1 * 4 * 6 * 6);
  Buffer<float> bias = test::context().alloc<float>(4);
  Conv2dOptions o;
  Event run() const { return conv2d(test::queue(), d, in, wt, out, o); }
};

TEST(ConvErrors, ValidCallRuns) {
  Call c;
  EXPECT_NO_THROW(c.run().wait());
}

TEST(ConvErrors, DescriptorSizes) {
  const auto with = [](auto change) {
    Conv2dDesc d = conv_desc(1, 4, 6, 6, 4, 3, 3, 1, 1, 1);
    change(d);
    return d;
  };
  struct Bad {
    Conv2dDesc d;
    Status status;
    const char* needle;
  };
  const Bad bad[] = {
      {with([](Conv2dDesc& d) { d.batch = 0; }), Status::InvalidArgument, "batch must be positive"},
      {with([](Conv2dDesc& d) { d.in_channels = -1; }), Status::InvalidArgument, "in_channels must be positive"},
      {with([](Conv2dDesc& d) { d.in_height = 0; }), Status::InvalidArgument, "in_height must be positive"},
      {with([](Conv2dDesc& d) { d.out_channels = 0; }), Status::InvalidArgument, "out_channels must be positive"},
      {with([](Conv2dDesc& d) { d.kernel_w = 0; }), Status::InvalidArgument, "kernel_w must be positive"},
      {with([](Conv2dDesc& d) { d.stride_h = 0; }), Status::InvalidArgument, "stride_h must be positive"},
      {with([](Conv2dDesc& d) { d.stride_w = -2; }), Status::InvalidArgument, "stride_w must be positive"},
      {with([](Conv2dDesc& d) { d.dilation_h = 0; }), Status::InvalidArgument, "dilation_h must be positive"},
      {with([](Conv2dDesc& d) { d.groups = 0; }), Status::InvalidArgument, "groups must be positive"},
      {with([](Conv2dDesc& d) { d.pad_left = -1; }), Status::InvalidArgument, "pad_left must not be negative"},
      {with([](Conv2dDesc& d) { d.pad_bottom = -3; }), Status::InvalidArgument, "pad_bottom must not be negative"},
      {with([](Conv2dDesc& d) { d.in_width = 0; }), Status::InvalidArgument, "in_width must be positive"},
      {with([](Conv2dDesc& d) { d.kernel_h = -1; }), Status::InvalidArgument, "kernel_h must be positive"},
      {with([](Conv2dDesc& d) { d.dilation_w = 0; }), Status::InvalidArgument, "dilation_w must be positive"},
      {with([](Conv2dDesc& d) { d.pad_top = -1; }), Status::InvalidArgument, "pad_top must not be negative"},
      {with([](Conv2dDesc& d) { d.pad_right = -2; }), Status::InvalidArgument, "pad_right must not be negative"},
      {with([](Conv2dDesc& d) { d.groups = 3; }), Status::InvalidArgument,
       "in_channels = 4 is not divisible by groups = 3"},
      {with([](Conv2dDesc& d) { d.groups = 2, d.out_channels = 5; }), Status::InvalidArgument,
       "out_channels = 5 is not divisible by groups = 2"},
      {with([](Conv2dDesc& d) { d.kernel_h = 9; }), Status::InvalidArgument, "the output would be 0 x 6"},
      {with([](Conv2dDesc& d) { d.dilation_w = 5, d.pad_left = d.pad_right = 0; }), Status::InvalidArgument,
       "the dilated filter (3 x 11) is larger than the padded input (8 x 6)"},
      {with([](Conv2dDesc& d) { d.input_layout = ConvLayout(7); }), Status::InvalidArgument, "unknown input_layout"},
      {with([](Conv2dDesc& d) { d.output_layout = ConvLayout(-1); }), Status::InvalidArgument,
       "unknown output_layout"},
      // Index overflow: a size past the kernels' 32-bit range, sums and
      // products of them, elements beyond 64 bits.
      {with([](Conv2dDesc& d) { d.in_width = std::int64_t(INT_MAX) + 1; }), Status::Overflow, "in_width"},
      {with([](Conv2dDesc& d) { d.in_height = INT_MAX - 1; }), Status::Overflow, "in_height + pad_top + pad_bottom"},
      {with([](Conv2dDesc& d) { d.in_width = INT_MAX - 1; }), Status::Overflow, "in_width + pad_left + pad_right"},
      {with([](Conv2dDesc& d) { d.pad_top = std::int64_t(INT_MAX) + 1; }), Status::Overflow,
       "pad_top = 2147483648 exceeds 2^31 - 1"},
      {with([](Conv2dDesc& d) { d.stride_h = INT_MAX / 4; }), Status::Overflow, "(out_height + 16) * stride_h"},
      {with([](Conv2dDesc& d) { d.dilation_w = INT_MAX / 2, d.kernel_w = 4; }), Status::Overflow,
       "dilation_w * (kernel_w - 1)"},
      {with([](Conv2dDesc& d) { d.stride_w = INT_MAX / 4; }), Status::Overflow, "(out_width + 16) * stride_w"},
      {with([](Conv2dDesc& d) { d.dilation_h = INT_MAX / 2, d.kernel_h = 4; }), Status::Overflow,
       "dilation_h * (kernel_h - 1)"},
      {with([](Conv2dDesc& d) { d.in_channels = d.out_channels = 1 << 20, d.kernel_h = d.kernel_w = 64,
                                d.in_height = d.in_width = 64; }),
       Status::Overflow, "in_channels / groups * kernel_h * kernel_w"},
      {with([](Conv2dDesc& d) { d.batch = d.in_channels = d.out_channels = INT_MAX, d.in_height = d.in_width = 1 << 20,
                                d.groups = INT_MAX, d.kernel_h = d.kernel_w = 1, d.pad_top = d.pad_bottom = 0,
                                d.pad_left = d.pad_right = 0; }),
       Status::Overflow, "the input"},
      // Products past 64 bits (the filter's, the output's) and the input's
      // between 2^63 and 2^64: 2^16 * 2^16 * 2^16 * 1.5 * 2^15.
      {with([](Conv2dDesc& d) { d.in_channels = d.out_channels = d.kernel_h = d.kernel_w = INT_MAX,
                                d.in_height = d.in_width = INT_MAX, d.pad_top = d.pad_bottom = 0,
                                d.pad_left = d.pad_right = 0; }),
       Status::Overflow, "the filter: 4611686014132420609 * 2147483647 overflows"},
      {with([](Conv2dDesc& d) { d.batch = d.out_channels = INT_MAX, d.in_channels = 1, d.in_height = d.in_width = 1,
                                d.kernel_h = d.kernel_w = 1,
                                d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = (1 << 30) - 20; }),
       Status::Overflow, "the output: 4611686014132420609 * 2147483609 overflows"},
      {with([](Conv2dDesc& d) { d.batch = d.in_channels = d.in_height = 1 << 16, d.in_width = 3 << 14,
                                d.out_channels = 1, d.kernel_h = d.kernel_w = 1, d.pad_top = d.pad_bottom = 0,
                                d.pad_left = d.pad_right = 0; }),
       Status::Overflow, "the input exceeds 2^63 - 1 elements"},
  };
  for (const Bad& b : bad) {
    expect_error(b.status, b.needle, [&] { b.d.validate(); });
    Call c;
    c.d = b.d;
    expect_error(b.status, b.needle, [&] { c.run(); });
    try {
      b.d.validate();
    } catch (const optune::Error& e) {
      EXPECT_EQ(std::string(e.what()).find("conv2d: conv2d"), std::string::npos) << e.what();  // one prefix
    }
  }
}

TEST(ConvErrors, Tensors) {
  const Context& ctx = test::context();
  {
    Call c;
    c.in = ctx.alloc<float>(1 * 4 * 6 * 6 - 1);
    expect_error(Status::BufferTooSmall, "input holds 143 elements but [1, 4, 6, 6] needs 144", [&] { c.run(); });
  }
  {
    Call c;
    c.out = c.out.view(1, c.out.size() - 1);
    expect_error(Status::BufferTooSmall, "output holds", [&] { c.run(); });
  }
  {  // weight shape mismatch: a 4-d weight of the wrong shape
    Call c;
    expect_error(Status::InvalidShape, "weight has shape [4, 2, 3, 3], expected [4, 4, 3, 3]", [&] {
      conv2d(test::queue(), c.d, c.in, Operand(c.wt, {4, 2, 3, 3}), c.out);
    });
    expect_error(Status::InvalidShape, "weight has shape [4, 4, 9]", [&] {
      conv2d(test::queue(), c.d, c.in, Operand(c.wt, {4, 4, 9}), c.out);
    });
  }
  {  // an NHWC-shaped input where the descriptor says NCHW
    Call c;
    c.d.in_width = 4;
    expect_error(Status::InvalidShape, "input has shape [1, 6, 4, 4], expected [1, 4, 6, 4]", [&] {
      conv2d(test::queue(), c.d, Operand(c.in.view(0, 96), {1, 6, 4, 4}), c.wt, c.out);
    });
  }
  {  // not dense
    Call c;
    expect_error(Status::InvalidArgument, "input must be dense", [&] {
      conv2d(test::queue(), c.d, Operand(c.in, {1, 4, 6, 6}, {144, 1, 24, 4}), c.wt, c.out);
    });
  }
  {  // types
    Call c;
    Buffer<half> wt16 = ctx.alloc<half>(4 * 4 * 3 * 3);
    expect_error(Status::InvalidType, "weight is f16 but input is f32", [&] {
      conv2d(test::queue(), c.d, c.in, wt16, c.out);
    });
    Buffer<std::int32_t> in32 = ctx.alloc<std::int32_t>(144), wt32 = ctx.alloc<std::int32_t>(144),
                         out32 = ctx.alloc<std::int32_t>(144);
    expect_error(Status::InvalidType, "input is i32; f32, f16 or bf16 expected", [&] {
      conv2d(test::queue(), c.d, in32, wt32, out32);
    });
    Buffer<half> bias16 = ctx.alloc<half>(4);
    c.o.bias = bias16;
    expect_error(Status::InvalidType, "bias is f16 but input is f32", [&] { c.run(); });
  }
  {  // bias and residual
    Call c;
    c.o.bias = c.bias.view(0, 3);
    expect_error(Status::BufferTooSmall, "bias holds 3 elements", [&] { c.run(); });
    c.o.bias = Operand(c.bias, {2, 2});
    expect_error(Status::InvalidShape, "bias has shape [2, 2]", [&] { c.run(); });
    c.o.bias.reset();
    Buffer<float> res = ctx.alloc<float>(144);
    c.o.residual = Operand(res, {1, 6, 6, 4});
    expect_error(Status::InvalidShape, "residual has shape [1, 6, 6, 4], expected [1, 4, 6, 6]", [&] { c.run(); });
    c.o.residual = c.out.view(1, 100);
    expect_error(Status::BufferTooSmall, "residual holds", [&] { c.run(); });
    Buffer<float> big = ctx.alloc<float>(300);
    c.out = big.view(0, 144);
    c.o.residual = big.view(100, 144);
    expect_error(Status::InvalidArgument, "the residual overlaps the output without being the output itself",
                 [&] { c.run(); });
  }
  {  // overlaps of the output with what is read
    Call c;
    Buffer<float> big = ctx.alloc<float>(400);
    c.in = big.view(0, 144);
    c.out = big.view(100, 144);
    expect_error(Status::InvalidArgument, "the output overlaps the input", [&] { c.run(); });
    Call d;
    d.out = d.wt.view(0, 144);
    expect_error(Status::InvalidArgument, "the output overlaps the weight", [&] { d.run(); });
    Call e;
    Buffer<float> big2 = ctx.alloc<float>(200);
    e.out = big2.view(0, 144);
    e.o.bias = big2.view(140, 4);
    expect_error(Status::InvalidArgument, "the output overlaps the bias", [&] { e.run(); });
  }
  {  // a view claiming more than its allocation; another context; an empty queue
    Call c;
    Operand o = c.in;
    o.count = 1000;
    o.shape = {1000};
    expect_error(Status::BufferTooSmall, "conv2d: input", [&] { conv2d(test::queue(), c.d, o, c.wt, c.out); });
    Context other(test::device());
    Buffer<float> foreign = other.alloc<float>(144);
    expect_error(Status::InvalidArgument, "another context", [&] { conv2d(test::queue(), c.d, foreign, c.wt, c.out); });
    expect_error(Status::InvalidArgument, "conv2d: empty queue", [&] { conv2d(Queue(), c.d, c.in, c.wt, c.out); });
  }
  {  // the activation
    Call c;
    c.o.activation = Unary(999);
    expect_error(Status::InvalidArgument, "unknown activation", [&] { c.run(); });
    c.o.activation = Unary::Copy;
    c.o.accumulate = Accumulate(7);
    expect_error(Status::InvalidArgument, "unknown accumulate", [&] { c.run(); });
    c.o.accumulate = Accumulate::Default;
    c.o.activation = Unary::Clamp;
    expect_error(Status::InvalidArgument, "activation clamp: alpha (low) and beta (high) are required",
                 [&] { c.run(); });
  }
}

// The operand checks that Tensors leaves: an unknown element type, an
// empty buffer, strides of another rank, a negative dimension.
TEST(ConvErrors, OperandChecks) {
  Call c;
  Operand in = c.in;
  in.dtype = DType(99);
  expect_error(Status::InvalidArgument, "conv2d: input: unknown data type 99",
               [&] { conv2d(test::queue(), c.d, in, c.wt, c.out); });
  c.out = Buffer<float>();
  expect_error(Status::InvalidArgument, "conv2d: output is an empty buffer", [&] { c.run(); });
  Call d;
  expect_error(Status::InvalidShape, "conv2d: weight: 2 strides for a shape of rank 4", [&] {
    conv2d(test::queue(), d.d, d.in, Operand(d.wt, {4, 4, 3, 3}, {9, 1}), d.out);
  });
  expect_error(Status::InvalidShape, "conv2d: input: negative dimension in [1, -4, 6, 6]", [&] {
    conv2d(test::queue(), d.d, Operand(d.in, {1, -4, 6, 6}), d.wt, d.out);
  });
}

TEST(ConvErrors, CApi) {
  optune_queue_t qh{test::queue()};
  const auto buffer = [](std::size_t n) {
    Buffer<float> b = test::context().alloc<float>(n);
    return optune_buffer_t{test::context(), b.mem(), DType::F32, 0, n};
  };
  optune_buffer_t in = buffer(144), wt = buffer(144), out = buffer(144);
  const optune_tensor tin{&in, 0, 0, nullptr, nullptr};
  const std::int64_t n144[] = {144};
  const optune_tensor vin{&in, 0, 1, n144, nullptr}, vwt{&wt, 0, 1, n144, nullptr}, vout{&out, 0, 1, n144, nullptr};
  optune_conv2d_desc d{1, 4, 6, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, OPTUNE_CONV_NCHW, OPTUNE_CONV_NCHW,
                       OPTUNE_ACCUMULATE_DEFAULT};
  const auto call = [&](const optune_conv2d_desc* desc, const optune_tensor* i, optune_unary_op act) {
    return optune_conv2d(&qh, desc, i, &vwt, &vout, nullptr, nullptr, act, nullptr, nullptr, 0, nullptr);
  };
  // Ones through a 3x3, pad 1, 4-channel convolution: 4 * 9 taps inside, 4 * 4 at a corner.
  for (optune_buffer_t* b : {&in, &wt}) test::queue().fill(Buffer<float>(b->mem, 0, 144), 1.0f).wait();
  EXPECT_EQ(call(&d, &vin, OPTUNE_UNARY_RELU), OPTUNE_SUCCESS) << optune_last_error_message();
  const std::vector<float> got = test::queue().download(Buffer<float>(out.mem, 0, 144));
  EXPECT_EQ(got[0], 16.0f);
  EXPECT_EQ(got[7], 36.0f);  // (0, 0, 1, 1)
  EXPECT_EQ(got[36 + 35], 16.0f);  // channel 1's last corner
  EXPECT_EQ(call(nullptr, &vin, OPTUNE_UNARY_COPY), OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("optune_conv2d: desc is NULL"), std::string::npos);
  EXPECT_EQ(call(&d, nullptr, OPTUNE_UNARY_COPY), OPTUNE_INVALID_ARGUMENT);
  EXPECT_EQ(call(&d, &vin, optune_unary_op(99)), OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("optune_conv2d: activation 99"), std::string::npos);
  optune_conv2d_desc bad = d;
  bad.input_layout = optune_conv_layout(2);
  EXPECT_EQ(call(&bad, &vin, OPTUNE_UNARY_COPY), OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("input_layout 2"), std::string::npos);
  bad = d;
  bad.output_layout = optune_conv_layout(-1);
  EXPECT_EQ(call(&bad, &vin, OPTUNE_UNARY_COPY), OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("optune_conv2d: output_layout -1"), std::string::npos)
      << optune_last_error_message();
  EXPECT_EQ(optune_conv2d(&qh, &d, &vin, nullptr, &vout, nullptr, nullptr, OPTUNE_UNARY_COPY, nullptr, nullptr, 0,
                          nullptr),
            OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("optune_conv2d: weight is NULL"), std::string::npos)
      << optune_last_error_message();
  bad = d;
  bad.accumulate = optune_accumulate(2);
  EXPECT_EQ(call(&bad, &vin, OPTUNE_UNARY_COPY), OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("optune_conv2d: accumulate 2"), std::string::npos)
      << optune_last_error_message();
  bad.accumulate = OPTUNE_ACCUMULATE_F32;
  EXPECT_EQ(call(&bad, &vin, OPTUNE_UNARY_COPY), OPTUNE_SUCCESS) << optune_last_error_message();
  bad = d;
  bad.groups = 3;
  EXPECT_EQ(call(&bad, &vin, OPTUNE_UNARY_COPY), OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("not divisible by groups"), std::string::npos);
  // ndim 0 (a scalar) is not a tensor conv2d takes.
  EXPECT_EQ(call(&d, &tin, OPTUNE_UNARY_COPY), OPTUNE_INVALID_SHAPE) << optune_last_error_message();
}

}  // namespace
}  // namespace optune
