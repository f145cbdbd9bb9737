// The tuning database: which parameters a kernel family should use for a
// problem on a device, and where they came from.
//
// Sources, in the order they are consulted:
//   1. the cache file (CacheFile): results of `optune tune --save`, of the
//      run-time search (OPTUNE_TUNING) and of `optune db import`;
//   2. shipped files, database/**/*.json, embedded at build time (format in
//      database/format.hpp and docs/DATABASE.md); tests and tools may add
//      more text with Database::add_json.
// Key: backend, device identity, family, data type, problem-size bucket.
// A family may refine a bucket (KernelFamily::bucket_chain: GEMM keys
// "large/nt" within "large"); entries of the finer bucket come first at each
// level, then the coarser one's.
// Levels, best first (match_level):
//   local        a cache-file record of this very device and driver;
//   device       an entry for the same device (vendor and name) on another
//                driver, or imported for it;
//   architecture an architecture-level entry (same backend and
//                Capabilities::architecture), then entries of sibling
//                devices of that architecture;
//   vendor       a vendor-level entry for the device's vendor;
//   default      the family's defaults (the generic level).
// Trust: every entry but the defaults is checked once per device and driver
// against the default configuration on a small problem before its first use;
// the verdict is cached in the cache file (results tuned here are stored with
// a passing verdict). A failing entry is set aside with a warning and the
// next candidate is used. Entries whose parameters the family refuses
// (unknown names, check() failing on the bucket's example) are skipped with
// a warning; entries that only fail check() for the problem at hand are
// passed over for that call.
// Run-time policy OPTUNE_TUNING=off|fast|full (default off): when a lookup
// finds no entry at all for its key, fast searches the work-group-size
// parameters (WGS*) within OPTUNE_TUNING_BUDGET_MS (default 200; 1 to
// 3600000 accepted), full runs random sampling over every parameter (default
// budget 5000 ms); the result
// is stored in the cache file and used at the local level.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "database/format.hpp"
#include "tuning/tuner.hpp"

namespace optune::detail {

enum class Level : int { Local = 0, Device = 1, Architecture = 2, Vendor = 3, Generic = 4 };

// "local", "device", "architecture", "vendor", "default".
std::string level_name(Level level);

struct Lookup {
  Params params;
  Level level = Level::Generic;
  std::string source;  // "cache file", "database/opencl/...json", "family defaults", ...
};

// The level at which e serves a device with these capabilities, or nullopt.
std::optional<Level> match_level(const DbEntry& e, const Capabilities& caps);

struct Candidate {
  Level level;
  DbEntry entry;
};

class Database {
 public:
  // The process-wide database: embedded shipped files and the cache file.
  static Database& instance();
  // Tests: a fresh process-wide database (the old one is kept alive, not
  // destroyed, in case another thread still holds it).
  static void reset_instance();

  explicit Database(bool load_embedded = true);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Adds a file in the shipped format; malformed parts are warned about and
  // skipped. Returns the entries added. Drops memoised lookups.
  std::size_t add_json(const std::string& text, const std::string& source);
  // Every entry (cache file and shipped) that serves this device, in
  // fallback order; empty filters match everything. No trust checks.
  std::vector<Candidate> candidates(const Capabilities& caps, const std::string& family = "",
                                    const std::string& dtype = "", const std::string& bucket = "") const;
  // Parameters for the problem, with the fallback chain, trust checks and the
  // run-time policy; memoised per device, family, dtype and bucket.
  Params lookup(const Queue& queue, const KernelFamily& family, const Problem& problem, Lookup* info = nullptr);
  // Forgets memoised lookups (after the cache file changed).
  void forget();
  // Grows whenever an answer of lookup() may change (add_json, forget,
  // reset_instance): what remembers an answer (ops/launch_plan.hpp) keeps
  // the generation it was given with and asks again when it moved.
  static std::uint64_t generation();

 private:
  struct Slot;
  std::shared_ptr<Slot> slot(const std::string& key);
  bool trusted(const Queue& queue, const KernelFamily& family, const Problem& small, const Candidate& c,
               const Params& params);

  mutable std::mutex mu_;
  bool load_embedded_;
  mutable bool embedded_loaded_ = false;
  mutable std::vector<DbEntry> shipped_;
  std::map<std::string, std::shared_ptr<Slot>> memo_;
  std::map<std::string, bool> verdicts_;  // this process's verdicts, for when there is no cache file
};

// Why a stored entry's parameters cannot serve a lookup whose bucket's
// example problem is `example` ("" when they can): a name the family does
// not have, or the set completed with the family's defaults (into
// *completed) failing the family's check on the example. Such an entry is
// skipped with a warning (tests/test_database_shipped.cpp runs this on the
// shipped files).
std::string entry_unusable(const KernelFamily& family, const Params& stored, const Capabilities& caps,
                           const Problem& example, Params* completed = nullptr);

// What ops call: Database::instance().lookup(...).
Params lookup_params(const Queue& queue, const KernelFamily& family, const Problem& problem, Lookup* info = nullptr);

// Trust checks this process has settled (every device, since start): run
// here against the defaults, or answered by a verdict in the cache file.
// `optune bench startup` reports them for a first call.
struct TrustCounts {
  std::uint64_t checked = 0;
  std::uint64_t from_cache_file = 0;
};
TrustCounts trust_counts();

// The cache-file key of a trust verdict.
std::string verdict_key(const Capabilities& caps, const std::string& family, const std::string& dtype,
                        const std::string& bucket, const Params& params);

// Stores a tuning result of this device in the cache file with a passing
// verdict (the tuner verified it) and drops memoised lookups. False when
// there is no cache file.
bool save_result(const Capabilities& caps, const TuneResult& result);

// Validates entries against the registered families (known family, known
// parameter names, candidate values) and writes them into the cache file
// without verdicts, so each is checked on first use. Throws
// Error(InvalidArgument) naming the first bad entry, Error(IoError) without a
// cache file. Returns how many were written.
std::size_t import_entries(const std::vector<DbEntry>& entries, const Capabilities& caps);

// OPTUNE_TUNING as one of "off", "fast", "full" (any case; "0" is off); an
// unknown value is warned about once and means off.
std::string tuning_policy();

// The run-time search of OPTUNE_TUNING for a key with no entry; nullopt when
// the policy is off, the family has nothing to search, or the search failed.
std::optional<TuneResult> policy_search(const Queue& queue, const KernelFamily& family, DType dtype,
                                        const std::string& bucket);

}  // namespace optune::detail
