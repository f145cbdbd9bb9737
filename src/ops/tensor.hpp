// The one check of a tensor operand that every operator runs (context,
// type, rank, strides, the elements it reaches inside its view, overflow of
// the index arithmetic), the overlap check between operands, and the shape
// helpers that go with them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "optune/elementwise.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

constexpr std::size_t kMaxRank = 8;

// A validated tensor operand.
struct TensorInfo {
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // explicit, one per dimension
  std::size_t elements = 0;
  bool dense = false;                 // row-major contiguous from the offset
  std::int64_t min = 0, max = 0;      // element range reached, relative to the offset
};

// Checks an operand (data type known and supported by the device, checked
// before any size arithmetic; context; rank 1..8, or 0 when allow_scalar;
// strides; extent) and describes it. `name` leads every message.
TensorInfo check_tensor(const std::string& name, const Operand& op, const Queue& q, bool allow_scalar = false);

// Throws InvalidArgument unless `out` is the same view as `in` (when
// allow_same) or does not overlap it at all.
void check_overlap(const std::string& what, const Operand& in, const TensorInfo& in_info, const char* in_name,
                   const Operand& out, const TensorInfo& out_info, const char* out_name, bool allow_same);

// The view [offset, offset + count) of an operand's elements lies inside its
// allocation (a hand-made view may claim more than was allocated), else
// BufferTooSmall naming the operand.
void check_view(const std::string& name, const MemImpl& mem, DType type, std::size_t offset, std::size_t count);

// Elements [lo, hi) of one allocation, in bytes, that an operand reaches.
struct ByteRange {
  const MemImpl* mem = nullptr;
  std::int64_t lo = 0, hi = 0;
  bool overlaps(const ByteRange& o) const { return mem == o.mem && lo < o.hi && o.lo < hi; }
};

// Whether two copies of a matrix lattice (`outer` lines of `inner`
// contiguous elements, `ld` apart), the second starting `distance` elements
// after the first, share an element.
bool lattices_overlap(std::int64_t distance, std::int64_t outer, std::int64_t inner, std::int64_t ld);

// The largest pack (a power of two up to 16 elements) that every value
// (offsets, leading dimensions, batch strides) is a multiple of.
std::int64_t offset_alignment(const std::vector<std::int64_t>& values);
std::int64_t offset_alignment(std::initializer_list<std::size_t> offsets);

std::string shape_text(const std::vector<std::int64_t>& shape);
std::size_t product(const std::vector<std::int64_t>& shape, std::size_t from = 0, std::size_t to = SIZE_MAX);

}  // namespace optune::detail
