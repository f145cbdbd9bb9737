// Descriptor of softmax_cols (softmax/softmax_cols.cl): softmax and
// log_softmax along an axis that is not the last, one work-item per column.
// (Along the last axis softmax runs through norm_rows, norm/norm.hpp.)
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Problem: dtype = x's data type; sizes = {outer, rows, inner} (the axis is
// rows); extra "log" (0/1). Tuning runs softmax over f32 data.
class SoftmaxColsFamily : public KernelFamily {
 public:
  std::string name() const override { return "softmax_cols"; }
  std::string source() const override { return "softmax/softmax_cols.cl"; }
  std::string kernel_name() const override { return "softmax_cols"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Defines defines(const Params& p, const Problem& problem) const override;
  std::string bucket(const Problem& problem) const override;
  Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::unique_ptr<TuningCase> make_case(const Queue& queue, const Problem& problem) const override;

  // Tuned values bounded by the device's work-group limit.
  Params fit(const Params& tuned, const Capabilities& caps) const;
};

}  // namespace optune::detail
