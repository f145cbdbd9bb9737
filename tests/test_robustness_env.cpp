// Environment variables are parsed strictly (issue 23, items 6 and 11): a
// number must be whole, finite and within its range; a choice must be one of
// its words in any case. Anything else gets one warning naming the variable,
// the value and what is accepted, and the default is used.
#include <cstdlib>

#include "database/database.hpp"
#include "runtime/cache_file.hpp"
#include "runtime/env.hpp"
#include "runtime/log.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;

namespace {

// Sets a variable for one scope and restores it afterwards.
class Env {
 public:
  Env(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~Env() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(EnvNumber, RefusesWhatIsNotAFiniteNumberInRange) {
  // Each unique name, so that each value's one warning is its first.
  int i = 0;
  for (const char* bad : {"inf", "1e400", "99999999999999999999", "-5", "abc", "12abc", "nan", " 7", "0x", "0"}) {
    const std::string name = "OPTUNE_TEST_NUMBER_" + std::to_string(i++);
    Env e(name.c_str(), bad);
    testing::internal::CaptureStderr();
    EXPECT_EQ(env_number(name.c_str(), 200, 1, 3600e3), 200) << bad;
    EXPECT_EQ(env_number(name.c_str(), 200, 1, 3600e3), 200) << bad;
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(count(err, "optune[warn]"), 1u) << bad << ": " << err;
    EXPECT_NE(err.find(name + "='" + bad + "'"), std::string::npos) << err;
    EXPECT_NE(err.find("from 1 to 3600000; using 200"), std::string::npos) << err;
  }
}

TEST(EnvNumber, AcceptsNumbersInRange) {
  Env e("OPTUNE_TEST_NUMBER_OK", "250.5");
  testing::internal::CaptureStderr();
  EXPECT_EQ(env_number("OPTUNE_TEST_NUMBER_OK", 200, 1, 3600e3), 250.5);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  unsetenv("OPTUNE_TEST_NUMBER_OK");
  EXPECT_EQ(env_number("OPTUNE_TEST_NUMBER_OK", 200, 1, 3600e3), 200);
}

TEST(EnvChoice, AnyCaseAndOneWarningForAnUnknownWord) {
  Env e("OPTUNE_TEST_CHOICE", "FaSt");
  EXPECT_EQ(env_choice("OPTUNE_TEST_CHOICE", {"off", "fast", "full"}, "off"), "fast");
  setenv("OPTUNE_TEST_CHOICE", "fastest", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(env_choice("OPTUNE_TEST_CHOICE", {"off", "fast", "full"}, "off"), "off");
  EXPECT_EQ(env_choice("OPTUNE_TEST_CHOICE", {"off", "fast", "full"}, "off"), "off");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(err, "optune[warn]"), 1u) << err;
  EXPECT_NE(err.find("OPTUNE_TEST_CHOICE='fastest' is not one of off, fast, full; using off"), std::string::npos)
      << err;
}

TEST(EnvCache, OffInCapitalsDisablesTheCache) {
  Env dir("OPTUNE_CACHE_DIR", (test::temp_dir() + "/env-cache").c_str());
  for (const char* off : {"OFF", "Off", "off", "0"}) {
    Env e("OPTUNE_CACHE", off);
    CacheFile::reset_instance();
    EXPECT_FALSE(cache_enabled()) << off;
    EXPECT_EQ(CacheFile::instance(), nullptr) << off;
  }
  Env e("OPTUNE_CACHE", "ON");
  CacheFile::reset_instance();
  EXPECT_NE(CacheFile::instance(), nullptr);
  CacheFile::reset_instance();
}

TEST(EnvCache, UnknownValueWarnsOnceAndKeepsTheCacheOn) {
  Env dir("OPTUNE_CACHE_DIR", (test::temp_dir() + "/env-cache-unknown").c_str());
  Env e("OPTUNE_CACHE", "of");
  CacheFile::reset_instance();
  testing::internal::CaptureStderr();
  EXPECT_NE(CacheFile::instance(), nullptr);
  EXPECT_NE(CacheFile::instance(), nullptr);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(err, "OPTUNE_CACHE='of' is not one of on, off, 1, 0; using on"), 1u) << err;
  CacheFile::reset_instance();
}

TEST(EnvLog, UnknownLevelWarnsOnceNamingTheLevels) {
  Env e("OPTUNE_LOG", "verbose");
  testing::internal::CaptureStderr();
  EXPECT_EQ(log_level(), LogLevel::Warn);
  EXPECT_EQ(log_level(), LogLevel::Warn);
  log_info("not shown");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(err, "optune[warn]"), 1u) << err;
  EXPECT_NE(err.find("OPTUNE_LOG='verbose' is not one of warn, info, debug, off"), std::string::npos) << err;
}

TEST(EnvLog, LevelsInAnyCase) {
  Env e("OPTUNE_LOG", "DEBUG");
  EXPECT_EQ(log_level(), LogLevel::Debug);
  setenv("OPTUNE_LOG", "Off", 1);
  EXPECT_EQ(log_level(), LogLevel::Off);
}

TEST(EnvTuning, UnknownPolicyWarnsOnceAndIsOff) {
  Env e("OPTUNE_TUNING", "fulll");
  testing::internal::CaptureStderr();
  EXPECT_EQ(tuning_policy(), "off");
  EXPECT_EQ(tuning_policy(), "off");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(err, "OPTUNE_TUNING='fulll' is not one of off, fast, full"), 1u) << err;
  setenv("OPTUNE_TUNING", "FAST", 1);
  EXPECT_EQ(tuning_policy(), "fast");
}

TEST(EnvWarnOnce, SaysEachKeyOnce) {
  testing::internal::CaptureStderr();
  warn_once("test-key-a", "first a");
  warn_once("test-key-a", "second a");
  warn_once("test-key-b", "first b");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(err, "first a"), 1u) << err;
  EXPECT_EQ(count(err, "second a"), 0u) << err;
  EXPECT_EQ(count(err, "first b"), 1u) << err;
}
