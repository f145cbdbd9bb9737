// CUDA device enumeration and the capability probe.
#include <string>

#include "runtime/cuda/cuda_caps.hpp"
#include "runtime/cuda/cuda_objects.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/log.hpp"

namespace optune::detail {

namespace cu {

namespace {

// Attributes the driver does not know (older drivers, newer enums) read as 0.
int attribute(CUdevice dev, CUdevice_attribute a) {
  int v = 0;
  if (api().cuDeviceGetAttribute(&v, a, dev) != CUDA_SUCCESS) return 0;
  return v;
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

class CuBackend : public BackendImpl {
 public:
  Backend kind() const override { return Backend::CUDA; }
  bool available(std::string* reason) override {
    init();
    if (!ok_ && reason) *reason = reason_;
    return ok_;
  }
  const std::vector<DevicePtr>& devices() override {
    init();
    return devices_;
  }

 private:
  void init() {
    std::call_once(once_, [this] {
      if (!load_driver(&reason_)) return;
      int count = 0;
      if (CUresult r = api().cuDeviceGetCount(&count); r != CUDA_SUCCESS) {
        reason_ = "cuDeviceGetCount failed: " + error_name(r);
        return;
      }
      for (int i = 0; i < count; ++i) {
        CUdevice dev = 0;
        try {
          check(api().cuDeviceGet(&dev, i), "cuDeviceGet");
          devices_.push_back(std::make_shared<CuDevice>(i, dev));
        } catch (const Error& e) {
          log_warn("CUDA device " + std::to_string(i) + " skipped: " + e.what());
        }
      }
      if (devices_.empty()) {
        reason_ = "the driver reports no usable CUDA device";
        return;
      }
      std::string why;
      if (!load_nvrtc(&why)) log_warn("CUDA kernels cannot be built: " + why);
      ok_ = true;
    });
  }

  std::once_flag once_;
  bool ok_ = false;
  std::string reason_;
  std::vector<DevicePtr> devices_;
};

}  // namespace

CuDevice::CuDevice(int ordinal, CUdevice dev) : dev_(dev), ordinal_(ordinal) {
  const DriverApi& a = api();
  CudaAttributes at;
  char name[256] = {};
  check(a.cuDeviceGetName(name, int(sizeof name) - 1, dev), "cuDeviceGetName");
  at.name = name;
  at.driver_version = version_text(a.version);
  at.cc_major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  at.cc_minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  at.multiprocessors = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  at.clock_khz = attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  std::size_t total = 0;
  check(a.cuDeviceTotalMem(&total, dev), "cuDeviceTotalMem");
  at.total_mem = total;
  at.shared_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  at.shared_per_block_optin = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  at.shared_per_multiprocessor = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  at.total_constant = attribute(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
  at.max_threads_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  at.block_dim[0] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  at.block_dim[1] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  at.block_dim[2] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  at.max_threads_per_multiprocessor = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  at.l2_bytes = attribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  at.memory_clock_khz = attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  at.bus_width_bits = attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  at.warp_size = attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  at.integrated = attribute(dev, CU_DEVICE_ATTRIBUTE_INTEGRATED) != 0;
  at.fp16_headers = cuda_fp16_headers();
  caps_ = cuda_capabilities(at, ordinal);
  max_grid_[0] = unsigned(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
  max_grid_[1] = unsigned(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
  max_grid_[2] = unsigned(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
  if (!caps_.fp16 && at.cc_major * 10 + at.cc_minor >= 53)
    log_info("CUDA fp16 arithmetic off on " + caps_.name + ": cuda_fp16.h not found (set OPTUNE_CUDA_INCLUDE_DIR)");
  options_ = cuda_base_options(caps_.architecture);
}

ContextPtr CuDevice::create_context() {
  return std::make_shared<CuContext>(std::static_pointer_cast<CuDevice>(shared_from_this()));
}

std::string CuDevice::backend_prelude() const { return cuda_backend_prelude(); }

std::string CuDevice::base_options() const { return options_; }

}  // namespace cu

BackendImpl* cuda_backend() {
  static cu::CuBackend backend;
  return &backend;
}

}  // namespace optune::detail
