// Lookup with fallback and trust checks; see database.hpp for the levels and
// docs/DATABASE.md for the file format.
#include "database/database.hpp"
#include "runtime/trace.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>

#include "runtime/embedded.hpp"
#include "runtime/log.hpp"
#include "tuning/measure.hpp"

namespace optune::detail {

namespace {

std::atomic<std::uint64_t> n_checked{0}, n_verdicts_from_file{0};

// Ranks within a level: the same driver before another driver, explicit
// architecture entries before siblings' device entries, local before shipped.
int rank_within(Level level, const DbEntry& e, const Capabilities& caps) {
  int r = e.local ? 0 : 1;
  if (level == Level::Device && e.driver != caps.driver_version) r += 2;
  if (level == Level::Architecture && !e.name.empty()) r += 2;
  return r;
}

std::string describe(const Candidate& c) {
  return c.entry.family + " " + c.entry.dtype + " " + c.entry.bucket + " (" + level_name(c.level) + " level, " +
         c.entry.source + ")";
}

}  // namespace

TrustCounts trust_counts() {
  return {n_checked.load(std::memory_order_relaxed), n_verdicts_from_file.load(std::memory_order_relaxed)};
}

struct Database::Slot {
  std::mutex mu;
  bool resolved = false;
  bool searched = false;
  struct Choice {
    Candidate candidate;
    Params params;  // completed with defaults
    enum { Unchecked, Trusted, SetAside } state = Unchecked;
  };
  std::vector<Choice> chain;
};

std::string level_name(Level level) {
  switch (level) {
    case Level::Local: return "local";
    case Level::Device: return "device";
    case Level::Architecture: return "architecture";
    case Level::Vendor: return "vendor";
    case Level::Generic: return "default";
  }
  return "default";
}

std::optional<Level> match_level(const DbEntry& e, const Capabilities& caps) {
  if (e.backend != backend_name(caps.backend)) return std::nullopt;
  if (e.local && !e.identity.empty() && e.identity == caps.identity()) return Level::Local;
  const bool same_vendor = e.vendor.empty() || vendor_key(e.vendor) == vendor_key(caps.vendor);
  if (!e.name.empty()) {
    if (e.name == caps.name && same_vendor) return Level::Device;
    if (!e.architecture.empty() && e.architecture == caps.architecture && same_vendor) return Level::Architecture;
    return std::nullopt;
  }
  if (!e.architecture.empty())
    return e.architecture == caps.architecture && same_vendor ? std::optional(Level::Architecture) : std::nullopt;
  if (!e.vendor.empty() && same_vendor) return Level::Vendor;
  return std::nullopt;
}

namespace {
std::mutex instance_mu;
Database* current = nullptr;
std::vector<Database*> retired;  // kept alive: another thread may still use one
}  // namespace

Database& Database::instance() {
  std::lock_guard lock(instance_mu);
  if (!current) current = new Database(true);
  return *current;
}

namespace {
std::atomic<std::uint64_t> answers_generation{0};
}  // namespace

std::uint64_t Database::generation() { return answers_generation.load(std::memory_order_acquire); }

void Database::reset_instance() {
  answers_generation.fetch_add(1, std::memory_order_acq_rel);
  std::lock_guard lock(instance_mu);
  if (current) retired.push_back(current);
  current = nullptr;
}

Database::Database(bool load_embedded) : load_embedded_(load_embedded) {}

std::size_t Database::add_json(const std::string& text, const std::string& source) {
  std::vector<DbEntry> entries = parse_database_json(text, source, false);
  std::lock_guard lock(mu_);
  shipped_.insert(shipped_.end(), entries.begin(), entries.end());
  memo_.clear();
  answers_generation.fetch_add(1, std::memory_order_acq_rel);
  return entries.size();
}

void Database::forget() {
  std::lock_guard lock(mu_);
  memo_.clear();
  answers_generation.fetch_add(1, std::memory_order_acq_rel);
}

std::vector<Candidate> Database::candidates(const Capabilities& caps, const std::string& family,
                                            const std::string& dtype, const std::string& bucket) const {
  std::vector<DbEntry> all;
  {
    std::lock_guard lock(mu_);
    if (load_embedded_ && !embedded_loaded_) {
      embedded_loaded_ = true;
      for (const EmbeddedFile* f = embedded_database_files(); f && f->path; ++f) {
        auto entries = parse_database_json(std::string(f->data, f->size), "database/" + std::string(f->path), false);
        shipped_.insert(shipped_.end(), entries.begin(), entries.end());
      }
    }
    all = shipped_;
  }
  if (CacheFile* file = CacheFile::instance()) {
    std::vector<DbEntry> local;
    for (const TuningRecord& r : file->tuning(std::string(backend_name(caps.backend)), "", family)) {
      try {
        local.push_back(from_record(r));
      } catch (const std::exception& e) {
        log_warn("tuning database: a cache-file record of " + r.family + " has bad parameters (" + e.what() +
                 "); skipped");
      }
    }
    all.insert(all.begin(), local.begin(), local.end());
  }
  std::vector<Candidate> out;
  for (DbEntry& e : all) {
    if ((!family.empty() && e.family != family) || (!dtype.empty() && e.dtype != dtype) ||
        (!bucket.empty() && e.bucket != bucket))
      continue;
    if (auto level = match_level(e, caps)) out.push_back({*level, std::move(e)});
  }
  std::stable_sort(out.begin(), out.end(), [&](const Candidate& a, const Candidate& b) {
    if (a.level != b.level) return a.level < b.level;
    return rank_within(a.level, a.entry, caps) < rank_within(b.level, b.entry, caps);
  });
  return out;
}

std::shared_ptr<Database::Slot> Database::slot(const std::string& key) {
  std::lock_guard lock(mu_);
  auto& s = memo_[key];
  if (!s) s = std::make_shared<Slot>();
  return s;
}

bool Database::trusted(const Queue& queue, const KernelFamily& family, const Problem& small, const Candidate& c,
                       const Params& params) {
  const Capabilities& caps = queue.device().caps();
  if (params == family.defaults(caps)) return true;
  const std::string key = verdict_key(caps, c.entry.family, c.entry.dtype, c.entry.bucket, params);
  {
    std::lock_guard lock(mu_);
    if (auto it = verdicts_.find(key); it != verdicts_.end()) return it->second;
  }
  CacheFile* file = CacheFile::instance();
  if (file) {
    if (auto v = file->get_verdict(key)) {
      n_verdicts_from_file.fetch_add(1, std::memory_order_relaxed);
      if (!*v) log_info("tuning database: " + describe(c) + " was set aside earlier on this device and driver");
      std::lock_guard lock(mu_);
      return verdicts_[key] = *v;
    }
  }
  std::string why;
  {
    // Its own span in OPTUNE_TRACE: the check's kernels are not the call's.
    trace::Span traced("database trust check", family.name(), "database");
    if (traced) traced.text("entry", describe(c)).text("params", params_to_json(params));
    why = verify_against_default(queue, family, small, params);
  }
  n_checked.fetch_add(1, std::memory_order_relaxed);
  const bool passed = why.empty();
  // A set-up failure (memory) says nothing about the entry: decide for this
  // process only, and check again next time.
  const bool conclusive = why.rfind("set-up failed", 0) != 0;
  if (passed) log_info("tuning database: verified " + describe(c) + " " + params_to_json(params) + " on " + caps.name);
  else log_warn("tuning database: " + describe(c) + " " + params_to_json(params) + " fails on " + caps.name + " (" +
                why + "); set aside, using the next level");
  if (file && conclusive) file->put_verdict(key, passed);
  std::lock_guard lock(mu_);
  verdicts_[key] = passed;
  return passed;
}

Params Database::lookup(const Queue& queue, const KernelFamily& family, const Problem& problem, Lookup* info) {
  const Capabilities& caps = queue.device().caps();
  const std::string dtype(dtype_name(problem.dtype));
  const std::string bucket = family.bucket(problem);
  std::shared_ptr<Slot> s = slot(caps.identity() + "\x1f" + family.name() + "\x1f" + dtype + "\x1f" + bucket);
  std::lock_guard lock(s->mu);
  // The bucket's example problem is only needed while resolving and checking
  // entries, not on the memoised path every op call takes.
  auto example = [&] { return family.example(problem.dtype, bucket, caps); };
  if (!s->resolved) {
    s->resolved = true;
    // Entries of the problem's own bucket and of the coarser ones it refines
    // (bucket_chain): by level first, the finer bucket first within a level.
    std::vector<Candidate> found;
    for (const std::string& b : family.bucket_chain(problem)) {
      std::vector<Candidate> more = candidates(caps, family.name(), dtype, b);
      found.insert(found.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.level < b.level; });
    for (Candidate& c : found) {
      Params p;
      if (const std::string why = entry_unusable(family, c.entry.params, caps, example(), &p); !why.empty()) {
        // An entry of the problem's own bucket that cannot run its example is
        // a fault of the file; one of a coarser bucket the problem refines is
        // expected not to fit every refinement (that is why they exist).
        const std::string text = "tuning database: " + describe(c) + " " + params_to_json(c.entry.params) +
                                 " is not usable here (" + why + "); skipped";
        if (c.entry.bucket == bucket) log_warn(text);
        else log_debug(text);
        continue;
      }
      s->chain.push_back({std::move(c), std::move(p)});
    }
  }
  // The trust check runs on a cheap example (the family's trust_bucket: the
  // smallest bucket, with what the finer bucket keys on, such as GEMM's
  // transposes): the entry's parameters must give right answers at every
  // size anyway.
  auto small = [&] { return family.example(problem.dtype, family.trust_bucket(bucket), caps); };
  bool any_trusted = false;
  for (Slot::Choice& ch : s->chain) {
    if (ch.state == Slot::Choice::SetAside) continue;
    if (ch.state == Slot::Choice::Unchecked) {
      Problem pr = small();
      if (!family.check(ch.params, caps, pr).empty()) pr = example();
      ch.state = trusted(queue, family, pr, ch.candidate, ch.params) ? Slot::Choice::Trusted : Slot::Choice::SetAside;
      if (ch.state == Slot::Choice::SetAside) continue;
    }
    any_trusted = true;
    // The messages only where debug logging is on: this is every call's path,
    // and building them (the parameters as JSON) cost more than the lookup.
    const bool debug = log_enabled(LogLevel::Debug);
    if (std::string why = family.check(ch.params, caps, problem); !why.empty()) {
      if (debug) log_debug("tuning database: " + describe(ch.candidate) + " does not fit this call (" + why + ")");
      continue;
    }
    if (info) *info = {ch.params, ch.candidate.level, ch.candidate.entry.source};
    if (debug)
      log_debug("tuning database: " + family.name() + " " + dtype + " " + bucket + " -> " +
                params_to_json(ch.params) + " (" + level_name(ch.candidate.level) + ", " +
                ch.candidate.entry.source + ")");
    return ch.params;
  }
  // Nothing stored for this key: the run-time policy may search once.
  if (!any_trusted && !s->searched) {
    s->searched = true;
    std::optional<TuneResult> r;
    {
      trace::Span traced("run-time search", family.name(), "database");
      r = policy_search(queue, family, problem.dtype, bucket);
    }
    if (r) {
      Candidate c{Level::Local, {}};
      c.entry.source = "run-time search (OPTUNE_TUNING=" + tuning_policy() + ")";
      c.entry.family = family.name();
      s->chain.insert(s->chain.begin(), {c, r->best, Slot::Choice::Trusted});
      if (family.check(r->best, caps, problem).empty()) {
        if (info) *info = {r->best, Level::Local, c.entry.source};
        return r->best;
      }
    }
  }
  Params d = family.defaults(caps);
  if (info) *info = {d, Level::Generic, "family defaults"};
  return d;
}

std::string entry_unusable(const KernelFamily& family, const Params& stored, const Capabilities& caps,
                           const Problem& example, Params* completed) {
  const std::vector<Parameter> defs = family.parameters(caps);
  for (const auto& [name, value] : stored)
    if (std::none_of(defs.begin(), defs.end(), [&](const Parameter& d) { return d.name == name; }))
      return "unknown parameter " + name;
  Params p = family.complete(stored, caps);
  std::string why = family.check(p, caps, example);
  if (completed) *completed = std::move(p);
  return why;
}

Params lookup_params(const Queue& queue, const KernelFamily& family, const Problem& problem, Lookup* info) {
  try {
    return Database::instance().lookup(queue, family, problem, info);
  } catch (const std::exception& e) {
    // The database only ever makes things faster: a failure in it must not
    // fail the operator that asked.
    log_warn("tuning database: lookup of " + family.name() + " failed (" + e.what() + "); using the defaults");
    Params d = family.defaults(queue.device().caps());
    if (info) *info = {d, Level::Generic, "family defaults"};
    return d;
  }
}

std::string verdict_key(const Capabilities& caps, const std::string& family, const std::string& dtype,
                        const std::string& bucket, const Params& params) {
  return caps.identity() + "|" + family + "|" + dtype + "|" + bucket + "|" + params_to_json(params);
}

}  // namespace optune::detail
