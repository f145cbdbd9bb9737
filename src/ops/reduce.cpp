// optune::reduce: validation, output shape, and the (outer, reduced, inner)
// form of the call (through a dense or permuted copy when x is strided or the
// reduced axes are not adjacent).
#include <algorithm>
#include <climits>

#include "ops/elementwise_plan.hpp"
#include "ops/reduce_ops.hpp"
#include "ops/reduce_plan.hpp"
#include "ops/traced.hpp"

namespace optune {

using namespace detail;

std::string_view reduce_op_name(ReduceOp op) noexcept {
  static const char* names[] = {"sum", "mean", "max", "min", "prod", "sum_squares",
                                "l1", "l2", "argmax", "argmin", "any", "all"};
  return int(op) >= 0 && int(op) <= int(ReduceOp::All) ? names[int(op)] : "?";
}

namespace {

bool is_float(DType t) { return is_floating(t); }
bool is_arg(ReduceOp op) { return op == ReduceOp::ArgMax || op == ReduceOp::ArgMin; }
bool is_logical(ReduceOp op) { return op == ReduceOp::Any || op == ReduceOp::All; }
bool needs_identity(ReduceOp op) {
  return op == ReduceOp::Max || op == ReduceOp::Min || is_arg(op);
}

std::string axes_text(const std::vector<int>& axes) {
  std::string s = "[";
  for (std::size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + std::to_string(axes[i]);
  return s + "]";
}

}  // namespace

Event reduce(const Queue& q, ReduceOp op, const Operand& x, std::vector<int> axes, bool keepdims, const Operand& y,
             const WaitList& wait) {
  trace::Span traced("reduce", reduce_op_name(op));
  trace_operand(traced, "x", x);
  trace_operand(traced, "y", y);
  if (traced) {
    traced.integers("axes", std::vector<std::int64_t>(axes.begin(), axes.end()));
    traced.flag("keepdims", keepdims);
  }
  const std::string what = "reduce(" + std::string(reduce_op_name(op)) + ")";
  if (!q.impl()) throw Error(Status::InvalidArgument, what + ": empty queue");
  if (int(op) < 0 || int(op) > int(ReduceOp::All)) throw Error(Status::InvalidArgument, what + ": unknown operator");
  const TensorInfo xi = check_tensor(what + ": x", x, q);
  const TensorInfo yi = check_tensor(what + ": y", y, q, true);
  if (!is_float(x.dtype) && !is_logical(op))
    throw Error(Status::InvalidType, what + ": x is " + std::string(dtype_name(x.dtype)) +
                                         "; this operator takes f32, f16, bf16 or f64 (any and all also integers)");
  const DType want = is_arg(op) ? DType::I32 : is_logical(op) ? DType::U8 : x.dtype;
  if (y.dtype != want)
    throw Error(Status::InvalidType, what + ": y is " + std::string(dtype_name(y.dtype)) + " but must be " +
                                         std::string(dtype_name(want)) +
                                         (is_arg(op) ? " (indices)" : is_logical(op) ? " (0/1)" : " (x's type)"));
  const std::vector<int> ax = normalise_axes(what, axes, x.shape.size());
  std::vector<std::int64_t> expect;
  for (std::size_t d = 0; d < x.shape.size(); ++d) {
    const bool red = std::find(ax.begin(), ax.end(), int(d)) != ax.end();
    if (!red) expect.push_back(x.shape[d]);
    else if (keepdims) expect.push_back(1);
  }
  const bool scalar_ok = expect.empty() && y.shape == std::vector<std::int64_t>{1};
  if (y.shape != expect && !scalar_ok)
    throw Error(Status::InvalidShape, what + ": y has shape " + shape_text(y.shape) + " but reducing x of shape " +
                                          shape_text(x.shape) + " over axes " + axes_text(ax) +
                                          (keepdims ? " with keepdims" : "") + " gives " + shape_text(expect));
  check_overlap(what, x, xi, "x", y, yi, "y", false);
  if (yi.elements == 0) return Event();

  ReduceLayout layout = reduce_layout(x.shape, ax);
  if (layout.reduced == 0 && needs_identity(op))
    throw Error(Status::InvalidShape, what + ": the reduced axes " + axes_text(ax) + " of x " + shape_text(x.shape) +
                                          " are empty, and " + std::string(reduce_op_name(op)) +
                                          " has no value for an empty set");
  if (is_arg(op) && layout.reduced > std::size_t(INT32_MAX))
    throw Error(Status::Overflow, what + ": " + std::to_string(layout.reduced) +
                                      " reduced elements do not fit the i32 indices");

  EventSpan span;
  WaitList pending = wait;
  Operand src = x;
  if (xi.elements > 0 && (!xi.dense || !layout.permute.empty())) {
    // A dense copy, with the kept axes first and the reduced ones last when
    // they are not adjacent; argmax indices then stay row-major over the
    // reduced axes in x's order.
    std::vector<int> order = layout.permute;
    if (order.empty())
      for (std::size_t d = 0; d < x.shape.size(); ++d) order.push_back(int(d));
    Operand view = x;
    view.strides.clear();
    view.shape.clear();
    for (int d : order) {
      view.shape.push_back(x.shape[std::size_t(d)]);
      view.strides.push_back(xi.strides[std::size_t(d)]);
    }
    src = dense_temporary(q, x.dtype, view.shape);
    span.add(unary(q, Unary::Copy, view, src, {}, pending));
    pending.clear();
    if (!layout.permute.empty()) layout = ReduceLayout{layout.outer, layout.reduced, 1, {}};
  }
  Operand dst = y;
  if (!yi.dense) dst = dense_temporary(q, y.dtype, y.shape);

  ReduceCall call;
  call.op = op;
  call.outer = layout.outer;
  call.reduced = layout.reduced;
  call.inner = layout.inner;
  call.x = src;
  call.y = dst;
  span.add(run_reduce(q, call, pending));
  if (!yi.dense) span.add(unary(q, Unary::Copy, dense_view(dst, y.shape), y));
  return span.result();
}

}  // namespace optune
