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
#include "runtime/cache_file.hpp"
#include "runtime/embedded_cubins.hpp"
#include "runtime/program.hpp"

extern char** environ;

namespace optune::tool {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Case {
  std::string id;      // what the child is told (--case)
  std::string name;    // what the table and the JSON say
  std::string family;  // what `optune warm --only` warms for it
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c{{"gelu", "gelu f32 2^20", "elementwise"},
                                   {"softmax", "softmax f32 512x768", "norm_rows"},
                                   {"row-sum", "row-sum f32 512x768", "reduce_rows"},
                                   {"sgemm", "sgemm 256x256x256", "gemm"}};
  return c;
}

// The targets of issue 16, set on the H100: a cold first SGEMM 256^3 on CUDA
// with the embedded cubins, and every case's first call after `optune warm`.
constexpr double kColdSgemmTargetMs = 100;
constexpr double kAfterWarmTargetMs = 10;

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
  const std::uint64_t open0 = detail::CacheFile::open_ns();
  const auto t3 = Clock::now();
  call().wait();
  const auto t4 = Clock::now();
  const detail::ProgramCounts p1 = detail::program_counts();
  const detail::TrustCounts c1 = detail::trust_counts();
  const std::uint64_t open1 = detail::CacheFile::open_ns();
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
        {"from_embedded", p1.from_embedded - p0.from_embedded},
        {"from_memory", p1.from_memory - p0.from_memory}}},
      {"program_ms",
       {{"cache_file_open", double(open1 - open0) * 1e-6},
        {"cache_file", double(p1.file_ns - p0.file_ns) * 1e-6},
        {"driver_load", double(p1.load_ns - p0.load_ns) * 1e-6},
        {"compile", double(p1.compile_ns - p0.compile_ns) * 1e-6}}},
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
  add(child["programs"]["from_embedded"].get<std::uint64_t>(), "embedded");
  add(child["programs"]["from_cache_file"].get<std::uint64_t>(), "from file");
  add(child["trust_checks"]["checked"].get<std::uint64_t>(), "checks");
  add(child["trust_checks"]["from_cache_file"].get<std::uint64_t>(), "verdicts from file");
  if (s.empty()) s = "none";
  // Where a first call's time went, where any of it is worth naming.
  if (child.contains("program_ms")) {
    const nlohmann::json& t = child["program_ms"];
    char buf[96];
    std::snprintf(buf, sizeof buf, " (file open %.1f, read %.1f, load %.1f, compile %.1f ms)",
                  t.value("cache_file_open", 0.0), t["cache_file"].get<double>(), t["driver_load"].get<double>(),
                  t["compile"].get<double>());
    s += buf;
  }
  return s;
}

}  // namespace

namespace {

namespace fs = std::filesystem;

// A new folder under the system's temporary folder, removed with this object.
struct TempRoot {
  fs::path path;
  TempRoot() {
    std::string tmpl = (fs::temp_directory_path() / "optune-startup-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      throw Error(Status::IoError, "bench startup: cannot make a folder in " + fs::temp_directory_path().string());
    path = tmpl;
  }
  ~TempRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempRoot(const TempRoot&) = delete;
  TempRoot& operator=(const TempRoot&) = delete;
};

using Env = std::vector<std::pair<std::string, std::string>>;

// OPTUNE_CACHE_DIR and the driver caches, in folders under root.
Env cache_env(const fs::path& root, const std::vector<DriverCache>& dcs) {
  Env set{{"OPTUNE_CACHE_DIR", (root / "optune").string()}};
  for (const DriverCache& d : dcs) {
    const fs::path p = root / lower(d.variable);
    fs::create_directories(p);
    set.emplace_back(d.variable, p.string());
  }
  return set;
}

std::string ms_text(const nlohmann::json& phase) {
  if (!phase.is_object() || phase.contains("error") || !phase.contains("first_call_ms")) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", phase["first_call_ms"].get<double>());
  return buf;
}

}  // namespace

nlohmann::json bench_startup(const Device& dev, const StartupBenchOptions& o) {
  const Capabilities& caps = dev.caps();
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const std::vector<DriverCache> dcs = driver_caches(caps);
  // Set per case, or removed, so that every child starts from the same place:
  // the cache on, no trace file, no driver cache switched off, the embedded
  // cubins as the library ships them.
  const std::vector<std::string> unset{"OPTUNE_CACHE", "OPTUNE_TRACE", "CUDA_CACHE_DISABLE", "POCL_KERNEL_CACHE",
                                       "MESA_SHADER_CACHE_DISABLE", "OPTUNE_EMBEDDED_CUBINS"};
  // The cold run without the embedded cubins only means something where
  // they could be used.
  const bool embedded = caps.backend == Backend::CUDA && detail::embedded_cubins()->size() > 0;

  nlohmann::json applied = nlohmann::json::array(), redirected = nlohmann::json::array();
  std::string applied_text;
  for (const DriverCache& d : dcs) {
    redirected.push_back({{"variable", d.variable}, {"driver", d.driver}, {"applies_to_this_device", d.applies}});
    if (d.applies) {
      applied.push_back(d.variable);
      applied_text += (applied_text.empty() ? "" : ", ") + std::string(d.variable);
    }
  }

  std::vector<Case> chosen;
  std::vector<std::string> families;
  for (const Case& k : cases())
    if (selected(k.name, o.only)) {
      chosen.push_back(k);
      if (std::find(families.begin(), families.end(), k.family) == families.end()) families.push_back(k.family);
    }

  if (!o.quiet) {
    std::printf("\nstartup: the first call in a fresh process (%s), ms of host wall time\n", exe.c_str());
    std::printf("  cold: new OPTUNE_CACHE_DIR; driver cache %s\n",
                applied_text.empty() ? ("not moved (no variable known for " + caps.platform + "): it may be warm").c_str()
                                     : (applied_text + " in a new folder").c_str());
    std::printf("  cold -emb: the same with OPTUNE_EMBEDDED_CUBINS=0 (%s)\n",
                embedded ? "compiles what the build embedded" : "not run: no embedded cubins for this device");
    std::printf("  after warm: new folders where `optune warm --only <the cases' families>` ran first\n");
    std::printf("  warm: the cold run's folders again, as it left them\n");
    std::printf("%-22s %11s %11s %11s %11s %11s %9s %11s\n", "startup", "device", "first cold", "cold -emb",
                "after warm", "first warm", "2nd call", "process");
  }

  // One `optune warm` in a template folder, copied for each case.
  TempRoot warmed;
  const Env warm_env = cache_env(warmed.path, dcs);
  nlohmann::json warm_run;
  {
    std::string only;
    for (const std::string& f : families) only += (only.empty() ? "" : ",") + f;
    const ChildRun r = spawn_child(exe, {"warm", "--device", caps.spec, "--quiet", "--only", only}, warm_env, unset);
    warm_run = {{"families", families}, {"exit_code", r.exit_code}, {"process_ms", r.wall_ms}};
    if (r.exit_code != 0) std::fprintf(stderr, "optune bench startup: optune warm exited with %d\n%s", r.exit_code, r.out.c_str());
  }

  nlohmann::json rows = nlohmann::json::array(), targets = nlohmann::json::array();
  for (const Case& k : chosen) {
    TempRoot cold_root, plain_root, warm_root;
    const Env cold_env = cache_env(cold_root.path, dcs);
    Env plain_env = cache_env(plain_root.path, dcs);
    plain_env.emplace_back("OPTUNE_EMBEDDED_CUBINS", "0");
    fs::copy(warmed.path, warm_root.path, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    // As `cp -a` or an image layer would: the files keep their modification
    // times (the cache file's integrity stamp is made of them).
    for (const auto& e : fs::recursive_directory_iterator(warmed.path)) {
      std::error_code ec;
      const fs::path to = warm_root.path / fs::relative(e.path(), warmed.path, ec);
      if (!ec && e.is_regular_file(ec)) fs::last_write_time(to, fs::last_write_time(e.path(), ec), ec);
    }
    Env after_env = warm_env;
    for (auto& [name, value] : after_env)
      value = (warm_root.path / fs::path(value).lexically_relative(warmed.path)).string();

    nlohmann::json row{{"case", k.name}, {"id", k.id}};
    const std::vector<std::pair<const char*, const Env*>> phases{
        {"cold", &cold_env}, {"cold_no_embedded", &plain_env}, {"after_warm", &after_env}, {"warm", &cold_env}};
    for (const auto& [phase, env] : phases) {
      if (std::string(phase) == "cold_no_embedded" && !embedded) continue;
      const ChildRun r = spawn_child(exe, {"bench-first-call", "--case", k.id, "--device", caps.spec}, *env, unset);
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

    // The targets (set on the H100; reported on every device).
    auto target = [&](const std::string& what, const char* phase, double limit) {
      const nlohmann::json& p = row.contains(phase) ? row[phase] : nlohmann::json();
      nlohmann::json t{{"case", k.name}, {"what", what}, {"phase", phase}, {"limit_ms", limit}};
      if (p.is_object() && p.contains("first_call_ms")) {
        t["ms"] = p["first_call_ms"];
        t["met"] = p["first_call_ms"].get<double>() <= limit;
      } else {
        t["met"] = false;
      }
      targets.push_back(t);
    };
    if (k.id == "sgemm" && caps.backend == Backend::CUDA)
      target("cold first call with the embedded cubins", "cold", kColdSgemmTargetMs);
    target("first call after optune warm", "after_warm", kAfterWarmTargetMs);
    rows.push_back(row);

    if (!o.quiet) {
      const nlohmann::json& c = row["cold"];
      if (c.contains("error")) {
        std::printf("%-22s failed (see above)\n", k.name.c_str());
        continue;
      }
      const nlohmann::json none;
      const nlohmann::json& plain = row.contains("cold_no_embedded") ? row["cold_no_embedded"] : none;
      std::printf("%-22s %11.1f %11s %11s %11s %11s %9.2f %11.1f\n", k.name.c_str(), c["device_ms"].get<double>(),
                  ms_text(c).c_str(), ms_text(plain).c_str(), ms_text(row["after_warm"]).c_str(),
                  ms_text(row["warm"]).c_str(), c["second_call_ms"].get<double>(), c["process_ms"].get<double>());
      std::string progs = "cold: " + programs_text(c);
      if (plain.is_object() && !plain.contains("error")) progs += " | cold -emb: " + programs_text(plain);
      for (const char* phase : {"after_warm", "warm"})
        if (row[phase].is_object() && !row[phase].contains("error"))
          progs += std::string(" | ") + (phase == std::string("warm") ? "warm" : "after warm") + ": " +
                   programs_text(row[phase]);
      std::printf("    %s\n", progs.c_str());
    }
  }
  if (!o.quiet && !targets.empty()) {
    std::printf("targets (set for the H100; %s on %s):\n", std::string(backend_name(caps.backend)).c_str(),
                caps.name.c_str());
    for (const nlohmann::json& t : targets) {
      std::string got = t.contains("ms") ? ms_text(nlohmann::json{{"first_call_ms", t["ms"]}}) + " ms" : "no result";
      std::printf("  %-22s %-42s <= %5.0f ms: %-10s %s\n", t["case"].get<std::string>().c_str(),
                  t["what"].get<std::string>().c_str(), t["limit_ms"].get<double>(), got.c_str(),
                  t["met"].get<bool>() ? "met" : "MISSED");
    }
  }
  std::fflush(stdout);
  return {
      {"method",
       "each case runs in child processes of the tool on the same device: cold with a new, empty "
       "OPTUNE_CACHE_DIR and the driver caches below in new, empty folders; cold_no_embedded the same with "
       "OPTUNE_EMBEDDED_CUBINS=0 (CUDA with embedded cubins only); after_warm in a copy of folders where "
       "`optune warm --only FAMILIES` (the cases' families) ran first; warm with the cold run's folders again. "
       "device_ms: device enumeration, context and queue; upload_ms: inputs allocated and uploaded; first_call_ms: "
       "host wall time of the first call to its completion (database lookup, trust checks, program compile, "
       "embedded-cubin or cache-file load, the kernels), of which program_ms names the cache file's open (with its integrity check) and reads, the "
       "driver's loads of stored binaries and the compiles; second_call_ms: the next call; process_ms: the child "
       "process from spawn to exit, seen by the parent"},
      {"driver_caches", redirected},
      {"driver_caches_applied", applied},
      {"embedded_cubins", embedded},
      {"warm_run", warm_run},
      {"targets", targets},
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
