// The tuning database: the fallback chain level by level, damaged shipped
// entries, the trust check and its cached verdict, JSON export/import, two
// processes writing at once, and the run-time policy OPTUNE_TUNING.
// A synthetic family (a tiny kernel; Q=3 computes wrongly, P=6 does not
// compile, P=5 with Q=0 is refused by check()) stands in for real ones.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "database/database.hpp"
#include "runtime/cache_file.hpp"
#include "kernels/families.hpp"
#include "support/synthetic_family.hpp"

namespace optune::test {
namespace {

using namespace optune::detail;

const SyntheticFamily fam(200);
const Capabilities& caps() { return queue().device().caps(); }
Problem small() { return fam.example(DType::F32, "small", caps()); }

// A shipped file: level "device" (for this device, or another driver or
// name), "architecture" or "vendor", with one synthetic entry.
std::string shipped(const std::string& level, const Params& p, const std::string& name = "",
                    const std::string& driver = "", const std::string& family = "synthetic",
                    const std::string& bucket = "small") {
  nlohmann::json device{{"backend", std::string(backend_name(caps().backend))}, {"vendor", caps().vendor}};
  if (level == "device") device["name"] = name.empty() ? caps().name : name, device["driver"] = driver;
  if (level != "vendor") device["architecture"] = caps().architecture;
  nlohmann::json params = nlohmann::json::parse(params_to_json(p));
  return nlohmann::json{{"format", 1}, {"level", level}, {"device", device},
                        {"entries", {{{"family", family}, {"dtype", "f32"}, {"bucket", bucket}, {"params", params},
                                      {"time_ns", 1000}, {"default_time_ns", 2000}}}}}
      .dump();
}

Params full(Params p) { return fam.complete(p, caps()); }

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = temp_dir() + "/" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    setenv("OPTUNE_CACHE_DIR", dir_.c_str(), 1);
    unsetenv("OPTUNE_CACHE");
    unsetenv("OPTUNE_TUNING");
    unsetenv("OPTUNE_TUNING_BUDGET_MS");
    CacheFile::reset_instance();
    Database::reset_instance();
    ASSERT_NE(CacheFile::instance(), nullptr);
  }
  void TearDown() override {
    unsetenv("OPTUNE_TUNING");
    CacheFile::reset_instance();
    Database::reset_instance();
  }
  Lookup look(Database& db, const Problem& pr = small()) {
    Lookup info;
    const Params p = db.lookup(queue(), fam, pr, &info);
    EXPECT_EQ(p, info.params);
    return info;
  }
  std::string dir_;
};

TEST_F(DatabaseTest, FallbackChainResolvesEachLevel) {
  Database db(false);
  Lookup l = look(db);
  EXPECT_EQ(l.level, Level::Generic);
  EXPECT_EQ(level_name(l.level), "default");
  EXPECT_EQ(l.params, fam.defaults(caps()));

  db.add_json(shipped("vendor", {{"P", 1}, {"Q", 2}}), "vendor.json");
  l = look(db);
  EXPECT_EQ(l.level, Level::Vendor);
  EXPECT_EQ(l.params, full({{"P", 1}, {"Q", 2}}));
  EXPECT_EQ(l.source, "vendor.json");

  db.add_json(shipped("device", {{"P", 2}, {"Q", 2}}, "a sibling of the same architecture"), "sibling.json");
  EXPECT_EQ(look(db).level, Level::Architecture);
  db.add_json(shipped("architecture", {{"P", 2}, {"Q", 1}}), "arch.json");
  l = look(db);
  EXPECT_EQ(l.level, Level::Architecture);
  EXPECT_EQ(l.source, "arch.json") << "explicit architecture entries come before siblings'";

  db.add_json(shipped("device", {{"P", 3}, {"Q", 2}}, "", "another driver"), "device.json");
  l = look(db);
  EXPECT_EQ(l.level, Level::Device);
  EXPECT_EQ(l.params, full({{"P", 3}, {"Q", 2}}));

  TuneResult r;
  r.family = "synthetic", r.bucket = "small", r.best = full({{"P", 4}, {"Q", 2}});
  r.best_seconds = 1e-6, r.default_seconds = 2e-6;
  ASSERT_TRUE(save_result(caps(), r));
  db.forget();
  l = look(db);
  EXPECT_EQ(l.level, Level::Local);
  EXPECT_EQ(l.params, r.best);
  EXPECT_EQ(l.source, "cache file");

  // Another backend's or vendor's entries never match.
  DbEntry other;
  other.backend = caps().backend == Backend::CUDA ? "opencl" : "cuda";
  other.vendor = caps().vendor;
  EXPECT_FALSE(match_level(other, caps()));
  other.backend = std::string(backend_name(caps().backend));
  other.vendor = "Some Other Vendor";
  EXPECT_FALSE(match_level(other, caps()));
}

TEST_F(DatabaseTest, DamagedShippedEntriesAreSkipped) {
  Database db(false);
  EXPECT_EQ(db.add_json("{ this is not json", "broken.json"), 0u);
  EXPECT_EQ(db.add_json(R"({"level": "planet", "device": {"backend": "opencl"}, "entries": []})", "odd.json"), 0u);
  nlohmann::json j = nlohmann::json::parse(shipped("vendor", {{"P", 1}, {"Q", 2}}));
  j["entries"].push_back({{"family", "synthetic"}, {"dtype", "f32"}, {"bucket", "small"}, {"params", {{"P", "one"}}}});
  j["entries"].push_back({{"family", "synthetic"}, {"dtype", "f99"}, {"bucket", "small"}, {"params", {{"P", 1}}}});
  j["entries"].push_back({{"family", "synthetic"}, {"params", {{"P", 1}}}});
  EXPECT_EQ(db.add_json(j.dump(), "partly.json"), 1u);
  EXPECT_THROW(parse_database_json(j.dump(), "partly.json", true), Error);

  // Parameters the family refuses or does not know: set aside at lookup.
  Database db2(false);
  db2.add_json(shipped("device", {{"P", 5}, {"Q", 0}}), "refused.json");
  db2.add_json(shipped("architecture", {{"P", 1}, {"ZZZ", 3}}), "unknown.json");
  db2.add_json(shipped("vendor", {{"P", 9}}), "not-a-candidate.json");
  EXPECT_EQ(look(db2).level, Level::Generic);
}

TEST_F(DatabaseTest, TrustCheckSetsAsideWrongEntriesAndCachesTheVerdict) {
  const Params wrong = full({{"P", 4}, {"Q", 3}});
  const std::string key = verdict_key(caps(), "synthetic", "f32", "small", wrong);
  {
    Database db(false);
    db.add_json(shipped("device", wrong), "wrong.json");
    db.add_json(shipped("vendor", {{"P", 2}, {"Q", 2}}), "vendor.json");
    const Lookup l = look(db);
    EXPECT_EQ(l.level, Level::Vendor);
    EXPECT_EQ(l.params, full({{"P", 2}, {"Q", 2}}));
  }
  ASSERT_TRUE(CacheFile::instance()->get_verdict(key).has_value());
  EXPECT_FALSE(*CacheFile::instance()->get_verdict(key));
  EXPECT_TRUE(*CacheFile::instance()->get_verdict(verdict_key(caps(), "synthetic", "f32", "small",
                                                                full({{"P", 2}, {"Q", 2}}))));
  // The cached verdict decides from now on, without running the check: a
  // (forged) passing verdict lets the entry through.
  CacheFile::instance()->put_verdict(key, true);
  Database db(false);
  db.add_json(shipped("device", wrong), "wrong.json");
  EXPECT_EQ(look(db).level, Level::Device);
}

TEST_F(DatabaseTest, EntriesThatDoNotFitTheCallArePassedOver) {
  Database db(false);
  db.add_json(shipped("device", {{"P", 3}, {"Q", 2}, {"WGS", 64}}), "device.json");
  EXPECT_EQ(look(db).level, Level::Device);
  // Same bucket, but a problem whose extra makes the check fail for WGS=64.
  struct Narrow : SyntheticFamily {
    Narrow() : SyntheticFamily(200) {}
    std::string check(const Params& p, const Capabilities& c, const SyntheticProblem& pr) const override {
      if (pr.max_wgs && p.at("WGS") > pr.max_wgs) return "WGS too large for this call";
      return SyntheticFamily::check(p, c, pr);
    }
  } narrow;
  SyntheticProblem sp = small().as<SyntheticProblem>();
  sp.max_wgs = 32;
  const Problem pr(sp);
  Lookup info;
  db.lookup(queue(), narrow, pr, &info);
  EXPECT_EQ(info.level, Level::Generic);
}

// A refined bucket (GEMM's transpose pair: "small/nt" within "small") serves
// its own problems before the coarse bucket's entry at the same level, the
// coarse entry serves the pairs that have none, and a better level wins over
// a finer bucket. Each entry passes its trust check on a small product of its
// own pair.
TEST_F(DatabaseTest, RefinedBucketsComeBeforeTheirSizeBucket) {
  Database db(false);
  const auto& tiled = families::gemm_tiled();
  const auto problem = [&](const std::string& b) { return tiled.example(DType::F32, b, caps()); };
  const auto lookup = [&](const std::string& b) {
    Lookup info;
    db.lookup(queue(), tiled, problem(b), &info);
    return info;
  };
  ASSERT_EQ(tiled.bucket_chain(problem("small/nt")), (std::vector<std::string>{"small/nt", "small"}));
  db.add_json(shipped("architecture", {{"KCONTIG_B", 0}}, "", "", "gemm_tiled"), "small.json");
  db.add_json(shipped("architecture", {{"KCONTIG_A", 0}}, "", "", "gemm_tiled", "small/nt"), "small-nt.json");
  Lookup l = lookup("small");
  EXPECT_EQ(l.source, "small.json");
  EXPECT_EQ(l.params.at("KCONTIG_B"), 0);
  l = lookup("small/nt");
  EXPECT_EQ(l.source, "small-nt.json");
  EXPECT_EQ(l.params.at("KCONTIG_A"), 0);
  EXPECT_EQ(l.params.at("KCONTIG_B"), 1);
  EXPECT_EQ(lookup("small/tt").source, "small.json") << "a pair without entries takes its size bucket's";
  db.add_json(shipped("device", {{"KSEG", 8}}, "", "", "gemm_tiled"), "device-small.json");
  EXPECT_EQ(lookup("small/nt").source, "device-small.json") << "the level decides before the bucket";
  // The NT entry's verdict was reached on a small NT product.
  EXPECT_EQ(tiled.trust_bucket("large/nt"), "small/nt");
  EXPECT_EQ(tiled.trust_bucket("large"), "small");
}

// An entry of a coarser bucket that cannot run a refinement's example is
// passed over quietly (refinements exist because one entry does not suit
// them all); one of the problem's own bucket that cannot is a fault of its
// file and says so. gemm_thin: AV 4 with MT 2 reads A's packs along K where
// A is stored M x K ("m<=16/nk") but along M where it is stored K x M
// ("m<=16/nk/km"), where 4 does not divide 2.
TEST_F(DatabaseTest, CoarseEntriesThatDoNotFitARefinementAreQuiet) {
  const auto& thin = families::gemm_thin();
  const Params p{{"AV", 4}, {"MT", 2}, {"VW", 4}};
  const auto km = thin.example(DType::F32, "m<=16/nk/km", caps());
  ASSERT_EQ(static_cast<const KernelFamily&>(thin).bucket_chain(km),
            (std::vector<std::string>{"m<=16/nk/km", "m<=16/nk"}));
  ASSERT_EQ(entry_unusable(thin, p, caps(), thin.example(DType::F32, "m<=16/nk", caps())), "");
  ASSERT_NE(entry_unusable(thin, p, caps(), km), "");
  const auto warnings = [&](const std::string& bucket) {
    Database db(false);
    db.add_json(shipped("architecture", p, "", "", "gemm_thin", bucket), bucket + ".json");
    ::testing::internal::CaptureStderr();
    db.lookup(queue(), thin, km);
    return ::testing::internal::GetCapturedStderr();
  };
  EXPECT_EQ(warnings("m<=16/nk").find("is not usable here"), std::string::npos);
  EXPECT_NE(warnings("m<=16/nk/km").find("is not usable here (AV does not divide MT"), std::string::npos);
}

TEST_F(DatabaseTest, ExportImportRoundTrip) {
  const KernelFamily& copy = families::copy();
  std::vector<DbEntry> entries;
  for (const char* bucket : {"n<=2^16", "n<=2^20"}) {
    DbEntry e;
    e.family = "copy", e.dtype = "f32", e.bucket = bucket;
    e.params = copy.complete({{"VW", 2}, {"WGS", 128}}, caps());
    e.time_ns = 1234.5, e.default_time_ns = 2345.5;
    entries.push_back(e);
  }
  const std::string text = database_json(caps(), entries, R"({"date": "today"})");
  const auto parsed = parse_database_json(text, "export.json", true);
  ASSERT_EQ(parsed.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(parsed[i].family, "copy");
    EXPECT_EQ(parsed[i].bucket, entries[i].bucket);
    EXPECT_EQ(parsed[i].params, entries[i].params);
    EXPECT_DOUBLE_EQ(parsed[i].time_ns, 1234.5);
    EXPECT_EQ(parsed[i].identity, caps().identity());
  }
  EXPECT_EQ(import_entries(parsed, caps()), 2u);
  const auto local = Database(false).candidates(caps(), "copy");
  ASSERT_EQ(local.size(), 2u);
  EXPECT_EQ(local[0].level, Level::Local);
  EXPECT_EQ(local[0].entry.params, entries[0].params);
  // Exported again, the same text comes back.
  std::vector<DbEntry> again;
  for (const Candidate& c : local) again.push_back(c.entry);
  EXPECT_EQ(database_json(caps(), again, R"({"date": "today"})"), text);

  // A bad entry rejects the whole file and writes nothing.
  auto bad = parsed;
  bad[1].params["VW"] = 3;
  CacheFile::instance()->clear_tuning();
  EXPECT_THROW(import_entries(bad, caps()), Error);
  bad = parsed;
  bad[0].family = "no-such-family";
  EXPECT_THROW(import_entries(bad, caps()), Error);
  EXPECT_TRUE(CacheFile::instance()->tuning().empty());
}

TEST_F(DatabaseTest, CommandLineExportAndImport) {
  const std::string env = "OPTUNE_CACHE_DIR=" + dir_;
  const std::string bad = dir_ + "/bad.json", out = dir_ + "/out.json";
  std::ofstream(bad) << R"({"device": {"backend": "opencl", "vendor": "x", "name": "y"}, "entries": [{"family": 3}]})";
  std::string text;
  EXPECT_EQ(run_cli("db import " + bad, &text, env), 2) << text;
  EXPECT_NE(text.find("entries[0]"), std::string::npos) << text;

  std::ofstream(dir_ + "/good.json") << database_json(
      caps(), {DbEntry{.family = "copy", .dtype = "f32", .bucket = "n<=2^16", .params = {{"WGS", 128}}}});
  EXPECT_EQ(run_cli("db import " + dir_ + "/good.json", &text, env), 0) << text;
  EXPECT_EQ(run_cli("db export " + out, &text, env), 0) << text;
  std::ifstream in(out);
  const std::string exported((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto entries = parse_database_json(exported, out, true);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].params.at("WGS"), 128);
  EXPECT_EQ(run_cli("db show --family copy", &text, env), 0) << text;
  EXPECT_NE(text.find("local"), std::string::npos) << text;
}

TEST_F(DatabaseTest, ConcurrentWritersLoseNothing) {
  constexpr int kPerProcess = 40;
  // Children must not inherit an open SQLite connection: close it first.
  CacheFile::reset_instance();
  std::vector<pid_t> kids;
  for (int c = 0; c < 2; ++c) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // The child touches no OpenCL object: only the cache file.
      Capabilities fake = caps();
      bool ok = true;
      for (int i = 0; i < kPerProcess; ++i) {
        TuneResult r;
        r.family = "synthetic", r.bucket = "p" + std::to_string(c) + "-" + std::to_string(i);
        r.best = {{"P", i % 5}}, r.best_seconds = 1e-6, r.default_seconds = 1e-6;
        ok &= save_result(fake, r);
      }
      _exit(ok ? 0 : 1);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  CacheFile::reset_instance();
  EXPECT_EQ(CacheFile::instance()->tuning("", caps().identity(), "synthetic").size(), 2u * kPerProcess);
}

TEST_F(DatabaseTest, FastPolicyStoresAResultUsedAtTheLocalLevel) {
  setenv("OPTUNE_TUNING", "fast", 1);
  setenv("OPTUNE_TUNING_BUDGET_MS", "5000", 1);
  Database db(false);
  Lookup l = look(db);
  EXPECT_EQ(l.level, Level::Local);
  EXPECT_NE(l.source.find("OPTUNE_TUNING=fast"), std::string::npos) << l.source;
  EXPECT_EQ(l.params.at("P"), 0) << "fast searches work-group sizes only";
  EXPECT_EQ(l.params.at("Q"), 0);
  const auto stored = CacheFile::instance()->tuning("", caps().identity(), "synthetic");
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].bucket, "small");

  EXPECT_EQ(look(db).level, Level::Local);  // memoised in this process
  Database next(false);                     // as a later process would
  const Lookup l2 = look(next);
  EXPECT_EQ(l2.level, Level::Local);
  EXPECT_EQ(l2.source, "cache file");
  EXPECT_EQ(l2.params, l.params);
}

TEST_F(DatabaseTest, PolicyOffSearchesNothing) {
  Database db(false);
  EXPECT_EQ(look(db).level, Level::Generic);
  EXPECT_TRUE(CacheFile::instance()->tuning().empty());
}

TEST_F(DatabaseTest, ConcurrentLookupsAgree) {
  Database db(false);
  db.add_json(shipped("vendor", {{"P", 1}, {"Q", 2}}), "vendor.json");
  std::vector<std::thread> threads;
  std::vector<Params> got(4);
  for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { got[t] = db.lookup(queue(), fam, small()); });
  for (auto& t : threads) t.join();
  for (const Params& p : got) EXPECT_EQ(p, full({{"P", 1}, {"Q", 2}}));
}

}  // namespace
}  // namespace optune::test
