#include <gtest/gtest.h>

#include "reference/elementwise_ref.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "support/test_support.hpp"

namespace optune::ref {

namespace {
double hard_sigmoid(double x) { return std::isnan(x) ? x : std::min(std::max((x + 3) / 6, 0.0), 1.0); }
double softplus(double x) { return x > 20 ? x : std::log1p(std::exp(x)); }
double nan_max(double a, double b) { return (a > b || std::isnan(a)) ? a : b; }
double nan_min(double a, double b) { return (a < b || std::isnan(a)) ? a : b; }
}  // namespace

double unary(Unary op, double x, double alpha, double beta) {
  switch (op) {
    case Unary::Copy: return x;
    case Unary::Neg: return -x;
    case Unary::Abs: return std::fabs(x);
    case Unary::Relu: return (x > 0 || std::isnan(x)) ? x : 0.0;
    case Unary::LeakyRelu: return (x > 0 || std::isnan(x)) ? x : alpha * x;
    case Unary::Relu6: return std::isnan(x) ? x : std::min(std::max(x, 0.0), 6.0);
    case Unary::Elu: return x > 0 ? x : alpha * std::expm1(x);
    case Unary::Selu: return 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * std::expm1(x));
    case Unary::Gelu: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    case Unary::GeluTanh: {
      // 0.5 x (1 + tanh u) written as x * sigmoid(2u): the same function
      // without the cancellation of 1 + tanh(u) for negative x.
      const double u = std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
      return x / (1 + std::exp(-2 * u));
    }
    case Unary::Silu: return x / (1 + std::exp(-x));
    case Unary::Mish: return x * std::tanh(softplus(x));
    case Unary::Sigmoid: return 1 / (1 + std::exp(-x));
    case Unary::HardSigmoid: return hard_sigmoid(x);
    case Unary::HardSwish: return x * hard_sigmoid(x);
    case Unary::Tanh: return std::tanh(x);
    case Unary::Softplus: return softplus(x);
    case Unary::Exp: return std::exp(x);
    case Unary::Log: return std::log(x);
    case Unary::Sqrt: return std::sqrt(x);
    case Unary::Rsqrt: return 1 / std::sqrt(x);
    case Unary::Reciprocal: return 1 / x;
    case Unary::Square: return x * x;
    case Unary::Sin: return std::sin(x);
    case Unary::Cos: return std::cos(x);
    case Unary::Floor: return std::floor(x);
    case Unary::Ceil: return std::ceil(x);
    case Unary::Round: return std::nearbyint(x);
    case Unary::Sign: return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    case Unary::Clamp: return std::isnan(x) ? x : std::min(std::max(x, alpha), beta);
  }
  return NAN;
}

double binary(Binary op, double a, double b) {
  switch (op) {
    case Binary::Add: return a + b;
    case Binary::Sub: return a - b;
    case Binary::Mul: return a * b;
    case Binary::Div: return a / b;
    case Binary::Max: return nan_max(a, b);
    case Binary::Min: return nan_min(a, b);
    case Binary::Pow: return std::pow(a, b);
    case Binary::Atan2: return std::atan2(a, b);
    case Binary::Prelu: return (a > 0 || std::isnan(a)) ? a : b * a;
    case Binary::Eq: return a == b;
    case Binary::Ne: return a != b;
    case Binary::Lt: return a < b;
    case Binary::Le: return a <= b;
    case Binary::Gt: return a > b;
    case Binary::Ge: return a >= b;
  }
  return NAN;
}

double ternary(Ternary op, double a, double b, double c, double alpha) {
  switch (op) {
    case Ternary::Where: return a != 0 ? b : c;
    // Fused, as the kernels' fma(): a product that underflows to -0 keeps its
    // sign through + 0 (a * b + c would give +0).
    case Ternary::Fma: return std::fma(a, b, c);
    case Ternary::Addcmul: return a + alpha * b * c;
    case Ternary::Clamp: return std::isnan(a) ? a : std::min(std::max(a, b), c);
  }
  return NAN;
}

bool is_integer(DType t) { return t == DType::I32 || t == DType::I8 || t == DType::U8; }

double store_as(DType t, double v, bool from_integer) {
  auto saturate = [&](double lo, double hi) {
    if (std::isnan(v)) return 0.0;
    if (from_integer) {  // wrap like a C conversion of a 32-bit int
      const std::int64_t i = std::int64_t(v);
      const double range = hi - lo + 1;
      double w = std::fmod(double(i) - lo, range);
      if (w < 0) w += range;
      return w + lo;
    }
    return std::trunc(std::min(std::max(v, lo), hi));
  };
  switch (t) {
    case DType::F32: return double(float(v));
    case DType::F64: return v;
    case DType::F16: return double(half::to_float(half::from_float(float(v))));
    case DType::BF16: return double(bfloat16::to_float(bfloat16::from_float(float(v))));
    // + 0.0: integers have no -0 (a -0.3 truncates to -0 in double).
    case DType::I32: return saturate(-2147483648.0, 2147483647.0) + 0.0;
    case DType::I8: return saturate(-128, 127) + 0.0;
    case DType::U8: return saturate(0, 255) + 0.0;
  }
  return v;
}

Operand DeviceData::operand(std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                            std::size_t offset) const {
  Operand o;
  o.mem = bytes.mem();
  o.dtype = dtype;
  o.offset = offset;
  o.count = count - offset;
  o.shape = shape.empty() ? std::vector<std::int64_t>{std::int64_t(count - offset)} : shape;
  o.strides = strides;
  return o;
}

DeviceData upload(const Queue& q, DType t, const std::vector<double>& values) {
  const std::size_t es = dtype_size(t), n = std::max<std::size_t>(values.size(), 1);
  std::vector<std::uint8_t> host(n * es, 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    std::uint8_t* p = &host[i * es];
    switch (t) {
      case DType::F32: { const float f = float(v); std::memcpy(p, &f, 4); break; }
      case DType::F64: std::memcpy(p, &v, 8); break;
      case DType::F16: { const std::uint16_t h = half::from_float(float(v)); std::memcpy(p, &h, 2); break; }
      case DType::BF16: { const std::uint16_t h = bfloat16::from_float(float(v)); std::memcpy(p, &h, 2); break; }
      case DType::I32: { const std::int32_t x = std::int32_t(v); std::memcpy(p, &x, 4); break; }
      case DType::I8: { const std::int8_t x = std::int8_t(v); std::memcpy(p, &x, 1); break; }
      case DType::U8: { const std::uint8_t x = std::uint8_t(v); std::memcpy(p, &x, 1); break; }
    }
  }
  DeviceData d{q.context().alloc<std::uint8_t>(host.size()), t, n};
  q.upload(d.bytes, std::span<const std::uint8_t>(host));
  return d;
}

std::vector<double> download(const Queue& q, const DeviceData& d) {
  const auto host = q.download(d.bytes);
  std::vector<double> out(d.count);
  const std::size_t es = dtype_size(d.dtype);
  for (std::size_t i = 0; i < d.count; ++i) {
    const std::uint8_t* p = &host[i * es];
    switch (d.dtype) {
      case DType::F32: { float f; std::memcpy(&f, p, 4); out[i] = f; break; }
      case DType::F64: std::memcpy(&out[i], p, 8); break;
      case DType::F16: { std::uint16_t h; std::memcpy(&h, p, 2); out[i] = half::to_float(h); break; }
      case DType::BF16: { std::uint16_t h; std::memcpy(&h, p, 2); out[i] = bfloat16::to_float(h); break; }
      case DType::I32: { std::int32_t x; std::memcpy(&x, p, 4); out[i] = x; break; }
      case DType::I8: out[i] = double(std::int8_t(*p)); break;
      case DType::U8: out[i] = double(*p); break;
    }
  }
  return out;
}

void poison(const Queue& q, const DeviceData& d) {
  // Finite and far outside every result the tests expect, so that an
  // unwritten element fails whatever the tolerance: -2^127 (f32), -2^1023
  // (f64, and bf16), -38048 (f16, none of the special inputs); NaN would pass where NaN
  // is expected. Integers: 0xA5 bytes (i32 -1515870811, i8 -91, u8 165).
  std::uint64_t pattern = 0xA5A5A5A5A5A5A5A5ull;
  switch (d.dtype) {
    case DType::F32: pattern = 0xFF000000ull; break;
    case DType::F64: pattern = 0xFFE0000000000000ull; break;
    case DType::F16: pattern = 0xF8A5ull; break;
    case DType::BF16: pattern = 0xFF00ull; break;  // -2^127, as f32's
    default: break;
  }
  const std::size_t es = dtype_size(d.dtype);
  std::vector<std::uint8_t> host(d.bytes.size());
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = std::uint8_t(pattern >> (8 * (i % es)));
  q.upload(d.bytes, std::span<const std::uint8_t>(host));
}

std::vector<double> random_values(DType t, std::size_t n, double lo, double hi, bool special) {
  std::vector<double> v(n);
  std::uniform_real_distribution<double> d(lo, hi);
  // The last two are subnormal in t (1e-40 is normal in f64 and 0 in f16).
  const double tiny[3][2] = {{1e-40, -3e-42}, {3e-6, -4.5e-7}, {1e-310, -4e-320}};
  const auto* sub = tiny[t == DType::F16 ? 1 : t == DType::F64 ? 2 : 0];
  const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 3e30, -7e29, 1.0, -1.0, 65504.0, sub[0], sub[1]};
  for (std::size_t i = 0; i < n; ++i) {
    double x = d(test::rng());
    if (special && !is_integer(t) && test::rng()() % 5 == 0) x = specials[test::rng()() % std::size(specials)];
    if (is_integer(t)) x = std::round(x);
    v[i] = store_as(t, x, false);
  }
  return v;
}

::testing::AssertionResult matches(DType t, double got, double ref, double rtol, double atol, bool zero_sign) {
  if (std::isnan(ref)) {
    if (std::isnan(got)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected NaN, got " << got;
  }
  const double stored = store_as(t, ref, false);
  if (std::isinf(stored) || std::isinf(got)) {
    if (got == stored) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected " << stored << " (ref " << ref << "), got " << got;
  }
  if (zero_sign && !is_integer(t) && stored == 0 && got == 0 && std::signbit(stored) != std::signbit(got))
    return ::testing::AssertionFailure() << "expected " << (std::signbit(stored) ? "-0" : "+0") << ", got "
                                         << (std::signbit(got) ? "-0" : "+0");
  if (std::fabs(got - ref) <= rtol * std::fabs(ref) + atol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << ref << ", got " << got << " (error " << std::fabs(got - ref)
                                       << ", allowed " << rtol * std::fabs(ref) + atol << ")";
}

}  // namespace optune::ref
