// optune bench reduce: the reductions, softmax and layer_norm on the shapes
// of issue 7 (f32): row-sum 262144 x 1024, column-sum 1024 x 262144, softmax
// and layer_norm 262144 x 1024 as GB/s (bytes read plus written) and as a
// fraction of the copy ceiling, and the 512 x 768 row-mean's time in us.
// CPU devices run the large shapes with 64 times fewer rows (or columns).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceilings.hpp"

namespace optune::tool {

// The cases' names, for --only.
std::vector<std::string> reduce_case_names();

// runs <= 0 picks by device type (20 on GPUs, 5 on CPUs).
// only: cases whose name contains one of these (empty: all).
nlohmann::json bench_reduce(const Queue& q, const Ceilings& c, int runs, bool quiet,
                            const std::vector<std::string>& only = {});

}  // namespace optune::tool
