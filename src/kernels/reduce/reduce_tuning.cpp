// Tuning cases of the reduction families and the device-data helpers that the
// reduction, softmax and norm cases share.
#include <cstring>
#include <random>

#include "kernels/reduce/reduce.hpp"
#include "kernels/reduce/reduce_common.hpp"
#include "ops/reduce_ops.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

namespace reduction {

namespace {

std::size_t elements(const std::vector<std::int64_t>& shape) {
  std::size_t n = 1;
  for (std::int64_t d : shape) n *= std::size_t(d);
  return n;
}

void put(std::uint8_t* p, DType t, double v) {
  switch (t) {
    case DType::F32: { const float f = float(v); std::memcpy(p, &f, 4); break; }
    case DType::F64: std::memcpy(p, &v, 8); break;
    case DType::F16: { const std::uint16_t h = half::from_float(float(v)); std::memcpy(p, &h, 2); break; }
    case DType::I32: { const std::int32_t i = std::int32_t(v); std::memcpy(p, &i, 4); break; }
    case DType::I8: { const std::int8_t i = std::int8_t(v); std::memcpy(p, &i, 1); break; }
    case DType::U8: { const std::uint8_t i = std::uint8_t(v); std::memcpy(p, &i, 1); break; }
  }
}

double get(const std::uint8_t* p, DType t) {
  switch (t) {
    case DType::F32: { float f; std::memcpy(&f, p, 4); return f; }
    case DType::F64: { double d; std::memcpy(&d, p, 8); return d; }
    case DType::F16: { std::uint16_t h; std::memcpy(&h, p, 2); return half::to_float(h); }
    case DType::I32: { std::int32_t i; std::memcpy(&i, p, 4); return i; }
    case DType::I8: return double(std::int8_t(*p));
    case DType::U8: return double(*p);
  }
  return 0;
}

Buffer<std::uint8_t> bytes_of(const Operand& o) {
  return Buffer<std::uint8_t>(o.mem, o.offset * dtype_size(o.dtype), o.count * dtype_size(o.dtype));
}

}  // namespace

Operand random_operand(const Queue& q, DType t, const std::vector<std::int64_t>& shape, double lo, double hi,
                       std::uint64_t seed) {
  const std::size_t n = std::max<std::size_t>(elements(shape), 1), es = dtype_size(t);
  std::vector<std::uint8_t> host(n * es);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  for (std::size_t i = 0; i < n; ++i) put(&host[i * es], t, lo == hi ? lo : d(rng));
  Buffer<std::uint8_t> b = q.context().alloc<std::uint8_t>(host.size());
  q.upload(b, std::span<const std::uint8_t>(host));
  Operand o;
  o.mem = b.mem();
  o.count = n;
  o.dtype = t;
  o.shape = shape;
  return o;
}

void poison_operand(const Queue& q, const Operand& o) { q.fill(bytes_of(o), std::uint8_t(0xA5)).wait(); }

std::vector<double> read_operand(const Queue& q, const Operand& o) {
  const auto host = q.download(bytes_of(o));
  const std::size_t es = dtype_size(o.dtype);
  std::vector<double> out(o.count);
  for (std::size_t i = 0; i < o.count; ++i) out[i] = get(&host[i * es], o.dtype);
  return out;
}

}  // namespace reduction

namespace {

// A whole sum over the problem's layout (rows: [rows][cols]; cols:
// [outer][rows][inner]), both passes when the parameters split it.
class ReduceCase : public TuningCase {
 public:
  ReduceCase(const Queue& q, const Problem& pr) : q_(q), pr_(pr) {
    const auto& s = pr.sizes;
    call_.op = ReduceOp(pr.get("op"));
    call_.outer = std::size_t(s.at(0));
    call_.reduced = std::size_t(s.at(1));
    call_.inner = s.size() > 2 ? std::size_t(s.at(2)) : 1;
    const std::int64_t in = std::int64_t(call_.outer * call_.reduced * call_.inner);
    const std::int64_t out = std::int64_t(call_.outer * call_.inner);
    call_.x = reduction::random_operand(q, pr.dtype, {in}, 0.5, 1.5, 21);
    call_.y = reduction::random_operand(q, DType(pr.get("out", int(pr.dtype))), {out}, 0, 0, 22);
  }
  Event run(const Params& p) override { return run_reduce(q_, call_, {}, &p); }
  void poison() override { reduction::poison_operand(q_, call_.y); }
  std::vector<double> output() override { return reduction::read_operand(q_, call_.y); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : pr_.dtype == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override {
    return double(call_.outer * call_.reduced * call_.inner) * double(dtype_size(pr_.dtype));
  }

 private:
  Queue q_;
  Problem pr_;
  ReduceCall call_;
};

}  // namespace

std::unique_ptr<TuningCase> ReduceFamilyBase::make_case(const Queue& queue, const Problem& problem) const {
  return std::make_unique<ReduceCase>(queue, problem);
}

}  // namespace optune::detail
