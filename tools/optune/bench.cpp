// optune bench: the device's ceilings, then each operator as a fraction of them.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench_conv.hpp"
#include "bench_blas.hpp"
#include "bench_host_blas.hpp"
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
  std::string timing = "back-to-back";
  GemmBenchOptions gemm;
  ConvBenchOptions conv;
  bool host_interface = false;
  std::size_t blas_mib = 0;  // 0: the suite's own sizes
  HostBlasBenchOptions host;
};

bool wanted(const BenchOptions& o, const std::string& suite) {
  return o.suites.empty() || std::find(o.suites.begin(), o.suites.end(), suite) != o.suites.end() ||
         std::find(o.suites.begin(), o.suites.end(), "all") != o.suites.end();
}

// --only that selects nothing in the suites asked for is a mistake (a typo, a
// case of another suite): refuse it before measuring anything, naming the
// cases there are.
void check_only(const BenchOptions& o, const Capabilities& caps) {
  if (o.only.empty()) return;
  std::vector<std::pair<std::string, std::vector<std::string>>> suites;
  if (wanted(o, "elementwise")) suites.emplace_back("elementwise", elementwise_case_names());
  if (wanted(o, "reduce")) suites.emplace_back("reduce", reduce_case_names());
  if (wanted(o, "gemm")) suites.emplace_back("gemm", gemm_case_names(caps, o.gemm));
  if (wanted(o, "conv")) suites.emplace_back("conv", conv_case_names(caps, o.conv));
  if (wanted(o, "blas")) suites.emplace_back("blas", blas_case_names());
  if (wanted(o, "startup")) suites.emplace_back("startup", startup_case_names());
  std::vector<std::string> unmatched;
  for (const std::string& word : o.only) {
    bool found = false;
    for (const auto& [suite, names] : suites)
      for (const std::string& name : names) found = found || name.find(word) != std::string::npos;
    if (!found) unmatched.push_back("'" + word + "'");
  }
  if (unmatched.empty()) return;
  std::string msg = "--only " + unmatched.front();
  for (std::size_t i = 1; i < unmatched.size(); ++i) msg += ", " + unmatched[i];
  msg += " matches no case";
  if (suites.empty()) msg += " (the ceilings have no cases)";
  else msg += "; the cases (--only takes any part of a name):";
  for (const auto& [suite, names] : suites) {
    msg += "\n  " + suite + ":";
    for (std::size_t i = 0; i < names.size(); ++i) msg += (i ? ", " : " ") + names[i];
  }
  throw Error(Status::InvalidArgument, msg);
}

// A --json file that cannot be written is refused before anything is
// measured (the start-up suite alone runs `optune warm` and eight processes).
void check_json_path(const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec) || access(dir.c_str(), W_OK) != 0)
    throw Error(Status::IoError, "--json: cannot write " + path + ": " + dir.string() + " is not a writable folder");
}

void run_bench(const BenchOptions& o) {
  check_json_path(o.json_path);
  Device dev = pick_device(o.device);
  const Capabilities& caps = dev.caps();
  check_only(o, caps);
  Context ctx(dev);
  Queue q(ctx);
  std::printf("optune bench on %s  %s (%s, driver %s)\n", caps.spec.c_str(), caps.name.c_str(), caps.platform.c_str(),
              caps.driver_version.c_str());
  std::fflush(stdout);
  if (o.host_interface) {
    // liboptune_blas.so.3 on this device against the machine's other BLAS
    // libraries; no ceilings (the host's copies are part of what is timed).
    HostBlasBenchOptions ho = o.host;
    ho.device = caps.spec;
    ho.quiet = o.quiet;
    nlohmann::json r = bench_host_blas(ho);
    if (!o.json_path.empty()) {
      nlohmann::json j{{"tool", "optune bench blas --host-interface"}, {"date", iso_date()}, {"commit", git_commit()},
                       {"device", caps_to_json(caps)}, {"host_interface", r}};
      std::ofstream f(o.json_path);
      if (!f) throw Error(Status::IoError, "--json: cannot write " + o.json_path);
      f << j.dump(2) << "\n";
      std::printf("\nwrote %s\n", o.json_path.c_str());
    }
    return;
  }
  set_timing_mode(o.timing == "isolated" ? TimingMode::Isolated : TimingMode::BackToBack);
  std::printf("timing: %s (the median of each measurement's runs)\n", timing_mode_name(timing_mode()));
  CeilingOptions co;
  co.copy_bytes = o.copy_mib << 20;
  co.runs = o.runs;
  co.quiet = o.quiet;
  co.tensor = wanted(o, "gemm") || wanted(o, "ceilings");
  if (!wanted(o, "ceilings") && !o.gemm.dtypes.empty()) {
    // Only the tensor types the gemm rows report against.
    const char* tensor_names[3] = {"f16", "bf16", "tf32"};
    bool any = false;
    for (int i = 0; i < 3; ++i) {
      co.tensor_types[i] = std::find(o.gemm.dtypes.begin(), o.gemm.dtypes.end(), tensor_names[i]) != o.gemm.dtypes.end();
      any = any || co.tensor_types[i];
    }
    co.tensor = co.tensor && any;
  }
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
  const char* tensor_names[3] = {"tensor f16 (f32 accumulation)", "tensor bf16 (f32 accumulation)",
                                 "tensor tf32 (f32 accumulation)"};
  for (int i = 0; i < 3; ++i) {
    if (c.tensor_gflops[i] > 0)
      std::printf("%-34s %12.1f  GFLOP/s  (%s)\n", tensor_names[i], c.tensor_gflops[i], c.tensor_unit[i].c_str());
    else if (caps.backend == Backend::CUDA && caps.compute_capability_major >= 8 && co.tensor && co.tensor_types[i])
      std::printf("%-34s %12s  (not measured: see the detail's errors)\n", tensor_names[i], "-");
  }
  if (c.cache_bytes > 0)
    std::printf("%-34s %12.1f  MiB   (%s)\n", "device cache", double(c.cache_bytes) / (1 << 20), c.cache_source.c_str());
  if (!o.quiet && (wanted(o, "elementwise") || wanted(o, "reduce")) && !cache_note(c).empty())
    std::printf("\n%s\n", cache_note(c).c_str());
  nlohmann::json ops = nlohmann::json::object();
  if (wanted(o, "elementwise")) {
    ElementwiseBenchOptions eo;
    eo.runs = o.runs;
    eo.max_log2 = o.max_log2;
    eo.min_log2 = o.min_log2;
    eo.only = o.only;
    eo.quiet = o.quiet;
    ops["elementwise"] = bench_elementwise(q, c, eo);
  }
  if (wanted(o, "reduce")) ops["reduce"] = bench_reduce(q, c, o.runs, o.quiet, o.only);
  if (wanted(o, "gemm")) {
    GemmBenchOptions go = o.gemm;
    go.runs = o.runs;
    go.quiet = o.quiet;
    go.only = o.only;
    ops["gemm"] = bench_gemm(q, c, go);
  }
  if (wanted(o, "conv")) {
    ConvBenchOptions co2 = o.conv;
    co2.runs = o.runs;
    co2.quiet = o.quiet;
    co2.only = o.only;
    co2.reference = o.gemm.reference;
    ops["conv"] = bench_conv(q, c, co2);
  }
  if (wanted(o, "blas")) ops["blas"] = bench_blas(q, c, o.runs, o.quiet, o.gemm.reference, o.only, o.blas_mib);
  if (wanted(o, "startup")) {
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
        {"timing", timing_mode_name(timing_mode())},
        {"device", caps_to_json(caps)},
        {"ceilings",
         {{"copy_gbs", c.copy_gbs},
          {"backend_copy_gbs", c.backend_copy_gbs},
          {"kernel_copy_gbs", c.kernel_copy_gbs},
          {"kernel_vs_backend_copy", c.backend_copy_gbs > 0 ? c.kernel_copy_gbs / c.backend_copy_gbs : 0.0},
          {"fma_f32_gflops", c.fma_gflops[0]},
          {"fma_f16_gflops", c.fma_gflops[1]},
          {"fma_f64_gflops", c.fma_gflops[2]},
          {"tensor_f16_gflops", c.tensor_gflops[0]},
          {"tensor_bf16_gflops", c.tensor_gflops[1]},
          {"tensor_tf32_gflops", c.tensor_gflops[2]},
          {"tensor_units", {c.tensor_unit[0], c.tensor_unit[1], c.tensor_unit[2]}},
          {"cache_bytes", c.cache_bytes},
          {"cache_source", c.cache_source},
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
                  "What to measure besides the ceilings: elementwise, reduce, gemm, conv, blas, startup, all (default: all)")
      ->check(CLI::IsMember({"ceilings", "elementwise", "reduce", "gemm", "conv", "blas", "startup", "all"}));
  // Options that one suite reads name it; the old spellings stay accepted,
  // hidden (group ""), for scripts.
  for (const bool hidden : {false, true}) {
    cmd->add_option(hidden ? "--max-log2" : "--elementwise-max-log2", o->max_log2,
                    "elementwise: largest size as a power of two (default: 28 on GPUs, 24 on CPUs)")
        ->check(CLI::Range(10, 30))
        ->group(hidden ? "" : "Options");
    cmd->add_option(hidden ? "--min-log2" : "--elementwise-min-log2", o->min_log2,
                    "elementwise: smallest size as a power of two (default: 10)")
        ->check(CLI::Range(0, 30))
        ->group(hidden ? "" : "Options");
    cmd->add_flag(hidden ? "--quick" : "--gemm-quick", o->gemm.quick,
                  "gemm: only the targets' cases (f32 squares 1024, 4096, 8192 and 4096 x 64^3; 512 and 256 x 32^3 "
                  "on CPUs)")
        ->group(hidden ? "" : "Options");
  }
  cmd->add_flag("--conv-quick", o->conv.quick, "conv: f32 only (the six cases' f32 rows, both layouts)");
  cmd->add_option("--conv-cases", o->conv.groups,
                  "conv: which groups, e.g. issue,mobilenet,resnet (default: issue, the issue's table)")
      ->delimiter(',')
      ->check(CLI::IsMember({"issue", "mobilenet", "resnet"}));
  cmd->add_option("--only", o->only, "Only the cases whose name contains one of these, in every suite (e.g. gelu,row-sum); "
                  "one that matches no case is an error")
      ->delimiter(',');
  cmd->add_option("--device", o->device, "opencl:P:D, cuda:N, gpu or cpu (default: OPTUNE_DEVICE, else first GPU)");
  cmd->add_option("--json", o->json_path, "Write the results as JSON to this file");
  cmd->add_option("--runs", o->runs, "Timed runs per measurement (median reported)")->check(CLI::Range(1, 1000));
  cmd->add_option("--copy-mib", o->copy_mib, "Copy buffer size in MiB (default: 64 on CPUs, 1024 on GPUs)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_flag("--quiet", o->quiet, "Print only the summary table");
  cmd->add_option("--timing", o->timing,
                  "back-to-back (default): each measurement's runs enqueued together, every run timed from the end "
                  "of the one before; isolated: each run waited for before the next, so that on CUDA its time also "
                  "holds the host's launch latency")
      ->check(CLI::IsMember({"back-to-back", "isolated"}));
  cmd->add_option("--gemm-sizes", o->gemm.sizes, "gemm: the square sizes to run, e.g. 4096,8192")
      ->delimiter(',')
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--gemm-cases", o->gemm.groups, "gemm: which groups, e.g. square,batched (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"square", "transpose", "inference", "thin", "batched"}));
  cmd->add_option("--gemm-product", o->gemm.product,
                  "gemm: products M,N,K (several: M,N,K,M,N,K...) instead of the groups, row-major, NN unless --gemm-trans")
      ->delimiter(',')
      ->expected(3, 3 * 64)
      ->check(CLI::Range(std::int64_t(1), std::int64_t(1) << 20));
  cmd->add_option("--gemm-trans", o->gemm.trans,
                  "gemm: the --gemm-product products' transposes, A then B: one pair for all, or one per product "
                  "(default NN; nt is NT)")
      ->delimiter(',')
      ->transform(CLI::IsMember({"NN", "NT", "TN", "TT"}, CLI::ignore_case));
  cmd->add_option("--gemm-types", o->gemm.dtypes, "gemm: which types, e.g. f32 (default: all the device supports; tf32: f32 with GemmCompute::FastTF32, CUDA sm_80+)")
      ->delimiter(',')
      ->check(CLI::IsMember({"f32", "f16", "f64", "bf16", "tf32"}));
  cmd->add_flag("--host-interface", o->host_interface,
                "blas: time SGEMM, DGEMM, SGEMV and SAXPY per call through liboptune_blas.so.3 (host memory, copies included) "
                "from 16 to 4096 against Debian's reference BLAS and OpenBLAS where installed; runs nothing else");
  cmd->add_option("--host-library", o->host.library,
                  "blas --host-interface: the liboptune_blas.so.3 to load (default: blas/ beside the tool, else by name)");
  cmd->add_option("--host-blas", o->host.others, "blas --host-interface: more libraries to compare, NAME=PATH")
      ->delimiter(',');
  cmd->add_option("--blas-mib", o->blas_mib,
                  "blas: level 1's vectors and level 2's matrices of this many MiB (default: 256 on GPUs, 16 on CPUs)")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--host-max-n", o->host.max_n, "blas --host-interface: the largest n (default 4096)")
      ->check(CLI::Range(16, 16384));
  cmd->add_option("--host-db", o->host.db_file,
                  "blas --host-interface: write the measured thresholds (in-thread against the CPU device; GPU against PoCL) as host_blas database "
                  "entries to this file, for optune db import");
  cmd->add_flag("!--no-reference", o->gemm.reference, "gemm, blas, conv: skip the reference library (CLBlast, cuBLAS; cuDNN)");
  cmd->callback([o] {
    if (o->host_interface && !(o->suites.size() == 1 && o->suites[0] == "blas"))
      throw CLI::ValidationError("--host-interface", "goes with the blas suite alone: optune bench blas --host-interface");
    run_bench(*o);
  });
  add_first_call_command(app);
}

}  // namespace optune::tool
