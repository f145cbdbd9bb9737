// Host side of element-wise operators: the compute type of a call, each
// operator as an expression over the lane values, and the launch through the
// elementwise family.
#pragma once

#include <string>
#include <vector>

#include "kernels/descriptor.hpp"
#include "optune/elementwise.hpp"

namespace optune::detail {

enum class ComputeType { Float, Double, Int };

struct ElementwiseCall {
  std::string what;                     // operator name for messages
  std::string body;                     // EW_BODY: reads i0..i3 and S(k), writes o0, o1
  std::vector<const Operand*> inputs;   // at most 4
  std::vector<const Operand*> outputs;  // 1 or 2
  std::vector<double> scalars;          // S(0), S(1), ...
  ComputeType compute = ComputeType::Float;
};

ComputeType compute_type_of(const std::vector<DType>& types);
// Validates, plans and enqueues. `forced` overrides the database (tuner).
Event run_elementwise(const Queue& q, const ElementwiseCall& call, const WaitList& wait,
                      const Params* forced = nullptr);

// The call each public operator runs (data types checked, body built), for
// the tuner and the tests to run with forced parameters or to compile for
// another device. The operands are referenced, not copied.
ElementwiseCall unary_call(Unary op, const Operand& x, const Operand& y, const OpParams& p);
ElementwiseCall binary_call(Binary op, const Operand& a, const Operand& b, const Operand& y);
// y = t op s, or y = s op t when scalar_first.
ElementwiseCall binary_scalar_call(Binary op, const Operand& t, double s, bool scalar_first, const Operand& y);
ElementwiseCall ternary_call(Ternary op, const Operand& a, const Operand& b, const Operand& c, const Operand& y,
                             const OpParams& p);
ElementwiseCall cast_call(const Operand& x, const Operand& y);

// What run_elementwise compiles for a planned call: the problem it asks the
// database about, and for fitted parameters the source text (EW_BODY before
// the kernel) and the defines. Only plan.contiguous, plan.shape (its rank),
// plan.n and plan.aliased are read.
struct ElementwisePlan;
Problem elementwise_problem(const ElementwiseCall& call, const ElementwisePlan& plan);
struct ElementwiseSource {
  std::string label;  // the kernel file, for build messages
  std::string text;
  Defines defines;
};
ElementwiseSource elementwise_source(const ElementwiseCall& call, const ElementwisePlan& plan, const Params& fitted,
                                     const Problem& problem);

// Expression templates with A, B, C for operands and P0, P1 for parameters,
// for float/double or integer compute; nullptr when the operator has no
// integer form.
const char* unary_expression(Unary op, bool integer);
const char* binary_expression(Binary op, bool integer);
const char* ternary_expression(Ternary op, bool integer);
// The parameters P0, P1 of a unary operator's expression (leaky_relu slope,
// elu alpha, clamp bounds), defaults filled in; throws InvalidArgument for a
// clamp without both bounds or with low > high.
std::vector<double> unary_params(Unary op, const OpParams& p);
// Replaces A, B, C, P0, P1 (whole tokens) in an expression template.
std::string substitute(const std::string& tmpl, const std::vector<std::string>& operands,
                       const std::vector<std::string>& params);

}  // namespace optune::detail
