// optune bench: the device's ceilings, then each operator as a fraction of them.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "bench_elementwise.hpp"
#include "bench_gemm.hpp"
#include "bench_reduce.hpp"
#include "bench_startup.hpp"
#include "ceilings.hpp"
#include "commands.hpp"

namespace optune::tool {

namespace {

struct BenchOptions {
  std::vector<std::string> suites;  // empty: all
  std::string device;
  std::string json_path;
  int runs = 0;
  std::size_t copy_mib = 0;
  int max_log2 = 0, min_log2 = 10;
  std::vector<std::string> only;
  bool quiet = false;
  GemmBenchOptions gemm;
};

void run_bench(const BenchOptions& o) {
  Device dev = pick_device(o.device);
  const Capabilities& caps = dev.caps();
  Context ctx(dev);
  Queue q(ctx);
  std::printf("optune bench on %s  %s (%s, driver %s)\n", caps.spec.c_str(), caps.name.c_str(), caps.platform.c_str(),
              caps.driver_version.c_str());
  std::fflush(stdout);
  CeilingOptions co;
  co.copy_bytes = o.copy_mib << 20;
  co.runs = o.runs;
  co.quiet = o.quiet;
  Ceilings c = measure_ceilings(q, co);

  std::printf("\n%-34s %12s  %s\n", "ceiling", "value", "unit");
  std::printf("%-34s %12.1f  GB/s\n", (std::string(backend_name(caps.backend)) + " device-to-device copy").c_str(),
              c.backend_copy_gbs);
  std::printf("%-34s %12.1f  GB/s  (%.1f%% of the device copy)\n", "optune copy kernel (best)", c.kernel_copy_gbs,
              c.backend_copy_gbs > 0 ? 100.0 * c.kernel_copy_gbs / c.backend_copy_gbs : 0.0);
  std::printf("%-34s %12.1f  GB/s  (bytes read + written)\n", "copy ceiling", c.copy_gbs);
  const char* names[3] = {"fma f32", "fma f16", "fma f64"};
  for (int i = 0; i < 3; ++i) {
    if (c.fma_gflops[i] > 0)
      std::printf("%-34s %12.1f  GFLOP/s\n", names[i], c.fma_gflops[i]);
    else
      std::printf("%-34s %12s  (not supported by the device)\n", names[i], "-");
  }

  auto wanted = [&](const std::string& s) {
    return o.suites.empty() || std::find(o.suites.begin(), o.suites.end(), s) != o.suites.end() ||
           std::find(o.suites.begin(), o.suites.end(), "all") != o.suites.end();
  };
  nlohmann::json ops = nlohmann::json::object();
  if (wanted("elementwise")) {
    ElementwiseBenchOptions eo;
    eo.runs = o.runs;
    eo.max_log2 = o.max_log2;
    eo.min_log2 = o.min_log2;
    eo.only = o.only;
    eo.quiet = o.quiet;
    ops["elementwise"] = bench_elementwise(q, c, eo);
  }
  if (wanted("reduce")) ops["reduce"] = bench_reduce(q, c, o.runs, o.quiet, o.only);
  if (wanted("gemm")) {
    GemmBenchOptions go = o.gemm;
    go.runs = o.runs;
    go.quiet = o.quiet;
    go.only = o.only;
    ops["gemm"] = bench_gemm(q, c, go);
  }
  if (wanted("startup")) {
    StartupBenchOptions so;
    so.only = o.only;
    so.quiet = o.quiet;
    ops["startup"] = bench_startup(dev, so);
  }

  if (!o.json_path.empty()) {
    nlohmann::json j{
        {"tool", "optune bench"},
        {"date", iso_date()},
        {"commit", git_commit()},
        {"device", caps_to_json(caps)},
        {"ceilings",
         {{"copy_gbs", c.copy_gbs},
          {"backend_copy_gbs", c.backend_copy_gbs},
          {"kernel_copy_gbs", c.kernel_copy_gbs},
          {"kernel_vs_backend_copy", c.backend_copy_gbs > 0 ? c.kernel_copy_gbs / c.backend_copy_gbs : 0.0},
          {"fma_f32_gflops", c.fma_gflops[0]},
          {"fma_f16_gflops", c.fma_gflops[1]},
          {"fma_f64_gflops", c.fma_gflops[2]},
          {"detail", c.detail}}},
        {"operators", ops},
    };
    std::ofstream f(o.json_path);
    if (!f) throw Error(Status::IoError, "--json: cannot write " + o.json_path);
    f << j.dump(2) << "\n";
    std::printf("\nwrote %s\n", o.json_path.c_str());
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* o = new BenchOptions();
  auto* cmd = app.add_subcommand("bench", "Measure the device's ceilings and the operators against them");
  cmd->add_option("suites", o->suites,
                  "What to measure besides the ceilings: elementwise, reduce, gemm, startup, all (default: all)")
      ->check(CLI::IsMember({"ceilings", "elementwise", "reduce", "gemm", "startup", "all"}));
  cmd->add_option("--max-log2", o->max_log2, "Largest operator size as a power of two (default: 28 on GPUs, 24 on CPUs)")
      ->check(CLI::Range(10, 30));
  cmd->add_option("--min-log2", o->min_log2, "Smallest operator size as a power of two (default: 10)")
      ->check(CLI::Range(0, 30));
  cmd->add_option("--only", o->only, "Only the cases whose name contains one of these (e.g. gelu,row-sum)")
      ->delimiter(',');
  cmd->add_option("--device", o->device, "opencl:P:D, cuda:N, gpu or cpu (default: OPTUNE_DEVICE, else first GPU)");
  cmd->add_option("--json", o->json_path, "Write the results as JSON to this file");
  cmd->add_option("--runs", o->runs, "Timed runs per measurement (median reported)")->check(CLI::Range(1, 1000));
  cmd->add_option("--copy-mib", o->copy_mib, "Copy buffer size in MiB (default: 64 on CPUs, 1024 on GPUs)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_flag("--quiet", o->quiet, "Print only the summary table");
  cmd->add_flag("--quick", o->gemm.quick,
                "gemm: only the targets' cases (f32 squares 1024, 4096, 8192 and 4096 x 64^3; 512 and 256 x 32^3 on CPUs)");
  cmd->add_option("--gemm-sizes", o->gemm.sizes, "gemm: the square sizes to run, e.g. 4096,8192")
      ->delimiter(',')
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--gemm-cases", o->gemm.groups, "gemm: which groups, e.g. square,batched (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"square", "transpose", "inference", "batched"}));
  cmd->add_option("--gemm-types", o->gemm.dtypes, "gemm: which types, e.g. f32 (default: all the device supports)")
      ->delimiter(',')
      ->check(CLI::IsMember({"f32", "f16", "f64"}));
  cmd->add_flag("!--no-reference", o->gemm.reference, "gemm: skip the reference library (CLBlast, cuBLAS)");
  cmd->callback([o] { run_bench(*o); });
  add_first_call_command(app);
}

}  // namespace optune::tool
