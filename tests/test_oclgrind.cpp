// Small kernels meant to run under oclgrind's memory, race and
// uninitialised-value checks (CTest label oclgrind); on their own they are
// ordinary correctness tests. Sizes stay tiny: oclgrind interprets every
// work-item.
#include "kernels/copy/copy.hpp"
#include "kernels/peak/peak.hpp"
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
