// softmax, log_softmax, layer_norm and rms_norm against the double-precision
// reference: every axis and data type, row lengths that take each strategy
// (registers, local cache, two passes), each strategy forced on the same rows,
// constant rows, rows far from zero, NaN and infinities, strided and in-place
// operands.
#include <cmath>
#include <cstdlib>

#include "ops/reduce_ops.hpp"
#include "reference/elementwise_ref.hpp"
#include "reference/reduce_ref.hpp"
#include "support/test_support.hpp"

using namespace optune;
using detail::NormOp;

namespace {

// These suites build a few hundred kernel variants. Exporting each program's
// binary to the cache file makes PoCL compile every kernel again, which would
// multiply their run time by about five on the CI machine; the cache file has
// its own tests (test_program_cache). OPTUNE_CACHE set by the caller wins.
const int kNoCacheFile = setenv("OPTUNE_CACHE", "off", 0);

std::vector<DType> float_types() {
  std::vector<DType> t{DType::F32, DType::F16};
  if (test::device().caps().fp64) t.push_back(DType::F64);
  return t;
}

double rtol(DType t) { return t == DType::F64 ? 1e-12 : t == DType::F16 ? 1e-2 : 2e-5; }

// How far an output may be from the reference: rtol * |want| for outputs
// whose rounding is relative to themselves, rtol * max(|want|, 1) where an
// absolute floor is justified (see each use).
enum class Err { Relative, UnitFloor };

// f16 stores values below 2^-14 with a fixed spacing of 2^-24 (subnormals),
// so rounding a result there is an absolute error of up to 2^-25; softmax
// outputs of rows of thousands reach that range.
double storage_floor(DType t) { return t == DType::F16 ? std::ldexp(1.0, -25) : 0.0; }

std::size_t count(const std::vector<std::int64_t>& shape) {
  std::size_t n = 1;
  for (auto d : shape) n *= std::size_t(d);
  return n;
}

void expect_close(DType t, const std::vector<double>& got, const std::vector<double>& want, const std::string& label,
                  Err err, double tol = 0) {
  ASSERT_EQ(got.size(), want.size());
  const double r = tol ? tol : rtol(t);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double scale = err == Err::Relative ? std::fabs(want[i]) : std::max(std::fabs(want[i]), 1.0);
    ASSERT_TRUE(ref::close(got[i], want[i], scale, r, storage_floor(t))) << label << " element " << i;
  }
}

// softmax: exp(x - m) / s is a product and a quotient, so its rounding is
// relative to itself, down to the smallest outputs. log_softmax: (x - m) and
// -log(s) have the same sign, so |y| = |x - m| + log(s) is the sum of the
// terms' magnitudes; but log(s) turns the relative error of s into an
// absolute one (d log s = ds / s), hence the floor of 1.
Err softmax_err(bool log) { return log ? Err::UnitFloor : Err::Relative; }
void check_softmax(DType t, const std::vector<std::int64_t>& shape, int axis, bool log, const std::vector<double>& x) {
  const Queue& q = test::queue();
  auto dx = ref::upload(q, t, x);
  auto dy = ref::upload(q, t, std::vector<double>(x.size(), 0));
  ref::poison(q, dy);
  (log ? log_softmax : softmax)(q, dx.operand(shape), axis, dy.operand(shape), {}).wait();
  const int ax = axis < 0 ? axis + int(shape.size()) : axis;
  expect_close(t, ref::download(q, dy), ref::softmax(x, shape, ax, log),
               std::string(log ? "log_softmax " : "softmax ") + std::string(dtype_name(t)) + " shape " +
                   ::testing::PrintToString(shape) + " axis " + std::to_string(axis),
               softmax_err(log));
}

// layer_norm (with gamma, beta, mean and rstd) or rms_norm (with gamma) of
// [rows][cols], through the public API or, with `forced`, the launcher.
void check_norm(NormOp op, DType t, std::size_t rows, std::size_t cols, const std::vector<double>& x,
                const detail::Params* forced = nullptr, double tol = 0) {
  const Queue& q = test::queue();
  const auto g = ref::random_values(t, cols, 0.5, 1.5, false), b = ref::random_values(t, cols, -1, 1, false);
  auto dx = ref::upload(q, t, x), dg = ref::upload(q, t, g), db = ref::upload(q, t, b);
  auto dy = ref::upload(q, t, std::vector<double>(x.size(), 0));
  auto dm = ref::upload(q, DType::F32, std::vector<double>(rows, 0));
  auto dr = ref::upload(q, DType::F32, std::vector<double>(rows, 0));
  for (const auto& d : {dy, dm, dr}) ref::poison(q, d);
  const std::vector<std::int64_t> shape{std::int64_t(rows), std::int64_t(cols)};
  const bool layer = op == NormOp::LayerNorm;
  if (forced) {
    detail::NormCall c;
    c.op = op;
    c.rows = rows;
    c.cols = cols;
    c.x = dx.operand(shape);
    c.y = dy.operand(shape);
    c.gamma = dg.operand();
    if (layer) c.beta = db.operand(), c.mean = dm.operand(), c.rstd = dr.operand();
    c.eps = 1e-5;
    detail::run_norm_rows(q, c, {}, forced).wait();
  } else if (layer) {
    layer_norm(q, dx.operand(shape), dg.operand(), db.operand(), 1e-5, dy.operand(shape), dm.operand(), dr.operand()).wait();
  } else {
    rms_norm(q, dx.operand(shape), dg.operand(), 1e-5, dy.operand(shape)).wait();
  }
  const auto want = layer ? ref::layer_norm(x, rows, cols, &g, &b, 1e-5) : ref::rms_norm(x, rows, cols, &g, 1e-5);
  const std::string label = std::string(layer ? "layer_norm " : "rms_norm ") + std::string(dtype_name(t)) +
                            " cols " + std::to_string(cols);
  // layer_norm: y = (x - mean) * rstd * gamma + beta sums terms of about 1
  // (x - mean in standard deviations, gamma in [0.5, 1.5], beta in [-1, 1]);
  // a y near 0 is their cancellation, so its error is relative to 1, not to
  // y. rms_norm: y = x * rstd * gamma, a product: relative to itself.
  expect_close(t, ref::download(q, dy), want.y, label, layer ? Err::UnitFloor : Err::Relative, tol);
  if (layer) {
    // The statistics are stored as f32. A mean near 0 is the cancellation of
    // x of magnitude about 1: its error is relative to that, hence the floor.
    const double stol = tol ? tol : std::max(rtol(t), rtol(DType::F32));
    expect_close(DType::F32, ref::download(q, dm), want.mean, label + " mean", Err::UnitFloor, stol);
    const auto rstd = ref::download(q, dr);
    for (std::size_t i = 0; i < rows; ++i)
      ASSERT_TRUE(ref::close(rstd[i], want.rstd[i], want.rstd[i], stol)) << label << " rstd " << i;
  }
}

// Parameters that force each strategy of norm_rows whatever the row length.
std::vector<std::pair<const char*, detail::Params>> strategies() {
  return {{"registers", {{"WGS", 256}, {"REG_TPR", 256}, {"REG_MAX", 32}, {"LOCAL_MAX", 0}}},
          {"local", {{"WGS", 128}, {"REG_TPR", 1}, {"REG_MAX", 1}, {"LOCAL_MAX", 16384}}},
          {"two-pass", {{"WGS", 64}, {"REG_TPR", 1}, {"REG_MAX", 1}, {"LOCAL_MAX", 0}}},
          {"two-pass-1024", {{"WGS", 1024}, {"REG_TPR", 1}, {"REG_MAX", 1}, {"LOCAL_MAX", 0}, {"VW", 1}}}};
}

}  // namespace

TEST(Softmax, EveryAxisAndType) {
  for (DType t : float_types())
    for (const auto& shape : std::vector<std::vector<std::int64_t>>{{3, 4, 5}, {7}})
      for (int axis = -1; axis < int(shape.size()); ++axis)
        for (bool log : {false, true}) {
          const auto x = ref::random_values(t, count(shape), -5, 5, false);
          check_softmax(t, shape, axis, log, x);
        }
}

TEST(Softmax, RowLengthsTakeEachStrategy) {
  bool log = false;  // softmax and log_softmax take turns
  for (std::int64_t cols : {1, 2, 3, 17, 128, 1023, 1025, 4099, 8193, 20000}) {
    const std::vector<std::int64_t> shape{cols > 4096 ? 2 : 3, cols};
    check_softmax(DType::F32, shape, 1, log, ref::random_values(DType::F32, count(shape), -10, 10, false));
    log = !log;
  }
  const std::vector<std::int64_t> half_shape{3, 3000};
  check_softmax(DType::F16, half_shape, -1, false, ref::random_values(DType::F16, count(half_shape), -3, 3, false));
}

TEST(Softmax, ColumnsOfLongAxes) {
  for (const auto& shape : std::vector<std::vector<std::int64_t>>{{2, 1000, 3}, {1, 5, 700}, {3, 1, 9}})
    check_softmax(DType::F32, shape, 1, true, ref::random_values(DType::F32, count(shape), -6, 6, false));
}

// NaN or +inf make the whole slice NaN, a slice of -inf is NaN, and -inf
// elsewhere gives 0 (log: -inf); the same in every strategy and along columns.
TEST(Softmax, NanAndInfinity) {
  const Queue& q = test::queue();
  const std::size_t cols = 300;
  std::vector<double> x = ref::random_values(DType::F32, 5 * cols, -3, 3, false);
  x[1 * cols + 7] = NAN;
  x[2 * cols + 299] = INFINITY;
  for (std::size_t j = 0; j < cols; ++j) x[3 * cols + j] = -INFINITY;
  for (std::size_t j = 0; j < cols; j += 3) x[4 * cols + j] = -INFINITY;
  const std::vector<std::int64_t> shape{5, std::int64_t(cols)};
  for (bool log : {false, true}) {
    const auto want = ref::softmax(x, shape, 1, log);
    for (std::size_t j = 0; j < cols; ++j) {
      ASSERT_TRUE(std::isnan(want[1 * cols + j]) && std::isnan(want[2 * cols + j]) && std::isnan(want[3 * cols + j]));
      if (j % 3 == 0) ASSERT_EQ(want[4 * cols + j], log ? -INFINITY : 0.0);
    }
    auto dx = ref::upload(q, DType::F32, x);
    auto dy = ref::upload(q, DType::F32, x);
    for (const auto& [name, p] : strategies()) {
      ref::poison(q, dy);
      detail::NormCall c;
      c.op = log ? detail::NormOp::LogSoftmax : detail::NormOp::Softmax;
      c.rows = 5;
      c.cols = cols;
      c.x = dx.operand(shape);
      c.y = dy.operand(shape);
      detail::run_norm_rows(q, c, {}, &p).wait();
      expect_close(DType::F32, ref::download(q, dy), want, std::string("strategy ") + name, softmax_err(log));
    }
    // The same slices along the first axis of the transpose.
    std::vector<double> xt(x.size());
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < cols; ++j) xt[j * 5 + i] = x[i * cols + j];
    check_softmax(DType::F32, {std::int64_t(cols), 5}, 0, log, xt);
  }
}

TEST(Softmax, StridedAndInPlace) {
  const Queue& q = test::queue();
  const auto x = ref::random_values(DType::F32, 60, -2, 2, false);
  auto dx = ref::upload(q, DType::F32, x);
  auto dy = ref::upload(q, DType::F32, std::vector<double>(120, 0));
  ref::poison(q, dy);
  const auto before = ref::download(q, dy);
  // x as the transposed [5][12] view of a dense [12][5]; y every other element.
  softmax(q, dx.operand({5, 12}, {1, 5}), 1, dy.operand({5, 12}, {24, 2})).wait();
  std::vector<double> xt(60);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 12; ++j) xt[std::size_t(i * 12 + j)] = x[std::size_t(j * 5 + i)];
  const auto want = ref::softmax(xt, {5, 12}, 1, false);
  const auto got = ref::download(q, dy);
  for (std::size_t i = 0; i < 60; ++i) ASSERT_TRUE(ref::close(got[2 * i], want[i], std::fabs(want[i]), 2e-5)) << i;
  for (std::size_t i = 1; i < 120; i += 2) ASSERT_EQ(got[i], before[i]) << "element " << i << " outside y was written";
  // In place, along the last axis and along the first.
  for (int axis : {1, 0}) {
    auto d = ref::upload(q, DType::F32, x);
    log_softmax(q, d.operand({6, 10}), axis, d.operand({6, 10})).wait();
    expect_close(DType::F32, ref::download(q, d), ref::softmax(x, {6, 10}, axis, true), "in place", Err::UnitFloor);
  }
}

TEST(Norms, EveryTypeAndRowLength) {
  for (DType t : float_types())
    for (std::size_t cols : {1, 64, 769, 5000})
      for (NormOp op : {NormOp::LayerNorm, NormOp::RmsNorm})
        check_norm(op, t, 3, cols, ref::random_values(t, 3 * cols, -4, 4, false));
  check_norm(NormOp::LayerNorm, DType::F32, 2, 20000, ref::random_values(DType::F32, 40000, -4, 4, false));
}

TEST(Norms, EachStrategyOnTheSameRows) {
  for (std::size_t cols : {5, 1000})
    for (NormOp op : {NormOp::LayerNorm, NormOp::RmsNorm, NormOp::Softmax}) {
      const auto x = ref::random_values(DType::F32, 4 * cols, -3, 3, false);
      for (const auto& [name, p] : strategies()) {
        SCOPED_TRACE(name);
        if (op == NormOp::Softmax) {
          const Queue& q = test::queue();
          auto dx = ref::upload(q, DType::F32, x), dy = ref::upload(q, DType::F32, x);
          ref::poison(q, dy);
          detail::NormCall c{op, 4, cols, dx.operand(), dy.operand(), {}, {}, {}, {}, 0};
          detail::run_norm_rows(q, c, {}, &p).wait();
          expect_close(DType::F32, ref::download(q, dy), ref::softmax(x, {4, std::int64_t(cols)}, 1, false), name,
                       Err::Relative);
        } else {
          check_norm(op, DType::F32, 4, cols, x, &p);
        }
      }
    }
}

// Rows far from zero (1000 plus noise of 0.01): E[x^2] - E[x]^2 in float
// would cancel to noise, and even a mean rounded at 1000 would be off by
// 0.3% of the noise; shifting by the row's first element keeps every
// strategy within float rounding of the noise.
TEST(Norms, RowsFarFromZero) {
  const std::size_t cols = 3000;
  std::vector<double> x(2 * cols);
  std::normal_distribution<double> d(0, 0.01);
  for (auto& v : x) v = double(float(1000 + d(test::rng())));
  for (const auto& [name, p] : strategies()) {
    SCOPED_TRACE(name);
    check_norm(NormOp::LayerNorm, DType::F32, 2, cols, x, &p, 1e-4);
  }
}

TEST(Norms, ConstantRows) {
  const Queue& q = test::queue();
  for (std::size_t cols : {1, 7, 9000}) {
    const std::vector<double> x(2 * cols, 2.5);
    const std::vector<std::int64_t> shape{2, std::int64_t(cols)};
    auto dx = ref::upload(q, DType::F32, x), dy = ref::upload(q, DType::F32, x);
    auto dm = ref::upload(q, DType::F32, {0, 0}), dr = ref::upload(q, DType::F32, {0, 0});
    layer_norm(q, dx.operand(shape), std::nullopt, std::nullopt, 1e-5, dy.operand(shape), dm.operand(), dr.operand()).wait();
    for (double v : ref::download(q, dy)) ASSERT_EQ(v, 0.0) << cols;
    for (double v : ref::download(q, dm)) ASSERT_EQ(v, 2.5) << cols;
    for (double v : ref::download(q, dr)) ASSERT_NEAR(v, 1 / std::sqrt(1e-5), 1e-2) << cols;
    softmax(q, dx.operand(shape), -1, dy.operand(shape)).wait();
    for (double v : ref::download(q, dy)) ASSERT_NEAR(v, 1.0 / double(cols), 1e-6 / double(cols)) << cols;
    rms_norm(q, dx.operand(shape), std::nullopt, 0, dy.operand(shape)).wait();
    for (double v : ref::download(q, dy)) ASSERT_NEAR(v, 1.0, 1e-6) << cols;
  }
}

TEST(Norms, OptionalOperandsAndInPlace) {
  const Queue& q = test::queue();
  const std::size_t rows = 3, cols = 40;
  const std::vector<std::int64_t> shape{1, 3, 40};
  const auto x = ref::random_values(DType::F16, rows * cols, -2, 2, false);
  const auto g = ref::random_values(DType::F16, cols, 0.5, 1.5, false);
  auto dg = ref::upload(q, DType::F16, g);
  // gamma only, in place, statistics in f32 of shape [1, 3, 1] (keepdims).
  auto d = ref::upload(q, DType::F16, x);
  auto dr = ref::upload(q, DType::F32, {0, 0, 0});
  layer_norm(q, d.operand(shape), dg.operand(), std::nullopt, 1e-3, d.operand(shape), std::nullopt,
             dr.operand({1, 3, 1})).wait();
  const auto want = ref::layer_norm(x, rows, cols, &g, nullptr, 1e-3);
  expect_close(DType::F16, ref::download(q, d), want.y, "layer_norm in place", Err::UnitFloor);
  const auto rstd = ref::download(q, dr);
  for (std::size_t i = 0; i < rows; ++i) EXPECT_TRUE(ref::close(rstd[i], want.rstd[i], want.rstd[i], 1e-4));
  // rms_norm without gamma.
  auto dx = ref::upload(q, DType::F16, x), dy = ref::upload(q, DType::F16, x);
  rms_norm(q, dx.operand(shape), std::nullopt, 1e-6, dy.operand(shape)).wait();
  expect_close(DType::F16, ref::download(q, dy), ref::rms_norm(x, rows, cols, nullptr, 1e-6).y, "rms_norm",
               Err::Relative);
}

// NaN and infinities, as PyTorch: a layer_norm row holding a NaN or an
// infinity is NaN throughout (y, mean and rstd: x - mean is inf - inf
// somewhere); an rms_norm row holding a NaN is NaN, one holding an infinity
// has mean(x^2) = inf, so rstd = 0: its finite elements give a zero of their
// sign and its infinities NaN (inf * 0). Other rows are untouched, in every
// strategy.
TEST(Norms, NanAndInfinity) {
  const Queue& q = test::queue();
  const std::size_t rows = 6, cols = 300;
  std::vector<double> x = ref::random_values(DType::F32, rows * cols, -3, 3, false);
  x[1 * cols + 7] = NAN;
  x[2 * cols + 299] = INFINITY;
  x[3 * cols + 0] = -INFINITY;
  x[4 * cols + 5] = INFINITY, x[4 * cols + 9] = -INFINITY;
  x[5 * cols + 150] = INFINITY, x[5 * cols + 151] = NAN;
  const auto nonfinite = [&](std::size_t r) {
    for (std::size_t j = 0; j < cols; ++j)
      if (!std::isfinite(x[r * cols + j])) return true;
    return false;
  };
  const std::vector<std::int64_t> shape{std::int64_t(rows), std::int64_t(cols)};
  auto dx = ref::upload(q, DType::F32, x), dy = ref::upload(q, DType::F32, x);
  auto dm = ref::upload(q, DType::F32, std::vector<double>(rows, 0)), dr = ref::upload(q, DType::F32, std::vector<double>(rows, 0));
  for (NormOp op : {NormOp::LayerNorm, NormOp::RmsNorm}) {
    const bool layer = op == NormOp::LayerNorm;
    const auto want = layer ? ref::layer_norm(x, rows, cols, nullptr, nullptr, 1e-5) : ref::rms_norm(x, rows, cols, nullptr, 1e-5);
    for (const auto& [name, p] : strategies()) {
      SCOPED_TRACE(std::string(layer ? "layer_norm " : "rms_norm ") + name);
      for (const auto& d : {dy, dm, dr}) ref::poison(q, d);
      detail::NormCall c;
      c.op = op;
      c.rows = rows;
      c.cols = cols;
      c.x = dx.operand(shape);
      c.y = dy.operand(shape);
      if (layer) c.mean = dm.operand(), c.rstd = dr.operand();
      c.eps = 1e-5;
      detail::run_norm_rows(q, c, {}, &p).wait();
      const auto y = ref::download(q, dy), mean = ref::download(q, dm), rstd = ref::download(q, dr);
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t j = 0; j < cols; ++j) {
          const std::size_t i = r * cols + j;
          if (!nonfinite(r)) {
            ASSERT_TRUE(ref::close(y[i], want.y[i], layer ? std::max(std::fabs(want.y[i]), 1.0) : std::fabs(want.y[i]), 2e-5))
                << "row " << r << " element " << j;
          } else if (layer || std::isnan(x[i]) || std::isinf(x[i]) || r == 1 || r == 5) {
            ASSERT_TRUE(std::isnan(y[i])) << "row " << r << " element " << j << " got " << y[i];
          } else {  // rms_norm, a finite element of a row with infinities
            ASSERT_EQ(y[i], 0.0) << "row " << r << " element " << j;
            ASSERT_EQ(std::signbit(y[i]), std::signbit(x[i])) << "row " << r << " element " << j;
          }
        }
        if (!layer) continue;
        if (nonfinite(r)) {
          EXPECT_TRUE(std::isnan(mean[r]) && std::isnan(rstd[r])) << "row " << r << ": " << mean[r] << " " << rstd[r];
        } else {
          EXPECT_TRUE(ref::close(mean[r], want.mean[r], 1, 2e-5)) << "row " << r;
          EXPECT_TRUE(ref::close(rstd[r], want.rstd[r], want.rstd[r], 2e-5)) << "row " << r;
        }
      }
    }
  }
  // f16 through the public operators (a strategy each, chosen by length).
  for (std::size_t n : {40, 3000}) {
    std::vector<double> h = ref::random_values(DType::F16, 2 * n, -2, 2, false);
    h[n + 3] = INFINITY;
    auto hx = ref::upload(q, DType::F16, h), hy = ref::upload(q, DType::F16, h);
    const std::vector<std::int64_t> hs{2, std::int64_t(n)};
    ref::poison(q, hy);
    layer_norm(q, hx.operand(hs), std::nullopt, std::nullopt, 1e-5, hy.operand(hs)).wait();
    auto y = ref::download(q, hy);
    for (std::size_t j = 0; j < n; ++j) ASSERT_TRUE(std::isfinite(y[j]) && std::isnan(y[n + j])) << n << " " << j;
    ref::poison(q, hy);
    rms_norm(q, hx.operand(hs), std::nullopt, 1e-5, hy.operand(hs)).wait();
    y = ref::download(q, hy);
    for (std::size_t j = 0; j < n; ++j) {
      ASSERT_TRUE(std::isfinite(y[j])) << n << " " << j;
      if (j == 3) ASSERT_TRUE(std::isnan(y[n + j]));
      else ASSERT_TRUE(y[n + j] == 0 && std::signbit(y[n + j]) == std::signbit(h[n + j])) << n << " " << j << " " << y[n + j];
    }
  }
}
