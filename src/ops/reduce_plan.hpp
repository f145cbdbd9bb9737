// Shapes of the reduction, softmax and norm operators: axis normalisation,
// the (outer, reduced, inner) form of a reduction over a dense tensor, and
// dense temporaries for strided operands.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "ops/tensor.hpp"
#include "optune/reduce.hpp"
#include "runtime/backend.hpp"
#include "runtime/event_span.hpp"

namespace optune::detail {

// Axes in [-rank, rank) to 0..rank-1, sorted; empty means all. Throws
// InvalidArgument for an axis out of range or repeated.
std::vector<int> normalise_axes(const std::string& what, const std::vector<int>& axes, std::size_t rank);

// A reduction over a dense tensor of shape `shape` along `axes`, as
// [outer][reduced][inner] when the reduced axes are adjacent once size-1 axes
// are dropped; otherwise `permute` holds the axis order (kept axes first,
// then reduced ones) that makes them so.
struct ReduceLayout {
  std::size_t outer = 1, reduced = 1, inner = 1;
  std::vector<int> permute;  // empty when no permutation is needed
};
ReduceLayout reduce_layout(const std::vector<std::int64_t>& shape, const std::vector<int>& axes);

// A fresh dense tensor on the queue's context (kept alive by the Operand).
Operand dense_temporary(const Queue& q, DType t, const std::vector<std::int64_t>& shape);
// The same memory and offset seen as a dense tensor of `shape`.
Operand dense_view(const Operand& op, const std::vector<std::int64_t>& shape);

// The partial states of split reductions in the queue's scratch
// (runtime/scratch.hpp); `lock` is held while the kernels that use them are
// enqueued.
struct Scratch {
  Operand values, indices;  // indices only when asked for
  std::unique_lock<std::recursive_mutex> lock;
};
Scratch queue_scratch(const Queue& q, DType values_type, std::size_t count, bool indices);

// x itself when dense, else a dense copy of it enqueued after `pending`
// (which is then cleared, the queue being in order).
Operand dense_input(const Queue& q, const Operand& x, const TensorInfo& info, EventSpan& span, WaitList& pending);

}  // namespace optune::detail
