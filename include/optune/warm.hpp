// Warming: compile, into the cache file, every program the operators would
// use on a device under the database's choices, and settle the trust checks
// of the entries they use, so that a later process's first calls load
// binaries instead of compiling (what `optune warm` runs once at install
// time or in a container build).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "optune/runtime.hpp"

namespace optune {

struct WarmReport {
  std::size_t items = 0;              // operator variants visited
  std::size_t failed = 0;             // variants that could not be prepared (see log)
  std::uint64_t compiled = 0;         // programs built from source
  std::uint64_t loaded = 0;           // programs found in the cache file
  std::uint64_t embedded = 0;         // programs loaded from the cubins embedded at build time (CUDA)
  std::uint64_t trust_checks = 0;     // database entries checked against the defaults
  double seconds = 0;
};

// Families to warm: empty for all of elementwise, reduce_rows, reduce_cols,
// norm_rows, softmax_cols, gemm (its candidates' families) and blas1. `progress`
// is called after each variant with (done, total, what).
WarmReport warm(const Queue& queue, const std::vector<std::string>& families = {},
                const std::function<void(std::size_t, std::size_t, const std::string&)>& progress = {});

}  // namespace optune
