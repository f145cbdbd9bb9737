#include "support/test_support.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace optune::test {

// Never destroyed: releasing driver objects from static destructors races the
// drivers' own teardown at exit (oclgrind crashes on it).
Device device() {
  static Device* d = new Device(default_device());
  return *d;
}

const Context& context() {
  static Context* c = new Context(device());
  return *c;
}

const Queue& queue() {
  static Queue* q = new Queue(context());
  return *q;
}

std::uint64_t seed() {
  static const std::uint64_t s = [] {
    if (const char* env = std::getenv("OPTUNE_TEST_SEED")) return std::uint64_t(std::strtoull(env, nullptr, 10));
    return std::uint64_t(std::random_device{}()) << 32 | std::random_device{}();
  }();
  return s;
}

std::mt19937_64& rng() {
  static std::mt19937_64 g = [] {
    std::fprintf(stderr, "test seed: %llu (set OPTUNE_TEST_SEED to repeat)\n", (unsigned long long)seed());
    return std::mt19937_64(seed());
  }();
  return g;
}

std::vector<float> random_floats(std::size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng());
  return v;
}

std::vector<std::uint32_t> random_words(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = std::uint32_t(rng()());
  return v;
}

std::string temp_dir() {
  static const std::string dir = [] {
    std::string d = (std::filesystem::temp_directory_path() / ("optune-test-" + std::to_string(getpid()))).string();
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(temp_dir(), ec);
    });
    return d;
  }();
  return dir;
}

namespace {

int run_command(const std::string& program, const std::string& args, std::string* output, const std::string& env) {
  const std::string cmd = env + (env.empty() ? "" : " ") + program + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  std::string out;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = pclose(p);
  if (output) *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

int run_cli(const std::string& args, std::string* output, const std::string& env) {
  return run_command(OPTUNE_CLI_PATH, args, output, env);
}

int run_self(const std::string& filter, std::string* output, const std::string& env) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  return run_command(self, "--gtest_filter=" + filter, output, env);
}

}  // namespace optune::test
