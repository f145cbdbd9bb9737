// OPTUNE_TRACE writes only a regular file or a new path (issue 23, item 5):
// a FIFO, a device node or a directory -- or a link to one -- is refused with
// one warning and left as it was; a link to a regular file writes the file.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/test_support.hpp"

using namespace optune;
namespace fs = std::filesystem;

namespace {

// Runs TraceTargetChild.Runs with OPTUNE_TRACE=path; returns its output.
std::string traced_child(const std::string& path) {
  std::string out;
  EXPECT_EQ(test::run_self("TraceTargetChild.Runs", &out,
                           "OPTUNE_TRACE_TARGET_CHILD=1 OPTUNE_CACHE=off OPTUNE_TRACE='" + path + "'"),
            0)
      << out;
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string fresh_dir(const std::string& name) {
  const std::string d = test::temp_dir() + "/" + name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(TraceTargetChild, Runs) {
  if (!std::getenv("OPTUNE_TRACE_TARGET_CHILD")) GTEST_SKIP() << "runs only as a child of TraceTarget tests";
  const Queue& q = test::queue();
  auto x = q.context().alloc<float>(16);
  auto y = q.context().alloc<float>(16);
  unary(q, Unary::Relu, x, y).wait();
  flush_trace();  // and again at exit
}

TEST(TraceTarget, FifoIsLeftAloneWithOneWarning) {
  const std::string fifo = fresh_dir("trace-fifo") + "/trace.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string out = traced_child(fifo);
  struct stat st {};
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced\n" << out;
  EXPECT_EQ(count(out, "OPTUNE_TRACE"), 1u) << out;
  EXPECT_NE(out.find("is a FIFO"), std::string::npos) << out;
}

TEST(TraceTarget, LinkToAFifoIsRefusedToo) {
  const std::string dir = fresh_dir("trace-link-fifo");
  ASSERT_EQ(mkfifo((dir + "/fifo").c_str(), 0600), 0);
  fs::create_symlink(dir + "/fifo", dir + "/trace.json");
  const std::string out = traced_child(dir + "/trace.json");
  EXPECT_TRUE(fs::is_symlink(dir + "/trace.json")) << out;
  EXPECT_TRUE(fs::is_fifo(dir + "/fifo")) << out;
  EXPECT_EQ(count(out, "OPTUNE_TRACE"), 1u) << out;
}

TEST(TraceTarget, DirectoryIsRefusedByName) {
  const std::string dir = fresh_dir("trace-dir");
  const std::string out = traced_child(dir);
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_EQ(count(out, "OPTUNE_TRACE"), 1u) << out;
  EXPECT_NE(out.find("is a directory"), std::string::npos) << out;
}

TEST(TraceTarget, CharacterDeviceIsRefused) {
  // A node of its own (the null device's numbers), never /dev/null itself:
  // a build without the check would replace it. Needs root, as the report's
  // /dev/full case did.
  const std::string node = fresh_dir("trace-chr") + "/null";
  if (mknod(node.c_str(), S_IFCHR | 0600, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
  const std::string out = traced_child(node);
  struct stat st {};
  ASSERT_EQ(lstat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << out;
  EXPECT_NE(out.find("is a character device"), std::string::npos) << out;
}

TEST(TraceTarget, LinkToARegularFileWritesTheFile) {
  const std::string dir = fresh_dir("trace-link-file");
  std::ofstream(dir + "/real.json") << "old";
  fs::create_symlink(dir + "/real.json", dir + "/trace.json");
  const std::string out = traced_child(dir + "/trace.json");
  EXPECT_TRUE(fs::is_symlink(dir + "/trace.json")) << out;
  std::ifstream in(dir + "/real.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("traceEvents"), std::string::npos) << out;
  EXPECT_EQ(count(out, "OPTUNE_TRACE"), 0u) << out;
}

TEST(TraceTarget, NewPathIsWritten) {
  const std::string path = fresh_dir("trace-new") + "/trace.json";
  const std::string out = traced_child(path);
  EXPECT_TRUE(fs::is_regular_file(path)) << out;
}
