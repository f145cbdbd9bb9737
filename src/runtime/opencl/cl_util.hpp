// Thin RAII over the OpenCL C API, and error translation to optune::Error.
#pragma once

#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  // clCreateCommandQueue for 1.x drivers
#endif
#include <CL/cl.h>

#include <string>
#include <utility>
#include <vector>

#include "optune/error.hpp"

namespace optune::detail::cl {

const char* error_name(cl_int code);
// Throws optune::Error for code != CL_SUCCESS: OutOfResources for the
// resource errors, DeviceError for the rest; the message names what failed.
void check(cl_int code, const char* what);

// Owns one reference of a cl_* object.
template <class H, cl_int (*Retain)(H), cl_int (*Release)(H)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(H h) : h_(h) {}  // takes ownership
  Handle(const Handle& o) : h_(o.h_) {
    if (h_) Retain(h_);
  }
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  ~Handle() {
    if (h_) Release(h_);
  }
  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  H h_ = nullptr;
};

using ContextHandle = Handle<cl_context, clRetainContext, clReleaseContext>;
using QueueHandle = Handle<cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue>;
using MemHandle = Handle<cl_mem, clRetainMemObject, clReleaseMemObject>;
using ProgramHandle = Handle<cl_program, clRetainProgram, clReleaseProgram>;
using KernelHandle = Handle<cl_kernel, clRetainKernel, clReleaseKernel>;
using EventHandle = Handle<cl_event, clRetainEvent, clReleaseEvent>;

std::string device_string(cl_device_id d, cl_device_info what);
std::string platform_string(cl_platform_id p, cl_platform_info what);

template <class T>
T device_value(cl_device_id d, cl_device_info what, T fallback = T()) {
  T v{};
  if (clGetDeviceInfo(d, what, sizeof(T), &v, nullptr) != CL_SUCCESS) return fallback;
  return v;
}

// The database's architecture-family key of an OpenCL device (Capabilities::
// architecture): "sm_90" (NVIDIA, from the compute capability), "adreno-7xx",
// "mali-valhall" (Mali by generation: midgard, bifrost, valhall, 5th-gen),
// "pocl-skylake-avx512", else the lower-case device name.
std::string architecture_key(const std::string& vendor, const std::string& name, const std::string& platform,
                             int nv_major, int nv_minor);
// "midgard", "bifrost", "valhall" or "5th-gen" for a lower-case Mali model
// without its "mali-" prefix ("g78", "t880", "g715").
std::string mali_generation(const std::string& model);

}  // namespace optune::detail::cl
