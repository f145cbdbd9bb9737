// Descriptor of norm_rows (norm/norm.cl): softmax, log_softmax, layer_norm and
// rms_norm along the last axis, with a strategy per row length (registers,
// local-memory cache, multi-pass) whose thresholds are tunable.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Problem: dtype = x's data type; sizes = {rows, cols}; extra:
//   "op"     NormOp as an integer (0 softmax, 1 log_softmax, 2 layer_norm, 3 rms_norm)
//   "align"  the largest pack, in elements, that every operand's offset allows
//   "gamma", "beta", "stats" (0/1): optional operands present
//   "stat"   data type of mean and rstd (DType as an integer)
// Tuning runs the problem's operator (log_softmax tunes as softmax).
class NormRowsFamily : public KernelFamily {
 public:
  std::string name() const override { return "norm_rows"; }
  std::string source() const override { return "norm/norm.cl"; }
  std::string kernel_name() const override { return "norm_rows"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Defines defines(const Params& p, const Problem& problem) const override;
  std::string bucket(const Problem& problem) const override;
  Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::unique_ptr<TuningCase> make_case(const Queue& queue, const Problem& problem) const override;

  // Tuned values fitted to the device and problem, with the derived
  // STRATEGY (0 registers, 1 local cache, 2 multi-pass), NPACK, CACHE and
  // the resolved TPR added.
  Params fit(const Params& tuned, const Capabilities& caps, const Problem& problem) const;
};

}  // namespace optune::detail
