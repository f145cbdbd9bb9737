// Program cache: a kernel source plus its defines compiles once per context
// and, through the cache file, once per machine.
#include "runtime/program.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "runtime/cache_file.hpp"
#include "runtime/checksum.hpp"
#include "runtime/embedded.hpp"
#include "runtime/embedded_cubins.hpp"
#include "runtime/log.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {

std::atomic<std::uint64_t> n_compiled{0}, n_from_disk{0}, n_from_memory{0}, n_embedded{0};
std::atomic<std::uint64_t> ns_file{0}, ns_load{0}, ns_compile{0};

std::uint64_t ns_since(std::chrono::steady_clock::time_point t0) {
  return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A stored binary (embedded or from the cache file) loaded: counted, marked
// in the stats and logged with where it came from; nullptr when the driver
// refuses it.
ProgramPtr load_stored(ContextImpl& ctx, const std::vector<std::uint8_t>& bin, const std::string& options, bool* stat,
                       std::atomic<std::uint64_t>& count, const std::string& what,
                       std::chrono::steady_clock::time_point t0) {
  const auto t_load = std::chrono::steady_clock::now();
  ProgramPtr p = ctx.load_binary(bin, options);
  ns_load.fetch_add(ns_since(t_load), std::memory_order_relaxed);
  if (!p) return nullptr;
  if (stat) *stat = true;
  count.fetch_add(1, std::memory_order_relaxed);
  log_debug(what + " on " + ctx.device()->caps().name + " in " + std::to_string(seconds_since(t0) * 1e3) + " ms");
  return p;
}

ProgramPtr compile_or_load(ContextImpl& ctx, std::string_view label, const std::string& text,
                           const std::string& options, const std::string& key, ProgramStats* stats) {
  const Capabilities& caps = ctx.device()->caps();
  CacheFile* file = cache_enabled() ? CacheFile::instance() : nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  // A cubin the build compiled for exactly this architecture, options and
  // text (embedded_cubins.hpp): no compile, and nothing to store.
  if (caps.backend == Backend::CUDA) {
    if (auto cubin = embedded_cubin(caps.architecture, options, text)) {
      if (ProgramPtr p = load_stored(ctx, *cubin, options, stats ? &stats->from_embedded : nullptr, n_embedded,
                                     "embedded cubin: " + std::string(label), t0))
        return p;
      warn_once("embedded-cubin-rejected:" + key,
                "embedded cubin of " + std::string(label) + " rejected by the driver; compiling");
    }
  }
  if (file) {
    const auto t_read = std::chrono::steady_clock::now();
    auto bin = file->get_program(key);
    ns_file.fetch_add(ns_since(t_read), std::memory_order_relaxed);
    if (bin) {
      if (ProgramPtr p = load_stored(ctx, *bin, options, stats ? &stats->from_disk : nullptr, n_from_disk,
                                     "program cache hit (disk): " + std::string(label), t0))
        return p;
      log_warn("cached binary of " + std::string(label) + " rejected by the driver; recompiling");
      file->remove_program(key);
    }
  }
  ProgramPtr p;
  const auto t_build = std::chrono::steady_clock::now();
  try {
    p = ctx.build(text, options);
    ns_compile.fetch_add(ns_since(t_build), std::memory_order_relaxed);
  } catch (const Error& e) {
    // Some drivers (NVIDIA's OpenCL) ignore #line file names in their logs:
    // name the kernel file here so every build error says which one failed.
    if (e.status() != Status::BuildFailure) throw;
    throw Error(Status::BuildFailure, std::string(label) + ": " + e.what());
  }
  n_compiled.fetch_add(1, std::memory_order_relaxed);
  log_debug("compiled " + std::string(label) + " on " + caps.name + " in " +
            std::to_string(seconds_since(t0) * 1e3) + " ms (options:" + options + ")");
  if (file) {
    std::vector<std::uint8_t> bin = p->binary();
    if (!bin.empty()) file->put_program(key, caps.identity(), bin);
  }
  return p;
}

}  // namespace

ProgramCounts program_counts() {
  ProgramCounts c;
  c.compiled = n_compiled.load(std::memory_order_relaxed);
  c.from_disk = n_from_disk.load(std::memory_order_relaxed);
  c.from_memory = n_from_memory.load(std::memory_order_relaxed);
  c.from_embedded = n_embedded.load(std::memory_order_relaxed);
  c.file_ns = ns_file.load(std::memory_order_relaxed);
  c.load_ns = ns_load.load(std::memory_order_relaxed);
  c.compile_ns = ns_compile.load(std::memory_order_relaxed);
  return c;
}

std::string capability_macros(const Capabilities& caps) {
  std::string s;
  s += "#define OPTUNE_BACKEND_OPENCL " + std::string(caps.backend == Backend::OpenCL ? "1" : "0") + "\n";
  s += "#define OPTUNE_BACKEND_CUDA " + std::string(caps.backend == Backend::CUDA ? "1" : "0") + "\n";
  s += "#define OPTUNE_HAS_SUBGROUPS " + std::string(caps.subgroups ? "1" : "0") + "\n";
  s += "#define OPTUNE_HAS_FP16 " + std::string(caps.fp16 ? "1" : "0") + "\n";
  s += "#define OPTUNE_HAS_FP64 " + std::string(caps.fp64 ? "1" : "0") + "\n";
  s += "#define OPTUNE_HAS_IMAGES " + std::string(caps.images ? "1" : "0") + "\n";
  if (caps.subgroups && caps.subgroup_sizes.size() == 1)
    s += "#define OPTUNE_SUBGROUP_SIZE " + std::to_string(caps.subgroup_sizes[0]) + "\n";
  return s;
}

std::string assemble_text(const Capabilities& caps, const std::string& backend_prelude, std::string_view label,
                          std::string_view body) {
  std::string s = capability_macros(caps);
  s += backend_prelude;
  s += "\n#line 1 \"common/prelude.cl\"\n";
  s += kernel_source("common/prelude.cl");
  s += "\n#line 1 \"" + std::string(label) + "\"\n";
  s += body;
  s += "\n";
  return s;
}

std::string assemble_source(const DeviceImpl& device, std::string_view source_name) {
  return assemble_text(device.caps(), device.backend_prelude(), source_name, kernel_source(source_name));
}

bool has_extension(const std::string& extensions, std::string_view name) {
  std::size_t pos = 0;
  while ((pos = extensions.find(name, pos)) != std::string::npos) {
    const bool start = pos == 0 || extensions[pos - 1] == ' ';
    const bool end = pos + name.size() == extensions.size() || extensions[pos + name.size()] == ' ';
    if (start && end) return true;
    pos += name.size();
  }
  return false;
}

namespace {
bool nv_compiler_options(const Capabilities& caps) {
  return caps.backend == Backend::OpenCL && has_extension(caps.extensions, "cl_nv_compiler_options");
}
}  // namespace

bool takes_register_cap(const Capabilities& caps) {
  return caps.backend == Backend::CUDA || nv_compiler_options(caps);
}

std::string register_cap_options(const Capabilities& caps, const Defines& defines) {
  if (!nv_compiler_options(caps)) return "";
  for (const auto& [k, v] : defines)
    if (k == "OPTUNE_REG_CAP" && v != "0") return " -cl-nv-maxrregcount=" + v;
  return "";
}

std::string assemble_options(const DeviceImpl& device, const Defines& defines) {
  Defines sorted = defines;
  std::sort(sorted.begin(), sorted.end());
  std::string s = device.base_options();
  for (const auto& [k, v] : sorted) {
    if (k.empty() || k.find_first_of(" \t\n\"'=") != std::string::npos ||
        v.find_first_of(" \t\n\"'") != std::string::npos)
      throw Error(Status::Internal, "kernel define '" + k + "=" + v + "' would break the option string");
    s += " -D" + k + "=" + v;
  }
  s += register_cap_options(device.caps(), defines);
  // OPTUNE_BUILD_OPTIONS: compiler options appended to every build (an
  // experiment's knob, e.g. -cl-nv-maxrregcount=128 or --maxrregcount=128);
  // they are part of the program cache's key like the rest.
  static const std::string extra = env_or("OPTUNE_BUILD_OPTIONS", "");
  if (!extra.empty()) s += " " + extra;
  return s;
}

namespace {

std::string defines_text(const Defines& defines) {
  Defines sorted = defines;
  std::sort(sorted.begin(), sorted.end());
  std::string s;
  for (const auto& [k, v] : sorted) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

ProgramPtr find_or_build(ContextImpl& ctx, std::string_view label, const std::string& body, const Defines& defines,
                         ProgramStats* stats) {
  const auto t0 = std::chrono::steady_clock::now();
  // The text and options are a function of the context's device (fixed),
  // OPTUNE_BUILD_OPTIONS (read once) and these three: a program already
  // made from the same label, defines and body is this one.
  const std::string source_key = std::string(label) + '\n' + defines_text(defines);
  {
    std::lock_guard lock(ctx.programs_mutex);
    auto it = ctx.programs_by_source.find(source_key);
    if (it != ctx.programs_by_source.end())
      for (const auto& [b, p] : it->second)
        if (b == body) {
          n_from_memory.fetch_add(1, std::memory_order_relaxed);
          if (stats) {
            stats->from_memory = true;
            stats->seconds = seconds_since(t0);
          }
          return p;
        }
  }
  const auto remember = [&](const ProgramPtr& p) {
    std::lock_guard lock(ctx.programs_mutex);
    auto& list = ctx.programs_by_source[source_key];
    for (const auto& entry : list)
      if (entry.first == body) return;
    list.emplace_back(body, p);
  };
  const DeviceImpl& dev = *ctx.device();
  const std::string text = assemble_text(dev.caps(), dev.backend_prelude(), label, body);
  const std::string options = assemble_options(dev, defines);
  const std::string key = digest128({dev.caps().identity(), options, text});

  // One thread compiles a key; others asking for it wait on the key's mutex
  // and then find it in the map. A failed build throws to its caller and
  // leaves the key free for the next attempt. (A mutex per key rather than
  // std::call_once: exceptions out of call_once abort in some libstdc++ set-ups.)
  std::shared_ptr<std::mutex> key_mutex;
  {
    std::lock_guard lock(ctx.programs_mutex);
    auto it = ctx.programs.find(key);
    if (it != ctx.programs.end()) {
      n_from_memory.fetch_add(1, std::memory_order_relaxed);
      if (stats) {
        stats->from_memory = true;
        stats->seconds = seconds_since(t0);
      }
      ProgramPtr p = it->second;
      auto& list = ctx.programs_by_source[source_key];
      if (std::none_of(list.begin(), list.end(), [&](const auto& e) { return e.first == body; }))
        list.emplace_back(body, p);
      return p;
    }
    auto& slot = ctx.programs_pending[key];
    if (!slot) slot = std::make_shared<std::mutex>();
    key_mutex = slot;
  }
  std::lock_guard build_lock(*key_mutex);
  {
    std::lock_guard lock(ctx.programs_mutex);
    auto it = ctx.programs.find(key);
    if (it != ctx.programs.end()) {
      n_from_memory.fetch_add(1, std::memory_order_relaxed);
      if (stats) {
        stats->from_memory = true;
        stats->seconds = seconds_since(t0);
      }
      return it->second;
    }
  }
  ProgramPtr p = compile_or_load(ctx, label, text, options, key, stats);
  {
    std::lock_guard lock(ctx.programs_mutex);
    ctx.programs[key] = p;
    ctx.programs_pending.erase(key);
  }
  remember(p);
  if (stats) stats->seconds = seconds_since(t0);
  return p;
}

}  // namespace

ProgramPtr get_program_from_text(ContextImpl& ctx, std::string_view label, const std::string& body,
                                 const Defines& defines, ProgramStats* stats) {
  if (!trace::on()) return find_or_build(ctx, label, body, defines, stats);
  ProgramStats local;
  ProgramStats* st = stats ? stats : &local;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    ProgramPtr p = find_or_build(ctx, label, body, defines, st);
    trace::program(label, *st, st->from_memory ? std::string() : defines_text(defines), false);
    return p;
  } catch (...) {
    st->seconds = seconds_since(t0);
    trace::program(label, *st, defines_text(defines), true);
    throw;
  }
}

ProgramPtr get_program(ContextImpl& ctx, std::string_view source_name, const Defines& defines, ProgramStats* stats) {
  return get_program_from_text(ctx, source_name, std::string(kernel_source(source_name)), defines, stats);
}

void check_geometry(const Capabilities& caps, const Geometry& g) {
  if (g.dims < 1 || g.dims > 3) throw Error(Status::Internal, "launch: dims must be 1..3");
  for (unsigned d = 0; d < g.dims; ++d) {
    if (g.local[d] == 0 || g.global[d] == 0 || g.global[d] % g.local[d] != 0)
      throw Error(Status::Internal, "launch: global size " + std::to_string(g.global[d]) +
                                        " is not a positive multiple of local size " + std::to_string(g.local[d]));
    if (caps.max_work_item_sizes[d] && g.local[d] > caps.max_work_item_sizes[d])
      throw Error(Status::OutOfResources, "launch: local size " + std::to_string(g.local[d]) + " in dimension " +
                                              std::to_string(d) + " exceeds the device limit " +
                                              std::to_string(caps.max_work_item_sizes[d]));
  }
  if (caps.max_work_group_size && g.group_size() > caps.max_work_group_size)
    throw Error(Status::OutOfResources, "launch: work-group of " + std::to_string(g.group_size()) +
                                            " exceeds the device limit " + std::to_string(caps.max_work_group_size));
  if (g.shared_bytes) {
    if (caps.backend != Backend::CUDA)
      throw Error(Status::Unsupported, "launch: dynamic shared memory is a CUDA launch option");
    const std::uint64_t limit = std::max(caps.shared_mem_per_block_optin_bytes, caps.local_mem_bytes);
    if (g.shared_bytes > limit)
      throw Error(Status::OutOfResources, "launch: " + std::to_string(g.shared_bytes) +
                                              " bytes of dynamic shared memory exceed the device limit " +
                                              std::to_string(limit));
  }
}

KernelArg KernelArg::bytes(const void* data, std::size_t size) {
  if (size == 0 || size > kMaxValueBytes)
    throw Error(Status::Internal, "kernel argument of " + std::to_string(size) + " bytes (1.." +
                                      std::to_string(kMaxValueBytes) + " allowed)");
  KernelArg a;
  a.kind = Kind::Scalar;
  a.size = size;
  std::memcpy(a.value, data, size);
  return a;
}

Launch& Launch::image(const Image2D& img) {
  if (!img.impl()) throw Error(Status::InvalidArgument, "kernel argument is not an image");
  args_.push_back(KernelArg::img(*img.impl()));
  return *this;
}

Event launch_kernel(const Queue& queue, KernelImpl& kernel, const std::vector<KernelArg>& args, const Geometry& g,
                    const WaitList& wait, const std::map<std::string, std::int64_t>* params) {
  check_geometry(queue.device().caps(), g);
  if (!trace::on()) return Event(queue.impl()->launch(kernel, args, g, wait));
  const std::int64_t enqueued = trace::now_ns();
  Event e(queue.impl()->launch(kernel, args, g, wait));
  trace::kernel(queue, kernel, g, params, e, enqueued);
  return e;
}

Event Launch::run(const Geometry& g, const WaitList& wait) {
  for (const auto& m : keep_)
    if (m->context() != queue_.context().impl().get())
      throw Error(Status::InvalidArgument, "kernel " + kernel_->name() + ": a buffer belongs to another context");
  return launch_kernel(queue_, *kernel_, args_, g, wait);
}

}  // namespace optune::detail
