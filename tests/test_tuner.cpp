// The tuner on a synthetic family with a planted optimum: a tiny kernel whose
// running time grows with the distance of (P, Q) from (4, 2), one value that
// does not compile, one that computes wrongly and one the descriptor refuses.
// Strategies are also driven without a device by a planted cost function, so
// their seeded behaviour is checked exactly.
#include <cmath>
#include <cstdlib>
#include <set>
#include <thread>

#include "support/synthetic_family.hpp"
#include "tuning/measure.hpp"
#include "tuning/space.hpp"
#include "tuning/strategies.hpp"
#include "tuning/tuner.hpp"

namespace optune::test {
namespace {

using namespace optune::detail;

// k: on the H100's OpenCL driver, 4000 made two units (8000 dependent
// multiply-adds, about 16 us) barely three times an empty launch, so the
// abandoning test depended on the clock; 20000 puts every point but the
// optimum's neighbours well past it on any device.
const SyntheticFamily& family() {
  static const SyntheticFamily f(20000);
  return f;
}

Problem small_problem() { return family().example(DType::F32, "small", queue().device().caps()); }

TuneOptions options(Strategy s) {
  TuneOptions o;
  o.strategy = s;
  o.vary = {"P", "Q"};  // WGS stays at its default: 28 points
  o.runs = 3;
  o.seed = 7;
  o.progress = false;
  return o;
}

// One exhaustive run shared by the tests that inspect it.
const TuneResult& exhaustive_result() {
  static const TuneResult r = tune(queue(), family(), small_problem(), options(Strategy::Exhaustive));
  return r;
}

TEST(Tuner, ExhaustiveFindsPlantedOptimum) {
  const TuneResult& r = exhaustive_result();
  EXPECT_EQ(r.best, (Params{{"P", 4}, {"Q", 2}, {"WGS", 32}}));
  EXPECT_TRUE(r.improved());
  EXPECT_GT(r.speedup(), 2.0);
  EXPECT_EQ(r.default_params, family().defaults(queue().device().caps()));
  EXPECT_EQ(r.space_size, 27u);  // 7 x 4 points, one refused
  EXPECT_EQ(r.evaluated, 27u);
  EXPECT_GE(r.noise, 0.01);
  EXPECT_EQ(r.clock_mhz, queue().device().caps().max_clock_mhz);
  EXPECT_GT(r.abandoned, 0u) << "far points should be abandoned once the optimum is known";
}

TEST(Tuner, InvalidCandidatesAreSkippedWithReasons) {
  const TuneResult& r = exhaustive_result();
  std::size_t compile = 0, verify = 0, check = 0;
  for (const InvalidCandidate& c : r.invalid) {
    if (c.stage == "compile") {
      ++compile;
      EXPECT_EQ(c.params.at("P"), 6);
      EXPECT_NE(c.reason.find("planted compile error"), std::string::npos) << c.reason;
    } else if (c.stage == "verify") {
      ++verify;
      EXPECT_EQ(c.params.at("Q"), 3);
      EXPECT_NE(c.reason.find("element"), std::string::npos) << c.reason;
    } else if (c.stage == "check") {
      ++check;
      EXPECT_EQ(c.reason, "planted refusal (P=5, Q=0)");
    } else {
      ADD_FAILURE() << c.stage << ": " << c.reason;
    }
  }
  EXPECT_EQ(compile, 4u);  // P=6 with every Q
  EXPECT_EQ(verify, 6u);   // Q=3 with P=0..5 (P=6 fails to compile first)
  EXPECT_EQ(check, 1u);
  EXPECT_EQ(r.rejected, 1u);
  EXPECT_EQ(r.failed(), 10u);
}

// Compiling candidates four at a time in threads of their own, before they
// run, changes nothing but the wall time: the same points, the same failures at the same stages
// (the planted compile error is met by the run, which reports its log), the
// same optimum. Random search with a count pulls no candidate past it.
TEST(Tuner, CompilingAheadFindsTheSameAndReportsTheSameFailures) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one hardware thread: jobs are capped at 1";
  TuneOptions o = options(Strategy::Exhaustive);
  o.jobs = 4;
  family().programs_given = 0;
  const TuneResult r = tune(queue(), family(), small_problem(), o);
  // Every point but the default and the refused one was compiled ahead.
  EXPECT_EQ(family().programs_given.load(), 26u);
  EXPECT_EQ(r.best, (Params{{"P", 4}, {"Q", 2}, {"WGS", 32}}));
  EXPECT_EQ(r.evaluated, 27u);
  std::multiset<std::string> stages, expected;
  for (const InvalidCandidate& c : r.invalid) {
    stages.insert(c.stage);
    if (c.stage == "compile") EXPECT_NE(c.reason.find("planted compile error"), std::string::npos) << c.reason;
  }
  for (const InvalidCandidate& c : exhaustive_result().invalid) expected.insert(c.stage);
  EXPECT_EQ(stages, expected);
  EXPECT_EQ(r.failed(), 10u);

  o = options(Strategy::Random);
  o.jobs = 6, o.candidates = 9;
  family().programs_given = 0;
  const TuneResult sampled = tune(queue(), family(), small_problem(), o);
  EXPECT_EQ(sampled.evaluated, 10u);  // the candidates plus the default
  EXPECT_LE(family().programs_given.load(), 9u);  // none pulled past the count

  o.jobs = 1;  // one at a time: nothing ahead
  family().programs_given = 0;
  tune(queue(), family(), small_problem(), o);
  EXPECT_EQ(family().programs_given.load(), 0u);
}

TEST(Tuner, AnnealingFindsPlantedOptimum) {
  TuneOptions o = options(Strategy::Anneal);
  o.candidates = 18;
  const TuneResult r = tune(queue(), family(), small_problem(), o);
  EXPECT_EQ(r.best, (Params{{"P", 4}, {"Q", 2}, {"WGS", 32}}));
  EXPECT_LE(r.evaluated, 19u);  // the candidates plus the default
}

// Values that the family's fit makes equal run once: with WGS capped at 32
// by fit, WGS 64 is the default's run (32) and takes its time unrun; the
// result records it as a duplicate. The same under annealing.
TEST(Tuner, CandidatesThatFitToOneRunAreTimedOnce) {
  static const SyntheticFamily capped(20000, 32);
  const Problem pr = capped.example(DType::F32, "small", queue().device().caps());
  TuneOptions o = options(Strategy::Exhaustive);
  o.vary = {"WGS"};
  const TuneResult r = tune(queue(), capped, pr, o);
  EXPECT_EQ(r.evaluated, 2u);  // the default (WGS 32) and WGS 16
  EXPECT_EQ(r.duplicates, 1u);  // WGS 64, fitted to 32
  EXPECT_NE(r.best.at("WGS"), 64);
  // P and WGS: 21 points, P = 5 refused (3); each other P's WGS 64 matches its
  // WGS 32, P = 6's failed compile included (its failure is what it takes).
  o.vary = {"P", "WGS"};
  const TuneResult all = tune(queue(), capped, pr, o);
  EXPECT_EQ(all.rejected, 3u);
  EXPECT_EQ(all.duplicates, 6u);
  EXPECT_EQ(all.evaluated, 12u);
  // The planted optimum survives the merging. With Q at its own optimum, P = 4
  // runs no loop and every other P at least k: a contrast no load on the
  // machine hides (with Q = 0 it is 2k against 3k, which a busy 2-core run did).
  o.base = {{"Q", 2}};
  EXPECT_EQ(tune(queue(), capped, pr, o).best.at("P"), 4);
  o.base = {};
  const TuneResult plain = tune(queue(), family(), small_problem(), o);
  EXPECT_EQ(plain.duplicates, 0u);  // no fit merges values: every accepted point runs
  EXPECT_EQ(plain.evaluated, 18u);
}

TEST(Tuner, BudgetStopsTheSearchAndKeepsTheBestSoFar) {
  TuneOptions o = options(Strategy::Random);
  o.budget_seconds = 0.02;
  const TuneResult r = tune(queue(), family(), small_problem(), o);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_LT(r.evaluated, 27u);
  const KernelFamily& any = family();
  EXPECT_TRUE(any.check(r.best, queue().device().caps(), small_problem()).empty());
  EXPECT_LT(r.elapsed_seconds, 5.0);
}

TEST(Tuner, WorkGroupOnlySearchKeepsOtherParameters) {
  TuneOptions o = options(Strategy::Exhaustive);
  o.vary = {"WGS"};
  o.base = {{"P", 3}, {"Q", 2}};
  const TuneResult r = tune(queue(), family(), small_problem(), o);
  EXPECT_EQ(r.evaluated, 3u);
  EXPECT_EQ(r.best.at("P"), 3);
  EXPECT_EQ(r.best.at("Q"), 2);
}

// ---- strategies without a device: a planted cost, exact and seeded ----

double planted_cost(const Params& p) {
  return 1.0 + double(std::llabs(p.at("P") - 4) + std::llabs(p.at("Q") - 2));
}

// Runs a strategy to the end against planted_cost; returns the sequence tried.
std::vector<Params> drive(const TuneOptions& o, Params* best) {
  Capabilities caps = queue().device().caps();
  SearchSpace space(family(), caps, small_problem(), o.vary, {});
  auto s = make_strategy(o, space, planted_cost(space.base()));
  std::vector<Params> seen;
  *best = space.base();
  while (auto p = s->next()) {
    seen.push_back(*p);
    if (!space.check(*p).empty()) {
      s->report(*p, SearchStrategy::Outcome::Rejected, INFINITY);
      continue;
    }
    if (planted_cost(*p) < planted_cost(*best)) *best = *p;
    s->report(*p, SearchStrategy::Outcome::Measured, planted_cost(*p));
  }
  return seen;
}

TEST(Strategies, AnnealingIsSeededAndReachesThePlantedOptimum) {
  TuneOptions o = options(Strategy::Anneal);
  o.candidates = 12;
  Params best1, best2, best3;
  const auto a = drive(o, &best1);
  const auto b = drive(o, &best2);
  EXPECT_EQ(a, b) << "same seed, same walk";
  EXPECT_EQ(best1.at("P"), 4);
  EXPECT_EQ(best1.at("Q"), 2);
  o.seed = 8;
  const auto c = drive(o, &best3);
  EXPECT_NE(a, c) << "another seed, another walk";
}

TEST(Strategies, RandomSamplingHonoursCountFractionAndSeed) {
  TuneOptions o = options(Strategy::Random);
  o.candidates = 10;
  Params best;
  const auto a = drive(o, &best);
  std::size_t valid = 0;
  for (const Params& p : a) valid += p != Params{{"P", 5}, {"Q", 0}, {"WGS", 32}};
  EXPECT_EQ(valid, 10u);
  EXPECT_EQ(drive(o, &best), a);
  std::set<Params> distinct(a.begin(), a.end());
  EXPECT_EQ(distinct.size(), a.size());
  o.candidates = 0;
  o.fraction = 0.5;
  const auto half = drive(o, &best);
  EXPECT_GE(half.size(), 14u);  // ceil(27 / 2) valid ones, plus any refused
  EXPECT_LE(half.size(), 15u);
}

TEST(Strategies, ExhaustiveVisitsEveryPointButTheDefaultOnce) {
  Params best;
  const auto all = drive(options(Strategy::Exhaustive), &best);
  EXPECT_EQ(all.size(), 27u);
  EXPECT_EQ(best.at("P"), 4);
}

// ---- verification ----

TEST(Verify, ExactRelativeAndNaNPositions) {
  const double nan = std::nan("");
  EXPECT_EQ(compare_outputs({1, 2, 3}, {1, 2, 3}, 0), "");
  EXPECT_NE(compare_outputs({1, 2, 3}, {1, 2, 3.0000001}, 0), "");
  EXPECT_EQ(compare_outputs({1, 2, 100}, {1, 2.00001, 100}, 1e-6), "");
  EXPECT_NE(compare_outputs({1, 2, 100}, {1, 2.001, 100}, 1e-6), "");
  EXPECT_EQ(compare_outputs({1, nan, 3}, {1, nan, 3}, 0), "");
  EXPECT_NE(compare_outputs({1, nan, 3}, {1, 2, 3}, 1e-3), "");
  EXPECT_NE(compare_outputs({1, 2, 3}, {1, nan, 3}, 1e-3), "");
  EXPECT_NE(compare_outputs({INFINITY}, {-INFINITY}, 1e-3), "");
  EXPECT_NE(compare_outputs({1, 2}, {1, 2, 3}, 1e-3), "");
}

TEST(Verify, NoiseIsTheInterquartileSpreadAtLeastOnePercent) {
  EXPECT_DOUBLE_EQ(relative_noise({1, 1, 1, 1}), 0.01);
  EXPECT_NEAR(relative_noise({1, 2, 3, 4, 5}), 2.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(median_of({3, 1, 2}), 2.0);
}

TEST(Verify, TrustCheckAgainstTheDefault) {
  EXPECT_EQ(verify_against_default(queue(), family(), small_problem(), {{"P", 4}, {"Q", 2}}), "");
  EXPECT_NE(verify_against_default(queue(), family(), small_problem(), {{"P", 4}, {"Q", 3}}), "");
  EXPECT_NE(verify_against_default(queue(), family(), small_problem(), {{"P", 6}, {"Q", 2}}), "");
}

}  // namespace
}  // namespace optune::test

// Parameter values as text (OPTUNE_PARAMS, optune tune --fix): one whole
// integer, or nothing.
TEST(Descriptor, ParamValueParsesWholeIntegersOnly) {
  EXPECT_EQ(optune::detail::parse_param_value("64"), 64);
  EXPECT_EQ(optune::detail::parse_param_value("-1"), -1);
  EXPECT_EQ(optune::detail::parse_param_value("0"), 0);
  for (const char* bad : {"", "64x", "x64", " 64", "6 4", "1e3", "99999999999999999999"})
    EXPECT_FALSE(optune::detail::parse_param_value(bad).has_value()) << "'" << bad << "'";
}
