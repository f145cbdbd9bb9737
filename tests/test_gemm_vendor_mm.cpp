// The GEMM family's slot for kernels on vendor matrix extensions
// (cl_intel_subgroup_matrix_multiply_accumulate, cl_arm_matrix_multiply):
// the detection from a device's extension string, and the slot's place in
// the candidate order. No such kernel is written, so the slot is empty and
// a device that reports an extension runs the other candidates.
#include "support/gemm_fixture.hpp"

using namespace optune;
using detail::gemm_kernels::reported_matrix_extensions;

namespace {
const std::string kIntel = "cl_intel_subgroup_matrix_multiply_accumulate";
const std::string kArm = "cl_arm_matrix_multiply";
using Names = std::vector<std::string>;
}  // namespace

TEST(GemmVendorMatrix, DetectionFromTheExtensionString) {
  EXPECT_EQ(reported_matrix_extensions(""), Names{});
  EXPECT_EQ(reported_matrix_extensions("cl_khr_fp16 cl_khr_subgroups"), Names{});
  EXPECT_EQ(reported_matrix_extensions("cl_khr_fp16 " + kIntel + " cl_intel_subgroups"), Names{kIntel});
  EXPECT_EQ(reported_matrix_extensions(kArm), Names{kArm});
  // Both, in the known list's order whatever the device's; any white space.
  EXPECT_EQ(reported_matrix_extensions(kArm + "\t" + kIntel + "\n"), (Names{kIntel, kArm}));
  EXPECT_EQ(reported_matrix_extensions("  " + kIntel + "  " + kIntel + " "), Names{kIntel});
  // Whole names only: a longer extension (Intel's tf32 one exists) or a
  // prefix is not the extension.
  EXPECT_EQ(reported_matrix_extensions(kIntel + "_tf32 " + kIntel + "_split_matrix_b"), Names{});
  EXPECT_EQ(reported_matrix_extensions("x" + kArm + " cl_arm_matrix cl_khr_fp16"), Names{});
  EXPECT_EQ(reported_matrix_extensions(kArm + "," + kIntel), Names{});
  // The known list names each extension with its vendor.
  const auto& known = detail::gemm_kernels::matrix_extensions();
  ASSERT_EQ(known.size(), 2u);
  EXPECT_EQ(known[0].name, kIntel);
  EXPECT_EQ(known[0].vendor, "Intel");
  EXPECT_EQ(known[1].name, kArm);
  EXPECT_EQ(known[1].vendor, "Arm");
}

// The slot sits after the CUDA tensor-core candidates and before tiled; it
// holds no candidate until one is written, so the order is unchanged.
TEST(GemmVendorMatrix, SlotInTheCandidateOrderIsEmpty) {
  EXPECT_TRUE(detail::vendor_matrix_candidates().empty());
  const auto& order = detail::gemm_candidates();
  std::vector<std::string> names;
  for (const detail::GemmCandidate* c : order) names.push_back(c->name());
  EXPECT_EQ(names, (Names{"thin", "wgmma", "mma", "tiled", "direct"}));
  test::expect_error(Status::NotFound, "candidates: thin, wgmma, mma, tiled, direct",
                     [] { detail::gemm_candidate("vendor_mm"); });
  // A device that reports both extensions: every candidate that applies to
  // an f16 product there is one that runs on any OpenCL device.
  Capabilities intel = test::nvidia_caps(Backend::OpenCL, 90);
  intel.vendor = "Intel(R) Corporation", intel.architecture = "intel-gpu";
  intel.extensions = "cl_khr_fp16 cl_khr_subgroups " + kIntel + " " + kArm;
  ASSERT_EQ(reported_matrix_extensions(intel.extensions).size(), 2u);
  detail::GemmProblem pr = test::dense_problem(DType::F16, 512, 512, 512);
  for (const detail::GemmCandidate* c : order)
    if (c->applies(pr, intel).empty())
      EXPECT_TRUE(c->name() == "tiled" || c->name() == "direct") << c->name();
}
