#include <algorithm>
#include <cctype>
#include "runtime/opencl/cl_util.hpp"

#include <string>

namespace optune::detail::cl {

const char* error_name(cl_int code) {
  switch (code) {
#define OPTUNE_CL_ERR(x) \
  case x: return #x;
    OPTUNE_CL_ERR(CL_SUCCESS)
    OPTUNE_CL_ERR(CL_DEVICE_NOT_FOUND)
    OPTUNE_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
    OPTUNE_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    OPTUNE_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    OPTUNE_CL_ERR(CL_OUT_OF_RESOURCES)
    OPTUNE_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    OPTUNE_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    OPTUNE_CL_ERR(CL_MEM_COPY_OVERLAP)
    OPTUNE_CL_ERR(CL_IMAGE_FORMAT_MISMATCH)
    OPTUNE_CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    OPTUNE_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
    OPTUNE_CL_ERR(CL_MAP_FAILURE)
    OPTUNE_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    OPTUNE_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    OPTUNE_CL_ERR(CL_COMPILE_PROGRAM_FAILURE)
    OPTUNE_CL_ERR(CL_LINKER_NOT_AVAILABLE)
    OPTUNE_CL_ERR(CL_LINK_PROGRAM_FAILURE)
    OPTUNE_CL_ERR(CL_INVALID_VALUE)
    OPTUNE_CL_ERR(CL_INVALID_DEVICE_TYPE)
    OPTUNE_CL_ERR(CL_INVALID_PLATFORM)
    OPTUNE_CL_ERR(CL_INVALID_DEVICE)
    OPTUNE_CL_ERR(CL_INVALID_CONTEXT)
    OPTUNE_CL_ERR(CL_INVALID_QUEUE_PROPERTIES)
    OPTUNE_CL_ERR(CL_INVALID_COMMAND_QUEUE)
    OPTUNE_CL_ERR(CL_INVALID_HOST_PTR)
    OPTUNE_CL_ERR(CL_INVALID_MEM_OBJECT)
    OPTUNE_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    OPTUNE_CL_ERR(CL_INVALID_IMAGE_SIZE)
    OPTUNE_CL_ERR(CL_INVALID_SAMPLER)
    OPTUNE_CL_ERR(CL_INVALID_BINARY)
    OPTUNE_CL_ERR(CL_INVALID_BUILD_OPTIONS)
    OPTUNE_CL_ERR(CL_INVALID_PROGRAM)
    OPTUNE_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    OPTUNE_CL_ERR(CL_INVALID_KERNEL_NAME)
    OPTUNE_CL_ERR(CL_INVALID_KERNEL_DEFINITION)
    OPTUNE_CL_ERR(CL_INVALID_KERNEL)
    OPTUNE_CL_ERR(CL_INVALID_ARG_INDEX)
    OPTUNE_CL_ERR(CL_INVALID_ARG_VALUE)
    OPTUNE_CL_ERR(CL_INVALID_ARG_SIZE)
    OPTUNE_CL_ERR(CL_INVALID_KERNEL_ARGS)
    OPTUNE_CL_ERR(CL_INVALID_WORK_DIMENSION)
    OPTUNE_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
    OPTUNE_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
    OPTUNE_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
    OPTUNE_CL_ERR(CL_INVALID_EVENT_WAIT_LIST)
    OPTUNE_CL_ERR(CL_INVALID_EVENT)
    OPTUNE_CL_ERR(CL_INVALID_OPERATION)
    OPTUNE_CL_ERR(CL_INVALID_BUFFER_SIZE)
    OPTUNE_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
    OPTUNE_CL_ERR(CL_INVALID_PROPERTY)
#undef OPTUNE_CL_ERR
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "CL_UNKNOWN_ERROR";
  }
}

void check(cl_int code, const char* what) {
  if (code == CL_SUCCESS) return;
  const Status s = (code == CL_OUT_OF_RESOURCES || code == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
                    code == CL_OUT_OF_HOST_MEMORY || code == CL_INVALID_WORK_GROUP_SIZE)
                       ? Status::OutOfResources
                       : Status::DeviceError;
  throw Error(s, std::string(what) + " failed: " + error_name(code) + " (" + std::to_string(code) + ")");
}

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetDeviceInfo(d, what, n, s.data(), nullptr) != CL_SUCCESS) return {};
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  std::size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetPlatformInfo(p, what, n, s.data(), nullptr) != CL_SUCCESS) return {};
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

namespace {
std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}
}  // namespace

// Mali GPUs share tuning by generation, not by model: the shader core's
// width, register file and caches change between generations.
std::string mali_generation(const std::string& model) {  // "g78", "t880"
  if (model.empty()) return "";
  if (model[0] == 't') return "midgard";
  int num = 0;
  for (char ch : model.substr(1))
    if (std::isdigit((unsigned char)ch)) num = num * 10 + (ch - '0');
    else break;
  // Bifrost: G31, G51, G52, G71, G72, G76. Valhall: G57, G68, G77, G78 and the
  // three-digit G310..G715 (G615, G715 included). 5th generation: G620, G720,
  // G925 and later.
  static const int bifrost[] = {31, 51, 52, 71, 72, 76};
  for (int b : bifrost)
    if (num == b) return "bifrost";
  if (num < 100) return "valhall";
  if (num >= 720 || num == 620 || num >= 900) return "5th-gen";
  return "valhall";
}

std::string architecture_key(const std::string& vendor, const std::string& name, const std::string& platform,
                             int nv_major, int nv_minor) {
  const std::string v = lowercase(vendor), n = lowercase(name);
  if (v.find("nvidia") != std::string::npos && nv_major)
    return "sm_" + std::to_string(nv_major) + std::to_string(nv_minor);
  if (auto p = n.find("adreno"); p != std::string::npos) {
    auto digit = std::find_if(n.begin() + long(p), n.end(), [](char ch) { return std::isdigit((unsigned char)ch); });
    if (digit != n.end()) return std::string("adreno-") + *digit + "xx";
  }
  if (auto p = n.find("mali-"); p != std::string::npos) {
    std::string model = n.substr(p + 5);
    model = model.substr(0, model.find_first_of(" ,("));
    const std::string gen = mali_generation(model);
    return gen.empty() ? "mali-" + model : "mali-" + gen;
  }
  if (platform.find("Portable Computing Language") != std::string::npos) {
    // "pthread-skylake-avx512-AMD EPYC..." -> "pocl-skylake-avx512"
    std::string s = name.substr(0, name.find(' '));
    if (auto dash = s.rfind('-'); dash != std::string::npos && dash > 0) s = s.substr(0, dash);
    if (s.rfind("pthread-", 0) == 0) s = s.substr(8);
    return "pocl-" + lowercase(s);
  }
  return n;
}

}  // namespace optune::detail::cl
