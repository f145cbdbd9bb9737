// Descriptor of the peak family (peak/peak.cl): the arithmetic-rate ceiling.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// `items` work-items, each running `iters` rounds of its FMA chains.
struct PeakProblem {
  DType dtype = DType::F32;
  std::int64_t items = 0;
  std::int64_t iters = 256;
  std::vector<std::int64_t> sizes() const { return {items}; }
  std::map<std::string, std::int64_t> fields() const { return {{"iters", iters}}; }
};

class PeakFamily : public FamilyOf<PeakProblem> {
 public:
  static constexpr int kChains = 8;  // CHAINS in peak.cl
  std::string name() const override { return "peak"; }
  std::string source() const override { return "peak/peak.cl"; }
  std::string kernel_name() const override { return "peak"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const PeakProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const PeakProblem& problem) const override;
  Defines defines(const Params& p, const PeakProblem& problem) const override;
  std::string bucket(const PeakProblem&) const override { return "all"; }
  PeakProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override { return {"all"}; }
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  static double flops(const Params& p, const PeakProblem& problem);
  Event launch(const Queue& queue, const Params& p, const PeakProblem& problem, const MemImpl& out) const;
};

}  // namespace optune::detail
