// CUDA queues (one stream each, so in order), events and kernel launches.
//
// Timestamps: every command is bracketed by two CUDA events. start and end
// are device times relative to a reference event recorded when the queue was
// made; queued and submit are host steady-clock times relative to the moment
// that reference event completed, so both clocks share a zero to within the
// latency of one event (tens of microseconds).
#include <algorithm>
#include <cstring>

#include "runtime/cuda/cuda_objects.hpp"

namespace optune::detail::cu {

namespace {

const CuMem& as_mem(const MemImpl& m) { return static_cast<const CuMem&>(m); }

std::uint64_t ms_to_ns(float ms) { return ms > 0 ? std::uint64_t(double(ms) * 1e6 + 0.5) : 0; }

// The shortest period (1, 2, 4, 8 or 16 bytes) that repeats the pattern, so
// that a double 0.0 or a float pair of equal halves fills with a memset.
std::size_t pattern_period(const unsigned char* p, std::size_t size) {
  for (std::size_t period = 1; period < size; period *= 2) {
    bool repeats = true;
    for (std::size_t i = period; i < size && repeats; ++i) repeats = p[i] == p[i % period];
    if (repeats) return period;
  }
  return size;
}

}  // namespace

// ---- clock and events ----

std::uint64_t QueueClock::host_ns() const {
  const auto d = std::chrono::steady_clock::now() - t0;
  return std::uint64_t(std::max<std::int64_t>(0, std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()));
}

QueueClock::~QueueClock() {
  if (!ref) return;
  Scope scope(*pc, true);
  api().cuEventDestroy(ref);
}

CuEvent::CuEvent(PrimaryPtr pc, std::shared_ptr<const QueueClock> clock, std::uint64_t queued_ns)
    : pc_(std::move(pc)), clock_(std::move(clock)), queued_ns_(queued_ns), submit_ns_(queued_ns) {
  const DriverApi& a = api();
  check(a.cuEventCreate(&start_, CU_EVENT_DEFAULT), "cuEventCreate");
  if (CUresult r = a.cuEventCreate(&end_, CU_EVENT_DEFAULT); r != CUDA_SUCCESS) {
    a.cuEventDestroy(start_);
    throw_error(r, "cuEventCreate");
  }
}

CuEvent::~CuEvent() {
  Scope scope(*pc_, true);
  api().cuEventDestroy(start_);
  api().cuEventDestroy(end_);
}

void CuEvent::wait() {
  Scope scope(*pc_);
  check(api().cuEventSynchronize(end_), "cuEventSynchronize");
}

bool CuEvent::complete() {
  Scope scope(*pc_);
  const CUresult r = api().cuEventQuery(end_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuEventQuery");
  return true;
}

EventTimes CuEvent::times() {
  wait();
  Scope scope(*pc_);
  const DriverApi& a = api();
  // The duration from its own pair of events: a float of milliseconds since
  // the queue's start would lose microseconds after a few minutes.
  float to_start = 0, duration = 0;
  check(a.cuEventElapsedTime(&to_start, clock_->ref, start_), "cuEventElapsedTime");
  check(a.cuEventElapsedTime(&duration, start_, end_), "cuEventElapsedTime");
  EventTimes t;
  t.start = ms_to_ns(to_start);
  t.end = t.start + ms_to_ns(duration);
  // The host times are the approximate ones (the two clocks share a zero to
  // within one event's latency): they never come after the device's start.
  t.submit = std::min(submit_ns_, t.start);
  t.queued = std::min(queued_ns_, t.submit);
  return t;
}

// ---- queue ----

CuQueue::CuQueue(CuContext& ctx) : ctx_(ctx), pc_(ctx.primary()) {
  Scope scope(*pc_);
  const DriverApi& a = api();
  check(a.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  auto clock = std::make_shared<QueueClock>();
  clock->pc = pc_;
  try {
    check(a.cuEventCreate(&clock->ref, CU_EVENT_DEFAULT), "cuEventCreate");
    check(a.cuEventRecord(clock->ref, stream_), "cuEventRecord");
    check(a.cuEventSynchronize(clock->ref), "cuEventSynchronize");
  } catch (...) {
    a.cuStreamDestroy(stream_);
    throw;
  }
  clock->t0 = std::chrono::steady_clock::now();
  clock_ = std::move(clock);
}

CuQueue::~CuQueue() {
  Scope scope(*pc_, true);
  api().cuStreamDestroy(stream_);  // pending work still completes
}

template <class Command>
EventPtr CuQueue::enqueue(const WaitList& wait, Command&& command) {
  Scope scope(*pc_);
  const DriverApi& a = api();
  const std::uint64_t queued = clock_->host_ns();
  for (const Event& e : wait) {
    if (!e.valid()) continue;
    if (auto* ce = dynamic_cast<CuEvent*>(e.impl().get())) {
      // Any CUDA event, of this queue, another queue or another device.
      check(a.cuStreamWaitEvent(stream_, ce->end(), 0), "cuStreamWaitEvent");
    } else {
      e.wait();  // another backend's event: wait on the host
    }
  }
  auto ev = std::make_shared<CuEvent>(pc_, clock_, queued);
  // Submitted when handed to the stream: a copy from pageable memory may
  // run, and finish, inside the call that enqueues it.
  ev->set_submit(clock_->host_ns());
  check(a.cuEventRecord(ev->start(), stream_), "cuEventRecord");
  command(a);
  check(a.cuEventRecord(ev->end(), stream_), "cuEventRecord");
  return ev;
}

EventPtr CuQueue::write(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* src,
                        const WaitList& wait) {
  const CUdeviceptr d = as_mem(dst).ptr() + offset;
  return enqueue(wait, [&](const DriverApi& a) {
    check(a.cuMemcpyHtoDAsync(d, src, bytes, stream_), "cuMemcpyHtoDAsync");
  });
}

EventPtr CuQueue::read(const MemImpl& src, std::size_t offset, std::size_t bytes, void* dst, const WaitList& wait) {
  const CUdeviceptr s = as_mem(src).ptr() + offset;
  return enqueue(wait, [&](const DriverApi& a) {
    check(a.cuMemcpyDtoHAsync(dst, s, bytes, stream_), "cuMemcpyDtoHAsync");
  });
}

EventPtr CuQueue::copy(const MemImpl& src, std::size_t src_offset, const MemImpl& dst, std::size_t dst_offset,
                       std::size_t bytes, const WaitList& wait) {
  const CUdeviceptr s = as_mem(src).ptr() + src_offset, d = as_mem(dst).ptr() + dst_offset;
  return enqueue(wait, [&](const DriverApi& a) {
    check(a.cuMemcpyDtoDAsync(d, s, bytes, stream_), "cuMemcpyDtoDAsync");
  });
}

EventPtr CuQueue::fill(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* pattern,
                       std::size_t pattern_size, const WaitList& wait) {
  if (pattern_size == 0 || pattern_size > 16 || (pattern_size & (pattern_size - 1)))
    throw Error(Status::InvalidArgument, "Queue::fill: pattern of " + std::to_string(pattern_size) +
                                             " bytes (CUDA fills with 1, 2, 4, 8 or 16)");
  if (offset % pattern_size || bytes % pattern_size)
    throw Error(Status::InvalidArgument, "Queue::fill: offset and size must be multiples of the pattern size");
  const auto* p = static_cast<const unsigned char*>(pattern);
  const std::size_t period = pattern_period(p, pattern_size);
  const CUdeviceptr d = as_mem(dst).ptr() + offset;  // allocations are 256-byte aligned
  if (period <= 4) {
    std::uint32_t word = 0;
    std::memcpy(&word, p, period);
    return enqueue(wait, [&](const DriverApi& a) {
      if (period == 1) check(a.cuMemsetD8Async(d, (unsigned char)word, bytes, stream_), "cuMemsetD8Async");
      if (period == 2) check(a.cuMemsetD16Async(d, (unsigned short)word, bytes / 2, stream_), "cuMemsetD16Async");
      if (period == 4) check(a.cuMemsetD32Async(d, word, bytes / 4, stream_), "cuMemsetD32Async");
    });
  }
  std::uint64_t w[2] = {0, 0};
  std::memcpy(w, p, period);
  if (period == 8) w[1] = w[0];
  const std::uint64_t words = bytes / 8;
  CuKernel& k = ctx_.fill_kernel();
  const std::vector<KernelArg> args = {KernelArg::scalar(words), KernelArg::scalar(std::uint64_t(d)),
                                       KernelArg::scalar(w[0]), KernelArg::scalar(w[1]),
                                       KernelArg::scalar(std::uint32_t(period / 8))};
  Geometry g;
  g.local[0] = 256;
  g.global[0] = std::min<std::size_t>((words + 255) / 256, 4096) * 256;  // grid-stride beyond that
  return launch(k, args, g, wait);
}

EventPtr CuQueue::write_image(const ImageImpl&, const void*, const WaitList&) {
  throw Error(Status::Unsupported, "images are not supported on the CUDA back end");
}

EventPtr CuQueue::read_image(const ImageImpl&, void*, const WaitList&) {
  throw Error(Status::Unsupported, "images are not supported on the CUDA back end");
}

EventPtr CuQueue::launch(KernelImpl& kernel, const std::vector<KernelArg>& args, const Geometry& g,
                         const WaitList& wait) {
  auto& k = static_cast<CuKernel&>(kernel);
  k.check_args(args);
  // Buffers go by value as device pointers; scalars point at their bytes.
  std::vector<CUdeviceptr> pointers(args.size(), 0);
  std::vector<void*> params(args.size(), nullptr);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    switch (a.kind) {
      case KernelArg::Kind::Mem:
        pointers[i] = as_mem(*a.mem).ptr();
        params[i] = &pointers[i];
        break;
      case KernelArg::Kind::Image:
        throw Error(Status::Unsupported, "kernel " + k.name() + ": images are not supported on the CUDA back end");
      case KernelArg::Kind::Scalar:
        params[i] = const_cast<unsigned char*>(a.value);
        break;
    }
  }
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  const CuDevice& dev = ctx_.cu_device();
  for (unsigned d = 0; d < g.dims && d < 3; ++d) {
    const std::size_t groups = g.global[d] / g.local[d];
    if (dev.max_grid(d) && groups > dev.max_grid(d))
      throw Error(Status::OutOfResources, "kernel " + k.name() + ": " + std::to_string(groups) +
                                              " groups in dimension " + std::to_string(d) +
                                              " exceed the device's grid limit " + std::to_string(dev.max_grid(d)));
    grid[d] = unsigned(groups);
    block[d] = unsigned(g.local[d]);
  }
  return enqueue(wait, [&](const DriverApi& a) {
    k.allow_shared(g.shared_bytes);
    const CUresult r = a.cuLaunchKernel(k.get(), grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                        unsigned(g.shared_bytes), stream_, params.empty() ? nullptr : params.data(),
                                        nullptr);
    if (r != CUDA_SUCCESS) throw_error(r, "cuLaunchKernel(" + k.name() + ")");
  });
}

void CuQueue::finish() {
  Scope scope(*pc_);
  check(api().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

// ---- another library's work (include/optune/interop.hpp) ----

interop::NativeBuffer CuMem::native(std::size_t offset_bytes) const {
  interop::NativeBuffer b;
  b.device_pointer = std::uint64_t(ptr_) + offset_bytes;
  return b;
}

interop::NativeQueue CuQueue::native() {
  interop::NativeQueue n;
  n.backend = Backend::CUDA;
  n.queue = stream_;
  n.context = pc_->get();
  return n;
}

void CuQueue::with_native(const NativeFn& fn) {
  Scope scope(*pc_);
  fn(native());
}

EventPtr CuQueue::enqueue_native(const NativeFn& fn, const WaitList& wait) {
  return enqueue(wait, [&](const DriverApi&) { fn(native()); });
}

void CuQueue::join(void* native_queue, bool native_waits) {
  // A null CUstream is the legacy default stream, a valid one to order with.
  auto other = static_cast<CUstream>(native_queue);
  const DriverApi& a = api();
  Scope scope(*pc_);
  CUevent e = nullptr;
  check(a.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  CUresult r = a.cuEventRecord(e, native_waits ? stream_ : other);
  if (r == CUDA_SUCCESS) r = a.cuStreamWaitEvent(native_waits ? other : stream_, e, 0);
  a.cuEventDestroy(e);  // released once the wait is satisfied
  check(r, "interop::join: cuEventRecord + cuStreamWaitEvent");
}

void* CuQueue::map(const MemImpl&, std::size_t, std::size_t) {
  throw Error(Status::Unsupported, "interop::map_host: device memory is not mapped on the CUDA back end");
}

void CuQueue::unmap(const MemImpl&, void*) {}

}  // namespace optune::detail::cu
