// Each element-wise operator as an expression template over its operands
// (A, B, C) and parameters (P0, P1), for float/double or integer compute.
// The elementwise family compiles them as EW_BODY; the GEMM family's fused
// epilogue compiles the unary ones as its activation.
#pragma once

#include <string>
#include <vector>

#include "optune/elementwise.hpp"

namespace optune::detail {

// nullptr when the operator has no integer form.
const char* unary_expression(Unary op, bool integer);
const char* binary_expression(Binary op, bool integer);
const char* ternary_expression(Ternary op, bool integer);
// Replaces A, B, C, P0, P1 (whole tokens) in an expression template.
std::string substitute(const std::string& tmpl, const std::vector<std::string>& operands,
                       const std::vector<std::string>& params);
// gelu of i0 in the float form (the elementwise family's tuning workload).
std::string gelu_body();

}  // namespace optune::detail
