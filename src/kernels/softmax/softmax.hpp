// Descriptor of softmax_cols (softmax/softmax_cols.cl): softmax and
// log_softmax along an axis that is not the last, one work-item per column.
// (Along the last axis softmax runs through norm_rows, norm/norm.hpp.)
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Softmax (or log_softmax) of a dense [outer][rows][inner] tensor along rows.
// Tuning runs softmax over f32 data.
struct SoftmaxColsProblem {
  DType dtype = DType::F32;  // x's data type
  std::int64_t outer = 1, rows = 0, inner = 1;
  bool log = false;
  std::vector<std::int64_t> sizes() const { return {outer, rows, inner}; }
  std::map<std::string, std::int64_t> fields() const { return {{"log", log}}; }
  // Every field, as bytes (launch plans, ops/launch_plan.hpp).
  std::string key() const { return plan_key({std::int64_t(dtype), outer, rows, inner, log}); }
};

class SoftmaxColsFamily : public FamilyOf<SoftmaxColsProblem> {
 public:
  std::string name() const override { return "softmax_cols"; }
  std::string source() const override { return "softmax/softmax_cols.cl"; }
  std::string kernel_name() const override { return "softmax_cols"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const SoftmaxColsProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const SoftmaxColsProblem& problem) const override;
  Defines defines(const Params& p, const SoftmaxColsProblem& problem) const override;
  std::string bucket(const SoftmaxColsProblem& problem) const override;
  SoftmaxColsProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  // Tuned values bounded by the device's work-group limit.
  Params fit(const Params& tuned, const Capabilities& caps, const SoftmaxColsProblem& problem) const override;
};

}  // namespace optune::detail
