// The interface each backend (OpenCL, CUDA) implements. Nothing above
// src/runtime sees a backend type; nothing here knows an operator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <unordered_map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "optune/interop.hpp"
#include "optune/runtime.hpp"

namespace optune::detail {

class ContextImpl;

class EventImpl {
 public:
  virtual ~EventImpl() = default;
  virtual void wait() = 0;
  virtual bool complete() = 0;
  virtual EventTimes times() = 0;  // waits first
};
using EventPtr = std::shared_ptr<EventImpl>;

class MemImpl {
 public:
  MemImpl(ContextImpl* ctx, std::size_t bytes) : ctx_(ctx), bytes_(bytes) {}
  virtual ~MemImpl() = default;
  std::size_t bytes() const { return bytes_; }
  ContextImpl* context() const { return ctx_; }
  // The backend's own handle, for another library on the same memory.
  virtual interop::NativeBuffer native(std::size_t offset_bytes) const = 0;
  // Memory that another library owns (interop::adopt): its owner is held
  // until this object goes, after the backend's handle is released.
  void keep(std::shared_ptr<void> owner) { owner_ = std::move(owner); }

 private:
  ContextImpl* ctx_;
  std::size_t bytes_;
  std::shared_ptr<void> owner_;
};

class ImageImpl {
 public:
  ImageImpl(ContextImpl* ctx, std::size_t w, std::size_t h, ChannelType t) : ctx_(ctx), w_(w), h_(h), type_(t) {}
  virtual ~ImageImpl() = default;
  std::size_t width() const { return w_; }
  std::size_t height() const { return h_; }
  ChannelType channel_type() const { return type_; }
  std::size_t texel_bytes() const { return type_ == ChannelType::Float ? 16 : type_ == ChannelType::Half ? 8 : 4; }
  ContextImpl* context() const { return ctx_; }

 private:
  ContextImpl* ctx_;
  std::size_t w_, h_;
  ChannelType type_;
};

// One kernel argument: a buffer, an image, or a value passed by value (a
// scalar, or a small struct of 8-byte fields such as a shape descriptor).
struct KernelArg {
  static constexpr std::size_t kMaxValueBytes = 512;
  enum class Kind { Mem, Image, Scalar } kind = Kind::Scalar;
  const MemImpl* mem = nullptr;
  const ImageImpl* image = nullptr;
  std::size_t size = 0;
  alignas(8) unsigned char value[kMaxValueBytes] = {};

  static KernelArg buffer(const MemImpl& m) {
    KernelArg a;
    a.kind = Kind::Mem;
    a.mem = &m;
    return a;
  }
  static KernelArg img(const ImageImpl& i) {
    KernelArg a;
    a.kind = Kind::Image;
    a.image = &i;
    return a;
  }
  template <class T>
  static KernelArg scalar(const T& v) {
    static_assert(sizeof(T) <= kMaxValueBytes, "by-value kernel arguments are at most 512 bytes");
    KernelArg a;
    a.kind = Kind::Scalar;
    a.size = sizeof(T);
    std::memcpy(a.value, &v, sizeof(T));
    return a;
  }
  // Raw bytes of a by-value struct argument; throws when too large.
  static KernelArg bytes(const void* data, std::size_t size);
};

// NDRange in OpenCL terms: global is a multiple of local in every dimension.
struct Geometry {
  unsigned dims = 1;
  std::size_t global[3] = {1, 1, 1};
  std::size_t local[3] = {1, 1, 1};
  // Dynamic shared memory per group (CUDA only: a kernel declaring `extern
  // __shared__` storage); above the device's default 48 KiB the CUDA launch
  // raises the function's limit, up to shared_mem_per_block_optin_bytes.
  std::size_t shared_bytes = 0;
  // A persistent grid that walks the batch itself: launches that cut a
  // batch into grids of at most 65535 along z keep global[2] (GEMM's).
  bool own_z = false;
  std::size_t work_items() const { return global[0] * global[1] * global[2]; }
  std::size_t group_size() const { return local[0] * local[1] * local[2]; }
};

class KernelImpl {
 public:
  virtual ~KernelImpl() = default;
  virtual const std::string& name() const = 0;
};
using KernelPtr = std::shared_ptr<KernelImpl>;

class ProgramImpl {
 public:
  virtual ~ProgramImpl() = default;
  // Throws Error(NotFound) when the program has no kernel of that name.
  virtual KernelPtr kernel(const std::string& name) = 0;
  // The device binary (OpenCL program binary, CUDA cubin) for the cache.
  virtual std::vector<std::uint8_t> binary() = 0;
};
using ProgramPtr = std::shared_ptr<ProgramImpl>;

class QueueImpl {
 public:
  virtual ~QueueImpl() = default;
  virtual EventPtr write(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* src,
                         const WaitList& wait) = 0;
  virtual EventPtr read(const MemImpl& src, std::size_t offset, std::size_t bytes, void* dst,
                        const WaitList& wait) = 0;
  virtual EventPtr copy(const MemImpl& src, std::size_t src_offset, const MemImpl& dst, std::size_t dst_offset,
                        std::size_t bytes, const WaitList& wait) = 0;
  virtual EventPtr fill(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* pattern,
                        std::size_t pattern_size, const WaitList& wait) = 0;
  virtual EventPtr write_image(const ImageImpl& dst, const void* src, const WaitList& wait) = 0;
  virtual EventPtr read_image(const ImageImpl& src, void* dst, const WaitList& wait) = 0;
  // Geometry is validated by the caller against the device limits.
  virtual EventPtr launch(KernelImpl& kernel, const std::vector<KernelArg>& args, const Geometry& geometry,
                          const WaitList& wait) = 0;
  virtual void finish() = 0;
  // Another library's work on this queue (include/optune/interop.hpp).
  using NativeFn = std::function<void(const interop::NativeQueue&)>;
  virtual interop::NativeQueue native() = 0;
  virtual void with_native(const NativeFn& fn) = 0;
  virtual EventPtr enqueue_native(const NativeFn& enqueue, const WaitList& wait) = 0;
  // Orders this queue and a native one of the same context (interop::join):
  // when native_waits, the native queue's later work waits for what this
  // queue holds now; otherwise this queue's later work waits for the native one's.
  virtual void join(void* native_queue, bool native_waits) = 0;
  // Blocking map of bytes at offset for host reads and writes, on devices
  // that share memory with the host (interop::map_host); unmap enqueues the release.
  virtual void* map(const MemImpl& mem, std::size_t offset, std::size_t bytes) = 0;
  virtual void unmap(const MemImpl& mem, void* host) = 0;
};
using QueuePtr = std::shared_ptr<QueueImpl>;

class DeviceImpl;

class ContextImpl {
 public:
  explicit ContextImpl(std::shared_ptr<DeviceImpl> device) : device_(std::move(device)) {}
  virtual ~ContextImpl() = default;
  const std::shared_ptr<DeviceImpl>& device() const { return device_; }
  virtual std::shared_ptr<MemImpl> alloc(std::size_t bytes) = 0;
  // Memory another library allocated (interop::adopt): OpenCL, a cl_mem of
  // this context (retained while used); CUDA, a device pointer (never freed).
  virtual std::shared_ptr<MemImpl> adopt(const interop::NativeBuffer& native, std::size_t bytes) = 0;
  // Host memory that the device reads and writes in place (interop::adopt_host);
  // throws Error(Unsupported) where the device cannot.
  virtual std::shared_ptr<MemImpl> adopt_host(void* data, std::size_t bytes) = 0;
  // Host memory kept page-locked while the returned handle lives, so that
  // copies between it and the device run at the link's DMA rate and without
  // blocking the host (CUDA: cuMemHostRegister over its whole pages). The
  // handle must outlive every copy that uses the memory. nullptr where the
  // back end has no such thing or the driver refuses (memory already
  // registered, too much locked): copies then stage through the driver.
  virtual std::shared_ptr<void> pin_host(void* /*data*/, std::size_t /*bytes*/) { return nullptr; }
  virtual std::shared_ptr<ImageImpl> create_image(std::size_t width, std::size_t height, ChannelType type) = 0;
  virtual QueuePtr create_queue() = 0;
  // Compiles source (prelude included) with options; throws Error(BuildFailure)
  // whose message holds the compiler's log.
  virtual ProgramPtr build(const std::string& source, const std::string& options) = 0;
  // Loads a cached binary; returns nullptr when the driver rejects it.
  virtual ProgramPtr load_binary(const std::vector<std::uint8_t>& binary, const std::string& options) = 0;

  // In-process program cache (see program.cpp), guarded by programs_mutex.
  std::mutex programs_mutex;
  std::map<std::string, ProgramPtr> programs;
  std::map<std::string, std::shared_ptr<std::mutex>> programs_pending;  // per-key build locks
  // The same programs by what the text is made of (label and sorted defines,
  // then the body itself, compared in full): a repeated call finds its
  // program without assembling the whole text and digesting it (which cost
  // most of a call's host time, 60% of 85 us on PoCL).
  std::map<std::string, std::vector<std::pair<std::string, ProgramPtr>>> programs_by_source;
  // Launch plans of repeated calls (ops/launch_plan.hpp): what a family chose
  // for a problem (parameters, kernel, grid), by the problem's key, so a
  // repeated call skips the database lookup and the program lookup. They go
  // with the context; plans_mutex guards the map.
  std::mutex plans_mutex;
  std::unordered_map<std::string, std::shared_ptr<const void>> plans;

 private:
  std::shared_ptr<DeviceImpl> device_;
};
using ContextPtr = std::shared_ptr<ContextImpl>;

class DeviceImpl : public std::enable_shared_from_this<DeviceImpl> {
 public:
  virtual ~DeviceImpl() = default;
  const Capabilities& caps() const { return caps_; }
  virtual ContextPtr create_context() = 0;
  // Text put before every kernel source on this backend (the prelude's
  // backend side); the common prelude follows it.
  virtual std::string backend_prelude() const = 0;
  // Compiler options that every build on this device gets.
  virtual std::string base_options() const = 0;

 protected:
  Capabilities caps_;
};
using DevicePtr = std::shared_ptr<DeviceImpl>;

class BackendImpl {
 public:
  virtual ~BackendImpl() = default;
  virtual Backend kind() const = 0;
  // Loads the driver on first use; false with a reason when it cannot.
  virtual bool available(std::string* reason) = 0;
  virtual const std::vector<DevicePtr>& devices() = 0;
};

BackendImpl& opencl_backend();
// nullptr when optune was built without the CUDA toolkit's headers.
BackendImpl* cuda_backend();

}  // namespace optune::detail
