// bf16 storage outside GEMM, against the double-precision references on
// values already rounded to bf16: element-wise operators (unary, binary,
// ternary, mixed with f32), casts between bf16 and every type, reductions
// over rows and columns, softmax and the norms, with outputs poisoned and
// sizes around every pack width (bf16 packs are 8 on CUDA, 16 on OpenCL).
// The host type's conversions are in test_types.cpp; GEMM in
// test_gemm_bf16.cpp.
#include <cmath>

#include "reference/elementwise_ref.hpp"
#include "reference/reduce_ref.hpp"
#include "support/elementwise_cases.hpp"

using namespace optune;
using test::Tol;
using test::tolerance;

namespace {

const DType B = DType::BF16;

// Every remainder of 8- and 16-wide packs, and one long run.
const std::size_t kSizes[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 1029};

// bf16 keeps 8 significant bits: results are compared after rounding the
// reference to bf16, within about two bf16 ulps (test::tolerance).
TEST(Bf16, Unary) {
  const Queue& q = test::queue();
  const Tol tol = tolerance(B);
  for (Unary op : {Unary::Copy, Unary::Neg, Unary::Abs, Unary::Relu, Unary::Gelu, Unary::Silu, Unary::Sigmoid,
                   Unary::Tanh, Unary::Exp, Unary::Sqrt, Unary::Log}) {
    const bool positive = op == Unary::Sqrt || op == Unary::Log;
    for (std::size_t n : kSizes) {
      const auto x = ref::random_values(B, n, positive ? 0.01 : -8, 8, true);
      auto dx = ref::upload(q, B, x), dy = ref::upload(q, B, std::vector<double>(n, 0));
      ref::poison(q, dy);
      unary(q, op, dx.operand(), dy.operand()).wait();
      const auto y = ref::download(q, dy);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_TRUE(ref::matches(B, y[i], ref::unary(op, x[i]), tol.rtol, tol.atol, false))
            << unary_name(op) << " n=" << n << " i=" << i << " x=" << x[i];
    }
  }
}

TEST(Bf16, BinaryAndTernary) {
  const Queue& q = test::queue();
  const Tol tol = tolerance(B);
  for (Binary op : {Binary::Add, Binary::Sub, Binary::Mul, Binary::Div, Binary::Max, Binary::Lt}) {
    for (std::size_t n : kSizes) {
      {
        const DType tb = B;
        const auto a = ref::random_values(B, n, -6, 6, true), b = ref::random_values(tb, n, -6, 6, true);
        const DType yt = op == Binary::Lt ? DType::U8 : B;
        auto da = ref::upload(q, B, a), db = ref::upload(q, tb, b), dy = ref::upload(q, yt, std::vector<double>(n, 0));
        ref::poison(q, dy);
        binary(q, op, da.operand(), db.operand(), dy.operand()).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_TRUE(ref::matches(yt, y[i], ref::binary(op, a[i], b[i]), tol.rtol, tol.atol))
              << binary_name(op) << " n=" << n << " a=" << a[i] << " b=" << b[i];
      }
    }
  }
  for (std::size_t n : kSizes) {
    const auto a = ref::random_values(B, n, -4, 4, false), b = ref::random_values(B, n, -4, 4, false),
               c = ref::random_values(B, n, -4, 4, false);
    auto da = ref::upload(q, B, a), db = ref::upload(q, B, b), dc = ref::upload(q, B, c);
    auto dy = ref::upload(q, B, std::vector<double>(n, 0));
    ref::poison(q, dy);
    ternary(q, Ternary::Fma, da.operand(), db.operand(), dc.operand(), dy.operand()).wait();
    const auto y = ref::download(q, dy);
    for (std::size_t i = 0; i < n; ++i) {
      const double terms = std::fabs(a[i] * b[i]) + std::fabs(c[i]);  // sums may cancel
      ASSERT_TRUE(ref::matches(B, y[i], ref::ternary(Ternary::Fma, a[i], b[i], c[i]), tol.rtol, tol.rtol * terms))
          << "fma " << a[i] << " " << b[i] << " " << c[i];
    }
  }
}

// bf16 to and from every type: to bf16 rounds to nearest even (f64 and i32
// through f32 first, as on the host: bfloat16(float(v))); from bf16 is
// exact where the target holds the value, saturating to integers.
TEST(Bf16, CastsToAndFromEveryType) {
  const Queue& q = test::queue();
  std::vector<DType> types{DType::F32, DType::F16, DType::BF16, DType::I32, DType::I8, DType::U8};
  if (test::device().caps().fp64) types.push_back(DType::F64);
  for (DType other : types)
    for (bool to_bf16 : {true, false}) {
      const DType from = to_bf16 ? other : B, to = to_bf16 ? B : other;
      for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(17), std::size_t(1029)}) {
        const auto x = ref::random_values(from, n, -400, 400, !ref::is_integer(from));
        auto dx = ref::upload(q, from, x), dy = ref::upload(q, to, std::vector<double>(n, 0));
        ref::poison(q, dy);
        cast(q, dx.operand(), dy.operand()).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i) {
          double want = x[i];
          if (from == DType::F64 && (to == DType::F16 || to == B)) want = double(float(want));
          want = ref::store_as(to, want, ref::is_integer(from));
          ASSERT_TRUE(ref::matches(to, y[i], want, 0, 0))
              << dtype_name(from) << "->" << dtype_name(to) << " n=" << n << " x=" << x[i];
        }
      }
    }
}

// Sums and means (f32 accumulation), max and argmax over the last axis and
// over the first (the rows and columns kernels).
TEST(Bf16, Reductions) {
  const Queue& q = test::queue();
  for (auto [rows, cols] : {std::pair<std::int64_t, std::int64_t>{3, 1029}, {257, 17}, {1, 8}}) {
    const std::vector<std::int64_t> shape{rows, cols};
    const auto x = ref::random_values(B, std::size_t(rows * cols), -4, 4, false);
    auto dx = ref::upload(q, B, x);
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::ArgMax})
      for (int axis : {0, 1}) {
        const ref::Reduced want = ref::reduce(op, x, shape, {axis});
        const DType yt = op == ReduceOp::ArgMax ? DType::I32 : B;
        auto dy = ref::upload(q, yt, std::vector<double>(want.value.size(), 0));
        ref::poison(q, dy);
        reduce(q, op, dx.operand(shape), {axis}, false, dy.operand()).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < y.size(); ++i) {
          // The f32 sum's error, then one bf16 rounding of the result.
          const double w = yt == B ? ref::store_as(B, want.value[i], false) : want.value[i];
          const double bound = 0x1p-24 * double(want.count) * want.scale[i] + 0x1p-8 * std::fabs(want.value[i]);
          ASSERT_TRUE(ref::close(y[i], w, 1.0, bound))
              << reduce_op_name(op) << " axis " << axis << " " << rows << "x" << cols << " i=" << i;
        }
      }
  }
}

TEST(Bf16, SoftmaxAndNorms) {
  const Queue& q = test::queue();
  for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{5, 1029}, {33, 16}, {2, 7}}) {
    const std::vector<std::int64_t> shape{std::int64_t(rows), std::int64_t(cols)};
    const auto x = ref::random_values(B, rows * cols, -3, 3, false);
    auto dx = ref::upload(q, B, x);
    auto dy = ref::upload(q, B, std::vector<double>(rows * cols, 0));
    for (int axis : {0, 1}) {
      ref::poison(q, dy);
      softmax(q, dx.operand(shape), axis, dy.operand(shape)).wait();
      const auto y = ref::download(q, dy);
      const auto want = ref::softmax(x, shape, axis, false);
      for (std::size_t i = 0; i < y.size(); ++i)
        ASSERT_TRUE(ref::close(y[i], want[i], std::fabs(want[i]), 2e-2, 1e-30)) << "softmax axis " << axis << " i=" << i;
    }
    const auto gamma = ref::random_values(B, cols, 0.5, 1.5, false), beta = ref::random_values(B, cols, -1, 1, false);
    auto dg = ref::upload(q, B, gamma), db = ref::upload(q, B, beta);
    auto dmean = ref::upload(q, B, std::vector<double>(rows, 0)), drstd = ref::upload(q, B, std::vector<double>(rows, 0));
    ref::poison(q, dy);
    ref::poison(q, dmean);
    layer_norm(q, dx.operand(shape), dg.operand({std::int64_t(cols)}), db.operand({std::int64_t(cols)}), 1e-5,
               dy.operand(shape), dmean.operand({std::int64_t(rows)}), drstd.operand({std::int64_t(rows)}))
        .wait();
    const ref::Normed ln = ref::layer_norm(x, rows, cols, &gamma, &beta, 1e-5);
    const auto y = ref::download(q, dy), mean = ref::download(q, dmean), rstd = ref::download(q, drstd);
    // Outputs of order 1 after normalising: bf16 rounding (2^-9) of the
    // output plus of the result's parts, relative to max(|y|, 1).
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_TRUE(ref::close(y[i], ln.y[i], std::max(1.0, std::fabs(ln.y[i])), 2e-2)) << "layer_norm i=" << i;
    for (std::size_t r = 0; r < rows; ++r) {
      ASSERT_TRUE(ref::close(mean[r], ln.mean[r], std::max(1e-2, std::fabs(ln.mean[r])), 2e-2)) << "mean " << r;
      ASSERT_TRUE(ref::close(rstd[r], ln.rstd[r], std::fabs(ln.rstd[r]), 2e-2)) << "rstd " << r;
    }
    ref::poison(q, dy);
    rms_norm(q, dx.operand(shape), dg.operand({std::int64_t(cols)}), 1e-5, dy.operand(shape)).wait();
    const ref::Normed rn = ref::rms_norm(x, rows, cols, &gamma, 1e-5);
    const auto yr = ref::download(q, dy);
    for (std::size_t i = 0; i < yr.size(); ++i)
      ASSERT_TRUE(ref::close(yr[i], rn.y[i], std::max(1.0, std::fabs(rn.y[i])), 2e-2)) << "rms_norm i=" << i;
  }
}

// where with an integer mask picks bf16 values exactly; operands of another
// floating type are refused (convert with cast).
TEST(Bf16, WhereAndMixedTypes) {
  const Queue& q = test::queue();
  const std::size_t n = 1029;
  const auto m = ref::random_values(DType::U8, n, 0, 1, false), a = ref::random_values(B, n, -4, 4, true),
             b = ref::random_values(B, n, -4, 4, true);
  auto dm = ref::upload(q, DType::U8, m), da = ref::upload(q, B, a), db = ref::upload(q, B, b);
  auto dy = ref::upload(q, B, std::vector<double>(n, 0));
  ref::poison(q, dy);
  ternary(q, Ternary::Where, dm.operand(), da.operand(), db.operand(), dy.operand()).wait();
  const auto y = ref::download(q, dy);
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(ref::matches(B, y[i], m[i] != 0 ? a[i] : b[i], 0, 0)) << i;
  auto dh = ref::upload(q, DType::F16, std::vector<double>(n, 0));
  test::expect_error(Status::InvalidType, "a is bf16 but b is f16",
                     [&] { binary(q, Binary::Add, da.operand(), dh.operand(), dy.operand()); });
}

}  // namespace
