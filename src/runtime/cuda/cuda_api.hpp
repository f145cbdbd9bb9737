// The CUDA driver API and NVRTC, loaded with dlopen at run time so that a
// build with the CUDA back end still runs where neither library exists. The
// function pointers take their types from cuda.h and nvrtc.h; the symbol
// looked up is the one cuda.h maps each name to (cuMemAlloc -> cuMemAlloc_v2).
#pragma once

#include <cuda.h>
#include <nvrtc.h>

#include <string>

#include "optune/error.hpp"

namespace optune::detail::cu {

// Required driver entry points. A name that cuda.h #defines to a versioned
// symbol declares a member of the versioned name, consistently on both sides.
#define OPTUNE_CU_DRIVER_FUNCS(X)                                                                              \
  X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount) X(cuDeviceGet)     \
  X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuDevicePrimaryCtxRetain)                  \
  X(cuDevicePrimaryCtxRelease) X(cuCtxGetCurrent) X(cuCtxPushCurrent) X(cuCtxPopCurrent) X(cuMemAlloc)        \
  X(cuMemFree) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync) X(cuMemsetD8Async)              \
  X(cuMemsetD16Async) X(cuMemsetD32Async) X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize)         \
  X(cuStreamWaitEvent) X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize)              \
  X(cuEventQuery) X(cuEventElapsedTime) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)          \
  X(cuLaunchKernel) X(cuFuncSetAttribute) X(cuPointerGetAttribute) X(cuMemHostRegister) X(cuMemHostUnregister)

#define OPTUNE_NVRTC_FUNCS(X)                                                                                  \
  X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcDestroyProgram) X(nvrtcCompileProgram) \
  X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetPTXSize) X(nvrtcGetPTX) X(nvrtcGetCUBINSize)      \
  X(nvrtcGetCUBIN)

#define OPTUNE_CU_MEMBER(f) decltype(&::f) f = nullptr;

struct DriverApi {
  OPTUNE_CU_DRIVER_FUNCS(OPTUNE_CU_MEMBER)
  // Optional, for argument checks: the count of a kernel's parameters (newer
  // than the cuda.h this may be built with, so declared here) and each one's
  // size (driver 12.4+). Never probed past the count: an out-of-range index
  // is an API error that compute-sanitizer reports in the user's program.
  using FuncGetParamCount = CUresult (*)(CUfunction, std::size_t*);
  FuncGetParamCount cuFuncGetParamCount = nullptr;
  decltype(&::cuFuncGetParamInfo) cuFuncGetParamInfo = nullptr;
  // Optional (driver 12.0+): tensor maps for the Hopper copy engine (TMA).
  decltype(&::cuTensorMapEncodeTiled) cuTensorMapEncodeTiled = nullptr;
  int version = 0;                                                // cuDriverGetVersion, e.g. 13000
};

struct NvrtcApi {
  OPTUNE_NVRTC_FUNCS(OPTUNE_CU_MEMBER)
  // Optional (NVRTC 11.2+): which sm_XY this NVRTC can compile to.
  decltype(&::nvrtcGetNumSupportedArchs) nvrtcGetNumSupportedArchs = nullptr;
  decltype(&::nvrtcGetSupportedArchs) nvrtcGetSupportedArchs = nullptr;
  int major = 0, minor = 0;
  std::string path;  // the library that was loaded
};

#undef OPTUNE_CU_MEMBER

// Loads libcuda.so.1 and runs cuInit once; nullptr with *reason when either
// fails ("libcuda.so.1 not found (no NVIDIA driver): ...").
const DriverApi* load_driver(std::string* reason);
// The loaded driver; only valid after load_driver succeeded (every object
// that calls it was made from a device, which required that).
const DriverApi& api();
// Loads NVRTC once; nullptr with *reason when no library is found.
const NvrtcApi* load_nvrtc(std::string* reason);
// The CUDA include folder NVRTC needs for cuda_fp16.h; "" when none is found.
const std::string& include_dir();

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
std::string error_name(CUresult r);
Status status_of(CUresult r);
[[noreturn]] void throw_error(CUresult r, const std::string& what);
inline void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) throw_error(r, what);
}
inline void check(CUresult r, const std::string& what) {
  if (r != CUDA_SUCCESS) throw_error(r, what);
}

}  // namespace optune::detail::cu
