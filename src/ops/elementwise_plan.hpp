// Shapes of an element-wise call: validation (ranks, broadcasting, extents,
// aliasing), broadcasting to the output, and collapsing dimensions so the
// kernel sees as few as possible.
#pragma once

#include <vector>

#include "ops/tensor.hpp"

namespace optune::detail {

struct ElementwisePlan {
  std::size_t n = 0;                           // output elements
  std::vector<std::int64_t> shape;             // collapsed, last fastest
  std::vector<std::vector<std::int64_t>> strides;  // per operand (inputs, then outputs), per collapsed dim
  bool contiguous = false;                     // every operand dense over the output
  bool aliased = false;                        // an output is also an input (in place)
};

// Validates operands for one call (`what` names the operator in messages) and
// plans it. Inputs broadcast to the outputs' shape, which must all agree.
ElementwisePlan plan_elementwise(const char* what, const Queue& q, const std::vector<const Operand*>& inputs,
                                 const std::vector<const Operand*>& outputs);

}  // namespace optune::detail
