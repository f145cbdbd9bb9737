// The cache file's SQLite layer (runtime/cache_file.cpp): failures as
// SqlError with their result code, statements with typed binds and
// columns, and one-transaction writes.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "optune/error.hpp"

namespace optune::detail::sqlite {

// An SQLite failure with its result code, so that a damaged file (set aside)
// can be told from a busy, full or unreadable one (reported, left alone).
class SqlError : public Error {
 public:
  SqlError(int code, const std::string& message) : Error(Status::IoError, message), primary_(code & 0xff) {}
  bool damaged() const { return primary_ == SQLITE_CORRUPT || primary_ == SQLITE_NOTADB; }
  bool plain_error() const { return primary_ == SQLITE_ERROR; }
  bool busy() const { return primary_ == SQLITE_BUSY || primary_ == SQLITE_LOCKED; }
  bool io() const { return primary_ == SQLITE_IOERR; }

 private:
  int primary_;  // without the extended bits
};

[[noreturn]] inline void fail(sqlite3* db, int rc) { throw SqlError(rc, sqlite3_errmsg(db)); }

inline void exec(sqlite3* db, const char* sql) {
  if (const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr); rc != SQLITE_OK) fail(db, rc);
}

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (const int rc = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); rc != SQLITE_OK) fail(db, rc);
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, const std::string& v) {
    return check(sqlite3_bind_text64(s_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  Stmt& bind(int i, const std::vector<std::uint8_t>& v) {
    // An empty vector's data() may be null, which SQLite would store as NULL.
    return check(v.empty() ? sqlite3_bind_zeroblob(s_, i, 0)
                           : sqlite3_bind_blob64(s_, i, v.data(), v.size(), SQLITE_TRANSIENT));
  }
  Stmt& bind(int i, double v) { return check(sqlite3_bind_double(s_, i, v)); }
  Stmt& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(s_, i, v)); }

  // True for a row, false when done; anything else throws.
  bool step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(db_, rc);
  }
  void run() { step(); }

  std::string text(int col) const {
    const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    return t ? std::string(t, std::size_t(sqlite3_column_bytes(s_, col))) : std::string();
  }
  std::int64_t int64(int col) const { return sqlite3_column_int64(s_, col); }
  double real(int col) const { return sqlite3_column_double(s_, col); }
  std::vector<std::uint8_t> blob(int col) const {
    const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(s_, col));
    return p ? std::vector<std::uint8_t>(p, p + sqlite3_column_bytes(s_, col)) : std::vector<std::uint8_t>();
  }

 private:
  Stmt& check(int rc) {
    if (rc != SQLITE_OK) fail(db_, rc);
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

template <class F>
void write_transaction(sqlite3* db, F&& body) {
  exec(db, "BEGIN IMMEDIATE");
  try {
    body();
    exec(db, "COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace optune::detail::sqlite
