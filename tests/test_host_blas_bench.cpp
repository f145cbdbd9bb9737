// optune bench blas --host-interface (tools/optune/bench_host_blas.cpp):
// liboptune_blas.so.3 timed per call through its Fortran symbols against
// Debian's reference BLAS (libblas3: in OPTUNE_NETLIB_BLAS_DIR where set, as
// on the GPU machine, else where Debian installs it), named with --host-blas,
// the results of each product compared, in each of optune's modes (its
// thresholds, every call in the thread, every call on the device); the
// thresholds it writes with --host-db; and the option's errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "support/test_support.hpp"

namespace optune {

TEST(HostBlasBench, EveryRoutineAndSizeAgainstTheReference) {
  const std::string path = test::temp_dir() + "/bench-host-blas.json";
  std::string out;
  const char* dir = std::getenv("OPTUNE_NETLIB_BLAS_DIR");
  const std::string netlib = std::string(dir && *dir ? dir : "/usr/lib/x86_64-linux-gnu/blas") + "/libblas.so.3";
  const std::string db = test::temp_dir() + "/bench-host-blas-db.json";
  ASSERT_EQ(test::run_cli("bench blas --host-interface --host-max-n 32 --host-blas netlib=" + netlib + " --json " + path +
                              " --host-db " + db,
                          &out),
            0)
      << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  const auto& rows = j["host_interface"]["rows"];
  std::set<std::string> seen;
  bool reference = false;
  for (const auto& r : rows) {
    const std::string routine = r["routine"], library = r["library"];
    seen.insert(routine + "/" + std::to_string(r["n"].get<int>()) + "/" + library);
    EXPECT_GT(r["us_per_call"].get<double>(), 0.0) << r.dump();
    if (library == "netlib") {
      reference = true;
      // Compared with optune's product of the same operands.
      if (routine == "sgemm") EXPECT_LT(r["max_rel_diff"].get<double>(), 1e-5) << r.dump();
      if (routine == "dgemm") EXPECT_LT(r["max_rel_diff"].get<double>(), 1e-12) << r.dump();
      if (routine == "sgemv") EXPECT_LT(r["max_rel_diff"].get<double>(), 1e-5) << r.dump();
    }
    // Every mode computes the same product (in the thread, on the device).
    if (library.rfind("optune", 0) == 0 && routine != "saxpy")
      EXPECT_LT(r["max_rel_diff"].get<double>(), routine == "dgemm" ? 1e-12 : 1e-5) << r.dump();
  }
  for (const char* routine : {"sgemm", "dgemm", "sgemv", "saxpy"})
    for (const char* n : {"16", "32"})
      for (const char* mode : {"optune", "optune-thread", "optune-device"})
        EXPECT_TRUE(seen.count(std::string(routine) + "/" + n + "/" + mode)) << routine << " " << n << " " << mode
                                                                             << "\n" << out;
  // The in-thread crossover of every routine, and the thresholds written as
  // host_blas entries of f32 and f64 with every parameter.
  for (const char* routine : {"sgemm", "dgemm", "sgemv", "saxpy"})
    EXPECT_TRUE(j["host_interface"]["crossovers"][routine].contains("thread")) << routine << "\n" << out;
  std::ifstream dbf(db);
  ASSERT_TRUE(dbf.good()) << "--host-db wrote nothing\n" << out;
  const auto entries = nlohmann::json::parse(dbf)["entries"];
  std::set<std::string> dtypes;
  for (const auto& e : entries) {
    EXPECT_EQ(e["family"], "host_blas");
    dtypes.insert(e["dtype"].get<std::string>());
    for (const char* p : {"L1_LOG2", "L2_LOG2", "L3_LOG2", "L1_THREAD_LOG2", "L2_THREAD_LOG2", "L3_THREAD_LOG2"})
      EXPECT_TRUE(e["params"].contains(p)) << p << " " << e.dump();
  }
  EXPECT_EQ(dtypes, (std::set<std::string>{"f32", "f64"}));
  EXPECT_TRUE(reference) << "Debian's reference BLAS (" << netlib << ") did not run (install libblas3)\n" << out;
}

TEST(HostBlasBench, Errors) {
  std::string out;
  EXPECT_NE(test::run_cli("bench gemm --host-interface", &out), 0);
  EXPECT_NE(out.find("goes with the blas suite alone"), std::string::npos) << out;
  EXPECT_NE(test::run_cli("bench blas --host-interface --host-max-n 16 --host-blas nonsense", &out), 0);
  EXPECT_NE(out.find("NAME=PATH"), std::string::npos) << out;
  EXPECT_NE(test::run_cli("bench blas --host-interface --host-library /nonexistent/liboptune_blas.so.3", &out), 0);
  EXPECT_NE(out.find("cannot load liboptune_blas.so.3"), std::string::npos) << out;
  EXPECT_NE(test::run_cli("bench blas --host-interface --host-max-n 8", &out), 0);
}

}  // namespace optune
