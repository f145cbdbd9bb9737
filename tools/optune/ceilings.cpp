#include "ceilings.hpp"

#include <CL/cl.h>

#include <cstdio>
#include <cstring>
#include <random>

#include "kernels/families.hpp"
#include "optune/interop.hpp"

namespace optune::tool {

using detail::CopyFamily;
using detail::Params;
using detail::PeakFamily;
using detail::PeakMmaFamily;
using detail::Problem;

namespace {

void verify_copy(const Queue& q, const Buffer<std::uint32_t>& x, const Buffer<std::uint32_t>& y,
                 const std::vector<std::uint32_t>& host, const std::string& what) {
  std::vector<std::uint32_t> out = q.download(y);
  if (std::memcmp(out.data(), host.data(), host.size() * 4) != 0)
    throw Error(Status::Internal, "copy ceiling: " + what + " produced a wrong copy");
}

// Capabilities probes the L2 size on CUDA only; on OpenCL ask the device
// behind the queue (public interop API) for its global memory cache.
void probe_cache(const Queue& q, Ceilings& c) {
  const Capabilities& caps = q.device().caps();
  if (caps.backend == Backend::CUDA) {
    c.cache_bytes = caps.l2_bytes;
    c.cache_source = "L2";
    return;
  }
  cl_device_id dev = nullptr;
  cl_ulong bytes = 0;
  const auto queue = static_cast<cl_command_queue>(interop::native_queue(q).queue);
  if (clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr) == CL_SUCCESS &&
      clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof bytes, &bytes, nullptr) == CL_SUCCESS) {
    c.cache_bytes = bytes;
    c.cache_source = "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE";
  }
}

// The tensor cores' rate (peak_mma.cl) per type, unit and group size, each
// run's output checked exactly; a unit that fails to build or run is
// recorded with its error and skipped.
nlohmann::json measure_tensor_cores(const Queue& q, int runs, bool quiet, const bool (&wanted)[3], Ceilings& c) {
  const Capabilities& caps = q.device().caps();
  const PeakMmaFamily& fam = detail::families::peak_mma();
  nlohmann::json rows = nlohmann::json::array();
  const DType types[3] = {DType::F16, DType::BF16, DType::F32};
  const char* names[3] = {"f16", "bf16", "tf32"};
  for (int ti = 0; ti < 3; ++ti)
    for (bool wgmma : {false, true}) {
      if (!wanted[ti]) continue;
      const detail::PeakMmaProblem pp = fam.ceiling_problem(types[ti], wgmma, caps);
      const char* unit = wgmma ? "wgmma" : "mma.sync";
      // Groups of 128 work-items: 256 measured no faster on the H100 (within 2%).
      for (std::int64_t wgs : {128}) {
        const Params p{{"WGS", wgs}};
        if (!fam.check(p, caps, pp).empty()) continue;
        nlohmann::json row{{"dtype", names[ti]}, {"unit", unit}, {"params", {{"WGS", wgs}}}};
        try {
          Buffer<float> out = q.context().alloc<float>(detail::round_up(std::size_t(pp.items), 256));
          q.fill(out, -1.0f).wait();
          Timing t = time_events([&] { return fam.launch(q, p, pp, *out.mem()); }, 1, std::max(3, runs / 2));
          const std::vector<float> got = q.download(out);
          const double want = PeakMmaFamily::expected_output(pp);
          for (std::size_t i = 0; i < std::size_t(pp.items); ++i)
            if (double(got[i]) != want)
              throw Error(Status::Internal, "work-item " + std::to_string(i) + " wrote " + std::to_string(got[i]) +
                                                ", expected " + std::to_string(want));
          const double gf = PeakMmaFamily::flops(p, pp) / t.median_s * 1e-9;
          row["median_ms"] = t.median_s * 1e3;
          row["gflops"] = gf;
          if (!quiet)
            std::fprintf(stderr, "  mma  %-4s %-8s WGS=%-4lld %29s %9.1f GFLOP/s\n", names[ti], unit,
                         (long long)wgs, "", gf);
          if (gf > c.tensor_gflops[ti]) c.tensor_gflops[ti] = gf, c.tensor_unit[ti] = unit;
        } catch (const Error& e) {
          row["error"] = e.what();
          if (!quiet) std::fprintf(stderr, "  mma  %-4s %-8s WGS=%-4lld failed: %s\n", names[ti], unit, (long long)wgs,
                                   e.what());
        }
        rows.push_back(row);
      }
    }
  return rows;
}

}  // namespace

bool fits_in_cache(const Ceilings& c, double working_set_bytes) {
  return c.cache_bytes > 0 && working_set_bytes <= double(c.cache_bytes);
}

std::string cache_note(const Ceilings& c) {
  if (c.cache_bytes == 0) return "";
  const double cache_mib = double(c.cache_bytes) / (1 << 20), copy_mib = double(c.copy_bytes) / (1 << 20);
  char buf[512];
  if (2 * c.copy_bytes > c.cache_bytes)
    std::snprintf(buf, sizeof buf,
                  "* working set fits in the device's %.1f MiB cache (%s): served from cache, such a row\n"
                  "  may exceed the copy ceiling, which streams %.0f MiB buffers through memory",
                  cache_mib, c.cache_source.c_str(), copy_mib);
  else
    std::snprintf(buf, sizeof buf,
                  "* working set fits in the device's %.1f MiB cache (%s): served from cache; the copy\n"
                  "  ceiling's own %.0f MiB buffers fit in it too (--copy-mib), so it is a cache ceiling here",
                  cache_mib, c.cache_source.c_str(), copy_mib);
  return buf;
}

Ceilings measure_ceilings(const Queue& q, const CeilingOptions& opt) {
  const Capabilities& caps = q.device().caps();
  const bool cpu = caps.type == DeviceType::CPU;
  const int runs = opt.runs > 0 ? opt.runs : (cpu ? 7 : 20);
  std::size_t bytes = opt.copy_bytes ? opt.copy_bytes : (cpu ? (64u << 20) : (std::size_t(1) << 30));
  bytes = std::min<std::size_t>(bytes, caps.max_alloc_bytes ? caps.max_alloc_bytes : bytes);
  bytes = std::min<std::size_t>(bytes, caps.global_mem_bytes / 3);
  bytes &= ~std::size_t(63);
  const std::size_t words = bytes / 4;

  Ceilings c;
  nlohmann::json copies = nlohmann::json::array();

  std::vector<std::uint32_t> host(words);
  std::mt19937 rng(12345);
  for (auto& v : host) v = rng();
  Context ctx = q.context();
  Buffer<std::uint32_t> x = ctx.alloc<std::uint32_t>(words), y = ctx.alloc<std::uint32_t>(words);
  q.upload(x, std::span<const std::uint32_t>(host));

  auto gbs = [&](double s) { return s > 0 ? 2.0 * double(bytes) / s * 1e-9 : 0.0; };
  auto note = [&](const std::string& what, const Timing& t, const nlohmann::json& params) {
    const double g = gbs(t.median_s);
    copies.push_back({{"what", what}, {"params", params}, {"median_ms", t.median_s * 1e3},
                      {"min_ms", t.min_s * 1e3}, {"gbs", g}, {"runs", t.runs}});
    if (!opt.quiet) std::fprintf(stderr, "  copy %-40s %9.1f GB/s\n", what.c_str(), g);
    return g;
  };

  // The backend's own device-to-device copy.
  q.fill(y, 0u).wait();
  Timing tb = time_events([&] { return q.copy(x, y); }, 2, runs);
  verify_copy(q, x, y, host, "the backend copy");
  c.backend_copy_gbs = note(std::string(backend_name(caps.backend)) + " device copy", tb, nullptr);

  // optune's copy kernels over the descriptor's main shapes.
  const CopyFamily& fam = detail::families::copy();
  detail::CopyProblem pr;
  pr.dtype = DType::F32;
  pr.n = std::int64_t(words);
  std::vector<Params> configs;
  for (std::int64_t vw : {1, 2, 4}) configs.push_back({{"VW", vw}, {"WGS", 256}, {"GRID_STRIDE", 0}, {"WAVES", 4}});
  for (std::int64_t wgs : {128, 512, 1024})
    configs.push_back({{"VW", 4}, {"WGS", wgs}, {"GRID_STRIDE", 0}, {"WAVES", 4}});
  for (std::int64_t waves : {1, 2, 4, 8})
    configs.push_back({{"VW", 4}, {"WGS", 256}, {"GRID_STRIDE", 1}, {"WAVES", waves}});
  for (const Params& p : configs) {
    if (!fam.check(p, caps, pr).empty()) continue;
    q.fill(y, 0u).wait();
    Timing t = time_events([&] { return fam.launch(q, p, pr, *x.mem(), *y.mem()); }, 2, runs);
    verify_copy(q, x, y, host, "copy kernel " + detail::params_to_json(p));
    c.kernel_copy_gbs = std::max(c.kernel_copy_gbs, note("optune copy " + detail::params_to_json(p), t,
                                                         nlohmann::json::parse(detail::params_to_json(p))));
  }
  c.copy_gbs = std::max(c.backend_copy_gbs, c.kernel_copy_gbs);

  // Arithmetic rate per data type.
  const PeakFamily& peak = detail::families::peak();
  nlohmann::json fmas = nlohmann::json::array();
  const DType types[3] = {DType::F32, DType::F16, DType::F64};
  for (int ti = 0; ti < 3; ++ti) {
    const detail::PeakProblem pp = peak.make_example(types[ti], "all", caps);
    if (types[ti] == DType::F16 && !caps.fp16) continue;
    if (types[ti] == DType::F64 && !caps.fp64) continue;
    Buffer<std::uint8_t> out = ctx.alloc<std::uint8_t>(detail::round_up(std::size_t(pp.items), 1024) * 8);
    for (std::int64_t vw : {1, 2, 4, 8, 16}) {
      Params p{{"VW", vw}, {"WGS", 256}};
      if (!peak.check(p, caps, pp).empty()) continue;
      Timing t = time_events([&] { return peak.launch(q, p, pp, *out.mem()); }, 1, std::max(3, runs / 2));
      const double gf = PeakFamily::flops(p, pp) / t.median_s * 1e-9;
      fmas.push_back({{"dtype", std::string(dtype_name(types[ti]))}, {"params", {{"VW", vw}, {"WGS", 256}}},
                      {"median_ms", t.median_s * 1e3}, {"gflops", gf}});
      if (!opt.quiet)
        std::fprintf(stderr, "  fma  %-4s VW=%lld %35s %9.1f GFLOP/s\n", std::string(dtype_name(types[ti])).c_str(),
                     (long long)vw, "", gf);
      c.fma_gflops[ti] = std::max(c.fma_gflops[ti], gf);
    }
  }
  nlohmann::json tensors = opt.tensor ? measure_tensor_cores(q, runs, opt.quiet, opt.tensor_types, c) : nlohmann::json("not measured");
  c.detail = {{"copy_bytes_per_buffer", bytes}, {"copies", copies}, {"fma", fmas}, {"tensor", tensors}};
  c.copy_bytes = bytes;
  probe_cache(q, c);
  return c;
}

}  // namespace optune::tool
