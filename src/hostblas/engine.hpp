// The host interface's engine (liboptune_blas.so.3, docs/DESIGN.md "Host
// BLAS interface"): where a call from a Fortran or CBLAS entry point runs, and
// how its host operands reach the device.
//
// - Three tiers. A call whose work is below the routine class's in-thread
//   threshold runs in the caller's thread, as compiled C++ loops over the
//   caller's memory (inline.hpp: no OpenCL or CUDA call); one below the
//   (device) threshold runs on the CPU OpenCL device; the others on the
//   default device. Only routines given an in-thread function (run() with two
//   functions) have the first tier.
// - The default device (OPTUNE_DEVICE, else the first GPU, else the first
//   CPU) is chosen at the first call (the thresholds are the database's for
//   its capabilities); its context is made at the first call that runs on a
//   device, one per process; and, where that device is not the CPU OpenCL
//   device, one for the CPU device too, which takes the calls whose work is
//   below the routine class's device threshold.
// - One queue per thread and context, made at the thread's first call.
// - On a device that shares memory with the host (PoCL), operands are the
//   caller's memory itself (host-pointer buffers, no copy); elsewhere each
//   operand is copied into a device buffer of the thread's pool (kept and
//   reused between calls, grown when too small) and outputs copied back;
//   large operands go through the staging workers (staging.hpp).
// - run() catches everything: nothing throws across extern "C".
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "optune/runtime.hpp"

namespace optune::hostblas {

using c32 = std::complex<float>;
using c64 = std::complex<double>;

// Routine classes: each has its own thresholds of work (elements for levels 1
// and 2, m n k for level 3) below which a call runs in the caller's thread
// (L<n>_THREAD_LOG2) and on the CPU device (L<n>_LOG2): the database's
// host_blas entries for the default device and the routine's type
// (kernels/blas/host_blas.hpp), else that family's defaults.
enum class Class { Level1 = 0, Level2 = 1, Level3 = 2 };

// Elements a vector of n with increment inc addresses (0 when n <= 0).
inline std::size_t vec_count(std::int64_t n, std::int64_t inc) {
  return n <= 0 ? 0 : std::size_t(n - 1) * std::size_t(inc < 0 ? -inc : inc) + 1;
}

struct ThreadState;

// One call's device and staged operands. Operands are staged in the order the
// routine names them; finish() waits and brings the outputs back.
class Call {
 public:
  Call(Class cls, DType dtype, double work);
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  const Queue& queue() const { return *queue_; }
  // Read only.
  template <class T> Buffer<T> in(const T* p, std::size_t count) {
    return view<T>(stage(const_cast<T*>(p), count * sizeof(T), sizeof(T), true, false), count);
  }
  // Read and written.
  template <class T> Buffer<T> inout(T* p, std::size_t count) {
    return view<T>(stage(p, count * sizeof(T), sizeof(T), true, true), count);
  }
  // Written only (the device's copy is not uploaded first).
  template <class T> Buffer<T> out(T* p, std::size_t count) {
    return view<T>(stage(p, count * sizeof(T), sizeof(T), false, true), count);
  }
  void finish();
  bool zero_copy() const { return zero_copy_; }

 private:
  // Where an operand's elements start in its memory object.
  struct Placed {
    std::shared_ptr<detail::MemImpl> mem;
    std::size_t offset_bytes;
  };
  template <class T> static Buffer<T> view(const Placed& p, std::size_t count) {
    return Buffer<T>(p.mem, p.offset_bytes / sizeof(T), count);
  }
  Placed stage(void* host, std::size_t bytes, std::size_t element, bool read, bool write);
  struct Staged {
    void* host;  // the operand's first byte
    std::size_t bytes;
    std::shared_ptr<detail::MemImpl> mem;
    std::size_t offset_bytes;  // of host in mem
    bool write;
    bool staged;  // copied through the staging workers (staging.hpp)
  };
  ThreadState* thread_ = nullptr;
  int target_ = 0;
  const Queue* queue_ = nullptr;
  bool zero_copy_ = false;
  std::vector<Staged> staged_;
};

// Runs fn(Call&) for the routine `name` (as xerbla names it: "SAXPY ") on
// operands of type T and finishes the call. An exception (a device failure:
// reference BLAS has no other way to report one) is written to stderr with the
// routine's name and ends the process (std::abort), as the reference's xerbla
// ends it.
template <class T, class Fn>
void run(const char* name, Class cls, double work, Fn&& fn);

[[noreturn]] void fail(const char* name, const char* what) noexcept;

// Whether a call of this class, type and work runs in the caller's thread:
// work below OPTUNE_BLAS_THREAD_THRESHOLD / optune_host_blas_set_thread_threshold
// where set, else below the class's in-thread threshold. The first call per
// type reads the database (the default device's capabilities); later calls
// only compare. Never throws: without a device the defaults serve.
bool in_thread(Class cls, DType dtype, double work) noexcept;

template <class T, class Fn>
void run(const char* name, Class cls, double work, Fn&& fn) {
  try {
    Call call(cls, dtype_of_v<T>, work);
    fn(call);
    call.finish();
  } catch (const std::exception& e) {
    fail(name, e.what());
  } catch (...) {
    fail(name, "unknown exception");
  }
}

// The three-tier form: in_thread() (the loops of inline.hpp, no device at
// all) when the work is below the in-thread threshold, else fn(Call&) as
// above.
template <class T, class Thread, class Fn>
void run(const char* name, Class cls, double work, Thread&& thread, Fn&& fn) {
  if (in_thread(cls, dtype_of_v<T>, work)) {
    thread();
    return;
  }
  run<T>(name, cls, work, std::forward<Fn>(fn));
}

}  // namespace optune::hostblas
