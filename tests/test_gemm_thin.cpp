// The thin candidate (gemm_thin.cl: M or N at most 16) against the
// double-precision reference (reference/gemm_check.hpp: fresh random data,
// poisoned gaps, NaN in C when beta = 0): thin M and thin N (the swapped
// form) from 1 to 16, every layout and transposition (both code paths: B
// read along N and along K; A's packs along K and along M), odd sizes, the
// epilogue, strided and listed batches, f32, f64, f16 and bf16, with K
// split over groups and not, in the device's default shape and in shapes
// that take the in-group reductions, sub-groups, row blocks and wide column
// blocks; the descriptor's fit, split, A's packs and refusals on an H100's
// capabilities; and the routine's choice.
#include <cmath>
#include <random>

#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

const Layout kLayouts[] = {Layout::RowMajor, Layout::ColMajor};
const Transpose kTrans[] = {Transpose::No, Transpose::Yes};

// Shapes that take each part of the kernel: the GPU default (local
// reductions along y or x in rounds of fewer rows than MT, 8 loads in
// flight, A in packs of 4 through the caches), two rows per group with
// several row blocks, an odd split and A in packs of 2 or staged in local
// memory 2 steps at a time (AL along N, ALK along K), one lane per output
// along K with wide column blocks and A staged a step at a time, and the
// device's own defaults (on a CPU, A staged 4 steps at a time) split and
// not, and B loaded a step ahead.
const Params kGpuShape{{"WGX", 32}, {"WGY", 8}, {"VW", 4}, {"NJ", 1}, {"KU", 8}, {"MT", 16}, {"AV", 4}, {"AL", 0}};
const Params kRowBlocks{{"WGX", 8}, {"WGY", 4}, {"VW", 2}, {"NJ", 2}, {"KU", 2},
                        {"MT", 2}, {"AV", 2}, {"AL", 2}, {"ALK", 2}, {"SPLIT", 3}, {"FUSE", 1}};
const Params kOneLane{{"WGX", 1}, {"WGY", 16}, {"VW", 4}, {"NJ", 4}, {"KU", 2},
                      {"MT", 8},  {"AV", 1},  {"AL", 1}, {"ALK", 1}};
// B one step ahead (PF), along N and along K, split and not.
const Params kPrefetch{{"WGX", 16}, {"WGY", 4}, {"VW", 2}, {"NJ", 2}, {"KU", 2},
                       {"MT", 4}, {"AV", 2}, {"AL", 0}, {"PF", 1}, {"SPLIT", 2}};
const Params kNoSplit{{"SPLIT", 1}};
const Params kSplit4{{"SPLIT", 4}};
// The split's partials added by each tile's last group (FUSE 1) rather than
// by a second kernel (the default).
const Params kSplit4Fused{{"SPLIT", 4}, {"FUSE", 1}};

std::vector<GemmForce> configs() {
  std::vector<GemmForce> out;
  for (const Params* p : {&kNoSplit, &kSplit4, &kGpuShape, &kRowBlocks, &kOneLane, &kPrefetch, &kSplit4Fused})
    out.push_back(test::force("thin", p));
  return out;
}

// A thin case: m x n x k with the thin side given (m or n), odd strides.
GemmCase thin_case(std::int64_t m, std::int64_t n, std::int64_t k, int variant) {
  GemmCase c;
  c.m = m, c.n = n, c.k = k;
  c.layout = kLayouts[variant % 2];
  c.trans_a = kTrans[variant / 2 % 2];
  c.trans_b = kTrans[variant / 4 % 2];
  c.alpha = variant % 3 ? 1.0 : -0.5;
  c.beta = variant % 3 == 2 ? 0.5 : 0.0;
  return c;
}

}  // namespace

// Every layout and transposition pair, thin M and thin N, odd sizes; the
// leading dimensions and offsets decide the pack width (1 where odd).
TEST(GemmThin, LayoutsTranspositionsAndSizes) {
  const std::vector<GemmForce> forces = configs();
  for (std::size_t f = 0; f < forces.size(); ++f)
    for (int variant = 0; variant < 8; ++variant)
      for (auto [m, n, k] : {std::tuple{1, 1000, 1023}, {7, 257, 130}, {16, 1024, 64}, {1023, 2, 129}}) {
        GemmCase c = thin_case(m, n, k, variant);
        if (f % 2) c.lda_extra = 3, c.ldb_extra = 1, c.ldc_extra = 2, c.a_off = 5, c.b_off = 1, c.c_off = 7;
        EXPECT_TRUE(ref::check_gemm(c, &forces[f]));
      }
}

// The thin dimension from 1 to 16 (MT 1, 2, 4, 8, 16, with rows past M in
// the last block), every layout and transposition pair (A's packs along K or
// along M, B read along N or along K), odd N and K from 1 to 4099, with the
// device's defaults, K split (SPLIT: the same program) and not.
TEST(GemmThin, ThinSizesEveryTransposePair) {
  const GemmForce split = test::force("thin", &kSplit4), whole = test::force("thin", &kNoSplit);
  const std::tuple<std::int64_t, std::int64_t> wide[] = {{1000, 7}, {7, 1000}, {1, 4099}, {4099, 1}};
  int i = 0;
  for (std::int64_t t : {1, 2, 3, 8, 13, 16})
    for (int variant = 0; variant < 8; ++variant) {
      const auto [n, k] = wide[(t + variant) % 4];
      // Thin M or thin N (the swapped form), whichever the layout.
      GemmCase c = (t + variant / 2) % 2 ? thin_case(n, t, k, variant) : thin_case(t, n, k, variant);
      c.beta = i % 3 == 1 ? 0.0 : c.beta;  // beta = 0: C poisoned with NaN, never read
      EXPECT_TRUE(ref::check_gemm(c, i++ % 2 ? &split : &whole));
    }
}

// Long K (split into many ranges), one column, and thin both ways.
TEST(GemmThin, EdgeShapes) {
  const std::vector<GemmForce> forces = configs();
  for (const GemmForce& f : forces)
    for (auto [m, n, k] : {std::tuple{2, 1000, 4097}, {16, 1, 1000}, {1, 16, 1000}, {3, 5, 7}, {16, 16, 16}}) {
      GemmCase c = thin_case(m, n, k, m + n);
      EXPECT_TRUE(ref::check_gemm(c, &f)) << "force " << &f - forces.data();
    }
}

// alpha, beta (NaN in C when beta = 0), bias on either side and
// activations, thin M and thin N (the bias's side swaps with them).
TEST(GemmThin, FusedEpilogue) {
  const GemmForce split = test::force("thin", &kSplit4), whole = test::force("thin", &kNoSplit);
  const std::tuple<Unary, OpParams> acts[] = {{Unary::Copy, {}}, {Unary::Relu, {}}, {Unary::Gelu, {}},
                                              {Unary::LeakyRelu, {0.2, NAN}}};
  int i = 0;
  for (const auto& [act, params] : acts)
    for (BiasMode bias : {BiasMode::PerRow, BiasMode::PerColumn})
      for (auto [m, n] : {std::pair{5, 300}, {300, 5}}) {
        GemmCase c;
        c.layout = kLayouts[i % 2];
        c.trans_b = kTrans[i / 2 % 2];
        c.m = m, c.n = n, c.k = 257;
        c.alpha = i % 4 == 3 ? 0.0 : 1.5;
        c.beta = i % 3 ? 0.0 : -0.5;
        c.bias_mode = bias, c.activation = act, c.activation_params = params;
        ++i;
        EXPECT_TRUE(ref::check_gemm(c, i % 2 ? &split : &whole));
      }
}

// Strided (one A shared) and listed batches with alpha and beta per
// product, thin M and thin N (the table's A and B slots swap).
TEST(GemmThin, Batches) {
  const GemmForce split = test::force("thin", &kSplit4), whole = test::force("thin", &kNoSplit),
                  fused = test::force("thin", &kSplit4Fused);
  int i = 0;
  for (const GemmForce* f : {&split, &whole, &fused})
    for (GemmCase::Mode mode : {GemmCase::Mode::Strided, GemmCase::Mode::List})
      for (auto [m, n] : {std::pair{3, 200}, {200, 3}}) {
        GemmCase c = thin_case(m, n, 129, i++);
        c.mode = mode;
        c.batch = 5;
        c.shared_a = mode == GemmCase::Mode::Strided && m < n;
        if (mode == GemmCase::Mode::List) c.alphas = {1, 0, -2, 0.5, 1}, c.betas = {0, 1, 0, 0.5, 2};
        c.product_align = 4;
        EXPECT_TRUE(ref::check_gemm(c, f));
      }
}

// The arrival tickets of the fused split are zeroed once, when their
// memory is allocated, and left zero by every call: calls in a row on one
// queue (more tiles, fewer, a batch, other splits) each add their own
// partials, and agree bit for bit with the second pass.
TEST(GemmThin, TicketsStayZeroAcrossCalls) {
  const Params split3{{"SPLIT", 3}, {"FUSE", 1}}, split7{{"SPLIT", 7}, {"MT", 2}, {"FUSE", 1}};
  const GemmForce forces[] = {test::force("thin", &kSplit4Fused), test::force("thin", &split3),
                              test::force("thin", &split7), test::force("thin", &kSplit4Fused)};
  int i = 0;
  for (auto [m, n, batch] : {std::tuple{5, 700, 1}, {3, 90, 4}, {16, 1500, 2}, {2, 33, 1}, {9, 700, 3}})
    for (const GemmForce& f : forces) {
      GemmCase c = thin_case(m, n, 517, i++);
      c.batch = batch;
      if (batch > 1) c.mode = GemmCase::Mode::Strided;
      EXPECT_TRUE(ref::check_gemm(c, &f)) << m << "x" << n << " batch " << batch;
    }
}

// The fused split adds the partials in split order, as the second pass
// does: the two agree bit for bit (f32, thin M along K and thin N along N,
// a batch of 3, bias and an activation).
TEST(GemmThin, FusedSplitMatchesTheSecondPassBitForBit) {
  const Queue& q = test::queue();
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  const Params fused{{"SPLIT", 5}, {"FUSE", 1}}, two{{"SPLIT", 5}, {"FUSE", 0}};
  for (auto [m, n, tb] : {std::tuple{6, 333, Transpose::Yes}, {301, 7, Transpose::No}}) {
    const std::int64_t k = 650, batch = 3;
    std::vector<float> a(std::size_t(batch * m * k)), b(std::size_t(batch * k * n)), bias(static_cast<std::size_t>(m));
    for (float& x : a) x = u(rng);
    for (float& x : b) x = u(rng);
    for (float& x : bias) x = u(rng);
    auto da = q.context().alloc<float>(a.size()), db = q.context().alloc<float>(b.size()),
         dbias = q.context().alloc<float>(bias.size());
    q.write(da, std::span<const float>(a)).wait();
    q.write(db, std::span<const float>(b)).wait();
    q.write(dbias, std::span<const float>(bias)).wait();
    std::vector<float> out[2];
    for (int f = 0; f < 2; ++f) {
      auto dc = q.context().alloc<float>(std::size_t(batch * m * n));
      q.fill(dc, float(NAN)).wait();
      GemmOptions o;
      o.bias = Operand(dbias, {m}), o.bias_mode = BiasMode::PerRow, o.activation = Unary::Relu;
      const GemmForce force = test::force("thin", f ? &two : &fused);
      {
        detail::GemmForceScope scope(force);
        gemm_strided_batched(q, Layout::RowMajor, Transpose::No, tb, m, n, k, 1.0, da, k, m * k, db,
                             tb == Transpose::Yes ? k : n, k * n, 0.0, dc, n, m * n, batch, o)
            .wait();
      }
      out[f] = q.download(dc);
    }
    ASSERT_EQ(out[0].size(), out[1].size());
    for (std::size_t i = 0; i < out[0].size(); ++i) {
      ASSERT_FALSE(std::isnan(out[0][i])) << i;
      ASSERT_EQ(out[0][i], out[1][i]) << m << "x" << n << " element " << i;
    }
  }
}

// f16 (f32 arithmetic whatever the call asks), bf16 (with an f32 C) and
// f64, thin M and thin N in turn, on four of the shapes (each type and shape
// is a program).
TEST(GemmThin, DataTypes) {
  std::vector<DType> types{DType::F16, DType::BF16};
  if (test::device().caps().fp64) types.push_back(DType::F64);
  const std::vector<GemmForce> forces = configs();
  int i = 0;
  for (DType t : types)
    for (std::size_t f = 0; f < 4; ++f) {
      const auto [m, n] = f % 2 ? std::pair{520, 1} : std::pair{8, 520};
      GemmCase c = thin_case(m, n, 300, i++);
      c.dtype = t;
      if (t == DType::BF16) c.c_dtype = DType::F32;
      c.accumulate = i % 2 ? Accumulate::Default : Accumulate::F32;
      if (t == DType::F64) c.accumulate = Accumulate::Default;
      c.bias_mode = BiasMode::PerRow;
      EXPECT_TRUE(ref::check_gemm(c, &forces[f]));
    }
}

// Forced on a product that is not thin: a clear error.
TEST(GemmThin, ForcedOnAWideProductIsRefused) {
  const GemmForce f = test::force("thin");
  GemmCase c;
  c.m = c.n = 33, c.k = 8;
  const ::testing::AssertionResult r = ref::check_gemm(c, &f);  // the call's error, as a failure
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("the forced thin kernel does not apply"), std::string::npos) << r.message();
}

// 17 to 32 thin rows where B is read along N (row-major: thin M with B not
// transposed, thin N with A transposed, the swapped form), split and not,
// with the device's defaults (M = 32 in one row block where it fits 256
// registers), 16-row blocks and 32-row blocks of narrow packs, f32 and f64;
// where B is read along K the forced kernel is refused with the reason.
TEST(GemmThin, RowsSeventeenToThirtyTwoAlongN) {
  const Params rows16{{"MT", 16}, {"VW", 2}, {"KU", 2}, {"NJ", 1}, {"AV", 2}, {"SPLIT", 2}};
  const Params rows32{{"MT", 32}, {"VW", 2}, {"KU", 2}, {"NJ", 2}, {"AV", 2}, {"AL", 1}, {"SPLIT", 1}};
  const GemmForce forces[] = {test::force("thin", &kNoSplit), test::force("thin", &kSplit4),
                              test::force("thin", &rows16), test::force("thin", &rows32)};
  int i = 0;
  for (std::int64_t t : {17, 24, 32})
    for (std::size_t f = 0; f < std::size(forces); ++f)
      for (bool thin_n : {false, true}) {
        GemmCase c = thin_n ? thin_case(515, t, 131, 0) : thin_case(t, 515, 131, 0);
        c.layout = Layout::RowMajor;
        c.trans_a = thin_n ? Transpose::Yes : kTrans[i % 2];
        c.trans_b = thin_n ? kTrans[i % 2] : Transpose::No;
        c.beta = i % 3 ? 0.0 : 0.5;  // beta = 0: C poisoned with NaN, never read
        if (i % 4 == 3 && test::device().caps().fp64) c.dtype = DType::F64;
        ++i;
        EXPECT_TRUE(ref::check_gemm(c, &forces[f])) << t << " rows, force " << f << (thin_n ? ", thin N" : "");
      }
  GemmCase along_k = thin_case(20, 515, 131, 0);
  along_k.layout = Layout::RowMajor, along_k.trans_b = Transpose::Yes;
  const ::testing::AssertionResult r = ref::check_gemm(along_k, &forces[0]);
  EXPECT_FALSE(r);
  EXPECT_NE(std::string(r.message()).find("at most 32 where B is read along N"), std::string::npos) << r.message();
}

// The routine takes thin products to the thin kernel by default (8 x 4096 x
// 4096 decode-time shape, and its transposed N-thin twin), and leaves the
// others where they were.
TEST(GemmThin, RoutineChoosesThin) {
  const Queue& q = test::queue();
  const auto chosen = [&](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch = 1) {
    return detail::choose_gemm(q, test::dense_problem(DType::F32, m, n, k, batch), true, nullptr).candidate->name();
  };
  EXPECT_EQ(chosen(8, 4096, 4096), "thin");
  EXPECT_EQ(chosen(4096, 8, 4096), "thin");
  EXPECT_EQ(chosen(1, 4096, 4096), "thin");
  EXPECT_EQ(chosen(16, 1024, 1024, 4), "thin");
  // 17 rows are past the default THIN_MAX of 16 (a shipped entry may raise it
  // to 32, as the H100's f32 ones do: held at 16 here).
  const GemmForce sixteen = test::force_routine({{"THIN_MAX", 16}});
  EXPECT_NE(detail::choose_gemm(q, test::dense_problem(DType::F32, 17, 4096, 4096), true, &sixteen).candidate->name(),
            "thin");
  EXPECT_NE(chosen(64, 64, 64), "thin");
  EXPECT_NE(chosen(8, 16, 16), "thin");  // below THIN_MIN
  // KERNEL = 4 runs it where it applies, and THIN_MIN = 2^20 never.
  const GemmForce never = test::force_routine({{"THIN_MIN", 1 << 20}});
  EXPECT_NE(detail::choose_gemm(q, test::dense_problem(DType::F32, 8, 4096, 4096), true, &never).candidate->name(),
            "thin");
  // THIN_MAX keeps the kernel to the thinnest products: 1 row goes thin,
  // 8 rows (or columns) do not.
  const GemmForce one = test::force_routine({{"THIN_MAX", 1}});
  EXPECT_EQ(detail::choose_gemm(q, test::dense_problem(DType::F32, 1, 4096, 4096), true, &one).candidate->name(),
            "thin");
  EXPECT_EQ(detail::choose_gemm(q, test::dense_problem(DType::F32, 4096, 1, 4096), true, &one).candidate->name(),
            "thin");
  EXPECT_NE(detail::choose_gemm(q, test::dense_problem(DType::F32, 8, 4096, 4096), true, &one).candidate->name(),
            "thin");
  EXPECT_NE(detail::choose_gemm(q, test::dense_problem(DType::F32, 4096, 8, 4096), true, &one).candidate->name(),
            "thin");
  // THIN_MAX = 32 takes 17 to 32 rows there too, where B is read along N.
  const GemmForce rows32 = test::force_routine({{"THIN_MAX", 32}});
  EXPECT_EQ(detail::choose_gemm(q, test::dense_problem(DType::F32, 32, 4096, 4096), true, &rows32).candidate->name(),
            "thin");
  detail::GemmProblem along_k = test::dense_problem(DType::F32, 32, 4096, 4096);
  along_k.trans_b = true;
  EXPECT_NE(detail::choose_gemm(q, along_k, true, &rows32).candidate->name(), "thin");
  EXPECT_NE(detail::choose_gemm(q, test::dense_problem(DType::F32, 33, 4096, 4096), true, &rows32).candidate->name(),
            "thin");
  const GemmForce kernel4 = test::force_routine({{"KERNEL", 4}});
  EXPECT_EQ(detail::choose_gemm(q, test::dense_problem(DType::F32, 8, 16, 16), true, &kernel4).candidate->name(),
            "thin");
  EXPECT_NE(detail::choose_gemm(q, test::dense_problem(DType::F32, 64, 64, 64), true, &kernel4).candidate->name(),
            "thin");
  // KERNEL names a candidate that does not apply (mma off CUDA sm_80+, or an
  // operand not 16-byte aligned): the routine's default order, not direct.
  const GemmForce kernel3 = test::force_routine({{"KERNEL", 3}});
  detail::GemmProblem thin8 = test::dense_problem(DType::F32, 8, 4096, 4096);
  const bool mma_here = detail::mma_candidate().applies(thin8, q.device().caps()).empty();
  EXPECT_EQ(detail::choose_gemm(q, thin8, true, &kernel3).candidate->name(), mma_here ? "mma" : "thin");
  thin8.align_b = 1;
  EXPECT_EQ(detail::choose_gemm(q, thin8, true, &kernel3).candidate->name(), "thin");
  // THIN_FIRST: the thin kernel where THIN_MAX and THIN_MIN choose it, the
  // named tile for the bucket's thicker products (past 32 rows, or THIN_MAX).
  const auto pick = [&](const GemmForce& f, std::int64_t m, std::int64_t n) {
    return detail::choose_gemm(q, test::dense_problem(DType::F32, m, n, 4096), true, &f).candidate->name();
  };
  const GemmForce tiled = test::force_routine({{"KERNEL", 2}, {"THIN_MAX", 32}});
  const GemmForce tiled_after = test::force_routine({{"KERNEL", 2}, {"THIN_MAX", 32}, {"THIN_FIRST", 1}});
  const GemmForce tiled_after16 = test::force_routine({{"KERNEL", 2}, {"THIN_MAX", 16}, {"THIN_FIRST", 1}});
  EXPECT_EQ(pick(tiled, 8, 4096), "tiled");
  EXPECT_EQ(pick(tiled_after, 8, 4096), "thin");
  EXPECT_EQ(pick(tiled_after, 4096, 8), "thin");
  EXPECT_EQ(pick(tiled_after, 32, 4096), "thin");
  EXPECT_EQ(pick(tiled_after, 48, 4096), "tiled");
  EXPECT_EQ(pick(tiled_after16, 24, 4096), "tiled");
  EXPECT_EQ(pick(test::force_routine({{"KERNEL", 2}, {"THIN_FIRST", 1}, {"THIN_MIN", 1 << 20}}), 8, 4096), "tiled");
  // And the call itself, through the routine's choice.
  GemmCase c = thin_case(8, 2048, 512, 0);
  EXPECT_TRUE(ref::check_gemm(c));
}

// ---- the descriptor on an H100's capabilities (no device needed) ----

namespace {

const detail::GemmThinFamily& fam() { return detail::families::gemm_thin(); }

detail::GemmProblem nk_problem(std::int64_t m, std::int64_t n, std::int64_t k) {
  detail::GemmProblem pr = test::dense_problem(DType::F32, m, n, k);
  pr.trans_b = true;
  return pr;
}

}  // namespace

TEST(GemmThinDescriptor, ViewSwapsThinN) {
  detail::GemmProblem pr = test::dense_problem(DType::F32, 4096, 8, 1024);
  pr.trans_a = true;
  pr.align_a = 4, pr.align_b = 1;
  const detail::ThinView v = detail::GemmThinFamily::view(pr);
  EXPECT_TRUE(v.swapped);
  EXPECT_EQ(v.m, 8);
  EXPECT_EQ(v.n, 4096);
  EXPECT_TRUE(v.trans_a);    // the kernel's A is B^T: B stored K x N is A' stored K x M'
  EXPECT_FALSE(v.trans_b);   // the kernel's B is A^T: A stored K x M is read along N'
  EXPECT_EQ(v.align_b, 4);
  EXPECT_FALSE(detail::GemmThinFamily::view(test::dense_problem(DType::F32, 8, 4096, 1024)).swapped);
  EXPECT_EQ(fam().bucket(pr), "m<=8/kn");
  EXPECT_EQ(fam().bucket(nk_problem(1, 4096, 4096)), "m<=1/nk");
  EXPECT_EQ(fam().bucket(nk_problem(3, 4096, 4096)), "m<=4/nk");
  EXPECT_EQ(fam().bucket_chain(nk_problem(3, 4096, 4096)), std::vector<std::string>{"m<=4/nk"});
  // N thin with A stored row-major: the kernel's thin operand (B^T) is stored
  // K x M and its wide one (A^T) is read along K, a refinement of "/nk".
  const detail::GemmProblem thin_n = test::dense_problem(DType::F32, 4096, 16, 4096);
  EXPECT_EQ(fam().bucket(thin_n), "m<=16/nk/km");
  EXPECT_EQ(fam().bucket_chain(thin_n), (std::vector<std::string>{"m<=16/nk/km", "m<=16/nk"}));
  // Five to eight rows refine the 16-row bucket and fall back to it.
  EXPECT_EQ(fam().bucket_chain(pr), (std::vector<std::string>{"m<=8/kn", "m<=16/kn"}));
  EXPECT_EQ(fam().bucket_chain(nk_problem(5, 4096, 4096)), (std::vector<std::string>{"m<=8/nk", "m<=16/nk"}));
  EXPECT_EQ(fam().bucket_chain(nk_problem(9, 4096, 4096)), std::vector<std::string>{"m<=16/nk"});
  EXPECT_EQ(fam().bucket_chain(test::dense_problem(DType::F32, 4096, 8, 4096)),
            (std::vector<std::string>{"m<=16/nk/km", "m<=16/nk"}));
  EXPECT_EQ(fam().bucket(test::dense_problem(DType::F32, 4096, 1, 4096)), "m<=1/nk");
  for (const std::string& b : fam().buckets()) {
    const detail::GemmProblem ex = fam().make_example(DType::F32, b, {});
    EXPECT_EQ(fam().bucket(ex), b);
    EXPECT_EQ(fam().bucket_chain(ex).front(), b);
  }
}

TEST(GemmThinDescriptor, FitSplitAndGeometryOnH100) {
  const Capabilities h100 = test::nvidia_caps(Backend::CUDA, 90);
  Capabilities caps = h100;
  caps.compute_units = 132, caps.max_threads_per_cu = 2048, caps.subgroups = true, caps.warp_size = 32;
  caps.subgroup_sizes = {32};
  const detail::GemmProblem pr = test::dense_problem(DType::F32, 8, 4096, 4096);
  const Params p = fam().fit(fam().defaults(caps), caps, pr);
  EXPECT_EQ(p.at("MT"), 8);  // the thin dimension's power of two
  EXPECT_EQ(p.at("VW"), 4);
  EXPECT_EQ(p.at("AV"), 4);
  const detail::ThinSplit s = fam().split(p, caps, pr);
  EXPECT_GT(s.splits, 1);  // 32 column blocks do not fill 132 SMs
  EXPECT_EQ(s.kspan % 32, 0);  // the group's step: 8 rows of lanes, 4 rows of B each
  EXPECT_GE(s.splits * s.kspan, 4096);
  EXPECT_LT((s.splits - 1) * s.kspan, 4096);
  EXPECT_EQ(fam().scratch_bytes(p, caps, pr), std::size_t(s.splits) * 8 * 4096 * 4);
  const detail::Geometry g = fam().geometry(p, caps, pr);
  EXPECT_EQ(g.local[0] * g.local[1], 256u);
  EXPECT_EQ(g.global[0], 4096u / 128 * 32);
  EXPECT_EQ(g.global[1], std::size_t(s.splits) * 8);
  // The split's partials: added by a second pass by default, which the
  // candidate names, or by each tile's last group (FUSE 1: one arrival
  // ticket per tile, 32 column blocks and one row block).
  EXPECT_EQ(p.at("FUSE"), 0);
  EXPECT_EQ(fam().ticket_bytes(p, caps, pr), 0u);
  EXPECT_EQ(detail::thin_candidate().needs(p, caps, pr).passes.size(), 1u);
  Params fused = p;
  fused["FUSE"] = 1;
  EXPECT_EQ(fam().ticket_bytes(fused, caps, pr), 32u * 4);
  EXPECT_TRUE(detail::thin_candidate().needs(fused, caps, pr).passes.empty());
  // SPLIT = 1: none; a big batch fills the device by itself.
  Params one = p;
  one["SPLIT"] = 1;
  EXPECT_EQ(fam().split(one, caps, pr).splits, 1);
  EXPECT_EQ(fam().scratch_bytes(one, caps, pr), 0u);
  one["FUSE"] = 1;
  EXPECT_EQ(fam().ticket_bytes(one, caps, pr), 0u);  // no split, no tickets
  EXPECT_EQ(fam().fit(one, caps, pr).at("FUSE"), 0);  // nor the program's code for them
  EXPECT_EQ(fam().fit(fused, caps, pr).at("FUSE"), 1);
  EXPECT_EQ(fam().split(p, caps, test::dense_problem(DType::F32, 8, 4096, 4096, 256)).splits, 1);
  // Along K with sub-groups of 32: SG stays on where WGX is 32.
  const detail::GemmProblem nk = nk_problem(8, 4096, 4096);
  const Params q = fam().fit(fam().defaults(caps), caps, nk);
  EXPECT_EQ(q.at("SG"), 1);
  const detail::Defines d = fam().defines(q, nk);
  EXPECT_NE(std::find(d.begin(), d.end(), std::pair<std::string, std::string>{"B_KCONTIG", "1"}), d.end());
  EXPECT_NE(std::find(d.begin(), d.end(), std::pair<std::string, std::string>{"A_KCONTIG", "1"}), d.end());
  EXPECT_EQ(std::count_if(d.begin(), d.end(), [](const auto& kv) { return kv.first == "SPLIT"; }), 0);
  // f16 storage: f32 arithmetic, 8-element packs on CUDA; f64: 2.
  detail::GemmProblem h = pr;
  h.dtype = DType::F16, h.comp_half = true;
  const Params hp = fam().fit(fam().defaults(caps), caps, h);
  const detail::Defines hd = fam().defines(hp, h);
  EXPECT_NE(std::find(hd.begin(), hd.end(), std::pair<std::string, std::string>{"COMP", "float"}), hd.end());
  Params wide = fam().defaults(caps);
  wide["VW"] = 8;
  EXPECT_EQ(fam().fit(wide, caps, h).at("VW"), 8);
  EXPECT_EQ(fam().fit(wide, caps, pr).at("VW"), 4);
  detail::GemmProblem d64 = pr;
  d64.dtype = DType::F64;
  EXPECT_EQ(fam().fit(wide, caps, d64).at("VW"), 2);
}

// A's packs: along K (A stored M x K) they divide the lane's consecutive K
// (KU rows with B read along N, VW with B read along K), along M (stored
// K x M) they divide MT; fit lowers AV to what A's alignment allows.
TEST(GemmThinDescriptor, APacks) {
  Capabilities caps = test::nvidia_caps(Backend::CUDA, 90);
  caps.compute_units = 132;
  detail::GemmProblem pr = test::dense_problem(DType::F32, 8, 4096, 4096);
  Params p = fam().defaults(caps);
  p["MT"] = 8, p["AV"] = 4, p["KU"] = 2;
  EXPECT_EQ(fam().check(p, caps, pr), "AV does not divide KU (A stored M x K, B read along N)");
  EXPECT_EQ(fam().fit(p, caps, pr).at("AV"), 2);
  p["KU"] = 8, p["VW"] = 2;
  EXPECT_EQ(fam().check(p, caps, nk_problem(8, 4096, 4096)), "AV does not divide VW (A stored M x K, B read along K)");
  detail::GemmProblem ta = test::dense_problem(DType::F32, 2, 4096, 4096);
  ta.trans_a = true;
  p = fam().defaults(caps);
  p["MT"] = 2;
  EXPECT_EQ(fam().check(p, caps, ta), "AV does not divide MT (A stored K x M)");
  EXPECT_EQ(fam().fit(fam().defaults(caps), caps, ta).at("AV"), 2);
  pr.align_a = 1;
  EXPECT_EQ(fam().check(fam().defaults(caps), caps, pr),
            "A's offset, leading dimension or batch stride is not a multiple of AV");
  EXPECT_EQ(fam().fit(fam().defaults(caps), caps, pr).at("AV"), 1);
  // Thin N: the kernel's A is the call's B, with its alignment.
  detail::GemmProblem tn = test::dense_problem(DType::F32, 4096, 8, 4096);
  tn.align_a = 1, tn.align_b = 2;
  const Params f = fam().fit(fam().defaults(caps), caps, tn);
  EXPECT_EQ(f.at("AV"), 2);
  EXPECT_EQ(f.at("VW"), 1);
  // f64 on CUDA: packs of 2 at most.
  detail::GemmProblem d64 = test::dense_problem(DType::F64, 8, 4096, 4096);
  EXPECT_EQ(fam().fit(fam().defaults(caps), caps, d64).at("AV"), 2);
  p = fam().defaults(caps);
  p["VW"] = 2;
  EXPECT_EQ(fam().check(p, caps, d64), "AV exceeds the backend's widest pack for this type");
}

// A staged in local memory (AL) where B is read along N only: the define
// is 0 along K, and fit halves AL until A's chunk fits.
TEST(GemmThinDescriptor, AStagedInLocalMemory) {
  Capabilities caps = test::nvidia_caps(Backend::OpenCL, 90);
  caps.compute_units = 132;
  const auto al = [](const detail::Defines& d) {
    for (const auto& [k, v] : d)
      if (k == "AL") return v;
    return std::string();
  };
  Params p = fam().defaults(caps);
  EXPECT_EQ(p.at("AL"), 0);  // GPUs: A through the caches
  p["AL"] = 4;
  const detail::GemmProblem kn = test::dense_problem(DType::F32, 16, 4096, 4096);
  EXPECT_EQ(al(fam().defines(fam().fit(p, caps, kn), kn)), "4");
  EXPECT_EQ(al(fam().defines(fam().fit(p, caps, nk_problem(16, 4096, 4096)), nk_problem(16, 4096, 4096))), "0");
  // 16 rows of 16 steps of 8 x 16 rows of K: 128 KiB, halved to 32 KiB.
  p["AL"] = 16, p["WGY"] = 16, p["KU"] = 8, p["AV"] = 4;
  EXPECT_NE(fam().check(p, caps, kn), "");
  EXPECT_EQ(fam().fit(p, caps, kn).at("AL"), 4);
  Capabilities cpu = caps;
  cpu.type = DeviceType::CPU;
  EXPECT_EQ(fam().defaults(cpu).at("AL"), 4);
}

// Along K A is staged by ALK instead (default 0): its define reaches only the
// programs that read B along K, check refuses it along N (the tuner would
// time one program twice) and fit clears it there; fit halves it until A's
// padded chunk fits, down to 0.
TEST(GemmThinDescriptor, AStagedAlongK) {
  Capabilities caps = test::nvidia_caps(Backend::OpenCL, 90);
  caps.compute_units = 132;
  const auto def = [](const detail::Defines& d, const std::string& key) {
    for (const auto& [k, v] : d)
      if (k == key) return v;
    return std::string();
  };
  Params p = fam().defaults(caps);
  EXPECT_EQ(p.at("ALK"), 0);
  // A step of 16 lanes x 2 packs of 4: two steps are 16 rows of 260, 16 KiB.
  p["ALK"] = 2, p["AL"] = 4, p["WGX"] = 16, p["KU"] = 2, p["AV"] = 2;
  const detail::GemmProblem nk = nk_problem(16, 4096, 4096), kn = test::dense_problem(DType::F32, 16, 4096, 4096);
  const Params along_k = fam().fit(p, caps, nk);
  EXPECT_EQ(def(fam().defines(along_k, nk), "ALK"), "2");
  EXPECT_EQ(def(fam().defines(along_k, nk), "AL"), "0");
  EXPECT_EQ(fam().check(p, caps, kn), "ALK stages A where B is read along K; here B is read along N (AL)");
  const Params along_n = fam().fit(p, caps, kn);
  EXPECT_EQ(along_n.at("ALK"), 0);
  EXPECT_EQ(def(fam().defines(along_n, kn), "AL"), "4");
  // 16 rows of 4 steps of 512 (32 lanes x 4 packs of 4) plus 4 f32
  // elements: 128 KiB, over the device's 48 KiB; halved to one step, 32 KiB.
  p = fam().defaults(caps);
  p["ALK"] = 4, p["WGX"] = 32, p["VW"] = 4, p["KU"] = 4, p["MT"] = 16;
  EXPECT_EQ(fam().check(p, caps, nk), "local memory exceeds the device's");
  EXPECT_EQ(fam().fit(p, caps, nk).at("ALK"), 1);
}

// The f32 defaults pass the descriptor's own check at every bucket's
// example, on this device and on an H100 (the tuner starts from them
// unfitted; M = 32 takes MT 32 on GPUs and 16 on CPUs, whose wide packs would
// pass 256 registers). Other types' widths come from the fit.
TEST(GemmThinDescriptor, DefaultsRunEveryBucket) {
  Capabilities h100 = test::nvidia_caps(Backend::CUDA, 90);
  h100.compute_units = 132;
  for (const Capabilities& caps : {test::device().caps(), h100})
    for (const std::string& b : fam().buckets())
      EXPECT_EQ(fam().check(fam().defaults(caps), caps, fam().make_example(DType::F32, b, caps)), "")
          << caps.name << " " << b;
}

// Where N is the thinner side the product runs swapped, unless only the
// unswapped form is within the limits (17 to 32 rows along N only).
TEST(GemmThinDescriptor, SwapKeepsThePathWithinItsLimit) {
  const auto view = [](std::int64_t m, std::int64_t n) {
    return detail::GemmThinFamily::view(test::dense_problem(DType::F32, m, n, 4096));
  };
  EXPECT_TRUE(view(4096, 8).swapped);  // thin N: swapped, B read along K with 8 rows
  EXPECT_TRUE(view(16, 8).swapped);
  EXPECT_FALSE(view(32, 24).swapped);  // swapped, 24 rows along K: over 16
  EXPECT_EQ(view(32, 24).m, 32);
  EXPECT_TRUE(detail::GemmThinFamily::fits_thin(test::dense_problem(DType::F32, 32, 24, 4096)));
  EXPECT_FALSE(detail::GemmThinFamily::fits_thin(test::dense_problem(DType::F32, 4096, 24, 4096)));
}

TEST(GemmThinDescriptor, Refusals) {
  Capabilities caps = test::nvidia_caps(Backend::OpenCL, 90);
  caps.compute_units = 132;
  const detail::GemmProblem pr = test::dense_problem(DType::F32, 8, 4096, 4096);
  Params p = fam().defaults(caps);
  EXPECT_EQ(fam().check(p, caps, pr), "");
  Params q = p;
  q["WGX"] = 256, q["WGY"] = 64;
  EXPECT_NE(fam().check(q, caps, pr), "");
  detail::GemmProblem odd = pr;
  odd.align_b = 2;
  EXPECT_NE(fam().check(p, caps, odd), "");
  EXPECT_EQ(fam().fit(p, caps, odd).at("VW"), 2);
  q = p;
  q["SG"] = 1;  // not a candidate value without sub-groups
  EXPECT_NE(fam().check(q, caps, pr), "");
  q = p;
  q["MT"] = 16, q["NJ"] = 4, q["VW"] = 4, q["KU"] = 4;  // 16 x 16 accumulators and 16 loads
  EXPECT_NE(fam().check(q, caps, pr), "");
  // B one step ahead doubles its registers: 8 x 16 accumulators and 2 x 128
  // loads do not fit, one set of 128 does, and so do 2 x 64; along K (16 x 4
  // accumulators and 2 x 64 loads) it fits.
  q = p;
  q["MT"] = 8, q["NJ"] = 4, q["VW"] = 4, q["KU"] = 8, q["PF"] = 1;
  EXPECT_NE(fam().check(q, caps, pr), "");
  q["PF"] = 0;
  EXPECT_EQ(fam().check(q, caps, pr), "");
  q["PF"] = 1, q["KU"] = 4;
  EXPECT_EQ(fam().check(q, caps, pr), "");
  q["MT"] = 16, q["NJ"] = 4, q["KU"] = 4;
  EXPECT_EQ(fam().check(q, caps, nk_problem(16, 4096, 4096)), "");
  // Local memory: one row of the in-group reduction along K, 4 x 4096 sums.
  q = p;
  q["WGX"] = 256, q["WGY"] = 4, q["VW"] = 16, q["NJ"] = 4, q["KU"] = 1, q["MT"] = 1, q["AV"] = 1;
  EXPECT_NE(fam().check(q, caps, test::dense_problem(DType::F32, 1, 4096, 4096)), "");
  q["WGY"] = 1;
  EXPECT_EQ(fam().check(q, caps, test::dense_problem(DType::F32, 1, 4096, 4096)), "");
  EXPECT_NE(detail::thin_candidate().applies(test::dense_problem(DType::F32, 33, 33, 4096), caps), "");
  EXPECT_EQ(detail::thin_candidate().applies(test::dense_problem(DType::F32, 32, 33, 4096), caps), "");
  EXPECT_EQ(detail::thin_candidate().applies(test::dense_problem(DType::F32, 17, 17, 4096), caps), "");
  EXPECT_NE(detail::thin_candidate().applies(nk_problem(17, 4096, 4096), caps), "");  // along K: 16 at most
  EXPECT_EQ(detail::thin_candidate().applies(nk_problem(16, 4096, 4096), caps), "");
  // M = 32 under the GPU defaults: one block of 32 rows (36 x 4 registers).
  EXPECT_EQ(fam().fit(p, caps, test::dense_problem(DType::F32, 32, 4096, 4096)).at("MT"), 32);
}

// The products on the tensor cores (TC 1, gemm_thin_tc.cl) on an H100's
// capabilities: where B is read along K and A stored M x K in 16-byte
// packs, the fit takes WGX 32, the type's pack and MT 8 or 16; the split's
// step is the group's warps times 4 packs of KU; B read along N takes
// blocks of 16 VW columns; A stored K x M is gathered (AV 1); elsewhere
// (odd leading dimensions, OpenCL, sm_80 for f32 and f64) TC falls back to
// the scalar kernel, and check names each refusal.
TEST(GemmThinDescriptor, TensorCoreFit) {
  Capabilities caps = test::nvidia_caps(Backend::CUDA, 90);
  caps.compute_units = 132, caps.max_threads_per_cu = 2048, caps.subgroups = true, caps.warp_size = 32;
  caps.subgroup_sizes = {32};
  const Params tc{{"TC", 1}, {"WGY", 4}, {"NJ", 2}, {"KU", 2}, {"MT", 2}, {"VW", 1}, {"WGX", 8}, {"ALK", 2}};
  const auto def = [](const detail::Defines& d, const std::string& k) {
    for (const auto& [key, v] : d)
      if (key == k) return v;
    return std::string("(none)");
  };
  for (auto [dt, pack] : {std::pair{DType::F32, 4}, {DType::F64, 2}, {DType::F16, 8}, {DType::BF16, 8}})
    for (std::int64_t m : {1, 8, 9, 16}) {
      detail::GemmProblem pr = nk_problem(m, 4096, 4096);
      pr.dtype = dt;
      const Params p = fam().fit(tc, caps, pr);
      EXPECT_EQ(p.at("TC"), 1);
      EXPECT_EQ(p.at("WGX"), 32);
      EXPECT_EQ(p.at("VW"), pack);
      EXPECT_EQ(p.at("MT"), m <= 8 ? 8 : 16);
      EXPECT_EQ(p.at("ALK"), 0);
      EXPECT_EQ(fam().check(p, caps, pr), "");
      EXPECT_EQ(def(fam().defines(p, pr), "TC"), "1");
      const detail::ThinSplit s = fam().split(p, caps, pr);
      EXPECT_EQ(s.kspan % (4 * 4 * pack * 2), 0);  // 4 warps, 4 lanes along K, KU 2 packs
      const detail::Geometry g = fam().geometry(p, caps, pr);
      EXPECT_EQ(g.local[0], 32u);
      EXPECT_EQ(g.local[1], 4u);
      EXPECT_EQ(g.global[0], 4096u / 32 * 32);  // 2 blocks of 16 columns a group
    }
  // Refusals: the fit falls back to the scalar kernel, check says why.
  detail::GemmProblem pr = nk_problem(8, 4096, 4096);
  Params forced = fam().fit(tc, caps, pr);
  // B's cache hints: a define of the tensor-core program only.
  Params hinted = tc;
  hinted["BHINT"] = 2;
  EXPECT_EQ(def(fam().defines(fam().fit(hinted, caps, pr), pr), "BHINT"), "2");
  detail::GemmProblem stored_km = pr;  // A stored K x M: TC 2 only (gathered), B's hints kept
  stored_km.trans_a = true, stored_km.lda = 8, stored_km.align_a = 8;
  EXPECT_EQ(fam().fit(hinted, caps, stored_km).at("BHINT"), 0);
  Params hinted2 = hinted;
  hinted2["TC"] = 2;
  EXPECT_EQ(fam().fit(hinted2, caps, stored_km).at("BHINT"), 2);
  detail::GemmProblem untiled = pr;  // the scalar kernel has no hints
  untiled.align_b = 2;
  EXPECT_EQ(fam().fit(hinted2, caps, untiled).at("BHINT"), 0);
  EXPECT_EQ(def(fam().defines(forced, pr), "BHINT"), "(none)");
  // B read along N: f32 and f64, blocks of 16 VW columns.
  const detail::GemmProblem nn = test::dense_problem(DType::F32, 8, 4096, 4096);
  const Params along_n = fam().fit(tc, caps, nn);
  EXPECT_EQ(along_n.at("TC"), 1);
  EXPECT_EQ(fam().geometry(along_n, caps, nn).global[0], 4096u / (16 * 2 * 4) * 32);
  EXPECT_EQ(fam().split(along_n, caps, nn).kspan % (4 * 4 * 4 * 2), 0);
  EXPECT_EQ(def(fam().defines(along_n, nn), "B_KCONTIG"), "0");
  detail::GemmProblem nn16 = nn;
  nn16.dtype = DType::F16;
  // 16-bit types: blocks of 128 columns, 16 packs of B per pack of A; two
  // blocks and KU 2 would hold 264 values (refused, the defaults run), one 168.
  EXPECT_EQ(fam().fit(tc, caps, nn16).at("TC"), 0);
  Params one_block = tc;
  one_block["NJ"] = 1;
  const Params along_n16 = fam().fit(one_block, caps, nn16);
  EXPECT_EQ(along_n16.at("TC"), 1);
  EXPECT_EQ(fam().geometry(along_n16, caps, nn16).global[0], 4096u / (16 * 8) * 32);
  // A stored K x M: TC 1 refuses it; TC 2 gathers it element by element,
  // so no packs of A (AV 1) and any leading dimension (5 rows, lda 5).
  detail::GemmProblem km = pr;
  km.trans_a = true, km.lda = 8, km.align_a = 8;
  EXPECT_EQ(fam().fit(tc, caps, km).at("TC"), 0);
  EXPECT_EQ(fam().check(forced, caps, km), "TC 1 needs A stored M x K (TC 2 gathers A stored K x M)");
  Params tc2 = tc;
  tc2["TC"] = 2;
  const Params along_km = fam().fit(tc2, caps, km);
  EXPECT_EQ(along_km.at("TC"), 2);
  EXPECT_EQ(along_km.at("AV"), 1);
  EXPECT_EQ(along_km.at("VW"), 4);
  EXPECT_EQ(fam().check(along_km, caps, km), "");
  EXPECT_EQ(def(fam().defines(along_km, km), "A_KCONTIG"), "0");
  detail::GemmProblem km5 = nk_problem(5, 4096, 4096);
  km5.trans_a = true, km5.lda = 5, km5.align_a = 5;
  EXPECT_EQ(fam().fit(tc2, caps, km5).at("TC"), 2);
  EXPECT_EQ(fam().fit(tc2, caps, km5).at("MT"), 8);
  EXPECT_EQ(def(fam().defines(fam().fit(tc2, caps, km5), km5), "TC"), "2");
  detail::GemmProblem odd = pr;
  odd.align_b = 2;
  EXPECT_EQ(fam().fit(tc, caps, odd).at("TC"), 0);
  EXPECT_EQ(fam().check(forced, caps, odd),
            "TC needs A's (stored M x K) and B's offsets, leading dimensions and batch strides in 16-byte packs");
  detail::GemmProblem odd_a = pr;  // A stored M x K in odd packs
  odd_a.align_a = 2;
  EXPECT_EQ(fam().fit(tc, caps, odd_a).at("TC"), 0);
  Capabilities sm80 = test::nvidia_caps(Backend::CUDA, 80);
  EXPECT_EQ(fam().fit(tc, sm80, pr).at("TC"), 0);
  detail::GemmProblem h = pr;
  h.dtype = DType::F16;
  EXPECT_EQ(fam().fit(tc, sm80, h).at("TC"), 1);  // m16n8k16 from sm_80
  Capabilities ocl = test::nvidia_caps(Backend::OpenCL, 90);
  EXPECT_EQ(fam().fit(tc, ocl, pr).at("TC"), 0);
  Params q = forced;
  q["VW"] = 2;
  EXPECT_EQ(fam().check(q, caps, pr), "TC needs WGX 32 and VW the type's 16-byte pack");
  q = forced, q["MT"] = 4;
  EXPECT_EQ(fam().check(q, caps, pr), "TC needs MT 8 or 16");
  // The warps' fragments in local memory: 8 warps of 4 blocks of 16 columns
  // and 16 rows of f64 sums are 64 KiB, so the fit halves the warps to 4.
  Params big = tc;
  big["WGY"] = 8, big["NJ"] = 4;
  const Params fitted = fam().fit(big, caps, nk_problem(16, 4096, 4096));
  EXPECT_EQ(fitted.at("TC"), 1);
  EXPECT_EQ(fitted.at("WGY"), 4);
}

// The products on the tensor cores on the device (TC 1; CUDA, where the
// fit keeps it): x W^T in row-major (thin M) and its thin-N twin, both
// reading B along K, and NN (thin M) and TT (thin N), reading B along N,
// all with the kernel's A stored M x K; f32 (as f64 products), f64, f16 and
// bf16; thin sizes 1, 5, 8, 9 and 16 (MT 8 and 16, rows past M); odd N
// (rows of B past the last block); K a multiple of the pack, with a tail
// pack (leading dimensions padded to the pack) and shorter than a step;
// unsplit with one warp, split with four warps and a second pass, split and
// fused, each step's loads issued before the last one's products (PF), B's
// loads with and without cache hints (BHINT); alpha, beta (NaN in C when 0),
// bias, activations and a strided batch. Devices where TC does not apply
// skip (the descriptor test holds the fallback).
TEST(GemmThin, TensorCores) {
  // TC 2: TC 1's kernel, and A stored K x M gathered.
  const Params one{{"TC", 2}, {"WGY", 1}, {"NJ", 1}, {"KU", 1}, {"SPLIT", 1}};
  const Params four{{"TC", 2}, {"WGY", 4}, {"NJ", 2}, {"KU", 2}, {"SPLIT", 3}, {"BHINT", 2}};
  // (Where B is read along N, fit refuses the wider shapes of f16 and 16-row
  // products, over 256 values, and the scalar kernel runs them: one warp and
  // the fused shape take every type and size onto the tensor cores.)
  const Params fused{{"TC", 2}, {"WGY", 2}, {"NJ", 1}, {"KU", 1}, {"SPLIT", 4}, {"FUSE", 1}, {"PF", 1}};
  const Params automatic{{"TC", 2}, {"WGY", 4}, {"NJ", 2}, {"KU", 1}, {"PF", 1}, {"BHINT", 1}};
  const GemmForce forces[] = {test::force("thin", &one), test::force("thin", &four), test::force("thin", &fused),
                              test::force("thin", &automatic)};
  const Capabilities& caps = test::device().caps();
  if (fam().fit({{"TC", 1}}, caps, nk_problem(8, 4096, 4096)).at("TC") == 0)
    GTEST_SKIP() << "the tensor-core path does not apply on this device";
  const std::tuple<Unary, OpParams> acts[] = {{Unary::Copy, {}}, {Unary::Relu, {}}, {Unary::Gelu, {}}};
  // Row-major: NT with thin M or thin N (B read along K); NN with thin M and
  // TT with thin N (B read along N). The thin operand stored K x M (its
  // packs gathered, its rows at times of an odd length): TT with thin M and
  // NN with thin N (B read along K), TN with thin M or thin N (along N).
  struct Form {
    Transpose ta, tb;
    bool thin_n, along_n, a_km;
  };
  const Form forms[] = {{Transpose::No, Transpose::Yes, false, false, false},
                        {Transpose::No, Transpose::Yes, true, false, false},
                        {Transpose::No, Transpose::No, false, true, false},
                        {Transpose::Yes, Transpose::Yes, true, true, false},
                        {Transpose::Yes, Transpose::Yes, false, false, true},
                        {Transpose::No, Transpose::No, true, false, true},
                        {Transpose::Yes, Transpose::No, false, true, true},
                        {Transpose::Yes, Transpose::No, true, true, true}};
  int i = 0;
  for (const Form& form : forms)
    for (DType t : {DType::F32, DType::F16, DType::BF16, DType::F64})
      for (std::int64_t thin : {1, 5, 8, 9, 16})
        for (std::size_t f = 0; f < std::size(forces); ++f, ++i) {
          const std::int64_t k = i % 3 == 0 ? 1000 : i % 3 == 1 ? 1003 : 40;
          GemmCase c = form.thin_n ? thin_case(517, thin, k, 0) : thin_case(thin, 517, k, 0);
          c.layout = Layout::RowMajor, c.trans_a = form.ta, c.trans_b = form.tb;
          // Stored rows padded to a multiple of 8 elements (16-byte packs), 8 more at times.
          const std::int64_t a_row = c.trans_a == Transpose::Yes ? c.m : c.k;
          const std::int64_t b_row = c.trans_b == Transpose::Yes ? c.k : c.n;
          c.lda_extra = (8 - a_row % 8) % 8 + (i % 4 == 1 ? 8 : 0);
          c.ldb_extra = (8 - b_row % 8) % 8 + (i % 4 == 1 ? 8 : 0);
          // The thin operand stored K x M is gathered: rows of any length.
          if (form.a_km && i % 4 == 3) (form.thin_n ? c.ldb_extra : c.lda_extra) = 3;
          c.a_off = c.b_off = i % 4 == 2 ? 16 : 0;
          c.ldc_extra = i % 5, c.c_off = i % 3;
          c.dtype = t;
          if (t == DType::BF16) c.c_dtype = DType::F32;
          if (t == DType::F16) c.accumulate = Accumulate::F32;
          c.alpha = i % 3 ? 1.0 : -0.5;
          c.beta = i % 4 == 0 ? 0.0 : 0.5;
          c.bias_mode = i % 3 == 2 ? BiasMode::PerRow : i % 3 == 1 ? BiasMode::PerColumn : BiasMode::None;
          std::tie(c.activation, c.activation_params) = acts[i % 3];
          if (i % 7 == 3) c.batch = 3, c.mode = GemmCase::Mode::Strided, c.product_align = 16;
          EXPECT_TRUE(ref::check_gemm(c, &forces[f]))
              << "type " << int(t) << ", " << thin << " thin " << (form.thin_n ? "columns" : "rows") << ", B "
              << (form.along_n ? "along N" : "along K") << (form.a_km ? ", thin operand K x M" : "") << ", K " << k
              << ", force " << f;
        }
}
