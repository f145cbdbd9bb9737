// OPTUNE_TRACE=FILE: every operator call, program build and kernel as Chrome
// trace JSON (Perfetto opens it). Read once, at the first hook that asks.
//
// Tracks: process 1 holds the host threads (one X event per operator call,
// nested when an operator calls another, and one per program lookup);
// process 2 holds one thread per queue with the kernels at their device
// times. Kernel events are kept with their Event and resolved without a
// wait once complete, or at flush and at exit, so no hook synchronises.
//
// Cost when off: each hook is one relaxed atomic load and a branch.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "optune/runtime.hpp"

namespace optune::detail {

class KernelImpl;
struct Geometry;
struct ProgramStats;

namespace trace {

// -1 not yet read from the environment, 0 off, 1 on.
extern std::atomic<int> g_state;
bool start_from_environment();
inline bool on() noexcept {
  const int s = g_state.load(std::memory_order_relaxed);
  return s > 0 || (s < 0 && start_from_environment());
}

struct CallRecord;  // trace.cpp

// One operator call on the calling thread's host track, from construction to
// destruction; `category` then `detail` make its name ("unary" "gelu").
// `kind` is the event's Chrome-trace category: "operator" for the public
// calls, "database" for the tuning database's own work inside one.
// Hooks that run while it is the thread's innermost span (lookups, program
// lookups, kernel launches) add themselves to its arguments.
class Span {
 public:
  explicit Span(std::string_view category, std::string_view detail = {}, std::string_view kind = "operator");
  ~Span();
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;
  explicit operator bool() const { return rec_ != nullptr; }

  // A tensor argument: {"dtype", "shape", "strides" when given, "offset"}.
  Span& tensor(std::string_view name, DType dtype, const std::vector<std::int64_t>& shape,
               const std::vector<std::int64_t>& strides, std::size_t offset);
  Span& number(std::string_view name, double value);
  Span& flag(std::string_view name, bool value);
  Span& integers(std::string_view name, const std::vector<std::int64_t>& values);
  Span& text(std::string_view name, std::string_view value);

 private:
  std::unique_ptr<CallRecord> rec_;
  int unwinding_ = 0;  // std::uncaught_exceptions() at entry: more at exit means the call threw
};

// Hooks (callers test on() first).
// A tuning-database lookup of params_for: family, problem, answer and its origin.
void lookup(const std::string& family, DType dtype, const std::string& bucket, const std::vector<std::int64_t>& sizes,
            const std::map<std::string, std::int64_t>& extra, const std::map<std::string, std::int64_t>& params,
            const std::string& level, const std::string& source);
// A program taken from the in-process cache, the cache file, or compiled;
// `failed` when the build threw. Ends now and lasted stats.seconds.
void program(std::string_view label, const ProgramStats& stats, const std::string& options, bool failed);
// A kernel enqueued at host time `enqueued_ns` (trace clock, see now_ns()).
void kernel(const Queue& queue, const KernelImpl& kernel, const Geometry& g,
            const std::map<std::string, std::int64_t>* params, const Event& event, std::int64_t enqueued_ns);

// Nanoseconds on the trace's steady clock (zero when tracing started).
std::int64_t now_ns();

// Writes the file now (waiting for the kernels not yet complete). Also runs at
// exit. Returns false when tracing is off or the file cannot be written.
bool flush();

}  // namespace trace
}  // namespace optune::detail
