// Descriptor of the elementwise family (elementwise/elementwise.cl): the
// data-movement template every element-wise operator and custom expression
// runs through. The problem carries the expression and the operands' types,
// so the descriptor alone turns a call into its program.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// The arithmetic type of an expression: f64 if any operand is, else f32 if
// any is floating, else int.
enum class ComputeType { Float, Double, Int };
ComputeType compute_type_of(const std::vector<DType>& types);

struct ElementwiseProblem {
  DType dtype = DType::F32;    // the widest operand's type (the database key)
  std::int64_t n = 0;          // output elements
  bool contiguous = true;      // every operand dense over the output
  std::int64_t max_elem_bytes = 4, min_elem_bytes = 4;
  std::int64_t align = 16;     // largest pack, in elements, every operand's offset allows
  // The kernel's set-up: EW_BODY (reads i0..i3 and S(k), writes o0, o1), the
  // operands' storage types, the compute type, the collapsed rank, the
  // number of scalars, and whether an output is also an input.
  std::string body;
  std::vector<DType> inputs, outputs;
  ComputeType compute = ComputeType::Float;
  int ndim = 1;
  int n_scalars = 0;
  bool aliased = false;

  std::vector<std::int64_t> sizes() const { return {n}; }
  std::map<std::string, std::int64_t> fields() const {
    return {{"contiguous", contiguous}, {"max_elem_bytes", max_elem_bytes}, {"min_elem_bytes", min_elem_bytes},
            {"align", align}, {"inputs", std::int64_t(inputs.size())}, {"outputs", std::int64_t(outputs.size())}};
  }
  // Every field above, as bytes: equal keys, equal problems (launch plans,
  // ops/launch_plan.hpp). A field added to the struct belongs here too.
  std::string key() const {
    std::string k = plan_key({std::int64_t(dtype), n, contiguous, max_elem_bytes, min_elem_bytes, align,
                              std::int64_t(compute), ndim, n_scalars, aliased, std::int64_t(inputs.size()),
                              std::int64_t(outputs.size())});
    for (DType t : inputs) k.push_back(char(t));
    for (DType t : outputs) k.push_back(char(t));
    k += body;
    return k;
  }
};

// The tuner's workload: gelu over n dense elements of one type (memory-bound
// on most devices, but with enough arithmetic that the search also weighs
// keeping bytes in flight, EPT, against it, which relu alone would not show).
ElementwiseProblem elementwise_tuning_problem(DType dtype, std::int64_t n);

class ElementwiseFamily : public FamilyOf<ElementwiseProblem> {
 public:
  std::string name() const override { return "elementwise"; }
  std::string source() const override { return "elementwise/elementwise.cl"; }
  std::string kernel_name() const override { return "elementwise"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ElementwiseProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ElementwiseProblem& problem) const override;
  Defines defines(const Params& p, const ElementwiseProblem& problem) const override;
  // EW_BODY, then the kernel source.
  KernelSource program(const Params& p, const ElementwiseProblem& problem) const override;
  std::string bucket(const ElementwiseProblem& problem) const override;
  ElementwiseProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  // Pack width from alignment and element size (VW = 0 resolved, since the
  // defines need the actual width); the tuned values are upper bounds.
  Params fit(const Params& tuned, const Capabilities& caps, const ElementwiseProblem& problem) const override;
};

}  // namespace optune::detail
