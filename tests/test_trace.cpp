// OPTUNE_TRACE: this binary runs itself as a child with OPTUNE_TRACE set
// (TraceChild.RunsOperators, skipped otherwise); the child runs a few
// operators from two threads, flushes once midway, and the trace written at
// its exit is parsed here and checked field by field.
#include <cstdio>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "support/test_support.hpp"

using namespace optune;
using nlohmann::json;

namespace {

std::vector<float> ones(std::size_t n) { return std::vector<float>(n, 1.0f); }

Buffer<float> upload(const Queue& q, const std::vector<float>& v) {
  Buffer<float> b = q.context().alloc<float>(v.size());
  q.upload(b, std::span<const float>(v));
  return b;
}

json read_json(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  return json::parse(f);
}

std::string self_exe() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

}  // namespace

// The child: only meaningful with OPTUNE_TRACE set by Trace.WritesChromeTraceAtExit.
TEST(TraceChild, RunsOperators) {
  const char* env = std::getenv("OPTUNE_TRACE");
  if (!std::getenv("OPTUNE_TRACE_TEST_CHILD") || !env) GTEST_SKIP() << "run as a child by Trace.*";
  std::string path = env;
  if (const auto at = path.find("%p"); at != std::string::npos) path.replace(at, 2, std::to_string(getpid()));
  const Queue& q = test::queue();
  auto x = upload(q, test::random_floats(1000));
  auto y = q.context().alloc<float>(1000);
  unary(q, Unary::Gelu, x, y);
  unary(q, Unary::Gelu, x, y);  // the program again: an in-memory hit
  binary(q, Binary::Add, x, y, y);
  binary(q, Binary::Mul, x, 2.0, y);

  // An explicit flush mid-run writes a complete, parsable file.
  ASSERT_TRUE(flush_trace());
  const json early = read_json(path);
  ASSERT_TRUE(early["traceEvents"].is_array());
  std::size_t early_ops = 0;
  for (const auto& e : early["traceEvents"]) early_ops += e.value("cat", "") == "operator";
  EXPECT_EQ(early_ops, 4u);

  auto m = upload(q, test::random_floats(7 * 33));
  auto sums = q.context().alloc<float>(7);
  reduce(q, ReduceOp::Sum, Operand(m, {7, 33}), {1}, false, Operand(sums, {7}));
  // Strided x: reduce runs a dense copy first, a nested "unary copy" call.
  reduce(q, ReduceOp::Sum, Operand(m, {7, 11}, {33, 3}), {1}, false, Operand(sums, {7}));
  auto sm = q.context().alloc<float>(7 * 33);
  softmax(q, Operand(m, {7, 33}), -1, Operand(sm, {7, 33}));
  auto gamma = upload(q, ones(33));
  layer_norm(q, Operand(m, {7, 33}), Operand(gamma, {33}), std::nullopt, 1e-5, Operand(sm, {7, 33}));
  elementwise(q, "y = x * x + b", {x, y}, {y});
  // A call that fails validation still appears, marked failed.
  EXPECT_THROW(softmax(q, Operand(m, {7, 33}), 0, Operand(sm, {33, 7})), Error);
  // Another thread gets its own host track.
  std::thread other([&] {
    auto z = q.context().alloc<float>(1000);
    unary(q, Unary::Relu, x, z).wait();
  });
  other.join();
  // No finish: the kernels still running are resolved at exit.
}

TEST(Trace, OffUnlessAsked) {
  if (std::getenv("OPTUNE_TRACE")) GTEST_SKIP() << "OPTUNE_TRACE is set for this run";
  EXPECT_FALSE(flush_trace());
}

TEST(Trace, WritesChromeTraceAtExit) {
  if (std::getenv("OPTUNE_TRACE_TEST_CHILD")) GTEST_SKIP() << "the child does not run the parent";
  const std::string path = test::temp_dir() + "/trace-%p.json";
  std::string out;
  const std::string cmd = "OPTUNE_TRACE=" + path + " OPTUNE_TRACE_TEST_CHILD=1 OPTUNE_CACHE=off " + self_exe() +
                          " --gtest_filter=TraceChild.RunsOperators 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  ASSERT_NE(out.find("[  PASSED  ] 1 test"), std::string::npos) << out;

  // %p became the child's pid: find the one file written.
  std::string file;
  for (const auto& entry : std::filesystem::directory_iterator(test::temp_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("trace-", 0) == 0 && name.find(".tmp") == std::string::npos) file = entry.path().string();
  }
  ASSERT_FALSE(file.empty()) << out;
  EXPECT_EQ(file.find("%p"), std::string::npos);
  const json trace = read_json(file);
  ASSERT_TRUE(trace.contains("traceEvents")) << trace.dump().substr(0, 400);
  const json& events = trace["traceEvents"];
  ASSERT_TRUE(events.is_array());

  std::vector<json> ops, programs, kernels, database;
  std::set<std::string> process_names;
  for (const json& e : events) {
    ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("name")) << e.dump();
    if (e["ph"] == "M") {
      if (e["name"] == "process_name") process_names.insert(e["args"]["name"].get<std::string>());
      continue;
    }
    ASSERT_EQ(e["ph"], "X") << e.dump();
    ASSERT_TRUE(e["ts"].is_number() && e["dur"].is_number() && e.contains("tid")) << e.dump();
    EXPECT_GE(e["ts"].get<double>(), 0.0) << e.dump();
    EXPECT_GE(e["dur"].get<double>(), 0.0) << e.dump();
    const std::string cat = e["cat"];
    if (cat == "operator") ops.push_back(e);
    else if (cat == "program") programs.push_back(e);
    else if (cat == "kernel") kernels.push_back(e);
    else if (cat == "database") database.push_back(e);  // trust checks of shipped entries
    else ADD_FAILURE() << "unknown category " << e.dump();
  }
  EXPECT_EQ(process_names.size(), 2u);

  std::map<std::string, std::vector<json>> by_name;
  std::map<std::uint64_t, json> by_call;
  std::set<int> host_tids;
  for (const json& e : ops) {
    EXPECT_EQ(e["pid"], 1) << e.dump();
    by_name[e["name"]].push_back(e);
    by_call[e["args"]["call"].get<std::uint64_t>()] = e;
    host_tids.insert(e["tid"].get<int>());
  }
  for (const char* name : {"unary gelu", "binary add", "binary mul", "reduce sum", "unary copy", "softmax",
                           "layer_norm", "elementwise", "unary relu"})
    EXPECT_TRUE(by_name.count(name)) << name;
  EXPECT_EQ(host_tids.size(), 2u) << "the second thread has its own track";

  // One call, fully described: operands, lookup, program and kernel.
  ASSERT_EQ(by_name["unary gelu"].size(), 2u);
  for (const json& gelu : by_name["unary gelu"]) {
    const json& a = gelu["args"];
    EXPECT_EQ(a["x"]["dtype"], "f32");
    EXPECT_EQ(a["x"]["shape"], json::array({1000}));
    ASSERT_EQ(a["lookups"].size(), 1u) << a.dump();
    const json& l = a["lookups"][0];
    EXPECT_EQ(l["family"], "elementwise");
    EXPECT_EQ(l["dtype"], "f32");
    EXPECT_EQ(l["sizes"], json::array({1000}));
    EXPECT_TRUE(l["params"].is_object() && !l["params"].empty()) << l.dump();
    EXPECT_TRUE(std::set<std::string>({"local", "device", "architecture", "vendor", "default"}).count(l["level"]))
        << l.dump();
    EXPECT_FALSE(l["source"].get<std::string>().empty());
    EXPECT_EQ(a["kernels"], json::array({"elementwise"}));
    ASSERT_EQ(a["programs"].size(), 1u);
    EXPECT_EQ(a["programs"][0]["source"], "elementwise/elementwise.cl");
  }
  // Compiled by this call, unless a database trust check (its own span) built
  // the same program first, as on devices with shipped entries.
  const bool checked = !database.empty();
  EXPECT_EQ(by_name["unary gelu"][0]["args"]["programs"][0]["result"], checked ? by_name["unary gelu"][0]["args"]["programs"][0]["result"] : json("compiled"));
  EXPECT_EQ(by_name["unary gelu"][1]["args"]["programs"][0]["result"], "memory cache");
  EXPECT_EQ(by_name["binary mul"][0]["args"]["scalar b"], 2.0);

  // reduce: its own family; the strided one holds a nested copy.
  ASSERT_EQ(by_name["reduce sum"].size(), 2u);
  EXPECT_EQ(by_name["reduce sum"][0]["args"]["lookups"][0]["family"], "reduce_rows");
  EXPECT_EQ(by_name["reduce sum"][0]["args"]["axes"], json::array({1}));
  const json& outer = by_name["reduce sum"][1];
  EXPECT_EQ(outer["args"]["x"]["strides"], json::array({33, 3}));
  bool nested = false;
  for (const json& c : by_name["unary copy"])
    nested |= c["tid"] == outer["tid"] && c["ts"].get<double>() >= outer["ts"].get<double>() &&
              c["ts"].get<double>() + c["dur"].get<double>() <=
                  outer["ts"].get<double>() + outer["dur"].get<double>() + 1e-3;
  EXPECT_TRUE(nested);
  EXPECT_EQ(by_name["layer_norm"][0]["args"]["lookups"][0]["family"], "norm_rows");
  EXPECT_EQ(by_name["layer_norm"][0]["args"]["gamma"]["shape"], json::array({33}));

  // The failed softmax is there, marked, with no kernel.
  ASSERT_EQ(by_name["softmax"].size(), 2u);
  EXPECT_FALSE(by_name["softmax"][0]["args"].contains("failed"));
  EXPECT_EQ(by_name["softmax"][1]["args"]["failed"], true);
  EXPECT_FALSE(by_name["softmax"][1]["args"].contains("kernels"));

  // Programs: their own events with the time they took and how.
  std::set<std::string> results;
  for (const json& p : programs) {
    EXPECT_EQ(p["pid"], 1);
    EXPECT_EQ(p["name"].get<std::string>().rfind("program ", 0), 0u);
    results.insert(p["args"]["result"].get<std::string>());
    EXPECT_GE(p["args"]["ms"].get<double>(), 0.0);
    if (p["args"]["result"] == "compiled") EXPECT_TRUE(p["args"].contains("defines")) << p.dump();
  }
  EXPECT_TRUE(results.count("compiled"));
  EXPECT_TRUE(results.count("memory cache"));

  // Kernels: device track, device time, linked to their call, and after it began.
  // (Database trust checks of shipped entries run kernels of their own.)
  std::size_t expected_kernels = 0;
  for (const json& e : ops) expected_kernels += e["args"].value("kernels", json::array()).size();
  for (const json& e : database) {
    expected_kernels += e["args"].value("kernels", json::array()).size();
    by_call[e["args"]["call"].get<std::uint64_t>()] = e;
  }
  EXPECT_EQ(kernels.size(), expected_kernels);
  for (const json& k : kernels) {
    EXPECT_EQ(k["pid"], 2) << k.dump();
    EXPECT_FALSE(k["args"].contains("failed")) << k.dump();
    EXPECT_TRUE(k["args"]["device_us"].is_number()) << k.dump();
    EXPECT_DOUBLE_EQ(k["args"]["device_us"].get<double>(), k["dur"].get<double>());
    EXPECT_TRUE(k["args"]["params"].is_object()) << k.dump();
    EXPECT_FALSE(k["args"]["global"].empty());
    ASSERT_TRUE(by_call.count(k["args"]["call"].get<std::uint64_t>())) << k.dump();
    const json& call = by_call[k["args"]["call"].get<std::uint64_t>()];
    EXPECT_EQ(k["args"]["operator"], call["name"]);
    EXPECT_GE(k["ts"].get<double>(), call["ts"].get<double>() - 1e-3) << k.dump() << call.dump();
  }
}
