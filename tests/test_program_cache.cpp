// Program cache: once per process, once per machine through the cache file,
// damaged files set aside, build errors carry the compiler's log.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

#include "database/database.hpp"
#include "runtime/cache_file.hpp"
#include "runtime/program.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;
namespace fs = std::filesystem;

namespace {

const char* kTiny = R"(
__kernel void tiny(__global float* y, const float a) { y[get_global_id(0)] = a * (float)(TAG); }
)";

// A cache folder of its own for one test, restored afterwards.
class CacheDir {
 public:
  explicit CacheDir(const std::string& name) : dir_(test::temp_dir() + "/" + name) {
    fs::remove_all(dir_);
    setenv("OPTUNE_CACHE_DIR", dir_.c_str(), 1);
    CacheFile::reset_instance();
  }
  ~CacheDir() {
    CacheFile::reset_instance();
    unsetenv("OPTUNE_CACHE_DIR");
  }
  const std::string& path() const { return dir_; }

 private:
  std::string dir_;
};

// Runs this test binary as a child that builds one program, and returns
// what it printed ("disk", "compiled").
std::string child_build(const std::string& dir, const std::string& tag) {
  const std::string cmd = "OPTUNE_CACHE_DIR=" + dir + " OPTUNE_TEST_CHILD_TAG=" + tag +
                          " OPTUNE_LOG=debug /proc/" + std::to_string(getpid()) +
                          "/exe --gtest_filter=ProgramCacheChild.Build 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << out;
  return out;
}

}  // namespace

TEST(ProgramCacheChild, Build) {
  const char* tag = std::getenv("OPTUNE_TEST_CHILD_TAG");
  if (!tag) GTEST_SKIP() << "runs only as a child of ProgramCache.SecondProcessCompilesNothing";
  ProgramStats stats;
  ProgramPtr p = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", tag}}, &stats);
  ASSERT_TRUE(p->kernel("tiny"));
  std::printf("CHILD-RESULT %s\n", stats.from_disk ? "disk" : "compiled");
}

TEST(ProgramCache, SameProcessCompilesOnce) {
  CacheDir dir("same-process");
  ProgramStats a, b, c;
  const std::string tag = std::to_string(test::seed() % 1000000);
  ProgramPtr p1 = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", tag}}, &a);
  ProgramPtr p2 = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", tag}}, &b);
  ProgramPtr p3 = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", tag + "1"}}, &c);
  EXPECT_FALSE(a.from_memory);
  EXPECT_TRUE(b.from_memory);
  EXPECT_EQ(p1, p2);
  EXPECT_NE(p1, p3);
  EXPECT_FALSE(c.from_memory);
}

TEST(ProgramCache, ConcurrentRequestsShareOneBuild) {
  CacheDir dir("threads");
  const std::string tag = std::to_string(test::seed() % 1000000 + 7);
  std::vector<std::thread> threads;
  std::vector<ProgramPtr> got(6);
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&, i] {
      got[i] = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", tag}});
    });
  for (auto& t : threads) t.join();
  for (int i = 1; i < 6; ++i) EXPECT_EQ(got[i], got[0]);
}

TEST(ProgramCache, SecondProcessCompilesNothing) {
  CacheDir dir("two-processes");
  const std::string tag = std::to_string(test::seed() % 1000000 + 13);
  const std::string first = child_build(dir.path(), tag);
  EXPECT_NE(first.find("CHILD-RESULT compiled"), std::string::npos) << first;
  EXPECT_NE(first.find("compiled tiny.cl"), std::string::npos) << first;
  const std::string second = child_build(dir.path(), tag);
  EXPECT_NE(second.find("CHILD-RESULT disk"), std::string::npos) << second;
  EXPECT_NE(second.find("program cache hit (disk)"), std::string::npos) << second;
  EXPECT_EQ(second.find("compiled tiny.cl"), std::string::npos) << second;
}

TEST(ProgramCache, DamagedFileIsSetAside) {
  CacheDir dir("damaged");
  fs::create_directories(dir.path());
  {
    std::ofstream f(dir.path() + "/optune.sqlite", std::ios::binary);
    for (int i = 0; i < 5000; ++i) f << char(i * 7 + 3);
  }
  const std::string tag = std::to_string(test::seed() % 1000000 + 17);
  ProgramStats stats;
  ProgramPtr p = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", tag}}, &stats);
  EXPECT_TRUE(p->kernel("tiny"));
  bool set_aside = false;
  for (const auto& e : fs::directory_iterator(dir.path()))
    set_aside |= e.path().filename().string().find("damaged") != std::string::npos;
  EXPECT_TRUE(set_aside);
  ASSERT_NE(CacheFile::instance(), nullptr);
  EXPECT_GE(CacheFile::instance()->program_count(), 1u);
}

TEST(ProgramCache, CacheOffCompilesAndStoresNothing) {
  CacheDir dir("off");
  setenv("OPTUNE_CACHE", "off", 1);
  const std::string tag = std::to_string(test::seed() % 1000000 + 19);
  ProgramPtr p = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", tag}});
  unsetenv("OPTUNE_CACHE");
  EXPECT_TRUE(p->kernel("tiny"));
  EXPECT_FALSE(fs::exists(dir.path() + "/optune.sqlite"));
}

TEST(ProgramCache, BuildErrorCarriesTheLog) {
  const std::string bad = "__kernel void broken(__global float* y) { y[0] = undefined_thing + ; }\n";
  try {
    get_program_from_text(*test::context().impl(), "broken.cl", bad, {});
    FAIL() << "expected a build failure";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::BuildFailure);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("broken.cl"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undefined_thing"), std::string::npos) << msg;
  }
  // The failure is not cached: a good program under the same label builds.
  EXPECT_NO_THROW(get_program_from_text(*test::context().impl(), "broken.cl",
                                        "__kernel void fine(__global float* y) { y[0] = 1.0f; }\n", {}));
}

TEST(ProgramCache, MissingKernelAndSourceAreErrors) {
  ProgramPtr p = get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"TAG", "3"}});
  try {
    p->kernel("nope");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::NotFound);
  }
  EXPECT_THROW(get_program(*test::context().impl(), "no/such.cl", {}), Error);
  EXPECT_THROW(get_program_from_text(*test::context().impl(), "tiny.cl", kTiny, {{"BAD NAME", "1"}}), Error);
}

// Launch plans (ops/launch_plan.hpp): a repeated element-wise call reuses
// what the first one chose, without the program lookup; a change of the
// database's answers (forget, an import) makes it look again; a call of
// another size or type has its own plan; every call's result is right.
TEST(LaunchPlan, RepeatedCallSkipsTheLookupsUntilTheDatabaseChanges) {
  const Context& ctx = test::context();
  const Queue& q = test::queue();
  const std::size_t n = 1000;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = float(i % 7) - 3.0f;
  Buffer<float> x = ctx.alloc<float>(n), y = ctx.alloc<float>(n);
  q.upload(x, std::span<const float>(host));
  const auto check = [&](std::size_t count) {
    q.upload(y, std::span<const float>(std::vector<float>(n, std::nanf(""))));  // poisoned
    unary(q, Unary::Relu, x.view(0, count), y.view(0, count)).wait();
    const std::vector<float> out = q.download(y);
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(out[i], std::max(host[i], 0.0f)) << i;
  };
  check(n);  // makes the plan (compiles or finds the program)
  const ProgramCounts c1 = program_counts();
  check(n);  // reuses it: no program lookup at all
  const ProgramCounts c2 = program_counts();
  EXPECT_EQ(c2.from_memory, c1.from_memory);
  EXPECT_EQ(c2.compiled + c2.from_disk, c1.compiled + c1.from_disk);
  Database::instance().forget();  // the answers may have changed: look again
  check(n);
  const ProgramCounts c3 = program_counts();
  EXPECT_EQ(c3.from_memory + c3.compiled + c3.from_disk, c2.from_memory + c2.compiled + c2.from_disk + 1);
  check(n - 1);  // another size: its own plan, and a right result
  check(n);
}
