// optune tune: search a kernel family's parameters on a device, per size
// bucket, print default against best, and optionally save the results into
// the cache file where the library's lookups find them (level "local").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "database/database.hpp"
#include "kernels/families.hpp"
#include "runtime/cache_file.hpp"
#include "tuning/tuner.hpp"

namespace optune::tool {

namespace {

using namespace optune::detail;

struct TuneCommand {
  std::string family, dtype = "f32", strategy, device, json_path;
  std::vector<std::string> sizes, fix;
  double budget = 0, fraction = 0;
  std::size_t candidates = 0;
  std::uint64_t seed = 1;
  int runs = 5, warmup = 1, jobs = 1;
  bool save = false, verbose = false;
};

std::string format_time(double s) {
  char buf[32];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  return buf;
}

nlohmann::json params_json(const Params& p) { return nlohmann::json::parse(params_to_json(p)); }

nlohmann::json result_json(const TuneResult& r, const Problem& pr) {
  nlohmann::json invalid = nlohmann::json::array();
  for (const auto& c : r.invalid)
    invalid.push_back({{"params", params_json(c.params)}, {"stage", c.stage}, {"reason", c.reason}});
  return {{"bucket", r.bucket},
          {"sizes", pr.sizes},
          {"default_params", params_json(r.default_params)},
          {"default_time_ns", r.default_seconds * 1e9},
          {"best_params", params_json(r.best)},
          {"best_time_ns", r.best_seconds * 1e9},
          {"fastest_params", params_json(r.fastest)},
          {"fastest_time_ns", r.fastest_seconds * 1e9},
          {"speedup", r.speedup()},
          {"noise", r.noise},
          {"space_size", r.space_size},
          {"evaluated", r.evaluated},
          {"abandoned", r.abandoned},
          {"rejected", r.rejected},
          {"duplicates", r.duplicates},
          {"failed", r.failed()},
          {"invalid", invalid},
          {"elapsed_s", r.elapsed_seconds},
          {"budget_exhausted", r.budget_exhausted},
          {"clock_mhz", r.clock_mhz}};
}

// "compile: <reason>; verify: <reason>" for the first failures of each stage.
std::string first_reasons(const TuneResult& r) {
  std::string out;
  std::vector<std::string> seen;
  for (const auto& c : r.invalid) {
    if (c.stage == "check" || std::find(seen.begin(), seen.end(), c.stage) != seen.end()) continue;
    seen.push_back(c.stage);
    out += (out.empty() ? "" : "; ") + c.stage + " " + params_to_json(c.params) + ": " + c.reason;
  }
  return out;
}

void run_tune(const TuneCommand& o) {
  const auto command_start = std::chrono::steady_clock::now();
  const KernelFamily& family = families::find(o.family);
  Device dev = pick_device(o.device);
  const Capabilities& caps = dev.caps();
  Context ctx(dev);
  Queue q(ctx);
  const DType dtype = parse_dtype(o.dtype);
  const auto supported = family.dtypes(caps);
  if (std::find(supported.begin(), supported.end(), dtype) == supported.end())
    throw Error(Status::Unsupported, o.family + " does not run " + o.dtype + " on " + caps.name);

  std::vector<std::string> buckets = family.buckets();
  if (!o.sizes.empty() && !(o.sizes.size() == 1 && o.sizes[0] == "all")) {
    for (const std::string& b : o.sizes)
      if (!family.knows_bucket(b)) {
        std::string list;
        for (const auto& x : buckets) list += (list.empty() ? "" : ", ") + x;
        throw Error(Status::InvalidArgument, "--sizes: " + o.family + " has no bucket '" + b + "' (" + list + ")");
      }
    buckets = o.sizes;
  }

  TuneOptions to;
  to.strategy = o.strategy.empty() ? (o.candidates || o.fraction > 0 ? Strategy::Random : Strategy::Exhaustive)
                                   : parse_strategy(o.strategy);
  if (to.strategy == Strategy::Exhaustive && (o.candidates || o.fraction > 0))
    std::fprintf(stderr, "optune tune: --candidates and --fraction do not apply to the exhaustive strategy\n");
  to.candidates = o.candidates;
  to.fraction = o.fraction;
  to.seed = o.seed;
  to.runs = o.runs;
  to.warmup = o.warmup;
  to.jobs = o.jobs;
  to.verbose = o.verbose;
  // --fix NAME=VALUE: searched no further; the baseline is the defaults with
  // these values (its time is the "default" column).
  if (!o.fix.empty()) {
    const std::vector<Parameter> params = family.parameters(caps);
    Params fixed;
    for (const std::string& f : o.fix) {
      const auto eq = f.find('=');
      const std::string name = f.substr(0, eq);
      const auto it = std::find_if(params.begin(), params.end(), [&](const Parameter& p) { return p.name == name; });
      if (eq == std::string::npos || it == params.end())
        throw Error(Status::InvalidArgument, "--fix: '" + f + "' is not NAME=VALUE with a parameter of " + o.family);
      const auto v = parse_param_value(f.substr(eq + 1));
      if (!v) throw Error(Status::InvalidArgument, "--fix: '" + f + "': the value is not an integer");
      fixed[name] = *v;
    }
    to.base = family.defaults(caps);
    for (const auto& [k, v] : fixed) to.base[k] = v;
    for (const Parameter& p : params)
      if (!fixed.count(p.name)) to.vary.push_back(p.name);
  }

  std::printf("optune tune %s on %s  %s (driver %s", o.family.c_str(), caps.spec.c_str(), caps.name.c_str(),
              caps.driver_version.c_str());
  if (caps.max_clock_mhz) std::printf(", clock %u MHz", caps.max_clock_mhz);
  std::printf(")\nstrategy %s, dtype %s, seed %llu", strategy_name(to.strategy).c_str(), o.dtype.c_str(),
              (unsigned long long)o.seed);
  if (o.budget > 0) std::printf(", budget %.1f s", o.budget);
  int w = 12;  // the bucket column fits the longest name ("layer_norm,cols<=16384")
  for (const auto& b : buckets) w = std::max(w, int(b.size()));
  std::printf("\n\n%-*s %12s %12s %8s %6s %6s %7s  %s\n", w, "bucket", "default", "best", "speedup", "noise", "tried",
              "invalid", "best parameters");
  std::fflush(stdout);

  nlohmann::json results = nlohmann::json::array();
  std::vector<TuneResult> done;
  bool any_failed = false;
  // Baselines seen so far, as (cost, problem elements), to predict the next
  // bucket's: set-up and timing grow with the problem's size.
  std::vector<std::pair<double, double>> baselines;
  auto elements = [](const Problem& pr) {
    double n = 1;
    for (std::int64_t s : pr.sizes) n *= double(std::max<std::int64_t>(s, 1));
    return n;
  };
  auto predicted_baseline = [&](const Problem& pr) {
    double worst = 0;
    for (const auto& [cost, n] : baselines) worst = std::max(worst, cost * std::max(1.0, elements(pr) / n));
    return worst;
  };
  double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - command_start).count();
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    // The budget covers the whole command: each bucket gets an equal share
    // of what is left, so time a bucket does not use passes to the next. A
    // bucket costs at least its baseline (set-up and timing the default)
    // before any candidate: one that could not even do that is skipped.
    const Problem pr = family.example(dtype, buckets[i], caps);
    if (o.budget > 0) {
      if (spent >= o.budget || spent + predicted_baseline(pr) > o.budget) {
        std::printf("%-*s skipped: the budget is spent\n", w, buckets[i].c_str());
        results.push_back({{"bucket", buckets[i]}, {"skipped", "budget spent"}});
        continue;
      }
      to.budget_seconds = (o.budget - spent) / double(buckets.size() - i);
    }
    to.label = o.family + " " + o.dtype + " " + buckets[i];
    try {
      TuneResult r = tune(q, family, pr, to);
      r.bucket = buckets[i];
      char noise[16];
      std::snprintf(noise, sizeof noise, "%.1f%%", r.noise * 100);
      std::printf("%-*s %12s %12s %7.2fx %6s %6zu %7zu  %s%s\n", w, r.bucket.c_str(), format_time(r.default_seconds).c_str(),
                  format_time(r.best_seconds).c_str(), r.speedup(), noise, r.evaluated, r.failed(),
                  params_to_json(r.best).c_str(), r.improved() ? "" : " (default)");
      if (r.rejected) std::printf("%-*s %zu refused by the family's constraints\n", w, "", r.rejected);
      if (r.duplicates)
        std::printf("%-*s %zu not run: their fitted parameters were those of one already run\n", w, "", r.duplicates);
      if (r.failed()) std::printf("%-*s invalid: %s\n", w, "", first_reasons(r).c_str());
      if (r.budget_exhausted) std::printf("%-*s budget spent: %zu configuration(s) tried\n", w, "", r.evaluated);
      std::fflush(stdout);
      results.push_back(result_json(r, pr));
      baselines.emplace_back(r.baseline_seconds, elements(pr));
      done.push_back(std::move(r));
    } catch (const std::exception& e) {
      any_failed = true;
      std::printf("%-*s error: %s\n", w, buckets[i].c_str(), e.what());
      results.push_back({{"bucket", buckets[i]}, {"error", e.what()}});
    }
    spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - command_start).count();
  }

  if (o.save) {
    std::size_t saved = 0;
    for (const TuneResult& r : done) saved += save_result(caps, r) ? 1 : 0;
    if (saved) std::printf("\nsaved %zu result(s) to %s\n", saved, CacheFile::instance()->path().c_str());
    else if (!done.empty())
      throw Error(Status::IoError, "--save: no cache file (OPTUNE_CACHE=off, or " + cache_dir() + " is unusable)");
  }
  if (!o.json_path.empty()) {
    nlohmann::json j{{"tool", "optune tune"}, {"date", iso_date()}, {"commit", git_commit()},
                     {"device", caps_to_json(caps)}, {"family", o.family}, {"dtype", o.dtype},
                     {"strategy", strategy_name(to.strategy)}, {"seed", o.seed}, {"budget_s", o.budget},
                     {"candidates", o.candidates}, {"fraction", o.fraction}, {"runs", o.runs}, {"jobs", o.jobs},
                     {"saved", o.save}, {"results", results}};
    std::ofstream f(o.json_path);
    if (!(f << j.dump(2) << "\n")) throw Error(Status::IoError, "cannot write " + o.json_path);
    std::printf("wrote %s\n", o.json_path.c_str());
  }
  if (any_failed) throw CLI::RuntimeError(1);
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto o = std::make_shared<TuneCommand>();
  CLI::App* cmd = app.add_subcommand("tune", "Search a kernel family's parameters on a device, per size bucket");
  std::string names;
  for (const KernelFamily* f : families::all()) names += (names.empty() ? "" : ", ") + f->name();
  cmd->add_option("family", o->family, "kernel family (" + names + ")")->required();
  cmd->add_option("--dtype", o->dtype, "element type (f32, f16, f64, ...)")->capture_default_str();
  cmd->add_option("--sizes", o->sizes, "size buckets, comma-separated (GEMM: a transpose pair refines one, e.g. large/nt), or all (default)")->delimiter(',');
  cmd->add_option("--strategy", o->strategy, "exhaustive (default), random or anneal")
      ->check(CLI::IsMember({"exhaustive", "random", "anneal", "annealing"}));
  cmd->add_option("--budget", o->budget, "seconds for the whole run (split over the buckets)")
      ->check(CLI::PositiveNumber);
  auto* cand = cmd->add_option("--candidates", o->candidates, "candidates per bucket (random, anneal)")
                   ->check(CLI::PositiveNumber);
  auto* frac = cmd->add_option("--fraction", o->fraction, "fraction of the valid space per bucket (random, anneal)")
                   ->check(CLI::Range(0.0, 1.0));
  cand->excludes(frac);
  cmd->add_option("--seed", o->seed, "seed of random sampling and annealing")->capture_default_str();
  cmd->add_option("--runs", o->runs, "timed runs per candidate (the median counts)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "untimed runs before timing")->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--jobs", o->jobs,
                  "candidates compiled together in parallel threads (at most one per hardware thread), then run one by "
                  "one (random and exhaustive; annealing compiles one at a time)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--fix", o->fix, "NAME=VALUE,...: parameters held at a value (the baseline is the defaults with them)")
      ->delimiter(',');
  cmd->add_flag("--save", o->save, "store the results in the cache file (used by later lookups)");
  cmd->add_option("--device", o->device, "device spec: opencl:P:D, cuda:N, gpu, cpu");
  cmd->add_option("--json", o->json_path, "write the results as JSON to this file");
  cmd->add_flag("-v,--verbose", o->verbose, "one line per candidate on stderr");
  cmd->callback([o] { run_tune(*o); });
}

}  // namespace optune::tool
