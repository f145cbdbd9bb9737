// The host interface's engine: contexts, per-thread queues and buffer pools,
// and the choice of device per call (engine.hpp).
#include "hostblas/engine.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "optune/interop.hpp"
#include "kernels/blas/host_blas.hpp"
#include "runtime/env.hpp"

namespace optune::hostblas {

namespace {

// A context to run on and whether its device works on host memory in place.
struct Target {
  Context ctx;
  bool zero_copy = false;
};

struct Engine {
  Target target[2];  // [0] the default device, [1] the CPU device for small calls
  bool split = false;  // target[1] is another device than target[0]
  // OPTUNE_BLAS_THRESHOLD or optune_host_blas_set_threshold, for every class
  // (< 0: unset).
  std::atomic<double> threshold{-1};
  // The database's thresholds, per type (read once: DType's value) and class.
  struct Thresholds {
    std::once_flag once;
    double level[3] = {0, 0, 0};
  };
  Thresholds by_type[16];

  double threshold_of(Class cls, DType dtype) {
    Thresholds& t = by_type[int(dtype) & 15];
    std::call_once(t.once, [&] {
      const Capabilities& caps = target[0].ctx.device().caps();
      for (int l = 0; l < 3; ++l) t.level[l] = detail::host_blas_threshold(caps, dtype, l + 1);
    });
    return t.level[int(cls)];
  }
};

bool shares_host_memory(const Device& d) {
  return d.backend() == Backend::OpenCL && d.caps().unified_memory;
}

// Made once per process, at the first call, and never destroyed: the
// process may exit from any thread while another still calls, and the
// drivers' own exit handlers release what is left.
Engine& engine() {
  static Engine* e = [] {
    auto* en = new Engine;
    const Device big = default_device();
    // OPTUNE_BLAS_COPY=1 stages operands through device buffers even where
    // the device works on host memory (the tests run the copy path on PoCL).
    const bool copy = detail::env_choice("OPTUNE_BLAS_COPY", {"0", "1"}, "0") == "1";
    en->threshold = detail::env_number("OPTUNE_BLAS_THRESHOLD", -1, 0, 1e300);
    en->target[0] = {Context(big), shares_host_memory(big) && !copy};
    en->target[1] = en->target[0];
    if (big.caps().type != DeviceType::CPU) {
      for (const Device& d : devices()) {
        if (d.caps().type == DeviceType::CPU && shares_host_memory(d)) {
          en->target[1] = {Context(d), true};
          en->split = true;
          break;
        }
      }
    }
    return en;
  }();
  return *e;
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

Call::Call(Class cls, DType dtype, double work) : thread_(&t_state) {
  Engine& e = engine();
  if (e.split) {
    const double forced = e.threshold.load(std::memory_order_relaxed);
    target_ = work < (forced >= 0 ? forced : e.threshold_of(cls, dtype)) ? 1 : 0;
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
    staged_.push_back({host, bytes, mem, before, write});
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
  if (read) queue_->write(dev, std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(host), bytes));
  staged_.push_back({host, bytes, p.mem, 0, write});
  return {p.mem, 0};
}

void Call::finish() {
  for (const Staged& s : staged_) {
    if (!s.write) continue;
    if (zero_copy_) {
      // Mapping waits for the queue and makes the device's writes visible in
      // the caller's memory (the host-pointer buffer's contract).
      interop::map_host(*queue_, Buffer<std::uint8_t>(s.mem, s.offset_bytes, s.bytes)).reset();
    } else {
      queue_->read(Buffer<std::uint8_t>(s.mem, s.offset_bytes, s.bytes),
                   std::span<std::uint8_t>(static_cast<std::uint8_t*>(s.host), s.bytes));
    }
  }
  queue_->finish();
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
    optune::hostblas::engine().threshold.store(work, std::memory_order_relaxed);
    return optune::hostblas::engine().split ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "optune BLAS: %s\n", e.what());
    return -1;
  }
}
