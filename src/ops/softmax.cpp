// softmax and log_softmax along any axis: the last axis through norm_rows,
// any other through softmax_cols (one work-item per column).
#include "kernels/families.hpp"
#include "ops/elementwise_plan.hpp"
#include "ops/launch_plan.hpp"
#include "ops/params.hpp"
#include "ops/reduce_ops.hpp"
#include "ops/reduce_plan.hpp"
#include "ops/traced.hpp"
#include "runtime/backend.hpp"

namespace optune {

using namespace detail;

namespace detail {

SoftmaxColsProblem softmax_cols_problem(const SoftmaxColsCall& c) {
  return {c.x.dtype, std::int64_t(c.outer), std::int64_t(c.rows), std::int64_t(c.inner), c.log};
}

Event run_softmax_cols(const Queue& q, const SoftmaxColsCall& c, const WaitList& wait, const Params* forced) {
  const SoftmaxColsFamily& fam = families::softmax_cols();
  const SoftmaxColsProblem pr = softmax_cols_problem(c);
  const std::shared_ptr<const LaunchPlan> lp = family_plan(q, fam, pr, forced);
  std::vector<KernelArg> args{KernelArg::scalar(std::uint64_t(c.outer)), KernelArg::scalar(std::uint64_t(c.rows)),
                              KernelArg::scalar(std::uint64_t(c.inner)), KernelArg::buffer(*c.x.mem),
                              KernelArg::scalar(std::uint64_t(c.x.offset)), KernelArg::buffer(*c.y.mem),
                              KernelArg::scalar(std::uint64_t(c.y.offset))};
  return launch_kernel(q, *lp->kernel, args, lp->geometry, wait, &lp->params);
}

}  // namespace detail

namespace {

Event softmax_along(const Queue& q, bool log, const Operand& x, int axis, const Operand& y, const WaitList& wait) {
  const std::string what = log ? "log_softmax" : "softmax";
  trace::Span traced(what);
  trace_operand(traced, "x", x);
  trace_operand(traced, "y", y);
  if (traced) traced.number("axis", axis);
  if (!q.impl()) throw Error(Status::InvalidArgument, what + ": empty queue");
  const TensorInfo xi = check_tensor(what + ": x", x, q);
  const TensorInfo yi = check_tensor(what + ": y", y, q);
  if (!is_floating(x.dtype))
    throw Error(Status::InvalidType, what + ": x is " + std::string(dtype_name(x.dtype)) + "; f32, f16, bf16 or f64 expected");
  if (y.dtype != x.dtype)
    throw Error(Status::InvalidType, what + ": y is " + std::string(dtype_name(y.dtype)) + " but x is " +
                                         std::string(dtype_name(x.dtype)));
  const std::size_t ax = std::size_t(normalise_axes(what, {axis}, x.shape.size()).at(0));
  if (y.shape != x.shape)
    throw Error(Status::InvalidShape, what + ": y has shape " + shape_text(y.shape) + ", x " + shape_text(x.shape));
  check_overlap(what, x, xi, "x", y, yi, "y", true);
  if (xi.elements == 0) return Event();

  EventSpan span;
  WaitList pending = wait;
  const Operand src = dense_input(q, x, xi, span, pending);
  const Operand dst = yi.dense ? y : dense_temporary(q, y.dtype, y.shape);
  const std::size_t outer = product(x.shape, 0, ax), rows = std::size_t(x.shape[ax]);
  const std::size_t inner = product(x.shape, ax + 1);
  if (inner == 1) {
    NormCall c;
    c.op = log ? NormOp::LogSoftmax : NormOp::Softmax;
    c.rows = outer;
    c.cols = rows;
    c.x = src;
    c.y = dst;
    span.add(run_norm_rows(q, c, pending));
  } else {
    SoftmaxColsCall c;
    c.log = log;
    c.outer = outer;
    c.rows = rows;
    c.inner = inner;
    c.x = src;
    c.y = dst;
    span.add(run_softmax_cols(q, c, pending));
  }
  if (!yi.dense) span.add(unary(q, Unary::Copy, dst, y));
  return span.result();
}

}  // namespace

Event softmax(const Queue& q, const Operand& x, int axis, const Operand& y, const WaitList& wait) {
  return softmax_along(q, false, x, axis, y, wait);
}

Event log_softmax(const Queue& q, const Operand& x, int axis, const Operand& y, const WaitList& wait) {
  return softmax_along(q, true, x, axis, y, wait);
}

}  // namespace optune
