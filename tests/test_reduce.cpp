// optune::reduce against the double-precision reference: every operator over
// every set of axes in each data type, up to rank 8, row and column lengths
// around the packs and lane counts, split reductions, a long sum that a
// naive float loop gets wrong, NaN and infinities, empty axes and strided
// operands. max and min must be exact; prod within its rounding count.
#include <cmath>
#include <cstdlib>

#include "ops/reduce_ops.hpp"
#include "reference/elementwise_ref.hpp"
#include "reference/reduce_ref.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

// These suites build a few hundred kernel variants. Exporting each program's
// binary to the cache file makes PoCL compile every kernel again, which would
// multiply their run time by about five on the CI machine; the cache file has
// its own tests (test_program_cache). OPTUNE_CACHE set by the caller wins.
const int kNoCacheFile = setenv("OPTUNE_CACHE", "off", 0);

const ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max,    ReduceOp::Min,    ReduceOp::Prod,
                         ReduceOp::SumSquares, ReduceOp::L1, ReduceOp::L2, ReduceOp::ArgMax, ReduceOp::ArgMin,
                         ReduceOp::Any, ReduceOp::All};

std::vector<DType> float_types() {
  std::vector<DType> t{DType::F32, DType::F16};
  if (test::device().caps().fp64) t.push_back(DType::F64);
  return t;
}

double rtol(DType t) { return t == DType::F64 ? 1e-12 : t == DType::F16 ? 1e-2 : 1e-5; }

// Unit roundoff of the accumulation (f32 for f16 and f32, f64 for f64) and of
// the stored output.
double acc_unit(DType t) { return t == DType::F64 ? 0x1p-53 : 0x1p-24; }
double out_unit(DType t) { return t == DType::F64 ? 0x1p-53 : t == DType::F16 ? 0x1p-11 : 0x1p-24; }

// The bound each value operator is checked with: sums relative to the sum of
// magnitudes (ref::reduce's scale), products relative to themselves and
// growing with the count of factors, max and min exact (scale 0).
double tolerance(ReduceOp op, DType t, std::size_t count) {
  return op == ReduceOp::Prod ? ref::prod_rtol(count, acc_unit(t), out_unit(t)) : rtol(t);
}

bool is_arg(ReduceOp op) { return op == ReduceOp::ArgMax || op == ReduceOp::ArgMin; }
bool is_logical(ReduceOp op) { return op == ReduceOp::Any || op == ReduceOp::All; }

DType out_type(ReduceOp op, DType in) { return is_arg(op) ? DType::I32 : is_logical(op) ? DType::U8 : in; }

std::size_t count(const std::vector<std::int64_t>& shape) {
  std::size_t n = 1;
  for (auto d : shape) n *= std::size_t(d);
  return n;
}

// Inputs that suit the operator: near 1 for prod, many zeros for any/all.
std::vector<double> inputs(ReduceOp op, DType t, std::size_t n) {
  if (op == ReduceOp::Prod) return ref::random_values(t, n, 0.7, 1.4, false);
  auto v = ref::random_values(t, n, -2, 2, false);
  if (is_logical(op))
    for (auto& x : v) x = test::rng()() % 3 ? 0.0 : x;
  return v;
}

std::vector<int> normalised(std::vector<int> axes, std::size_t rank) {
  if (axes.empty())
    for (std::size_t d = 0; d < rank; ++d) axes.push_back(int(d));
  for (auto& a : axes) a = a < 0 ? a + int(rank) : a;
  std::sort(axes.begin(), axes.end());
  return axes;
}

// Runs reduce on x (values as stored in t) and compares with the reference.
void check(ReduceOp op, DType t, const std::vector<std::int64_t>& shape, const std::vector<int>& axes, bool keepdims,
           const std::vector<double>& x) {
  const Queue& q = test::queue();
  const auto norm = normalised(axes, shape.size());
  const auto yshape = ref::reduced_shape(shape, norm, keepdims);
  const std::size_t ny = std::max<std::size_t>(count(yshape), 1);
  const DType yt = out_type(op, t);
  auto dx = ref::upload(q, t, x);
  auto dy = ref::upload(q, yt, std::vector<double>(ny, 0));
  ref::poison(q, dy);
  reduce(q, op, dx.operand(shape), axes, keepdims, dy.operand(yshape)).wait();
  const auto got = ref::download(q, dy);
  const auto want = ref::reduce(op, x, shape, norm);
  std::string label = std::string(reduce_op_name(op)) + " " + std::string(dtype_name(t)) + " shape " +
                      ::testing::PrintToString(shape) + " axes " + ::testing::PrintToString(axes);
  for (std::size_t i = 0; i < ny; ++i) {
    if (is_arg(op) || is_logical(op))
      ASSERT_EQ(got[i], want.value[i]) << label << " output " << i;
    else
      // Stored in y's type: a product past the f16 range is inf.
      ASSERT_TRUE(ref::close(got[i], ref::store_as(yt, want.value[i], false), want.scale[i], tolerance(op, t, want.count)))
          << label << " output " << i;
  }
}

}  // namespace

TEST(Reduce, EveryOperatorOverEveryAxisSet) {
  // Every layout of this shape packs by 4 (60, 20, 12 and 4 elements), so
  // each operator class compiles one row and one column kernel per type.
  const std::vector<std::int64_t> shape{3, 5, 4};
  const std::vector<std::vector<int>> axis_sets{{}, {0}, {1}, {-1}, {0, 1}, {0, 2}, {2, 1}, {0, 1, 2}};
  for (DType t : float_types())
    for (ReduceOp op : kOps) {
      const auto x = inputs(op, t, count(shape));
      for (std::size_t k = 0; k < axis_sets.size(); ++k) check(op, t, shape, axis_sets[k], k % 2 == 1, x);
    }
}

TEST(Reduce, RankFourWithUnitAxes) {
  const std::vector<std::int64_t> shape{3, 1, 7, 2};
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::ArgMax, ReduceOp::Max}) {
    const auto x = inputs(op, DType::F32, count(shape));
    for (const auto& axes : std::vector<std::vector<int>>{{1}, {0, 3}, {1, 2}, {0, 1, 3}, {-4, -2}})
      check(op, DType::F32, shape, axes, false, x);
  }
}

TEST(Reduce, RowLengths) {
  for (std::int64_t cols : {1, 2, 3, 5, 7, 16, 17, 31, 63, 64, 65, 127, 128, 129, 257, 1023, 1024, 1025, 4097, 65537})
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max, ReduceOp::ArgMax, ReduceOp::Mean, ReduceOp::L2}) {
      const std::vector<std::int64_t> shape{cols > 4096 ? 1 : 3, cols};
      check(op, DType::F32, shape, {1}, false, inputs(op, DType::F32, count(shape)));
    }
  for (std::int64_t cols : {1, 3, 129, 1025})
    for (DType t : float_types())
      for (ReduceOp op : kOps) {
        const std::vector<std::int64_t> shape{5, cols};
        check(op, t, shape, {-1}, true, inputs(op, t, count(shape)));
      }
}

// The largest rank, reduced over scattered, adjacent, single and all axes
// (permuted through a strided copy where the reduced axes are not adjacent).
TEST(Reduce, RankEight) {
  const std::vector<std::int64_t> shape{2, 3, 1, 2, 3, 2, 1, 3};
  const std::vector<std::vector<int>> axis_sets{{0, 2, 4, 6}, {1, 3, 5, 7}, {7}, {0}, {3, 4, 5}, {-1, -3, -8}, {}};
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max, ReduceOp::ArgMin}) {
    const auto x = inputs(op, DType::F32, count(shape));
    for (std::size_t k = 0; k < axis_sets.size(); ++k) check(op, DType::F32, shape, axis_sets[k], k % 2 == 0, x);
  }
}

TEST(Reduce, ColumnShapes) {
  for (std::int64_t rows : {1, 2, 17, 1025})
    for (std::int64_t inner : {2, 3, 4, 33, 64, 1024})
      for (ReduceOp op : {ReduceOp::Sum, ReduceOp::ArgMax}) {
        const std::vector<std::int64_t> shape{2, rows, inner};
        check(op, DType::F32, shape, {1}, false, inputs(op, DType::F32, count(shape)));
      }
}

// Few long rows or few columns: the reduced axis is split over groups and a
// second pass combines the partial states.
TEST(Reduce, SplitAcrossGroups) {
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Min, ReduceOp::ArgMax, ReduceOp::ArgMin, ReduceOp::L1,
                      ReduceOp::Any, ReduceOp::All, ReduceOp::Prod}) {
    for (const auto& shape : std::vector<std::vector<std::int64_t>>{{2, 300001}, {1, 1 << 20}})
      check(op, DType::F32, shape, {1}, false, inputs(op, DType::F32, count(shape)));
    const std::vector<std::int64_t> cols{200003, 3};
    check(op, DType::F32, cols, {0}, false, inputs(op, DType::F32, count(cols)));
  }
  const std::vector<std::int64_t> half_shape{1, 1 << 18};
  check(ReduceOp::Sum, DType::F16, half_shape, {}, false, inputs(ReduceOp::Sum, DType::F16, 1 << 18));
}

// 10^7 random values in [0.05, 0.15]: a float running sum drifts (once the
// sum passes 2^20, each addition rounds to a multiple of 1/8, and most values
// round up), while lanes with Kahan sums and a tree stay accurate.
TEST(Reduce, LongSumIsAccurate) {
  const Queue& q = test::queue();
  const std::size_t n = 10000000;
  const auto x = ref::random_values(DType::F32, n, 0.05, 0.15, false);
  float naive = 0;
  double exact = 0, exact_half[2] = {0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    naive += float(x[i]);
    exact += x[i];
    exact_half[i % 2] += x[i];
  }
  ASSERT_GT(std::fabs(naive - exact) / exact, 1e-3) << "the data no longer shows the drift";
  auto dx = ref::upload(q, DType::F32, x);
  auto dy = ref::upload(q, DType::F32, {0, 0});
  for (const auto& [shape, axes] : std::vector<std::pair<std::vector<std::int64_t>, std::vector<int>>>{
           {{std::int64_t(n)}, {}}, {{1, std::int64_t(n)}, {1}}, {{std::int64_t(n / 2), 2}, {0}}}) {
    const std::size_t outs = shape.size() == 2 && axes[0] == 0 ? 2 : 1;
    ref::poison(q, dy);
    reduce(q, ReduceOp::Sum, dx.operand(shape), axes, false, dy.operand({std::int64_t(outs)})).wait();
    const auto got = ref::download(q, dy);
    for (std::size_t o = 0; o < outs; ++o) {
      const double want = outs == 1 ? exact : exact_half[o];
      EXPECT_NEAR(got[o], want, 1e-6 * want) << ::testing::PrintToString(shape);
    }
  }
}

TEST(Reduce, NanAndInfinity) {
  const Queue& q = test::queue();
  struct Case {
    ReduceOp op;
    std::vector<double> x;
    double want;
  };
  const std::vector<Case> cases{
      {ReduceOp::Max, {1, NAN, 3}, NAN},          {ReduceOp::Min, {NAN, -1, 3}, NAN},
      {ReduceOp::Max, {-INFINITY, -INFINITY}, -INFINITY},
      {ReduceOp::ArgMax, {1, NAN, 3, NAN}, 1},    {ReduceOp::ArgMin, {1, 0, NAN}, 2},
      {ReduceOp::ArgMax, {-INFINITY, -INFINITY}, 0}, {ReduceOp::ArgMax, {2, 5, 5, 1}, 1},
      {ReduceOp::ArgMin, {2, 1, 5, 1}, 1},        {ReduceOp::Sum, {1, INFINITY, 2}, INFINITY},
      {ReduceOp::Sum, {INFINITY, 1, -INFINITY}, NAN}, {ReduceOp::Sum, {NAN, 1}, NAN},
      {ReduceOp::Mean, {3e38, 3e38}, INFINITY},   {ReduceOp::Prod, {0, INFINITY}, NAN},
      {ReduceOp::Any, {0, NAN, 0}, 1},            {ReduceOp::All, {1, NAN, -0.0}, 0},
      {ReduceOp::All, {NAN, 2}, 1},               {ReduceOp::L2, {INFINITY, 1}, INFINITY},
  };
  for (const Case& c : cases)
    for (std::size_t reps : {1, 300, 5000}) {  // the special value in one lane or several
      std::vector<double> x;
      for (std::size_t r = 0; r < reps; ++r) x.insert(x.end(), c.x.begin(), c.x.end());
      const DType yt = out_type(c.op, DType::F32);
      auto dx = ref::upload(q, DType::F32, x);
      auto dy = ref::upload(q, yt, {0});
      ref::poison(q, dy);
      reduce(q, c.op, dx.operand(), {0}, false, dy.operand({1})).wait();
      const double got = ref::download(q, dy)[0];
      const double want = c.want;  // every case's answer holds for any number of repetitions
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << reduce_op_name(c.op) << " reps " << reps << " got " << got;
      else EXPECT_EQ(got, want) << reduce_op_name(c.op) << " " << ::testing::PrintToString(c.x) << " reps " << reps;
    }
}

TEST(Reduce, EmptyAxesGiveIdentities) {
  const Queue& q = test::queue();
  auto dx = ref::upload(q, DType::F32, {0});
  const std::vector<std::pair<ReduceOp, double>> cases{
      {ReduceOp::Sum, 0}, {ReduceOp::SumSquares, 0}, {ReduceOp::L1, 0}, {ReduceOp::L2, 0},
      {ReduceOp::Prod, 1}, {ReduceOp::Any, 0}, {ReduceOp::All, 1}, {ReduceOp::Mean, NAN}};
  for (const auto& [op, want] : cases) {
    auto dy = ref::upload(q, out_type(op, DType::F32), {0, 0, 0});
    ref::poison(q, dy);
    Operand x = dx.operand({3, 0});
    x.count = 1;
    reduce(q, op, x, {1}, false, dy.operand({3})).wait();
    for (double v : ref::download(q, dy)) {
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(v)) << reduce_op_name(op);
      else EXPECT_EQ(v, want) << reduce_op_name(op);
    }
  }
  // An empty output is nothing to do.
  auto dy = ref::upload(q, DType::F32, {0});
  Operand x = dx.operand({0, 4});
  Operand y = dy.operand({0});
  EXPECT_FALSE(reduce(q, ReduceOp::Max, x, {1}, false, y).valid());
}

TEST(Reduce, ConstantRows) {
  for (std::int64_t cols : {1, 2, 1000, 4099}) {
    const std::vector<std::int64_t> shape{4, cols};
    const std::vector<double> x(count(shape), 0.375);
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::ArgMax, ReduceOp::ArgMin, ReduceOp::L2})
      check(op, DType::F32, shape, {1}, false, x);
  }
}

TEST(Reduce, StridedOperands) {
  const Queue& q = test::queue();
  // x: the transpose of a dense [5][7] as a [7][5] view; y: every other element.
  const auto x = ref::random_values(DType::F32, 35, -1, 1, false);
  std::vector<double> xt(35);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j) xt[std::size_t(i * 5 + j)] = x[std::size_t(j * 7 + i)];
  auto dx = ref::upload(q, DType::F32, x);
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::ArgMax}) {
    const DType yt = out_type(op, DType::F32);
    auto dy = ref::upload(q, yt, std::vector<double>(14, 0));
    ref::poison(q, dy);
    reduce(q, op, dx.operand({7, 5}, {1, 7}), {1}, false, dy.operand({7}, {2})).wait();
    const auto got = ref::download(q, dy);
    const auto want = ref::reduce(op, xt, {7, 5}, {1});
    for (std::size_t i = 0; i < 7; ++i)
      EXPECT_TRUE(ref::close(got[2 * i], want.value[i], want.scale[i], 1e-5)) << reduce_op_name(op) << " " << i;
  }
}

TEST(Reduce, IntegerInputsForAnyAndAll) {
  for (DType t : {DType::U8, DType::I8, DType::I32})
    for (ReduceOp op : {ReduceOp::Any, ReduceOp::All}) {
      const std::vector<std::int64_t> shape{9, 33};
      auto x = ref::random_values(t, count(shape), 0, 3, false);
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % 33 < 5 ? 0 : (i / 33 == 4 ? 1 : x[i]);
      check(op, t, shape, {1}, false, x);
      check(op, t, shape, {0}, true, x);
    }
}

TEST(Reduce, ScalarOutputs) {
  const Queue& q = test::queue();
  auto dx = ref::upload(q, DType::F32, {1, 2, 3, 4, 5, 6});
  for (const auto& yshape : std::vector<std::vector<std::int64_t>>{{}, {1}}) {
    auto dy = ref::upload(q, DType::F32, {0});
    Operand y = dy.operand();
    y.shape = yshape;
    reduce(q, ReduceOp::Sum, dx.operand({2, 3}), {}, false, y).wait();
    EXPECT_EQ(ref::download(q, dy)[0], 21);
  }
  auto dy = ref::upload(q, DType::F32, {0});
  reduce(q, ReduceOp::Max, dx.operand({2, 3}), {0, 1}, true, dy.operand({1, 1})).wait();
  EXPECT_EQ(ref::download(q, dy)[0], 6);
}
