// Device data for the tuning cases: random dense operands, poisoning and
// read-back as doubles.
#include <cstring>
#include <random>

#include "tuning/cases/cases.hpp"

namespace optune::detail::cases {

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
    case DType::BF16: { const std::uint16_t h = bfloat16::from_float(float(v)); std::memcpy(p, &h, 2); break; }
    case DType::I32: { const std::int32_t i = std::int32_t(v); std::memcpy(p, &i, 4); break; }
    case DType::I8: { const std::int8_t i = std::int8_t(v); std::memcpy(p, &i, 1); break; }
    case DType::U8: { const std::uint8_t i = std::uint8_t(v); std::memcpy(p, &i, 1); break; }
    case DType::C32: { const float c[2] = {float(v), 0.0f}; std::memcpy(p, c, 8); break; }  // (v, 0)
    case DType::C64: { const double c[2] = {v, 0.0}; std::memcpy(p, c, 16); break; }
  }
}

double get(const std::uint8_t* p, DType t) {
  switch (t) {
    case DType::F32: { float f; std::memcpy(&f, p, 4); return f; }
    case DType::F64: { double d; std::memcpy(&d, p, 8); return d; }
    case DType::F16: { std::uint16_t h; std::memcpy(&h, p, 2); return half::to_float(h); }
    case DType::BF16: { std::uint16_t h; std::memcpy(&h, p, 2); return bfloat16::to_float(h); }
    case DType::I32: { std::int32_t i; std::memcpy(&i, p, 4); return i; }
    case DType::I8: return double(std::int8_t(*p));
    case DType::U8: return double(*p);
    case DType::C32: { float f; std::memcpy(&f, p, 4); return f; }  // the real part
    case DType::C64: { double d; std::memcpy(&d, p, 8); return d; }
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

}  // namespace optune::detail::cases
