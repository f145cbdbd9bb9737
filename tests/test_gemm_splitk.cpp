// Split K in the tiled GEMM candidate (SPLITK): forced splits against the
// double-precision reference (odd sizes through the pads, operands read in
// place at each range's K offset, every transpose pair, beta 0 over NaN,
// bias and activation, strided batches, f32, f64, f16 storage, complex
// products through the real GEMM); the automatic rule on an H100-like
// capability set; and the paths that refuse or shrink a split.
#include <complex>
#include <random>

#include "support/gemm_fixture.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

const detail::GemmTiledFamily& fam() { return detail::families::gemm_tiled(); }

// This device's tiled defaults with KWG = 16 (more K steps to split at test
// sizes) and the given SPLITK, as the tests force them.
Params split_params(std::int64_t s) {
  Params p = fam().defaults(test::device().caps());
  p["KWG"] = 16;
  p["SPLITK"] = s;
  const Params full = fam().complete(p, test::device().caps());
  if (!fam().check(full, test::device().caps(), test::dense_problem(DType::F32, 64, 64, 64)).empty()) p["KWG"] = 32;
  return p;
}

// Both operands staged in local memory and double-buffered, so that A
// stored M x K and B stored N x K are read in place along K (KCONTIG), which
// the CPU defaults (nothing staged) never do.
Params staged_params(std::int64_t s) {
  return {{"MWG", 32}, {"NWG", 64},  {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"MDIMA", 8},
          {"NDIMB", 8}, {"KWI", 2},  {"VWM", 4},  {"VWN", 4},   {"STRM", 1},  {"STRN", 1},
          {"SA", 1},    {"SB", 1},   {"DB", 1},   {"SPLITK", s}};
}

// Runs the case on the tiled candidate with parameters p and checks the plan
// really splits it into `ranges` ranges (0: not checked).
void check_split(const Params& p, const GemmCase& c, std::int64_t ranges) {
  const std::int64_t s = p.at("SPLITK");
  detail::GemmProblem pr = test::dense_problem(c.dtype, c.m, c.n, c.k, c.batch);
  const auto fitted = fam().fit_or_none(p, test::device().caps(), pr);
  ASSERT_TRUE(fitted.has_value()) << detail::params_to_json(p);
  if (ranges) {
    EXPECT_EQ(fam().plan(*fitted, pr).splits, ranges) << ref::describe(c) << " SPLITK " << s;
  }
  const GemmForce f = test::force("tiled", &p);
  EXPECT_TRUE(ref::check_gemm(c, &f)) << ref::describe(c) << " SPLITK " << s;
}
void check_split(std::int64_t s, const GemmCase& c, std::int64_t ranges) { check_split(split_params(s), c, ranges); }

// KWG steps of K, for the expected range counts.
std::int64_t kwg() { return split_params(2).at("KWG"); }
std::int64_t ranges_of(std::int64_t k, std::int64_t s) {
  const std::int64_t steps = (k + kwg() - 1) / kwg();
  s = std::min(s, steps);
  const std::int64_t span = (steps + s - 1) / s;
  return (steps + span - 1) / span;
}

}  // namespace

// Odd M, N, K (K not a multiple of S KWG: uneven ranges, some counts giving
// fewer ranges than asked), every transpose pair, both layouts, beta 0
// (C holds NaN) and beta != 0.
TEST(GemmSplitK, ForcedSplitsOddSizesEveryTransposePair) {
  const Transpose ts[] = {Transpose::No, Transpose::Yes};
  int i = 0;
  for (std::int64_t s : {2, 4, 8}) {
    for (Transpose ta : ts) {
      for (Transpose tb : ts) {
        GemmCase c;
        c.layout = i % 2 ? Layout::ColMajor : Layout::RowMajor;
        c.trans_a = ta, c.trans_b = tb;
        c.m = 37, c.n = 29, c.k = 5 * kwg() + 3;
        c.lda_extra = 2, c.c_off = 1;
        c.alpha = 1.5;
        c.beta = i++ % 3 == 0 ? 0.0 : -0.75;
        check_split(s, c, ranges_of(c.k, s));
      }
    }
  }
}

// Operands the kernel reads in place (sizes of whole tiles, aligned), each
// range starting k0 rows of K into A and B: stored K x M / K x N, and along
// K (KCONTIG), with leading dimensions beyond the smallest.
TEST(GemmSplitK, InPlaceOperandsAtEachRangesOffset) {
  for (const Params& given : {split_params(4), staged_params(4)}) {
  const Params p = fam().complete(given, test::device().caps());
  ASSERT_EQ(fam().check(p, test::device().caps(), test::dense_problem(DType::F32, 64, 64, 64)), "");
  const std::int64_t mwg = p.at("MWG"), nwg = p.at("NWG"), kwg = p.at("KWG");
  for (Transpose ta : {Transpose::No, Transpose::Yes}) {
    for (Transpose tb : {Transpose::No, Transpose::Yes}) {
      GemmCase c;
      c.trans_a = ta, c.trans_b = tb;
      c.m = mwg, c.n = 2 * nwg, c.k = 6 * kwg;
      c.lda_extra = 16, c.ldb_extra = 32;
      c.beta = 0.5;
      detail::GemmProblem pr = test::dense_problem(DType::F32, c.m, c.n, c.k);
      pr.trans_a = ta == Transpose::Yes, pr.trans_b = tb == Transpose::Yes;
      pr.lda = (pr.trans_a ? c.m : c.k) + c.lda_extra, pr.ldb = (pr.trans_b ? c.k : c.n) + c.ldb_extra;
      const detail::TiledPlan t = fam().plan(*fam().fit_or_none(p, test::device().caps(), pr), pr);
      EXPECT_EQ(t.splits, 3);
      // The staged configuration reads both operands in place, whatever
      // their storage.
      if (given.at("SA")) EXPECT_TRUE(t.a_fits && t.b_fits) << int(ta) << int(tb);
      check_split(given, c, 3);
      // The strided batch of two in place too.
      c.mode = GemmCase::Mode::Strided, c.batch = 2;
      check_split(given, c, 3);
    }
  }
  }
}

// The epilogue after the sum: bias (per row, per column) and activation,
// per-product scalars of a strided batch with a shared A, f64 and f16
// storage.
TEST(GemmSplitK, EpilogueBatchesAndTypes) {
  GemmCase c;
  c.m = 21, c.n = 45, c.k = 4 * kwg() + 5;
  c.beta = 0.25;
  c.bias_mode = BiasMode::PerRow;
  c.activation = Unary::Relu;
  check_split(2, c, ranges_of(c.k, 2));
  c.bias_mode = BiasMode::PerColumn;
  c.activation = Unary::Gelu;
  c.beta = 0;
  check_split(4, c, ranges_of(c.k, 4));

  GemmCase b;
  b.mode = GemmCase::Mode::Strided;
  b.batch = 3;
  b.trans_b = Transpose::Yes;
  b.m = 19, b.n = 33, b.k = 3 * kwg() + 1;
  b.beta = 1;
  check_split(8, b, ranges_of(b.k, 8));
  b.shared_a = true, b.beta = 0;
  check_split(2, b, ranges_of(b.k, 2));

  GemmCase d = c;
  d.dtype = DType::F64;
  d.bias_mode = BiasMode::None, d.activation = Unary::Copy;
  d.trans_a = Transpose::Yes;
  d.beta = -1;
  check_split(4, d, ranges_of(d.k, 4));
  d.mode = GemmCase::Mode::Strided, d.batch = 2, d.beta = 0;
  check_split(2, d, ranges_of(d.k, 2));

  GemmCase h;
  h.dtype = DType::F16;
  h.c_dtype = DType::F32;
  h.accumulate = Accumulate::F32;
  h.m = 17, h.n = 23, h.k = 3 * kwg() + 7;
  h.beta = 0.5;
  check_split(4, h, ranges_of(h.k, 4));
}

// Complex products run as one real GEMM of twice the size, which the
// forced tiled split serves.
TEST(GemmSplitK, ComplexThroughTheRealGemm) {
  using C = std::complex<float>;
  const std::int64_t m = 13, n = 11, k = 3 * kwg() + 1;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<C> a(std::size_t(m * k)), b(std::size_t(k * n)), c(std::size_t(m * n), C(NAN, NAN));
  for (C& x : a) x = C(u(rng), u(rng));
  for (C& x : b) x = C(u(rng), u(rng));
  const Queue& q = test::queue();
  auto da = q.context().alloc<C>(a.size()), db = q.context().alloc<C>(b.size()), dc = q.context().alloc<C>(c.size());
  q.write(da, std::span<const C>(a)).wait();
  q.write(db, std::span<const C>(b)).wait();
  q.write(dc, std::span<const C>(c)).wait();
  const Params p = split_params(4);
  const GemmForce f = test::force("tiled", &p);
  {
    detail::GemmForceScope scope(f);
    gemm(q, Layout::RowMajor, Transpose::No, Transpose::Conjugate, m, n, k, std::complex<double>(1, -0.5), da, k, db,
         k, std::complex<double>(0, 0), dc, n)
        .wait();
  }
  q.read(dc, std::span<C>(c)).wait();
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      std::complex<double> want = 0, mag = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        const std::complex<double> x = a[std::size_t(i * k + l)], y = std::conj(std::complex<double>(b[std::size_t(j * k + l)]));
        want += x * y;
        mag += std::abs(x) * std::abs(y);
      }
      want *= std::complex<double>(1, -0.5);
      const std::complex<double> got = c[std::size_t(i * n + j)];
      EXPECT_LT(std::abs(got - want), 1e-5 * (1 + 2 * mag.real())) << i << "," << j;
    }
}

// The automatic rule (SPLITK = 0) on an H100's CUDA capabilities with the
// NVIDIA defaults (128 x 128 tiles, KWG 16): thin-ish products and small
// squares split, big squares and listed batches do not; SK_FILL and
// SK_MINK move the threshold; fit resolves the count into SPLITK.
TEST(GemmSplitK, AutomaticRule) {
  Capabilities h100 = test::nvidia_caps(Backend::CUDA, 90);
  h100.compute_units = 132;
  const Params d = fam().defaults(h100);
  EXPECT_EQ(d.at("SPLITK"), 0);
  const auto split = [&](const Params& p, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch = 1) {
    return fam().auto_split(fam().complete(p, h100), h100, test::dense_problem(DType::F32, m, n, k, batch));
  };
  EXPECT_EQ(split(d, 128, 4096, 4096), 8);   // 32 tiles on 132 units, 512 K per range
  EXPECT_EQ(split(d, 32, 4096, 4096), 8);
  EXPECT_EQ(split(d, 4096, 128, 4096), 8);
  EXPECT_EQ(split(d, 1024, 1024, 1024), 4);  // 64 tiles; 256 K per range
  EXPECT_EQ(split(d, 512, 512, 512), 2);     // 16 tiles, but K per range stays >= 256
  EXPECT_EQ(split(d, 4096, 4096, 4096), 1);  // 1024 tiles
  EXPECT_EQ(split(d, 2048, 2048, 2048), 1);  // 256 tiles
  EXPECT_EQ(split(d, 512, 512, 512, 16), 1);  // 256 groups over the batch
  EXPECT_EQ(split(d, 128, 4096, 256), 1);    // K too short for two ranges of 256
  Params p = d;
  p["SK_MINK"] = 1024;
  EXPECT_EQ(split(p, 128, 4096, 4096), 4);
  p = d;
  p["SK_FILL"] = 4;
  EXPECT_EQ(split(p, 2048, 2048, 2048), 4);
  p["SK_FILL"] = 1;
  p["SK_MINK"] = 64;
  EXPECT_EQ(split(p, 512, 512, 512), 8);

  // fit resolves SPLITK = 0 to the count (0 stays where none is chosen), and
  // the plan follows it.
  detail::GemmProblem thin = test::dense_problem(DType::F32, 128, 4096, 4096);
  const Params f = *fam().fit_or_none(d, h100, thin);
  EXPECT_EQ(f.at("SPLITK"), 8);
  const detail::TiledPlan t = fam().plan(f, thin);
  EXPECT_EQ(t.splits, 8);
  EXPECT_EQ(t.kspan, 512);
  EXPECT_FALSE(t.c_fits);
  EXPECT_EQ(t.scratch[2], std::size_t(8) * 128 * 4096 * 4);
  const auto passes = detail::tiled_candidate().needs(f, h100, thin).passes;
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_NE(passes[0].find("split K: sum of 8 ranges of 512"), std::string::npos) << passes[0];
  detail::GemmProblem square = test::dense_problem(DType::F32, 4096, 4096, 4096);
  EXPECT_EQ(fam().fit_or_none(d, h100, square)->at("SPLITK"), 0);
  EXPECT_EQ(fam().plan(*fam().fit_or_none(d, h100, square), square).splits, 1);
  EXPECT_TRUE(fam().plan(*fam().fit_or_none(d, h100, square), square).c_fits);
  // f64 likewise (its own vector widths).
  detail::GemmProblem f64 = test::dense_problem(DType::F64, 128, 4096, 4096);
  const auto f64_fit = fam().fit_or_none(d, h100, f64);
  ASSERT_TRUE(f64_fit.has_value());
  EXPECT_EQ(f64_fit->at("SPLITK"), 8);
  // CPUs never split unless told to.
  Capabilities cpu;
  cpu.type = DeviceType::CPU;
  cpu.compute_units = 64;
  cpu.max_work_group_size = 4096;
  cpu.max_work_item_sizes = {4096, 4096, 4096};
  cpu.local_mem_bytes = 64 * 1024;
  EXPECT_EQ(fam().defaults(cpu).at("SPLITK"), 1);
}

// Refusals: listed batches run unsplit (and right); the partial products
// stay under kMaxSplitScratch (the count halves); no more ranges than K
// steps; a count not among SPLITK's values is an error.
TEST(GemmSplitK, RefusalsAndLimits) {
  Capabilities h100 = test::nvidia_caps(Backend::CUDA, 90);
  h100.compute_units = 132;
  const Params d = fam().complete({}, h100);

  detail::GemmProblem listed = test::dense_problem(DType::F32, 128, 4096, 4096, 2);
  listed.list = true;
  EXPECT_EQ(fam().auto_split(d, h100, listed), 1);
  Params forced = d;
  forced["SPLITK"] = 4;
  EXPECT_EQ(fam().plan(forced, listed).splits, 1);

  detail::GemmProblem big = test::dense_problem(DType::F32, 4096, 4096, 4096);
  forced["SPLITK"] = 16;  // 16 x 64 MiB of partials: 4 x 64 MiB is the most
  EXPECT_EQ(fam().plan(forced, big).splits, 4);
  EXPECT_LE(fam().plan(forced, big).scratch[2], detail::gemm_kernels::kMaxSplitScratch);
  detail::GemmProblem huge = test::dense_problem(DType::F64, 8192, 8192, 8192);
  EXPECT_EQ(fam().plan(forced, huge).splits, 1);  // 512 MiB of f64 even unsplit: no split

  detail::GemmProblem shortk = test::dense_problem(DType::F32, 128, 128, 40);  // 3 steps of 16
  EXPECT_EQ(fam().plan(forced, shortk).splits, 3);
  EXPECT_EQ(fam().plan(forced, shortk).kspan, 16);

  // A listed batch forced to split runs unsplit and right.
  GemmCase l;
  l.mode = GemmCase::Mode::List;
  l.batch = 3;
  l.m = 23, l.n = 17, l.k = 2 * kwg() + 9;
  l.alphas = {1, 0, -2}, l.betas = {0, 1, 0.5};
  check_split(4, l, 0);

  // SPLITK = 3 is not among the values: the forced parameters cannot run.
  Params bad = split_params(2);
  bad["SPLITK"] = 3;
  const GemmForce f = test::force("tiled", &bad);
  try {
    detail::choose_gemm(test::queue(), test::dense_problem(DType::F32, 8, 8, 8), true, &f);
    ADD_FAILURE() << "SPLITK = 3 was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::Unsupported) << e.what();
  }
}

// The mma candidate's split (CUDA sm_80+; f64 on sm_90): the same rule over
// its tiles, resolved by the candidate's fit; ranges of whole BK stages; the
// raw-output program (MMA_RAW) only where it splits; lists never.
TEST(GemmSplitK, MmaRuleAndPlan) {
  Capabilities h100 = test::nvidia_caps(Backend::CUDA, 90);
  h100.compute_units = 132;
  const detail::GemmCandidate& mma = detail::mma_candidate();
  const auto& mfam = detail::families::gemm_mma();
  const Params d = mfam.defaults(h100);
  EXPECT_EQ(d.at("SPLITK"), 0);
  const auto defines_of = [&](const Params& p, const detail::GemmProblem& pr) {
    std::map<std::string, std::string> m;
    for (const auto& [k, v] : mfam.defines(p, pr)) m[k] = v;
    return m;
  };

  // f64 128 x 4096 x 4096: 32 tiles of 128 x 128 -> 8 ranges of 512.
  const detail::GemmProblem f64 = test::dense_problem(DType::F64, 128, 4096, 4096);
  ASSERT_EQ(mma.applies(f64, h100), "");
  const auto p = mma.fit(d, false, h100, f64);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->at("SPLITK"), 8);
  EXPECT_EQ(mfam.split(*p, f64).splits, 8);
  EXPECT_EQ(mfam.split(*p, f64).kspan, 512);
  // FUSE 0 (the default): MMA_RAW and gemm_copy_back's pass; FUSE 1: one
  // launch, the partials in scratch and one arrival ticket per tile.
  EXPECT_EQ(p->at("FUSE"), 0);
  const auto n = mma.needs(*p, h100, f64);
  ASSERT_EQ(n.passes.size(), 1u);
  EXPECT_NE(n.passes[0].find("split K: sum of 8 ranges of 512"), std::string::npos) << n.passes[0];
  EXPECT_EQ(n.scratch[2], std::size_t(8) * 128 * 4096 * 8);
  EXPECT_EQ(mfam.ticket_bytes(*p, f64), 0u);
  auto defs = defines_of(*p, f64);
  EXPECT_EQ(defs["MMA_RAW"], "1");
  EXPECT_EQ(defs["MMA_FUSE"], "0");
  EXPECT_EQ(defs.count("SPLITK") + defs.count("SK_FILL") + defs.count("SK_MINK") + defs.count("FUSE"), 0u);
  Params fused = *p;
  fused["FUSE"] = 1;
  const auto n1 = mma.needs(fused, h100, f64);
  EXPECT_TRUE(n1.passes.empty());
  EXPECT_EQ(n1.scratch[2], n.scratch[2]);
  EXPECT_EQ(mfam.ticket_bytes(fused, f64), std::size_t(32) * 4);
  defs = defines_of(fused, f64);
  EXPECT_EQ(defs["MMA_RAW"], "0");
  EXPECT_EQ(defs["MMA_FUSE"], "1");

  // f16 1024^3: 64 tiles -> 4; odd K: the last range is short, none empty.
  const detail::GemmProblem f16 = test::dense_problem(DType::F16, 1024, 1024, 1000);
  const auto q = mma.fit(d, false, h100, f16);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->at("SPLITK"), 2);  // 1000 < 4 x 256: halved once
  const detail::gemm_kernels::KSplit s = mfam.split(*q, f16);
  EXPECT_EQ(s.kspan % q->at("BK"), 0);
  EXPECT_LT((s.splits - 1) * s.kspan, 1000);

  // A big square and a listed batch are not split.
  const detail::GemmProblem square = test::dense_problem(DType::F16, 4096, 4096, 4096);
  const auto r = mma.fit(d, false, h100, square);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(mfam.split(*r, square).splits, 1);
  EXPECT_EQ(defines_of(*r, square)["MMA_RAW"], "0");
  Params square_fused = *r;
  square_fused["FUSE"] = 1;  // nothing to fuse without a split
  EXPECT_EQ(defines_of(square_fused, square)["MMA_FUSE"], "0");
  EXPECT_EQ(mfam.ticket_bytes(square_fused, square), 0u);
  EXPECT_TRUE(mma.needs(*r, h100, square).passes.empty());
  detail::GemmProblem listed = f64;
  listed.list = true, listed.batch = 2;
  const auto l = mma.fit(d, false, h100, listed);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(mfam.split(*l, listed).splits, 1);
  Params forced = *l;
  forced["SPLITK"] = 4;
  EXPECT_EQ(mfam.split(forced, listed).splits, 1);
}

// The mma candidate forced to split, against the reference (CUDA only; f64
// on sm_90): every transpose pair, beta 0 over NaN and beta != 0, bias and
// activation, a strided batch; operands 16-byte aligned, as mma needs. Both
// ways of adding the ranges (FUSE 1: in the kernel, whose every call after
// the first counts on the tickets the last one left at zero; FUSE 0:
// gemm_copy_back), with M and N not multiples of the tiles.
TEST(GemmSplitK, MmaForcedSplitsOnTheGpu) {
  if (std::string why = test::why_not_cuda_sm80("gemm_mma's split"); !why.empty()) GTEST_SKIP() << why;
  const bool f64 = test::device().caps().compute_capability_major >= 9;
  for (DType t : {DType::F16, DType::F64}) {
    if (t == DType::F64 && !f64) continue;
    int i = 0;
    for (std::int64_t fuse : {1, 0})
    for (std::int64_t s : {2, 4, 8}) {
      for (Transpose ta : {Transpose::No, Transpose::Yes}) {
        for (Transpose tb : {Transpose::No, Transpose::Yes}) {
          GemmCase c;
          c.dtype = t;
          c.trans_a = ta, c.trans_b = tb;
          c.m = i % 2 ? 40 : 136, c.n = i % 2 ? 24 : 144, c.k = 200;  // multiples of 8: aligned rows either way
          c.alpha = 1.5;
          c.beta = i % 3 == 0 ? 0.0 : -0.5;
          if (i % 4 == 1) c.bias_mode = BiasMode::PerColumn, c.activation = Unary::Relu;
          if (i % 4 == 2) c.mode = GemmCase::Mode::Strided, c.batch = 2, c.product_align = 8;
          ++i;
          // f64: the family's f64 shape (the defaults are f16's), so the
          // forced values are not replaced by the fallback.
          const Params p = t == DType::F64 ? Params{{"BK", 16}, {"WN", 32}, {"SPLITK", s}, {"FUSE", fuse}}
                                           : Params{{"SPLITK", s}, {"FUSE", fuse}};
          const GemmForce f = test::force("mma", &p);
          EXPECT_TRUE(ref::check_gemm(c, &f)) << ref::describe(c) << " SPLITK " << s << " FUSE " << fuse;
        }
      }
    }
  }
}

// TILE_FILL 1 (gemm_mma, a host parameter): tiles that leave compute units
// idle are halved, warp tiles with them, before the automatic split; tiles
// that fill the device, and TILE_FILL 0, are kept; warp tiles never drop
// below 16; the parameter never reaches the program's defines.
namespace {

// An H100's 132 compute units, and gemm_mma's defaults with the 64 x 64 tile
// of four 32 x 32 warps (the H200's f32 medium entry) and TILE_FILL 1.
Capabilities sm90_132() {
  Capabilities c = test::nvidia_caps(Backend::CUDA, 90);
  c.compute_units = 132;
  return c;
}
Params mma_64x64(const Capabilities& caps) {
  Params d = detail::families::gemm_mma().defaults(caps);
  d["BM"] = d["BN"] = 64, d["WM"] = d["WN"] = 32, d["TILE_FILL"] = 1;
  return d;
}

}  // namespace

TEST(GemmSplitK, MmaTileFill) {
  const Capabilities h100 = sm90_132();
  const detail::GemmCandidate& mma = detail::mma_candidate();
  const auto& mfam = detail::families::gemm_mma();
  EXPECT_EQ(mfam.defaults(h100).at("TILE_FILL"), 0);
  Params d = mma_64x64(h100);
  const auto fitted = [&](const Params& p, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch = 1) {
    const auto r = mma.fit(p, false, h100, test::dense_problem(DType::F32, m, n, k, batch));
    EXPECT_TRUE(r.has_value());
    return r.value_or(Params{});
  };
  // 512^3: 64 tiles of 64 x 64 -> 256 of 32 x 32, which fill: no split.
  Params p = fitted(d, 512, 512, 512);
  EXPECT_EQ(p.at("BM"), 32);
  EXPECT_EQ(p.at("BN"), 32);
  EXPECT_EQ(p.at("WM"), 16);
  EXPECT_EQ(p.at("WN"), 16);
  EXPECT_EQ(mfam.split(p, test::dense_problem(DType::F32, 512, 512, 512)).splits, 1);
  // 768^3: 144 tiles of 64 x 64 already fill 132 units.
  p = fitted(d, 768, 768, 768);
  EXPECT_EQ(p.at("BM"), 64);
  EXPECT_EQ(p.at("WM"), 32);
  // 256^3: 32 x 32 is as far as it goes (16-row warp tiles); 64 groups
  // stay below the units, and K = 256 is too short to split (SK_MINK 256).
  p = fitted(d, 256, 256, 256);
  EXPECT_EQ(p.at("BM"), 32);
  EXPECT_EQ(p.at("WN"), 16);
  EXPECT_EQ(mfam.split(p, test::dense_problem(DType::F32, 256, 256, 256)).splits, 1);
  // A batch that fills the device keeps the tiles.
  p = fitted(d, 512, 512, 512, 64);
  EXPECT_EQ(p.at("BM"), 64);
  // From 128 x 128 (warps of 64 x 64): halved twice for 512^3.
  Params big = d;
  big["BM"] = big["BN"] = 128, big["WM"] = big["WN"] = 64, big["BK"] = 16;
  ASSERT_EQ(mfam.check(big, h100, test::dense_problem(DType::F32, 512, 512, 512)), "");
  p = fitted(big, 512, 512, 512);
  EXPECT_EQ(p.at("BM"), 32);
  EXPECT_EQ(p.at("WM"), 16);
  p = fitted(big, 1024, 1024, 1024);  // 64 tiles -> 256 of 64 x 64
  EXPECT_EQ(p.at("BM"), 64);
  EXPECT_EQ(p.at("WN"), 32);
  // TILE_FILL 0 keeps 64 x 64 and splits K instead.
  Params off = d;
  off["TILE_FILL"] = 0;
  p = fitted(off, 512, 512, 512);
  EXPECT_EQ(p.at("BM"), 64);
  EXPECT_EQ(p.at("SPLITK"), 2);
  for (const auto& [k, v] : mfam.defines(fitted(d, 512, 512, 512), test::dense_problem(DType::F32, 512, 512, 512)))
    EXPECT_NE(k, "TILE_FILL");
  // The family's fit applies the rule and leaves TILE_FILL 0: a set whose
  // tiles fill the device fits alike with 0 and 1 (the tuner times it once),
  // and a halved one fits as the halved tile stated outright.
  const detail::GemmProblem p1024 = test::dense_problem(DType::F32, 1024, 1024, 1024);
  EXPECT_EQ(mfam.fit(d, h100, p1024), mfam.fit(off, h100, p1024));
  const detail::GemmProblem p512 = test::dense_problem(DType::F32, 512, 512, 512);
  Params stated = off;
  stated["BM"] = stated["BN"] = 32, stated["WM"] = stated["WN"] = 16;
  EXPECT_EQ(mfam.fit(d, h100, p512), mfam.fit(stated, h100, p512));
  // A tile that is not square stops before a side would drop below 64 (the
  // candidate would take that tile for a thin one): 64 x 128 stays.
  Params wide = d;
  wide["BN"] = 128, wide["WN"] = 64, wide["BK"] = 16;
  p = fitted(wide, 512, 512, 512);
  EXPECT_EQ(p.at("BM"), 64);
  EXPECT_EQ(p.at("BN"), 128);
}

// X3_FILL_MAX (gemm_mma, a host parameter): f32 products without the tf32
// opt-in (three tf32 products a term) whose groups exceed X3_FILL_MAX per
// compute unit are declined by the candidate (the routine's default order
// runs them); fuller grids only, f32 only, never forced runs; where it does
// not decline, the family's fit leaves 0 (one run for the tuner).
TEST(GemmSplitK, MmaDeclinesFullF32Grids) {
  const Capabilities h100 = sm90_132();
  const detail::GemmCandidate& mma = detail::mma_candidate();
  const auto& mfam = detail::families::gemm_mma();
  EXPECT_EQ(mfam.defaults(h100).at("X3_FILL_MAX"), 0);
  Params d = mma_64x64(h100);
  d["X3_FILL_MAX"] = 16;
  // 64 x 512^3: 4096 tiles, 31 per unit: declined; forced, it runs.
  const detail::GemmProblem batched = test::dense_problem(DType::F32, 512, 512, 512, 64);
  ASSERT_EQ(mma.applies(batched, h100), "");
  EXPECT_TRUE(detail::GemmMmaFamily::declines(d, h100, batched));
  EXPECT_FALSE(mma.fit(d, false, h100, batched).has_value());
  EXPECT_TRUE(mma.fit(d, true, h100, batched).has_value());
  // 16 x 512^3: 1024 tiles, 7.8 per unit: kept, and the fit leaves 0.
  const detail::GemmProblem fewer = test::dense_problem(DType::F32, 512, 512, 512, 16);
  const auto kept = mma.fit(d, false, h100, fewer);
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->at("X3_FILL_MAX"), 0);
  EXPECT_EQ(kept->at("BM"), 64);
  // 1024^3 alone (256 tiles) and 512^3 (halved to 32 x 32 first: 256) are kept.
  EXPECT_TRUE(mma.fit(d, false, h100, test::dense_problem(DType::F32, 1024, 1024, 1024)).has_value());
  const auto halved = mma.fit(d, false, h100, test::dense_problem(DType::F32, 512, 512, 512));
  ASSERT_TRUE(halved.has_value());
  EXPECT_EQ(halved->at("BM"), 32);
  // tf32 (the opt-in) and f16 run one product a term: never declined.
  detail::GemmProblem tf32 = batched;
  tf32.tf32 = true;
  EXPECT_FALSE(detail::GemmMmaFamily::declines(d, h100, tf32));
  const detail::GemmProblem f16 = test::dense_problem(DType::F16, 512, 512, 512, 64);
  EXPECT_FALSE(detail::GemmMmaFamily::declines(d, h100, f16));
  // Never a define: one program whatever the rule.
  Params forced = *mma.fit(d, true, h100, batched);
  for (const auto& [k, v] : mfam.defines(forced, batched)) EXPECT_NE(k, "X3_FILL_MAX");
}

// wgmma and the mma tile decline a tf32 batch that fills the device on tiles
// mostly of padding (4096 x 64^3: the tiled kernel's FMAs ran it 4-5x
// faster), unless its parameters are forced; single products (thin ones are
// memory-bound), short batches, 16-bit products and tiles the batch fills
// keep them.
TEST(GemmSplitK, TensorCoresDeclineMostlyPaddedTf32Batches) {
  const Capabilities h100 = sm90_132();
  const detail::GemmCandidate& wgmma = detail::wgmma_candidate();
  const Params d = detail::families::gemm_wgmma().defaults(h100);
  const auto tf32 = [](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch = 1) {
    detail::GemmProblem pr = test::dense_problem(DType::F32, m, n, k, batch);
    pr.tf32 = true;
    return pr;
  };
  EXPECT_FALSE(wgmma.fit(d, false, h100, tf32(64, 64, 64, 4096)).has_value());
  EXPECT_TRUE(wgmma.fit(d, true, h100, tf32(64, 64, 64, 4096)).has_value());
  EXPECT_FALSE(wgmma.fit(d, false, h100, tf32(40, 300, 64, 200)).has_value());  // 12000 of 128 x 512, 400 groups
  EXPECT_TRUE(wgmma.fit(d, false, h100, tf32(40, 300, 64)).has_value());        // one product
  EXPECT_TRUE(wgmma.fit(d, false, h100, tf32(64, 48, 40, 3)).has_value());      // 3 groups
  EXPECT_TRUE(wgmma.fit(d, false, h100, tf32(24, 4096, 4096)).has_value());     // thin
  // Half the tile's rows (64 of 128) over whole columns is not "less than half".
  EXPECT_TRUE(wgmma.fit(d, false, h100, tf32(64, 4096, 4096, 8)).has_value());
  EXPECT_TRUE(wgmma.fit(d, false, h100, tf32(512, 512, 512, 64)).has_value());
  EXPECT_TRUE(wgmma.fit(d, false, h100, test::dense_problem(DType::F16, 64, 64, 64, 4096)).has_value());
  // The mma tile, next in the routine's order, on the same rule: its
  // default 128 x 128 tile declines the batch of 64^3 (unless forced), a 64 x
  // 64 one keeps it; 16-bit products and single thin ones keep any tile.
  const detail::GemmCandidate& mma = detail::mma_candidate();
  Params m = detail::families::gemm_mma().defaults(h100);
  ASSERT_EQ(m.at("BM"), 128);
  ASSERT_EQ(m.at("BN"), 128);
  EXPECT_FALSE(mma.fit(m, false, h100, tf32(64, 64, 64, 4096)).has_value());
  EXPECT_TRUE(mma.fit(m, true, h100, tf32(64, 64, 64, 4096)).has_value());
  EXPECT_TRUE(mma.fit(m, false, h100, test::dense_problem(DType::BF16, 64, 64, 64, 4096)).has_value());
  m["BM"] = m["BN"] = 64, m["WM"] = m["WN"] = 32;
  EXPECT_TRUE(mma.fit(m, false, h100, tf32(64, 64, 64, 4096)).has_value());
  EXPECT_TRUE(mma.fit(m, false, h100, tf32(24, 4096, 4096)).has_value());
}
