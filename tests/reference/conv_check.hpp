// Runs one conv2d call on fresh random data through the public API and
// checks every element of the output against a double-precision direct
// convolution computed here from the stored (rounded) inputs.
//
// Poisoning: every allocation has elements before its view's offset (and,
// for the inputs, after the tensor): NaN in the inputs, so reading one
// shows, and a sentinel in the output, which must stay; the output itself is
// poisoned (-2^127 f32 and bf16, -38048 f16) unless it is the residual.
//
// Error bound per element (the sum of C/groups R S products in f32 in any
// order, then the epilogue and the stored result):
//   |got - ref| <= 2^-24 (taps + 4) L scale + r |ref| + a
// where scale = sum |x w| + |bias| + |residual|, L = 1.5 with an activation
// (their slopes stay below 1.2, and its evaluation in f32 adds 2^-21 |ref|
// and 2^-21 scale: gelu's erfc fit, exp), r the rounding of the stored result
// (2^-11 f16, 2^-8 bf16, 0 f32) and a = 1e-30 (exact zeros compare).
// Winograd F(2x2, 3x3) (ConvCase::winograd) adds the transforms' rounding:
//   + 2^-24 (C + 16) 2 L tile
// where tile = sum_c (sum |x| over the output's 4 x 4 input tile)
// (sum |w| over the 3 x 3 taps): the transformed values are sums of up to
// 4 inputs and of quarter-weighted taps, and the output transform adds 9
// products, so every input of the tile meets every tap. On data of one
// magnitude tile is about 16 times the direct scale, so the bound is about
// 4 times the direct one (docs/DESIGN.md). F(4x4, 3x3) (winograd_tile 4)
// adds instead
//   + 2^-24 (C + 36) 2 L tile4
// where tile4 = sum_c sum over the 6 x 6 input tile and the taps of
// kappa(i, r, p) kappa(j, s, q) |x_pq| |w_rs|, kappa the sum over the six
// positions of |A^T| |G| |B^T| along one axis (output i, tap r, input p).
#pragma once

#include <gtest/gtest.h>

#include "kernels/conv/conv.hpp"
#include "ops/conv_ops.hpp"
#include "optune/optune.hpp"

namespace optune::ref {

struct ConvCase {
  Conv2dDesc desc;
  DType dtype = DType::F32;
  bool bias = false;
  bool residual = false;
  bool residual_in_place = false;  // the residual is the output itself
  Unary activation = Unary::Copy;
  OpParams activation_params;
  std::size_t offset = 0;          // every tensor's view starts this far into its allocation
  bool rank4 = false;              // pass the tensors with their 4-d shapes (else rank-1 views)
  // Winograd F(2x2, 3x3): its transforms mix each output's whole 4 x 4
  // input tile with every tap, so the bound's sum term is taken over the
  // tile (below).
  bool winograd = false;
  // Its output tile: 2, F(2x2, 3x3); 4, F(4x4, 3x3) (the fused kernel's WT
  // 4), whose bound weights each input-tap product by the transforms'
  // amplification (conv_check.cpp's kappa).
  int winograd_tile = 2;
  // Conv2dOptions::accumulate. Where conv.hpp lets f16 sums run in f16
  // (Default, f16 depthwise in NHWC on a device with half arithmetic) the
  // bound's unit roundoff is f16's (2^-11) instead of f32's.
  Accumulate accumulate = Accumulate::Default;
};

std::string describe(const ConvCase& c);
// Runs the case (with `force` when given) and checks it.
::testing::AssertionResult check_conv(const ConvCase& c, const detail::ConvForce* force = nullptr);

// A descriptor in one line: n, c, h, w, k, r, s, stride, pad (all sides),
// groups, layouts (input and output).
Conv2dDesc conv_desc(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t r,
                     std::int64_t s, std::int64_t stride = 1, std::int64_t pad = 0, std::int64_t groups = 1,
                     ConvLayout in = ConvLayout::NCHW, ConvLayout out = ConvLayout::NCHW);

// A ConvForce that forces `candidate` and, with a family, its parameters.
detail::ConvForce conv_force(const std::string& candidate, const std::string& family = "", detail::Params p = {});

// General descriptors: every stride, dilation, pad and group combination
// that the kernels of any descriptor (direct, implicit) have to get right,
// small enough for PoCL.
std::vector<Conv2dDesc> general_descs(ConvLayout in, ConvLayout out);

// The f32 kernel problem of a descriptor (zero offsets: align 16).
detail::ConvProblem problem_of(const Conv2dDesc& d);

}  // namespace optune::ref
