// The host_blas family (kernels/blas/host_blas.hpp): the host BLAS
// interface's thresholds per routine class, from the database's entries for
// the default device and type, else the defaults; and its refusals.
#include <gtest/gtest.h>

#include <cmath>

#include "database/database.hpp"
#include "database/format.hpp"
#include "kernels/blas/host_blas.hpp"
#include "kernels/families.hpp"
#include "support/test_support.hpp"

namespace optune {
namespace {

using detail::host_blas_thread_threshold;
using detail::host_blas_threshold;

std::string entries_json(const Capabilities& caps, const std::string& dtype, const detail::Params& params) {
  detail::DbEntry e;
  e.family = "host_blas";
  e.dtype = dtype;
  e.bucket = "all";
  e.params = params;
  return detail::database_json(caps, {e}, "");
}

// The test device's capabilities under a name and architecture no shipped
// file has entries for, so that only the entries a test adds serve it.
Capabilities unshipped_caps() {
  Capabilities caps = test::device().caps();
  caps.name = "optune test: no shipped entries";
  caps.architecture = "optune-test-none";
  return caps;
}

class HostBlasFamily : public ::testing::Test {
 protected:
  void TearDown() override { detail::Database::reset_instance(); }
};

TEST_F(HostBlasFamily, DefaultsWithoutEntries) {
  detail::Database::reset_instance();
  const Capabilities caps = unshipped_caps();
  for (DType t : {DType::F32, DType::C32}) {
    EXPECT_EQ(host_blas_threshold(caps, t, 1), std::ldexp(1.0, 24));
    EXPECT_EQ(host_blas_threshold(caps, t, 2), std::ldexp(1.0, 24));
    EXPECT_EQ(host_blas_threshold(caps, t, 3), std::ldexp(1.0, 22));
    EXPECT_EQ(host_blas_thread_threshold(caps, t, 1), std::ldexp(1.0, 23));
    EXPECT_EQ(host_blas_thread_threshold(caps, t, 2), std::ldexp(1.0, 23));
    EXPECT_EQ(host_blas_thread_threshold(caps, t, 3), std::ldexp(1.0, 24));
  }
  bool listed = false;
  for (const detail::KernelFamily* f : detail::families::all()) listed |= f == &detail::families::host_blas();
  EXPECT_TRUE(listed) << "host_blas is not in families::all(): optune db import would refuse its entries";
}

TEST_F(HostBlasFamily, EntriesOfTheDeviceAndType) {
  detail::Database::reset_instance();
  const Capabilities caps = unshipped_caps();
  ASSERT_EQ(detail::Database::instance().add_json(
                entries_json(caps, "f32", {{"L1_LOG2", 5}, {"L2_LOG2", 62}, {"L3_LOG2", 10}}), "thresholds.json"),
            1u);
  EXPECT_EQ(host_blas_threshold(caps, DType::F32, 1), 32.0);
  EXPECT_EQ(host_blas_threshold(caps, DType::F32, 2), std::ldexp(1.0, 62));
  EXPECT_EQ(host_blas_threshold(caps, DType::F32, 3), 1024.0);
  // Another type keeps the defaults.
  EXPECT_EQ(host_blas_threshold(caps, DType::C32, 3), std::ldexp(1.0, 22));
  // An entry written before the in-thread tier existed: those parameters keep
  // their defaults.
  EXPECT_EQ(host_blas_thread_threshold(caps, DType::F32, 1), std::ldexp(1.0, 23));
  EXPECT_EQ(host_blas_thread_threshold(caps, DType::F32, 3), std::ldexp(1.0, 24));
}

TEST_F(HostBlasFamily, InThreadEntries) {
  detail::Database::reset_instance();
  const Capabilities caps = unshipped_caps();
  ASSERT_EQ(detail::Database::instance().add_json(
                entries_json(caps, "f64", {{"L1_LOG2", 20}, {"L1_THREAD_LOG2", 12}, {"L2_THREAD_LOG2", 0},
                                           {"L3_THREAD_LOG2", 62}}),
                "thresholds.json"),
            1u);
  EXPECT_EQ(host_blas_thread_threshold(caps, DType::F64, 1), 4096.0);
  EXPECT_EQ(host_blas_thread_threshold(caps, DType::F64, 2), 1.0);  // 2^0: no call has work below 1
  EXPECT_EQ(host_blas_thread_threshold(caps, DType::F64, 3), std::ldexp(1.0, 62));
  EXPECT_EQ(host_blas_threshold(caps, DType::F64, 1), std::ldexp(1.0, 20));
  EXPECT_EQ(host_blas_thread_threshold(caps, DType::F32, 1), std::ldexp(1.0, 23));
  // An in-thread value outside the candidates passes the whole entry over.
  detail::Database::reset_instance();
  detail::Database::instance().add_json(entries_json(caps, "f64", {{"L1_LOG2", 20}, {"L2_THREAD_LOG2", 45}}),
                                        "bad.json");
  EXPECT_EQ(host_blas_threshold(caps, DType::F64, 1), std::ldexp(1.0, 24));
  EXPECT_EQ(host_blas_thread_threshold(caps, DType::F64, 2), std::ldexp(1.0, 23));
}

TEST_F(HostBlasFamily, EntryOutsideTheCandidatesIsPassedOver) {
  detail::Database::reset_instance();
  const Capabilities caps = unshipped_caps();
  detail::Database::instance().add_json(entries_json(caps, "f32", {{"L1_LOG2", 50}, {"L3_LOG2", 10}}), "bad.json");
  EXPECT_EQ(host_blas_threshold(caps, DType::F32, 1), std::ldexp(1.0, 24));
  EXPECT_EQ(host_blas_threshold(caps, DType::F32, 3), std::ldexp(1.0, 22));
}

// The bench measures the thresholds; the tuner has no case for them.
TEST_F(HostBlasFamily, TuneRefuses) {
  std::string out;
  EXPECT_NE(test::run_cli("tune host_blas --dtype f32", &out), 0);
  EXPECT_NE(out.find("no tuning case for the family host_blas"), std::string::npos) << out;
}

}  // namespace
}  // namespace optune
