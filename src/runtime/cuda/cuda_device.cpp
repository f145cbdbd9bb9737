// CUDA device enumeration and the capability probe.
#include <string>

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
  Capabilities& c = caps_;
  c.backend = Backend::CUDA;
  c.type = DeviceType::GPU;
  c.spec = "cuda:" + std::to_string(ordinal);
  char name[256] = {};
  check(a.cuDeviceGetName(name, int(sizeof name) - 1, dev), "cuDeviceGetName");
  c.name = name;
  c.vendor = "NVIDIA";
  c.platform = "CUDA";
  c.driver_version = version_text(a.version);
  c.compute_capability_major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  c.compute_capability_minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  const std::string cc = std::to_string(c.compute_capability_major) + std::to_string(c.compute_capability_minor);
  c.device_version = "CUDA " + std::to_string(c.compute_capability_major) + "." +
                     std::to_string(c.compute_capability_minor);
  c.architecture = "sm_" + cc;

  c.compute_units = std::uint32_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  c.max_clock_mhz = std::uint32_t(attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
  std::size_t total = 0;
  check(a.cuDeviceTotalMem(&total, dev), "cuDeviceTotalMem");
  c.global_mem_bytes = total;
  c.max_alloc_bytes = total;
  c.local_mem_bytes = std::uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  c.shared_mem_per_block_optin_bytes =
      std::uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  c.shared_mem_per_cu_bytes = std::uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
  c.max_constant_buffer_bytes = std::uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
  c.max_work_group_size = std::size_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  c.max_work_item_sizes = {std::size_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
                           std::size_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
                           std::size_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
  max_grid_[0] = unsigned(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
  max_grid_[1] = unsigned(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
  max_grid_[2] = unsigned(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
  c.max_threads_per_cu = std::uint32_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR));
  c.l2_bytes = std::uint64_t(attribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  c.memory_clock_mhz = std::uint32_t(attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000);
  c.memory_bus_width_bits = std::uint32_t(attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH));
  c.warp_size = std::uint32_t(attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE));
  if (c.warp_size == 0) c.warp_size = 32;
  c.unified_memory = attribute(dev, CU_DEVICE_ATTRIBUTE_INTEGRATED) != 0;

  // The widest load is 16 bytes, so "native" and "preferred" are 16 bytes' worth.
  const VectorWidths w{16, 8, 4, 2, 4, 2, 8};
  c.preferred_vector_width = w;
  c.native_vector_width = w;
  // The prelude's warp functions assume 32 lanes, which every NVIDIA GPU has.
  c.subgroups = c.warp_size == 32;
  if (c.subgroups) c.subgroup_sizes = {32};
  c.fp64 = true;
  c.images = false;
  // cuda_fp16.h comes from the toolkit's include folder; without it half is
  // storage only (vload_half/vstore_half), as on OpenCL without cl_khr_fp16.
  const bool fp16_hardware = c.compute_capability_major * 10 + c.compute_capability_minor >= 53;
  c.fp16 = fp16_hardware && !include_dir().empty();
  if (fp16_hardware && !c.fp16)
    log_info("CUDA fp16 arithmetic off on " + c.name + ": cuda_fp16.h not found (set OPTUNE_CUDA_INCLUDE_DIR)");

  options_ = cuda_base_options(c.architecture);
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
