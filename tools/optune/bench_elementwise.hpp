// optune bench elementwise: relu, gelu, add, where and a cast from 2^10 to
// 2^28 elements, as GB/s (bytes read plus written) and as a fraction of the
// device's copy ceiling.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceilings.hpp"

namespace optune::tool {

struct ElementwiseBenchOptions {
  int runs = 0;
  int max_log2 = 0;  // 0: 28 on GPUs, 24 on CPUs (and what memory allows)
  int min_log2 = 10;
  std::vector<std::string> only;  // cases whose name contains one of these; empty: all
  bool quiet = false;
};

// The cases' names, for --only.
std::vector<std::string> elementwise_case_names();

nlohmann::json bench_elementwise(const Queue& q, const Ceilings& c, const ElementwiseBenchOptions& o);

}  // namespace optune::tool
