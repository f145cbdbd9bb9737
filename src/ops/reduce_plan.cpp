#include "ops/reduce_plan.hpp"

#include <algorithm>
#include <map>

#include "ops/elementwise_plan.hpp"
#include "ops/validate.hpp"

namespace optune::detail {

TensorInfo check_tensor(const std::string& name, const Operand& op, const Queue& q, bool allow_scalar) {
  const char* arg = name.c_str();
  validate::on_queue(arg, op.mem, q);
  if (!(allow_scalar && op.shape.empty())) validate::rank(arg, op.shape.size(), kMaxRank);
  validate::dtype_supported(arg, op.dtype, q.device().caps());
  if (!op.strides.empty() && op.strides.size() != op.shape.size())
    throw Error(Status::InvalidShape, name + ": " + std::to_string(op.strides.size()) + " strides for a shape of rank " +
                                          std::to_string(op.shape.size()));
  validate::fits(arg, mem_bytes(*op.mem) / dtype_size(op.dtype), op.offset, op.count);
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

std::size_t product(const std::vector<std::int64_t>& shape, std::size_t from, std::size_t to) {
  std::size_t p = 1;
  for (std::size_t d = from; d < std::min(to, shape.size()); ++d) p *= std::size_t(shape[d]);
  return p;
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

struct QueueScratch {
  std::weak_ptr<QueueImpl> owner;
  std::shared_ptr<std::mutex> mutex = std::make_shared<std::mutex>();
  std::shared_ptr<MemImpl> values, indices;
};

Operand scratch_view(const std::shared_ptr<MemImpl>& mem, DType t, std::size_t count) {
  Operand o;
  o.mem = mem;
  o.count = count;
  o.dtype = t;
  o.shape = {std::int64_t(count)};
  return o;
}

// Grows `mem` to hold `bytes` (on the queue's context).
void ensure(const Queue& q, std::shared_ptr<MemImpl>& mem, std::size_t bytes) {
  if (!mem || mem_bytes(*mem) < bytes) mem = q.context().alloc<std::uint8_t>(std::max<std::size_t>(bytes, 256)).mem();
}

}  // namespace

Scratch queue_scratch(const Queue& q, DType values_type, std::size_t count, bool indices) {
  static std::mutex registry_mutex;
  static std::map<const QueueImpl*, QueueScratch> registry;
  std::shared_ptr<std::mutex> m;
  QueueScratch* entry = nullptr;
  {
    std::lock_guard lock(registry_mutex);
    for (auto it = registry.begin(); it != registry.end();)  // queues gone (or an address reused)
      it = it->second.owner.expired() ? registry.erase(it) : std::next(it);
    QueueScratch& e = registry[q.impl().get()];
    if (e.owner.expired()) e = QueueScratch{q.impl()};
    m = e.mutex;
    entry = &e;
  }
  Scratch s{{}, {}, std::unique_lock<std::mutex>(*m)};
  const std::size_t n = std::max<std::size_t>(count, 1);
  ensure(q, entry->values, validate::mul("scratch", n, dtype_size(values_type)));
  s.values = scratch_view(entry->values, values_type, n);
  if (indices) {
    ensure(q, entry->indices, validate::mul("scratch", n, 4));
    s.indices = scratch_view(entry->indices, DType::I32, n);
  }
  return s;
}

Operand dense_input(const Queue& q, const Operand& x, const TensorInfo& info, EventSpan& span, WaitList& pending) {
  if (info.dense || info.elements == 0) return x;
  Operand tmp = dense_temporary(q, x.dtype, x.shape);
  span.add(unary(q, Unary::Copy, x, tmp, {}, pending));
  pending.clear();
  return tmp;
}

namespace {

class SpanEventImpl : public EventImpl {
 public:
  SpanEventImpl(EventPtr first, EventPtr last) : first_(std::move(first)), last_(std::move(last)) {}
  void wait() override {
    first_->wait();
    last_->wait();
  }
  bool complete() override { return first_->complete() && last_->complete(); }
  EventTimes times() override {
    EventTimes a = first_->times();
    const EventTimes b = last_->times();
    a.end = std::max(b.end, a.end);
    return a;
  }

 private:
  EventPtr first_, last_;
};

}  // namespace

void EventSpan::add(const Event& e) {
  if (!e.valid()) return;
  if (!first_.valid()) first_ = e;
  last_ = e;
}

Event EventSpan::result() const {
  if (!first_.valid() || first_.impl() == last_.impl()) return last_;
  return Event(std::make_shared<SpanEventImpl>(first_.impl(), last_.impl()));
}

}  // namespace optune::detail
