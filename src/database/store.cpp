// Writing into the database: tuning results of this device, imported files,
// and the run-time search policy (OPTUNE_TUNING) that produces results on
// first use.
#include <algorithm>
#include <cstdlib>

#include "database/database.hpp"
#include "kernels/families.hpp"
#include "runtime/log.hpp"

namespace optune::detail {

namespace {

void store(const Capabilities& caps, const TuneResult& r) {
  CacheFile* file = CacheFile::instance();
  if (!file) return;
  DbEntry e;
  e.backend = std::string(backend_name(caps.backend));
  e.vendor = caps.vendor;
  e.name = caps.name;
  e.architecture = caps.architecture;
  e.driver = caps.driver_version;
  e.identity = caps.identity();
  e.family = r.family;
  e.dtype = std::string(dtype_name(r.dtype));
  e.bucket = r.bucket;
  e.params = r.best;
  e.time_ns = r.best_seconds * 1e9;
  e.default_time_ns = r.default_seconds * 1e9;
  file->put_tuning(to_record(e));
  // The tuner verified the result against the default on this very device
  // and driver: no need to check it again on first use.
  file->put_verdict(verdict_key(caps, e.family, e.dtype, e.bucket, e.params), true);
}

// At most an hour: an unbounded budget ("inf", 1e400) would make the first
// call of an operator never return.
double budget_ms(double fallback) { return env_number("OPTUNE_TUNING_BUDGET_MS", fallback, 1, 3600e3); }

}  // namespace

bool save_result(const Capabilities& caps, const TuneResult& result) {
  if (!CacheFile::instance()) return false;
  store(caps, result);
  Database::instance().forget();
  return true;
}

std::size_t import_entries(const std::vector<DbEntry>& entries, const Capabilities& caps) {
  // Validate everything first so that a bad file writes nothing.
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const DbEntry& e = entries[i];
    const std::string where = e.source + ": entry " + std::to_string(i) + " (" + e.family + " " + e.dtype + " " +
                              e.bucket + ")";
    const KernelFamily* fam = nullptr;
    for (const KernelFamily* f : families::all())
      if (f->name() == e.family) fam = f;
    if (!fam) throw Error(Status::InvalidArgument, where + ": no kernel family '" + e.family + "'");
    const auto defs = fam->parameters(caps);
    for (const auto& [name, value] : e.params) {
      auto def = std::find_if(defs.begin(), defs.end(), [&](const Parameter& d) { return d.name == name; });
      if (def == defs.end()) throw Error(Status::InvalidArgument, where + ": the family has no parameter " + name);
      if (std::find(def->values.begin(), def->values.end(), value) == def->values.end())
        throw Error(Status::InvalidArgument,
                    where + ": " + name + "=" + std::to_string(value) + " is not one of its candidate values");
    }
    if (!fam->knows_bucket(e.bucket))
      log_warn(where + ": bucket '" + e.bucket + "' is not one the family tunes; imported anyway");
  }
  CacheFile* file = CacheFile::instance();
  if (!file)
    throw Error(Status::IoError, "no cache file to import into (OPTUNE_CACHE=off, or the cache folder " + cache_dir() +
                                     " is unusable)");
  // No verdicts: each imported entry is checked on its first use here. One
  // transaction: an import killed or failing midway leaves nothing of itself.
  std::vector<TuningRecord> records;
  for (const DbEntry& e : entries) records.push_back(to_record(e));
  file->put_tunings(records);
  Database::instance().forget();
  return entries.size();
}

std::string tuning_policy() {
  const std::string mode = env_choice("OPTUNE_TUNING", {"off", "fast", "full", "0"}, "off");
  return mode == "0" ? "off" : mode;
}

std::optional<TuneResult> policy_search(const Queue& queue, const KernelFamily& family, DType dtype,
                                        const std::string& bucket) {
  const std::string mode = tuning_policy();
  if (mode == "off") return std::nullopt;
  const Capabilities& caps = queue.device().caps();
  TuneOptions o;
  o.progress = false;
  o.seed = 1;
  o.warmup = 1;
  o.runs = 3;
  if (mode == "fast") {
    // Work-group sizes only: the vendor guides' start-up search, cheap
    // enough to run on first use.
    for (const Parameter& p : family.parameters(caps))
      if (p.name.rfind("WGS", 0) == 0 && p.values.size() > 1) o.vary.push_back(p.name);
    if (o.vary.empty()) return std::nullopt;
    o.strategy = Strategy::Exhaustive;
    o.budget_seconds = budget_ms(200) / 1e3;
  } else {
    o.strategy = Strategy::Random;
    o.budget_seconds = budget_ms(5000) / 1e3;
  }
  try {
    const Problem pr = family.example(dtype, bucket, caps);
    TuneResult r = tune(queue, family, pr, o);
    // Tuned for the bucket the lookup asked about, whatever bucket the
    // example problem itself falls in.
    r.bucket = bucket;
    store(caps, r);
    log_info("OPTUNE_TUNING=" + mode + ": " + family.name() + " " + std::string(dtype_name(dtype)) + " " + bucket +
             " -> " + params_to_json(r.best) + " (" + std::to_string(r.evaluated) + " tried in " +
             std::to_string(int(r.elapsed_seconds * 1e3)) + " ms, " + std::to_string(r.speedup()) + "x)");
    return r;
  } catch (const std::exception& e) {
    log_warn("OPTUNE_TUNING=" + mode + ": searching " + family.name() + " failed (" + e.what() +
             "); using the defaults");
    return std::nullopt;
  }
}

}  // namespace optune::detail
