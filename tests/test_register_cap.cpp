// The register cap (REGS, kernels/descriptor.hpp): the option it becomes on
// NVIDIA's OpenCL and its candidates elsewhere (every build), the define it
// becomes on CUDA and what NVRTC makes of that for sm_90 (no driver needed;
// built with the CUDA back end only).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/descriptor.hpp"

using namespace optune;
using namespace optune::detail;

// On OpenCL the cap is NVIDIA's compiler option -cl-nv-maxrregcount, where
// the device lists cl_nv_compiler_options; elsewhere REGS has the one
// candidate 0 and adds no option. On CUDA the prelude reads the define.
TEST(RegisterCap, NvidiaOpenClTakesItAsAnOption) {
  Capabilities ocl;
  ocl.backend = Backend::OpenCL;
  ocl.extensions = "cl_khr_fp64 cl_khr_byte_addressable_store";
  const Defines capped{{"WGS", "64"}, {"OPTUNE_REG_CAP", "64"}};
  EXPECT_EQ(register_cap_parameter(ocl).values, std::vector<std::int64_t>{0});
  EXPECT_EQ(register_cap_options(ocl, capped), "");
  ocl.extensions = "cl_nv_compiler_options_more cl_khr_fp64";  // not the extension itself
  EXPECT_EQ(register_cap_parameter(ocl).values, std::vector<std::int64_t>{0});
  ocl.extensions = "cl_khr_fp64 cl_nv_compiler_options cl_nv_device_attribute_query";
  EXPECT_GT(register_cap_parameter(ocl).values.size(), 1u);
  EXPECT_EQ(register_cap_options(ocl, capped), " -cl-nv-maxrregcount=64");
  EXPECT_EQ(register_cap_options(ocl, {{"WGS", "64"}}), "");
  Capabilities cuda = ocl;
  cuda.backend = Backend::CUDA;
  EXPECT_GT(register_cap_parameter(cuda).values.size(), 1u);
  EXPECT_EQ(register_cap_options(cuda, capped), "");
}

#ifdef OPTUNE_WITH_CUDA

#include "kernels/families.hpp"
#include "support/nvrtc_support.hpp"

// REGS, a family's register cap: it reaches the program as OPTUNE_REG_CAP
// (nothing at 0) and NVRTC's PTX as the least number of resident groups
// (.minnctapersm: 65536 registers / (REGS x the group's work-items)); on other
// back ends its only candidate is 0.
TEST(RegisterCap, ReachesTheProgramAndNvrtc) {
  if (!nvrtc_available(nullptr)) GTEST_SKIP() << "NVRTC not loadable";
  const Capabilities caps = test::sm90_caps();
  const auto ptx_of = [&](const KernelSource& src) {
    const std::vector<std::uint8_t> bin = nvrtc_binary_text(src.label, src.text, src.defines, caps, "compute_90");
    return std::string(bin.begin(), bin.end());
  };
  const auto cap_define = [](const KernelSource& src) {
    for (const auto& [k, v] : src.defines)
      if (k == "OPTUNE_REG_CAP") return v;
    return std::string();
  };
  const auto& dw = families::conv_depthwise();
  ConvProblem pr = conv_kernels::make(DType::F32, 2, 16, 9, 12, 16, 3, 3, 1, 1, 16, true);
  pr.out_nhwc = true;
  for (std::int64_t regs : {0, 64}) {
    const Params p = dw.fit({{"WGS", 64}, {"REGS", regs}}, caps, pr);
    EXPECT_EQ(dw.check(p, caps, pr), "");
    const KernelSource src = dw.program(p, pr);
    EXPECT_EQ(cap_define(src), regs ? "64" : "");
    EXPECT_EQ(ptx_of(src).find(".minnctapersm 16") != std::string::npos, regs > 0) << "conv_depthwise REGS " << regs;
  }
  const auto& thin = families::gemm_thin();
  const GemmProblem gp = thin.make_example(DType::F32, "m<=16/nk", caps);
  for (std::int64_t regs : {0, 128}) {
    const Params p = thin.fit({{"WGX", 16}, {"WGY", 8}, {"REGS", regs}}, caps, gp);
    EXPECT_EQ(thin.check(p, caps, gp), "");
    const KernelSource src = thin.program(p, gp);
    EXPECT_EQ(cap_define(src), regs ? "128" : "");
    EXPECT_EQ(ptx_of(src).find(".minnctapersm 4") != std::string::npos, regs > 0) << "gemm_thin REGS " << regs;
  }
  Capabilities ocl = caps;
  ocl.backend = Backend::OpenCL;
  EXPECT_EQ(register_cap_parameter(ocl).values, std::vector<std::int64_t>{0});
  EXPECT_GT(register_cap_parameter(caps).values.size(), 1u);
}

#else  // !OPTUNE_WITH_CUDA

TEST(RegisterCap, NotBuilt) { GTEST_SKIP() << "optune was built without the CUDA toolkit"; }

#endif
