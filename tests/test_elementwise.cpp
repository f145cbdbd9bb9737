// Every element-wise operator against the double-precision reference, on
// every size from 1 past a few packs (so every remainder occurs), with
// special values, in each data type it supports.
#include <cmath>

#include "reference/elementwise_ref.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

struct Tol {
  double rtol, atol;
};
Tol tolerance(DType t) {
  switch (t) {
    case DType::F64: return {1e-12, 1e-300};
    case DType::F16: return {1e-2, 1e-7};
    case DType::F32: return {1e-5, 1e-30};
    default: return {0, 0};
  }
}

std::vector<DType> float_types() {
  std::vector<DType> t{DType::F32, DType::F16};
  if (test::device().caps().fp64) t.push_back(DType::F64);
  return t;
}

const std::vector<std::size_t>& sizes() {
  static const std::vector<std::size_t> s = [] {
    std::vector<std::size_t> v;
    for (std::size_t n = 1; n <= 37; ++n) v.push_back(n);
    for (std::size_t n : {63, 64, 65, 1023, 1025, 4099}) v.push_back(n);
    return v;
  }();
  return s;
}

// Input range per operator: inside its domain mostly, with specials mixed in.
std::pair<double, double> range(Unary op) {
  switch (op) {
    case Unary::Log: case Unary::Sqrt: case Unary::Rsqrt: return {-1, 60};
    case Unary::Exp: return {-15, 15};
    default: return {-8, 8};
  }
}

void check_unary(Unary op, DType t, OpParams p, double alpha, double beta) {
  const Queue& q = test::queue();
  const Tol tol = tolerance(t);
  auto [lo, hi] = range(op);
  for (std::size_t n : sizes()) {
    const auto x = ref::random_values(t, n, lo, hi, true);
    auto dx = ref::upload(q, t, x);
    auto dy = ref::upload(q, t, std::vector<double>(n, 0));
    ref::poison(q, dy);
    unary(q, op, dx.operand(), dy.operand(), p).wait();
    const auto y = ref::download(q, dy);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_TRUE(ref::matches(t, y[i], ref::unary(op, x[i], alpha, beta), tol.rtol, tol.atol))
          << unary_name(op) << " " << dtype_name(t) << " n=" << n << " i=" << i << " x=" << x[i];
  }
}

}  // namespace

TEST(Elementwise, UnaryFloat) {
  for (DType t : float_types()) {
    for (int o = 0; o <= int(Unary::Sign); ++o) {
      const Unary op = Unary(o);
      const double alpha = op == Unary::LeakyRelu ? 0.01 : 1.0;
      check_unary(op, t, {}, alpha, 0);
    }
    check_unary(Unary::LeakyRelu, t, {0.2, NAN}, 0.2, 0);
    check_unary(Unary::Elu, t, {0.5, NAN}, 0.5, 0);
    check_unary(Unary::Clamp, t, {-0.5, 2.25}, -0.5, 2.25);
  }
}

TEST(Elementwise, UnaryInteger) {
  const Queue& q = test::queue();
  for (DType t : {DType::I32, DType::I8, DType::U8}) {
    for (Unary op : {Unary::Copy, Unary::Neg, Unary::Abs, Unary::Relu, Unary::Relu6, Unary::Square, Unary::Sign,
                     Unary::Clamp}) {
      for (std::size_t n : {1u, 5u, 16u, 17u, 33u, 1000u}) {
        const double lo = t == DType::U8 ? 0 : t == DType::I8 ? -128 : -3000, hi = t == DType::U8 ? 255 : t == DType::I8 ? 127 : 3000;
        const auto x = ref::random_values(t, n, lo, hi, false);
        auto dx = ref::upload(q, t, x);
        auto dy = ref::upload(q, t, std::vector<double>(n, 0));
        ref::poison(q, dy);
        unary(q, op, dx.operand(), dy.operand(), op == Unary::Clamp ? OpParams{-5, 40} : OpParams{}).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i) {
          const double want = ref::store_as(t, ref::unary(op, x[i], -5, 40), true);
          ASSERT_EQ(y[i], want) << unary_name(op) << " " << dtype_name(t) << " x=" << x[i];
        }
      }
    }
  }
}

TEST(Elementwise, BinaryFloat) {
  const Queue& q = test::queue();
  for (DType t : float_types()) {
    const Tol tol = tolerance(t);
    for (int o = 0; o <= int(Binary::Ge); ++o) {
      const Binary op = Binary(o);
      const bool cmp = op >= Binary::Eq;
      for (std::size_t n : {1u, 2u, 3u, 7u, 8u, 9u, 31u, 1025u}) {
        const auto a = ref::random_values(t, n, op == Binary::Pow ? 0 : -6, 6, true);
        auto b = ref::random_values(t, n, op == Binary::Pow ? -3 : -6, op == Binary::Pow ? 3 : 6, true);
        if (cmp) for (std::size_t i = 0; i < n; i += 3) b[i] = a[i];  // equal pairs occur
        const DType yt = cmp ? DType::U8 : t;
        auto da = ref::upload(q, t, a), db = ref::upload(q, t, b);
        auto dy = ref::upload(q, yt, std::vector<double>(n, 0));
        ref::poison(q, dy);
        binary(q, op, da.operand(), db.operand(), dy.operand()).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_TRUE(ref::matches(yt, y[i], ref::binary(op, a[i], b[i]), tol.rtol, tol.atol))
              << binary_name(op) << " " << dtype_name(t) << " a=" << a[i] << " b=" << b[i];
        // Scalar on the right and on the left.
        const double s = ref::store_as(t, -1.75, false);
        ref::poison(q, dy);
        binary(q, op, da.operand(), s, dy.operand()).wait();
        auto ys = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_TRUE(ref::matches(yt, ys[i], ref::binary(op, a[i], s), tol.rtol, tol.atol)) << binary_name(op);
        ref::poison(q, dy);
        binary(q, op, s, db.operand(), dy.operand()).wait();
        ys = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_TRUE(ref::matches(yt, ys[i], ref::binary(op, s, b[i]), tol.rtol, tol.atol)) << binary_name(op);
      }
    }
  }
}

TEST(Elementwise, BinaryInteger) {
  const Queue& q = test::queue();
  for (DType t : {DType::I32, DType::I8, DType::U8}) {
    for (Binary op : {Binary::Add, Binary::Sub, Binary::Mul, Binary::Max, Binary::Min, Binary::Prelu, Binary::Eq,
                      Binary::Lt, Binary::Ge}) {
      const std::size_t n = 77;
      const double lo = t == DType::U8 ? 0 : -100, hi = 100;
      const auto a = ref::random_values(t, n, lo, hi, false), b = ref::random_values(t, n, lo, hi, false);
      auto da = ref::upload(q, t, a), db = ref::upload(q, t, b);
      const DType yt = op >= Binary::Eq ? DType::U8 : t;
      auto dy = ref::upload(q, yt, std::vector<double>(n, 0));
      ref::poison(q, dy);
      binary(q, op, da.operand(), db.operand(), dy.operand()).wait();
      const auto y = ref::download(q, dy);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], ref::store_as(yt, ref::binary(op, a[i], b[i]), true))
            << binary_name(op) << " " << dtype_name(t) << " a=" << a[i] << " b=" << b[i];
    }
  }
}

TEST(Elementwise, Ternary) {
  const Queue& q = test::queue();
  for (DType t : float_types()) {
    const Tol tol = tolerance(t);
    for (Ternary op : {Ternary::Where, Ternary::Fma, Ternary::Addcmul, Ternary::Clamp}) {
      for (std::size_t n : {1u, 3u, 4u, 5u, 17u, 1023u}) {
        const DType at = op == Ternary::Where ? DType::U8 : t;
        auto a = op == Ternary::Where ? ref::random_values(DType::U8, n, 0, 2, false) : ref::random_values(t, n, -4, 4, true);
        auto b = ref::random_values(t, n, -4, 4, true), c = ref::random_values(t, n, -4, 4, true);
        if (op == Ternary::Clamp)
          for (std::size_t i = 0; i < n; ++i) b[i] = -std::fabs(b[i]), c[i] = std::fabs(c[i]);
        auto da = ref::upload(q, at, a), db = ref::upload(q, t, b), dc = ref::upload(q, t, c);
        auto dy = ref::upload(q, t, std::vector<double>(n, 0));
        ref::poison(q, dy);
        ternary(q, op, da.operand(), db.operand(), dc.operand(), dy.operand(), {0.75, NAN}).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i) {
          // Sums may cancel: the error is relative to the terms, not the result.
          const double terms = std::fabs(a[i]) + std::fabs(b[i] * c[i]) + std::fabs(c[i]);
          const double atol = std::isfinite(terms) ? tol.rtol * terms : 0.0;
          ASSERT_TRUE(ref::matches(t, y[i], ref::ternary(op, a[i], b[i], c[i], 0.75), tol.rtol, tol.atol + atol))
              << ternary_name(op) << " " << dtype_name(t) << " " << a[i] << " " << b[i] << " " << c[i];
        }
      }
    }
  }
}

TEST(Elementwise, CastsBetweenEveryType) {
  const Queue& q = test::queue();
  std::vector<DType> types{DType::F32, DType::F16, DType::I32, DType::I8, DType::U8};
  if (test::device().caps().fp64) types.push_back(DType::F64);
  for (DType from : types)
    for (DType to : types) {
      const std::size_t n = 131;
      const auto x = ref::random_values(from, n, -400, 400, !ref::is_integer(from));
      auto dx = ref::upload(q, from, x);
      auto dy = ref::upload(q, to, std::vector<double>(n, 0));
      ref::poison(q, dy);
      cast(q, dx.operand(), dy.operand()).wait();
      const auto y = ref::download(q, dy);
      for (std::size_t i = 0; i < n; ++i) {
        double want = x[i];
        // f64 -> f16 goes through f32 on the device (documented double rounding).
        if (from == DType::F64 && to == DType::F16) want = double(float(want));
        want = ref::store_as(to, want, ref::is_integer(from));
        if (std::isnan(want)) {
          ASSERT_TRUE(std::isnan(y[i])) << dtype_name(from) << "->" << dtype_name(to);
        } else {
          ASSERT_EQ(y[i], want) << dtype_name(from) << "->" << dtype_name(to) << " x=" << x[i];
        }
      }
    }
}
