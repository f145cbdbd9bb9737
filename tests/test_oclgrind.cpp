// Small kernels meant to run under oclgrind's memory, race and
// uninitialised-value checks (CTest label oclgrind); on their own they are
// ordinary correctness tests. Sizes stay tiny: oclgrind interprets every
// work-item. Outputs are views inside poisoned buffers, so an overrun shows
// as a changed neighbour even where oclgrind sees only a valid allocation.
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>

#include "kernels/families.hpp"
#include "support/gemm_fixture.hpp"
#include "ops/blas1_ops.hpp"
#include "ops/blas2_ops.hpp"
#include "ops/blas_tri_ops.hpp"
#include "ops/reduce_ops.hpp"
#include "reference/conv_check.hpp"
#include "optune/blas_extra.hpp"
#include "reference/elementwise_ref.hpp"
#include "reference/im2col_ref.hpp"
#include "reference/reduce_ref.hpp"
#include "support/blas_values.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;

TEST(Oclgrind, CopyKernelsStayInBounds) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const CopyFamily& fam = families::copy();
  const std::size_t cap = 80;
  const auto host = test::random_words(cap);
  for (std::int64_t vw : {1, 2, 4})
    for (std::int64_t gs : {0, 1})
      for (std::int64_t n : {1, 5, 67}) {
        // Exactly sized buffers so any overrun is outside the allocation.
        const std::int64_t off = vw;
        Buffer<std::uint32_t> x = q.context().alloc<std::uint32_t>(std::size_t(n + off));
        Buffer<std::uint32_t> y = q.context().alloc<std::uint32_t>(std::size_t(n + off));
        q.upload(x, std::span<const std::uint32_t>(host.data(), std::size_t(n + off)));
        q.fill(y, 0u).wait();
        const CopyProblem pr{DType::F32, n, off, off};
        const Params p{{"VW", vw}, {"WGS", 64}, {"GRID_STRIDE", gs}, {"WAVES", gs ? 1 : 4}};
        ASSERT_EQ(fam.check(p, caps, pr), "");
        fam.launch(q, p, pr, *x.mem(), *y.mem()).wait();
        const auto out = q.download(y);
        for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(out[std::size_t(off + i)], host[std::size_t(off + i)]);
      }
}

TEST(Oclgrind, PeakKernelWritesEveryItem) {
  const Queue& q = test::queue();
  const PeakFamily& fam = families::peak();
  const PeakProblem pr{DType::F32, 64, 2};
  Buffer<float> out = q.context().alloc<float>(64);
  fam.launch(q, {{"VW", 2}, {"WGS", 64}}, pr, *out.mem()).wait();
  for (float v : q.download(out)) ASSERT_TRUE(std::isfinite(v));
}

// GEMM: the direct kernel, the tiled kernel with double buffering and its
// pad, pad-transpose and copy-back passes, and a list batch, on problems of
// a few tiles (out-of-bounds reads would also show as NaN in the results).
TEST(Oclgrind, GemmKernels) {
  const Params direct{{"WGD", 8}, {"MDIMCD", 2}, {"NDIMCD", 4}, {"KWID", 2}, {"VWMD", 1}, {"VWND", 2},
                      {"PADA", 1}, {"PADB", 0}};
  const Params tiled{{"MWG", 16}, {"NWG", 8},  {"KWG", 8},  {"MDIMC", 4}, {"NDIMC", 2}, {"MDIMA", 4},
                     {"NDIMB", 2},  {"KWI", 2}, {"VWM", 2},  {"VWN", 2},  {"STRM", 1}, {"STRN", 0},
                     {"SA", 1},     {"SB", 1},  {"DB", 1}};
  const GemmForce fd = test::force("direct", &direct), ft = test::force("tiled", &tiled);
  ref::GemmCase c;
  c.layout = Layout::ColMajor, c.trans_a = Transpose::Yes;
  c.m = 11, c.n = 9, c.k = 13, c.lda_extra = 1, c.c_off = 2;
  c.beta = 0.5, c.bias_mode = BiasMode::PerRow, c.activation = Unary::Relu;
  EXPECT_TRUE(ref::check_gemm(c, &fd));
  EXPECT_TRUE(ref::check_gemm(c, &ft));
  ref::GemmCase fits;  // in place: no helper passes
  fits.trans_a = Transpose::Yes, fits.m = 32, fits.n = 16, fits.k = 16;
  EXPECT_TRUE(ref::check_gemm(fits, &ft));
  fits.trans_a = Transpose::No, fits.trans_b = Transpose::Yes;  // A and B loaded transposed
  EXPECT_TRUE(ref::check_gemm(fits, &ft));
  ref::GemmCase list;
  list.mode = ref::GemmCase::Mode::List, list.batch = 3, list.m = 5, list.n = 3, list.k = 4;
  list.alphas = {1, 0, -0.5}, list.betas = {0, 1, 2};
  EXPECT_TRUE(ref::check_gemm(list, &fd));
  EXPECT_TRUE(ref::check_gemm(list, &ft));
}

namespace {

// The thin kernel's cases under one force: B read along N and along K (A
// and B in packs of 2, an epilogue with beta, bias and relu) and a listed
// batch of thin N.
void thin_cases(const GemmForce& f) {
  for (Transpose tb : {Transpose::No, Transpose::Yes}) {
    ref::GemmCase c;
    c.trans_a = tb, c.trans_b = tb, c.m = 4, c.n = 37, c.k = 41, c.ldb_extra = 1;
    c.lda_extra = tb == Transpose::Yes ? 2 : 1;  // A and B in packs of 2
    c.beta = 0.5, c.bias_mode = BiasMode::PerColumn, c.activation = Unary::Relu;
    EXPECT_TRUE(ref::check_gemm(c, &f));
  }
  ref::GemmCase list;
  list.mode = ref::GemmCase::Mode::List, list.batch = 2, list.m = 21, list.n = 2, list.k = 40;
  list.alphas = {1, -0.5}, list.betas = {0, 2};
  EXPECT_TRUE(ref::check_gemm(list, &f));
}

const Params kThin{{"WGX", 8}, {"WGY", 4}, {"VW", 2},  {"NJ", 1},    {"KU", 2},
                   {"MT", 4},  {"AV", 2},  {"AL", 2}, {"ALK", 1}, {"SPLIT", 2}, {"FUSE", 0}};

}  // namespace

// The thin kernel's two paths with their local reductions, A staged in
// local memory (AL where B is read along N, ALK along K), steps in the
// interior (unchecked loads) and at the edges, a split K and its second
// pass, thin M and thin N (a listed batch); then the same with B loaded a
// step ahead (PF, A through the caches), whose last prefetch stops
// at the split's end. Both add the split's partials in the second pass
// (FUSE 0): the fused form is the next test's.
TEST(Oclgrind, GemmThinKernel) {
  Params ahead = kThin;
  ahead["AL"] = 0, ahead["ALK"] = 0, ahead["PF"] = 1;
  for (const Params* p : {&kThin, static_cast<const Params*>(&ahead)}) thin_cases(test::force("thin", p));
}

// The split's partials added by each tile's last group (FUSE 1: arrival
// tickets, a fence, then the others' partials read back), three splits,
// A through the caches: in bounds and right. CTest runs it under oclgrind
// without --data-races (oclgrind.fused): the race checker does not see the
// ordering that the atomic tickets and fences give, and reports every
// partial that the last group reads.
TEST(OclgrindFused, GemmThinFusedSplit) {
  Params fused = kThin;
  fused["AL"] = 0, fused["ALK"] = 0, fused["SPLIT"] = 3, fused["FUSE"] = 1;
  thin_cases(test::force("thin", &fused));
}

namespace {

std::size_t count(const std::vector<std::int64_t>& shape) {
  std::size_t n = 1;
  for (auto d : shape) n *= std::size_t(d);
  return n;
}

// y as a view at offset 1 of a poisoned buffer two elements longer.
struct Output {
  ref::DeviceData data;
  std::size_t n;
  std::vector<double> before;
  Output(DType t, std::size_t n_) : data(ref::upload(test::queue(), t, std::vector<double>(n_ + 2, 0))), n(n_) {
    ref::poison(test::queue(), data);
    before = ref::download(test::queue(), data);
  }
  Operand view(const std::vector<std::int64_t>& shape) const {
    Operand o = data.operand({std::int64_t(n)}, {}, 1);
    o.count = n;
    o.shape = shape;  // [] for a full reduction
    return o;
  }
  // The values written, after checking the two neighbours kept their poison.
  std::vector<double> values() const {
    const auto all = ref::download(test::queue(), data);
    EXPECT_EQ(all[0], before[0]) << "written before the view";
    EXPECT_EQ(all[n + 1], before[n + 1]) << "written past the view";
    return std::vector<double>(all.begin() + 1, all.begin() + 1 + std::ptrdiff_t(n));
  }
};

}  // namespace

TEST(Oclgrind, ElementwisePacksTailAndBroadcast) {
  const Queue& q = test::queue();
  // Dense: 4 packs and a tail of 3 (f32), and a tail under packs of 8 (f16).
  for (DType t : {DType::F32, DType::F16}) {
    const std::size_t n = 19;
    const auto a = ref::random_values(t, n, -2, 2, false), b = ref::random_values(t, n, -2, 2, false);
    auto da = ref::upload(q, t, a), db = ref::upload(q, t, b);
    Output y(t, n);
    Operand yv = y.view({std::int64_t(n)});
    binary(q, Binary::Mul, da.operand(), db.operand(), yv).wait();
    const auto got = y.values();
    for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(ref::matches(t, got[i], a[i] * b[i], 1e-2, 0)) << i;
  }
  // Broadcast [3, 1] against [5] into [3, 5], and a transposed input.
  const auto a = ref::random_values(DType::F32, 3, -2, 2, false), b = ref::random_values(DType::F32, 15, -2, 2, false);
  auto da = ref::upload(q, DType::F32, a), db = ref::upload(q, DType::F32, b);
  Output y(DType::F32, 15);
  binary(q, Binary::Add, da.operand({3, 1}), db.operand({3, 5}, {1, 3}), y.view({3, 5})).wait();
  const auto got = y.values();
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 5; ++j)
      ASSERT_EQ(got[i * 5 + j], double(float(a[i] + b[j * 3 + i]))) << i << "," << j;
}

TEST(Oclgrind, Reductions) {
  const Queue& q = test::queue();
  struct Case {
    ReduceOp op;
    std::vector<std::int64_t> shape;
    std::vector<int> axes;
  };
  // Rows, columns (the middle axis), the whole tensor (long enough to split
  // over groups where the device allows), and argmax over rows and columns.
  const Case cases[] = {{ReduceOp::Sum, {3, 37}, {1}},      {ReduceOp::Max, {2, 9, 5}, {1}},
                        {ReduceOp::Mean, {3000}, {}},        {ReduceOp::ArgMax, {4, 21}, {1}},
                        {ReduceOp::ArgMin, {2, 17, 3}, {1}}, {ReduceOp::L2, {2, 3, 8}, {0, 2}}};
  for (const Case& c : cases) {
    const auto x = ref::random_values(DType::F32, count(c.shape), -2, 2, false);
    std::vector<int> axes = c.axes;
    if (axes.empty())
      for (std::size_t d = 0; d < c.shape.size(); ++d) axes.push_back(int(d));
    const auto yshape = ref::reduced_shape(c.shape, axes, false);
    const bool arg = c.op == ReduceOp::ArgMax || c.op == ReduceOp::ArgMin;
    auto dx = ref::upload(q, DType::F32, x);
    Output y(arg ? DType::I32 : DType::F32, std::max<std::size_t>(count(yshape), 1));
    Operand yv = y.view(yshape);
    reduce(q, c.op, dx.operand(c.shape), c.axes, false, yv).wait();
    const auto got = y.values();
    const auto want = ref::reduce(c.op, x, c.shape, axes);
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(ref::close(got[i], want.value[i], want.scale[i], 1e-5)) << reduce_op_name(c.op) << " " << i;
  }
}

// A row and columns split over groups, then the partial states reduced by a
// second pass (forced: small groups aiming at many waves).
TEST(Oclgrind, SplitReductions) {
  const Queue& q = test::queue();
  struct Case {
    ReduceOp op;
    std::size_t reduced, inner;
    detail::Params p;
  };
  const Case cases[] = {
      {ReduceOp::Sum, 3000, 1, {{"WGS", 64}, {"TPR", 8}, {"VW", 1}, {"WAVES", 8}, {"CHUNK", 4}}},
      {ReduceOp::ArgMax, 3000, 1, {{"WGS", 64}, {"TPR", 8}, {"VW", 1}, {"WAVES", 8}, {"CHUNK", 4}}},
      {ReduceOp::ArgMin, 600, 4, {{"WGS", 64}, {"TX", 4}, {"VW", 1}, {"WAVES", 8}, {"CHUNK", 4}}},
      {ReduceOp::Prod, 600, 4, {{"WGS", 64}, {"TX", 4}, {"VW", 1}, {"WAVES", 8}, {"CHUNK", 4}}}};
  for (const Case& c : cases) {
    const auto x = ref::random_values(DType::F32, c.reduced * c.inner, c.op == ReduceOp::Prod ? 0.9 : -2,
                                      c.op == ReduceOp::Prod ? 1.1 : 2, false);
    const bool arg = c.op == ReduceOp::ArgMax || c.op == ReduceOp::ArgMin;
    auto dx = ref::upload(q, DType::F32, x);
    Output y(arg ? DType::I32 : DType::F32, c.inner);
    detail::ReduceCall call;
    call.op = c.op;
    call.reduced = c.reduced;
    call.inner = c.inner;
    call.x = dx.operand();
    call.y = y.view({std::int64_t(c.inner)});
    const auto passes = detail::reduce_passes(call, q.device().caps(), [&](auto&, auto&) { return c.p; });
    ASSERT_EQ(passes.size(), 2u) << reduce_op_name(c.op) << ": the forced parameters no longer split";
    detail::run_reduce(q, call, {}, &c.p).wait();
    const auto got = y.values();
    const auto want = ref::reduce(c.op, x, {std::int64_t(c.reduced), std::int64_t(c.inner)}, {0});
    const double tol = c.op == ReduceOp::Prod ? ref::prod_rtol(c.reduced, 0x1p-24, 0x1p-24) : 1e-5;
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(ref::close(got[i], want.value[i], want.scale[i], tol)) << reduce_op_name(c.op) << " " << i;
  }
}

TEST(Oclgrind, SoftmaxShortAndLongRows) {
  const Queue& q = test::queue();
  // Short rows (registers) and a row past what the registers hold, forced
  // into the local-memory cache and the streaming strategy; then columns.
  const std::vector<std::pair<const char*, detail::Params>> forced{
      {"registers", {{"WGS", 64}, {"REG_TPR", 8}, {"REG_MAX", 4}, {"LOCAL_MAX", 0}, {"VW", 1}}},
      {"local", {{"WGS", 64}, {"REG_TPR", 1}, {"REG_MAX", 1}, {"LOCAL_MAX", 1024}, {"VW", 1}}},
      {"streaming", {{"WGS", 64}, {"REG_TPR", 1}, {"REG_MAX", 1}, {"LOCAL_MAX", 0}, {"VW", 1}}}};
  for (std::size_t cols : {5u, 300u})
    for (const auto& [name, p] : forced) {
      const std::size_t rows = 2;
      const auto x = ref::random_values(DType::F32, rows * cols, -4, 4, false);
      auto dx = ref::upload(q, DType::F32, x);
      Output y(DType::F32, rows * cols);
      detail::NormCall c;
      c.op = detail::NormOp::Softmax;
      c.rows = rows;
      c.cols = cols;
      c.x = dx.operand();
      c.y = y.view({std::int64_t(rows * cols)});
      detail::run_norm_rows(q, c, {}, &p).wait();
      const auto got = y.values();
      const auto want = ref::softmax(x, {std::int64_t(rows), std::int64_t(cols)}, 1, false);
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_TRUE(ref::close(got[i], want[i], want[i], 2e-5)) << name << " cols " << cols << " " << i;
    }
  const std::vector<std::int64_t> shape{2, 6, 3};
  const auto x = ref::random_values(DType::F32, 36, -4, 4, false);
  auto dx = ref::upload(q, DType::F32, x);
  Output y(DType::F32, 36);
  log_softmax(q, dx.operand(shape), 1, y.view(shape)).wait();
  const auto got = y.values();
  const auto want = ref::softmax(x, shape, 1, true);
  for (std::size_t i = 0; i < 36; ++i) ASSERT_TRUE(ref::close(got[i], want[i], std::max(std::fabs(want[i]), 1.0), 2e-5)) << i;
}

TEST(Oclgrind, LayerNormAndRmsNorm) {
  const Queue& q = test::queue();
  const std::size_t rows = 3, cols = 40;
  const std::vector<std::int64_t> shape{std::int64_t(rows), std::int64_t(cols)};
  const auto x = ref::random_values(DType::F32, rows * cols, -3, 3, false);
  const auto g = ref::random_values(DType::F32, cols, 0.5, 1.5, false), b = ref::random_values(DType::F32, cols, -1, 1, false);
  auto dx = ref::upload(q, DType::F32, x), dg = ref::upload(q, DType::F32, g), db = ref::upload(q, DType::F32, b);
  Output y(DType::F32, rows * cols), mean(DType::F32, rows), rstd(DType::F32, rows);
  layer_norm(q, dx.operand(shape), dg.operand(), db.operand(), 1e-5, y.view(shape), mean.view({std::int64_t(rows)}),
             rstd.view({std::int64_t(rows)})).wait();
  const auto want = ref::layer_norm(x, rows, cols, &g, &b, 1e-5);
  auto got = y.values();
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(ref::close(got[i], want.y[i], std::max(std::fabs(want.y[i]), 1.0), 2e-5)) << i;
  const auto m = mean.values(), r = rstd.values();
  for (std::size_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(ref::close(m[i], want.mean[i], 1, 2e-5)) << i;
    EXPECT_TRUE(ref::close(r[i], want.rstd[i], want.rstd[i], 2e-5)) << i;
  }
  Output z(DType::F32, rows * cols);
  rms_norm(q, dx.operand(shape), dg.operand(), 1e-5, z.view(shape)).wait();
  const auto want_rms = ref::rms_norm(x, rows, cols, &g, 1e-5);
  got = z.values();
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(ref::close(got[i], want_rms.y[i], std::fabs(want_rms.y[i]), 2e-5)) << i;
}

// conv2d: each candidate on tiny problems (direct with mixed layouts and
// groups, depthwise in both layouts with packs and row tiles, im2col in two
// chunks and with two groups, pointwise, depthwise on images with mixed
// layouts and in tiles, Winograd in two chunks and fused, the implicit GEMM grouped
// with a partial channel chunk and two local stages, with packs and a split
// depth, and with a flat depth), with bias, residual and an activation; the
// results against the double-precision reference (poisoned outputs, NaN
// around the inputs).
TEST(Oclgrind, ConvKernels) {
  using ref::conv_desc;
  constexpr ConvLayout NCHW = ConvLayout::NCHW, NHWC = ConvLayout::NHWC;
  struct Run {
    Conv2dDesc d;
    const char* candidate;
    Params p;
    const char* family;
  };
  // Stride 1 with the left pad FS - 1 and none on the right: the NCHW
  // window's middle pack at its far end.
  Conv2dDesc left = conv_desc(1, 2, 5, 8, 2, 3, 3, 1, 0, 2, NCHW, NCHW);
  left.pad_left = 2, left.pad_top = 1;
  const Run runs[] = {
      {conv_desc(1, 4, 5, 6, 4, 3, 3, 2, 1, 2, NCHW, NHWC), "direct", {{"KPT", 2}, {"WGS", 32}}, "conv_direct"},
      {conv_desc(1, 4, 5, 7, 4, 3, 3, 1, 1, 4, NCHW, NCHW), "depthwise", {{"WPT", 4}, {"WGS", 32}}, "conv_depthwise"},
      {conv_desc(1, 8, 4, 5, 8, 3, 3, 2, 1, 8, NHWC, NHWC), "depthwise", {{"VW", 4}, {"PPT", 2}, {"WGS", 32}},
       "conv_depthwise"},
      // Stride 1: each input row once for RPT output rows (a partial last
      // tile), the NCHW window's middle as a pack, NHWC weights as packs.
      {conv_desc(1, 3, 7, 8, 3, 3, 3, 1, 1, 3, NCHW, NCHW), "depthwise", {{"WPT", 4}, {"RPT", 4}, {"WGS", 32}},
       "conv_depthwise"},
      {left, "depthwise", {{"WPT", 4}, {"RPT", 2}, {"WGS", 32}}, "conv_depthwise"},
      {conv_desc(1, 8, 5, 6, 8, 3, 3, 1, 1, 8, NHWC, NHWC), "depthwise",
       {{"VW", 4}, {"PPT", 4}, {"RPT", 2}, {"WGS", 32}}, "conv_depthwise"},
      // LOC: rows staged in local memory with groups ending mid-row (24
      // work-items a row, 32 a group).
      {conv_desc(1, 2, 5, 96, 2, 3, 3, 1, 1, 2, NCHW, NCHW), "depthwise",
       {{"WPT", 4}, {"RPT", 2}, {"WGS", 32}, {"LOC", 1}, {"FILL", 0}}, "conv_depthwise"},
      {conv_desc(2, 3, 4, 5, 4, 3, 3, 1, 1, 1, NHWC, NCHW), "im2col", {{"CHUNK_KIB", 1}, {"WGS", 64}}, "conv_im2col"},
      {conv_desc(1, 4, 4, 5, 6, 3, 3, 1, 1, 2, NCHW, NHWC), "im2col", {{"WGS", 64}}, "conv_im2col"},
      {conv_desc(2, 5, 3, 3, 4, 1, 1, 1, 0, 1, NHWC, NHWC), "pointwise", {}, ""},
      {conv_desc(1, 5, 5, 7, 5, 3, 3, 2, 1, 5, NCHW, NHWC), "depthwise_image", {{"WPT", 2}, {"WGS", 32}},
       "conv_depthwise_image"},
      {conv_desc(2, 8, 4, 6, 8, 3, 3, 1, 1, 8, NHWC, NCHW), "depthwise_image", {{"WPT", 4}, {"WGS", 32}},
       "conv_depthwise_image"},
      {conv_desc(2, 3, 5, 6, 4, 3, 3, 1, 1, 1, NHWC, NCHW), "winograd", {{"CHUNK_KIB", 1}, {"WGS", 64}},
       "conv_winograd"},
      // The fused Winograd: channels past a step, tiles past a block, both
      // layouts, with and without the registers' prefetch.
      {conv_desc(2, 5, 5, 6, 6, 3, 3, 1, 1, 1, NCHW, NHWC), "winograd_fused",
       {{"BK", 16}, {"BT", 16}, {"BC", 4}, {"KPT", 4}, {"TPT", 4}}, "conv_winograd_fused"},
      {conv_desc(1, 6, 7, 9, 5, 3, 3, 1, 1, 1, NHWC, NHWC), "winograd_fused",
       {{"BK", 16}, {"BT", 16}, {"BC", 4}, {"KPT", 8}, {"TPT", 4}, {"PREFETCH", 0}, {"CU", 2}}, "conv_winograd_fused"},
      {conv_desc(1, 10, 4, 5, 6, 3, 3, 2, 1, 2, NHWC, NCHW), "implicit",
       {{"MWG", 16}, {"NWG", 8}, {"KWG", 4}, {"MDIMC", 8}, {"NDIMC", 4}}, "conv_implicit"},
      // NHWC packs of 4 channels, packed local reads, the depth in 4 slices
      // added by conv_implicit_sum.
      {conv_desc(1, 8, 4, 5, 6, 3, 3, 1, 1, 1, NHWC, NHWC), "implicit",
       {{"MWG", 32}, {"NWG", 8}, {"KWG", 4}, {"MDIMC", 8}, {"NDIMC", 4}, {"VWM", 4}, {"VWN", 2}, {"SPLITK", 4}},
       "conv_implicit"},
      // A stem of 3 channels with its depth over channels and taps together.
      {conv_desc(1, 3, 7, 6, 4, 5, 5, 2, 2, 1, NHWC, NCHW), "implicit",
       {{"MWG", 16}, {"NWG", 4}, {"KWG", 8}, {"MDIMC", 8}, {"NDIMC", 4}, {"FLAT", 1}, {"SPLITK", 2}}, "conv_implicit"},
  };
  for (const Run& r : runs) {
    // The image kernel needs images: the CUDA back end, where the GPU
    // machine's sanitizer step runs this suite, has none and refuses it.
    if (std::string(r.candidate) == "depthwise_image" && !test::device().caps().images) continue;
    ref::ConvCase c;
    c.desc = r.d;
    c.bias = true;
    c.residual = true;
    c.activation = Unary::Relu;
    c.offset = 4;
    c.winograd = std::string(r.candidate).rfind("winograd", 0) == 0;
    ConvForce f;
    f.candidate = r.candidate;
    if (*r.family) f.params[r.family] = r.p;
    EXPECT_TRUE(ref::check_conv(c, &f)) << r.candidate;
  }
  // The image kernel in tiles (limits lowered to 2 channel blocks by 1
  // image): the last tile's blocks and the images past the first.
  if (test::device().caps().images) {
    const detail::ConvImageLimitScope limit(12, 4);
    ref::ConvCase c;
    c.desc = conv_desc(2, 10, 4, 6, 10, 3, 3, 1, 1, 10, NHWC, NHWC);
    c.bias = true;
    ConvForce f;
    f.candidate = "depthwise_image";
    f.params["conv_depthwise_image"] = {{"WPT", 4}, {"WGS", 32}};
    EXPECT_TRUE(ref::check_conv(c, &f)) << "depthwise_image in tiles";
  }
}

// BLAS level 1: packs and their tails, negative increments, one and two
// reduction passes (n = 3000: 12 groups of 256), complex elements.
// im2col and col2im (blas/im2col.cl, which the convolution's im2col shares):
// f32 and c64 (an element of two words), pads, strides and dilations that
// differ by axis, both modes, each operand a view between NaN guards; col2im
// then adds the matrix back into the image.
template <class T>
void im2col_round_trip(const Queue& q) {
  const ref::Im2colShape s{2, 5, 6, 3, 2, 1, 2, 2, 1, 1, 2};
  const std::size_t n_im = s.im_size(), n_col = s.col_size();
  const std::vector<float> parts = test::random_floats(2 * n_im);
  std::vector<T> him(n_im + 2, T(NAN)), hcol(n_col + 2, T(NAN));
  std::vector<ref::Cd> cim(n_im);
  for (std::size_t i = 0; i < n_im; ++i) {
    if constexpr (std::is_same_v<T, float>) him[i + 1] = parts[2 * i];
    else him[i + 1] = T(parts[2 * i], parts[2 * i + 1]);
    cim[i] = ref::Cd(std::real(him[i + 1]), std::imag(him[i + 1]));
  }
  for (KernelMode mode : {KernelMode::CrossCorrelation, KernelMode::Convolution}) {
    Buffer<T> im = q.context().alloc<T>(n_im + 2), col = q.context().alloc<T>(n_col + 2);
    q.upload(im, std::span<const T>(him));
    q.upload(col, std::span<const T>(hcol));
    im2col(q, mode, s.c, s.h, s.w, s.kh, s.kw, s.ph, s.pw, s.sh, s.sw, s.dh, s.dw, im.view(1, n_im),
           col.view(1, n_col)).wait();
    const std::vector<ref::Cd> want = ref::im2col(s, mode, cim);
    std::vector<T> got = q.download(col);
    EXPECT_TRUE(std::isnan(std::real(got[0])) && std::isnan(std::real(got[n_col + 1])));
    for (std::size_t i = 0; i < n_col; ++i) ASSERT_EQ(ref::Cd(std::real(got[i + 1]), std::imag(got[i + 1])), want[i]) << i;
    // col2im adds the columns just made back into the image.
    col2im(q, mode, s.c, s.h, s.w, s.kh, s.kw, s.ph, s.pw, s.sh, s.sw, s.dh, s.dw, col.view(1, n_col),
           im.view(1, n_im)).wait();
    const std::vector<ref::Cd> back = ref::col2im(s, mode, want, cim);
    got = q.download(im);
    EXPECT_TRUE(std::isnan(std::real(got[0])) && std::isnan(std::real(got[n_im + 1])));
    for (std::size_t i = 0; i < n_im; ++i)
      ASSERT_LT(std::abs(ref::Cd(std::real(got[i + 1]), std::imag(got[i + 1])) - back[i]), 1e-5 * (1 + std::abs(back[i])))
          << i;
    q.upload(im, std::span<const T>(him));
  }
}

TEST(Oclgrind, Im2colKernels) {
  const Queue& q = test::queue();
  im2col_round_trip<float>(q);
  if (q.device().caps().fp64) im2col_round_trip<std::complex<double>>(q);
}

TEST(Oclgrind, Blas1Kernels) {
  const Queue& q = test::queue();
  for (const std::int64_t n : {37, 3000}) {
    const std::size_t len = std::size_t(2 * n + 1);
    const std::vector<float> hx = test::random_floats(len), hy = test::random_floats(len);
    Buffer<float> x = q.context().alloc<float>(len), y = q.context().alloc<float>(len);
    q.upload(x, std::span<const float>(hx));
    q.upload(y, std::span<const float>(hy));
    Buffer<float> r = q.context().alloc<float>(2);
    Buffer<std::int32_t> ri = q.context().alloc<std::int32_t>(1);
    axpy(q, n, 0.5f, x, 1, y, 1).wait();                   // packs and a tail
    axpy(q, n, 0.25f, x.view(1, len - 1), 2, y, -2).wait();  // strided, backwards
    dot(q, n, x, 1, x, 1, r.view(0, 1)).wait();
    nrm2(q, n, x, -2, r.view(1, 1)).wait();
    iamax(q, n, x, 2, ri).wait();
    std::vector<double> want_y(hy.begin(), hy.end());
    for (std::int64_t i = 0; i < n; ++i) want_y[std::size_t(i)] += 0.5 * hx[std::size_t(i)];
    for (std::int64_t i = 0; i < n; ++i) want_y[std::size_t((n - 1 - i) * 2)] += 0.25 * hx[std::size_t(1 + 2 * i)];
    double dd = 0, ss = 0;
    std::int32_t best = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      dd += double(hx[std::size_t(i)]) * hx[std::size_t(i)];
      ss += double(hx[std::size_t(2 * i)]) * hx[std::size_t(2 * i)];
      if (std::fabs(hx[std::size_t(2 * i)]) > std::fabs(hx[std::size_t(2 * best)])) best = std::int32_t(i);
    }
    const auto gy = q.download(y), gr = q.download(r);
    for (std::size_t i = 0; i < len; ++i) ASSERT_NEAR(gy[i], want_y[i], 1e-5) << "y " << i;
    EXPECT_NEAR(gr[0], dd, 1e-5 * dd);
    EXPECT_NEAR(gr[1], std::sqrt(ss), 1e-5 * std::sqrt(ss));
    EXPECT_EQ(q.download(ri)[0], best);
    // Complex: swap, then conj(x) . y over the swapped vectors.
    Buffer<std::complex<float>> cx(x.mem(), 0, len / 2), cy(y.mem(), 0, len / 2);
    Buffer<std::complex<float>> cr = q.context().alloc<std::complex<float>>(1);
    swap(q, n / 2, cx, 1, cy, -1).wait();
    dotc(q, n / 2, cx, 1, cy, 1, cr).wait();
    const auto gx2 = q.download(cx), gy2 = q.download(cy);
    std::complex<double> want = 0;
    for (std::int64_t i = 0; i < n / 2; ++i)
      want += std::conj(std::complex<double>(gx2[std::size_t(i)])) * std::complex<double>(gy2[std::size_t(i)]);
    EXPECT_LT(std::abs(std::complex<double>(q.download(cr)[0]) - want), 1e-4 * (1 + std::abs(want)));
  }
}

// symv by walks (blas2_symv_walk: double-buffered row sums, the column
// sums through local memory at the end): n = 70 in 16-wide blocks, chunks of
// 2 tiles, both triangles (the diagonal in a column's first chunk or its
// last); y inside a poisoned buffer.
TEST(Oclgrind, SymvWalk) {
  const Queue& q = test::queue();
  const std::int64_t n = 70, lda = 72;
  const std::vector<float> ha = test::random_floats(std::size_t(lda * n)), hx = test::random_floats(std::size_t(n));
  Buffer<float> a = q.context().alloc<float>(ha.size()), x = q.context().alloc<float>(hx.size());
  Buffer<float> y = q.context().alloc<float>(std::size_t(n + 2));
  q.upload(a, std::span<const float>(ha));
  q.upload(x, std::span<const float>(hx));
  const Params fp{{"WGS", 64}, {"SB", 16}, {"STRIP", 0}, {"WALK", 2}};
  for (const Triangle uplo : {Triangle::Upper, Triangle::Lower}) {
    q.upload(y, std::span<const float>(std::vector<float>(std::size_t(n + 2), -7.0f)));
    Blas2Call c;
    c.routine = Blas2Routine::Symv;
    c.uplo = uplo;
    c.n = n;
    c.alpha = 1.5;
    c.beta = 0;
    c.a = blas_vector(a);
    c.lda = lda;
    c.x = blas_vector(x);
    c.y = blas_vector(Buffer<float>(y.mem(), 1, std::size_t(n)));
    run_blas2(q, c, {}, &fp).wait();
    const auto got = q.download(y);
    EXPECT_EQ(got[0], -7.0f);
    EXPECT_EQ(got[std::size_t(n + 1)], -7.0f);
    for (std::int64_t i = 0; i < n; ++i) {
      double want = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        const bool stored = uplo == Triangle::Upper ? i <= j : i >= j;
        want += double(stored ? ha[std::size_t(i + j * lda)] : ha[std::size_t(j + i * lda)]) * hx[std::size_t(j)];
      }
      ASSERT_NEAR(got[std::size_t(i + 1)], 1.5 * want, 1e-4 * (1 + std::fabs(want))) << i;
    }
  }
}

// Complex geru through blas2_rank on a wide matrix (m = 3 < n = 9), x
// backwards (incx -1) and y strided, each in a buffer of exactly its
// elements: the kernel once read x at y's indices (x_j for j >= m, before
// x's start with incx < 0), which compute-sanitizer found on the H200.
TEST(Oclgrind, GeruWideReadsOnlyItsVectors) {
  const Queue& q = test::queue();
  using C = std::complex<float>;
  const std::int64_t m = 3, n = 9, lda = 3;
  const auto rnd = [](std::size_t k) {
    const std::vector<float> f = test::random_floats(2 * k);
    std::vector<C> v(k);
    for (std::size_t i = 0; i < k; ++i) v[i] = C(f[2 * i], f[2 * i + 1]);
    return v;
  };
  const std::vector<C> ha = rnd(std::size_t(lda * n)), hx = rnd(std::size_t(m)), hy = rnd(std::size_t(2 * n - 1));
  Buffer<C> a = q.context().alloc<C>(ha.size()), x = q.context().alloc<C>(hx.size()), y = q.context().alloc<C>(hy.size());
  q.upload(a, std::span<const C>(ha));
  q.upload(x, std::span<const C>(hx));
  q.upload(y, std::span<const C>(hy));
  const C alpha(0.5f, -0.25f);
  geru<C>(q, Layout::ColMajor, m, n, alpha, x, -1, y, 2, a, lda).wait();
  const auto got = q.download(a);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      const std::complex<double> want = std::complex<double>(ha[std::size_t(i + j * lda)]) +
                                        std::complex<double>(alpha) * std::complex<double>(hx[std::size_t(m - 1 - i)]) *
                                            std::complex<double>(hy[std::size_t(2 * j)]);
      ASSERT_LT(std::abs(std::complex<double>(got[std::size_t(i + j * lda)]) - want), 1e-5 * (1 + std::abs(want)))
          << i << " " << j;
    }
}

// trsv's one-launch chain (tickets, the solved-panel count, helper groups)
// and trmv, forced to blocks with more lanes per row than rows (WGS 256, NB
// 8: 32 lanes) and fewer (WGS 64, NB 16: 4 lanes), with and without helpers,
// f32 and c32, 41 rows (panels and a partial last one), x inside a poisoned
// buffer. The panels hand results to each other through global memory and
// flags, so this runs without the race checker (ctest's oclgrind.tri), with
// OCLGRIND_BUILD_OPTIONS=-cl-opt-disable: oclgrind 21.10 cannot run the
// saturating subtraction its optimiser makes of `i > k ? i - k : 0`. A read
// past a local array (a staging loop bounded by lanes, not rows, did so in
// one revision of tri_sv) is reported as an invalid read.
template <class T>
void tri_chain(bool solve, std::int64_t wgs, std::int64_t nb, std::int64_t help) {
  SCOPED_TRACE(std::string(solve ? "trsv" : "trmv") + " WGS " + std::to_string(wgs) + " NB " + std::to_string(nb) +
               " HELP " + std::to_string(help) + (sizeof(T) == 8 ? " c32" : " f32"));
  using C = std::complex<double>;
  const Queue& q = test::queue();
  const std::int64_t n = 41, pad = 3;
  // Column-major lower triangle, lda n; the upper part NaN (never read).
  std::vector<T> ha(std::size_t(n * n), test::blas::nan_value<T>());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j; i < n; ++i)
      ha[std::size_t(i + j * n)] =
          i == j ? T(test::blas::random_value<float>(1.0, 2.0)) : test::blas::random_value<T>(-0.5 / n, 0.5 / n);
  std::vector<T> hx(std::size_t(n + 2 * pad), test::blas::nan_value<T>());
  for (std::int64_t i = 0; i < n; ++i) hx[std::size_t(pad + i)] = test::blas::random_value<T>();
  Buffer<T> a = q.context().alloc<T>(ha.size()), xall = q.context().alloc<T>(hx.size());
  q.upload(a, std::span<const T>(ha));
  q.upload(xall, std::span<const T>(hx));
  const Buffer<T> x = xall.view(std::size_t(pad), std::size_t(n));
  detail::BlasTriCall c;
  c.solve = solve;
  c.form = detail::TriForm::Full;
  c.layout = Layout::ColMajor;
  c.uplo = Triangle::Lower;
  c.n = n, c.k = n - 1, c.lda = n;
  c.a = detail::blas_vector(a);
  c.x = detail::blas_vector(x);
  const Params p{{"WGS", wgs}, {"NB", nb}, {"SW", 0}, {"RV", 1}, {"HELP", help}, {"PERSIST", 1}};
  detail::run_blas_tri(q, c, {}, &p).wait();
  std::vector<C> b(static_cast<std::size_t>(n)), want(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) b[std::size_t(i)] = C(hx[std::size_t(pad + i)]);
  for (std::int64_t i = 0; i < n; ++i) {
    C s = solve ? b[std::size_t(i)] : C(0);
    for (std::int64_t j = 0; j < i; ++j)
      s += (solve ? -1.0 : 1.0) * C(ha[std::size_t(i + j * n)]) *
           (solve ? want[std::size_t(j)] : b[std::size_t(j)]);
    const C d = C(ha[std::size_t(i + i * n)]);
    want[std::size_t(i)] = solve ? s / d : s + d * b[std::size_t(i)];
  }
  const auto got = q.download(xall);
  for (std::int64_t i = 0; i < pad; ++i) {
    ASSERT_TRUE(test::blas::has_nan(got[std::size_t(i)])) << "before x " << i;
    ASSERT_TRUE(test::blas::has_nan(got[std::size_t(pad + n + i)])) << "after x " << i;
  }
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_LT(std::abs(C(got[std::size_t(pad + i)]) - want[std::size_t(i)]),
              1e-4 * (1 + std::abs(want[std::size_t(i)])))
        << "x " << i;
}

TEST(OclgrindTri, ChainsAndProducts) {
  for (const auto& [wgs, nb] : {std::pair<std::int64_t, std::int64_t>{256, 8}, {64, 16}})
    for (std::int64_t help : {0, 3})
      for (bool solve : {true, false}) {
        tri_chain<float>(solve, wgs, nb, help);
        tri_chain<std::complex<float>>(solve, wgs, nb, help);
      }
}

// oclgrind 21.10 (Debian 12) at times aborts in its own teardown, after
// every test here has passed ("corrupted double-linked list" from free():
// 3 of 29 runs of two at once on the 2-core machine with --data-races, none
// of 16 without that plugin, none under gdb). Its checks have reported by
// then (each finding is printed as it happens and fails the test through
// FAIL_REGULAR_EXPRESSION), and the library's own teardown runs in every
// PoCL suite, so under oclgrind the program ends without static destructors.
int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  std::fflush(nullptr);
  if (std::getenv("OPTUNE_OCLGRIND")) std::_Exit(rc);
  return rc;
}
