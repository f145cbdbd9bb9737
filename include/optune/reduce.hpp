// Reductions over any set of axes, softmax and log_softmax along any axis,
// and layer_norm and rms_norm along the last axis.
//
// Data types: f32, f16 (stored as 16 bits, accumulated in f32) and f64
// (accumulated in f64; needs a device with fp64). Inputs and outputs may be
// strided views (Operand::strides); strided ones go through a dense copy
// first (optune::unary(Unary::Copy)), so dense tensors are the fast case.
//
// Semantics:
// - reduce: y has x's shape with the reduced axes removed, or kept as 1 with
//   keepdims. A full reduction without keepdims writes a shape [] (or [1])
//   output. Axes may be negative (counted from the end); an empty list means
//   every axis; repeating an axis is an error.
// - Value operators (sum, mean, max, min, prod, sum_squares, l1, l2) write y
//   of x's data type. argmax and argmin write i32: the index along the
//   reduced axis, or the row-major index over the reduced axes (in their
//   order in x) when several are reduced. any and all write u8 0/1 and also
//   accept integer inputs (i32, i8, u8).
// - NaN: sum-like operators and prod propagate it through arithmetic; max and
//   min return NaN when the reduced elements hold one (as NumPy and PyTorch);
//   argmax and argmin return the index of the first NaN; any and all count
//   NaN as true (nonzero). Ties in argmax/argmin go to the lowest index.
// - Empty reductions (a reduced axis of length 0, output not empty): sum,
//   sum_squares, l1, l2 and any give 0, prod and all give 1, mean gives NaN;
//   max, min, argmax and argmin have no identity and throw
//   Error(InvalidShape). An empty output is a no-op that returns an empty
//   Event.
// - Sums are accurate on long axes: each lane accumulates with Kahan's
//   compensation and lanes combine in a tree.
// - softmax / log_softmax: y = exp(x - max) / sum(exp(x - max)) along `axis`;
//   log_softmax = (x - max) - log(sum). A slice holding NaN or +inf gives NaN
//   throughout; a slice of only -inf gives NaN (like PyTorch); -inf elements
//   elsewhere give 0 (softmax) and -inf (log_softmax).
// - layer_norm over the last axis: y = (x - mean) * rstd * gamma + beta with
//   rstd = 1 / sqrt(var + eps) and the biased variance (as PyTorch). gamma and
//   beta are optional vectors of the last axis' length in x's data type;
//   mean_out and rstd_out, optional and independent, receive one value per
//   row (shape x's without the last axis, or with it kept as 1), in any
//   floating type (the same for both when both are given). Variance: two
//   passes over the cached row, or Welford for rows too long to cache, both
//   on x shifted by an estimate of the mean, so rows far from zero keep
//   their precision.
// - rms_norm over the last axis: y = x / sqrt(mean(x^2) + eps) * gamma.
// - NaN and infinities in the norms, as PyTorch: a layer_norm row holding a
//   NaN or an infinity gives NaN for all its y and for its mean and rstd; an
//   rms_norm row holding a NaN gives NaN, and one holding an infinity (but no
//   NaN) has mean(x^2) = inf and rstd = 0, so its finite elements give a zero
//   of their sign and its infinities NaN. Other rows are unaffected.
// - softmax, log_softmax, layer_norm and rms_norm may run in place (y the same
//   view as x); any other overlap of an output with an input is an error.
//
// Every call validates first and throws optune::Error naming the argument:
// InvalidArgument (axis out of range, repeated axis, overlapping output, bad
// eps), InvalidShape (output shape, empty rows), InvalidType (data types),
// BufferTooSmall, Overflow (index arithmetic, argmax beyond i32), Unsupported
// (f64 without fp64). Calls are asynchronous; the Event returned covers every
// kernel the call enqueued (its start is the first one's, its end the last's).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "optune/elementwise.hpp"

namespace optune {

enum class ReduceOp { Sum, Mean, Max, Min, Prod, SumSquares, L1, L2, ArgMax, ArgMin, Any, All };

std::string_view reduce_op_name(ReduceOp op) noexcept;  // "sum", "mean", ..., "argmax", "any"

Event reduce(const Queue& q, ReduceOp op, const Operand& x, std::vector<int> axes, bool keepdims, const Operand& y,
             const WaitList& wait = {});

Event softmax(const Queue& q, const Operand& x, int axis, const Operand& y, const WaitList& wait = {});
Event log_softmax(const Queue& q, const Operand& x, int axis, const Operand& y, const WaitList& wait = {});

Event layer_norm(const Queue& q, const Operand& x, const std::optional<Operand>& gamma,
                 const std::optional<Operand>& beta, double eps, const Operand& y,
                 const std::optional<Operand>& mean_out = std::nullopt,
                 const std::optional<Operand>& rstd_out = std::nullopt, const WaitList& wait = {});

Event rms_norm(const Queue& q, const Operand& x, const std::optional<Operand>& gamma, double eps, const Operand& y,
               const WaitList& wait = {});

}  // namespace optune
