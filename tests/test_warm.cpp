// optune warm: compiles what the database would choose into the cache file,
// so that a second process finds every program there and compiles nothing;
// a family it does not know is an error naming the ones it does.
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

using namespace optune;

namespace {

nlohmann::json warm(const std::string& cache, const std::string& only, int* code) {
  const std::string json = test::temp_dir() + "/warm-" + std::to_string(std::rand()) + ".json";
  std::string out;
  *code = test::run_cli("warm --quiet --only " + only + " --json " + json, &out, "OPTUNE_CACHE_DIR=" + cache);
  EXPECT_EQ(*code, 0) << out;
  std::ifstream in(json);
  return in ? nlohmann::json::parse(in) : nlohmann::json::object();
}

}  // namespace

TEST(Warm, SecondProcessCompilesNothing) {
  const std::string cache = test::temp_dir() + "/warm-cache";
  int code = 0;
  const nlohmann::json first = warm(cache, "softmax_cols", &code);
  ASSERT_EQ(code, 0);
  EXPECT_GT(first.value("variants", 0), 0);
  EXPECT_EQ(first.value("failed", 1), 0);
  // On CUDA with cubins embedded at build time the first process takes
  // them from the library instead of compiling; either way the second
  // process compiles nothing and finds every program the first one had.
  const int first_programs = first.value("compiled", 0) + first.value("embedded", 0);
  EXPECT_GT(first_programs, 0) << first.dump();
  const nlohmann::json second = warm(cache, "softmax_cols", &code);
  ASSERT_EQ(code, 0);
  EXPECT_EQ(second.value("compiled", 1), 0) << second.dump();
  EXPECT_EQ(second.value("loaded", 0) + second.value("embedded", 0), first_programs) << second.dump();
}

TEST(Warm, UnknownFamilyIsAnError) {
  std::string out;
  const int code = test::run_cli("warm --only softmax_colz", &out);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("no family 'softmax_colz'"), std::string::npos) << out;
  EXPECT_NE(out.find("softmax_cols"), std::string::npos) << out;
}
