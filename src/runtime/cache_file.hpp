// The one SQLite file in the user cache folder that holds compiled program
// binaries and locally tuned parameters. Several processes may use it at once
// (WAL journal, busy timeout, short transactions). A damaged or foreign file
// is renamed aside with a warning and a fresh one is made; nothing here is
// ever fatal to the caller: failures degrade to "no cache".
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace optune::detail {

// OPTUNE_CACHE_DIR, else $XDG_CACHE_HOME/optune, else $HOME/.cache/optune,
// else /tmp/optune-cache. The folder is made when the file is opened.
std::string cache_dir();

// OPTUNE_CACHE: on (default) or off, also 1 and 0, in any case; an unknown
// value is warned about once and means on.
bool cache_enabled();

struct TuningRecord {
  std::string backend;       // "opencl" / "cuda"
  std::string device;        // Capabilities::identity()
  std::string architecture;  // Capabilities::architecture
  std::string vendor;
  std::string family;        // kernel family, e.g. "copy"
  std::string dtype;         // "f32", ...
  std::string bucket;        // problem-size bucket, e.g. "n<=2^20"
  std::string params_json;   // {"VW":4,"WGS":256}
  double time_ns = 0;        // median time of the tuned configuration
  double default_time_ns = 0;
  std::int64_t created = 0;  // unix seconds; 0 means "now" to put_tuning
};

class CacheFile {
 public:
  // The process-wide cache file, opened on first use; nullptr when disabled
  // (OPTUNE_CACHE=off) or when no usable file could be made (warned once).
  static CacheFile* instance();
  // Drops the process-wide instance so the next instance() reopens (tests).
  static void reset_instance();
  // Nanoseconds this process spent opening (and checking) the process-wide
  // file, for `optune bench startup`.
  static std::uint64_t open_ns();

  explicit CacheFile(const std::string& path);  // throws Error(IoError) if unusable
  ~CacheFile();
  CacheFile(const CacheFile&) = delete;
  CacheFile& operator=(const CacheFile&) = delete;

  const std::string& path() const { return path_; }

  // Program binaries keyed by a digest of device identity, driver, source and options.
  std::optional<std::vector<std::uint8_t>> get_program(const std::string& key);
  void put_program(const std::string& key, const std::string& device, const std::vector<std::uint8_t>& binary);
  void remove_program(const std::string& key);
  std::size_t program_count();
  void clear_programs();

  // Tuning results: one row per (backend, device, family, dtype, bucket);
  // put replaces the row.
  void put_tuning(const TuningRecord& r);
  // All of rs in one transaction, or none of them: throws Error(IoError)
  // when the write fails (an import must not report what it did not store).
  void put_tunings(const std::vector<TuningRecord>& rs);
  std::vector<TuningRecord> tuning(const std::string& backend = "", const std::string& device = "",
                                   const std::string& family = "");
  void clear_tuning();  // also drops the verdicts, so entries are checked again

  // Verdicts on shipped or imported entries checked on this device/driver:
  // key -> passed.
  std::optional<bool> get_verdict(const std::string& key);
  void put_verdict(const std::string& key, bool passed);

  sqlite3* handle() { return db_; }  // callers must not use it while another thread uses this object

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  std::mutex mu_;  // one connection, used by one thread at a time
};

}  // namespace optune::detail
