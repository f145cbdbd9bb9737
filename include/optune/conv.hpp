// 2-D convolution, forward: out = act(conv(input, weight) + bias + residual),
// on every device optune runs on.
//
// Shapes (Conv2dDesc): input N x C x H x W, weight K x C/groups x R x S (the
// PyTorch/cuDNN KCRS order, whatever the tensors' layouts), output
// N x K x OH x OW with
//   OH = (H + pad_top + pad_bottom - dilation_h (R - 1) - 1) / stride_h + 1
//   OW = (W + pad_left + pad_right - dilation_w (S - 1) - 1) / stride_w + 1
// (floor division). Input and output are stored NCHW (element (n, c, y, x) at
// ((n C + c) H + y) W + x) or NHWC (at ((n H + y) W + x) C + c), each as its
// layout says, chosen per call. Grouped convolution (groups > 1) splits C and
// K into groups of C/groups and K/groups channels; depthwise is
// groups == C == K. It never leaves the device.
//
// Data types: input, weight, output, bias and residual share one type: f32,
// f16 or bf16 (f16 and bf16 are storage; products are summed in f32, except
// where Conv2dOptions::accumulate allows f16 sums: with Accumulate::Default
// an f16 depthwise convolution in NHWC on a device with half arithmetic
// (cl_khr_fp16, CUDA) may add its R S products in f16 where the device's
// tuned parameters say so (as GEMM's half -> half does, optune/gemm.hpp):
// |error| up to about (R S + 1) 2^-11 sum |x w| rather than 2^-11, and a
// partial sum past f16's range (65504) is inf before the bias and residual
// are added in f32. Accumulate::F32 keeps every sum in f32).
//
// Epilogue (Conv2dOptions), in the kernel's own store (or GEMM's epilogue
// for the 1x1 candidate), never as a second pass over the output:
//   out[n, k, y, x] = act(sum + bias[k] + residual[n, k, y, x])
// bias: K elements; residual: a tensor of the output's shape, layout and
// type (it may be the output itself: each element is read before it is
// written); act: any optune::Unary (Unary::Copy means none) with its
// parameters.
//
// Tensors are dense views from their offsets: a rank-1 operand (a Buffer<T>
// converts to one) holds at least the elements the descriptor needs; a
// rank-4 operand must have exactly the descriptor's shape in its layout
// (input [N, C, H, W] or [N, H, W, C], weight [K, C/groups, R, S], output
// [N, K, OH, OW] or [N, OH, OW, K]), contiguous.
//
// Every call validates first (Conv2dDesc::validate() for the sizes alone)
// and throws optune::Error naming the argument: InvalidArgument (sizes < 1,
// negative pads, zero or negative stride or dilation, channels not divisible
// by groups, an output size <= 0, unknown layout or activation, non-dense
// tensors, an output overlapping an input), InvalidShape (a rank-4 operand
// of another shape, an operand of another rank), BufferTooSmall, Overflow
// (a size or an index beyond what the kernels address: 2^31 - 1 per size,
// per image and per filter, 2^63 in all), InvalidType (operands of
// different types, integer or f64 tensors), Unsupported (a type the device
// lacks). Calls are asynchronous; the Event covers every kernel enqueued.
#pragma once

#include <cstdint>
#include <optional>

#include "optune/elementwise.hpp"
#include "optune/gemm.hpp"

namespace optune {

enum class ConvLayout { NCHW, NHWC };

struct Conv2dDesc {
  std::int64_t batch = 1;                         // N
  std::int64_t in_channels = 0;                   // C
  std::int64_t in_height = 0, in_width = 0;       // H, W
  std::int64_t out_channels = 0;                  // K
  std::int64_t kernel_h = 1, kernel_w = 1;        // R, S
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t dilation_h = 1, dilation_w = 1;
  std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::int64_t groups = 1;
  ConvLayout input_layout = ConvLayout::NCHW;
  ConvLayout output_layout = ConvLayout::NCHW;

  // OH and OW as above (may be <= 0 for an impossible descriptor; validate()
  // says so).
  std::int64_t out_height() const;
  std::int64_t out_width() const;
  // Elements of each tensor (valid descriptors only).
  std::int64_t input_elements() const;
  std::int64_t weight_elements() const;
  std::int64_t output_elements() const;
  // Throws optune::Error for every impossible size (see above); touches no
  // device.
  void validate() const;
};

struct Conv2dOptions {
  std::optional<Operand> bias;      // K elements of the output's type
  std::optional<Operand> residual;  // the output's shape, layout and type
  Unary activation = Unary::Copy;
  OpParams activation_params;       // e.g. the leaky_relu slope, clamp bounds
  // f16: Default lets a depthwise kernel sum in f16 (above); F32 never.
  Accumulate accumulate = Accumulate::Default;
};

Event conv2d(const Queue& q, const Conv2dDesc& desc, const Operand& input, const Operand& weight,
             const Operand& output, const Conv2dOptions& options = {}, const WaitList& wait = {});

}  // namespace optune
