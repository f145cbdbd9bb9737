// optune::conv2d: the descriptor's validate() (sizes alone), the tensors'
// checks (types, shapes, views, overlaps), then the routine
// (ops/conv_launch.cpp). Nothing reaches the device before every check.
#include <climits>

#include "ops/conv_ops.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/tensor.hpp"
#include "ops/traced.hpp"
#include "ops/validate.hpp"

namespace optune {

using namespace detail;

namespace {

constexpr std::int64_t kIntMax = INT32_MAX;

[[noreturn]] void fail(Status s, const std::string& msg) { throw Error(s, "conv2d: " + msg); }

// Sizes the kernels take as 32-bit integers, and the 32-bit index sums they
// form (oy * stride + r * dilation and its padding, with a few outputs of
// slack for the per-work-item blocks).
void fits_int(const char* name, std::int64_t v) {
  if (v > kIntMax)
    fail(Status::Overflow,
         std::string(name) + " = " + std::to_string(v) + " exceeds 2^31 - 1, the kernels' index range");
}

std::string layout_name(ConvLayout l) { return l == ConvLayout::NHWC ? "NHWC" : "NCHW"; }

// [N, C, H, W] or [N, H, W, C].
std::vector<std::int64_t> shape_in(ConvLayout l, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
  return l == ConvLayout::NHWC ? std::vector<std::int64_t>{n, h, w, c} : std::vector<std::int64_t>{n, c, h, w};
}

std::int64_t checked_product(const char* what, std::initializer_list<std::int64_t> values) {
  std::size_t r = 1;
  for (std::int64_t v : values) r = validate::mul(what, r, std::size_t(v));
  // (what already names conv2d, as validate::mul wants it)
  if (r > std::size_t(INT64_MAX)) throw Error(Status::Overflow, std::string(what) + " exceeds 2^63 - 1 elements");
  return std::int64_t(r);
}

}  // namespace

std::int64_t Conv2dDesc::out_height() const {
  return conv_kernels::out_size(in_height, pad_top, pad_bottom, dilation_h, kernel_h, stride_h);
}
std::int64_t Conv2dDesc::out_width() const {
  return conv_kernels::out_size(in_width, pad_left, pad_right, dilation_w, kernel_w, stride_w);
}
std::int64_t Conv2dDesc::input_elements() const { return batch * in_channels * in_height * in_width; }
std::int64_t Conv2dDesc::weight_elements() const {
  return out_channels * (groups > 0 ? in_channels / groups : 0) * kernel_h * kernel_w;
}
std::int64_t Conv2dDesc::output_elements() const { return batch * out_channels * out_height() * out_width(); }

void Conv2dDesc::validate() const {
  const std::pair<const char*, std::int64_t> sizes[] = {
      {"batch", batch},           {"in_channels", in_channels}, {"in_height", in_height},
      {"in_width", in_width},     {"out_channels", out_channels}, {"kernel_h", kernel_h},
      {"kernel_w", kernel_w},     {"stride_h", stride_h},       {"stride_w", stride_w},
      {"dilation_h", dilation_h}, {"dilation_w", dilation_w},   {"groups", groups}};
  const std::pair<const char*, std::int64_t> pads[] = {
      {"pad_top", pad_top}, {"pad_bottom", pad_bottom}, {"pad_left", pad_left}, {"pad_right", pad_right}};
  for (const auto& [name, v] : sizes) validate::positive(("conv2d: " + std::string(name)).c_str(), v);
  for (const auto& [name, v] : pads) validate::non_negative(("conv2d: " + std::string(name)).c_str(), v);
  for (const auto& [name, v] : sizes) fits_int(name, v);
  for (const auto& [name, v] : pads) fits_int(name, v);
  if (int(input_layout) < 0 || int(input_layout) > 1) fail(Status::InvalidArgument, "unknown input_layout");
  if (int(output_layout) < 0 || int(output_layout) > 1) fail(Status::InvalidArgument, "unknown output_layout");
  if (in_channels % groups)
    fail(Status::InvalidArgument, "in_channels = " + std::to_string(in_channels) + " is not divisible by groups = " +
                                      std::to_string(groups));
  if (out_channels % groups)
    fail(Status::InvalidArgument, "out_channels = " + std::to_string(out_channels) +
                                      " is not divisible by groups = " + std::to_string(groups));
  // Each size is below 2^31, so these sums and products stay in 64 bits.
  fits_int("in_height + pad_top + pad_bottom", in_height + pad_top + pad_bottom);
  fits_int("in_width + pad_left + pad_right", in_width + pad_left + pad_right);
  fits_int("dilation_h * (kernel_h - 1)", dilation_h * (kernel_h - 1));
  fits_int("dilation_w * (kernel_w - 1)", dilation_w * (kernel_w - 1));
  const std::int64_t oh = out_height(), ow = out_width();
  if (oh <= 0 || ow <= 0)
    fail(Status::InvalidArgument,
         "the output would be " + std::to_string(oh) + " x " + std::to_string(ow) + ": the dilated filter (" +
             std::to_string(dilation_h * (kernel_h - 1) + 1) + " x " + std::to_string(dilation_w * (kernel_w - 1) + 1) +
             ") is larger than the padded input (" + std::to_string(in_height + pad_top + pad_bottom) + " x " +
             std::to_string(in_width + pad_left + pad_right) + ")");
  fits_int("(out_height + 16) * stride_h", (oh + 16) * stride_h);
  fits_int("(out_width + 16) * stride_w", (ow + 16) * stride_w);
  fits_int("in_channels / groups * kernel_h * kernel_w",
           checked_product("conv2d: the filter", {in_channels / groups, kernel_h, kernel_w}));
  checked_product("conv2d: the input", {batch, in_channels, in_height, in_width});
  checked_product("conv2d: the output", {batch, out_channels, oh, ow});
  checked_product("conv2d: the weight", {out_channels, in_channels / groups, kernel_h, kernel_w});
}

namespace {

// One tensor argument after its checks.
struct Checked {
  const Operand* op = nullptr;
  ByteRange range;
};

// The operand's own checks (context, type known and supported, view inside
// its allocation, strides), then: dense, of the input's type, and either
// rank 1 holding at least `need` elements or exactly `shape`.
Checked check_arg(const Queue& q, const char* name, const Operand& op, DType type,
                  const std::vector<std::int64_t>& shape) {
  const std::string label = std::string("conv2d: ") + name;
  const TensorInfo info = check_tensor(label, op, q);
  if (op.dtype != type)
    fail(Status::InvalidType, std::string(name) + " is " + std::string(dtype_name(op.dtype)) + " but input is " +
                                  std::string(dtype_name(type)) + " (every tensor has the input's type)");
  if (!info.dense) fail(Status::InvalidArgument, std::string(name) + " must be dense (contiguous, row-major)");
  const std::int64_t need = std::int64_t(product(shape));
  if (op.shape.size() == 1) {
    if (op.shape[0] < need)
      fail(Status::BufferTooSmall, std::string(name) + " holds " + std::to_string(op.shape[0]) + " elements but " +
                                       shape_text(shape) + " needs " + std::to_string(need));
  } else if (op.shape.size() != shape.size() || op.shape != shape) {
    fail(Status::InvalidShape, std::string(name) + " has shape " + shape_text(op.shape) + ", expected " +
                                   shape_text(shape) + " (or a rank-1 view of at least " + std::to_string(need) +
                                   " elements)");
  }
  const std::int64_t es = std::int64_t(dtype_size(type)), lo = std::int64_t(op.offset) * es;
  return {&op, {op.mem.get(), lo, lo + need * es}};
}

}  // namespace

namespace detail {

ConvProblem conv_problem(const Conv2dDesc& d, DType t, const Conv2dOptions& o, std::int64_t align,
                         std::int64_t wt_align) {
  ConvProblem pr;
  pr.dtype = t;
  pr.n = d.batch, pr.c = d.in_channels, pr.h = d.in_height, pr.w = d.in_width, pr.k = d.out_channels;
  pr.r = d.kernel_h, pr.s = d.kernel_w, pr.oh = d.out_height(), pr.ow = d.out_width();
  pr.stride_h = d.stride_h, pr.stride_w = d.stride_w, pr.dil_h = d.dilation_h, pr.dil_w = d.dilation_w;
  pr.pad_t = d.pad_top, pr.pad_b = d.pad_bottom, pr.pad_l = d.pad_left, pr.pad_r = d.pad_right;
  pr.groups = d.groups;
  pr.in_nhwc = d.input_layout == ConvLayout::NHWC;
  pr.out_nhwc = d.output_layout == ConvLayout::NHWC;
  pr.bias = o.bias.has_value();
  pr.residual = o.residual.has_value();
  pr.activation = o.activation;
  pr.align = align;
  pr.wt_align = wt_align;
  pr.half_arith = t == DType::F16 && o.accumulate == Accumulate::Default;
  return pr;
}

}  // namespace detail

Event conv2d(const Queue& q, const Conv2dDesc& d, const Operand& input, const Operand& weight, const Operand& output,
             const Conv2dOptions& o, const WaitList& wait) {
  trace::Span traced("conv2d");
  if (traced) {
    trace_operand(traced, "input", input);
    trace_operand(traced, "weight", weight);
    trace_operand(traced, "output", output);
    traced.integers("nchw", {d.batch, d.in_channels, d.in_height, d.in_width})
        .integers("krs", {d.out_channels, d.kernel_h, d.kernel_w})
        .integers("stride", {d.stride_h, d.stride_w})
        .integers("dilation", {d.dilation_h, d.dilation_w})
        .integers("pad", {d.pad_top, d.pad_bottom, d.pad_left, d.pad_right})
        .number("groups", double(d.groups))
        .text("layouts", layout_name(d.input_layout) + " -> " + layout_name(d.output_layout));
    if (o.activation != Unary::Copy) traced.text("activation", unary_name(o.activation));
  }
  if (!q.impl()) fail(Status::InvalidArgument, "empty queue");
  d.validate();
  if (int(o.activation) < 0 || int(o.activation) > int(Unary::Clamp))
    fail(Status::InvalidArgument, "unknown activation");
  if (o.accumulate != Accumulate::Default && o.accumulate != Accumulate::F32)
    fail(Status::InvalidArgument, "unknown accumulate");
  std::vector<double> act;
  try {
    act = unary_params(o.activation, o.activation_params);
  } catch (const Error& e) {
    fail(e.status(), std::string("activation ") + e.what());
  }
  validate::dtype_known("conv2d: input", input.dtype);
  const DType t = input.dtype;
  if (t != DType::F32 && t != DType::F16 && t != DType::BF16)
    fail(Status::InvalidType, "input is " + std::string(dtype_name(t)) + "; f32, f16 or bf16 expected");
  const std::int64_t oh = d.out_height(), ow = d.out_width();
  const Checked in = check_arg(q, "input", input, t, shape_in(d.input_layout, d.batch, d.in_channels, d.in_height,
                                                                d.in_width));
  const Checked wt = check_arg(q, "weight", weight, t, {d.out_channels, d.in_channels / d.groups, d.kernel_h,
                                                         d.kernel_w});
  const std::vector<std::int64_t> out_shape = shape_in(d.output_layout, d.batch, d.out_channels, oh, ow);
  const Checked out = check_arg(q, "output", output, t, out_shape);
  std::vector<std::pair<const char*, Checked>> read{{"input", in}, {"weight", wt}};
  if (o.bias) read.emplace_back("bias", check_arg(q, "bias", *o.bias, t, {d.out_channels}));
  std::optional<Checked> res;
  if (o.residual) res = check_arg(q, "residual", *o.residual, t, out_shape);
  // The output is written while the others are read: no shared element,
  // except a residual that is the output itself (each element is read by
  // the work-item that then writes it).
  for (const auto& [name, c] : read)
    if (c.range.overlaps(out.range)) fail(Status::InvalidArgument, std::string("the output overlaps the ") + name);
  if (res && res->range.overlaps(out.range) &&
      !(o.residual->mem == output.mem && o.residual->offset == output.offset))
    fail(Status::InvalidArgument, "the residual overlaps the output without being the output itself");

  ConvCall call;
  const std::int64_t align = offset_alignment({input.offset, output.offset, o.residual ? o.residual->offset : 0});
  call.problem = conv_problem(d, t, o, align, offset_alignment({weight.offset}));
  call.in = {input.mem, input.offset};
  call.wt = {weight.mem, weight.offset};
  call.out = {output.mem, output.offset};
  if (o.bias) call.bias = {o.bias->mem, o.bias->offset};
  if (o.residual) call.res = {o.residual->mem, o.residual->offset};
  call.activation_params = act;
  return run_conv(q, call, wait);
}

}  // namespace optune
