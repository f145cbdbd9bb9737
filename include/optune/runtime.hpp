// Devices, contexts, queues, buffers, images and events: the backend-neutral
// handles every operator takes. Handles are cheap values with shared ownership.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optune/error.hpp"
#include "optune/types.hpp"

namespace optune {

namespace detail {
class DeviceImpl;
class ContextImpl;
class QueueImpl;
class MemImpl;
class ImageImpl;
class EventImpl;
}  // namespace detail

enum class Backend : int { OpenCL = 0, CUDA = 1 };
enum class DeviceType : int { CPU = 0, GPU = 1, Accelerator = 2, Other = 3 };

std::string_view backend_name(Backend b) noexcept;         // "opencl", "cuda"
std::string_view device_type_name(DeviceType t) noexcept;  // "cpu", "gpu", ...

// Widths per scalar type, as OpenCL reports them (CUDA: 16 bytes' worth).
struct VectorWidths {
  unsigned char_ = 0, short_ = 0, int_ = 0, long_ = 0, float_ = 0, double_ = 0, half_ = 0;
};

// What a device can do, probed once when the device is enumerated.
struct Capabilities {
  Backend backend = Backend::OpenCL;
  DeviceType type = DeviceType::Other;
  std::string spec;            // "opencl:P:D" or "cuda:N"
  std::string name;
  std::string vendor;
  std::string platform;        // OpenCL platform name; "CUDA" on CUDA
  std::string driver_version;  // driver version string
  std::string device_version;  // "OpenCL 3.0 ..." or "CUDA 13.0"
  std::string opencl_c_version;
  std::string architecture;    // "sm_90", "pthread-skylake", ... (family key for the database)
  std::uint32_t compute_units = 0;
  std::uint32_t max_clock_mhz = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t max_alloc_bytes = 0;
  std::uint64_t local_mem_bytes = 0;       // per work-group (shared memory per block)
  std::uint64_t max_constant_buffer_bytes = 0;
  std::size_t max_work_group_size = 0;
  std::array<std::size_t, 3> max_work_item_sizes{};
  VectorWidths preferred_vector_width;
  VectorWidths native_vector_width;
  bool subgroups = false;                  // cl_khr_subgroups, or warps on CUDA
  std::vector<std::size_t> subgroup_sizes;
  bool fp16 = false;                       // half arithmetic (cl_khr_fp16 / CUDA)
  bool fp64 = false;
  bool images = false;
  std::size_t image2d_max_width = 0, image2d_max_height = 0;
  bool unified_memory = false;             // host and device share memory
  std::string extensions;
  // CUDA-only details (zero elsewhere).
  int compute_capability_major = 0, compute_capability_minor = 0;
  std::uint32_t max_threads_per_cu = 0;
  std::uint64_t shared_mem_per_cu_bytes = 0;
  std::uint64_t shared_mem_per_block_optin_bytes = 0;
  std::uint64_t l2_bytes = 0;
  std::uint32_t warp_size = 0;
  std::uint32_t memory_clock_mhz = 0;
  std::uint32_t memory_bus_width_bits = 0;

  // Stable text naming the device and driver: the key of caches and the database.
  std::string identity() const;
};

class Device {
 public:
  Device() = default;
  explicit Device(std::shared_ptr<detail::DeviceImpl> impl);
  const Capabilities& caps() const;
  Backend backend() const { return caps().backend; }
  const std::string& name() const { return caps().name; }
  const std::string& spec() const { return caps().spec; }
  bool valid() const { return impl_ != nullptr; }
  const std::shared_ptr<detail::DeviceImpl>& impl() const { return impl_; }
  bool operator==(const Device& o) const { return impl_ == o.impl_; }

 private:
  std::shared_ptr<detail::DeviceImpl> impl_;
};

struct BackendStatus {
  Backend backend;
  bool available = false;
  std::string reason;  // why not available
};

std::vector<BackendStatus> backends();
// Every device of every available backend, OpenCL first, in a stable order.
std::vector<Device> devices();
// "opencl:P:D", "cuda:N", "gpu" (first GPU), "cpu" (first CPU). An unknown spec
// throws Error(DeviceNotFound) with a listing of the devices that exist.
Device select_device(std::string_view spec);
// OPTUNE_DEVICE if set, else the first GPU, else the first CPU.
Device default_device();

// OPTUNE_TRACE=FILE records every operator call, program lookup and kernel
// and writes them as Chrome trace JSON at exit. This writes the file now (the
// whole trace so far; kernels not yet complete are waited for). False when
// tracing is off or the file cannot be written.
bool flush_trace();

template <class T> class Buffer;
class Image2D;

class Context {
 public:
  Context() = default;
  explicit Context(const Device& device);
  Device device() const;
  template <class T> Buffer<T> alloc(std::size_t count) const;
  const std::shared_ptr<detail::ContextImpl>& impl() const { return impl_; }
  bool operator==(const Context& o) const { return impl_ == o.impl_; }

 private:
  std::shared_ptr<detail::MemImpl> alloc_bytes(std::size_t bytes) const;
  std::shared_ptr<detail::ContextImpl> impl_;
};

// Device timestamps in nanoseconds (OpenCL profiling info; on CUDA, relative to
// the queue's reference event, queued and submit from the host clock).
struct EventTimes {
  std::uint64_t queued = 0, submit = 0, start = 0, end = 0;
};

class Event {
 public:
  Event() = default;
  explicit Event(std::shared_ptr<detail::EventImpl> impl) : impl_(std::move(impl)) {}
  void wait() const;
  bool complete() const;
  EventTimes times() const;           // waits first
  double seconds() const;             // (end - start) / 1e9
  bool valid() const { return impl_ != nullptr; }
  const std::shared_ptr<detail::EventImpl>& impl() const { return impl_; }

 private:
  std::shared_ptr<detail::EventImpl> impl_;
};

using WaitList = std::vector<Event>;

// A typed view of device memory: a handle, an offset and a count, in elements.
template <class T>
class Buffer {
 public:
  using value_type = T;
  Buffer() = default;
  Buffer(std::shared_ptr<detail::MemImpl> mem, std::size_t offset, std::size_t count)
      : mem_(std::move(mem)), offset_(offset), count_(count) {}
  std::size_t size() const { return count_; }
  std::size_t offset() const { return offset_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  // Elements the underlying allocation holds from its start.
  std::size_t capacity() const;
  // A sub-view; throws Error(BufferTooSmall) when it does not fit.
  Buffer view(std::size_t offset, std::size_t count) const;
  const std::shared_ptr<detail::MemImpl>& mem() const { return mem_; }
  bool valid() const { return mem_ != nullptr; }

 private:
  std::shared_ptr<detail::MemImpl> mem_;
  std::size_t offset_ = 0, count_ = 0;
};

enum class ChannelType : int { Float = 0, Half = 1, UNorm8 = 2 };

// A 2-D RGBA image (OpenCL devices with image support).
class Image2D {
 public:
  Image2D() = default;
  Image2D(const Context& ctx, std::size_t width, std::size_t height, ChannelType type);
  std::size_t width() const;
  std::size_t height() const;
  ChannelType channel_type() const;
  const std::shared_ptr<detail::ImageImpl>& impl() const { return impl_; }

 private:
  std::shared_ptr<detail::ImageImpl> impl_;
};

// An in-order queue with profiling. Enqueue calls return at once; the host
// memory they read or write must stay alive until their event completes.
class Queue {
 public:
  Queue() = default;
  explicit Queue(const Context& ctx);
  Context context() const { return ctx_; }
  Device device() const { return ctx_.device(); }

  template <class T> Event write(const Buffer<T>& dst, std::span<const T> src, const WaitList& wait = {}) const;
  template <class T> Event read(const Buffer<T>& src, std::span<T> dst, const WaitList& wait = {}) const;
  template <class T> Event copy(const Buffer<T>& src, const Buffer<T>& dst, const WaitList& wait = {}) const;
  template <class T> Event fill(const Buffer<T>& dst, T value, const WaitList& wait = {}) const;
  // Blocking conveniences.
  template <class T> void upload(const Buffer<T>& dst, std::span<const T> src) const { write(dst, src).wait(); }
  template <class T> std::vector<T> download(const Buffer<T>& src) const {
    std::vector<T> out(src.size());
    read(src, std::span<T>(out)).wait();
    return out;
  }
  // Rows are tightly packed RGBA texels of the image's channel type.
  Event write_image(const Image2D& dst, const void* src, std::size_t src_bytes, const WaitList& wait = {}) const;
  Event read_image(const Image2D& src, void* dst, std::size_t dst_bytes, const WaitList& wait = {}) const;
  void finish() const;
  // Waits for the queue, then frees the memory its operators keep between
  // calls for their passes (padded GEMM operands, partial states of split
  // reductions); the next call that needs some allocates it again.
  void release_scratch() const;
  const std::shared_ptr<detail::QueueImpl>& impl() const { return impl_; }

 private:
  Event write_bytes(const detail::MemImpl& mem, std::size_t offset, std::size_t bytes, const void* src,
                    const WaitList& wait) const;
  Event read_bytes(const detail::MemImpl& mem, std::size_t offset, std::size_t bytes, void* dst,
                   const WaitList& wait) const;
  Event copy_bytes(const detail::MemImpl& src, std::size_t src_offset, const detail::MemImpl& dst,
                   std::size_t dst_offset, std::size_t bytes, const WaitList& wait) const;
  Event fill_bytes(const detail::MemImpl& mem, std::size_t offset, std::size_t bytes, const void* pattern,
                   std::size_t pattern_size, const WaitList& wait) const;
  void check_same_context(const detail::MemImpl& mem, const char* what) const;
  Context ctx_;
  std::shared_ptr<detail::QueueImpl> impl_;
};

namespace detail {
std::size_t mem_bytes(const MemImpl& mem);
[[noreturn]] void throw_buffer_too_small(const char* what, std::size_t need, std::size_t have);
// The same for a range at offset: names offset and count as given, never a
// sum that wrapped around.
[[noreturn]] void throw_range_too_small(const char* what, std::size_t offset, std::size_t count, std::size_t have);
}  // namespace detail

// ---- template definitions ----

template <class T>
Buffer<T> Context::alloc(std::size_t count) const {
  if (count == 0) throw Error(Status::InvalidArgument, "Context::alloc: count must be positive");
  if (count > SIZE_MAX / sizeof(T)) throw Error(Status::Overflow, "Context::alloc: count * element size overflows");
  return Buffer<T>(alloc_bytes(count * sizeof(T)), 0, count);
}

template <class T>
std::size_t Buffer<T>::capacity() const {
  return mem_ ? detail::mem_bytes(*mem_) / sizeof(T) : 0;
}

template <class T>
Buffer<T> Buffer<T>::view(std::size_t offset, std::size_t count) const {
  if (offset > count_ || count > count_ - offset)
    detail::throw_range_too_small("Buffer::view", offset, count, count_);
  return Buffer<T>(mem_, offset_ + offset, count);
}

template <class T>
Event Queue::write(const Buffer<T>& dst, std::span<const T> src, const WaitList& wait) const {
  if (!dst.valid()) throw Error(Status::InvalidArgument, "Queue::write: dst is not a buffer");
  if (src.size() > dst.size()) detail::throw_buffer_too_small("Queue::write: dst", src.size(), dst.size());
  return write_bytes(*dst.mem(), dst.offset() * sizeof(T), src.size() * sizeof(T), src.data(), wait);
}

template <class T>
Event Queue::read(const Buffer<T>& src, std::span<T> dst, const WaitList& wait) const {
  if (!src.valid()) throw Error(Status::InvalidArgument, "Queue::read: src is not a buffer");
  if (dst.size() > src.size()) detail::throw_buffer_too_small("Queue::read: src", dst.size(), src.size());
  return read_bytes(*src.mem(), src.offset() * sizeof(T), dst.size() * sizeof(T), dst.data(), wait);
}

template <class T>
Event Queue::copy(const Buffer<T>& src, const Buffer<T>& dst, const WaitList& wait) const {
  if (!src.valid() || !dst.valid()) throw Error(Status::InvalidArgument, "Queue::copy: src or dst is not a buffer");
  if (dst.size() < src.size()) detail::throw_buffer_too_small("Queue::copy: dst", src.size(), dst.size());
  return copy_bytes(*src.mem(), src.offset() * sizeof(T), *dst.mem(), dst.offset() * sizeof(T),
                    src.size() * sizeof(T), wait);
}

template <class T>
Event Queue::fill(const Buffer<T>& dst, T value, const WaitList& wait) const {
  if (!dst.valid()) throw Error(Status::InvalidArgument, "Queue::fill: dst is not a buffer");
  return fill_bytes(*dst.mem(), dst.offset() * sizeof(T), dst.size() * sizeof(T), &value, sizeof(T), wait);
}

}  // namespace optune
