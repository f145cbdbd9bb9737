// CUDA implementations of the backend interface.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

#include "runtime/backend.hpp"
#include "runtime/cuda/cuda_api.hpp"

namespace optune::detail::cu {

// A retained primary context. Every object that needs the context alive
// holds one, so handles can be dropped in any order.
class PrimaryContext {
 public:
  explicit PrimaryContext(CUdevice dev);
  ~PrimaryContext();
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;
  CUcontext get() const { return ctx_; }

 private:
  CUdevice dev_;
  CUcontext ctx_ = nullptr;
};
using PrimaryPtr = std::shared_ptr<PrimaryContext>;

// Makes a context current on the calling thread for a scope, restoring the
// caller's own current context afterwards (push/pop only when it differs).
// Destructors pass quiet = true: they must not throw, and at process exit the
// driver may already refuse every call.
class Scope {
 public:
  explicit Scope(const PrimaryContext& pc, bool quiet = false);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  bool pushed_ = false;
};

class CuDevice : public DeviceImpl {
 public:
  CuDevice(int ordinal, CUdevice dev);
  ContextPtr create_context() override;
  std::string backend_prelude() const override;
  std::string base_options() const override;
  CUdevice handle() const { return dev_; }
  int ordinal() const { return ordinal_; }
  unsigned max_grid(unsigned d) const { return max_grid_[d]; }

 private:
  CUdevice dev_;
  int ordinal_;
  unsigned max_grid_[3] = {0, 0, 0};
  std::string options_;
};

// The zero of a queue's device timestamps: an event recorded when the queue
// was made, and the host clock read at the same moment.
struct QueueClock {
  PrimaryPtr pc;
  CUevent ref = nullptr;
  std::chrono::steady_clock::time_point t0;
  std::uint64_t host_ns() const;
  ~QueueClock();
};

class CuEvent : public EventImpl {
 public:
  CuEvent(PrimaryPtr pc, std::shared_ptr<const QueueClock> clock, std::uint64_t queued_ns);
  ~CuEvent() override;
  void wait() override;
  bool complete() override;
  EventTimes times() override;
  CUevent start() const { return start_; }
  CUevent end() const { return end_; }
  void set_submit(std::uint64_t ns) { submit_ns_ = ns; }

 private:
  PrimaryPtr pc_;
  std::shared_ptr<const QueueClock> clock_;
  CUevent start_ = nullptr, end_ = nullptr;
  std::uint64_t queued_ns_ = 0, submit_ns_ = 0;
};

class CuMem : public MemImpl {
 public:
  // owned: freed with this object; memory adopted from another library is not.
  CuMem(ContextImpl* ctx, std::size_t bytes, PrimaryPtr pc, CUdeviceptr ptr, bool owned = true)
      : MemImpl(ctx, bytes), pc_(std::move(pc)), ptr_(ptr), owned_(owned) {}
  ~CuMem() override;
  CUdeviceptr ptr() const { return ptr_; }
  const PrimaryContext& primary() const { return *pc_; }
  interop::NativeBuffer native(std::size_t offset_bytes) const override;

 private:
  PrimaryPtr pc_;
  CUdeviceptr ptr_;
  bool owned_;
};

struct Module {
  PrimaryPtr pc;
  CUmodule module = nullptr;
  ~Module();
};

class CuKernel : public KernelImpl {
 public:
  // param_count: from the cubin when the driver cannot say (cubin_params.hpp).
  CuKernel(std::string name, std::shared_ptr<Module> module, CUfunction f,
           std::optional<std::size_t> param_count = std::nullopt);
  const std::string& name() const override { return name_; }
  CUfunction get() const { return function_; }
  // Throws Error(InvalidArgument) when the arguments do not match the
  // kernel's parameters (count and sizes; checked where the driver says).
  void check_args(const std::vector<KernelArg>& args) const;
  // Raises the function's dynamic shared memory limit to `bytes` where the
  // default (48 KiB) is lower; once per size reached (the current context).
  void allow_shared(std::size_t bytes);

 private:
  std::atomic<std::size_t> shared_allowed_{48 * 1024};
  std::string name_;
  std::shared_ptr<Module> module_;
  CUfunction function_;
  // With cuFuncGetParamCount, or the count from the cubin: every
  // parameter's size, known at creation.
  bool params_known_ = false;
  std::vector<std::size_t> param_sizes_;
  // Without it: the sizes of the parameters that launches have given so far,
  // asked of cuFuncGetParamInfo once each (indices that exist when the
  // launch is right; a too-long argument list is the only probe that fails).
  mutable std::mutex prefix_mutex_;
  mutable std::vector<std::size_t> prefix_sizes_;
};

class CuProgram : public ProgramImpl {
 public:
  CuProgram(std::shared_ptr<Module> module, std::vector<std::uint8_t> binary)
      : module_(std::move(module)), binary_(std::move(binary)) {}
  KernelPtr kernel(const std::string& name) override;
  std::vector<std::uint8_t> binary() override { return binary_; }

 private:
  std::shared_ptr<Module> module_;
  std::vector<std::uint8_t> binary_;
  std::mutex mutex_;
  std::map<std::string, KernelPtr> kernels_;
};

class CuContext : public ContextImpl {
 public:
  explicit CuContext(std::shared_ptr<CuDevice> device);
  std::shared_ptr<MemImpl> alloc(std::size_t bytes) override;
  std::shared_ptr<MemImpl> adopt(const interop::NativeBuffer& native, std::size_t bytes) override;
  std::shared_ptr<MemImpl> adopt_host(void* data, std::size_t bytes) override;
  std::shared_ptr<void> pin_host(void* data, std::size_t bytes) override;
  std::shared_ptr<ImageImpl> create_image(std::size_t width, std::size_t height, ChannelType type) override;
  QueuePtr create_queue() override;
  ProgramPtr build(const std::string& source, const std::string& options) override;
  ProgramPtr load_binary(const std::vector<std::uint8_t>& binary, const std::string& options) override;
  const PrimaryPtr& primary() const { return pc_; }
  const CuDevice& cu_device() const { return *cu_device_; }
  // The kernel behind fills with 8- and 16-byte patterns, built on first use.
  CuKernel& fill_kernel();

 private:
  std::shared_ptr<CuDevice> cu_device_;
  PrimaryPtr pc_;
  std::mutex fill_mutex_;
  KernelPtr fill_kernel_;
};

class CuQueue : public QueueImpl {
 public:
  explicit CuQueue(CuContext& ctx);
  ~CuQueue() override;
  EventPtr write(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* src,
                 const WaitList& wait) override;
  EventPtr read(const MemImpl& src, std::size_t offset, std::size_t bytes, void* dst, const WaitList& wait) override;
  EventPtr copy(const MemImpl& src, std::size_t src_offset, const MemImpl& dst, std::size_t dst_offset,
                std::size_t bytes, const WaitList& wait) override;
  EventPtr fill(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* pattern,
                std::size_t pattern_size, const WaitList& wait) override;
  EventPtr write_image(const ImageImpl& dst, const void* src, const WaitList& wait) override;
  EventPtr read_image(const ImageImpl& src, void* dst, const WaitList& wait) override;
  EventPtr launch(KernelImpl& kernel, const std::vector<KernelArg>& args, const Geometry& geometry,
                  const WaitList& wait) override;
  void finish() override;
  interop::NativeQueue native() override;
  void with_native(const NativeFn& fn) override;
  EventPtr enqueue_native(const NativeFn& enqueue, const WaitList& wait) override;
  void join(void* native_queue, bool native_waits) override;
  void* map(const MemImpl& mem, std::size_t offset, std::size_t bytes) override;
  void unmap(const MemImpl& mem, void* host) override;

 private:
  // Records start, runs the command on the stream, records end.
  template <class Command>
  EventPtr enqueue(const WaitList& wait, Command&& command);
  void launch_on_stream(CuKernel& kernel, const std::vector<KernelArg>& args, const Geometry& g);
  CuContext& ctx_;
  PrimaryPtr pc_;
  CUstream stream_ = nullptr;
  std::shared_ptr<QueueClock> clock_;
};

// NVRTC for one text and option string; the options name the architecture
// with --gpu-architecture=sm_XY. Throws Error(BackendUnavailable) without
// NVRTC; otherwise ok says whether it compiled and log holds the messages.
struct NvrtcOutput {
  bool ok = false;
  std::string log;
  std::string arch;                  // what was compiled for: sm_90, sm_90a, compute_120 (PTX)
  std::vector<std::uint8_t> binary;  // cubin, or PTX with its NUL when arch is compute_XY
};
NvrtcOutput nvrtc_build(const std::string& text, const std::string& options);

}  // namespace optune::detail::cu
