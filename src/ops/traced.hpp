// OPTUNE_TRACE from the operators: each public call opens a trace::Span named
// after the operator ("unary gelu", "reduce sum") and lists its operands.
#pragma once

#include "optune/elementwise.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

inline void trace_operand(trace::Span& span, const char* name, const Operand& o) {
  if (span) span.tensor(name, o.dtype, o.shape, o.strides, o.offset);
}

}  // namespace optune::detail
