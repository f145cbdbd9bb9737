#include "ops/elementwise_plan.hpp"

#include <algorithm>

#include "ops/tensor.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

ElementwisePlan plan_elementwise(const char* what, const Queue& q, const std::vector<const Operand*>& inputs,
                                 const std::vector<const Operand*>& outputs) {
  if (!q.impl()) throw Error(Status::InvalidArgument, std::string(what) + ": empty queue");
  if (outputs.empty()) throw Error(Status::InvalidArgument, std::string(what) + ": no output");
  std::vector<const Operand*> all(inputs);
  all.insert(all.end(), outputs.begin(), outputs.end());
  std::vector<TensorInfo> checked;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const std::string name = std::string(what) + ": " + (k < inputs.size() ? "input " + std::to_string(k)
                                                                               : "output " + std::to_string(k - inputs.size()));
    checked.push_back(check_tensor(name, *all[k], q));
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
