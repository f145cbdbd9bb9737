#include "runtime/cuda/dry_device.hpp"

#include <cstring>
#include <mutex>

#include "runtime/backend.hpp"
#include "runtime/cuda/nvrtc_check.hpp"

namespace optune::detail {

namespace {

class DryEvent : public EventImpl {
 public:
  void wait() override {}
  bool complete() override { return true; }
  EventTimes times() override { return {}; }
};

EventPtr done() { return std::make_shared<DryEvent>(); }

class DryMem : public MemImpl {
 public:
  using MemImpl::MemImpl;
  interop::NativeBuffer native(std::size_t) const override {
    throw Error(Status::Unsupported, "a dry-run device has no native buffers");
  }
};

class DryKernel : public KernelImpl {
 public:
  explicit DryKernel(std::string name) : name_(std::move(name)) {}
  const std::string& name() const override { return name_; }

 private:
  std::string name_;
};

class DryProgram : public ProgramImpl {
 public:
  KernelPtr kernel(const std::string& name) override { return std::make_shared<DryKernel>(name); }
  std::vector<std::uint8_t> binary() override { return {}; }
};

class DryQueue : public QueueImpl {
 public:
  EventPtr write(const MemImpl&, std::size_t, std::size_t, const void*, const WaitList&) override { return done(); }
  EventPtr read(const MemImpl&, std::size_t, std::size_t bytes, void* dst, const WaitList&) override {
    std::memset(dst, 0, bytes);
    return done();
  }
  EventPtr copy(const MemImpl&, std::size_t, const MemImpl&, std::size_t, std::size_t, const WaitList&) override {
    return done();
  }
  EventPtr fill(const MemImpl&, std::size_t, std::size_t, const void*, std::size_t, const WaitList&) override {
    return done();
  }
  EventPtr write_image(const ImageImpl&, const void*, const WaitList&) override { return unsupported(); }
  EventPtr read_image(const ImageImpl&, void*, const WaitList&) override { return unsupported(); }
  EventPtr launch(KernelImpl&, const std::vector<KernelArg>&, const Geometry&, const WaitList&) override {
    return done();
  }
  void finish() override {}
  interop::NativeQueue native() override { unsupported(); return {}; }
  void with_native(const NativeFn&) override { unsupported(); }
  EventPtr enqueue_native(const NativeFn&, const WaitList&) override { return unsupported(); }
  void join(void*, bool) override { unsupported(); }
  void* map(const MemImpl&, std::size_t, std::size_t) override {
    unsupported();
    return nullptr;
  }
  void unmap(const MemImpl&, void*) override { unsupported(); }

 private:
  static EventPtr unsupported() { throw Error(Status::Unsupported, "not on a dry-run device"); }
};

class DryDevice;

class DryContext : public ContextImpl {
 public:
  DryContext(std::shared_ptr<DeviceImpl> device, std::shared_ptr<std::pair<std::mutex, std::vector<DryBuild>>> log)
      : ContextImpl(std::move(device)), log_(std::move(log)) {}
  std::shared_ptr<MemImpl> alloc(std::size_t bytes) override {
    // As the CUDA context refuses it.
    if (bytes >= device()->caps().global_mem_bytes)
      throw Error(Status::OutOfResources, "dry run: " + std::to_string(bytes) + " bytes exceed the device's memory");
    return std::make_shared<DryMem>(this, bytes);
  }
  std::shared_ptr<ImageImpl> create_image(std::size_t, std::size_t, ChannelType) override {
    throw Error(Status::Unsupported, "images are not supported on the CUDA back end");
  }
  QueuePtr create_queue() override { return std::make_shared<DryQueue>(); }
  ProgramPtr build(const std::string& source, const std::string& options) override {
    std::lock_guard lock(log_->first);
    log_->second.push_back({source, options});
    return std::make_shared<DryProgram>();
  }
  ProgramPtr load_binary(const std::vector<std::uint8_t>& binary, const std::string&) override {
    return binary.empty() ? nullptr : std::make_shared<DryProgram>();
  }
  std::shared_ptr<MemImpl> adopt(const interop::NativeBuffer&, std::size_t) override {
    throw Error(Status::Unsupported, "not on a dry-run device");
  }
  std::shared_ptr<MemImpl> adopt_host(void*, std::size_t) override {
    throw Error(Status::Unsupported, "not on a dry-run device");
  }

 private:
  std::shared_ptr<std::pair<std::mutex, std::vector<DryBuild>>> log_;
};

class DryDevice : public DeviceImpl {
 public:
  explicit DryDevice(Capabilities caps) : options_(cuda_base_options(caps.architecture)) {
    caps.driver_version += " (dry run)";
    caps_ = std::move(caps);
  }
  ContextPtr create_context() override { return std::make_shared<DryContext>(shared_from_this(), log); }
  std::string backend_prelude() const override { return cuda_backend_prelude(); }
  std::string base_options() const override { return options_; }

  std::shared_ptr<std::pair<std::mutex, std::vector<DryBuild>>> log =
      std::make_shared<std::pair<std::mutex, std::vector<DryBuild>>>();

 private:
  std::string options_;
};

}  // namespace

Device make_dry_cuda_device(Capabilities caps) {
  if (caps.backend != Backend::CUDA) throw Error(Status::InvalidArgument, "dry run: not a CUDA device's capabilities");
  return Device(std::make_shared<DryDevice>(std::move(caps)));
}

std::vector<DryBuild> dry_builds(const Device& dry) {
  auto* d = dynamic_cast<DryDevice*>(dry.impl().get());
  if (!d) throw Error(Status::InvalidArgument, "dry_builds: not a dry-run device");
  std::lock_guard lock(d->log->first);
  return d->log->second;
}

}  // namespace optune::detail
