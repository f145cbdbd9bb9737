// The tuning loop: measure the default (reference output, baseline time and
// noise), then ask the strategy for candidates until it is done or the budget
// is spent, and keep the best only if it beats the default by more than noise.
#include "tuning/tuner.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <future>
#include <thread>
#include <vector>

#include "runtime/log.hpp"
#include "tuning/measure.hpp"
#include "tuning/space.hpp"
#include "tuning/strategies.hpp"

namespace optune::detail {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string format_time(double s) {
  char buf[32];
  if (!std::isfinite(s)) return "-";
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.2f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  return buf;
}

// One updating line on a terminal: done/total, best so far, time left.
// Silent when stderr is not a terminal, so logs and CI output stay clean.
class Progress {
 public:
  Progress(bool enabled, std::string label) : on_(enabled && isatty(2)), label_(std::move(label)) {}
  ~Progress() { finish(); }
  void update(std::uint64_t done, std::uint64_t total, double best, double base, double elapsed, double budget) {
    if (!on_) return;
    double eta = done && total > done ? elapsed / double(done) * double(total - done) : 0;
    if (budget > 0) eta = std::min(eta, std::max(0.0, budget - elapsed));
    std::fprintf(stderr, "\r\033[K%s %llu/%llu  best %s (%.2fx)  ETA %.0f s", label_.c_str(),
                 (unsigned long long)done, (unsigned long long)total, format_time(best).c_str(),
                 best > 0 ? base / best : 1.0, eta);
    std::fflush(stderr);
    drawn_ = true;
  }
  void finish() {
    if (on_ && drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

 private:
  bool on_;
  std::string label_;
  bool drawn_ = false;
};

// The default if the descriptor accepts it here, else the first point that
// it accepts (a device whose limits the default exceeds).
Params choose_baseline(const SearchSpace& space) {
  if (space.check(space.base()).empty()) return space.base();
  if (const auto& valid = space.valid(); valid && !valid->empty()) return space.at(valid->front());
  if (!space.valid())
    for (std::uint64_t i = 0; i < space.raw_size() && i < (1u << 20); ++i)
      if (space.check(space.at(i)).empty()) return space.at(i);
  throw Error(Status::Unsupported, "no configuration of the family can run on this device and problem (default: " +
                                       space.check(space.base()) + ")");
}

// Compiles the program a candidate will build, so that its run finds it in
// the context's cache. Any failure is left for the run to meet and report.
void compile_ahead(const Queue& queue, const KernelFamily& family, const Problem& problem, const Params& p) noexcept {
  try {
    if (auto src = family.program_for(p, queue.device().caps(), problem)) compile_kernel(queue, *src);
  } catch (...) {
  }
}

}  // namespace

std::string strategy_name(Strategy s) {
  switch (s) {
    case Strategy::Exhaustive: return "exhaustive";
    case Strategy::Random: return "random";
    case Strategy::Anneal: return "anneal";
  }
  return "exhaustive";
}

Strategy parse_strategy(const std::string& text) {
  if (text == "exhaustive" || text == "all") return Strategy::Exhaustive;
  if (text == "random") return Strategy::Random;
  if (text == "anneal" || text == "annealing") return Strategy::Anneal;
  throw Error(Status::InvalidArgument, "unknown strategy '" + text + "' (exhaustive, random, anneal)");
}

std::size_t TuneResult::failed() const {
  std::size_t n = 0;
  for (const auto& c : invalid) n += c.stage != "check";
  return n;
}

TuneResult tune(const Queue& queue, const KernelFamily& family, const Problem& problem, const TuneOptions& o) {
  const auto t0 = Clock::now();
  const Capabilities& caps = queue.device().caps();
  TuneResult r;
  r.family = family.name();
  r.dtype = problem.dtype;
  r.bucket = family.bucket(problem);
  r.clock_mhz = caps.max_clock_mhz;

  const Params base = o.base.empty() ? family.defaults(caps) : family.complete(o.base, caps);
  SearchSpace space(family, caps, problem, o.vary, base);
  r.space_size = space.size_estimate();
  std::unique_ptr<TuningCase> tc = make_case(family, queue, problem);
  Measurer measurer(*tc, o.warmup, o.runs);

  // The default's output is what every candidate must reproduce, and the
  // spread of its repeated timings is the noise a winner must beat.
  r.default_params = choose_baseline(space);
  if (r.default_params != base)
    log_warn(family.name() + ": the default configuration cannot run here (" + space.check(base) +
             "); verifying against " + params_to_json(r.default_params));
  const auto base_start = Clock::now();
  std::vector<double> reference;
  try {
    reference = measurer.reference(r.default_params);
  } catch (const std::exception& e) {
    throw Error(Status::DeviceError, family.name() + ": the baseline " + params_to_json(r.default_params) +
                                         " failed, so nothing can be verified: " + short_reason(e));
  }
  const Measurement base_m = measurer.time(r.default_params, std::max(o.runs, 7));
  // What one more candidate is expected to cost (wall time: compile, verify,
  // read-back, timing), so that the last one still ends within the budget.
  double expected = since(base_start);
  r.baseline_seconds = since(t0);
  r.default_seconds = base_m.median;
  r.noise = relative_noise(base_m.times);
  r.evaluated = 1;
  r.fastest = r.default_params;
  r.fastest_seconds = r.default_seconds;
  const double timeout = o.timeout_seconds > 0 ? o.timeout_seconds : 1.0 + 20 * r.default_seconds;

  // Each distinct run once: a candidate whose fitted parameters are those of
  // one already run (a parameter that does not apply here, a value the fit
  // resolves to another) takes that run's outcome without running.
  struct SeenRun {
    SearchStrategy::Outcome outcome;
    double seconds;
  };
  std::map<Params, SeenRun> seen;
  const auto fitted = [&](const Params& p) -> std::optional<Params> {
    try {
      return family.fitted(p, caps, problem);
    } catch (const std::exception&) {
      return std::nullopt;  // the run meets and reports it
    }
  };
  if (const std::optional<Params> k = fitted(r.default_params))
    seen.emplace(*k, SeenRun{SearchStrategy::Outcome::Measured, r.default_seconds});

  std::unique_ptr<SearchStrategy> strategy = make_strategy(o, space, r.default_seconds);
  Progress progress(o.progress, o.label.empty() ? family.name() : o.label);
  std::uint64_t done = 0;
  const std::uint64_t total = strategy->planned();
  const auto reject = [&](const Params& p, const std::string& why) {
    ++r.rejected;
    if (r.rejected <= TuneResult::kMaxRejected) r.invalid.push_back({p, "check", why});
    strategy->report(p, SearchStrategy::Outcome::Rejected, INFINITY);
  };
  // Compiling ahead: the next `jobs` accepted candidates, in the strategy's
  // order, compile in threads of their own, all at once; then they run one
  // by one. Nothing compiles while anything is timed (on a CPU device the
  // compiles would take the cores that the kernels run on).
  // At most one compile per hardware thread.
  const std::size_t threads = std::max<std::size_t>(1, std::thread::hardware_concurrency());
  const std::size_t jobs = o.strategy == Strategy::Anneal ? 1 : std::min<std::size_t>(std::max(o.jobs, 1), threads);
  std::deque<Params> batch;
  double batch_cost = 0;  // wall time of the last batch's compiles
  bool drained = false;
  while (true) {
    if (o.budget_seconds > 0 && since(t0) + expected + (batch.empty() ? batch_cost : 0) > o.budget_seconds) {
      r.budget_exhausted = true;
      break;
    }
    std::optional<Params> next;
    if (jobs > 1) {
      if (batch.empty() && !drained) {
        // No more than the strategy's count still asks for.
        const std::uint64_t left = total > done ? total - done : 0;
        while (batch.size() < jobs && batch.size() < left) {
          std::optional<Params> c = strategy->next();
          if (!c) {
            drained = true;
            break;
          }
          if (std::string why = space.check(*c); !why.empty()) reject(*c, why);
          else batch.push_back(std::move(*c));
        }
        const auto compile_start = Clock::now();
        {
          std::vector<std::future<void>> compiling;
          for (const Params& c : batch)
            compiling.push_back(std::async(std::launch::async, compile_ahead, std::cref(queue), std::cref(family),
                                           std::cref(problem), c));
        }  // every compile has ended here
        batch_cost = since(compile_start);
        if (o.budget_seconds > 0 && since(t0) + expected > o.budget_seconds) {
          r.budget_exhausted = true;
          break;
        }
      }
      // Pulled ahead, the strategy cannot stop at its count by itself.
      if (batch.empty() || done >= total) break;
      next = std::move(batch.front());
      batch.pop_front();
    } else {
      next = strategy->next();
      if (!next) break;
      if (std::string why = space.check(*next); !why.empty()) {
        reject(*next, why);
        continue;
      }
    }
    const Params& p = *next;
    const std::optional<Params> key = fitted(p);
    if (key)
      if (auto it = seen.find(*key); it != seen.end()) {
        ++done;
        ++r.duplicates;
        strategy->report(p, it->second.outcome, it->second.seconds);
        if (o.verbose) std::fprintf(stderr, "  %s  runs as %s (timed)\n", params_to_json(p).c_str(),
                                    params_to_json(*key).c_str());
        progress.update(done, std::max(total, done), r.fastest_seconds, r.default_seconds, since(t0), o.budget_seconds);
        continue;
      }
    const auto cand_start = Clock::now();
    const Measurement m = measurer.measure(p, reference, 3 * r.fastest_seconds, timeout);
    const double cost = since(cand_start);
    ++done;
    // The costliest candidate so far (a fresh compile) bounds the next, so
    // the run ends within its budget rather than one compile past it.
    expected = std::max(done == 1 ? 0.0 : expected, cost);
    ++r.evaluated;
    if (key)
      seen.emplace(*key, SeenRun{m.outcome == Measurement::Outcome::Invalid ? SearchStrategy::Outcome::Failed
                                                                           : SearchStrategy::Outcome::Measured,
                                 m.outcome == Measurement::Outcome::Invalid ? double(INFINITY) : m.median});
    switch (m.outcome) {
      case Measurement::Outcome::Invalid:
        r.invalid.push_back({p, m.stage, m.reason});
        strategy->report(p, SearchStrategy::Outcome::Failed, INFINITY);
        if (o.verbose) std::fprintf(stderr, "  %s  invalid (%s): %s\n", params_to_json(p).c_str(), m.stage.c_str(),
                                    m.reason.c_str());
        break;
      case Measurement::Outcome::Abandoned:
        ++r.abandoned;
        strategy->report(p, SearchStrategy::Outcome::Measured, m.median);
        if (o.verbose) std::fprintf(stderr, "  %s  abandoned after %s\n", params_to_json(p).c_str(),
                                    format_time(m.median).c_str());
        break;
      case Measurement::Outcome::Ok:
        if (m.median < r.fastest_seconds) r.fastest = p, r.fastest_seconds = m.median;
        strategy->report(p, SearchStrategy::Outcome::Measured, m.median);
        if (o.verbose) std::fprintf(stderr, "  %s  %s\n", params_to_json(p).c_str(), format_time(m.median).c_str());
        break;
    }
    progress.update(done, std::max(total, done), r.fastest_seconds, r.default_seconds, since(t0), o.budget_seconds);
  }
  progress.finish();

  // Ties, and wins within the noise, go to the default: a configuration that
  // is not measurably faster is not worth a database entry that differs.
  r.best = r.default_params;
  r.best_seconds = r.default_seconds;
  if (r.fastest != r.default_params && r.fastest_seconds < r.default_seconds * (1 - r.noise)) {
    r.best = r.fastest;
    r.best_seconds = r.fastest_seconds;
  }
  r.elapsed_seconds = since(t0);
  log_info("tuned " + family.name() + " " + std::string(dtype_name(r.dtype)) + " " + r.bucket + " on " + caps.name +
           ": " + params_to_json(r.best) + " " + format_time(r.best_seconds) + " (default " +
           format_time(r.default_seconds) + ", " + std::to_string(r.evaluated) + " evaluated" +
           (r.duplicates ? ", " + std::to_string(r.duplicates) + " duplicates not run" : std::string()) + " in " +
           format_time(r.elapsed_seconds) + ")");
  return r;
}

}  // namespace optune::detail
