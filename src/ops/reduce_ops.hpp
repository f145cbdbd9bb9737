// The launchers behind optune::reduce, softmax, log_softmax, layer_norm and
// rms_norm, on dense operands whose shapes are already validated. The tuning
// cases of the reduction families call them with forced parameters.
#pragma once

#include <functional>
#include <optional>

#include "kernels/descriptor.hpp"
#include "kernels/norm/norm.hpp"
#include "kernels/reduce/reduce.hpp"
#include "kernels/softmax/softmax.hpp"
#include "optune/reduce.hpp"

namespace optune::detail {

// y[o, i] = op over r of x[o, r, i], x dense [outer][reduced][inner] of type
// `in`, y dense [outer][inner] of type `out`. Only mem, offset and dtype of
// the operands are used. `forced` replaces the database's parameters of the
// family that runs (reduce_rows when inner == 1, else reduce_cols).
struct ReduceCall {
  ReduceOp op = ReduceOp::Sum;
  std::size_t outer = 1, reduced = 1, inner = 1;
  Operand x, y;
};
Event run_reduce(const Queue& q, const ReduceCall& c, const WaitList& wait, const Params* forced = nullptr);

// The parameters a launcher starts from for a family and problem (the
// database's, or forced ones) before fitting them to the device.
using TunedParams = std::function<Params(const KernelFamily&, const Problem&)>;

// What run_reduce launches for c on a device with caps: one pass, or a first
// pass writing partial states and a second reducing them. The tests compile
// each pass's defines for other devices (NVRTC) from this.
struct ReducePass {
  const ReduceFamilyBase* family;
  Params params;  // fitted
  ReduceProblem problem;
  ReduceFamilyBase::Split split;
};
std::vector<ReducePass> reduce_passes(const ReduceCall& c, const Capabilities& caps, const TunedParams& tuned);

// Row-wise softmax, log_softmax, layer_norm or rms_norm (NormOp) over dense
// [rows][cols] operands (gamma, beta: cols elements; mean, rstd: rows
// elements), through the norm_rows family.
struct NormCall {
  NormOp op = NormOp::Softmax;
  std::size_t rows = 0, cols = 0;
  Operand x, y;
  std::optional<Operand> gamma, beta, mean, rstd;
  double eps = 0;
};
Event run_norm_rows(const Queue& q, const NormCall& c, const WaitList& wait, const Params* forced = nullptr);
// The norm_rows problem run_norm_rows asks the database about and fits to.
NormProblem norm_problem(const NormCall& c);

// Softmax or log_softmax along the middle axis of a dense [outer][rows][inner]
// tensor, through the softmax_cols family.
struct SoftmaxColsCall {
  bool log = false;
  std::size_t outer = 1, rows = 0, inner = 1;
  Operand x, y;
};
Event run_softmax_cols(const Queue& q, const SoftmaxColsCall& c, const WaitList& wait, const Params* forced = nullptr);
// The softmax_cols problem run_softmax_cols asks the database about.
SoftmaxColsProblem softmax_cols_problem(const SoftmaxColsCall& c);


}  // namespace optune::detail
