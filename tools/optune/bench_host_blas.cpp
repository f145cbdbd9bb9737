#include "bench_host_blas.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>

#include <fstream>

#include "database/format.hpp"
#include "optune/error.hpp"
#include "common.hpp"
#include "kernels/blas/host_blas.hpp"

namespace optune::tool {

namespace {

using sgemm_t = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                         const int*, const float*, const int*, const float*, float*, const int*, std::size_t,
                         std::size_t);
using dgemm_t = void (*)(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                         const int*, const double*, const int*, const double*, double*, const int*, std::size_t,
                         std::size_t);
using saxpy_t = void (*)(const int*, const float*, const float*, const int*, float*, const int*);
using sgemv_t = void (*)(const char*, const int*, const int*, const float*, const float*, const int*, const float*,
                         const int*, const float*, float*, const int*, std::size_t);
using threshold_t = int (*)(double);

struct Library {
  std::string name, path;
  sgemm_t sgemm = nullptr;
  dgemm_t dgemm = nullptr;
  saxpy_t saxpy = nullptr;
  sgemv_t sgemv = nullptr;
  threshold_t threshold = nullptr;         // optune's only
  threshold_t thread_threshold = nullptr;  // optune's only
};

std::optional<Library> open_library(const std::string& name, const std::string& path, bool quiet) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    if (!quiet) std::printf("%-10s not loaded: %s\n", name.c_str(), dlerror());
    return std::nullopt;
  }
  Library l{name, path};
  l.sgemm = reinterpret_cast<sgemm_t>(dlsym(h, "sgemm_"));
  l.dgemm = reinterpret_cast<dgemm_t>(dlsym(h, "dgemm_"));
  l.saxpy = reinterpret_cast<saxpy_t>(dlsym(h, "saxpy_"));
  l.sgemv = reinterpret_cast<sgemv_t>(dlsym(h, "sgemv_"));
  l.threshold = reinterpret_cast<threshold_t>(dlsym(h, "optune_host_blas_set_threshold"));
  l.thread_threshold = reinterpret_cast<threshold_t>(dlsym(h, "optune_host_blas_set_thread_threshold"));
  if (!l.sgemm || !l.dgemm || !l.saxpy || !l.sgemv) {
    if (!quiet) std::printf("%-10s %s lacks sgemm_, dgemm_, sgemv_ or saxpy_: left out\n", name.c_str(), path.c_str());
    return std::nullopt;
  }
  return l;
}

// liboptune_blas.so.3 beside the tool (the build tree's blas/), else the
// installed one by name.
std::string optune_library_path() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = exe.parent_path() / "blas" / "liboptune_blas.so.3";
    if (std::filesystem::exists(beside)) return beside.string();
  }
  return "liboptune_blas.so.3";
}

// The median seconds per call of fn: one warm-up call, then calls until about
// a quarter second has passed (at least 3, at most 200).
template <class Fn>
double seconds_per_call(Fn&& fn) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  fn();
  const double first = std::chrono::duration<double>(clock::now() - t0).count();
  const int runs = std::clamp(int(0.25 / std::max(first, 1e-6)), 3, 200);
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto a = clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(clock::now() - a).count());
  }
  std::nth_element(t.begin(), t.begin() + runs / 2, t.end());
  return t[std::size_t(runs / 2)];
}

struct Row {
  std::string routine, library;
  int n = 0;
  double seconds = 0, gflops = 0, max_rel_diff = -1;
};

}  // namespace

nlohmann::json bench_host_blas(const HostBlasBenchOptions& o) {
  if (!o.device.empty()) setenv("OPTUNE_DEVICE", o.device.c_str(), 1);
  std::vector<Library> libs;
  const std::string ours = o.library.empty() ? optune_library_path() : o.library;
  auto optune_lib = open_library("optune", ours, o.quiet);
  if (!optune_lib || !optune_lib->threshold || !optune_lib->thread_threshold)
    throw Error(Status::NotFound, "bench --host-interface: cannot load liboptune_blas.so.3 from " + ours +
                                      " (build the optune_blas target, or name it with --host-library)");
  // optune runs with its thresholds (optune), every call in the caller's
  // thread (optune-thread) and every call on the device that small calls
  // would otherwise take: the CPU device where small calls have a device of
  // their own (optune-cpu, and every call on the default device:
  // optune-gpu), else the default device (optune-device).
  const int split = optune_lib->threshold(-1);
  if (split < 0) throw Error(Status::Unsupported, "bench --host-interface: liboptune_blas.so.3 found no device");
  struct Mode {
    std::string name;
    double threshold, thread_threshold;
  };
  const std::string small_device = split ? "optune-cpu" : "optune-device";
  std::vector<Mode> modes{{"optune", -1, -1}, {"optune-thread", -1, 1e300}, {small_device, 1e300, 0}};
  if (split) modes.push_back({"optune-gpu", 0, 0});
  const std::vector<std::pair<std::string, std::string>> candidates = {
      {"reference", "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"},
      {"openblas", "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3"},
      {"openblas", "/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3"},
      {"openblas", "/usr/lib/x86_64-linux-gnu/openblas-serial/libblas.so.3"}};
  std::vector<std::string> seen;
  for (const auto& [name, path] : candidates) {
    if (std::find(seen.begin(), seen.end(), name) != seen.end() || !std::filesystem::exists(path)) continue;
    if (auto l = open_library(name, path, o.quiet)) {
      libs.push_back(*l);
      seen.push_back(name);
    }
  }
  for (const std::string& spec : o.others) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(Status::InvalidArgument, "--host-blas: expected NAME=PATH, got '" + spec + "'");
    if (auto l = open_library(spec.substr(0, eq), spec.substr(eq + 1), o.quiet)) libs.push_back(*l);
  }

  std::mt19937 gen(5);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<Row> rows;
  std::printf("\n%-6s %6s  %-12s %14s %12s %14s\n", "BLAS", "n", "library", "us/call", "GFLOP/s", "max rel diff");
  // A library (or mode) whose call took over 1 s is not run at the next size
  // (8x the work).
  std::vector<std::string> too_slow;
  const std::vector<std::string> routines{"sgemm", "dgemm", "sgemv", "saxpy"};
  for (const std::string& routine : routines) {
    for (int n = 16; n <= o.max_n; n *= 2) {
      const std::size_t nn = std::size_t(n) * std::size_t(n);
      std::vector<float> a(nn), b(nn), c(nn);
      for (auto& v : a) v = dist(gen);
      for (auto& v : b) v = dist(gen);
      std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end()), cd(nn);
      std::vector<float> first_c;
      std::vector<double> first_cd;
      const double flops = routine == "saxpy" || routine == "sgemv" ? 2.0 * double(nn) : 2.0 * double(n) * n * n;
      const auto run_one = [&](const Library& l, const std::string& label) {
        if (std::find(too_slow.begin(), too_slow.end(), routine + label) != too_slow.end()) return;
        const float one = 1, zero = 0, half = 0.5f;
        const double oned = 1, zerod = 0;
        const int nn_i = int(nn), inc = 1;
        std::fill(c.begin(), c.end(), 0.0f);
        const double s = seconds_per_call([&] {
          if (routine == "sgemm") l.sgemm("N", "N", &n, &n, &n, &one, a.data(), &n, b.data(), &n, &zero, c.data(), &n, 1, 1);
          else if (routine == "dgemm")
            l.dgemm("N", "N", &n, &n, &n, &oned, ad.data(), &n, bd.data(), &n, &zerod, cd.data(), &n, 1, 1);
          else if (routine == "sgemv")
            l.sgemv("N", &n, &n, &one, a.data(), &n, b.data(), &inc, &zero, c.data(), &inc, 1);
          else l.saxpy(&nn_i, &half, a.data(), &inc, c.data(), &inc);
        });
        // The results of the first library run are the others' yardstick
        // (saxpy accumulates over the runs, so it is not compared).
        Row r{routine, label, n, s, flops / s / 1e9, -1};
        if (routine != "saxpy") {
          double diff = 0, scale = 0;
          const std::size_t count = routine == "sgemv" ? std::size_t(n) : nn;
          if (routine != "dgemm" && first_c.empty()) first_c = c;
          else if (routine == "dgemm" && first_cd.empty()) first_cd = cd;
          for (std::size_t i = 0; i < count; ++i) {
            const bool f64 = routine == "dgemm";
            const double got = f64 ? cd[i] : c[i], want = f64 ? first_cd[i] : first_c[i];
            diff = std::max(diff, std::abs(got - want));
            scale = std::max(scale, std::abs(want));
          }
          r.max_rel_diff = scale > 0 ? diff / scale : diff;
        }
        rows.push_back(r);
        std::printf("%-6s %6d  %-12s %14.1f %12.2f %14.2e\n", routine.c_str(), n, label.c_str(), s * 1e6, r.gflops,
                    r.max_rel_diff);
        std::fflush(stdout);
        if (s > 1.0) too_slow.push_back(routine + label);
      };
      for (const Mode& m : modes) {
        optune_lib->threshold(m.threshold);
        optune_lib->thread_threshold(m.thread_threshold);
        run_one(*optune_lib, m.name);
      }
      optune_lib->threshold(-1);
      optune_lib->thread_threshold(-1);
      for (const Library& l : libs) run_one(l, l.name);
    }
  }

  // A crossover: the smallest n from which every larger n ran faster in the
  // modes `bigs` (the fastest of them) than in mode `small`; its work,
  // rounded down to a power of two, is the threshold of the routine's class
  // (a call of that n leaves `small`, one of n / 2 stays). Where `small` was
  // never beaten, every size measured stays with it.
  const auto crossover = [&](const std::string& routine, const std::string& small,
                             const std::vector<std::string>& bigs) {
    const std::string big = bigs.size() == 1 ? bigs[0] : "the devices";
    int from = 0;
    for (int n = o.max_n; n >= 16; n /= 2) {
      double t_big = 0, t_small = 0;
      for (const Row& r : rows) {
        if (r.routine != routine || r.n != n) continue;
        if (std::find(bigs.begin(), bigs.end(), r.library) != bigs.end())
          t_big = t_big > 0 ? std::min(t_big, r.seconds) : r.seconds;
        if (r.library == small) t_small = r.seconds;
      }
      // A mode left out at this n was too slow at the size below.
      if (t_big > 0 && (t_small == 0 || t_big < t_small)) from = n;
      else break;
    }
    const auto work = [&](double n) { return routine == "saxpy" || routine == "sgemv" ? n * n : n * n * n; };
    const std::int64_t log2 =
        std::min<std::int64_t>(40, std::int64_t(std::floor(std::log2(from ? work(from) : 2 * work(o.max_n)))));
    if (from) std::printf("%s: %s is faster than %s from n = %d: threshold 2^%lld\n", routine.c_str(), big.c_str(),
                          small.c_str(), from, (long long)log2);
    else std::printf("%s: %s was faster than %s at every n: threshold 2^%lld\n", routine.c_str(), small.c_str(),
                     big.c_str(), (long long)log2);
    return nlohmann::json{{"from_n", from}, {"threshold_log2", log2}};
  };
  // The parameter of each routine's class (saxpy and sgemv stand for their
  // level in both real types).
  const std::map<std::string, std::string> level_of{{"sgemm", "L3"}, {"dgemm", "L3"}, {"sgemv", "L2"}, {"saxpy", "L1"}};
  const auto dtypes_of = [](const std::string& routine) {
    return routine == "sgemm"   ? std::vector<std::string>{"f32"}
           : routine == "dgemm" ? std::vector<std::string>{"f64"}
                                : std::vector<std::string>{"f32", "f64"};
  };
  std::printf("\n");
  nlohmann::json crossovers = nlohmann::json::object();
  const Device dev = o.device.empty() ? default_device() : select_device(o.device);
  const Capabilities& caps = dev.caps();
  std::map<std::string, detail::Params> params;  // by dtype: start from the family's defaults
  for (const std::string dtype : {"f32", "f64"}) params[dtype] = detail::families::host_blas().defaults(caps);
  for (const std::string& routine : routines) {
    // In the caller's thread against the device calls would take otherwise
    // (either one, where there are two).
    const nlohmann::json t = crossover(routine, "optune-thread",
                                       split ? std::vector<std::string>{"optune-cpu", "optune-gpu"}
                                             : std::vector<std::string>{small_device});
    crossovers[routine]["thread"] = t;
    for (const std::string& dt : dtypes_of(routine)) params[dt][level_of.at(routine) + "_THREAD_LOG2"] = t["threshold_log2"];
    if (split) {
      // The CPU device against the default device (copies included).
      const nlohmann::json d = crossover(routine, "optune-cpu", {"optune-gpu"});
      crossovers[routine]["device"] = d;
      for (const std::string& dt : dtypes_of(routine)) params[dt][level_of.at(routine) + "_LOG2"] = d["threshold_log2"];
    }
  }
  if (!o.db_file.empty()) {
    std::vector<detail::DbEntry> entries;
    for (const auto& [dtype, p] : params) {
      detail::DbEntry e;
      e.family = "host_blas";
      e.dtype = dtype;
      e.bucket = "all";
      e.params = p;
      entries.push_back(e);
    }
    const nlohmann::json tuned{{"date", iso_date()}, {"commit", git_commit()},
                               {"tool", "optune bench blas --host-interface"}};
    std::ofstream f(o.db_file);
    if (!(f << detail::database_json(caps, entries, tuned.dump())))
      throw Error(Status::IoError, "--host-db: cannot write " + o.db_file);
    std::printf("wrote the thresholds to %s (optune db import %s)%s\n", o.db_file.c_str(), o.db_file.c_str(),
                split ? "" : "; the CPU device is the default one here, so L1_LOG2 .. L3_LOG2 keep their defaults");
  }
  nlohmann::json j{{"library", ours}, {"split", split != 0}, {"crossovers", crossovers}, {"rows", nlohmann::json::array()}};
  for (const Row& r : rows)
    j["rows"].push_back({{"routine", r.routine}, {"library", r.library}, {"n", r.n}, {"us_per_call", r.seconds * 1e6},
                         {"gflops", r.gflops}, {"max_rel_diff", r.max_rel_diff}});
  return j;
}

}  // namespace optune::tool
