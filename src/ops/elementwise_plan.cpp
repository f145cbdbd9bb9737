#include "ops/elementwise_plan.hpp"

#include <algorithm>

#include "ops/validate.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

namespace {

struct Checked {
  std::vector<std::int64_t> strides;  // explicit, same rank as the shape
  std::int64_t min = 0, max = 0;      // element range touched, relative to the view's start
  std::size_t elements = 1;
};

Checked check_operand(const std::string& name, const Operand& op, const Queue& q) {
  validate::on_queue(name.c_str(), op.mem, q);
  validate::rank(name.c_str(), op.shape.size(), kMaxRank);
  if (!op.strides.empty() && op.strides.size() != op.shape.size())
    throw Error(Status::InvalidShape, name + ": " + std::to_string(op.strides.size()) + " strides for a shape of rank " +
                                          std::to_string(op.shape.size()));
  validate::fits(name.c_str(), mem_bytes(*op.mem) / dtype_size(op.dtype), op.offset, op.count);
  Checked c;
  c.strides.resize(op.shape.size());
  std::int64_t running = 1;
  for (std::size_t d = op.shape.size(); d-- > 0;) {
    if (op.shape[d] < 0) throw Error(Status::InvalidShape, name + ": negative dimension in " + shape_text(op.shape));
    c.strides[d] = op.strides.empty() ? running : op.strides[d];
    if (op.shape[d] > 0 && running > 0 && op.shape[d] > INT64_MAX / running)
      throw Error(Status::Overflow, name + ": shape " + shape_text(op.shape) + " has too many elements");
    running *= std::max<std::int64_t>(op.shape[d], 1);
    c.elements = validate::mul((name + ": element count").c_str(), c.elements, std::size_t(op.shape[d]));
  }
  if (c.elements == 0) return c;
  for (std::size_t d = 0; d < op.shape.size(); ++d) {
    if (op.shape[d] > 1 && (c.strides[d] > INT64_MAX / (op.shape[d] - 1) || c.strides[d] < INT64_MIN / (op.shape[d] - 1)))
      throw Error(Status::Overflow, name + ": strides overflow");
    const std::int64_t span = c.strides[d] * (op.shape[d] - 1);
    // Each dimension's span fits; their sum may not (two spans near 2^62).
    std::int64_t& reach = span < 0 ? c.min : c.max;
    if (__builtin_add_overflow(reach, span, &reach)) throw Error(Status::Overflow, name + ": strides overflow");
  }
  // Forward within the view; backward (negative strides) down to the start
  // of the allocation, so a reversed view can start at its last element.
  if (std::int64_t(op.offset) + c.min < 0 || std::size_t(c.max) >= op.count)
    throw Error(Status::BufferTooSmall, name + ": shape " + shape_text(op.shape) + " with strides " +
                                            shape_text(c.strides) + " reaches elements " + std::to_string(c.min) +
                                            ".." + std::to_string(c.max) + " of a view of " + std::to_string(op.count));
  return c;
}

}  // namespace

ElementwisePlan plan_elementwise(const char* what, const Queue& q, const std::vector<const Operand*>& inputs,
                                 const std::vector<const Operand*>& outputs) {
  if (!q.impl()) throw Error(Status::InvalidArgument, std::string(what) + ": empty queue");
  if (outputs.empty()) throw Error(Status::InvalidArgument, std::string(what) + ": no output");
  std::vector<const Operand*> all(inputs);
  all.insert(all.end(), outputs.begin(), outputs.end());
  std::vector<Checked> checked;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const std::string name = std::string(what) + ": " + (k < inputs.size() ? "input " + std::to_string(k)
                                                                               : "output " + std::to_string(k - inputs.size()));
    checked.push_back(check_operand(name, *all[k], q));
    validate::dtype_supported(name.c_str(), all[k]->dtype, q.device().caps());
  }
  const std::vector<std::int64_t>& out_shape = outputs[0]->shape;
  for (const Operand* o : outputs)
    if (o->shape != out_shape)
      throw Error(Status::InvalidShape, std::string(what) + ": outputs have different shapes " + shape_text(out_shape) +
                                            " and " + shape_text(o->shape));
  const std::size_t rank = out_shape.size();
  // Broadcast each input to the output shape (NumPy rules, aligned right).
  ElementwisePlan plan;
  std::vector<std::vector<std::int64_t>> st(all.size(), std::vector<std::int64_t>(rank, 0));
  for (std::size_t k = 0; k < all.size(); ++k) {
    const Operand& op = *all[k];
    if (op.shape.size() > rank)
      throw Error(Status::InvalidShape, std::string(what) + ": input " + std::to_string(k) + " shape " +
                                            shape_text(op.shape) + " has more dimensions than the output " +
                                            shape_text(out_shape));
    const std::size_t lead = rank - op.shape.size();
    for (std::size_t d = 0; d < op.shape.size(); ++d) {
      const std::int64_t dim = op.shape[d], od = out_shape[lead + d];
      if (dim == od) {
        st[k][lead + d] = checked[k].strides[d];
      } else if (dim == 1) {
        st[k][lead + d] = 0;
      } else {
        throw Error(Status::InvalidShape, std::string(what) + ": input " + std::to_string(k) + " shape " +
                                              shape_text(op.shape) + " does not broadcast to the output shape " +
                                              shape_text(out_shape));
      }
    }
  }
  plan.n = checked[inputs.size()].elements;
  // An output must not write one element twice.
  for (std::size_t k = inputs.size(); k < all.size(); ++k)
    for (std::size_t d = 0; d < rank; ++d)
      if (out_shape[d] > 1 && st[k][d] == 0)
        throw Error(Status::InvalidShape, std::string(what) + ": output " + std::to_string(k - inputs.size()) +
                                              " has a zero stride, so elements would overlap");
  // Outputs that share memory with an input must be the same view (in place)
  // or not overlap it at all.
  for (std::size_t o = inputs.size(); o < all.size(); ++o)
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (k == o || all[k]->mem != all[o]->mem || plan.n == 0) continue;
      // Byte ranges: operands of different widths may share an allocation.
      const std::int64_t so = std::int64_t(dtype_size(all[o]->dtype)), sk = std::int64_t(dtype_size(all[k]->dtype));
      const std::int64_t lo_o = (std::int64_t(all[o]->offset) + checked[o].min) * so;
      const std::int64_t hi_o = (std::int64_t(all[o]->offset) + checked[o].max + 1) * so - 1;
      const std::int64_t lo_k = (std::int64_t(all[k]->offset) + checked[k].min) * sk;
      const std::int64_t hi_k = (std::int64_t(all[k]->offset) + checked[k].max + 1) * sk - 1;
      const bool same = all[k]->offset == all[o]->offset && st[k] == st[o] &&
                        dtype_size(all[k]->dtype) == dtype_size(all[o]->dtype);
      if (same && k < inputs.size()) {
        plan.aliased = true;
        continue;
      }
      if (hi_o >= lo_k && hi_k >= lo_o)
        throw Error(Status::InvalidArgument, std::string(what) + ": output " + std::to_string(o - inputs.size()) +
                                                 " overlaps " + (k < inputs.size() ? "input " : "output ") +
                                                 std::to_string(k < inputs.size() ? k : k - inputs.size()) +
                                                 " without being the same view");
    }
  // Collapse: drop size-1 dimensions, merge neighbours that are contiguous
  // for every operand.
  for (std::size_t d = 0; d < rank; ++d) {
    if (out_shape[d] == 1) continue;
    const bool merge = !plan.shape.empty() && [&] {
      for (std::size_t k = 0; k < all.size(); ++k)
        if (plan.strides[k].back() != st[k][d] * out_shape[d]) return false;
      return true;
    }();
    if (merge) {
      plan.shape.back() *= out_shape[d];
      for (std::size_t k = 0; k < all.size(); ++k) plan.strides[k].back() = st[k][d];
    } else {
      plan.shape.push_back(out_shape[d]);
      plan.strides.resize(all.size());
      for (std::size_t k = 0; k < all.size(); ++k) plan.strides[k].push_back(st[k][d]);
    }
  }
  if (plan.shape.empty()) {
    plan.shape = {1};
    plan.strides.assign(all.size(), std::vector<std::int64_t>{1});
  }
  plan.contiguous = plan.shape.size() == 1;
  for (const auto& s : plan.strides) plan.contiguous = plan.contiguous && s[0] == 1;
  return plan;
}

}  // namespace optune::detail
