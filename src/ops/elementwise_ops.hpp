// Host side of element-wise operators: each public operator as a call (an
// expression over the operands, built from kernels/elementwise/expressions),
// validated and planned, then launched through the elementwise family.
#pragma once

#include <string>
#include <vector>

#include "kernels/elementwise/elementwise.hpp"
#include "kernels/elementwise/expressions.hpp"
#include "optune/elementwise.hpp"

namespace optune::detail {

struct ElementwiseCall {
  std::string what;                     // operator name for messages
  std::string body;                     // EW_BODY: reads i0..i3 and S(k), writes o0, o1
  std::vector<const Operand*> inputs;   // at most 4
  std::vector<const Operand*> outputs;  // 1 or 2
  std::vector<double> scalars;          // S(0), S(1), ...
  ComputeType compute = ComputeType::Float;
  std::vector<std::string> scalar_names;  // the user's names of the scalars, for messages (may be empty)
};

// Validates (an integer call's scalars must fit the kernel's 32-bit int),
// plans and enqueues. `forced` overrides the database (tuner).
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

// The family's problem for a planned call: what run_elementwise asks the
// database about and compiles (tests compile it for other devices). Only
// plan.contiguous, plan.shape (its rank), plan.n and plan.aliased are read.
struct ElementwisePlan;
ElementwiseProblem elementwise_problem(const ElementwiseCall& call, const ElementwisePlan& plan);

// The parameters P0, P1 of a unary operator's expression (leaky_relu slope,
// elu alpha, clamp bounds), defaults filled in; throws InvalidArgument for a
// clamp without both bounds or with low > high.
std::vector<double> unary_params(Unary op, const OpParams& p);

}  // namespace optune::detail
