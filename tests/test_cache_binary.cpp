// Cached program binaries are stored with their length and a checksum and
// checked before any driver sees them (issue 23, item 4): a truncated,
// altered or old-format blob is dropped with a warning and recompiled.
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>

#include "runtime/cache_file.hpp"
#include "runtime/program.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;
namespace fs = std::filesystem;

namespace {

const char* kTiny = R"(
__kernel void tiny(__global float* y, const float a) { y[get_global_id(0)] = a * 3.0f; }
)";

class CacheBinary : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::temp_dir() + "/cache-binary-" + std::to_string(getpid());
    fs::remove_all(dir_);
    setenv("OPTUNE_CACHE_DIR", dir_.c_str(), 1);
    CacheFile::reset_instance();
  }
  void TearDown() override {
    CacheFile::reset_instance();
    fs::remove_all(dir_);
  }
  // Runs one SQL statement on the cache file through a connection of its own.
  void sql(const std::string& statement) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/optune.sqlite").c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 10000);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &err);
    EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "") << " in " << statement;
    sqlite3_free(err);
    sqlite3_close(db);
  }
  // Runs this binary as a child building kTiny; returns its output, and
  // whether it exited cleanly in *ok.
  std::string child(bool* ok) {
    std::string out;
    *ok = test::run_self("CacheBinaryChild.Build", &out,
                         "OPTUNE_CACHE_DIR=" + dir_ + " OPTUNE_TEST_CACHE_BINARY_CHILD=1 OPTUNE_LOG=debug") == 0;
    return out;
  }
  std::string dir_;
};

}  // namespace

TEST(CacheBinaryChild, Build) {
  if (!std::getenv("OPTUNE_TEST_CACHE_BINARY_CHILD")) GTEST_SKIP() << "runs only as a child of CacheBinary tests";
  ProgramStats stats;
  ProgramPtr p = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {}, &stats);
  ASSERT_TRUE(p->kernel("tiny"));
  std::printf("CHILD-RESULT %s\n", stats.from_disk ? "disk" : "compiled");
}

TEST_F(CacheBinary, RoundTripsAnyPayload) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  const std::vector<std::uint8_t> bytes = {0, 'O', 'P', 'T', 'B', 255, 1};
  file->put_program("k", "dev", bytes);
  EXPECT_EQ(file->get_program("k"), bytes);
  file->put_program("empty", "dev", {});
  EXPECT_EQ(file->get_program("empty"), std::vector<std::uint8_t>{});
}

TEST_F(CacheBinary, TruncatedBlobIsDroppedWithAWarning) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  file->put_program("k", "dev", std::vector<std::uint8_t>(1000, 7));
  sql("UPDATE programs SET binary = substr(binary, 1, length(binary) - 10) WHERE key = 'k'");
  testing::internal::CaptureStderr();
  EXPECT_EQ(file->get_program("k"), std::nullopt);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("program k is damaged"), std::string::npos) << err;
  EXPECT_EQ(file->program_count(), 0u) << "the damaged row is removed";
}

TEST_F(CacheBinary, AlteredByteFailsTheChecksum) {
  CacheFile* file = CacheFile::instance();
  ASSERT_NE(file, nullptr);
  file->put_program("k", "dev", std::vector<std::uint8_t>(64, 7));
  // Same length, one payload byte changed.
  sql("UPDATE programs SET binary = substr(binary, 1, 40) || x'08' || substr(binary, 42) WHERE key = 'k'");
  testing::internal::CaptureStderr();
  EXPECT_EQ(file->get_program("k"), std::nullopt);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("checksum"), std::string::npos) << err;
}

TEST_F(CacheBinary, OldFormatRowIsTreatedAsDamaged) {
  ASSERT_NE(CacheFile::instance(), nullptr);
  sql("INSERT INTO programs(key, device, binary, created) VALUES('old', 'dev', x'7f454c4602010100', 0)");
  testing::internal::CaptureStderr();
  EXPECT_EQ(CacheFile::instance()->get_program("old"), std::nullopt);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("older optune"), std::string::npos) << err;
}

// The reported failure: after a truncated binary lands in the file, every
// later process crashed in the driver (PoCL asserts in
// pocl_binary_deserialize). Now the next process recompiles and goes on.
TEST_F(CacheBinary, TruncatedDriverBinaryIsRecompiledByTheNextProcess) {
  bool ok = false;
  std::string out = child(&ok);
  ASSERT_TRUE(ok) << out;
  ASSERT_NE(out.find("CHILD-RESULT compiled"), std::string::npos) << out;
  sql("UPDATE programs SET binary = substr(binary, 1, length(binary) / 2)");
  out = child(&ok);
  ASSERT_TRUE(ok) << out;
  EXPECT_NE(out.find("CHILD-RESULT compiled"), std::string::npos) << out;
  EXPECT_NE(out.find("is damaged"), std::string::npos) << out;
  out = child(&ok);
  ASSERT_TRUE(ok) << out;
  EXPECT_NE(out.find("CHILD-RESULT disk"), std::string::npos) << out;
}
