// Broadcasting, strided views, misaligned offsets, in place, custom
// expressions, fused chains and empty tensors. Bad input:
// test_elementwise_errors.cpp.
#include <cmath>
#include <functional>

#include "reference/elementwise_ref.hpp"
#include "support/elementwise_cases.hpp"

using namespace optune;

namespace {

// Element offset of a multi-index under strides.
std::int64_t at(const std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& strides) {
  std::int64_t o = 0;
  for (std::size_t d = 0; d < idx.size(); ++d) o += idx[d] * strides[d];
  return o;
}
std::vector<std::int64_t> dense(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size());
  std::int64_t r = 1;
  for (std::size_t d = shape.size(); d-- > 0;) s[d] = r, r *= shape[d];
  return s;
}
// Calls f(index) for every multi-index of shape.
template <class F>
void each(const std::vector<std::int64_t>& shape, F f) {
  std::vector<std::int64_t> idx(shape.size(), 0);
  std::int64_t total = 1;
  for (auto d : shape) total *= d;
  for (std::int64_t k = 0; k < total; ++k) {
    f(idx);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}
// The broadcast element of an operand of shape s for an output index.
std::int64_t bcast(const std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& s,
                   const std::vector<std::int64_t>& strides) {
  std::int64_t o = 0;
  const std::size_t lead = idx.size() - s.size();
  for (std::size_t d = 0; d < s.size(); ++d) o += (s[d] == 1 ? 0 : idx[lead + d]) * strides[d];
  return o;
}

Status status_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.status();
  }
  return Status::Success;
}

}  // namespace

TEST(ElementwiseShapes, Broadcasting) {
  const Queue& q = test::queue();
  struct Case { std::vector<std::int64_t> a, b, y; };
  const Case cases[] = {{{3, 1, 5}, {4, 1}, {3, 4, 5}}, {{1}, {7}, {7}}, {{6, 33}, {33}, {6, 33}},
                        {{2, 1, 3, 1, 2, 1, 2, 3}, {1, 1, 2, 1, 3, 1, 3}, {2, 1, 3, 2, 2, 3, 2, 3}},
                        {{5, 1}, {1, 9}, {5, 9}}, {{}, {4}, {4}}};
  for (const Case& c : cases) {
    auto count = [](const std::vector<std::int64_t>& s) { std::int64_t n = 1; for (auto d : s) n *= d; return std::size_t(n); };
    const auto a = ref::random_values(DType::F32, count(c.a), -3, 3, false);
    const auto b = ref::random_values(DType::F32, count(c.b), -3, 3, false);
    auto da = ref::upload(q, DType::F32, a), db = ref::upload(q, DType::F32, b);
    auto dy = ref::upload(q, DType::F32, std::vector<double>(count(c.y), 0));
    ref::poison(q, dy);
    binary(q, Binary::Sub, da.operand(c.a), db.operand(c.b), dy.operand(c.y)).wait();
    const auto y = ref::download(q, dy);
    const auto sa = dense(c.a), sb = dense(c.b), sy = dense(c.y);
    each(c.y, [&](const std::vector<std::int64_t>& idx) {
      const double want = double(float(a[std::size_t(bcast(idx, c.a, sa))] - b[std::size_t(bcast(idx, c.b, sb))]));
      ASSERT_EQ(y[std::size_t(at(idx, sy))], want);
    });
  }
}

TEST(ElementwiseShapes, StridedViewsOffsetsAndReversal) {
  const Queue& q = test::queue();
  for (DType t : {DType::F32, DType::F16, DType::U8}) {
    // A 5x7 transpose view of a 7x5 buffer starting at element 3.
    const auto x = ref::random_values(t, 3 + 35, 0, 100, false);
    auto dx = ref::upload(q, t, x);
    auto dy = ref::upload(q, t, std::vector<double>(35, 0));
    ref::poison(q, dy);
    unary(q, Unary::Copy, dx.operand({5, 7}, {1, 5}, 3), dy.operand({5, 7})).wait();
    auto y = ref::download(q, dy);
    for (std::int64_t i = 0; i < 5; ++i)
      for (std::int64_t j = 0; j < 7; ++j) ASSERT_EQ(y[std::size_t(i * 7 + j)], x[std::size_t(3 + i + 5 * j)]);
    // A reversed view: stride -1 from the last element.
    ref::poison(q, dy);
    unary(q, Unary::Relu, dx.operand({35}, {-1}, 37), dy.operand({35})).wait();
    y = ref::download(q, dy);
    for (std::size_t i = 0; i < 35; ++i) ASSERT_EQ(y[i], ref::unary(Unary::Relu, x[37 - i]));
  }
}

// Operands at offsets that allow no pack, or packs of 2 only (every offset
// even): the pack width falls back, and elements around y stay untouched.
// Unary abs in every type; binary sub, ternary fma (where, for integers) and
// casts in a few. The even offsets (one more kernel each) for unary only.
TEST(ElementwiseShapes, MisalignedOffsets) {
  const Queue& q = test::queue();
  const bool fp64 = test::device().caps().fp64;
  const DType f64_or_f32 = fp64 ? DType::F64 : DType::F32;
  struct Combo {
    int kind;  // 0 unary abs, 1 binary sub, 2 ternary, 3 cast to yt
    DType t, yt;
  };
  std::vector<Combo> combos;
  for (DType t : {DType::F32, DType::F16, DType::I8, DType::U8, DType::I32}) combos.push_back({0, t, t});
  if (fp64) combos.push_back({0, DType::F64, DType::F64});
  for (DType t : {DType::F32, DType::U8, f64_or_f32}) combos.push_back({1, t, t});
  for (DType t : {DType::F16, DType::I32, f64_or_f32}) combos.push_back({2, t, t});
  combos.push_back({3, DType::F32, DType::F16});
  combos.push_back({3, DType::U8, DType::F32});
  combos.push_back({3, f64_or_f32, DType::I32});
  const std::vector<std::vector<std::size_t>> offset_sets{{1, 2, 3, 7}, {3, 5, 2, 1}, {5, 0, 0, 3}, {2, 6, 10, 14}};
  for (const Combo& cb : combos)
    for (std::size_t s = 0; s < offset_sets.size() - (cb.kind == 0 ? 0 : 1); ++s)
      for (std::size_t n : {1u, 17u, 70u}) {
        const auto& offs = offset_sets[s];
        const DType t = cb.t, yt = cb.yt;
        const bool integer = ref::is_integer(t);
        const std::size_t inputs = cb.kind == 0 || cb.kind == 3 ? 1 : cb.kind == 1 ? 2 : 3;
        std::vector<std::vector<double>> x;
        std::vector<ref::DeviceData> dx;
        std::vector<Operand> ox;
        for (std::size_t k = 0; k < inputs; ++k) {
          x.push_back(ref::random_values(t, n + offs[k], t == DType::U8 ? 0 : -50, 50, false));
          dx.push_back(ref::upload(q, t, x.back()));
        }
        for (std::size_t k = 0; k < inputs; ++k) ox.push_back(dx[k].operand({std::int64_t(n)}, {}, offs[k]));
        const std::size_t yo = offs[3];
        auto dy = ref::upload(q, yt, std::vector<double>(n + yo + 3, 0));
        ref::poison(q, dy);
        const auto before = ref::download(q, dy);
        const Operand oy = dy.operand({std::int64_t(n)}, {}, yo);
        if (cb.kind == 0) unary(q, Unary::Abs, ox[0], oy).wait();
        if (cb.kind == 1) binary(q, Binary::Sub, ox[0], ox[1], oy).wait();
        if (cb.kind == 2) ternary(q, integer ? Ternary::Where : Ternary::Fma, ox[0], ox[1], ox[2], oy).wait();
        if (cb.kind == 3) cast(q, ox[0], oy).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i) {
          const auto in = [&](std::size_t k) { return x[k][offs[k] + i]; };
          double want = cb.kind == 0   ? std::fabs(in(0))
                        : cb.kind == 1 ? in(0) - in(1)
                        : cb.kind == 2 ? (integer ? (in(0) != 0 ? in(1) : in(2)) : in(0) * in(1) + in(2))
                                       : in(0);
          want = ref::store_as(yt, want, integer);
          // fma rounds once where a * b + c here rounds twice: with the terms
          // cancelling, the difference is relative to their size, not the
          // result's (f64: 8.6e-16 against an allowed 8.3e-16 once).
          const double rtol = test::tolerance(yt).rtol;
          const double atol = cb.kind == 2 && !integer ? rtol * (std::fabs(in(0) * in(1)) + std::fabs(in(2))) : 0;
          ASSERT_TRUE(ref::matches(yt, y[yo + i], want, rtol, atol))
              << dtype_name(t) << "->" << dtype_name(yt) << " kind " << cb.kind << " offsets "
              << ::testing::PrintToString(offs) << " n=" << n << " i=" << i;
        }
        for (std::size_t i = 0; i < y.size(); ++i)
          if (i < yo || i >= yo + n) ASSERT_EQ(y[i], before[i]) << "element " << i << " outside y was written";
      }
}

TEST(ElementwiseShapes, InPlace) {
  const Queue& q = test::queue();
  const auto x = ref::random_values(DType::F32, 1001, -5, 5, true);
  auto dx = ref::upload(q, DType::F32, x);
  unary(q, Unary::Sigmoid, dx.operand(), dx.operand()).wait();
  const auto y = ref::download(q, dx);
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(ref::matches(DType::F32, y[i], ref::unary(Unary::Sigmoid, x[i]), 1e-5, 1e-30));
  // Binary in place on the second operand, with a broadcast first operand.
  auto b = ref::upload(q, DType::F32, std::vector<double>{2.0});
  binary(q, Binary::Mul, b.operand({1}), dx.operand(), dx.operand()).wait();
  const auto z = ref::download(q, dx);
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_TRUE(ref::matches(DType::F32, z[i], 2.0 * y[i], 0, 0));
}

TEST(ElementwiseShapes, CustomExpressions) {
  const Queue& q = test::queue();
  const std::size_t n = 999;
  const auto x = ref::random_values(DType::F32, n, -3, 3, true), b = ref::random_values(DType::F32, n, -3, 3, false);
  auto dx = ref::upload(q, DType::F32, x), db = ref::upload(q, DType::F32, b);
  auto dy = ref::upload(q, DType::F32, std::vector<double>(n, 0)), dz = ref::upload(q, DType::F32, std::vector<double>(n, 0));
  ref::poison(q, dy);
  elementwise(q, "y = x > 0 ? x : a * x", {dx.operand()}, {dy.operand()}, {{"a", 0.1}}).wait();
  auto y = ref::download(q, dy);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(ref::matches(DType::F32, y[i], x[i] > 0 ? x[i] : double(0.1f) * x[i], 1e-6, 1e-30)) << x[i];
  // Two outputs, named operands, temporaries and a comment.
  ref::poison(q, dy);
  ref::poison(q, dz);
  Expression e{"real t = u + w; // the sum\n lo = fmin(t, (real)0);\n hi = t * t;", {"u", "w"}, {"lo", "hi"}};
  elementwise(q, e, {dx.operand(), db.operand()}, {dy.operand(), dz.operand()}).wait();
  y = ref::download(q, dy);
  const auto z = ref::download(q, dz);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = double(float(x[i] + b[i]));
    ASSERT_TRUE(ref::matches(DType::F32, y[i], std::fmin(t, 0.0), 1e-6, 1e-30));  // fmin drops a NaN
    ASSERT_TRUE(ref::matches(DType::F32, z[i], t * t, 1e-6, 1e-30));
  }
  // A bad expression carries the compiler's message.
  try {
    elementwise(q, "y = x + undefined_name;", {dx.operand()}, {dy.operand()});
    FAIL();
  } catch (const Error& err) {
    EXPECT_EQ(err.status(), Status::BuildFailure);
    EXPECT_NE(std::string(err.what()).find("undefined_name"), std::string::npos) << err.what();
  }
  EXPECT_EQ(status_of([&] { elementwise(q, "#define X 1\ny = x;", {dx.operand()}, {dy.operand()}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { elementwise(q, Expression{"y = i0;", {"i0"}, {}}, {dx.operand()}, {dy.operand()}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { elementwise(q, "y = x;", {dx.operand()}, {dy.operand()}, {{"x", 1.0}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { elementwise(q, "y = x;", {dx.operand()}, {dy.operand()}, {{"VW", 1.0}}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { elementwise(q, "y = x;", {dx.operand(), dx.operand(), dx.operand(), dx.operand(), dx.operand()}, {dy.operand()}); }), Status::InvalidArgument);
}

TEST(ElementwiseShapes, FusedBiasGelu) {
  const Queue& q = test::queue();
  const std::int64_t rows = 37, cols = 129;
  const auto x = ref::random_values(DType::F32, std::size_t(rows * cols), -4, 4, false);
  const auto bias = ref::random_values(DType::F32, std::size_t(cols), -1, 1, false);
  auto dx = ref::upload(q, DType::F32, x), db = ref::upload(q, DType::F32, bias);
  auto dy = ref::upload(q, DType::F32, std::vector<double>(x.size(), 0));
  ref::poison(q, dy);
  fused(q, {Binary::Add, Unary::Gelu, {Binary::Mul, 0.5}}, {dx.operand({rows, cols}), db.operand({cols})},
        dy.operand({rows, cols})).wait();
  const auto y = ref::download(q, dy);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::size_t i = std::size_t(r * cols + c);
      const double v = double(float(x[i] + bias[std::size_t(c)]));
      ASSERT_TRUE(ref::matches(DType::F32, y[i], 0.5 * ref::unary(Unary::Gelu, v), 1e-5, 1e-30)) << r << "," << c;
    }
  EXPECT_EQ(status_of([&] { fused(q, {Binary::Add}, {dx.operand()}, dy.operand()); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { fused(q, {}, {dx.operand()}, dy.operand()); }), Status::InvalidArgument);
}

TEST(ElementwiseShapes, EmptyTensorsDoNothing) {
  const Queue& q = test::queue();
  auto dx = ref::upload(q, DType::F32, {1.0, 2.0});
  auto dy = ref::upload(q, DType::F32, {5.0, 6.0});
  Event e = unary(q, Unary::Neg, dx.operand({0, 2}), dy.operand({0, 2}));
  e.wait();
  EXPECT_EQ(ref::download(q, dy), (std::vector<double>{5.0, 6.0}));
}
