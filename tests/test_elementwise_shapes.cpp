// Broadcasting, strided views, offsets, in place, custom expressions, fused
// chains, non-default kernel configurations, and every bad input.
#include <cmath>
#include <functional>

#include "kernels/elementwise/elementwise.hpp"
#include "ops/elementwise_ops.hpp"
#include "reference/elementwise_ref.hpp"
#include "support/test_support.hpp"

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
  // Misaligned offsets for every data type: the pack width falls back.
  for (DType t : {DType::F32, DType::F16, DType::I8, DType::I32}) {
    for (std::size_t off : {1u, 2u, 3u, 5u}) {
      const std::size_t n = 70;
      const auto x = ref::random_values(t, n + off, -50, 50, false);
      auto dx = ref::upload(q, t, x);
      auto dy = ref::upload(q, t, std::vector<double>(n + 8, 0));
      ref::poison(q, dy);
      const auto before = ref::download(q, dy);
      unary(q, Unary::Abs, dx.operand({std::int64_t(n)}, {}, off), dy.operand({std::int64_t(n)}, {}, 7)).wait();
      const auto y = ref::download(q, dy);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(y[7 + i], ref::store_as(t, std::fabs(x[off + i]), ref::is_integer(t))) << dtype_name(t) << off;
      for (std::size_t i : {0u, 6u, 77u}) ASSERT_EQ(y[i], before[i]) << "element outside the view was written";
    }
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

TEST(ElementwiseShapes, EveryKernelConfigurationAgrees) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const auto& fam = static_cast<const detail::ElementwiseFamily&>(detail::find_family("elementwise"));
  const std::size_t n = 1031;
  const auto x = ref::random_values(DType::F32, n, -5, 5, true);
  auto dx = ref::upload(q, DType::F32, x), dy = ref::upload(q, DType::F32, std::vector<double>(n, 0));
  Operand ox = dx.operand(), oy = dy.operand();
  detail::ElementwiseCall call{"gelu", "o0 = ((real)0.5 * i0 * ew_erfc(-i0 * (real)0.70710678118654752));", {&ox}, {&oy}, {}, detail::ComputeType::Float};
  int tried = 0;
  // Every VW x GRID_STRIDE x EPT, with the work-group size and wave count
  // cycling through their values (each compile costs a second on PoCL).
  const std::int64_t wgs_values[] = {64, 256, 1024}, waves_values[] = {1, 4};
  int config = 0;
  for (std::int64_t vw : {0, 1, 2, 4, 8, 16})
    for (std::int64_t gs : {0, 1})
      for (std::int64_t ept : {1, 2, 4}) {
          ++config;
          const std::int64_t wgs = wgs_values[config % 3], waves = gs ? waves_values[config % 2] : 4;
          const detail::Params p{{"VW", vw}, {"WGS", wgs}, {"GRID_STRIDE", gs}, {"WAVES", waves}, {"EPT", ept}};
          detail::Problem pr;
          pr.sizes = {std::int64_t(n)};
          pr.extra = {{"contiguous", 1}, {"max_elem_bytes", 4}, {"align", 16}};
          if (!fam.check(p, caps, pr).empty()) continue;
          ref::poison(q, dy);
          detail::run_elementwise(q, call, {}, &p).wait();
          const auto y = ref::download(q, dy);
          for (std::size_t i = 0; i < n; ++i)
            ASSERT_TRUE(ref::matches(DType::F32, y[i], ref::unary(Unary::Gelu, x[i]), 1e-5, 1e-30)) << detail::params_to_json(p);
          ++tried;
        }
  EXPECT_GE(tried, 10);
}

TEST(ElementwiseShapes, EmptyTensorsDoNothing) {
  const Queue& q = test::queue();
  auto dx = ref::upload(q, DType::F32, {1.0, 2.0});
  auto dy = ref::upload(q, DType::F32, {5.0, 6.0});
  Event e = unary(q, Unary::Neg, dx.operand({0, 2}), dy.operand({0, 2}));
  e.wait();
  EXPECT_EQ(ref::download(q, dy), (std::vector<double>{5.0, 6.0}));
}

TEST(ElementwiseShapes, BadInputs) {
  const Queue& q = test::queue();
  auto f = ref::upload(q, DType::F32, std::vector<double>(24, 1.0));
  auto g = ref::upload(q, DType::F32, std::vector<double>(24, 1.0));
  auto h = ref::upload(q, DType::F16, std::vector<double>(24, 1.0));
  auto i = ref::upload(q, DType::I32, std::vector<double>(24, 1.0));
  // Shapes that do not broadcast to the output.
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, f.operand({4, 6}), g.operand({4}), g.operand({4, 6})); }), Status::InvalidShape);
  // Output shape differs from the broadcast shape (inputs never shrink).
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, f.operand({4, 6}), g.operand({6}), g.operand({6})); }), Status::InvalidShape);
  // Outputs of different shapes.
  EXPECT_EQ(status_of([&] { elementwise(q, "y = x; z = x;", {f.operand({24})}, {g.operand({24}), h.operand({4, 6})}); }), Status::InvalidShape);
  // Data types that differ.
  EXPECT_EQ(status_of([&] { unary(q, Unary::Relu, f.operand(), h.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, f.operand(), h.operand(), g.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Log, i.operand(), i.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { binary(q, Binary::Div, i.operand(), i.operand(), i.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { ternary(q, Ternary::Where, f.operand(), g.operand(), g.operand(), h.operand()); }), Status::InvalidType);
  EXPECT_EQ(status_of([&] { ternary(q, Ternary::Where, h.operand(), g.operand(), g.operand(), g.operand()); }), Status::InvalidType);
  // Buffer too small for the shape, or for an offset.
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({5, 5}), g.operand({5, 5})); }), Status::BufferTooSmall);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({24}, {}, 1), g.operand({24})); }), Status::BufferTooSmall);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({4, 6}, {7, 1}), g.operand({4, 6})); }), Status::BufferTooSmall);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({24}, {-1}), g.operand({24})); }), Status::BufferTooSmall);
  // Too many dimensions, negative dimensions, stride count.
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({1, 1, 1, 1, 1, 1, 1, 1, 24}), g.operand({1, 1, 1, 1, 1, 1, 1, 1, 24})); }), Status::InvalidShape);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({-1}), g.operand({-1})); }), Status::InvalidShape);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({4, 6}, {6}), g.operand({4, 6})); }), Status::InvalidShape);
  // An output that writes an element twice, or overlaps an input partially.
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({4, 6}), g.operand({4, 6}, {0, 1})); }), Status::InvalidShape);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, f.operand({20}), f.operand({20}, {}, 2)); }), Status::InvalidArgument);
  // Parameters and scalars.
  EXPECT_EQ(status_of([&] { unary(q, Unary::Clamp, f.operand(), g.operand()); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Clamp, f.operand(), g.operand(), {2, 1}); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([&] { binary(q, Binary::Add, i.operand(), 0.5, i.operand()); }), Status::InvalidArgument);
  // Empty handles and foreign contexts.
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, Operand(), g.operand()); }), Status::InvalidArgument);
  Context other(q.device());
  Buffer<float> foreign = other.alloc<float>(24);
  EXPECT_EQ(status_of([&] { unary(q, Unary::Neg, Operand(foreign), g.operand()); }), Status::InvalidArgument);
}
