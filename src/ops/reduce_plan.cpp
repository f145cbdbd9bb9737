#include "ops/reduce_plan.hpp"

#include <algorithm>
#include <map>

#include "ops/tensor.hpp"
#include "ops/validate.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

std::vector<int> normalise_axes(const std::string& what, const std::vector<int>& axes, std::size_t rank) {
  std::vector<int> out;
  if (axes.empty()) {
    for (std::size_t d = 0; d < rank; ++d) out.push_back(int(d));
    return out;
  }
  for (int a : axes) {
    const int r = int(rank);
    if (a < -r || a >= r)
      throw Error(Status::InvalidArgument, what + ": axis " + std::to_string(a) + " is out of range for a tensor of rank " +
                                               std::to_string(rank) + " (allowed " + std::to_string(-r) + ".." +
                                               std::to_string(r - 1) + ")");
    const int n = a < 0 ? a + r : a;
    if (std::find(out.begin(), out.end(), n) != out.end())
      throw Error(Status::InvalidArgument, what + ": axis " + std::to_string(a) + " is repeated (as axis " +
                                               std::to_string(n) + ")");
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

ReduceLayout reduce_layout(const std::vector<std::int64_t>& shape, const std::vector<int>& axes) {
  const auto reduced = [&](std::size_t d) { return std::find(axes.begin(), axes.end(), int(d)) != axes.end(); };
  ReduceLayout l;
  std::size_t kept_n = 1, red_n = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) (reduced(d) ? red_n : kept_n) *= std::size_t(shape[d]);
  // Runs of reduced / kept axes, ignoring size-1 axes (they move nothing).
  std::vector<std::pair<bool, std::size_t>> runs;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const bool r = reduced(d);
    if (!runs.empty() && runs.back().first == r) runs.back().second *= std::size_t(shape[d]);
    else runs.emplace_back(r, std::size_t(shape[d]));
  }
  const auto reduced_runs = std::count_if(runs.begin(), runs.end(), [](const auto& r) { return r.first; });
  if (red_n == 0 || kept_n == 0 || reduced_runs == 0) {
    // Nothing to read, or nothing reduced: every output is one "row".
    l.outer = kept_n;
    l.reduced = red_n;
    return l;
  }
  if (reduced_runs == 1) {
    bool after = false;
    for (const auto& [r, n] : runs) {
      if (r) l.reduced = n, after = true;
      else (after ? l.inner : l.outer) *= n;
    }
    return l;
  }
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (!reduced(d)) l.permute.push_back(int(d));
  for (int a : axes) l.permute.push_back(a);
  l.outer = kept_n;
  l.reduced = red_n;
  return l;
}

Operand dense_temporary(const Queue& q, DType t, const std::vector<std::int64_t>& shape) {
  const std::size_t n = std::max<std::size_t>(product(shape), 1);
  Buffer<std::uint8_t> b = q.context().alloc<std::uint8_t>(validate::mul("temporary", n, dtype_size(t)));
  Operand o;
  o.mem = b.mem();
  o.offset = 0;
  o.count = n;
  o.dtype = t;
  o.shape = shape;
  return o;
}

Operand dense_view(const Operand& op, const std::vector<std::int64_t>& shape) {
  Operand o = op;
  o.shape = shape;
  o.strides.clear();
  return o;
}

namespace {

Operand scratch_view(const std::shared_ptr<MemImpl>& mem, DType t, std::size_t count) {
  Operand o;
  o.mem = mem;
  o.count = count;
  o.dtype = t;
  o.shape = {std::int64_t(count)};
  return o;
}

}  // namespace

Scratch queue_scratch(const Queue& q, DType values_type, std::size_t count, bool indices) {
  const std::size_t n = std::max<std::size_t>(count, 1);
  ScratchLease lease = lease_scratch(q, {validate::mul("scratch", n, dtype_size(values_type)),
                                         indices ? validate::mul("scratch", n, 4) : 0, 0});
  Scratch s{scratch_view(lease.slot[0], values_type, n), {}, std::move(lease.lock)};
  if (indices) s.indices = scratch_view(lease.slot[1], DType::I32, n);
  return s;
}

Operand dense_input(const Queue& q, const Operand& x, const TensorInfo& info, EventSpan& span, WaitList& pending) {
  if (info.dense || info.elements == 0) return x;
  Operand tmp = dense_temporary(q, x.dtype, x.shape);
  span.add(unary(q, Unary::Copy, x, tmp, {}, pending));
  pending.clear();
  return tmp;
}

}  // namespace optune::detail
