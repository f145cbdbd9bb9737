// `optune db import` refuses hostile files cleanly and imports all or
// nothing (issue 23, item 7).
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "database/database.hpp"
#include "database/format.hpp"
#include "runtime/cache_file.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;
namespace fs = std::filesystem;

namespace {

class DbImport : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::temp_dir() + "/db-import-" + std::to_string(getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    env_ = "OPTUNE_CACHE_DIR=" + dir_ + "/cache";
  }
  int import(const std::string& file, std::string* out) { return test::run_cli("db import " + file, out, env_); }
  // Rows in the tuning table of the cache file the tool used.
  int rows() {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open((dir_ + "/cache/optune.sqlite").c_str(), &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    int n = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM tuning", -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
      n = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
  }
  void sql(const std::string& statement) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/cache/optune.sqlite").c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
  }
  std::string dir_, env_;
};

}  // namespace

TEST_F(DbImport, DeeplyNestedDocumentIsRefusedWithoutCrashing) {
  const std::string file = dir_ + "/deep.json";
  {
    std::ofstream f(file);
    f << "{\"entries\": ";
    f << std::string(100000, '[') << std::string(100000, ']') << "}";
  }
  std::string out;
  EXPECT_EQ(import(file, &out), 2) << out;
  EXPECT_NE(out.find("nested deeper than 64 levels"), std::string::npos) << out;
  // And through the library's parser, strict or lenient.
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THROW(parse_database_json(text, "deep.json", true), Error);
  testing::internal::CaptureStderr();
  EXPECT_TRUE(parse_database_json(text, "deep.json", false).empty());
  testing::internal::GetCapturedStderr();
}

TEST_F(DbImport, BracketsInsideStringsDoNotCount) {
  const std::string text = R"({"device": {"backend": "opencl", "vendor": ")" + std::string(200, '[') +
                           R"(", "name": "y"}, "entries": []})";
  EXPECT_NO_THROW(parse_database_json(text, "strings.json", true));
}

TEST_F(DbImport, DirectoryIsNamedAsOne) {
  std::string out;
  EXPECT_EQ(import(dir_, &out), 2) << out;
  EXPECT_NE(out.find("is a directory"), std::string::npos) << out;
}

TEST_F(DbImport, FailingWriteLeavesNothingOfTheImport) {
  const Capabilities& caps = test::device().caps();
  std::vector<DbEntry> entries;
  for (const char* bucket : {"n<=2^16", "n<=2^20", "boom"})
    entries.push_back(DbEntry{.family = "copy", .dtype = "f32", .bucket = bucket, .params = {{"WGS", 128}}});
  const std::string file = dir_ + "/three.json";
  std::ofstream(file) << database_json(caps, entries);
  std::string out;
  // Make the cache file, then have it refuse the third row partway through
  // the import, as a SIGKILL or a full disk would stop it.
  ASSERT_EQ(test::run_cli("db show", &out, env_), 0) << out;
  sql("CREATE TRIGGER boom BEFORE INSERT ON tuning WHEN NEW.bucket = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END");
  EXPECT_NE(import(file, &out), 0) << out;
  EXPECT_NE(out.find("none was stored"), std::string::npos) << out;
  EXPECT_EQ(rows(), 0) << "an import is one transaction";
  sql("DROP TRIGGER boom");
  EXPECT_EQ(import(file, &out), 0) << out;
  EXPECT_EQ(rows(), 3);
}
