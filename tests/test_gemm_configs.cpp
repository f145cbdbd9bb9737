// The GEMM kernels' non-default configurations, forced, against the
// reference: the shipped defaults of every device class (whatever this
// device's are), each switch of the tiled kernel (local staging, double
// buffering, strided access, vector widths, load shapes, unrolling), the
// direct kernel's; and the tuner over the three families (every candidate
// is verified against the default configuration).
#include "support/gemm_fixture.hpp"
#include "tuning/tuner.hpp"

using namespace optune;
using ref::GemmCase;
using detail::GemmForce;
using detail::Params;

namespace {

Params tiled_params(std::int64_t mwg, std::int64_t nwg, std::int64_t kwg, std::int64_t mdimc, std::int64_t ndimc,
                    std::int64_t mdima, std::int64_t ndimb, std::int64_t kwi, std::int64_t vwm, std::int64_t vwn,
                    std::int64_t strm, std::int64_t strn, std::int64_t sa, std::int64_t sb, std::int64_t db) {
  return {{"MWG", mwg},     {"NWG", nwg},   {"KWG", kwg}, {"MDIMC", mdimc}, {"NDIMC", ndimc},
          {"MDIMA", mdima}, {"NDIMB", ndimb}, {"KWI", kwi}, {"VWM", vwm},     {"VWN", vwn},
          {"STRM", strm},   {"STRN", strn}, {"SA", sa},   {"SB", sb},       {"DB", db}};
}

// Runs c with the tiled parameters p when this device accepts them (the
// load shape of an operand that is not staged is the device's default).
void check_tiled(Params p, const GemmCase& c) {
  const auto& fam = detail::families::gemm_tiled();
  const Params d = fam.defaults(test::device().caps());
  if (!p["SA"]) p["MDIMA"] = d.at("MDIMA");
  if (!p["SB"]) p["NDIMB"] = d.at("NDIMB");
  const std::string why = fam.check(fam.complete(p, test::device().caps()), test::device().caps(),
                                    test::dense_problem(DType::F32, c.m, c.n, c.k));
  if (!why.empty()) {
    std::printf("skipped %s: %s\n", detail::params_to_json(p).c_str(), why.c_str());
    return;
  }
  const GemmForce f = test::force("tiled", &p);
  EXPECT_TRUE(ref::check_gemm(c, &f)) << detail::params_to_json(p);
}

}  // namespace

TEST(GemmConfigs, TiledKernel) {
  const Params configs[] = {
      // The defaults for NVIDIA and CPUs (other GPUs': NVIDIA's on 64 x 64).
      tiled_params(128, 128, 16, 16, 16, 32, 32, 2, 4, 4, 1, 1, 1, 1, 1),
      tiled_params(64, 64, 32, 8, 2, 8, 2, 4, 8, 16, 0, 0, 0, 0, 0),
      // One operand staged, one stage, contiguous rows; B staged only.
      tiled_params(32, 64, 16, 8, 8, 8, 0, 4, 4, 2, 0, 1, 1, 0, 0),
      tiled_params(64, 32, 16, 16, 4, 0, 4, 8, 1, 8, 1, 0, 0, 1, 1),
      // Scalar everything, KWI = 1, and load shapes unlike the compute shape.
      tiled_params(16, 16, 32, 4, 4, 2, 16, 1, 1, 1, 1, 1, 1, 1, 1),
      // A tall tile with wide vectors along M (OpenCL only).
      tiled_params(256, 16, 8, 16, 2, 4, 4, 2, 16, 1, 1, 1, 1, 1, 0),
  };
  for (const Params& p : configs) {
    // In place (m, n, k multiples of the tiles, aligned): no helper passes,
    // A stored K x M and B K x N, then both stored with rows along K (loaded
    // transposed when the configuration allows, else padded); then an odd
    // problem through pads and copy-back.
    GemmCase fits;
    fits.trans_a = Transpose::Yes;
    fits.m = 256, fits.n = 128, fits.k = 64;
    fits.beta = 0.5;
    check_tiled(p, fits);
    fits.trans_a = Transpose::No, fits.trans_b = Transpose::Yes, fits.lda_extra = 64, fits.ldb_extra = 32;
    check_tiled(p, fits);
    // One operand through the transposition pass instead, the other loaded
    // along K (KCONTIG_A, KCONTIG_B), and loaded in row segments of one and
    // two vectors.
    for (const char* pass : {"KCONTIG_A", "KCONTIG_B"}) {
      Params passes = p;
      passes[pass] = 0;
      check_tiled(passes, fits);
    }
    for (std::int64_t seg : {1, 2}) {
      Params segments = p;
      segments["KSEG"] = seg;
      check_tiled(segments, fits);
    }
    GemmCase odd;
    odd.layout = Layout::ColMajor;
    odd.trans_b = Transpose::Yes;
    odd.m = 37, odd.n = 21, odd.k = 19, odd.ldc_extra = 3, odd.c_off = 2;
    odd.beta = 2;
    check_tiled(p, odd);
  }
}

TEST(GemmConfigs, DirectKernel) {
  const Params configs[] = {
      {{"WGD", 8}, {"MDIMCD", 2}, {"NDIMCD", 4}, {"KWID", 8}, {"VWMD", 1}, {"VWND", 2}, {"PADA", 0}, {"PADB", 0}},
      {{"WGD", 16}, {"MDIMCD", 8}, {"NDIMCD", 2}, {"KWID", 16}, {"VWMD", 2}, {"VWND", 8}, {"PADA", 1}, {"PADB", 0}},
      {{"WGD", 32}, {"MDIMCD", 8}, {"NDIMCD", 8}, {"KWID", 2}, {"VWMD", 4}, {"VWND", 1}, {"PADA", 0}, {"PADB", 1}},
      {{"WGD", 64}, {"MDIMCD", 16}, {"NDIMCD", 16}, {"KWID", 4}, {"VWMD", 1}, {"VWND", 4}, {"PADA", 1}, {"PADB", 1}},
  };
  int i = 0;
  for (const Params& p : configs) {
    const GemmForce f = test::force("direct", &p);
    for (Transpose t : {Transpose::No, Transpose::Yes}) {
      GemmCase c;
      c.layout = i++ % 2 ? Layout::ColMajor : Layout::RowMajor;
      c.trans_a = t, c.trans_b = t;
      c.m = 45, c.n = 37, c.k = 70, c.lda_extra = 1, c.b_off = 3;
      c.beta = -0.5;
      EXPECT_TRUE(ref::check_gemm(c, &f)) << detail::params_to_json(p);
    }
  }
}

// Small products get a smaller direct tile (shrink_direct): halved while M
// and N fit in half of it, with a group shape that still divides it; a
// product that needs the whole tile keeps it. The shrunk tile computes right.
TEST(GemmConfigs, DirectTileShrinksToSmallProducts) {
  const Capabilities& caps = test::device().caps();
  const Params big{{"WGD", 64}, {"MDIMCD", 8}, {"NDIMCD", 8}, {"KWID", 4}, {"VWMD", 8},
                   {"VWND", 4}, {"PADA", 1}, {"PADB", 0}, {"LCHUNK", 8}};
  const auto& direct = detail::families::gemm_direct();
  detail::GemmProblem pr = test::dense_problem(DType::F32, 32, 20, 32, 256);
  Params p = direct.shrink(big, caps, pr);
  EXPECT_EQ(p["WGD"], 32);
  EXPECT_EQ(p["MDIMCD"], 4);  // 4 x VWMD 8 = 32
  EXPECT_EQ(p["NDIMCD"], 8);  // 8 x VWND 4 = 32
  // 7 x 3 would fit in 8 x 8, but 8 rows of VWMD = 8 need MDIMCD = 1, which
  // is not one of the family's values: the tile stops at 16.
  pr.m = 7, pr.n = 3;
  p = direct.shrink(big, caps, pr);
  EXPECT_EQ(p["WGD"], 16);
  EXPECT_EQ(p["MDIMCD"], 2);
  EXPECT_EQ(p["NDIMCD"], 4);
  EXPECT_EQ(p["KWID"], 4);
  pr.m = 33;
  EXPECT_EQ(direct.shrink(big, caps, pr)["WGD"], 64);

  // Through the public routine (the database's parameters, shrunk): a batch of
  // small products against the reference.
  GemmCase c;
  c.mode = GemmCase::Mode::Strided;
  c.m = 13, c.n = 9, c.k = 21, c.batch = 5;
  c.beta = 0.5;
  EXPECT_TRUE(ref::check_gemm(c));
}

// The tuner's cases for the three families: random candidates (and the
// routine's whole space), each verified against the default; none may fail.
TEST(GemmConfigs, TunerVerifiesCandidates) {
  const Queue& q = test::queue();
  detail::GemmProblem pr = test::dense_problem(DType::F32, 48, 40, 56, 2);
  pr.trans_b = true;
  pr.ldb = 56;
  for (const char* name : {"gemm_tiled", "gemm_direct", "gemm_routine"}) {
    detail::TuneOptions o;
    o.strategy = std::string(name) == "gemm_routine" ? detail::Strategy::Exhaustive : detail::Strategy::Random;
    o.candidates = 2;
    o.runs = 1;
    o.warmup = 1;
    o.timeout_seconds = 300;  // PoCL compiles a kernel at its first launch
    o.seed = test::seed();
    const detail::TuneResult r = detail::tune(q, detail::families::find(name), pr, o);
    EXPECT_GE(r.evaluated, 2u) << name;
    for (const auto& c : r.invalid)
      EXPECT_EQ(c.stage, "check") << name << " " << detail::params_to_json(c.params) << ": " << c.reason;
  }
}

TEST(GemmConfigs, BucketsAndExamples) {
  const auto& fam = detail::families::gemm_tiled();
  const Capabilities& caps = test::device().caps();
  for (const std::string& b : fam.buckets()) {
    const detail::GemmProblem pr = fam.make_example(DType::F32, b, caps);
    EXPECT_EQ(fam.bucket(pr), b);
    EXPECT_EQ(fam.check(fam.defaults(caps), caps, pr), "") << b;
  }
  detail::GemmProblem pr = test::dense_problem(DType::F32, 64, 64, 64);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "small");
  pr = test::dense_problem(DType::F32, 4096, 16, 4096);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "skinny");
  pr = test::dense_problem(DType::F32, 64, 64, 64, 512);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "batched");
  // Batches of larger products: with a side of 64 (the Winograd
  // convolutions' 36 products of 64 x P x 64) up to 400^3 each, else 256^3.
  pr = test::dense_problem(DType::F32, 64, 6272, 64, 36);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "batched");
  pr = test::dense_problem(DType::F32, 64, 16384, 128, 36);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "skinny");
  pr = test::dense_problem(DType::F32, 128, 1568, 128, 36);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "medium");
  pr = test::dense_problem(DType::F32, 64, 6272, 64, 8);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "skinny");
  pr = test::dense_problem(DType::F32, 8192, 8192, 8192);
  EXPECT_EQ(detail::gemm_kernels::bucket(pr), "large");

  // Transpose pairs refine the size buckets; NN adds nothing. The refined
  // bucket's example has its pair and leading dimensions, and falls back on
  // its size bucket (bucket_chain).
  for (const char* pair : {"nt", "tn", "tt"}) {
    const std::string b = std::string("medium/") + pair;
    EXPECT_TRUE(fam.knows_bucket(b)) << b;
    const detail::GemmProblem ex = fam.make_example(DType::F32, b, caps);
    EXPECT_EQ(ex.trans_a, pair[0] == 't');
    EXPECT_EQ(ex.trans_b, pair[1] == 't');
    EXPECT_EQ(ex.lda, ex.trans_a ? ex.m : ex.k);
    EXPECT_EQ(ex.ldb, ex.trans_b ? ex.k : ex.n);
    EXPECT_EQ(fam.bucket(ex), b);
    EXPECT_EQ(fam.bucket_chain(ex), (std::vector<std::string>{b, "medium"}));
    EXPECT_EQ(fam.check(fam.defaults(caps), caps, ex), "") << b;
  }
  EXPECT_EQ(fam.bucket_chain(fam.make_example(DType::F32, "medium", caps)), std::vector<std::string>{"medium"});
  for (const char* bad : {"medium/nn", "medium/", "huge/nt", "nt", "large/ntt"})
    EXPECT_FALSE(fam.knows_bucket(bad)) << bad;
  // gemm_thin keys its own buckets, which refine none.
  const auto& thin = detail::families::gemm_thin();
  EXPECT_TRUE(thin.knows_bucket("m<=16/nk"));
  EXPECT_FALSE(thin.knows_bucket("large/nt"));
  EXPECT_EQ(thin.trust_bucket("m<=16/nk"), "m<=1/nk");
  EXPECT_TRUE(thin.knows_bucket("m<=8/nk"));
  EXPECT_EQ(thin.trust_bucket("m<=8/kn"), "m<=1/kn");
  EXPECT_FALSE(thin.knows_bucket("m<=8/nk/km"));  // the /km refinement keeps the coarse classes
  EXPECT_TRUE(thin.knows_bucket("m<=16/nk/km"));
  EXPECT_FALSE(thin.knows_bucket("m<=32/nk/km"));
  EXPECT_FALSE(thin.knows_bucket("m<=1/nk/km"));  // one row is a vector either way
  EXPECT_EQ(thin.trust_bucket("m<=16/nk/km"), "m<=4/nk/km");
}

// KCONTIG_A and KCONTIG_B decide each operand's way alone: an NT product
// (both operands stored along K) loads A along K and pads B through the
// transposition pass, or the other way round.
TEST(GemmConfigs, KcontigPerOperand) {
  const auto& fam = detail::families::gemm_tiled();
  const Capabilities& caps = test::device().caps();
  detail::GemmProblem pr = fam.make_example(DType::F32, "small/nt", caps);
  Params p = fam.defaults(caps);
  // Staged operands whose tiles the work-group covers in whole rows.
  p["SA"] = p["SB"] = 1, p["MDIMA"] = p["MDIMC"], p["NDIMB"] = p["NDIMC"];
  ASSERT_EQ(fam.check(p, caps, pr), "");
  detail::TiledPlan t = fam.plan(p, pr);
  EXPECT_TRUE(t.a_kcontig && t.b_kcontig);
  EXPECT_EQ(t.scratch[0] + t.scratch[1], 0u);
  p["KCONTIG_A"] = 0;
  t = fam.plan(p, pr);
  EXPECT_FALSE(t.a_kcontig);
  EXPECT_GT(t.scratch[0], 0u);
  EXPECT_TRUE(t.b_kcontig);
  EXPECT_EQ(t.scratch[1], 0u);
  p["KCONTIG_A"] = 1, p["KCONTIG_B"] = 0;
  t = fam.plan(p, pr);
  EXPECT_TRUE(t.a_kcontig);
  EXPECT_FALSE(t.b_kcontig);
  EXPECT_GT(t.scratch[1], 0u);
  // KSEG needs an operand loaded along K.
  p["KCONTIG_A"] = 0, p["KSEG"] = 8;
  EXPECT_NE(fam.check(p, caps, pr).find("KSEG only applies"), std::string::npos);
}
