#include "bench_startup.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>

#include "common.hpp"
#include "database/database.hpp"
#include "optune/gemm.hpp"
#include "optune/reduce.hpp"
#include "runtime/program.hpp"

extern char** environ;

namespace optune::tool {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Case {
  std::string id;    // what the child is told (--case)
  std::string name;  // what the table and the JSON say
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c{{"gelu", "gelu f32 2^20"},
                                   {"softmax", "softmax f32 512x768"},
                                   {"row-sum", "row-sum f32 512x768"},
                                   {"sgemm", "sgemm 256x256x256"}};
  return c;
}

}  // namespace

std::vector<std::string> startup_case_names() {
  std::vector<std::string> names;
  for (const Case& k : cases()) names.push_back(k.name);
  return names;
}

namespace {

// ---- the child: one first call, reported as one JSON line on stdout ----

void fill(const Queue& q, const Buffer<float>& b, std::uint64_t seed) {
  std::vector<float> host(b.size());
  for (float& v : host) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    v = float(std::int32_t(seed >> 32)) * (1.0f / 2147483648.0f);
  }
  q.upload(b, std::span<const float>(host));
}

void first_call(const std::string& id, const std::string& spec) {
  const auto t0 = Clock::now();
  Device dev = select_device(spec);
  Context ctx(dev);
  Queue q(ctx);
  const auto t1 = Clock::now();

  std::vector<Buffer<float>> bufs;
  std::function<Event()> call;
  auto input = [&](std::size_t n) {
    bufs.push_back(ctx.alloc<float>(n));
    fill(q, bufs.back(), bufs.size());
    return bufs.back();
  };
  auto output = [&](std::size_t n) {
    bufs.push_back(ctx.alloc<float>(n));
    return bufs.back();
  };
  if (id == "gelu") {
    Buffer<float> x = input(std::size_t(1) << 20), y = output(std::size_t(1) << 20);
    call = [&q, x, y] { return unary(q, Unary::Gelu, x, y); };
  } else if (id == "softmax") {
    const Operand x(input(512 * 768), {512, 768}), y(output(512 * 768), {512, 768});
    call = [&q, x, y] { return softmax(q, x, -1, y); };
  } else if (id == "row-sum") {
    const Operand x(input(512 * 768), {512, 768}), y(output(512), {512});
    call = [&q, x, y] { return reduce(q, ReduceOp::Sum, x, {1}, false, y); };
  } else if (id == "sgemm") {
    const std::int64_t s = 256;
    Buffer<float> a = input(s * s), b = input(s * s), c = output(s * s);
    call = [&q, a, b, c, s] {
      return gemm<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, s, s, s, 1.0, a, s, b, s, 0.0, c, s);
    };
  } else {
    throw Error(Status::InvalidArgument, "bench-first-call: unknown case '" + id + "'");
  }
  q.finish();
  const auto t2 = Clock::now();

  const detail::ProgramCounts p0 = detail::program_counts();
  const detail::TrustCounts c0 = detail::trust_counts();
  const auto t3 = Clock::now();
  call().wait();
  const auto t4 = Clock::now();
  const detail::ProgramCounts p1 = detail::program_counts();
  const detail::TrustCounts c1 = detail::trust_counts();
  call().wait();
  const auto t5 = Clock::now();

  const nlohmann::json j{
      {"case", id},
      {"device_ms", ms_between(t0, t1)},
      {"upload_ms", ms_between(t1, t2)},
      {"first_call_ms", ms_between(t3, t4)},
      {"second_call_ms", ms_between(t4, t5)},
      {"programs",
       {{"compiled", p1.compiled - p0.compiled},
        {"from_cache_file", p1.from_disk - p0.from_disk},
        {"from_memory", p1.from_memory - p0.from_memory}}},
      {"trust_checks", {{"checked", c1.checked - c0.checked}, {"from_cache_file", c1.from_cache_file - c0.from_cache_file}}},
  };
  std::printf("%s\n", j.dump().c_str());
  std::fflush(stdout);
}

// ---- the parent: children with chosen environments ----

struct ChildRun {
  int exit_code = -1;  // -1: did not exit normally
  std::string out;     // its stdout
  double wall_ms = 0;  // spawn to exit
};

// Runs exe with args; the environment is this process's with `unset` removed
// and `set` added. stdout is captured, stderr passes through.
ChildRun spawn_child(const std::string& exe, const std::vector<std::string>& args,
                     const std::vector<std::pair<std::string, std::string>>& set, const std::vector<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    const bool replaced = std::any_of(set.begin(), set.end(), [&](const auto& s) { return s.first == name; }) ||
                          std::find(unset.begin(), unset.end(), name) != unset.end();
    if (!replaced) env.push_back(kv);
  }
  for (const auto& [k, v] : set) env.push_back(k + "=" + v);
  std::vector<std::string> argv_s{exe};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  auto pointers = [](std::vector<std::string>& v) {
    std::vector<char*> p;
    for (std::string& s : v) p.push_back(s.data());
    p.push_back(nullptr);
    return p;
  };
  std::vector<char*> argv = pointers(argv_s), envp = pointers(env);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error(Status::IoError, "bench startup: pipe: " + std::string(std::strerror(errno)));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
  std::fflush(nullptr);
  ChildRun r;
  const auto t0 = Clock::now();
  pid_t pid = 0;
  const int err = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    throw Error(Status::IoError, "bench startup: cannot start " + exe + ": " + std::strerror(err));
  }
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) r.out.append(buf, std::size_t(n));
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.wall_ms = ms_between(t0, Clock::now());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The last line of out that parses as a JSON object.
nlohmann::json last_json_line(const std::string& out) {
  std::size_t end = out.size();
  while (end > 0) {
    std::size_t start = out.rfind('\n', end - 1);
    start = start == std::string::npos ? 0 : start + 1;
    const std::string line = out.substr(start, end - start);
    if (!line.empty() && line.front() == '{') {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_object()) return j;
    }
    if (start == 0) break;
    end = start - 1;
  }
  return nullptr;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The driver caches that an environment variable moves, and which of them
// this device's driver reads.
struct DriverCache {
  const char* variable;
  const char* driver;
  bool applies;
};

std::vector<DriverCache> driver_caches(const Capabilities& caps) {
  const std::string platform = lower(caps.platform), vendor = lower(caps.vendor);
  const bool pocl = platform.find("portable computing language") != std::string::npos ||
                    platform.find("pocl") != std::string::npos;
  const bool nvidia = caps.backend == Backend::CUDA || vendor.find("nvidia") != std::string::npos;
  const bool mesa = platform.find("rusticl") != std::string::npos || platform.find("clover") != std::string::npos ||
                    platform.find("mesa") != std::string::npos;
  return {{"POCL_CACHE_DIR", "PoCL", pocl},
          {"CUDA_CACHE_PATH", "NVIDIA's driver (CUDA and OpenCL)", nvidia},
          {"MESA_SHADER_CACHE_DIR", "Mesa (rusticl, clover)", mesa}};
}

std::string programs_text(const nlohmann::json& child) {
  std::string s;
  auto add = [&](std::uint64_t n, const char* what) {
    if (n) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(child["programs"]["compiled"].get<std::uint64_t>(), "compiled");
  add(child["programs"]["from_cache_file"].get<std::uint64_t>(), "from file");
  add(child["trust_checks"]["checked"].get<std::uint64_t>(), "checks");
  add(child["trust_checks"]["from_cache_file"].get<std::uint64_t>(), "verdicts from file");
  return s.empty() ? "none" : s;
}

}  // namespace

nlohmann::json bench_startup(const Device& dev, const StartupBenchOptions& o) {
  namespace fs = std::filesystem;
  const Capabilities& caps = dev.caps();
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const std::vector<DriverCache> dcs = driver_caches(caps);
  // Set per case, or removed, so that every child starts from the same place:
  // the cache on, no trace file, no driver cache switched off.
  const std::vector<std::string> unset{"OPTUNE_CACHE", "OPTUNE_TRACE", "CUDA_CACHE_DISABLE", "POCL_KERNEL_CACHE",
                                       "MESA_SHADER_CACHE_DISABLE"};

  nlohmann::json applied = nlohmann::json::array(), redirected = nlohmann::json::array();
  std::string applied_text;
  for (const DriverCache& d : dcs) {
    redirected.push_back({{"variable", d.variable}, {"driver", d.driver}, {"applies_to_this_device", d.applies}});
    if (d.applies) {
      applied.push_back(d.variable);
      applied_text += (applied_text.empty() ? "" : ", ") + std::string(d.variable);
    }
  }
  if (!o.quiet) {
    std::printf("\nstartup: the first call in a fresh process (%s), ms of host wall time\n", exe.c_str());
    std::printf("  cold: new OPTUNE_CACHE_DIR; driver cache %s\n",
                applied_text.empty() ? ("not moved (no variable known for " + caps.platform + "): it may be warm").c_str()
                                     : (applied_text + " in a new folder").c_str());
    std::printf("  warm: the same folders again, as the cold run left them\n");
    std::printf("%-22s %15s %15s %11s %11s %9s %17s  %s\n", "startup", "device c/w", "upload c/w", "first cold",
                "first warm", "2nd call", "process c/w", "first call's programs: cold | warm");
  }

  nlohmann::json rows = nlohmann::json::array();
  for (const Case& k : cases()) {
    if (!selected(k.name, o.only)) continue;
    std::string tmpl = (fs::temp_directory_path() / "optune-startup-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw Error(Status::IoError, "bench startup: cannot make a folder in " +
                                                               fs::temp_directory_path().string());
    const fs::path root = tmpl;
    struct Remove {
      fs::path p;
      ~Remove() {
        std::error_code ec;
        fs::remove_all(p, ec);
      }
    } remove{root};
    std::vector<std::pair<std::string, std::string>> set{{"OPTUNE_CACHE_DIR", (root / "optune").string()}};
    for (const DriverCache& d : dcs) {
      const fs::path p = root / lower(d.variable);
      fs::create_directories(p);
      set.emplace_back(d.variable, p.string());
    }

    nlohmann::json row{{"case", k.name}, {"id", k.id}};
    for (const char* phase : {"cold", "warm"}) {
      const ChildRun r = spawn_child(exe, {"bench-first-call", "--case", k.id, "--device", caps.spec}, set, unset);
      nlohmann::json child = last_json_line(r.out);
      if (r.exit_code != 0 || !child.is_object()) {
        const std::string why = "child exited with " + std::to_string(r.exit_code) + (child.is_object() ? "" : ", no result");
        std::fprintf(stderr, "optune bench startup: %s %s: %s\n%s", k.name.c_str(), phase, why.c_str(), r.out.c_str());
        row[phase] = {{"error", why}, {"process_ms", r.wall_ms}};
        continue;
      }
      child["process_ms"] = r.wall_ms;
      row[phase] = child;
    }
    rows.push_back(row);

    if (!o.quiet) {
      const nlohmann::json &c = row["cold"], &w = row["warm"];
      if (c.contains("error") || w.contains("error")) {
        std::printf("%-22s failed (see above)\n", k.name.c_str());
        continue;
      }
      auto pair = [](const nlohmann::json& a, const nlohmann::json& b, const char* key) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f / %.1f", a[key].get<double>(), b[key].get<double>());
        return std::string(buf);
      };
      std::printf("%-22s %15s %15s %11.1f %11.1f %9.2f %17s  %s | %s\n", k.name.c_str(),
                  pair(c, w, "device_ms").c_str(), pair(c, w, "upload_ms").c_str(), c["first_call_ms"].get<double>(),
                  w["first_call_ms"].get<double>(), w["second_call_ms"].get<double>(),
                  pair(c, w, "process_ms").c_str(), programs_text(c).c_str(), programs_text(w).c_str());
    }
  }
  std::fflush(stdout);
  return {
      {"method",
       "each case runs in two child processes of the tool on the same device: cold with a new, empty "
       "OPTUNE_CACHE_DIR and the driver caches below in new, empty folders; warm with the same folders again. "
       "device_ms: device enumeration, context and queue; upload_ms: inputs allocated and uploaded; first_call_ms: "
       "host wall time of the first call to its completion (database lookup, trust checks, program compile or "
       "cache-file load, the kernels); second_call_ms: the next call; process_ms: the child process from spawn to "
       "exit, seen by the parent"},
      {"driver_caches", redirected},
      {"driver_caches_applied", applied},
      {"rows", rows},
  };
}

void add_first_call_command(CLI::App& app) {
  struct Options {
    std::string id, device;
  };
  auto* o = new Options();
  // No description and the empty group: hidden from --help; optune bench startup runs it.
  auto* cmd = app.add_subcommand("bench-first-call", "");
  cmd->group("");
  cmd->add_option("--case", o->id)->required();
  cmd->add_option("--device", o->device)->required();
  cmd->callback([o] { first_call(o->id, o->device); });
}

}  // namespace optune::tool
