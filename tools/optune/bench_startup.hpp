// optune bench startup: what the first call of an operator costs in a fresh
// process. Each case (gelu f32 on 2^20 elements, softmax 512 x 768, row-sum
// 512 x 768, SGEMM 256^3) runs twice in a child process of the tool itself
// (the hidden subcommand bench-first-call, on the parent's exact device):
//   cold  a new, empty OPTUNE_CACHE_DIR, and the drivers' caches that an
//         environment variable can move (POCL_CACHE_DIR, CUDA_CACHE_PATH,
//         MESA_SHADER_CACHE_DIR) in new, empty folders;
//   warm  the same folders again, as the cold child left them.
// The child reports, in ms of host wall time: the device (enumeration,
// context, queue), the inputs' allocation and upload, the first call from
// just before it to its completion (database lookup, trust checks, program
// compile or cache-file load, the kernels), and a second call for scale; and
// how the first call got its programs (compiled, loaded from the cache file)
// and its trust verdicts (checked, read from the cache file).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "optune/runtime.hpp"

namespace optune::tool {

struct StartupBenchOptions {
  std::vector<std::string> only;  // cases whose name contains one of these; empty: all
  bool quiet = false;
};

// The cases' names, for --only.
std::vector<std::string> startup_case_names();

// Runs the children for each case on dev; the rows for operators.startup.
nlohmann::json bench_startup(const Device& dev, const StartupBenchOptions& o);

// Registers the hidden child subcommand: bench-first-call --case ID --device SPEC.
void add_first_call_command(CLI::App& app);

}  // namespace optune::tool
