// The SQLite cache file: round trips, replacement and filtering of tuning
// rows, damaged and foreign files set aside, OPTUNE_CACHE=off, and writers in
// several processes and threads at once losing nothing.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "optune/error.hpp"
#include "runtime/cache_file.hpp"

namespace {

namespace fs = std::filesystem;
using optune::detail::CacheFile;
using optune::detail::TuningRecord;

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = std::uint8_t(rng() % 4 == 0 ? 0 : rng());  // plenty of zeros
  return v;
}

TuningRecord record(const std::string& backend, const std::string& device, const std::string& family,
                    const std::string& bucket, const std::string& params = R"({"WGS":64})") {
  return TuningRecord{.backend = backend, .device = device, .architecture = "arch-" + device,
                      .vendor = "vendor", .family = family, .dtype = "f32", .bucket = bucket,
                      .params_json = params, .time_ns = 1234.5, .default_time_ns = 2345.25, .created = 0};
}

// Runs SQL on a file with a plain connection, as another program would.
void sql(const std::string& path, const std::string& text) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err);
  const std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << msg;
}

class CacheFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "optune-cache-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    if (const char* old = std::getenv("OPTUNE_CACHE_DIR")) old_dir_ = old;
    setenv("OPTUNE_CACHE_DIR", dir_.c_str(), 1);
    unsetenv("OPTUNE_CACHE");
    CacheFile::reset_instance();
  }
  void TearDown() override {
    CacheFile::reset_instance();
    unsetenv("OPTUNE_CACHE");
    if (old_dir_) setenv("OPTUNE_CACHE_DIR", old_dir_->c_str(), 1);
    else unsetenv("OPTUNE_CACHE_DIR");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string path() const { return dir_ + "/optune.sqlite"; }

  std::vector<std::string> damaged_files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("optune.sqlite.damaged-", 0) == 0 && name.find("-wal") == std::string::npos)
        out.push_back(e.path().string());
    }
    return out;
  }

  // Opens the cache over whatever lies at path(); expects it to be set aside
  // with a warning naming both files, and the new file to work.
  void expect_set_aside() {
    testing::internal::CaptureStderr();
    CacheFile* file = CacheFile::instance();
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_NE(file, nullptr) << err;
    const auto aside = damaged_files();
    ASSERT_EQ(aside.size(), 1u) << err;
    EXPECT_NE(err.find(path()), std::string::npos) << err;
    EXPECT_NE(err.find(aside[0]), std::string::npos) << err;
    expect_works(file);
  }

  static void expect_works(CacheFile* file) {
    file->put_program("k", "dev", {1, 0, 2});
    EXPECT_EQ(file->get_program("k"), (std::vector<std::uint8_t>{1, 0, 2}));
    file->put_tuning(record("opencl", "d", "copy", "b"));
    EXPECT_EQ(file->tuning().size(), 1u);
  }

  std::string dir_;
  std::optional<std::string> old_dir_;
};

TEST_F(CacheFileTest, CacheDirFollowsTheEnvironment) {
  const auto saved = [](const char* n) -> std::optional<std::string> {
    const char* v = std::getenv(n);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto xdg = saved("XDG_CACHE_HOME"), home = saved("HOME");
  EXPECT_EQ(optune::detail::cache_dir(), dir_);
  unsetenv("OPTUNE_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/x/cache", 1);
  setenv("HOME", "/h", 1);
  EXPECT_EQ(optune::detail::cache_dir(), "/x/cache/optune");
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(optune::detail::cache_dir(), "/h/.cache/optune");
  unsetenv("HOME");
  EXPECT_EQ(optune::detail::cache_dir(), "/tmp/optune-cache");
  if (xdg) setenv("XDG_CACHE_HOME", xdg->c_str(), 1);
  if (home) setenv("HOME", home->c_str(), 1);
  setenv("OPTUNE_CACHE_DIR", dir_.c_str(), 1);
}

TEST_F(CacheFileTest, MakesTheFolderAndTheFile) {
  const std::string nested = dir_ + "/a/b";
  setenv("OPTUNE_CACHE_DIR", nested.c_str(), 1);
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->path(), nested + "/optune.sqlite");
  EXPECT_TRUE(fs::exists(file->path()));
  EXPECT_EQ(CacheFile::instance(), file) << "one instance per process";
}

TEST_F(CacheFileTest, ProgramRoundTrip) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  const auto big = random_bytes(1 << 20, 1), small = random_bytes(17, 2);
  file->put_program("big", "dev", big);
  file->put_program("small", "dev", small);
  file->put_program("empty", "dev", {});
  EXPECT_EQ(file->get_program("big"), big);
  EXPECT_EQ(file->get_program("small"), small);
  EXPECT_EQ(file->get_program("empty"), std::vector<std::uint8_t>{});
  EXPECT_EQ(file->get_program("missing"), std::nullopt);
  EXPECT_EQ(file->program_count(), 3u);

  file->put_program("small", "dev", big);  // replaces
  EXPECT_EQ(file->get_program("small"), big);
  file->remove_program("small");
  EXPECT_EQ(file->get_program("small"), std::nullopt);
  EXPECT_EQ(file->program_count(), 2u);

  // A later process sees the same.
  CacheFile::reset_instance();
  file = CacheFile::instance();
  EXPECT_EQ(file->get_program("big"), big);
  file->clear_programs();
  EXPECT_EQ(file->program_count(), 0u);
}

TEST_F(CacheFileTest, TuningPutReplacesItsRowAndKeepsOthers) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  TuningRecord a = record("opencl", "dev", "copy", "n<=2^20", R"({"VW":4})");
  a.created = 1700000000;
  file->put_tuning(a);
  file->put_tuning(record("opencl", "dev", "copy", "n<=2^10"));
  TuningRecord replaced = a;
  replaced.params_json = R"({"VW":8})";
  replaced.time_ns = 99.5;
  file->put_tuning(replaced);

  const auto rows = file->tuning();
  ASSERT_EQ(rows.size(), 2u);
  const TuningRecord& r = rows[1].bucket == a.bucket ? rows[1] : rows[0];
  EXPECT_EQ(r.bucket, a.bucket);
  EXPECT_EQ(r.params_json, R"({"VW":8})");
  EXPECT_EQ(r.time_ns, 99.5);
  EXPECT_EQ(r.default_time_ns, a.default_time_ns);
  EXPECT_EQ(r.architecture, a.architecture);
  EXPECT_EQ(r.vendor, a.vendor);
  EXPECT_EQ(r.dtype, a.dtype);
  EXPECT_EQ(r.created, 1700000000);
  const TuningRecord& other = rows[1].bucket == a.bucket ? rows[0] : rows[1];
  EXPECT_GT(other.created, 1700000000) << "created defaults to now";

  file->clear_tuning();
  EXPECT_TRUE(file->tuning().empty());
}

TEST_F(CacheFileTest, TuningFiltersByBackendDeviceAndFamily) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  for (const char* backend : {"opencl", "cuda"})
    for (const char* device : {"A", "B"})
      for (const char* family : {"copy", "reduce"})
        for (const char* bucket : {"s", "l"}) file->put_tuning(record(backend, device, family, bucket));
  EXPECT_EQ(file->tuning().size(), 16u);
  EXPECT_EQ(file->tuning("cuda").size(), 8u);
  EXPECT_EQ(file->tuning("", "A").size(), 8u);
  EXPECT_EQ(file->tuning("", "", "reduce").size(), 8u);
  const auto some = file->tuning("opencl", "B", "copy");
  ASSERT_EQ(some.size(), 2u);
  for (const auto& r : some) {
    EXPECT_EQ(r.backend, "opencl");
    EXPECT_EQ(r.device, "B");
    EXPECT_EQ(r.family, "copy");
  }
  EXPECT_TRUE(file->tuning("vulkan").empty());
}

TEST_F(CacheFileTest, VerdictRoundTrip) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->get_verdict("x"), std::nullopt);
  file->put_verdict("x", true);
  file->put_verdict("y", false);
  EXPECT_EQ(file->get_verdict("x"), std::optional<bool>(true));
  EXPECT_EQ(file->get_verdict("y"), std::optional<bool>(false));
  file->put_verdict("x", false);
  EXPECT_EQ(file->get_verdict("x"), std::optional<bool>(false));
  file->clear_tuning();
  EXPECT_EQ(file->get_verdict("y"), std::nullopt) << "clearing tuning results drops their verdicts";
}

TEST_F(CacheFileTest, GarbageFileIsSetAside) {
  const auto garbage = random_bytes(8192, 3);
  std::ofstream(path(), std::ios::binary).write(reinterpret_cast<const char*>(garbage.data()), garbage.size());
  expect_set_aside();
  std::ifstream in(damaged_files().at(0), std::ios::binary);
  const std::vector<std::uint8_t> kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, garbage) << "the damaged file is kept as it was";
}

TEST_F(CacheFileTest, AnotherProgramsDatabaseIsSetAside) {
  sql(path(), "CREATE TABLE photos(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photos(name) VALUES('cat');");
  expect_set_aside();
  sql(damaged_files().at(0), "SELECT * FROM photos");  // untouched
}

TEST_F(CacheFileTest, ForeignMetaTableIsSetAside) {
  sql(path(), "CREATE TABLE meta(a, b); INSERT INTO meta VALUES(1, 2);");
  expect_set_aside();
}

TEST_F(CacheFileTest, OtherFormatOrVersionIsSetAside) {
  sql(path(), "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
              "INSERT INTO meta VALUES('format', 'optune-cache'), ('version', '2');");
  expect_set_aside();
  CacheFile::reset_instance();
  fs::remove(damaged_files().at(0));
  fs::remove(path());
  sql(path(), "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
              "INSERT INTO meta VALUES('format', 'other-cache'), ('version', '1');");
  expect_set_aside();
}

TEST_F(CacheFileTest, TruncatedFileIsSetAsideOrRecovered) {
  {
    CacheFile file(path());
    for (int i = 0; i < 64; ++i) {
      file.put_program("p" + std::to_string(i), "dev", random_bytes(4096, unsigned(i)));
      file.put_tuning(record("opencl", "dev", "copy", "b" + std::to_string(i)));
    }
  }  // the last connection checkpoints the WAL into the file
  ASSERT_FALSE(fs::exists(path() + "-wal"));
  const auto size = fs::file_size(path());
  ASSERT_GT(size, 100000u);
  fs::resize_file(path(), size / 2);
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  expect_works(file);
}

// The integrity check reads the whole file, so a passing one leaves a stamp
// (PATH.checked) and an open of the unchanged file skips it; a changed file
// (here: a damaged page, which also changes its modification time) is
// checked again and set aside.
TEST_F(CacheFileTest, IntegrityStampSkipsOnlyUnchangedFiles) {
  {
    CacheFile file(path());
    for (int i = 0; i < 32; ++i) file.put_program("p" + std::to_string(i), "dev", random_bytes(4096, unsigned(i)));
  }
  // Closing leaves a stamp of the file as the process left it.
  ASSERT_TRUE(fs::exists(path() + ".checked"));
  const auto size = fs::file_size(path());
  // Overwrite the b-tree pages in the middle of the file, keeping its size.
  auto damage = [&] {
    std::fstream f(path(), std::ios::in | std::ios::out | std::ios::binary);
    const auto junk = random_bytes(3 * 4096, 9);
    f.seekp(std::streamoff(size / 2 / 4096 * 4096));
    f.write(reinterpret_cast<const char*>(junk.data()), std::streamsize(junk.size()));
  };
  const auto time = fs::last_write_time(path());
  damage();
  // Same size and time as stamped: the open trusts the stamp (what the stamp
  // is for); the damage is found by SQLite or the binaries' checksums at use.
  fs::last_write_time(path(), time);
  {
    testing::internal::CaptureStderr();
    CacheFile file(path());
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(damaged_files().empty()) << "the stamp matched, so no check ran: " << err;
  }
  // A new modification time: the stamp no longer matches, the check runs
  // and the file is set aside.
  fs::last_write_time(path(), time + std::chrono::seconds(5));
  expect_set_aside();
  EXPECT_EQ(damaged_files().size(), 1u);
}

TEST_F(CacheFileTest, ValidFileIsKept) {
  {
    CacheFile file(path());
    file.put_verdict("v", true);
  }
  testing::internal::CaptureStderr();
  CacheFile* file = CacheFile::instance();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("warn"), std::string::npos) << err;
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->get_verdict("v"), std::optional<bool>(true));
  EXPECT_TRUE(damaged_files().empty());
}

TEST_F(CacheFileTest, UnusableFolderGivesNullAfterOneWarning) {
  std::ofstream(dir_ + "/plain-file") << "x";
  const std::string bad = dir_ + "/plain-file/sub";
  setenv("OPTUNE_CACHE_DIR", bad.c_str(), 1);
  EXPECT_THROW(CacheFile(bad + "/optune.sqlite"), optune::Error);
  testing::internal::CaptureStderr();
  EXPECT_EQ(CacheFile::instance(), nullptr);
  EXPECT_EQ(CacheFile::instance(), nullptr);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("warn"), std::string::npos) << err;
  EXPECT_EQ(err.find("warn"), err.rfind("warn")) << "warned once: " << err;
}

TEST_F(CacheFileTest, RunTimeErrorsWarnAndDegrade) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(sqlite3_exec(file->handle(), "DROP TABLE programs; DROP TABLE tuning; DROP TABLE verdicts;", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  testing::internal::CaptureStderr();
  EXPECT_NO_THROW(file->put_program("k", "d", {1}));
  EXPECT_EQ(file->get_program("k"), std::nullopt);
  EXPECT_EQ(file->program_count(), 0u);
  EXPECT_NO_THROW(file->put_tuning(record("opencl", "d", "copy", "b")));
  EXPECT_TRUE(file->tuning().empty());
  EXPECT_NO_THROW(file->put_verdict("v", true));
  EXPECT_EQ(file->get_verdict("v"), std::nullopt);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("no such table"), std::string::npos) << err;
}

TEST_F(CacheFileTest, OffGivesNull) {
  for (const char* off : {"off", "0"}) {
    setenv("OPTUNE_CACHE", off, 1);
    EXPECT_EQ(CacheFile::instance(), nullptr) << off;
  }
  EXPECT_FALSE(fs::exists(path()));
  setenv("OPTUNE_CACHE", "on", 1);
  EXPECT_NE(CacheFile::instance(), nullptr);
}

TEST_F(CacheFileTest, ConcurrentProcessesLoseNothing) {
  constexpr int kProcesses = 4, kRows = 200, kPrograms = 50;
  CacheFile::reset_instance();  // no open connection may cross fork()
  std::vector<pid_t> kids;
  for (int c = 0; c < kProcesses; ++c) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      try {
        CacheFile file(path());
        for (int i = 0; i < kRows; ++i) {
          file.put_tuning(record("opencl", "dev" + std::to_string(c), "copy", "b" + std::to_string(i)));
          if (i % (kRows / kPrograms) == 0)
            file.put_program("p" + std::to_string(c) + "-" + std::to_string(i), "dev",
                             random_bytes(1000 + i, unsigned(c * 1000 + i)));
        }
        if (file.tuning("", "dev" + std::to_string(c)).size() != kRows) code = 2;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "child %d: %s\n", c, e.what());
        code = 1;
      }
      _exit(code);
    }
    kids.push_back(pid);
  }
  for (const pid_t pid : kids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->tuning().size(), std::size_t(kProcesses * kRows));
  EXPECT_EQ(file->program_count(), std::size_t(kProcesses * kPrograms));
  EXPECT_EQ(file->get_program("p3-196"), random_bytes(1000 + 196, 3 * 1000 + 196));
  EXPECT_TRUE(damaged_files().empty());
}

TEST_F(CacheFileTest, ProcessesFindingOneDamagedFileSetItAsideOnce) {
  constexpr int kProcesses = 4;
  const auto garbage = random_bytes(8192, 4);
  std::ofstream(path(), std::ios::binary).write(reinterpret_cast<const char*>(garbage.data()), garbage.size());
  std::vector<pid_t> kids;
  for (int c = 0; c < kProcesses; ++c) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      try {
        CacheFile file(path());
        file.put_tuning(record("opencl", "dev", "copy", "b" + std::to_string(c)));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "child %d: %s\n", c, e.what());
        code = 1;
      }
      _exit(code);
    }
    kids.push_back(pid);
  }
  for (const pid_t pid : kids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  EXPECT_EQ(damaged_files().size(), 1u) << "a second mover would have moved the first one's new file";
  ASSERT_NE(CacheFile::instance(), nullptr);
  EXPECT_EQ(CacheFile::instance()->tuning().size(), std::size_t(kProcesses));
}

TEST_F(CacheFileTest, ConcurrentThreadsLoseNothing) {
  constexpr int kThreads = 4, kRows = 100;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kRows; ++i) {
        CacheFile* file = CacheFile::instance();
        const std::string id = std::to_string(t) + "-" + std::to_string(i);
        file->put_tuning(record("cuda", "dev", "reduce", id));
        file->put_program(id, "dev", random_bytes(64, unsigned(i)));
        file->put_verdict(id, i % 2 == 0);
        (void)file->tuning("cuda");
      }
    });
  }
  for (auto& t : threads) t.join();
  CacheFile* file = CacheFile::instance();
  EXPECT_EQ(file->tuning("cuda", "dev", "reduce").size(), std::size_t(kThreads * kRows));
  EXPECT_EQ(file->program_count(), std::size_t(kThreads * kRows));
  EXPECT_EQ(file->get_verdict("2-7"), std::optional<bool>(false));
}

}  // namespace
