// Descriptor of the copy family (copy/copy.cl): the copy-bandwidth ceiling
// and the data-movement template's reference point.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Problem: sizes = {n}; extra x_offset, y_offset (elements). The element type
// only sets the width: the kernel moves bits (uint for f32, ushort for f16).
class CopyFamily : public KernelFamily {
 public:
  std::string name() const override { return "copy"; }
  std::string source() const override { return "copy/copy.cl"; }
  std::string kernel_name() const override { return "copy"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Defines defines(const Params& p, const Problem& problem) const override;
  std::string bucket(const Problem& problem) const override;
  Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::unique_ptr<TuningCase> make_case(const Queue& queue, const Problem& problem) const override;

  // Enqueues y[y_off..] = x[x_off..] for n elements of width elem_bytes.
  Event launch(const Queue& queue, const Params& p, const Problem& problem, const detail::MemImpl& x,
               const detail::MemImpl& y, const WaitList& wait = {}) const;
};

}  // namespace optune::detail
