// optune warm [--device D] [--only FAMILIES] [--json FILE]: compiles every
// kernel the database would choose on the device into the cache file and
// settles its trust checks, with a progress bar on stderr. The step a user
// runs once at install time or in a container build; later processes load
// the binaries instead of compiling.
#include <cstdio>
#include <fstream>

#include "commands.hpp"
#include "common.hpp"
#include "optune/warm.hpp"

namespace optune::tool {

namespace {

struct WarmOptions {
  std::string device;
  std::vector<std::string> only;
  std::string json;
  bool quiet = false;
};

void bar(std::size_t done, std::size_t total, const std::string& what) {
  constexpr int kWidth = 30;
  const int filled = total ? int(kWidth * done / total) : kWidth;
  std::fprintf(stderr, "\r[%.*s%.*s] %zu/%zu %-48.48s", filled, "##############################", kWidth - filled,
               "                              ", done, total, what.c_str());
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

void run(const WarmOptions& o) {
  const Device dev = pick_device(o.device);
  const Queue q{Context(dev)};
  std::printf("optune warm on %s  %s\n", dev.caps().spec.c_str(), dev.name().c_str());
  const WarmReport r = warm(q, o.only, o.quiet ? std::function<void(std::size_t, std::size_t, const std::string&)>{}
                                               : bar);
  std::printf("%zu variants (%zu failed), %llu programs compiled, %llu loaded from the cache file, "
              "%llu from the embedded cubins, %llu trust checks, %.1f s\n",
              r.items, r.failed, static_cast<unsigned long long>(r.compiled),
              static_cast<unsigned long long>(r.loaded), static_cast<unsigned long long>(r.embedded),
              static_cast<unsigned long long>(r.trust_checks), r.seconds);
  if (!o.json.empty()) {
    std::ofstream out(o.json);
    out << nlohmann::json{{"device", dev.caps().spec},      {"name", dev.name()},       {"variants", r.items},
                          {"failed", r.failed},             {"compiled", r.compiled},   {"loaded", r.loaded}, {"embedded", r.embedded},
                          {"trust_checks", r.trust_checks}, {"seconds", r.seconds},     {"date", iso_date()},
                          {"commit", git_commit()}}
               .dump(2)
        << "\n";
    if (!out) throw Error(Status::IoError, "optune warm: cannot write " + o.json);
  }
  if (r.failed) throw Error(Status::BuildFailure, std::to_string(r.failed) + " variants failed (see the warnings)");
}

}  // namespace

void add_warm_command(CLI::App& app) {
  auto o = std::make_shared<WarmOptions>();
  auto* cmd = app.add_subcommand("warm", "Compile every kernel the database would choose into the cache file");
  cmd->add_option("--device", o->device, "opencl:P:D, cuda:N, gpu or cpu (default: OPTUNE_DEVICE, else the rule)");
  cmd->add_option("--only", o->only,
                  "families, comma-separated: elementwise, reduce_rows, reduce_cols, norm_rows, softmax_cols, gemm, blas1")
      ->delimiter(',');
  cmd->add_option("--json", o->json, "write the counts as JSON");
  cmd->add_flag("--quiet", o->quiet, "no progress bar");
  cmd->callback([o] { run(*o); });
}

}  // namespace optune::tool
