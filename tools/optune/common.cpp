#include "common.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <set>

#include "ops/params.hpp"
#if __has_include("optune_git_commit.h")
#include "optune_git_commit.h"  // OPTUNE_GIT_COMMIT, written at build time
#endif

namespace optune::tool {

nlohmann::json caps_to_json(const Capabilities& c) {
  auto widths = [](const VectorWidths& w) {
    return nlohmann::json{{"char", w.char_}, {"short", w.short_}, {"int", w.int_},   {"long", w.long_},
                          {"float", w.float_}, {"double", w.double_}, {"half", w.half_}};
  };
  nlohmann::json j{
      {"backend", std::string(backend_name(c.backend))},
      {"spec", c.spec},
      {"name", c.name},
      {"vendor", c.vendor},
      {"type", std::string(device_type_name(c.type))},
      {"platform", c.platform},
      {"driver_version", c.driver_version},
      {"device_version", c.device_version},
      {"opencl_c_version", c.opencl_c_version},
      {"architecture", c.architecture},
      {"compute_units", c.compute_units},
      {"max_clock_mhz", c.max_clock_mhz},
      {"global_mem_bytes", c.global_mem_bytes},
      {"max_alloc_bytes", c.max_alloc_bytes},
      {"local_mem_bytes", c.local_mem_bytes},
      {"max_constant_buffer_bytes", c.max_constant_buffer_bytes},
      {"max_work_group_size", c.max_work_group_size},
      {"max_work_item_sizes", c.max_work_item_sizes},
      {"preferred_vector_width", widths(c.preferred_vector_width)},
      {"native_vector_width", widths(c.native_vector_width)},
      {"subgroups", c.subgroups},
      {"subgroup_sizes", c.subgroup_sizes},
      {"fp16", c.fp16},
      {"fp64", c.fp64},
      {"images", c.images},
      {"image2d_max", {c.image2d_max_width, c.image2d_max_height}},
      {"unified_memory", c.unified_memory},
      {"identity", c.identity()},
  };
  if (c.backend == Backend::CUDA) {
    j["compute_capability"] = std::to_string(c.compute_capability_major) + "." + std::to_string(c.compute_capability_minor);
    j["max_threads_per_cu"] = c.max_threads_per_cu;
    j["shared_mem_per_cu_bytes"] = c.shared_mem_per_cu_bytes;
    j["shared_mem_per_block_optin_bytes"] = c.shared_mem_per_block_optin_bytes;
    j["l2_bytes"] = c.l2_bytes;
    j["warp_size"] = c.warp_size;
    j["memory_clock_mhz"] = c.memory_clock_mhz;
    j["memory_bus_width_bits"] = c.memory_bus_width_bits;
  } else {
    j["extensions"] = c.extensions;
  }
  return j;
}

Device pick_device(const std::string& spec) { return spec.empty() ? default_device() : select_device(spec); }

namespace {

void describe_parameters(const std::vector<detail::LookupRecord>& records, Timing& r) {
  std::set<std::string> seen;
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    if (!seen.insert(it->family + "|" + it->dtype + "|" + it->bucket).second) continue;
    const std::string level = detail::level_name(it->lookup.level);
    nlohmann::json params = nlohmann::json::object();
    std::string text = it->family;
    for (const auto& [name, value] : it->lookup.params) {
      params[name] = value;
      text += " " + name + "=" + std::to_string(value);
    }
    r.parameters.push_back({{"family", it->family}, {"dtype", it->dtype}, {"bucket", it->bucket},
                            {"params", params}, {"level", level}, {"source", it->lookup.source}});
    const std::string from = it->lookup.source == "OPTUNE_PARAMS" ? it->lookup.source : level;
    r.parameters_text = text + " (" + from + ")" + (r.parameters_text.empty() ? "" : "; ") + r.parameters_text;
  }
}

}  // namespace

namespace {
TimingMode g_timing_mode = TimingMode::BackToBack;
}  // namespace

void set_timing_mode(TimingMode m) { g_timing_mode = m; }
TimingMode timing_mode() { return g_timing_mode; }
const char* timing_mode_name(TimingMode m) { return m == TimingMode::Isolated ? "isolated" : "back-to-back"; }

Timing time_events(const std::function<Event()>& fn, int warmup, int runs) {
  detail::take_lookups();
  for (int i = 0; i < warmup; ++i) fn().wait();
  std::vector<double> t;
  // Back to back, every run is enqueued before the first time is read (each
  // event's seconds() waits for its own run); isolated, each run is waited for.
  std::vector<Event> events;
  events.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    events.push_back(fn());
    if (g_timing_mode == TimingMode::Isolated) events.back().wait();
  }
  for (Event& e : events) t.push_back(e.seconds());
  std::sort(t.begin(), t.end());
  Timing r;
  r.runs = runs;
  r.min_s = t.front();
  r.max_s = t.back();
  r.median_s = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
  describe_parameters(detail::take_lookups(), r);
  return r;
}

bool selected(const std::string& name, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const std::string& s : only)
    if (name.find(s) != std::string::npos) return true;
  return false;
}

std::string iso_date() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

std::string git_commit() {
  // OPTUNE_COMMIT names the commit where the build has no git history (the
  // GPU machine gets a copy of the working tree without .git).
  if (const char* c = std::getenv("OPTUNE_COMMIT"); c && *c) return c;
#ifdef OPTUNE_GIT_COMMIT
  return OPTUNE_GIT_COMMIT;
#else
  return "unknown";
#endif
}

}  // namespace optune::tool
