// The cache file. Several processes share it: WAL lets readers run beside a
// writer, the busy timeout makes writers queue instead of failing, and every
// write is one short BEGIN IMMEDIATE transaction (taking the write lock up
// front, so two writers never deadlock upgrading from a read lock).
#include "runtime/cache_file.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <thread>
#include <type_traits>

#include "optune/error.hpp"
#include "runtime/cache_stamp.hpp"
#include "runtime/checksum.hpp"
#include "runtime/log.hpp"
#include "runtime/sqlite_stmt.hpp"

namespace optune::detail {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "optune-cache";
constexpr const char* kVersion = "1";
constexpr int kBusyTimeoutMs = 10000;

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

using sqlite::exec;
using sqlite::SqlError;
using sqlite::Stmt;
using sqlite::write_transaction;

// Runs body under the connection's mutex; an SQLite (or any) failure becomes
// a warning and an empty result, because a cache must never break a caller.
template <class F>
auto guarded(std::mutex& mu, const std::string& path, const char* what, F&& body) -> decltype(body()) {
  using R = decltype(body());
  std::lock_guard lock(mu);
  try {
    return body();
  } catch (const std::exception& e) {
    log_warn("cache file " + path + ": " + what + " failed (" + e.what() + "); going on without it");
    if constexpr (!std::is_void_v<R>) return R{};
  }
}

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS programs(key TEXT PRIMARY KEY, device TEXT, binary BLOB, created INTEGER);
CREATE TABLE IF NOT EXISTS tuning(backend TEXT, device TEXT, architecture TEXT, vendor TEXT, family TEXT,
  dtype TEXT, bucket TEXT, params TEXT, time_ns REAL, default_time_ns REAL, created INTEGER,
  PRIMARY KEY(backend, device, family, dtype, bucket));
CREATE TABLE IF NOT EXISTS verdicts(key TEXT PRIMARY KEY, passed INTEGER, created INTEGER);
)";

// Why this database cannot serve as our cache, or "" when it can (an empty
// file included). Throws SqlError; damaged() ones mean the file is bad.
// *ready: the file already holds this version's whole schema (no write is
// needed to open it).
std::string reject_reason(sqlite3* db, const std::string& path, bool* ready) {
  *ready = false;
  const std::string stamp = file_stamp(path);
  if (stamp_matches(path, stamp)) {
    log_debug("cache file: " + path + " unchanged since its last integrity check");
  } else {
    Stmt check(db, "PRAGMA quick_check(1)");
    const std::string verdict = check.step() ? check.text(0) : "no answer";
    if (verdict != "ok") return "failed its integrity check (" + verdict + ")";
    write_stamp(path, stamp);
  }
  Stmt tables(db, "SELECT count(*), coalesce(sum(name = 'meta'), 0) FROM sqlite_master WHERE type = 'table'");
  tables.step();
  if (tables.int64(0) == 0) return "";
  if (tables.int64(1) == 0) return "holds another program's tables";
  std::map<std::string, std::string> meta;
  try {
    Stmt rows(db, "SELECT key, value FROM meta WHERE key IN ('format', 'version')");
    while (rows.step()) meta[rows.text(0)] = rows.text(1);
  } catch (const SqlError& e) {
    if (!e.plain_error()) throw;
    return "has a meta table of another shape";  // e.g. no key/value columns
  }
  if (meta["format"] != kFormat) return "is not an optune cache (format '" + meta["format"] + "')";
  if (meta["version"] != kVersion)
    return "has cache version '" + meta["version"] + "', this build uses " + std::string(kVersion);
  Stmt ours(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                "('meta', 'programs', 'tuning', 'verdicts')");
  *ready = ours.step() && ours.int64(0) == 4;
  return "";
}

using Connection = std::unique_ptr<sqlite3, decltype(&sqlite3_close)>;

// Opens and checks the file, making the schema when it is new. Returns null
// with *why set when the file is damaged or foreign; throws SqlError when it
// cannot be used for any other reason (then it is not ours to move).
Connection open_checked(const std::string& path, std::string* why) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                 nullptr);
  Connection db(raw, &sqlite3_close);
  if (rc != SQLITE_OK) throw SqlError(rc, raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  bool ready = false;
  try {
    *why = reject_reason(raw, path, &ready);
  } catch (const SqlError& e) {
    if (!e.damaged()) throw;
    *why = std::string("is damaged (") + e.what() + ")";
  }
  if (!why->empty()) return Connection(nullptr, &sqlite3_close);
  {
    Stmt mode(raw, "PRAGMA journal_mode=WAL");
    if (mode.step() && mode.text(0) != "wal")
      log_debug("cache file: " + path + " stays in journal mode " + mode.text(0) + " (no WAL here)");
  }
  // In WAL mode NORMAL cannot corrupt the file; a power cut may only lose the
  // last few commits, which a cache can afford in exchange for no fsync per put.
  exec(raw, "PRAGMA synchronous=NORMAL");
  if (ready) return db;  // the schema is there: opening writes nothing
  write_transaction(raw, [&] {
    exec(raw, kSchema);
    Stmt s(raw, "INSERT OR IGNORE INTO meta(key, value) VALUES('format', ?1), ('version', ?2)");
    s.bind(1, std::string(kFormat)).bind(2, std::string(kVersion)).run();
  });
  return db;
}

// A new file that several processes open at once is switched to WAL by one of
// them; meanwhile SQLite may answer SQLITE_BUSY to the others at once, without
// the busy handler (it would risk a deadlock), so they wait and start over.
Connection open_retrying(const std::string& path, std::string* why) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (int attempt = 1;; ++attempt) {
    try {
      return open_checked(path, why);
    } catch (const SqlError& e) {
      if (!e.busy() || std::chrono::steady_clock::now() > deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt, 20)));
    }
  }
}

// A flock on a side file. Exclusive: the one process that moves a damaged
// file, so that two processes finding it do not each move it, the second
// one moving the first's new file. Shared: every process while it opens and
// checks the file, so that none holds the old file open, unchecked, while
// it moves: SQLite finds a WAL by its name, so such a connection would read
// the new file's WAL as its own, see a sound database and, at its last
// checkpoint, write the new file's commits into the old one (the moved file
// grew a header and lost one process's rows to it, 2 runs in 150 of
// test_cache_file's ProcessesFindingOneDamagedFileSetItAsideOnce).
class FileLock {
 public:
  explicit FileLock(const std::string& path, int how = LOCK_EX)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0 && ::flock(fd_, how) != 0) log_debug("cache file: cannot lock " + path);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

// Moves the file and its WAL aside (the WAL belongs to it and is evidence
// too); the shared-memory index is only a cache and is rebuilt. The WAL and
// the index go first: once the file has moved, a process that does not wait
// for the lock (it has not seen the damage) may create a new file at the path
// at once, with its own WAL holding its first commits, which must stay.
std::string set_aside(const std::string& path) {
  const std::string aside = path + ".damaged-" + std::to_string(unix_now()) + "-" + std::to_string(::getpid());
  std::error_code ec;
  if (fs::exists(path + "-wal", ec)) fs::rename(path + "-wal", aside + "-wal", ec);
  fs::remove(path + "-shm", ec);
  fs::remove(stamp_path(path), ec);
  fs::rename(path, aside, ec);
  if (ec) throw Error(Status::IoError, "cannot move " + path + " to " + aside + ": " + ec.message());
  return aside;
}

std::atomic<std::uint64_t> g_open_ns{0};

struct Singleton {
  std::mutex mu;
  std::unique_ptr<CacheFile> file;
  bool failed = false;  // warned once; stays off until reset_instance()
};

Singleton& singleton() {
  static Singleton s;
  return s;
}

}  // namespace

std::string cache_dir() {
  if (const std::string d = env_or("OPTUNE_CACHE_DIR", ""); !d.empty()) return d;
  if (const std::string x = env_or("XDG_CACHE_HOME", ""); !x.empty()) return x + "/optune";
  if (const std::string h = env_or("HOME", ""); !h.empty()) return h + "/.cache/optune";
  return "/tmp/optune-cache";
}

CacheFile::CacheFile(const std::string& path) : path_(path) {
  try {
    std::error_code ec;
    if (const fs::path dir = fs::path(path).parent_path(); !dir.empty()) fs::create_directories(dir, ec);
    std::string why;
    Connection db(nullptr, &sqlite3_close);
    try {
      FileLock shared(path + ".lock", LOCK_SH);
      db = open_retrying(path, &why);
    } catch (const SqlError& e) {
      // An I/O error may come from another process setting a damaged file
      // aside under us (its WAL and index removed mid-open): wait for its
      // lock and open what it left; a lasting I/O error fails again there.
      if (!e.io()) throw;
    }
    if (!db) {
      FileLock lock(path + ".lock");
      db = open_retrying(path, &why);  // another process may have replaced it while we waited
      if (!db) {
        const std::string aside = set_aside(path);
        log_warn("cache file " + path + " " + why + "; moved it to " + aside + " and started a new one");
        db = open_retrying(path, &why);
        if (!db) throw Error(Status::IoError, "the new file " + why);
      }
    }
    db_ = db.release();
  } catch (const Error& e) {
    throw Error(Status::IoError, "cache file " + path + " cannot be used: " + e.what());
  }
  log_debug("cache file: " + path + " opened");
}

CacheFile::~CacheFile() {
  sqlite3_close(db_);
  // The file passed its check (or matched its stamp) when opened, and every
  // change since went through SQLite's transactions: stamp it as this
  // process leaves it (the last connection has folded the WAL into it), so
  // that the next process, typically the first after `optune warm`, does
  // not read it all again.
  write_stamp(path_, file_stamp(path_));
  log_debug("cache file: " + path_ + " closed");
}

bool cache_enabled() {
  const std::string mode = env_choice("OPTUNE_CACHE", {"on", "off", "1", "0"}, "on");
  return mode == "on" || mode == "1";
}

std::uint64_t CacheFile::open_ns() { return g_open_ns.load(std::memory_order_relaxed); }

CacheFile* CacheFile::instance() {
  if (!cache_enabled()) return nullptr;
  Singleton& s = singleton();
  std::lock_guard lock(s.mu);
  if (!s.file && !s.failed) {
    const auto t0 = std::chrono::steady_clock::now();
    struct Timed {
      std::chrono::steady_clock::time_point t0;
      ~Timed() {
        g_open_ns.fetch_add(std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now() - t0).count()),
                            std::memory_order_relaxed);
      }
    } timed{t0};
    try {
      s.file = std::make_unique<CacheFile>(cache_dir() + "/optune.sqlite");
    } catch (const std::exception& e) {
      s.failed = true;
      log_warn(std::string(e.what()) + "; running without a cache file");
    }
  }
  return s.file.get();
}

void CacheFile::reset_instance() {
  Singleton& s = singleton();
  std::lock_guard lock(s.mu);
  s.file.reset();
  s.failed = false;
}

std::optional<std::vector<std::uint8_t>> CacheFile::get_program(const std::string& key) {
  return guarded(mu_, path_, "reading a program", [&]() -> std::optional<std::vector<std::uint8_t>> {
    std::vector<std::uint8_t> payload;
    std::string why;
    {
      Stmt s(db_, "SELECT binary FROM programs WHERE key = ?1");
      if (!s.bind(1, key).step()) {
        log_debug("cache file: no program " + key);
        return std::nullopt;
      }
      const std::vector<std::uint8_t> stored = s.blob(0);
      if (unframe_binary(stored.data(), stored.size(), &payload, &why)) {
        log_debug("cache file: program " + key + " found");
        return payload;
      }
    }
    // Checked here so that no driver ever sees a damaged binary (PoCL
    // asserts on a truncated one).
    log_warn("cache file " + path_ + ": program " + key + " is damaged (" + why + "); dropped, recompiling");
    write_transaction(db_, [&] { Stmt(db_, "DELETE FROM programs WHERE key = ?1").bind(1, key).run(); });
    return std::nullopt;
  });
}

void CacheFile::put_program(const std::string& key, const std::string& device,
                            const std::vector<std::uint8_t>& binary) {
  guarded(mu_, path_, "storing a program", [&] {
    write_transaction(db_, [&] {
      Stmt s(db_, "INSERT OR REPLACE INTO programs(key, device, binary, created) VALUES(?1, ?2, ?3, ?4)");
      s.bind(1, key).bind(2, device).bind(3, frame_binary(binary)).bind(4, unix_now()).run();
    });
    log_debug("cache file: stored program " + key + " (" + std::to_string(binary.size()) + " bytes)");
  });
}

void CacheFile::remove_program(const std::string& key) {
  guarded(mu_, path_, "removing a program", [&] {
    write_transaction(db_, [&] { Stmt(db_, "DELETE FROM programs WHERE key = ?1").bind(1, key).run(); });
    log_debug("cache file: removed program " + key);
  });
}

std::size_t CacheFile::program_count() {
  return guarded(mu_, path_, "counting programs", [&] {
    Stmt s(db_, "SELECT count(*) FROM programs");
    return s.step() ? std::size_t(s.int64(0)) : std::size_t(0);
  });
}

void CacheFile::clear_programs() {
  guarded(mu_, path_, "clearing programs", [&] { write_transaction(db_, [&] { exec(db_, "DELETE FROM programs"); }); });
}

namespace {

void insert_tuning(sqlite3* db, const TuningRecord& r) {
  Stmt s(db,
         "INSERT OR REPLACE INTO tuning(backend, device, architecture, vendor, family, dtype, bucket, params,"
         " time_ns, default_time_ns, created) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  s.bind(1, r.backend).bind(2, r.device).bind(3, r.architecture).bind(4, r.vendor).bind(5, r.family);
  s.bind(6, r.dtype).bind(7, r.bucket).bind(8, r.params_json).bind(9, r.time_ns).bind(10, r.default_time_ns);
  s.bind(11, r.created != 0 ? r.created : unix_now()).run();
}

}  // namespace

void CacheFile::put_tuning(const TuningRecord& r) {
  guarded(mu_, path_, "storing a tuning result", [&] {
    write_transaction(db_, [&] { insert_tuning(db_, r); });
    log_debug("cache file: stored tuning " + r.backend + "/" + r.family + "/" + r.dtype + "/" + r.bucket + " " +
              r.params_json);
  });
}

void CacheFile::put_tunings(const std::vector<TuningRecord>& rs) {
  std::lock_guard lock(mu_);
  try {
    write_transaction(db_, [&] {
      for (const TuningRecord& r : rs) insert_tuning(db_, r);
    });
  } catch (const std::exception& e) {
    throw Error(Status::IoError, "cache file " + path_ + ": storing " + std::to_string(rs.size()) +
                                     " tuning results failed (" + e.what() + "); none was stored");
  }
  log_debug("cache file: stored " + std::to_string(rs.size()) + " tuning results in one transaction");
}

std::vector<TuningRecord> CacheFile::tuning(const std::string& backend, const std::string& device,
                                            const std::string& family) {
  return guarded(mu_, path_, "reading tuning results", [&] {
    Stmt s(db_,
           "SELECT backend, device, architecture, vendor, family, dtype, bucket, params, time_ns, default_time_ns,"
           " created FROM tuning WHERE (?1 = '' OR backend = ?1) AND (?2 = '' OR device = ?2)"
           " AND (?3 = '' OR family = ?3) ORDER BY backend, device, family, dtype, bucket");
    s.bind(1, backend).bind(2, device).bind(3, family);
    std::vector<TuningRecord> out;
    while (s.step()) {
      out.push_back(TuningRecord{.backend = s.text(0), .device = s.text(1), .architecture = s.text(2),
                                 .vendor = s.text(3), .family = s.text(4), .dtype = s.text(5), .bucket = s.text(6),
                                 .params_json = s.text(7), .time_ns = s.real(8), .default_time_ns = s.real(9),
                                 .created = s.int64(10)});
    }
    return out;
  });
}

void CacheFile::clear_tuning() {
  guarded(mu_, path_, "clearing tuning results", [&] {
    write_transaction(db_, [&] { exec(db_, "DELETE FROM tuning; DELETE FROM verdicts;"); });
  });
}

std::optional<bool> CacheFile::get_verdict(const std::string& key) {
  return guarded(mu_, path_, "reading a verdict", [&]() -> std::optional<bool> {
    Stmt s(db_, "SELECT passed FROM verdicts WHERE key = ?1");
    if (!s.bind(1, key).step()) return std::nullopt;
    return s.int64(0) != 0;
  });
}

void CacheFile::put_verdict(const std::string& key, bool passed) {
  guarded(mu_, path_, "storing a verdict", [&] {
    write_transaction(db_, [&] {
      Stmt s(db_, "INSERT OR REPLACE INTO verdicts(key, passed, created) VALUES(?1, ?2, ?3)");
      s.bind(1, key).bind(2, std::int64_t(passed ? 1 : 0)).bind(3, unix_now()).run();
    });
    log_debug("cache file: verdict " + std::string(passed ? "passed" : "failed") + " for " + key);
  });
}

}  // namespace optune::detail
