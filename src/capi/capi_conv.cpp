// C API: conv2d over optune_tensor operands (the descriptor copied field by
// field, its enums checked here; everything else by conv2d's validation).
#include "capi/capi.hpp"

using namespace optune;
using namespace optune::capi;

extern "C" {

optune_status optune_conv2d(optune_queue queue, const optune_conv2d_desc* desc, const optune_tensor* input,
                            const optune_tensor* weight, const optune_tensor* output, const optune_tensor* bias,
                            const optune_tensor* residual, optune_unary_op activation,
                            const optune_op_params* activation_params, const optune_event* wait, size_t wait_count,
                            optune_event* event) {
  static const char* fn = "optune_conv2d";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    const optune_conv2d_desc& c = need(desc, "optune_conv2d: desc");
    Conv2dDesc d;
    d.batch = c.batch, d.in_channels = c.in_channels, d.in_height = c.in_height, d.in_width = c.in_width;
    d.out_channels = c.out_channels, d.kernel_h = c.kernel_h, d.kernel_w = c.kernel_w;
    d.stride_h = c.stride_h, d.stride_w = c.stride_w, d.dilation_h = c.dilation_h, d.dilation_w = c.dilation_w;
    d.pad_top = c.pad_top, d.pad_bottom = c.pad_bottom, d.pad_left = c.pad_left, d.pad_right = c.pad_right;
    d.groups = c.groups;
    d.input_layout = need_enum<ConvLayout>(int(c.input_layout), int(ConvLayout::NHWC), "optune_conv2d: input_layout");
    d.output_layout =
        need_enum<ConvLayout>(int(c.output_layout), int(ConvLayout::NHWC), "optune_conv2d: output_layout");
    Conv2dOptions o;
    o.bias = optional_operand(bias, "optune_conv2d: bias");
    o.residual = optional_operand(residual, "optune_conv2d: residual");
    o.activation = need_enum<Unary>(int(activation), int(Unary::Clamp), "optune_conv2d: activation");
    o.accumulate = need_enum<Accumulate>(int(c.accumulate), int(Accumulate::F32), "optune_conv2d: accumulate");
    o.activation_params = op_params(activation_params);
    out.set(conv2d(q, d, operand(input, "optune_conv2d: input"), operand(weight, "optune_conv2d: weight"),
                   operand(output, "optune_conv2d: output"), o, wait_list(wait, wait_count, fn)));
  });
}

}  // extern "C"
