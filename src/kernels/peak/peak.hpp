// Descriptor of the peak family (peak/peak.cl): the arithmetic-rate ceiling.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Problem: sizes = {work-items}; extra "iters" (rounds per work-item).
class PeakFamily : public KernelFamily {
 public:
  static constexpr int kChains = 8;  // CHAINS in peak.cl
  std::string name() const override { return "peak"; }
  std::string source() const override { return "peak/peak.cl"; }
  std::string kernel_name() const override { return "peak"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Defines defines(const Params& p, const Problem& problem) const override;
  std::string bucket(const Problem& problem) const override { return "all"; }
  Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override { return {"all"}; }
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::unique_ptr<TuningCase> make_case(const Queue& queue, const Problem& problem) const override;

  static double flops(const Params& p, const Problem& problem);
  Event launch(const Queue& queue, const Params& p, const Problem& problem, const MemImpl& out) const;
};

}  // namespace optune::detail
