// optune bench startup, run as a user would: the JSON's shape and the first
// call's program and trust counts (never its times: CPU timings are noise).
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

using namespace optune;

namespace {

void expect_phase(const nlohmann::json& p, const char* phase) {
  SCOPED_TRACE(phase);
  ASSERT_TRUE(p.is_object());
  ASSERT_FALSE(p.contains("error")) << p.dump();
  for (const char* key : {"case", "device_ms", "upload_ms", "first_call_ms", "second_call_ms", "process_ms"})
    EXPECT_TRUE(p.contains(key)) << key;
  for (const char* key : {"device_ms", "upload_ms", "first_call_ms", "second_call_ms", "process_ms"})
    EXPECT_GE(p.value(key, -1.0), 0.0) << key;
  for (const char* key : {"compiled", "from_cache_file", "from_embedded", "from_memory"})
    EXPECT_TRUE(p["programs"].contains(key)) << key;
  for (const char* key : {"checked", "from_cache_file"}) EXPECT_TRUE(p["trust_checks"].contains(key)) << key;
}

}  // namespace

// The cheapest case to warm (softmax: `optune warm --only norm_rows` builds
// the fewest programs); the ceilings as small as the options allow, since
// only the start-up rows are looked at.
TEST(BenchStartup, ColdCompilesAndWarmLoadsEverythingFromTheCacheFile) {
  const std::string path = test::temp_dir() + "/startup.json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench startup --only softmax --quiet --runs 1 --copy-mib 1 --json " + path, &out), 0) << out;
  EXPECT_EQ(out.find("first cold"), std::string::npos) << "--quiet prints no start-up table\n" << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  ASSERT_TRUE(j["operators"].contains("startup")) << j.dump(2);
  EXPECT_FALSE(j["operators"].contains("elementwise"));  // only the suite asked for
  const auto& s = j["operators"]["startup"];
  EXPECT_TRUE(s.contains("method"));
  EXPECT_TRUE(s["driver_caches"].is_array());
  ASSERT_EQ(s["rows"].size(), 1u) << s.dump(2);  // --only softmax
  const auto& row = s["rows"][0];
  EXPECT_EQ(row["id"], "softmax");
  EXPECT_NE(row["case"].get<std::string>().find("softmax"), std::string::npos);
  expect_phase(row["cold"], "cold");
  expect_phase(row["warm"], "warm");
  expect_phase(row["after_warm"], "after_warm");
  if (HasFatalFailure()) return;
  // Without embedded cubins for the device, no run without them.
  EXPECT_EQ(row.contains("cold_no_embedded"), s["embedded_cubins"].get<bool>()) << row.dump(2);
  // `optune warm --only norm_rows` ran once, then each case in a copy of its folders.
  EXPECT_EQ(s["warm_run"]["exit_code"], 0) << s["warm_run"].dump();
  EXPECT_EQ(s["warm_run"]["families"], nlohmann::json::array({"norm_rows"}));

  const auto &cp = row["cold"]["programs"], &wp = row["warm"]["programs"];
  const auto &ct = row["cold"]["trust_checks"], &wt = row["warm"]["trust_checks"];
  // Cold: an empty cache folder, so every program is compiled (or, on CUDA
  // with the embedded cubins, loaded from them).
  EXPECT_GE(cp["compiled"].get<int>() + cp["from_embedded"].get<int>(), 1);
  EXPECT_EQ(cp["from_cache_file"].get<int>(), 0);
  EXPECT_EQ(ct["from_cache_file"].get<int>(), 0);
  // Warm: nothing compiled, nothing checked; the programs come from the cache
  // file (fewer than were compiled when a trust check compiled the family's
  // defaults to compare with: its verdict is in the file now).
  EXPECT_EQ(wp["compiled"].get<int>(), 0);
  EXPECT_GE(wp["from_cache_file"].get<int>() + wp["from_embedded"].get<int>(), 1);
  EXPECT_LE(wp["from_cache_file"].get<int>(), cp["compiled"].get<int>());
  EXPECT_EQ(wt["checked"].get<int>(), 0);
  EXPECT_EQ(wt["from_cache_file"].get<int>(), ct["checked"].get<int>());
  // After `optune warm`: nothing compiled and nothing checked either.
  EXPECT_EQ(row["after_warm"]["programs"]["compiled"].get<int>(), 0);
  EXPECT_GE(row["after_warm"]["programs"]["from_cache_file"].get<int>() +
                row["after_warm"]["programs"]["from_embedded"].get<int>(),
            1);
  EXPECT_EQ(row["after_warm"]["trust_checks"]["checked"].get<int>(), 0);

  // The targets, judged on every device: the first call after warm for each
  // case, the cold SGEMM on CUDA only.
  ASSERT_TRUE(s["targets"].is_array());
  ASSERT_EQ(s["targets"].size(), 1u) << s["targets"].dump(2);
  const auto& t = s["targets"][0];
  EXPECT_EQ(t["phase"], "after_warm");
  EXPECT_EQ(t["limit_ms"].get<double>(), 10.0);
  EXPECT_EQ(t["met"].get<bool>(), t["ms"].get<double>() <= 10.0);
}

TEST(BenchStartup, UnknownChildCaseIsAnError) {
  std::string out;
  EXPECT_EQ(test::run_cli("bench-first-call --case nonsense --device " + test::device().spec(), &out), 2) << out;
  EXPECT_NE(out.find("nonsense"), std::string::npos) << out;
}
