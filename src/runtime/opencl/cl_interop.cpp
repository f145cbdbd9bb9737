// Another library's work on an optune OpenCL queue (include/optune/interop.hpp).
//
// Timing foreign work: a library such as CLBlast may enqueue several kernels
// (pad, transpose, the product, copy back) and hand back only the last one's
// event. So the work is bracketed by two timestamp commands instead, and the
// queue is held shut by a user event while the library is called:
//
//   [wait list + gate] -> stamp "before" -> library's commands -> stamp "after"
//
// The gate opens once everything is enqueued, so "before" ends when the first
// foreign command can start (not when the host began calling the library) and
// "after" starts when the last one has ended: the span is before.END ..
// after.START. A stamp is a 4-byte fill, not a marker: drivers disagree on
// markers' profiling (some report zeros or nothing), never on a real command's.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "runtime/log.hpp"
#include "runtime/opencl/cl_objects.hpp"

namespace optune::detail::cl {

namespace {

// A library that waits on its own queue would wait for the gate forever; the
// watchdog opens it after this long (the span then includes host time).
// CLBlast's trmv, trsv, syrk, syr2k, her2k, trmm and trsm wait inside every
// call, so each of their calls costs this much wall time (at 1 s, 75 s of
// `optune bench blas` on PoCL). Enqueuing takes microseconds, so 50 ms is
// only reached by a library that waits or compiles (its first call).
constexpr auto kGateTimeout = std::chrono::milliseconds(50);

class StampSpanEvent : public EventImpl {
 public:
  StampSpanEvent(cl_event before, cl_event after) : before_(before), after_(after) {}
  void wait() override { after_.wait(); }
  bool complete() override { return after_.complete(); }
  EventTimes times() override {
    const EventTimes b = before_.times(), a = after_.times();
    EventTimes t;
    t.queued = b.queued;
    t.submit = b.submit;
    t.start = b.end;
    t.end = std::max(a.start, b.end);
    return t;
  }

 private:
  ClEvent before_, after_;
};

// The user event that holds the queue, opened exactly once, by the caller or
// by the watchdog.
class Gate {
 public:
  explicit Gate(cl_context ctx) {
    cl_int err = CL_SUCCESS;
    event_ = EventHandle(clCreateUserEvent(ctx, &err));
    check(err, "clCreateUserEvent");
    watchdog_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      if (!done_cv_.wait_for(lock, kGateTimeout, [this] { return done_; })) {
        timed_out_ = true;
        open_locked();
      }
    });
  }
  ~Gate() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
      open_locked();
    }
    done_cv_.notify_one();
    watchdog_.join();
  }
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;
  cl_event get() const { return event_.get(); }
  bool timed_out() {
    std::lock_guard lock(mutex_);
    return timed_out_;
  }

 private:
  void open_locked() {
    if (open_) return;
    open_ = true;
    clSetUserEventStatus(event_.get(), CL_COMPLETE);
  }
  EventHandle event_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false, open_ = false, timed_out_ = false;
  std::thread watchdog_;
};

}  // namespace

interop::NativeBuffer ClMem::native(std::size_t offset_bytes) const {
  interop::NativeBuffer b;
  b.cl_mem = mem_.get();
  b.offset_bytes = offset_bytes;
  return b;
}

interop::NativeQueue ClQueue::native() {
  interop::NativeQueue n;
  n.backend = Backend::OpenCL;
  n.queue = queue_.get();
  n.context = ctx_.get();
  return n;
}

void ClQueue::with_native(const NativeFn& fn) { fn(native()); }

cl_event ClQueue::enqueue_timestamp(const std::vector<cl_event>& wait) {
  std::call_once(timestamp_once_, [this] {
    cl_int err = CL_SUCCESS;
    timestamp_scratch_ = MemHandle(clCreateBuffer(ctx_.get(), CL_MEM_READ_WRITE, 4, nullptr, &err));
    check(err, "clCreateBuffer(timestamp scratch)");
  });
  const cl_uint zero = 0;
  cl_event e = nullptr;
  check(clEnqueueFillBuffer(queue_.get(), timestamp_scratch_.get(), &zero, sizeof zero, 0, sizeof zero,
                            cl_uint(wait.size()), wait.empty() ? nullptr : wait.data(), &e),
        "clEnqueueFillBuffer(timestamp)");
  return e;
}

EventPtr ClQueue::enqueue_native(const NativeFn& enqueue, const WaitList& wait) {
  std::vector<cl_event> wl = wait_list(wait);
  cl_event before = nullptr, after = nullptr;
  {
    Gate gate(ctx_.get());
    wl.push_back(gate.get());
    before = enqueue_timestamp(wl);
    ClEvent before_owner(before);
    enqueue(native());  // on a throw the gate still opens, so the queue drains
    after = enqueue_timestamp({});
    clRetainEvent(before);  // before_owner drops its reference at scope end
    if (gate.timed_out())  // expected on a library's first call, which compiles its kernels
      log_info("interop::enqueue_native: the call took over " + std::to_string(kGateTimeout.count()) +
               " ms; the gate opened early and this span includes host time");
  }
  return std::make_shared<StampSpanEvent>(before, after);
}

// ---- memory of other libraries, and host memory ----

std::shared_ptr<MemImpl> ClContext::adopt(const interop::NativeBuffer& native, std::size_t bytes) {
  cl_mem m = static_cast<cl_mem>(native.cl_mem);
  if (!m) throw Error(Status::InvalidArgument, "interop::adopt: cl_mem is null");
  if (native.offset_bytes != 0)
    throw Error(Status::InvalidArgument, "interop::adopt: offset_bytes must be 0 (a Buffer view carries the offset)");
  cl_context owner = nullptr;
  cl_mem_object_type type = 0;
  std::size_t size = 0;
  if (clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, nullptr) != CL_SUCCESS || type != CL_MEM_OBJECT_BUFFER)
    throw Error(Status::InvalidArgument, "interop::adopt: the handle is not an OpenCL buffer");
  check(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof owner, &owner, nullptr), "clGetMemObjectInfo(CL_MEM_CONTEXT)");
  check(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr), "clGetMemObjectInfo(CL_MEM_SIZE)");
  if (owner != context_.get())
    throw Error(Status::InvalidArgument, "interop::adopt: the cl_mem belongs to another OpenCL context than optune's "
                                         "(create it in the context interop::native_queue gives)");
  if (bytes > size) throw_buffer_too_small("interop::adopt: cl_mem", bytes, size);
  check(clRetainMemObject(m), "clRetainMemObject");
  return std::make_shared<ClMem>(this, bytes, m);
}

std::shared_ptr<MemImpl> ClContext::adopt_host(void* data, std::size_t bytes) {
  if (bytes == 0) throw Error(Status::InvalidArgument, "interop::adopt_host: bytes must be positive");
  // Only where the device works on host memory itself: elsewhere
  // CL_MEM_USE_HOST_PTR may cache a copy, and the host would not see results.
  if (!device()->caps().unified_memory)
    throw Error(Status::Unsupported, "interop::adopt_host: " + device()->caps().name +
                                         " does not share memory with the host");
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_.get(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, data, &err);
  check(err, ("clCreateBuffer(CL_MEM_USE_HOST_PTR, " + std::to_string(bytes) + " bytes)").c_str());
  return std::make_shared<ClMem>(this, bytes, m);
}

void ClQueue::join(void* native_queue, bool native_waits) {
  auto other = static_cast<cl_command_queue>(native_queue);
  if (!other) throw Error(Status::InvalidArgument, "interop::join: the native queue is null");
  cl_context other_ctx = nullptr;
  check(clGetCommandQueueInfo(other, CL_QUEUE_CONTEXT, sizeof other_ctx, &other_ctx, nullptr),
        "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)");
  if (other_ctx != ctx_.get())
    throw Error(Status::InvalidArgument, "interop::join: the native queue belongs to another OpenCL context");
  cl_command_queue first = native_waits ? queue_.get() : other, then = native_waits ? other : queue_.get();
  cl_event marker = nullptr;
  check(clEnqueueMarkerWithWaitList(first, 0, nullptr, &marker), "clEnqueueMarkerWithWaitList");
  ClEvent owner(marker);
  check(clEnqueueBarrierWithWaitList(then, 1, &marker, nullptr), "clEnqueueBarrierWithWaitList");
  check(clFlush(first), "clFlush");
}

void* ClQueue::map(const MemImpl& mem, std::size_t offset, std::size_t bytes) {
  if (!ctx_.device()->caps().unified_memory)
    throw Error(Status::Unsupported, "interop::map_host: " + ctx_.device()->caps().name +
                                         " does not share memory with the host");
  cl_int err = CL_SUCCESS;
  void* p = clEnqueueMapBuffer(queue_.get(), static_cast<const ClMem&>(mem).get(), CL_TRUE,
                               CL_MAP_READ | CL_MAP_WRITE, offset, bytes, 0, nullptr, nullptr, &err);
  check(err, "clEnqueueMapBuffer");
  return p;
}

void ClQueue::unmap(const MemImpl& mem, void* host) {
  check(clEnqueueUnmapMemObject(queue_.get(), static_cast<const ClMem&>(mem).get(), host, 0, nullptr, nullptr),
        "clEnqueueUnmapMemObject");
  check(clFlush(queue_.get()), "clFlush");
}

}  // namespace optune::detail::cl
