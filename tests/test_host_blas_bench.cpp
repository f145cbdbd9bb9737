// optune bench blas --host-interface (tools/optune/bench_host_blas.cpp):
// liboptune_blas.so.3 timed per call through its Fortran symbols against
// Debian's reference BLAS (libblas3: in OPTUNE_NETLIB_BLAS_DIR where set, as
// on the GPU machine, else where Debian installs it), named with --host-blas,
// the results of each product compared; and the option's errors.
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
  ASSERT_EQ(test::run_cli("bench blas --host-interface --host-max-n 32 --host-blas netlib=" + netlib + " --json " + path,
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
    }
  }
  for (const char* routine : {"sgemm", "dgemm", "saxpy"})
    for (const char* n : {"16", "32"})
      EXPECT_TRUE(seen.count(std::string(routine) + "/" + n + "/optune")) << routine << " " << n << "\n" << out;
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
