// OpenCL platform/device enumeration and the capability probe.
#include <algorithm>
#include <cctype>

#include "runtime/embedded.hpp"
#include "runtime/log.hpp"
#include "runtime/program.hpp"
#include "runtime/opencl/cl_objects.hpp"

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif
#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif

namespace optune::detail::cl {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// The database's architecture-family key of an OpenCL device.
std::string architecture_of(cl_device_id d, const Capabilities& c) {
  int major = 0, minor = 0;
  if (lower(c.vendor).find("nvidia") != std::string::npos) {
    major = int(device_value<cl_uint>(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, 0));
    minor = int(device_value<cl_uint>(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, 0));
  }
  return architecture_key(c.vendor, c.name, c.platform, major, minor);
}

class ClBackend : public BackendImpl {
 public:
  Backend kind() const override { return Backend::OpenCL; }
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
      cl_uint np = 0;
      cl_int err = clGetPlatformIDs(0, nullptr, &np);
      if (err != CL_SUCCESS || np == 0) {
        reason_ = np == 0 && (err == CL_SUCCESS || err == -1001)
                      ? "no OpenCL platform (install an ICD, e.g. pocl-opencl-icd)"
                      : std::string("clGetPlatformIDs failed: ") + error_name(err);
        return;
      }
      std::vector<cl_platform_id> platforms(np);
      clGetPlatformIDs(np, platforms.data(), nullptr);
      for (unsigned p = 0; p < np; ++p) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
        std::vector<cl_device_id> ids(nd);
        clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr);
        for (unsigned i = 0; i < nd; ++i) {
          try {
            devices_.push_back(std::make_shared<ClDevice>(platforms[p], ids[i], p, i));
          } catch (const std::exception& e) {
            log_warn("skipping OpenCL device " + std::to_string(p) + ":" + std::to_string(i) + ": " + e.what());
          }
        }
      }
      ok_ = true;
    });
  }
  std::once_flag once_;
  bool ok_ = false;
  std::string reason_;
  std::vector<DevicePtr> devices_;
};

}  // namespace

ClDevice::ClDevice(cl_platform_id platform, cl_device_id device, unsigned platform_index, unsigned device_index)
    : platform_(platform), device_(device) {
  probe(platform_index, device_index);
}

void ClDevice::probe(unsigned pi, unsigned di) {
  Capabilities& c = caps_;
  c.backend = Backend::OpenCL;
  c.spec = "opencl:" + std::to_string(pi) + ":" + std::to_string(di);
  const auto type = device_value<cl_device_type>(device_, CL_DEVICE_TYPE, 0);
  c.type = (type & CL_DEVICE_TYPE_GPU)           ? DeviceType::GPU
           : (type & CL_DEVICE_TYPE_CPU)         ? DeviceType::CPU
           : (type & CL_DEVICE_TYPE_ACCELERATOR) ? DeviceType::Accelerator
                                                 : DeviceType::Other;
  c.name = device_string(device_, CL_DEVICE_NAME);
  c.vendor = device_string(device_, CL_DEVICE_VENDOR);
  c.platform = platform_string(platform_, CL_PLATFORM_NAME);
  c.driver_version = device_string(device_, CL_DRIVER_VERSION);
  c.device_version = device_string(device_, CL_DEVICE_VERSION);
  c.opencl_c_version = device_string(device_, CL_DEVICE_OPENCL_C_VERSION);
  c.extensions = device_string(device_, CL_DEVICE_EXTENSIONS);
  c.compute_units = device_value<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS);
  c.max_clock_mhz = device_value<cl_uint>(device_, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  c.global_mem_bytes = device_value<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_SIZE);
  c.max_alloc_bytes = device_value<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  c.local_mem_bytes = device_value<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE);
  c.max_constant_buffer_bytes = device_value<cl_ulong>(device_, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
  c.max_work_group_size = device_value<std::size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  std::size_t sizes[3] = {0, 0, 0};
  clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, nullptr);
  c.max_work_item_sizes = {sizes[0], sizes[1], sizes[2]};
  auto widths = [&](cl_device_info ch, cl_device_info sh, cl_device_info in, cl_device_info lo, cl_device_info fl,
                    cl_device_info db, cl_device_info ha) {
    VectorWidths w;
    w.char_ = device_value<cl_uint>(device_, ch);
    w.short_ = device_value<cl_uint>(device_, sh);
    w.int_ = device_value<cl_uint>(device_, in);
    w.long_ = device_value<cl_uint>(device_, lo);
    w.float_ = device_value<cl_uint>(device_, fl);
    w.double_ = device_value<cl_uint>(device_, db);
    w.half_ = device_value<cl_uint>(device_, ha);
    return w;
  };
  c.preferred_vector_width = widths(
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF);
  c.native_vector_width = widths(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
                                 CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
                                 CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
                                 CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF);
  c.fp16 = has_extension(c.extensions, "cl_khr_fp16");
  c.fp64 = has_extension(c.extensions, "cl_khr_fp64") ||
           device_value<cl_device_fp_config>(device_, CL_DEVICE_DOUBLE_FP_CONFIG, 0) != 0;
  c.subgroups = has_extension(c.extensions, "cl_khr_subgroups");
  if (has_extension(c.extensions, "cl_intel_subgroups")) {
    std::size_t n = 0;
    if (clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &n) == CL_SUCCESS && n) {
      c.subgroup_sizes.resize(n / sizeof(std::size_t));
      clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, n, c.subgroup_sizes.data(), nullptr);
    }
  }
  c.images = device_value<cl_bool>(device_, CL_DEVICE_IMAGE_SUPPORT, CL_FALSE) == CL_TRUE;
  if (c.images) {
    c.image2d_max_width = device_value<std::size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    c.image2d_max_height = device_value<std::size_t>(device_, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
  }
  c.unified_memory = device_value<cl_bool>(device_, CL_DEVICE_HOST_UNIFIED_MEMORY, CL_FALSE) == CL_TRUE;
  c.architecture = architecture_of(device_, c);
}

std::string ClDevice::backend_prelude() const {
  return "#line 1 \"common/prelude_opencl.cl\"\n" + std::string(kernel_source("common/prelude_opencl.cl"));
}

std::string ClDevice::base_options() const {
  // Kernels are OpenCL C 1.2; 2.0 only where sub-groups need it.
  const bool cl2 = caps_.subgroups && caps_.opencl_c_version.find("OpenCL C 1.") == std::string::npos;
  return cl2 ? "-cl-std=CL2.0" : "-cl-std=CL1.2";
}

}  // namespace optune::detail::cl

namespace optune::detail {
BackendImpl& opencl_backend() {
  static cl::ClBackend backend;
  return backend;
}
}  // namespace optune::detail
