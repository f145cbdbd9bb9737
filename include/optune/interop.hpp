// The native objects behind optune's handles, for another library that must
// work on the same memory and the same queue: the benchmark runs CLBlast and
// cuBLAS this way, on optune's buffers, timed like optune's own operators.
//
// Handles are given as untyped pointers so that this header needs neither
// CL/cl.h's types nor cuda.h; cast them back on the caller's side:
//   OpenCL: queue = cl_command_queue, context = cl_context, buffer = cl_mem
//   CUDA:   queue = CUstream, context = CUcontext (the device's primary
//           context, which the CUDA runtime and cuBLAS also use),
//           buffer = CUdeviceptr
// optune keeps owning every handle: do not release or destroy them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "optune/runtime.hpp"

namespace optune::interop {

struct NativeQueue {
  Backend backend = Backend::OpenCL;
  void* queue = nullptr;    // cl_command_queue | CUstream
  void* context = nullptr;  // cl_context | CUcontext
};

// Where a buffer view starts. OpenCL has no pointers into a cl_mem, so it
// takes the allocation plus a byte offset; CUDA takes the address itself.
struct NativeBuffer {
  void* cl_mem = nullptr;            // OpenCL: the whole allocation
  std::size_t offset_bytes = 0;      // OpenCL: where the view starts in it
  std::uint64_t device_pointer = 0;  // CUDA: the view's first element
};

NativeQueue native_queue(const Queue& q);

template <class T>
NativeBuffer native_buffer(const Buffer<T>& b);

// Runs fn with the queue's native objects, on CUDA with the queue's context
// current on this thread (a library's set-up and tear-down, e.g. cublasCreate,
// binds to the current context).
void with_native(const Queue& q, const std::function<void(const NativeQueue&)>& fn);

// Runs enqueue, which puts work on the native queue, after `wait`, and
// returns an Event whose device times span that work and nothing else, so it
// times like optune's own operators (Event::seconds):
// - OpenCL: the queue is held shut by a user event while enqueue runs, so
//   the span starts when the first foreign command can start, not when the
//   host began calling the library (optune's kernels are timed from their own
//   start too). enqueue must not wait for the queue; if it does anyway, the
//   gate opens after 50 ms, and the span then counts the host's time inside
//   the call (not the 50 ms).
// - CUDA: two events recorded on the stream around enqueue, exactly as every
//   optune launch is bracketed (the library's launch overhead is counted, as
//   cuLaunchKernel's is for optune's kernels).
Event enqueue_native(const Queue& q, const std::function<void(const NativeQueue&)>& enqueue,
                     const WaitList& wait = {});

// Memory that another library allocated, as an optune buffer of count
// elements, with no copy (DLPack, __cuda_array_interface__, pyopencl):
// - OpenCL: native.cl_mem, a buffer of this context (retained while any view
//   of the result lives; offset_bytes must be 0, a view carries offsets);
// - CUDA: native.device_pointer, device memory of this context's device
//   (never freed by optune).
// owner, when given, is held until the last view goes (after optune's own
// handle is released): the object that keeps the memory alive. Throws
// Error(InvalidArgument) for a handle of another context or device.
template <class T>
Buffer<T> adopt(const Context& ctx, const NativeBuffer& native, std::size_t count, std::shared_ptr<void> owner = {});

// Host memory that the device reads and writes in place (OpenCL devices that
// share memory with the host, such as PoCL: CL_MEM_USE_HOST_PTR). The host
// must not touch it while commands that use it run. Throws
// Error(Unsupported) on other devices.
template <class T>
Buffer<T> adopt_host(const Context& ctx, T* data, std::size_t count, std::shared_ptr<void> owner = {});

// Orders q with a native queue of the same context (a CUstream, where null
// is the legacy default stream, or a cl_command_queue), without waiting on
// the host: with NativeWaits the native queue's later work waits for the
// work q holds now; with QueueWaits q's later work waits for the native one's.
enum class Join { NativeWaits, QueueWaits };
void join(const Queue& q, void* native_queue, Join who_waits);

// The host address of a buffer view on a device that shares memory with the
// host (OpenCL unified memory): the buffer is mapped (waiting for q) until
// the returned handle goes. Throws Error(Unsupported) elsewhere.
template <class T>
std::shared_ptr<T> map_host(const Queue& q, const Buffer<T>& b);

}  // namespace optune::interop

namespace optune::detail {
interop::NativeBuffer native_buffer_of(const MemImpl& mem, std::size_t offset_bytes);
std::shared_ptr<MemImpl> adopt_bytes(const Context& ctx, const interop::NativeBuffer& native, std::size_t bytes,
                                     std::shared_ptr<void> owner);
std::shared_ptr<MemImpl> adopt_host_bytes(const Context& ctx, void* data, std::size_t bytes,
                                          std::shared_ptr<void> owner);
std::shared_ptr<void> map_host_bytes(const Queue& q, const std::shared_ptr<MemImpl>& mem, std::size_t offset,
                                     std::size_t bytes);
}  // namespace optune::detail

template <class T>
optune::Buffer<T> optune::interop::adopt(const Context& ctx, const NativeBuffer& native, std::size_t count,
                                         std::shared_ptr<void> owner) {
  if (count == 0) throw Error(Status::InvalidArgument, "interop::adopt: count must be positive");
  if (count > SIZE_MAX / sizeof(T)) throw Error(Status::Overflow, "interop::adopt: count * element size overflows");
  return Buffer<T>(detail::adopt_bytes(ctx, native, count * sizeof(T), std::move(owner)), 0, count);
}

template <class T>
optune::Buffer<T> optune::interop::adopt_host(const Context& ctx, T* data, std::size_t count,
                                              std::shared_ptr<void> owner) {
  if (count == 0) throw Error(Status::InvalidArgument, "interop::adopt_host: count must be positive");
  if (count > SIZE_MAX / sizeof(T))
    throw Error(Status::Overflow, "interop::adopt_host: count * element size overflows");
  return Buffer<T>(detail::adopt_host_bytes(ctx, data, count * sizeof(T), std::move(owner)), 0, count);
}

template <class T>
std::shared_ptr<T> optune::interop::map_host(const Queue& q, const Buffer<T>& b) {
  if (!b.valid()) throw Error(Status::InvalidArgument, "interop::map_host: empty buffer");
  return std::static_pointer_cast<T>(detail::map_host_bytes(q, b.mem(), b.offset() * sizeof(T), b.bytes()));
}

template <class T>
optune::interop::NativeBuffer optune::interop::native_buffer(const Buffer<T>& b) {
  if (!b.valid()) throw Error(Status::InvalidArgument, "interop::native_buffer: empty buffer");
  return optune::detail::native_buffer_of(*b.mem(), b.offset() * sizeof(T));
}
