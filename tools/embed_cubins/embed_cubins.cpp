// optune_embed_cubins OUT CACHE_DIR JOBS [quick]: the build step that compiles, with
// NVRTC, the programs the library would build on the devices of
// cuda_caps.hpp's profiles (the H100 for sm_90, the A100 for sm_80), and
// writes them as a blob of cubins (embedded_cubins.hpp) that the library
// embeds.
//
// Which programs: each profile's capabilities, exactly as the runtime's
// probe would make them (cuda_capabilities), on a dry-run device
// (dry_device.hpp); `optune::warm` on it (every operator variant per data
// type and bucket, with the database's choices and their trust checks),
// then the first calls that `optune bench startup` times. The texts and
// options are the ones program.cpp assembled for them, so the keys are the
// ones the runtime computes on that device.
//
// OUT.failures lists the programs NVRTC refused (they are left out; the
// runtime would report the same error on such a device), or why nothing was
// compiled: the test embedded_cubins.all_compiled wants it empty.
//
// CACHE_DIR keeps each compiled cubin under its key's digest, so a rebuild
// compiles only the programs that changed. JOBS compiles run at once (0:
// one per hardware thread). The environment is the build's (CMake unsets
// OPTUNE_BUILD_OPTIONS and OPTUNE_PARAMS and turns the cache file off).
//
// quick (OPTUNE_EMBED_CUBINS_QUICK, the `test` preset that scripts/test.sh
// builds): every program compiles at NVRTC's fastest optimization level
// (-Ofc=max, NVRTC 12.8+) under the runtime's key all the same, so the test
// build still puts every program through NVRTC and ptxas and checks the
// keys; that blob is not embedded (its cubins are about 4x the size, and
// slower). On the 2-core CI machine the full compile of the 1033 programs
// took 279 s of the build's wall time.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "optune/optune.hpp"
#include "runtime/checksum.hpp"
#include "runtime/cuda/cuda_caps.hpp"
#include "runtime/cuda/cuda_objects.hpp"
#include "runtime/cuda/dry_device.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/embedded_cubins.hpp"

namespace fs = std::filesystem;
using namespace optune;
using namespace optune::detail;

namespace {

struct Job {
  std::string arch, text, options, key;
  std::vector<std::uint8_t> cubin;
  bool cached = false;
  std::string error;
};

std::vector<std::uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  const fs::path tmp = p.string() + ".tmp" + std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, p);
}

std::vector<std::uint8_t> text_bytes(const std::string& s) { return {s.begin(), s.end()}; }

// The first calls `optune bench startup` times (tools/optune/bench_startup.cpp).
void startup_calls(const Queue& q) {
  Context ctx = q.context();
  const std::size_t n = std::size_t(1) << 20;
  Buffer<float> x = ctx.alloc<float>(n), y = ctx.alloc<float>(n);
  unary(q, Unary::Gelu, x, y);
  const Operand m(ctx.alloc<float>(512 * 768), {512, 768}), s(ctx.alloc<float>(512 * 768), {512, 768});
  softmax(q, m, -1, s);
  const Operand r(ctx.alloc<float>(512), {512});
  reduce(q, ReduceOp::Sum, m, {1}, false, r);
  const std::int64_t k = 256;
  Buffer<float> a = ctx.alloc<float>(k * k), b = ctx.alloc<float>(k * k), c = ctx.alloc<float>(k * k);
  gemm<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, k, k, k, 1.0, a, k, b, k, 0.0, c, k);
  q.finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && !(argc == 5 && std::string(argv[4]) == "quick")) {
    std::fprintf(stderr, "usage: %s OUT CACHE_DIR JOBS [quick]\n", argv[0]);
    return 2;
  }
  const bool quick = argc == 5;
  const fs::path out = argv[1], cache = argv[2];
  unsigned jobs_wanted = unsigned(std::strtoul(argv[3], nullptr, 10));
  if (jobs_wanted == 0) jobs_wanted = std::max(1u, std::thread::hardware_concurrency());
  const auto t0 = std::chrono::steady_clock::now();
  try {
    std::string why;
    // OUT.failures: what NVRTC refused, or why nothing was compiled; empty
    // when every program compiled (the test embedded_cubins.all_compiled).
    const fs::path failures = out.string() + ".failures";
    if (!nvrtc_available(&why)) {
      std::fprintf(stderr, "optune_embed_cubins: %s; no cubins embedded\n", why.c_str());
      write_file(failures, text_bytes("NVRTC did not load: " + why + "\n"));
      write_file(out, {});
      return 0;
    }
    fs::create_directories(cache);
    // What quick adds to each program's options (the key keeps the runtime's).
    const std::string quick_options = quick ? nvrtc_fastest_options() : "";
    // The programs, per profile, as the runtime would assemble them.
    std::vector<Job> jobs;
    std::map<std::string, std::size_t> seen;
    std::string profiles;
    for (const CudaProfile& prof : embedded_cubin_profiles(cuda_fp16_headers())) {
      const Capabilities caps = cuda_capabilities(prof.attributes, 0);
      const Device dev = make_dry_cuda_device(caps);
      const Queue q{Context(dev)};
      const WarmReport r = warm(q);
      if (r.failed) std::fprintf(stderr, "optune_embed_cubins: %s: %zu variants failed (see above)\n",
                                 prof.id.c_str(), r.failed);
      try {
        startup_calls(q);
      } catch (const std::exception& e) {
        // What warm recorded is still worth embedding; the runtime reports the error.
        std::fprintf(stderr, "optune_embed_cubins: %s: the bench's first calls failed: %s\n", prof.id.c_str(),
                     e.what());
      }
      std::size_t added = 0;
      for (DryBuild& b : dry_builds(dev)) {
        std::string key = cubin_key(caps.architecture, b.options, b.text);
        if (!seen.emplace(key, jobs.size()).second) continue;
        jobs.push_back({caps.architecture, std::move(b.text), std::move(b.options), std::move(key), {}, false, {}});
        ++added;
      }
      profiles += (profiles.empty() ? "" : ", ") + prof.id + " (" + caps.architecture + "): " + std::to_string(added);
    }

    // Compiled in parallel; each cubin kept in the cache folder by its key.
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();) {
        Job& j = jobs[i];
        const fs::path file =
            cache / ((quick_options.empty() ? digest128({j.key}) : digest128({j.key, quick_options})) + ".cubin");
        try {
          if (fs::exists(file)) {
            std::vector<std::uint8_t> framed = read_file(file);
            std::string bad;
            if (unframe_binary(framed.data(), framed.size(), &j.cubin, &bad)) {
              j.cached = true;
              continue;
            }
          }
          cu::NvrtcOutput o = cu::nvrtc_build(j.text, j.options + quick_options);
          if (!o.ok) {
            j.error = o.log;
            continue;
          }
          j.cubin = std::move(o.binary);
          write_file(file, frame_binary(j.cubin));
        } catch (const std::exception& e) {
          j.error = e.what();
        }
      }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < std::min<std::size_t>(jobs_wanted, jobs.size()); ++t) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();

    std::vector<CubinEntry> entries;
    std::size_t compiled = 0, cached = 0, failed = 0, bytes = 0;
    std::string refused;
    for (Job& j : jobs) {
      if (!j.error.empty()) {
        // The runtime would fail the same way and report it there.
        ++failed;
        const std::string what = "a " + j.arch + " program (options: " + j.options + ") does not compile:\n" +
                                 j.error.substr(0, 2000) + "\n";
        std::fprintf(stderr, "optune_embed_cubins: %s(not embedded)\n", what.c_str());
        refused += what;
        continue;
      }
      (j.cached ? cached : compiled) += 1;
      bytes += j.cubin.size();
      entries.push_back({std::move(j.key), std::move(j.cubin)});
    }
    std::sort(entries.begin(), entries.end(), [](const CubinEntry& a, const CubinEntry& b) { return a.key < b.key; });
    const std::vector<std::uint8_t> blob = write_cubin_index(entries);
    // Written every time, so that the build sees the output newer than the
    // generator (an untouched file would make it run on every build).
    write_file(failures, text_bytes(refused));
    write_file(out, blob);
    std::printf("optune_embed_cubins: %zu programs (%s): %zu compiled%s, %zu from %s, %zu failed; %.1f MB; "
                "%u jobs; %.1f s\n",
                entries.size() + failed, profiles.c_str(), compiled,
                quick ? (quick_options.empty() ? " (quick: NVRTC has no -Ofc, full optimization)" : " (quick: -Ofc=max)")
                      : "",
                cached, cache.c_str(), failed, bytes / 1e6, jobs_wanted,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "optune_embed_cubins: %s\n", e.what());
    return 1;
  }
}
