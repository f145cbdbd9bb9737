// The optune tool's command line, run as a user would: an unknown command or
// option is named with the closest valid spelling, --only that selects
// nothing is refused in every suite (before anything is measured), the
// suite-specific flags say their suite (the old spellings still work), and
// bench rows whose working set fits in the device's cache are marked; --blas-mib
// sizes the blas suite's level 1 and 2.
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.hpp"

using namespace optune;

namespace {

bool has(const std::string& out, const std::string& what) { return out.find(what) != std::string::npos; }

}  // namespace

TEST(CliUsage, UnknownCommandIsNamedWithTheClosest) {
  std::string out;
  EXPECT_NE(test::run_cli("bnech", &out), 0) << out;
  EXPECT_TRUE(has(out, "unknown command 'bnech'; did you mean 'bench'?")) << out;
  EXPECT_NE(test::run_cli("db shwo", &out), 0) << out;
  EXPECT_TRUE(has(out, "unknown command 'shwo' for 'optune db'; did you mean 'show'?")) << out;
  // Nothing close: named, no guess; the hidden child command is never offered.
  EXPECT_NE(test::run_cli("frobnicate", &out), 0) << out;
  EXPECT_TRUE(has(out, "unknown command 'frobnicate'")) << out;
  EXPECT_FALSE(has(out, "did you mean")) << out;
  EXPECT_NE(test::run_cli("bench-first-cal", &out), 0) << out;
  EXPECT_FALSE(has(out, "bench-first-call")) << out;
}

TEST(CliUsage, UnknownOptionIsNamedWithTheClosest) {
  std::string out;
  EXPECT_NE(test::run_cli("bench --onyl gelu", &out), 0) << out;
  EXPECT_TRUE(has(out, "unknown option '--onyl' for 'optune bench'; did you mean '--only'?")) << out;
  EXPECT_NE(test::run_cli("bench gemm --gemm-sise 64", &out), 0) << out;
  EXPECT_TRUE(has(out, "did you mean '--gemm-sizes'?")) << out;
  EXPECT_NE(test::run_cli("info --jsn", &out), 0) << out;
  EXPECT_TRUE(has(out, "unknown option '--jsn' for 'optune info'; did you mean '--json'?")) << out;
  EXPECT_NE(test::run_cli("tune copy --strategy random --sed 3", &out), 0) << out;
  EXPECT_TRUE(has(out, "unknown option '--sed' for 'optune tune'; did you mean '--seed'?")) << out;
  EXPECT_NE(test::run_cli("db clear --everything", &out), 0) << out;
  EXPECT_TRUE(has(out, "unknown option '--everything' for 'optune db clear'")) << out;
}

// Every suite refuses --only that matches none of its cases, and lists them.
TEST(CliUsage, OnlyThatMatchesNothingIsAnError) {
  const struct {
    const char* suite;
    const char* a_case;
  } suites[] = {{"elementwise", "relu f32"}, {"reduce", "row-sum"}, {"gemm", "square f32 NN"},
                {"startup", "sgemm 256x256x256"}, {"all", "layer_norm"}};
  for (const auto& s : suites) {
    SCOPED_TRACE(s.suite);
    std::string out;
    EXPECT_EQ(test::run_cli(std::string("bench ") + s.suite + " --only nosuchcase", &out), 2) << out;
    EXPECT_TRUE(has(out, "--only 'nosuchcase' matches no case")) << out;
    EXPECT_TRUE(has(out, s.a_case)) << out;
    EXPECT_FALSE(has(out, "copy ceiling")) << out;  // refused before measuring
  }
  std::string out;
  // A case of another suite than the one asked for selects nothing there.
  EXPECT_EQ(test::run_cli("bench reduce --only gelu", &out), 2) << out;
  EXPECT_TRUE(has(out, "'gelu'")) << out;
  // One word of several that matches nothing is enough to refuse.
  EXPECT_EQ(test::run_cli("bench elementwise --only relu,nosuch", &out), 2) << out;
  EXPECT_TRUE(has(out, "'nosuch'")) << out;
  EXPECT_FALSE(has(out, "'relu'")) << out;
  EXPECT_EQ(test::run_cli("bench ceilings --only relu", &out), 2) << out;
  EXPECT_TRUE(has(out, "the ceilings have no cases")) << out;
}

// Flags of one suite name it; the old spellings stay accepted but hidden.
TEST(CliUsage, SuiteFlagsNameTheirSuite) {
  std::string out;
  ASSERT_EQ(test::run_cli("bench --help", &out), 0) << out;
  for (const char* flag : {"--gemm-quick", "--gemm-sizes", "--gemm-cases", "--gemm-types", "--elementwise-max-log2",
                           "--elementwise-min-log2"})
    EXPECT_TRUE(has(out, flag)) << flag << "\n" << out;
  for (const char* old : {" --quick", " --max-log2", " --min-log2"}) EXPECT_FALSE(has(out, old)) << old << "\n" << out;
  // --gemm-quick and the old --quick select the same cases (the --only error
  // lists what is selected: quick runs no transposes).
  for (const char* quick : {"--gemm-quick", "--quick"}) {
    SCOPED_TRACE(quick);
    EXPECT_EQ(test::run_cli(std::string("bench gemm ") + quick + " --only nosuch", &out), 2) << out;
    EXPECT_TRUE(has(out, "batched f32")) << out;
    EXPECT_FALSE(has(out, "transpose")) << out;
  }
  for (const char* opt : {"--max-log2 12", "--elementwise-max-log2 12", "--min-log2 10", "--elementwise-min-log2 10"}) {
    EXPECT_EQ(test::run_cli(std::string("bench elementwise --only nosuch ") + opt, &out), 2) << out;
    EXPECT_TRUE(has(out, "matches no case")) << opt << "\n" << out;
  }
}

// Rows served from the device's cache are marked and explained: they may run
// above the copy ceiling, which is measured on buffers larger than the cache.
TEST(CliUsage, RowsThatFitInTheCacheAreMarked) {
  const std::string path = test::temp_dir() + "/bench-cache.json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench elementwise reduce --runs 1 --copy-mib 4 --elementwise-max-log2 12 "
                          "--only relu,row-mean --json " + path, &out),
            0)
      << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  const std::uint64_t cache = j["ceilings"]["cache_bytes"].get<std::uint64_t>();
  if (cache == 0) GTEST_SKIP() << "the device reports no cache size";
  EXPECT_TRUE(has(out, "device cache")) << out;
  EXPECT_TRUE(has(out, "* working set fits in the device's")) << out;
  for (const char* suite : {"elementwise", "reduce"}) {
    const auto& rows = j["operators"][suite];
    ASSERT_FALSE(rows.empty()) << suite;
    for (const auto& r : rows) {
      SCOPED_TRACE(r.dump());
      EXPECT_EQ(r["fits_in_cache"].get<bool>(), r["working_set_bytes"].get<double>() <= double(cache));
    }
  }
  // relu at 2^10 f32 over its 4 slices: 32 KiB, in every cache there is.
  EXPECT_TRUE(j["operators"]["elementwise"][0]["fits_in_cache"].get<bool>());
}

// --blas-mib sizes level 1's vectors and level 2's matrices, within 1 MiB to
// 64 GiB (0 is refused before anything runs).
TEST(CliUsage, BlasMibSizesLevelOneAndTwo) {
  std::string out;
  EXPECT_NE(test::run_cli("bench blas --blas-mib 0 --only gemv-f32", &out), 0) << out;
  EXPECT_TRUE(has(out, "--blas-mib")) << out;
  EXPECT_FALSE(has(out, "copy ceiling")) << out;
  const std::string path = test::temp_dir() + "/bench-blas-mib.json";
  ASSERT_EQ(test::run_cli("bench blas --blas-mib 1 --runs 1 --copy-mib 4 --no-reference --only gemv-f32,axpy-f32 "
                          "--json " + path, &out),
            0)
      << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  const auto& b = j["operators"]["blas"];
  EXPECT_EQ(b["vector_bytes"].get<std::uint64_t>(), 1u << 20);
  EXPECT_EQ(b["level2"]["matrix_bytes"].get<std::uint64_t>(), 1u << 20);
  ASSERT_EQ(b["level2"]["rows"].size(), 1u) << b.dump();
  EXPECT_EQ(b["level2"]["rows"][0]["n"].get<std::int64_t>(), 512);  // 512^2 f32 elements: 1 MiB
  ASSERT_EQ(b["rows"].size(), 1u) << b.dump();
  EXPECT_EQ(b["rows"][0]["n"].get<std::int64_t>(), 1 << 18);
}
