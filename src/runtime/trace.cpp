// OPTUNE_TRACE: the record of calls, programs and kernels, and the writer of
// the Chrome trace file (see trace.hpp for the layout of the tracks).
#include "runtime/trace.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>

#include "runtime/backend.hpp"
#include "runtime/log.hpp"
#include "runtime/program.hpp"
#include "runtime/trace_file.hpp"

namespace optune {

bool flush_trace() { return detail::trace::on() && detail::trace::flush(); }

}  // namespace optune

namespace optune::detail::trace {

std::atomic<int> g_state{-1};

using json = nlohmann::json;

struct CallRecord {
  std::string name, kind;
  std::uint64_t id = 0;
  std::int64_t start_ns = 0;
  json args = json::object();
  CallRecord* parent = nullptr;
};

namespace {

constexpr int kHostPid = 1, kDevicePid = 2;

struct HostEvent {
  std::string name, category;
  std::int64_t start_ns = 0, dur_ns = 0;
  int tid = 0;
  json args;
};

struct KernelEvent {
  EventPtr event;  // held until its times are read, then dropped
  std::string name;
  int track = 0;
  std::int64_t enqueued_ns = 0;  // host trace clock
  EventTimes times;
  bool failed = false;
  json args;
};

struct QueueTrack {
  std::weak_ptr<QueueImpl> queue;
  int track = 0;
};

struct Store {
  std::mutex mu;
  std::string path;
  std::chrono::steady_clock::time_point origin = std::chrono::steady_clock::now();
  std::vector<HostEvent> host;
  std::vector<KernelEvent> kernels;
  std::vector<std::size_t> pending;  // indices of kernels whose event is still held
  std::size_t sweep_at = 64;
  std::map<const QueueImpl*, QueueTrack> queues;
  std::map<int, std::string> track_names;  // device tracks
  std::map<int, std::string> thread_names;
  int next_tid = 1, next_track = 1;
  std::atomic<std::uint64_t> next_call{1};
};

// Never destroyed: the exit handler and late threads may still use it.
Store& store() {
  static Store* s = new Store;
  return *s;
}

thread_local CallRecord* t_current = nullptr;
thread_local int t_tid = 0;

int thread_track(Store& s) {  // s.mu held
  if (!t_tid) {
    t_tid = s.next_tid++;
    s.thread_names[t_tid] = "thread " + std::to_string(t_tid);
  }
  return t_tid;
}

// Reads a kernel's device times (waiting if it is not complete) and lets its Event go.
void resolve(KernelEvent& k) {
  try {
    k.times = k.event->times();
  } catch (const std::exception&) {
    k.failed = true;
  }
  k.event.reset();
}

void sweep_complete(Store& s) {  // s.mu held
  std::vector<std::size_t> still;
  for (std::size_t i : s.pending) {
    KernelEvent& k = s.kernels[i];
    bool done = false;
    try {
      done = k.event->complete();
    } catch (const std::exception&) {
      done = true;
    }
    if (done) resolve(k);
    else still.push_back(i);
  }
  s.pending.swap(still);
  s.sweep_at = std::max<std::size_t>(64, 2 * s.pending.size());
}

std::string expand_path(std::string path) {
  for (std::size_t at = path.find("%p"); at != std::string::npos; at = path.find("%p", at))
    path.replace(at, 2, std::to_string(getpid()));
  return path;
}

double us(std::int64_t ns) { return double(ns) / 1e3; }

json metadata(const char* what, int pid, int tid, const std::string& name) {
  json m = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
  if (tid >= 0) m["tid"] = tid;
  return m;
}

json trace_json(Store& s) {  // s.mu held, every kernel resolved
  json events = json::array();
  events.push_back(metadata("process_name", kHostPid, -1, "optune host (pid " + std::to_string(getpid()) + ")"));
  events.push_back(metadata("process_name", kDevicePid, -1, "optune device queues"));
  for (const auto& [tid, name] : s.thread_names) events.push_back(metadata("thread_name", kHostPid, tid, name));
  for (const auto& [track, name] : s.track_names) events.push_back(metadata("thread_name", kDevicePid, track, name));
  for (const HostEvent& h : s.host)
    events.push_back({{"name", h.name}, {"cat", h.category}, {"ph", "X"}, {"ts", us(h.start_ns)},
                      {"dur", us(h.dur_ns)}, {"pid", kHostPid}, {"tid", h.tid}, {"args", h.args}});
  // Device clocks to the host's: each queue's kernels share one clock, and
  // a command is queued after the host began to enqueue it, so the largest
  // (host enqueue - device queued) over a queue bounds the offset from below.
  std::map<int, std::int64_t> offset;
  for (const KernelEvent& k : s.kernels) {
    if (k.failed) continue;
    const std::int64_t queued = std::int64_t(k.times.queued ? k.times.queued : k.times.start);
    const std::int64_t o = k.enqueued_ns - queued;
    auto [it, fresh] = offset.emplace(k.track, o);
    if (!fresh) it->second = std::max(it->second, o);
  }
  for (const KernelEvent& k : s.kernels) {
    json args = k.args;
    if (k.failed) {
      args["failed"] = true;
      events.push_back({{"name", k.name}, {"cat", "kernel"}, {"ph", "X"}, {"ts", us(k.enqueued_ns)}, {"dur", 0},
                        {"pid", kDevicePid}, {"tid", k.track}, {"args", args}});
      continue;
    }
    const std::int64_t start = std::int64_t(k.times.start) + offset[k.track];
    const std::int64_t dur = k.times.end > k.times.start ? std::int64_t(k.times.end - k.times.start) : 0;
    args["device_us"] = us(dur);
    if (k.times.queued && k.times.start >= k.times.queued)
      args["queued_to_start_us"] = us(std::int64_t(k.times.start - k.times.queued));
    events.push_back({{"name", k.name}, {"cat", "kernel"}, {"ph", "X"}, {"ts", us(start)}, {"dur", us(dur)},
                      {"pid", kDevicePid}, {"tid", k.track}, {"args", args}});
  }
  return {{"traceEvents", events},
          {"displayTimeUnit", "ms"},
          {"otherData", {{"producer", "optune"}, {"clock", "steady, microseconds since tracing started"}}}};
}

json tensor_json(DType dtype, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                 std::size_t offset) {
  json t = {{"dtype", dtype_name(dtype)}, {"shape", shape}, {"offset", offset}};
  if (!strides.empty()) t["strides"] = strides;
  return t;
}

}  // namespace

bool start_from_environment() {
  static std::mutex mu;
  std::lock_guard lock(mu);
  int s = g_state.load(std::memory_order_relaxed);
  if (s >= 0) return s > 0;
  std::string path = env_or("OPTUNE_TRACE", "");
  if (!path.empty()) {
    // Refused up front, with one warning, so that a path that can never be
    // written (a device node, a FIFO, a directory) costs nothing further.
    if (const std::string why = unwritable_reason(expand_path(path)); !why.empty()) {
      log_warn("OPTUNE_TRACE: " + expand_path(path) + " " + why + "; tracing is off");
      path.clear();
    }
  }
  if (!path.empty()) {
    Store& st = store();
    st.path = expand_path(path);
    st.origin = std::chrono::steady_clock::now();
    // Registered at the first traced call, after the driver has started, so
    // this handler runs before the driver's own teardown.
    std::atexit([] { flush(); });
    log_info("OPTUNE_TRACE: writing a Chrome trace to " + st.path + " at exit");
  }
  s = path.empty() ? 0 : 1;
  g_state.store(s, std::memory_order_relaxed);
  return s > 0;
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - store().origin)
      .count();
}

Span::Span(std::string_view category, std::string_view detail, std::string_view kind) {
  if (!on()) return;
  try {
    rec_ = std::make_unique<CallRecord>();
    rec_->name = std::string(category);
    rec_->kind = std::string(kind);
    if (!detail.empty()) rec_->name.append(" ").append(detail);
    rec_->id = store().next_call.fetch_add(1, std::memory_order_relaxed);
    rec_->parent = t_current;
    t_current = rec_.get();
    unwinding_ = std::uncaught_exceptions();
    rec_->start_ns = now_ns();
  } catch (const std::exception&) {
    rec_.reset();  // tracing must never fail a call
  }
}

Span::~Span() {
  if (!rec_) return;
  const std::int64_t end = now_ns();
  t_current = rec_->parent;
  try {
    rec_->args["call"] = rec_->id;
    if (std::uncaught_exceptions() > unwinding_) rec_->args["failed"] = true;
    Store& s = store();
    std::lock_guard lock(s.mu);
    s.host.push_back({std::move(rec_->name), std::move(rec_->kind), rec_->start_ns, end - rec_->start_ns, thread_track(s),
                      std::move(rec_->args)});
  } catch (const std::exception&) {
  }
}

Span& Span::tensor(std::string_view name, DType dtype, const std::vector<std::int64_t>& shape,
                   const std::vector<std::int64_t>& strides, std::size_t offset) {
  if (rec_) rec_->args[std::string(name)] = tensor_json(dtype, shape, strides, offset);
  return *this;
}

Span& Span::number(std::string_view name, double value) {
  if (rec_) rec_->args[std::string(name)] = value;
  return *this;
}

Span& Span::flag(std::string_view name, bool value) {
  if (rec_) rec_->args[std::string(name)] = value;
  return *this;
}

Span& Span::integers(std::string_view name, const std::vector<std::int64_t>& values) {
  if (rec_) rec_->args[std::string(name)] = values;
  return *this;
}

Span& Span::text(std::string_view name, std::string_view value) {
  if (rec_) rec_->args[std::string(name)] = value;
  return *this;
}

void lookup(const std::string& family, DType dtype, const std::string& bucket, const std::vector<std::int64_t>& sizes,
            const std::map<std::string, std::int64_t>& extra, const std::map<std::string, std::int64_t>& params,
            const std::string& level, const std::string& source) {
  if (!t_current) return;
  try {
    t_current->args["lookups"].push_back({{"family", family},
                                          {"dtype", dtype_name(dtype)},
                                          {"sizes", sizes},
                                          {"extra", extra},
                                          {"bucket", bucket},
                                          {"params", params},
                                          {"level", level},
                                          {"source", source}});
  } catch (const std::exception&) {
  }
}

void program(std::string_view label, const ProgramStats& stats, const std::string& options, bool failed) {
  try {
    const char* how = failed             ? "failed"
                      : stats.from_memory ? "memory cache"
                      : stats.from_disk   ? "disk cache"
                      : stats.from_embedded ? "embedded cubin"
                                          : "compiled";
    const std::int64_t dur = std::int64_t(stats.seconds * 1e9);
    const std::int64_t end = now_ns();
    json args = {{"source", label}, {"result", how}, {"ms", stats.seconds * 1e3}};
    if (!stats.from_memory) args["defines"] = options;
    if (t_current) {
      args["operator"] = t_current->name;
      t_current->args["programs"].push_back({{"source", label}, {"result", how}, {"ms", stats.seconds * 1e3}});
    }
    Store& s = store();
    std::lock_guard lock(s.mu);
    s.host.push_back({"program " + std::string(label), "program", end - dur, dur, thread_track(s), std::move(args)});
  } catch (const std::exception&) {
  }
}

void kernel(const Queue& queue, const KernelImpl& kernel, const Geometry& g,
            const std::map<std::string, std::int64_t>* params, const Event& event, std::int64_t enqueued_ns) {
  if (!event.valid()) return;
  try {
    KernelEvent k;
    k.event = event.impl();
    k.name = kernel.name();
    k.enqueued_ns = enqueued_ns;
    std::vector<std::size_t> global(g.global, g.global + g.dims), local(g.local, g.local + g.dims);
    k.args = {{"global", global}, {"local", local}};
    if (params) k.args["params"] = *params;
    if (t_current) {
      k.args["operator"] = t_current->name;
      k.args["call"] = t_current->id;
      t_current->args["kernels"].push_back(kernel.name());
    }
    Store& s = store();
    std::lock_guard lock(s.mu);
    const QueueImpl* key = queue.impl().get();
    QueueTrack& qt = s.queues[key];
    if (!qt.track || qt.queue.expired()) {  // a new queue (perhaps at a freed one's address)
      qt = {queue.impl(), s.next_track++};
      s.track_names[qt.track] = "queue " + std::to_string(qt.track) + " on " + queue.device().name() + " (" +
                                queue.device().spec() + ")";
    }
    k.track = qt.track;
    s.pending.push_back(s.kernels.size());
    s.kernels.push_back(std::move(k));
    if (s.pending.size() >= s.sweep_at) sweep_complete(s);
  } catch (const std::exception&) {
  }
}

bool flush() {
  if (g_state.load(std::memory_order_relaxed) <= 0) return false;
  Store& s = store();
  // Wait for unfinished kernels outside the lock: other threads keep tracing.
  std::vector<std::pair<std::size_t, EventPtr>> waiting;
  {
    std::lock_guard lock(s.mu);
    for (std::size_t i : s.pending) waiting.emplace_back(i, s.kernels[i].event);
  }
  std::vector<std::pair<EventTimes, bool>> got;
  for (auto& [i, ev] : waiting) {
    try {
      got.emplace_back(ev->times(), false);
    } catch (const std::exception&) {
      got.emplace_back(EventTimes{}, true);
    }
  }
  try {
    std::lock_guard lock(s.mu);
    for (std::size_t j = 0; j < waiting.size(); ++j) {
      KernelEvent& k = s.kernels[waiting[j].first];
      if (!k.event) continue;
      k.times = got[j].first;
      k.failed = got[j].second;
      k.event.reset();
    }
    std::vector<std::size_t> still;  // enqueued while we waited
    for (std::size_t i : s.pending)
      if (s.kernels[i].event) still.push_back(i);
    for (std::size_t i : still) resolve(s.kernels[i]);
    s.pending.clear();
    const std::string text = trace_json(s).dump();
    return write_file(s.path, text);
  } catch (const std::exception& e) {
    log_warn(std::string("OPTUNE_TRACE: ") + e.what());
    return false;
  }
}

}  // namespace optune::detail::trace
