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
//   gate opens after one second and that wait is counted in the span.
// - CUDA: two events recorded on the stream around enqueue, exactly as every
//   optune launch is bracketed (the library's launch overhead is counted, as
//   cuLaunchKernel's is for optune's kernels).
Event enqueue_native(const Queue& q, const std::function<void(const NativeQueue&)>& enqueue,
                     const WaitList& wait = {});

}  // namespace optune::interop

namespace optune::detail {
interop::NativeBuffer native_buffer_of(const MemImpl& mem, std::size_t offset_bytes);
}  // namespace optune::detail

template <class T>
optune::interop::NativeBuffer optune::interop::native_buffer(const Buffer<T>& b) {
  if (!b.valid()) throw Error(Status::InvalidArgument, "interop::native_buffer: empty buffer");
  return optune::detail::native_buffer_of(*b.mem(), b.offset() * sizeof(T));
}
