// The host interface's engine: contexts, per-thread queues and buffer pools,
// and the choice of device per call (engine.hpp).
#include "hostblas/engine.hpp"

#include <algorithm>
#include <limits>
#include <thread>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "optune/interop.hpp"
#include "hostblas/staging.hpp"
#include "kernels/blas/host_blas.hpp"
#include "runtime/backend.hpp"
#include "runtime/env.hpp"

namespace optune::hostblas {

namespace {

// A context to run on and whether its device works on host memory in place.
struct Target {
  Context ctx;
  bool zero_copy = false;
};

bool shares_host_memory(const Device& d) {
  return d.backend() == Backend::OpenCL && d.caps().unified_memory;
}

// What the environment and the bench's entry points set: readable without a
// device.
struct Settings {
  // OPTUNE_BLAS_THRESHOLD or optune_host_blas_set_threshold, for every class
  // (< 0: unset).
  std::atomic<double> threshold{-1};
  // OPTUNE_BLAS_THREAD_THRESHOLD or optune_host_blas_set_thread_threshold
  // (< 0: unset).
  std::atomic<double> thread_threshold{-1};
  // OPTUNE_BLAS_COPY=1 stages operands through device buffers even where the
  // device works on host memory (the tests run the copy path on PoCL).
  bool copy = false;
  // OPTUNE_BLAS_STAGE_BYTES, _CHUNK, _THREADS: the staging of large operands
  // (staging.hpp) in place of the database's STAGE_* (< 0: unset); the tests
  // stage every operand in small chunks on PoCL.
  double stage_bytes = -1, stage_chunk = -1, stage_threads = -1;
};

Settings& settings() {
  static Settings* s = [] {
    auto* st = new Settings;
    st->threshold = detail::env_number("OPTUNE_BLAS_THRESHOLD", -1, 0, 1e300);
    st->thread_threshold = detail::env_number("OPTUNE_BLAS_THREAD_THRESHOLD", -1, 0, 1e300);
    st->copy = detail::env_choice("OPTUNE_BLAS_COPY", {"0", "1"}, "0") == "1";
    st->stage_bytes = detail::env_number("OPTUNE_BLAS_STAGE_BYTES", -1, 0, 1e300);
    st->stage_chunk = detail::env_number("OPTUNE_BLAS_STAGE_CHUNK", -1, 1, double(std::size_t(1) << 30));
    st->stage_threads = detail::env_number("OPTUNE_BLAS_STAGE_THREADS", -1, 1, 64);
    return st;
  }();
  return *s;
}

// The database's thresholds for one type (DType's value), read once.
struct Thresholds {
  std::once_flag once;
  double device[3] = {0, 0, 0};  // L<n>_LOG2: below, the CPU device
  double thread[3] = {0, 0, 0};  // L<n>_THREAD_LOG2: below, the caller's thread
};

struct Engine {
  Device big;  // the default device, chosen (enumerated, no context) at the first call
  Thresholds by_type[16];
  // Made at the first call that runs on a device.
  std::once_flag started;
  Target target[2];  // [0] the default device, [1] the CPU device for small calls
  bool split = false;  // target[1] is another device than target[0]
  // Operands of at least stage_min bytes that target[0] copies go through
  // the stager (made at the first such operand).
  double stage_min = std::numeric_limits<double>::infinity();
  detail::HostBlasStaging staging;
  std::once_flag stager_once;
  Stager* stager = nullptr;

  Stager& staged() {
    std::call_once(stager_once, [&] {
      const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
      stager = new Stager(target[0].ctx, std::min(staging.threads, cores), staging.chunk);
    });
    return *stager;
  }

  const Thresholds& thresholds(DType dtype) {
    Thresholds& t = by_type[int(dtype) & 15];
    std::call_once(t.once, [&] {
      const Capabilities& caps = big.caps();
      for (int l = 0; l < 3; ++l) {
        t.device[l] = detail::host_blas_threshold(caps, dtype, l + 1);
        t.thread[l] = detail::host_blas_thread_threshold(caps, dtype, l + 1);
      }
    });
    return t;
  }

  void start() {
    std::call_once(started, [&] {
      target[0] = {Context(big), shares_host_memory(big) && !settings().copy};
      target[1] = target[0];
      const Settings& st = settings();
      staging = detail::host_blas_staging(big.caps());
      stage_min = st.stage_bytes >= 0 ? st.stage_bytes : staging.min_bytes;
      if (st.stage_chunk >= 0) staging.chunk = std::size_t(st.stage_chunk);
      if (st.stage_threads >= 0) staging.threads = std::size_t(st.stage_threads);
      if (big.caps().type != DeviceType::CPU) {
        for (const Device& d : devices()) {
          if (d.caps().type == DeviceType::CPU && shares_host_memory(d)) {
            target[1] = {Context(d), true};
            split = true;
            break;
          }
        }
      }
    });
  }
};

// Made once per process, at the first call, and never destroyed: the
// process may exit from any thread while another still calls, and the
// drivers' own exit handlers release what is left. Choosing the default
// device enumerates the devices; contexts wait for start().
Engine& engine() {
  static Engine* e = [] {
    auto* en = new Engine;
    en->big = default_device();
    return en;
  }();
  return *e;
}

// The engine with its contexts made.
Engine& started_engine() {
  Engine& e = engine();
  e.start();
  return e;
}

}  // namespace

// A device buffer kept between calls, grown when a call needs more.
struct Pooled {
  std::shared_ptr<detail::MemImpl> mem;
  std::size_t bytes = 0;
};

struct ThreadState {
  std::optional<Queue> queue[2];
  std::vector<Pooled> pool;  // the default device's staging buffers, by operand position
};

namespace {
thread_local ThreadState t_state;
}

bool in_thread(Class cls, DType dtype, double work) noexcept {
  const double forced = settings().thread_threshold.load(std::memory_order_relaxed);
  if (forced >= 0) return work < forced;
  // Set once the default device could not be chosen, so that the devices are
  // not enumerated again at every call.
  static std::atomic<bool> no_device{false};
  if (!no_device.load(std::memory_order_relaxed)) {
    try {
      return work < engine().thresholds(dtype).thread[int(cls)];
    } catch (...) {
      no_device.store(true, std::memory_order_relaxed);
    }
  }
  // No device to read the database for: the family's defaults, so that small
  // calls still run (the others report the device's failure).
  static const detail::Params defaults = detail::families::host_blas().defaults(Capabilities{});
  static const char* const names[3] = {"L1_THREAD_LOG2", "L2_THREAD_LOG2", "L3_THREAD_LOG2"};
  return work < std::ldexp(1.0, int(defaults.at(names[int(cls)])));
}

Call::Call(Class cls, DType dtype, double work) : thread_(&t_state) {
  Engine& e = started_engine();
  if (e.split) {
    const double forced = settings().threshold.load(std::memory_order_relaxed);
    target_ = work < (forced >= 0 ? forced : e.thresholds(dtype).device[int(cls)]) ? 1 : 0;
  }
  if (!thread_->queue[target_]) thread_->queue[target_].emplace(e.target[target_].ctx);
  queue_ = &*thread_->queue[target_];
  zero_copy_ = e.target[target_].zero_copy;
}

Call::Placed Call::stage(void* host, std::size_t bytes, std::size_t element, bool read, bool write) {
  if (zero_copy_) {
    // The kernels assume a memory object's start is aligned as a device
    // allocation is (their vector loads may need it; PoCL's aligned loads
    // fault otherwise): the object starts up to 127 bytes before the
    // operand, at a multiple of kAlign where the element size allows, so the
    // operand is a view at an offset whose alignment the kernels check. Those
    // bytes lie in the operand's page and are never touched.
    constexpr std::size_t kAlign = 128;
    const std::size_t misaligned = reinterpret_cast<std::uintptr_t>(host) % kAlign;
    const std::size_t before = misaligned - misaligned % element;
    auto* start = static_cast<std::uint8_t*>(host) - before;
    auto mem = detail::adopt_host_bytes(queue_->context(), start, before + bytes, {});
    staged_.push_back({host, bytes, mem, before, write, false});
    return {mem, before};
  }
  const std::size_t slot = staged_.size();
  if (thread_->pool.size() <= slot) thread_->pool.resize(slot + 1);
  Pooled& p = thread_->pool[slot];
  if (p.bytes < bytes) {
    // Grow by at least half again, so a sweep of rising sizes reallocates
    // a few times only.
    const std::size_t want = std::max(bytes, p.bytes + p.bytes / 2);
    p.mem.reset();
    p.mem = queue_->context().alloc<std::uint8_t>(want).mem();
    p.bytes = want;
  }
  Buffer<std::uint8_t> dev(p.mem, 0, bytes);
  // A large operand goes through the staging workers (staging.hpp; blocking:
  // it is on the device when this returns), a small one is one copy.
  Engine& e = engine();
  const bool staged = target_ == 0 && double(bytes) >= e.stage_min;
  if (read) {
    if (staged)
      e.staged().upload(dev, host);
    else
      queue_->write(dev, std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(host), bytes));
  }
  staged_.push_back({host, bytes, p.mem, 0, write, staged});
  return {p.mem, 0};
}

void Call::finish() {
  bool later = false;
  for (const Staged& s : staged_) {
    if (!s.write) continue;
    if (zero_copy_) {
      // Mapping waits for the queue and makes the device's writes visible in
      // the caller's memory (the host-pointer buffer's contract).
      interop::map_host(*queue_, Buffer<std::uint8_t>(s.mem, s.offset_bytes, s.bytes)).reset();
    } else if (s.staged) {
      later = true;
    } else {
      queue_->read(Buffer<std::uint8_t>(s.mem, s.offset_bytes, s.bytes),
                   std::span<std::uint8_t>(static_cast<std::uint8_t*>(s.host), s.bytes));
    }
  }
  queue_->finish();
  // The staging workers' queues are not this one: they start once the
  // routine's work is done.
  if (later)
    for (const Staged& s : staged_)
      if (s.write && s.staged) engine().staged().download(Buffer<std::uint8_t>(s.mem, s.offset_bytes, s.bytes), s.host);
  staged_.clear();
}

void fail(const char* name, const char* what) noexcept {
  std::fprintf(stderr, "optune BLAS: %s failed on the device: %s\n", name, what);
  std::fflush(stderr);
  std::abort();
}

}  // namespace optune::hostblas

// The library's one entry point beyond BLAS (optune_blas.map), for `optune
// bench blas --host-interface`: the threshold of every routine class from
// now on (< 0: back to the defaults), as OPTUNE_BLAS_THRESHOLD sets it.
// Returns whether small calls have a device of their own (the default device
// is not the CPU one), or -1 when the engine could not start.
extern "C" int optune_host_blas_set_threshold(double work) {
  try {
    optune::hostblas::settings().threshold.store(work, std::memory_order_relaxed);
    return optune::hostblas::started_engine().split ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "optune BLAS: %s\n", e.what());
    return -1;
  }
}

// The same for the in-thread threshold (OPTUNE_BLAS_THREAD_THRESHOLD): every
// call with an in-thread form whose work is below `work` runs in the
// caller's thread from now on (0: none; < 0: back to the defaults). Returns 0.
extern "C" int optune_host_blas_set_thread_threshold(double work) {
  optune::hostblas::settings().thread_threshold.store(work, std::memory_order_relaxed);
  return 0;
}
