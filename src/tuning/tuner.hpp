// The auto-tuner: searches a kernel family's parameters for one problem on
// one device. Every candidate is compiled, run on the family's random inputs,
// verified against the default configuration and timed with device events;
// failures of any kind mark a candidate invalid and never end the run.
//
//   TuneOptions o;  o.strategy = Strategy::Anneal;  o.candidates = 40;  o.seed = 1;
//   TuneResult r = tune(queue, families::copy(), problem, o);
//   if (r.improved()) ... r.best ...
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/descriptor.hpp"

namespace optune::detail {

enum class Strategy { Exhaustive, Random, Anneal };

std::string strategy_name(Strategy s);
// "exhaustive", "random", "anneal" (also "annealing"); throws Error(InvalidArgument).
Strategy parse_strategy(const std::string& text);

struct TuneOptions {
  Strategy strategy = Strategy::Exhaustive;
  // How many candidates random sampling and annealing evaluate: a count, or a
  // fraction of the valid space; neither set means the whole space (bounded
  // by the budget). Exhaustive ignores both.
  std::size_t candidates = 0;
  double fraction = 0;
  double budget_seconds = 0;   // stop starting new candidates after this; 0: no limit
  std::uint64_t seed = 1;
  int warmup = 1;              // untimed runs before the timed ones
  int runs = 5;                // timed runs; the median counts
  // A candidate whose run takes longer than this is invalid ("time-out");
  // 0: one second plus 20 times the default's median.
  double timeout_seconds = 0;
  std::vector<std::string> vary;  // parameters to search; empty: all
  Params base;                    // values of the others (missing: defaults)
  // Candidates compiled together, in parallel threads, before they run one
  // by one (random and exhaustive search, whose order does not depend on the
  // timings; annealing compiles one at a time); 1: each as it runs.
  int jobs = 1;
  bool verbose = false;           // one line per candidate on stderr
  bool progress = true;           // the updating line, on a terminal only
  std::string label;              // prefix of progress lines ("copy f32 n<=2^20")
};

struct InvalidCandidate {
  Params params;
  std::string stage;   // "check", "compile", "launch", "verify", "time-out"
  std::string reason;
};

struct TuneResult {
  std::string family, bucket;
  DType dtype = DType::F32;
  Params best;                 // the default unless a candidate beat it by more than the noise
  double best_seconds = 0;     // median device time of best
  Params default_params;       // the baseline every candidate is verified against
  double default_seconds = 0;
  Params fastest;              // the fastest valid candidate, chosen or not
  double fastest_seconds = 0;
  double noise = 0;            // relative spread of the default's runs (>= 1%)
  std::size_t evaluated = 0;   // distinct configurations run, the default included
  std::size_t abandoned = 0;   // stopped early: first timed run > 3x the best median
  std::size_t rejected = 0;    // refused by family.check(); examples in invalid
  std::size_t duplicates = 0;  // fitted to the parameters of one already run (KernelFamily::fitted): not run again
  std::uint64_t space_size = 0;  // valid points (or the raw size of a space too large to list)
  std::vector<InvalidCandidate> invalid;  // failed runs (all) and check rejections (the first kMaxRejected)
  double elapsed_seconds = 0;
  double baseline_seconds = 0;  // set-up, reference run and timing of the default: the least a run costs
  bool budget_exhausted = false;
  std::uint32_t clock_mhz = 0;  // the device's reported maximum clock, where the API gives it

  static constexpr std::size_t kMaxRejected = 256;
  bool improved() const { return best != default_params; }
  double speedup() const { return best_seconds > 0 ? default_seconds / best_seconds : 1.0; }
  // Invalid candidates other than check rejections.
  std::size_t failed() const;
};

// Throws only when the problem cannot be set up (allocation) or no
// configuration at all can run; candidates' failures are recorded instead.
TuneResult tune(const Queue& queue, const KernelFamily& family, const Problem& problem, const TuneOptions& options);

}  // namespace optune::detail
