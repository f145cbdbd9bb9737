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

}  // namespace optune::detail::cl
