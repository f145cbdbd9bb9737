// Descriptor of the elementwise family (elementwise/elementwise.cl): the
// data-movement template every element-wise operator and custom expression
// runs through.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Problem: dtype = the widest operand's type; sizes = {n}; extra:
// "contiguous" (0/1), "max_elem_bytes", "align" (largest pack, in elements,
// every operand's offset allows). Tuning uses relu over a dense array.
class ElementwiseFamily : public KernelFamily {
 public:
  std::string name() const override { return "elementwise"; }
  std::string source() const override { return "elementwise/elementwise.cl"; }
  std::string kernel_name() const override { return "elementwise"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Defines defines(const Params& p, const Problem& problem) const override;
  std::string bucket(const Problem& problem) const override;
  Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::unique_ptr<TuningCase> make_case(const Queue& queue, const Problem& problem) const override;

  // Parameters adjusted to what this call allows (pack width from alignment
  // and element size); the tuned values are upper bounds.
  Params fit(const Params& tuned, const Capabilities& caps, const Problem& problem) const;
};

}  // namespace optune::detail
