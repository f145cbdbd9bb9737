// layer_norm and rms_norm (validation, dense operands), and the launcher of
// the norm_rows family that softmax along the last axis shares.
#include <cmath>

#include "kernels/families.hpp"
#include "kernels/reduce/reduce_common.hpp"
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

NormProblem norm_problem(const NormCall& c) {
  NormProblem pr;
  pr.dtype = c.x.dtype;
  pr.rows = std::int64_t(c.rows), pr.cols = std::int64_t(c.cols);
  pr.op = c.op;
  pr.align = offset_alignment({c.x.offset, c.y.offset, c.gamma ? c.gamma->offset : 0, c.beta ? c.beta->offset : 0});
  pr.gamma = c.gamma.has_value();
  pr.beta = c.beta.has_value();
  pr.stats = c.mean.has_value();
  pr.stat = c.mean ? c.mean->dtype : DType::F32;
  return pr;
}

Event run_norm_rows(const Queue& q, const NormCall& c, const WaitList& wait, const Params* forced) {
  const NormRowsFamily& fam = families::norm_rows();
  const NormProblem pr = norm_problem(c);
  const std::shared_ptr<const LaunchPlan> lp = family_plan(q, fam, pr, forced);
  const Params& p = lp->params;
  const auto buffer = [&](const std::optional<Operand>& o, const Operand& fallback) {
    return KernelArg::buffer(*(o ? o->mem : fallback.mem));
  };
  const auto offset = [](const std::optional<Operand>& o) { return KernelArg::scalar(std::uint64_t(o ? o->offset : 0)); };
  std::vector<KernelArg> args{KernelArg::scalar(std::uint64_t(c.rows)), KernelArg::scalar(std::uint64_t(c.cols)),
                              KernelArg::scalar(std::uint32_t(p.at("TPR"))),
                              KernelArg::buffer(*c.x.mem), KernelArg::scalar(std::uint64_t(c.x.offset)),
                              KernelArg::buffer(*c.y.mem), KernelArg::scalar(std::uint64_t(c.y.offset)),
                              buffer(c.gamma, c.x), offset(c.gamma), buffer(c.beta, c.x), offset(c.beta),
                              buffer(c.mean, c.y), offset(c.mean), buffer(c.rstd, c.y), offset(c.rstd)};
  if (c.x.dtype == DType::F64) args.push_back(KernelArg::scalar(c.eps));
  else args.push_back(KernelArg::scalar(float(c.eps)));
  return launch_kernel(q, *lp->kernel, args, lp->geometry, wait, &p);
}

}  // namespace detail

namespace {

bool is_float(DType t) { return is_floating(t); }

// An optional operand after validation, and its dense stand-in.
struct Extra {
  const Operand* op = nullptr;
  TensorInfo info;
  std::optional<Operand> dense;
};

Event normalise_rows(const Queue& q, NormOp kind, const Operand& x, const std::optional<Operand>& gamma,
                     const std::optional<Operand>& beta, double eps, const Operand& y,
                     const std::optional<Operand>& mean_out, const std::optional<Operand>& rstd_out,
                     const WaitList& wait) {
  const std::string what = kind == NormOp::LayerNorm ? "layer_norm" : "rms_norm";
  trace::Span traced(what);
  if (traced) {
    trace_operand(traced, "x", x);
    if (gamma) trace_operand(traced, "gamma", *gamma);
    if (beta) trace_operand(traced, "beta", *beta);
    trace_operand(traced, "y", y);
    if (mean_out) trace_operand(traced, "mean_out", *mean_out);
    if (rstd_out) trace_operand(traced, "rstd_out", *rstd_out);
    traced.number("eps", eps);
  }
  if (!q.impl()) throw Error(Status::InvalidArgument, what + ": empty queue");
  const TensorInfo xi = check_tensor(what + ": x", x, q);
  const TensorInfo yi = check_tensor(what + ": y", y, q);
  if (!is_float(x.dtype))
    throw Error(Status::InvalidType, what + ": x is " + std::string(dtype_name(x.dtype)) + "; f32, f16, bf16 or f64 expected");
  if (y.dtype != x.dtype)
    throw Error(Status::InvalidType, what + ": y is " + std::string(dtype_name(y.dtype)) + " but x is " +
                                         std::string(dtype_name(x.dtype)));
  if (y.shape != x.shape)
    throw Error(Status::InvalidShape, what + ": y has shape " + shape_text(y.shape) + ", x " + shape_text(x.shape));
  if (!std::isfinite(eps) || eps < 0)
    throw Error(Status::InvalidArgument, what + ": eps must be finite and not negative (got " + std::to_string(eps) + ")");
  check_overlap(what, x, xi, "x", y, yi, "y", true);
  const std::int64_t cols = x.shape.back();
  const std::vector<std::int64_t> lead(x.shape.begin(), x.shape.end() - 1);
  const std::size_t rows = product(lead);

  std::vector<std::pair<const char*, Extra>> vecs, stats;
  for (auto [name, o] : {std::pair{"gamma", &gamma}, std::pair{"beta", &beta}}) {
    if (!*o) continue;
    Extra e{&**o, check_tensor(what + ": " + name, **o, q), {}};
    if (e.op->dtype != x.dtype)
      throw Error(Status::InvalidType, what + ": " + name + " is " + std::string(dtype_name(e.op->dtype)) +
                                           " but x is " + std::string(dtype_name(x.dtype)));
    if (e.op->shape != std::vector<std::int64_t>{cols})
      throw Error(Status::InvalidShape, what + ": " + name + " has shape " + shape_text(e.op->shape) + ", expected [" +
                                            std::to_string(cols) + "] (x's last axis)");
    check_overlap(what, *e.op, e.info, name, y, yi, "y", false);
    vecs.emplace_back(name, std::move(e));
  }
  for (auto [name, o] : {std::pair{"mean_out", &mean_out}, std::pair{"rstd_out", &rstd_out}}) {
    if (!*o) continue;
    Extra e{&**o, check_tensor(what + ": " + name, **o, q, true), {}};
    if (!is_float(e.op->dtype))
      throw Error(Status::InvalidType, what + ": " + name + " is " + std::string(dtype_name(e.op->dtype)) +
                                           "; f32, f16, bf16 or f64 expected");
    std::vector<std::int64_t> kept = lead;
    kept.push_back(1);
    if (e.op->shape != lead && e.op->shape != kept && !(lead.empty() && e.op->shape == std::vector<std::int64_t>{1}))
      throw Error(Status::InvalidShape, what + ": " + name + " has shape " + shape_text(e.op->shape) + ", expected " +
                                            shape_text(lead) + " (one value per row)");
    check_overlap(what, x, xi, "x", *e.op, e.info, name, false);
    check_overlap(what, y, yi, "y", *e.op, e.info, name, false);
    for (auto& [vn, v] : vecs) check_overlap(what, *v.op, v.info, vn, *e.op, e.info, name, false);
    for (auto& [sn, s] : stats) check_overlap(what, *s.op, s.info, sn, *e.op, e.info, name, false);
    if (!stats.empty() && stats[0].second.op->dtype != e.op->dtype)
      throw Error(Status::InvalidType, what + ": mean_out is " + std::string(dtype_name(stats[0].second.op->dtype)) +
                                           " but rstd_out is " + std::string(dtype_name(e.op->dtype)) +
                                           " (they must share a data type)");
    stats.emplace_back(name, std::move(e));
  }
  if (rows == 0) return Event();
  if (cols == 0) throw Error(Status::InvalidShape, what + ": the rows of x " + shape_text(x.shape) + " are empty");

  EventSpan span;
  WaitList pending = wait;
  NormCall c;
  c.op = kind;
  c.rows = rows;
  c.cols = std::size_t(cols);
  c.eps = eps;
  c.x = dense_input(q, x, xi, span, pending);
  for (auto& [name, e] : vecs) {
    e.dense = dense_input(q, *e.op, e.info, span, pending);
    (std::string(name) == "gamma" ? c.gamma : c.beta) = e.dense;
  }
  c.y = yi.dense ? y : dense_temporary(q, y.dtype, y.shape);
  for (auto& [name, e] : stats) {
    e.dense = e.info.dense ? *e.op : dense_temporary(q, e.op->dtype, {std::int64_t(rows)});
    (std::string(name) == "mean_out" ? c.mean : c.rstd) = e.dense;
  }
  // The kernel writes both statistics or neither: a scratch takes the one not asked for.
  if (c.mean && !c.rstd) c.rstd = dense_temporary(q, c.mean->dtype, {std::int64_t(rows)});
  if (c.rstd && !c.mean) c.mean = dense_temporary(q, c.rstd->dtype, {std::int64_t(rows)});
  span.add(run_norm_rows(q, c, pending));
  if (!yi.dense) span.add(unary(q, Unary::Copy, c.y, y));
  for (auto& [name, e] : stats)
    if (!e.info.dense) span.add(unary(q, Unary::Copy, dense_view(*e.dense, e.op->shape), *e.op));
  return span.result();
}

}  // namespace

Event layer_norm(const Queue& q, const Operand& x, const std::optional<Operand>& gamma,
                 const std::optional<Operand>& beta, double eps, const Operand& y,
                 const std::optional<Operand>& mean_out, const std::optional<Operand>& rstd_out,
                 const WaitList& wait) {
  return normalise_rows(q, NormOp::LayerNorm, x, gamma, beta, eps, y, mean_out, rstd_out, wait);
}

Event rms_norm(const Queue& q, const Operand& x, const std::optional<Operand>& gamma, double eps, const Operand& y,
               const WaitList& wait) {
  return normalise_rows(q, NormOp::RmsNorm, x, gamma, std::nullopt, eps, y, std::nullopt, std::nullopt, wait);
}

}  // namespace optune
