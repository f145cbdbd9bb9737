// optune bench conv: optune::conv2d on the cases of issue 19's table, each in
// NCHW and NHWC (input and output alike), f32 and f16 (where the device
// stores f16):
//   depthwise 3x3, 8 x 256 x 112 x 112, pad 1     GB/s against the copy ceiling
//   conv 3x3, 32 x 64 x 56 x 56 -> 64, pad 1       TFLOP/s against the FMA ceiling
//   conv 1x1, 32 x 256 x 56 x 56 -> 64             TFLOP/s against the FMA ceiling
// with the candidate the routine chose and its parameters, and a check of
// 512 sampled outputs against a double-precision sum on the host. CPU
// devices run the same cases scaled down (batch 1, 28 x 28 or 56 x 56), and
// --conv-quick keeps f32 alone. --conv-cases adds the distinct layers of
// MobileNetV2 (batch 1 and 8; CPUs 1) and ResNet-50 (batch 32; CPUs 1), each
// reported against the FMA ceiling (depthwise ones against the copy
// ceiling). On CUDA each case also runs through cuDNN where it is installed
// (loaded at run time, reference/reference_conv.hpp: the same layout, its
// algorithm search), reported as its time over optune's; OpenCL has no
// reference yet (CLBlast's convgemm: docs/DESIGN.md section 12).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceilings.hpp"

namespace optune::tool {

struct ConvBenchOptions {
  int runs = 0;                   // 0: 5 on CPUs, 20 on GPUs
  bool quick = false;             // --conv-quick: f32 only
  std::vector<std::string> groups;  // --conv-cases: issue, mobilenet, resnet (empty: issue)
  std::vector<std::string> only;  // --only: cases whose name ("dw3x3 nchw f32") contains one
  bool quiet = false;
  bool reference = true;          // cuDNN on CUDA where installed (--no-reference: off)
};

// The cases' names on this device, for --only.
std::vector<std::string> conv_case_names(const Capabilities& caps, const ConvBenchOptions& o);

nlohmann::json bench_conv(const Queue& q, const Ceilings& c, const ConvBenchOptions& o);

}  // namespace optune::tool
