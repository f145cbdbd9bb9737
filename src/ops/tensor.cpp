// The one check of a tensor operand that every operator runs, and the shape
// helpers that go with it.
#include "ops/tensor.hpp"

#include <algorithm>

#include "ops/validate.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

TensorInfo check_tensor(const std::string& name, const Operand& op, const Queue& q, bool allow_scalar) {
  const char* arg = name.c_str();
  // The type first: every size below is in its elements.
  validate::dtype_supported(arg, op.dtype, q.device().caps());
  validate::on_queue(arg, op.mem, q);
  if (!(allow_scalar && op.shape.empty())) validate::rank(arg, op.shape.size(), kMaxRank);
  if (!op.strides.empty() && op.strides.size() != op.shape.size())
    throw Error(Status::InvalidShape, name + ": " + std::to_string(op.strides.size()) + " strides for a shape of rank " +
                                          std::to_string(op.shape.size()));
  check_view(name, *op.mem, op.dtype, op.offset, op.count);
  TensorInfo t;
  t.shape = op.shape;
  t.strides.resize(op.shape.size());
  t.elements = 1;
  std::int64_t running = 1;
  for (std::size_t d = op.shape.size(); d-- > 0;) {
    if (op.shape[d] < 0) throw Error(Status::InvalidShape, name + ": negative dimension in " + shape_text(op.shape));
    t.strides[d] = op.strides.empty() ? running : op.strides[d];
    if (op.shape[d] > 0 && running > 0 && op.shape[d] > INT64_MAX / running)
      throw Error(Status::Overflow, name + ": shape " + shape_text(op.shape) + " has too many elements");
    running *= std::max<std::int64_t>(op.shape[d], 1);
    t.elements = validate::mul((name + ": element count").c_str(), t.elements, std::size_t(op.shape[d]));
  }
  if (t.elements == 0) {
    t.dense = true;
    return t;
  }
  t.dense = true;
  std::int64_t expect = 1;
  for (std::size_t d = op.shape.size(); d-- > 0;) {
    if (op.shape[d] != 1 && t.strides[d] != expect) t.dense = false;
    expect *= op.shape[d];
    const std::int64_t n = op.shape[d] - 1;
    if (n > 0 && (t.strides[d] > INT64_MAX / n || t.strides[d] < INT64_MIN / n))
      throw Error(Status::Overflow, name + ": strides overflow");
    // Each dimension's span fits; their sum may not (two spans near 2^62).
    std::int64_t& reach = t.strides[d] < 0 ? t.min : t.max;
    if (__builtin_add_overflow(reach, t.strides[d] * n, &reach)) throw Error(Status::Overflow, name + ": strides overflow");
  }
  if (std::int64_t(op.offset) + t.min < 0 || std::size_t(t.max) >= op.count)
    throw Error(Status::BufferTooSmall, name + ": shape " + shape_text(op.shape) + " with strides " +
                                            shape_text(t.strides) + " reaches elements " + std::to_string(t.min) +
                                            ".." + std::to_string(t.max) + " of a view of " + std::to_string(op.count));
  return t;
}

void check_overlap(const std::string& what, const Operand& in, const TensorInfo& ii, const char* in_name,
                   const Operand& out, const TensorInfo& oi, const char* out_name, bool allow_same) {
  if (in.mem != out.mem || ii.elements == 0 || oi.elements == 0) return;
  if (allow_same && in.offset == out.offset && in.dtype == out.dtype && ii.shape == oi.shape && ii.strides == oi.strides)
    return;
  // Byte ranges: views of different widths may share an allocation.
  const std::int64_t si = std::int64_t(dtype_size(in.dtype)), so = std::int64_t(dtype_size(out.dtype));
  const std::int64_t lo_i = (std::int64_t(in.offset) + ii.min) * si, hi_i = (std::int64_t(in.offset) + ii.max + 1) * si;
  const std::int64_t lo_o = (std::int64_t(out.offset) + oi.min) * so, hi_o = (std::int64_t(out.offset) + oi.max + 1) * so;
  if (lo_o < hi_i && lo_i < hi_o)
    throw Error(Status::InvalidArgument, what + ": " + out_name + " overlaps " + in_name +
                                             (allow_same ? " without being the same view" : ""));
}

std::size_t product(const std::vector<std::int64_t>& shape, std::size_t from, std::size_t to) {
  std::size_t p = 1;
  for (std::size_t d = from; d < std::min(to, shape.size()); ++d) p *= std::size_t(shape[d]);
  return p;
}

void check_view(const std::string& name, const MemImpl& mem, DType type, std::size_t offset, std::size_t count) {
  validate::fits(name.c_str(), mem_bytes(mem) / dtype_size(type), offset, count);
}

std::int64_t offset_alignment(const std::vector<std::int64_t>& values) {
  std::int64_t a = 16;
  for (std::int64_t v : values)
    while (a > 1 && v % a) a /= 2;
  return a;
}

std::int64_t offset_alignment(std::initializer_list<std::size_t> offsets) {
  return offset_alignment(std::vector<std::int64_t>(offsets.begin(), offsets.end()));
}

bool lattices_overlap(std::int64_t distance, std::int64_t outer, std::int64_t inner, std::int64_t ld) {
  if (outer <= 0 || inner <= 0) return false;
  const std::int64_t d = distance < 0 ? -distance : distance;
  if (ld <= 0 || outer == 1) return d < inner;
  // d = lines * ld + shift with |lines| < outer and |shift| < inner.
  const std::int64_t lines = d / ld;
  if (lines < outer && d - lines * ld < inner) return true;
  return lines + 1 < outer && (lines + 1) * ld - d < inner;
}

}  // namespace optune::detail
