// A CUDA device that compiles nothing and runs nothing, for finding out which
// programs a real one would build: the cubin generator (tools/embed_cubins)
// and the tests use it with the capabilities of a device the build knows
// (cuda_caps.hpp). Everything above the backend runs as on the real device --
// validation, the database lookups and their trust checks, the families'
// fit, the text and options of each program through program.cpp's own
// assembly -- and each program the context is asked to build is recorded
// (text and options) instead of compiled. Memory holds nothing and reads as
// zeros; launches do nothing; events take no time. A cached or embedded
// binary "loads" as a program that records nothing.
//
// Its identity is the given device's with " (dry run)" after the driver
// version, so that its lookups, trust verdicts and cache-file rows are never
// taken for the real device's.
#pragma once

#include <string>
#include <vector>

#include "optune/runtime.hpp"

namespace optune::detail {

struct DryBuild {
  std::string text, options;
};

Device make_dry_cuda_device(Capabilities caps);
// What the device's contexts were asked to build, in order (each program
// once per context: the program cache asks only on a miss).
std::vector<DryBuild> dry_builds(const Device& dry);

}  // namespace optune::detail
