// Descriptor of the copy family (copy/copy.cl): the copy-bandwidth ceiling
// and the data-movement template's reference point.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// n elements from x[x_offset..] to y[y_offset..]. The element type only sets
// the width: the kernel moves bits (uint for f32, ushort for f16).
struct CopyProblem {
  DType dtype = DType::F32;
  std::int64_t n = 0;
  std::int64_t x_offset = 0, y_offset = 0;  // elements
  std::vector<std::int64_t> sizes() const { return {n}; }
  std::map<std::string, std::int64_t> fields() const { return {{"x_offset", x_offset}, {"y_offset", y_offset}}; }
};

class CopyFamily : public FamilyOf<CopyProblem> {
 public:
  std::string name() const override { return "copy"; }
  std::string source() const override { return "copy/copy.cl"; }
  std::string kernel_name() const override { return "copy"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const CopyProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const CopyProblem& problem) const override;
  Defines defines(const Params& p, const CopyProblem& problem) const override;
  std::string bucket(const CopyProblem& problem) const override;
  CopyProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  // Enqueues y[y_off..] = x[x_off..] (the bench's ceiling and the tuner).
  Event launch(const Queue& queue, const Params& p, const CopyProblem& problem, const detail::MemImpl& x,
               const detail::MemImpl& y, const WaitList& wait = {}) const;
};

}  // namespace optune::detail
