// Shapes of the reduction, softmax and norm operators: operand checks, axis
// normalisation, the (outer, reduced, inner) form of a reduction over a dense
// tensor, dense temporaries for strided operands, and an Event that spans
// every kernel of a call.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "optune/reduce.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

// A validated tensor operand.
struct TensorInfo {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // explicit, one per dimension
  std::size_t elements = 0;
  bool dense = false;                 // row-major contiguous from the offset
  std::int64_t min = 0, max = 0;      // element range reached, relative to the offset
};

// Checks an operand (context, rank 1..8 or 0 when allow_scalar, strides,
// extent, data type supported by the device) and describes it.
TensorInfo check_tensor(const std::string& name, const Operand& op, const Queue& q, bool allow_scalar = false);

// Throws InvalidArgument unless `out` is the same view as `in` (when
// allow_same) or does not overlap it at all.
void check_overlap(const std::string& what, const Operand& in, const TensorInfo& in_info, const char* in_name,
                   const Operand& out, const TensorInfo& out_info, const char* out_name, bool allow_same);

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

std::size_t product(const std::vector<std::int64_t>& shape, std::size_t from = 0, std::size_t to = SIZE_MAX);

// A fresh dense tensor on the queue's context (kept alive by the Operand).
Operand dense_temporary(const Queue& q, DType t, const std::vector<std::int64_t>& shape);
// The same memory and offset seen as a dense tensor of `shape`.
Operand dense_view(const Operand& op, const std::vector<std::int64_t>& shape);

// Scratch memory reused by the calls on one queue (partial states of split
// reductions): the queue runs in order, so a call's kernels start only after
// an earlier call's have finished with it, and no allocation or free (which
// synchronises on CUDA) sits in the call. `lock` is held while the kernels
// that use it are enqueued, so calls from several threads do not interleave.
struct Scratch {
  Operand values, indices;  // indices only when asked for
  std::unique_lock<std::mutex> lock;
};
Scratch queue_scratch(const Queue& q, DType values_type, std::size_t count, bool indices);

class EventSpan;
// x itself when dense, else a dense copy of it enqueued after `pending`
// (which is then cleared, the queue being in order).
Operand dense_input(const Queue& q, const Operand& x, const TensorInfo& info, EventSpan& span, WaitList& pending);

// Enqueued kernels of one call, gathered into one Event whose start is the
// first's and whose end is the last's.
class EventSpan {
 public:
  void add(const Event& e);
  Event result() const;

 private:
  Event first_, last_;
};

}  // namespace optune::detail
