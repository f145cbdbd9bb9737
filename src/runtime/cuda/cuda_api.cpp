// Loading libcuda.so.1 and NVRTC at run time.
#include "runtime/cuda/cuda_api.hpp"

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include "runtime/log.hpp"

#ifndef OPTUNE_NVRTC_MAJOR
#define OPTUNE_NVRTC_MAJOR 13
#endif
#ifndef OPTUNE_CUDA_LIBRARY_DIR
#define OPTUNE_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

// Two levels so that the argument is macro-expanded first: the versioned name.
#define OPTUNE_CU_STR_(x) #x
#define OPTUNE_CU_STR(x) OPTUNE_CU_STR_(x)

namespace optune::detail::cu {

namespace {

namespace fs = std::filesystem;

// Never dlclose'd: objects destroyed at exit may still call into them.
void* open_library(const std::string& name, std::string* error) {
  void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h && error) {
    const char* e = dlerror();
    *error = e ? e : ("cannot open " + name);
  }
  return h;
}

template <class F>
bool resolve(void* lib, const char* symbol, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, symbol));
  return out != nullptr;
}

struct DriverState {
  DriverApi api;
  bool ok = false;
  std::string reason;
};

DriverState& driver_state() {
  static DriverState state;
  static std::once_flag once;
  std::call_once(once, [] {
    DriverState& s = state;
    std::string error;
    // libcuda.so.1 only: the toolkit's stubs/libcuda.so must never be used.
    void* lib = open_library("libcuda.so.1", &error);
    if (!lib) {
      s.reason = "libcuda.so.1 not found (no NVIDIA driver): " + error;
      return;
    }
    DriverApi& a = s.api;
    std::vector<std::string> missing;
#define OPTUNE_CU_RESOLVE(f) \
  if (!resolve(lib, OPTUNE_CU_STR(f), a.f)) missing.push_back(OPTUNE_CU_STR(f));
    OPTUNE_CU_DRIVER_FUNCS(OPTUNE_CU_RESOLVE)
#undef OPTUNE_CU_RESOLVE
    // cuEventElapsedTime_v2 came with driver 12.8; the first version has the
    // same signature and differs only for events recorded without timing.
    if (!a.cuEventElapsedTime && resolve(lib, "cuEventElapsedTime", a.cuEventElapsedTime))
      std::erase(missing, std::string(OPTUNE_CU_STR(cuEventElapsedTime)));
    resolve(lib, "cuFuncGetParamInfo", a.cuFuncGetParamInfo);
    resolve(lib, "cuFuncGetParamCount", a.cuFuncGetParamCount);
    resolve(lib, "cuTensorMapEncodeTiled", a.cuTensorMapEncodeTiled);
    if (!missing.empty()) {
      std::string list;
      for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
      s.reason = "libcuda.so.1 is too old for this build (missing " + list + ")";
      return;
    }
    if (CUresult r = a.cuInit(0); r != CUDA_SUCCESS) {
      s.reason = "cuInit failed: " + error_name(r);
      return;
    }
    a.cuDriverGetVersion(&a.version);
    s.ok = true;
  });
  return state;
}

struct NvrtcState {
  NvrtcApi api;
  bool ok = false;
  std::string reason;
};

NvrtcState& nvrtc_state() {
  static NvrtcState state;
  static std::once_flag once;
  std::call_once(once, [] {
    NvrtcState& s = state;
    const std::string so = "libnvrtc.so." + std::to_string(OPTUNE_NVRTC_MAJOR);
    std::vector<std::string> candidates = {so, "libnvrtc.so", std::string(OPTUNE_CUDA_LIBRARY_DIR) + "/" + so,
                                           std::string(OPTUNE_CUDA_LIBRARY_DIR) + "/libnvrtc.so"};
    const std::string cuda_path = env_or("CUDA_PATH", "");
    if (!cuda_path.empty()) candidates.push_back(cuda_path + "/lib64/" + so);
    candidates.push_back("/usr/local/cuda/lib64/" + so);
    void* lib = nullptr;
    std::string errors;
    for (const std::string& name : candidates) {
      std::string error;
      if ((lib = open_library(name, &error))) {
        s.api.path = name;
        break;
      }
      errors += "\n  " + error;
    }
    if (!lib) {
      s.reason = "NVRTC not found:" + errors;
      return;
    }
    NvrtcApi& a = s.api;
    std::string missing;
#define OPTUNE_NVRTC_RESOLVE(f) \
  if (!resolve(lib, #f, a.f)) missing += std::string(missing.empty() ? "" : ", ") + #f;
    OPTUNE_NVRTC_FUNCS(OPTUNE_NVRTC_RESOLVE)
#undef OPTUNE_NVRTC_RESOLVE
    if (!missing.empty()) {
      s.reason = s.api.path + " lacks " + missing;
      return;
    }
    resolve(lib, "nvrtcGetNumSupportedArchs", a.nvrtcGetNumSupportedArchs);
    resolve(lib, "nvrtcGetSupportedArchs", a.nvrtcGetSupportedArchs);
    a.nvrtcVersion(&a.major, &a.minor);
    s.ok = true;
  });
  return state;
}

bool has_fp16_header(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::exists(dir / "cuda_fp16.h", ec);
}

}  // namespace

const DriverApi* load_driver(std::string* reason) {
  DriverState& s = driver_state();
  if (!s.ok && reason) *reason = s.reason;
  return s.ok ? &s.api : nullptr;
}

const DriverApi& api() {
  DriverState& s = driver_state();
  if (!s.ok) throw Error(Status::BackendUnavailable, "CUDA driver unavailable: " + s.reason);
  return s.api;
}

const NvrtcApi* load_nvrtc(std::string* reason) {
  NvrtcState& s = nvrtc_state();
  if (!s.ok && reason) *reason = s.reason;
  return s.ok ? &s.api : nullptr;
}

const std::string& include_dir() {
  static const std::string dir = [] {
    std::vector<fs::path> candidates;
    for (const char* var : {"OPTUNE_CUDA_INCLUDE_DIR", "CUDA_PATH", "CUDA_HOME"}) {
      const std::string v = env_or(var, "");
      if (v.empty()) continue;
      candidates.emplace_back(v);
      candidates.push_back(fs::path(v) / "include");
    }
    // Beside the NVRTC that was loaded: lib64/../include, and the
    // targets/<arch>/lib/../include layout of the toolkit.
    if (const NvrtcApi* n = load_nvrtc(nullptr)) {
      Dl_info info{};
      if (dladdr(reinterpret_cast<void*>(n->nvrtcVersion), &info) && info.dli_fname) {
        std::error_code ec;
        const fs::path lib = fs::weakly_canonical(info.dli_fname, ec).parent_path();
        candidates.push_back(lib.parent_path() / "include");
      }
    }
    candidates.push_back(fs::path(OPTUNE_CUDA_LIBRARY_DIR).parent_path() / "include");
    candidates.emplace_back("/usr/local/cuda/include");
    for (const fs::path& c : candidates)
      if (has_fp16_header(c)) return c.string();
    return std::string();
  }();
  return dir;
}

std::string error_name(CUresult r) {
  const DriverState& s = driver_state();
  const char* name = nullptr;
  const char* text = nullptr;
  // Both work before cuInit; the driver may be absent altogether.
  if (s.api.cuGetErrorName) s.api.cuGetErrorName(r, &name);
  if (s.api.cuGetErrorString) s.api.cuGetErrorString(r, &text);
  std::string out = name ? name : "CUresult " + std::to_string(int(r));
  if (text) out += std::string(" (") + text + ")";
  return out;
}

Status status_of(CUresult r) {
  switch (r) {
    case CUDA_ERROR_OUT_OF_MEMORY:
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return Status::OutOfResources;
    case CUDA_ERROR_NOT_FOUND: return Status::NotFound;
    case CUDA_ERROR_NOT_SUPPORTED: return Status::Unsupported;
    default: return Status::DeviceError;
  }
}

void throw_error(CUresult r, const std::string& what) { throw Error(status_of(r), what + ": " + error_name(r)); }

}  // namespace optune::detail::cu
