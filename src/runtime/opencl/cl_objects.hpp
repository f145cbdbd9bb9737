// OpenCL implementations of the backend interface.
#pragma once

#include <mutex>

#include "runtime/backend.hpp"
#include "runtime/opencl/cl_util.hpp"

namespace optune::detail::cl {

class ClDevice : public DeviceImpl {
 public:
  ClDevice(cl_platform_id platform, cl_device_id device, unsigned platform_index, unsigned device_index);
  ContextPtr create_context() override;
  std::string backend_prelude() const override;
  std::string base_options() const override;
  cl_device_id id() const { return device_; }
  cl_platform_id platform() const { return platform_; }

 private:
  void probe(unsigned platform_index, unsigned device_index);
  cl_platform_id platform_;
  cl_device_id device_;
};

class ClEvent : public EventImpl {
 public:
  explicit ClEvent(cl_event e) : event_(e) {}
  void wait() override;
  bool complete() override;
  EventTimes times() override;
  cl_event get() const { return event_.get(); }

 private:
  EventHandle event_;
};

class ClMem : public MemImpl {
 public:
  ClMem(ContextImpl* ctx, std::size_t bytes, cl_mem mem) : MemImpl(ctx, bytes), mem_(mem) {}
  cl_mem get() const { return mem_.get(); }
  interop::NativeBuffer native(std::size_t offset_bytes) const override;

 private:
  MemHandle mem_;
};

class ClImage : public ImageImpl {
 public:
  ClImage(ContextImpl* ctx, std::size_t w, std::size_t h, ChannelType t, cl_mem mem)
      : ImageImpl(ctx, w, h, t), mem_(mem) {}
  cl_mem get() const { return mem_.get(); }

 private:
  MemHandle mem_;
};

class ClKernel : public KernelImpl {
 public:
  ClKernel(std::string name, cl_kernel k) : name_(std::move(name)), kernel_(k) {}
  const std::string& name() const override { return name_; }
  cl_kernel get() const { return kernel_.get(); }
  std::mutex mutex;  // clSetKernelArg + enqueue must not interleave across threads

 private:
  std::string name_;
  KernelHandle kernel_;
};

class ClProgram : public ProgramImpl {
 public:
  explicit ClProgram(cl_program p, cl_device_id dev) : program_(p), device_(dev) {}
  KernelPtr kernel(const std::string& name) override;
  std::vector<std::uint8_t> binary() override;

 private:
  ProgramHandle program_;
  cl_device_id device_;
  std::mutex mutex_;
  std::map<std::string, KernelPtr> kernels_;
};

class ClContext : public ContextImpl {
 public:
  explicit ClContext(std::shared_ptr<ClDevice> device);
  std::shared_ptr<MemImpl> alloc(std::size_t bytes) override;
  std::shared_ptr<MemImpl> adopt(const interop::NativeBuffer& native, std::size_t bytes) override;
  std::shared_ptr<MemImpl> adopt_host(void* data, std::size_t bytes) override;
  std::shared_ptr<ImageImpl> create_image(std::size_t width, std::size_t height, ChannelType type) override;
  QueuePtr create_queue() override;
  ProgramPtr build(const std::string& source, const std::string& options) override;
  ProgramPtr load_binary(const std::vector<std::uint8_t>& binary, const std::string& options) override;
  cl_context get() const { return context_.get(); }
  cl_device_id device_id() const { return device_id_; }

 private:
  cl_device_id device_id_;
  ContextHandle context_;
};

class ClQueue : public QueueImpl {
 public:
  ClQueue(ClContext& ctx, cl_command_queue q) : ctx_(ctx), queue_(q) {}
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
  std::vector<cl_event> wait_list(const WaitList& wait);
  // A command on the queue whose device times every driver reports (see cl_interop.cpp).
  cl_event enqueue_timestamp(const std::vector<cl_event>& wait);
  ClContext& ctx_;
  QueueHandle queue_;
  std::once_flag timestamp_once_;
  MemHandle timestamp_scratch_;  // 4 bytes that enqueue_timestamp fills
};

}  // namespace optune::detail::cl
