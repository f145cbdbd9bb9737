// Small kernels meant to run under oclgrind's memory, race and
// uninitialised-value checks (CTest label oclgrind); on their own they are
// ordinary correctness tests. Sizes stay tiny: oclgrind interprets every
// work-item.
#include "kernels/copy/copy.hpp"
#include "kernels/peak/peak.hpp"
#include "reference/gemm_check.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;

TEST(Oclgrind, CopyKernelsStayInBounds) {
  const Queue& q = test::queue();
  const Capabilities& caps = q.device().caps();
  const CopyFamily& fam = static_cast<const CopyFamily&>(find_family("copy"));
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
        Problem pr;
        pr.sizes = {n};
        pr.extra = {{"x_offset", off}, {"y_offset", off}};
        const Params p{{"VW", vw}, {"WGS", 64}, {"GRID_STRIDE", gs}, {"WAVES", gs ? 1 : 4}};
        ASSERT_EQ(fam.check(p, caps, pr), "");
        fam.launch(q, p, pr, *x.mem(), *y.mem()).wait();
        const auto out = q.download(y);
        for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(out[std::size_t(off + i)], host[std::size_t(off + i)]);
      }
}

TEST(Oclgrind, PeakKernelWritesEveryItem) {
  const Queue& q = test::queue();
  const PeakFamily& fam = static_cast<const PeakFamily&>(find_family("peak"));
  Problem pr;
  pr.sizes = {64};
  pr.extra = {{"iters", 2}};
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
  GemmForce fd, ft;
  fd.path = GemmPath::Direct, fd.direct = &direct;
  ft.path = GemmPath::Tiled, ft.tiled = &tiled;
  ref::GemmCase c;
  c.layout = Layout::ColMajor, c.trans_a = Transpose::Yes;
  c.m = 11, c.n = 9, c.k = 13, c.lda_extra = 1, c.c_off = 2;
  c.beta = 0.5, c.bias_mode = BiasMode::PerRow, c.activation = Unary::Relu;
  EXPECT_TRUE(ref::check_gemm(c, &fd));
  EXPECT_TRUE(ref::check_gemm(c, &ft));
  ref::GemmCase fits;  // in place: no helper passes
  fits.trans_a = Transpose::Yes, fits.m = 32, fits.n = 16, fits.k = 16;
  EXPECT_TRUE(ref::check_gemm(fits, &ft));
  ref::GemmCase list;
  list.mode = ref::GemmCase::Mode::List, list.batch = 3, list.m = 5, list.n = 3, list.k = 4;
  list.alphas = {1, 0, -0.5}, list.betas = {0, 1, 2};
  EXPECT_TRUE(ref::check_gemm(list, &fd));
  EXPECT_TRUE(ref::check_gemm(list, &ft));
}
