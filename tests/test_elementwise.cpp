// Every floating element-wise operator against the double-precision
// reference, on every size from 1 past a few packs (so every remainder
// occurs), with special values (signed zeros, infinities, NaN, subnormals of
// each type), in each floating type. Integer operators and casts:
// test_elementwise_integer.cpp; forced kernel parameters:
// test_elementwise_params.cpp.
#include <cmath>

#include "reference/elementwise_ref.hpp"
#include "support/elementwise_cases.hpp"

using namespace optune;
using test::float_types;
using test::sizes;
using test::Tol;
using test::tolerance;

namespace {

// fmin and fmax leave the sign of a zero unspecified when they compare -0
// with +0 (IEEE 754 minNum / maxNum): relu6 and clamp may give either.
bool defines_zero_sign(Unary op) { return op != Unary::Relu6 && op != Unary::Clamp; }

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
      ASSERT_TRUE(ref::matches(t, y[i], ref::unary(op, x[i], alpha, beta), tol.rtol, tol.atol, defines_zero_sign(op)))
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

TEST(Elementwise, BinaryFloat) {
  const Queue& q = test::queue();
  for (DType t : float_types()) {
    const Tol tol = tolerance(t);
    for (int o = 0; o <= int(Binary::Ge); ++o) {
      const Binary op = Binary(o);
      const bool cmp = op >= Binary::Eq;
      for (std::size_t n : sizes()) {
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

TEST(Elementwise, Ternary) {
  const Queue& q = test::queue();
  for (DType t : float_types()) {
    const Tol tol = tolerance(t);
    for (Ternary op : {Ternary::Where, Ternary::Fma, Ternary::Addcmul, Ternary::Clamp}) {
      for (std::size_t n : sizes()) {
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
          // Zero's sign: fmin/fmax (clamp) leave it open, and addcmul's
          // a + alpha b c may be contracted to an fma, where a product that
          // underflows keeps its sign through + 0 (the H100's f64 did so).
          ASSERT_TRUE(ref::matches(t, y[i], ref::ternary(op, a[i], b[i], c[i], 0.75), tol.rtol, tol.atol + atol,
                                   op != Ternary::Clamp && op != Ternary::Addcmul))
              << ternary_name(op) << " " << dtype_name(t) << " " << a[i] << " " << b[i] << " " << c[i];
        }
      }
    }
  }
}


// A condition of the values' type: NaN, -0 and subnormals are nonzero or
// zero as C says (NaN != 0 is true, -0 != 0 is false).
TEST(Elementwise, WhereOnFloatConditions) {
  const Queue& q = test::queue();
  for (DType t : float_types()) {
    const std::size_t n = 1025;
    auto a = ref::random_values(t, n, -1, 1, true);
    for (std::size_t i = 0; i < n; i += 7) a[i] = i % 2 ? NAN : -0.0;
    const auto b = ref::random_values(t, n, -4, 4, true), c = ref::random_values(t, n, -4, 4, true);
    auto da = ref::upload(q, t, a), db = ref::upload(q, t, b), dc = ref::upload(q, t, c);
    auto dy = ref::upload(q, t, std::vector<double>(n, 0));
    ref::poison(q, dy);
    ternary(q, Ternary::Where, da.operand(), db.operand(), dc.operand(), dy.operand()).wait();
    const auto y = ref::download(q, dy);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_TRUE(ref::matches(t, y[i], std::isnan(a[i]) || a[i] != 0 ? b[i] : c[i], 0, 0))
          << dtype_name(t) << " condition " << a[i] << " i=" << i;
  }
}
