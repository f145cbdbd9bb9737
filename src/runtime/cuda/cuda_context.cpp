// CUDA contexts, memory and programs.
#include "runtime/cuda/cuda_objects.hpp"
#include "runtime/cuda/cubin_params.hpp"
#include "runtime/log.hpp"
#include "runtime/program.hpp"

namespace optune::detail::cu {

// ---- primary context ----

PrimaryContext::PrimaryContext(CUdevice dev) : dev_(dev) {
  check(api().cuDevicePrimaryCtxRetain(&ctx_, dev), "cuDevicePrimaryCtxRetain");
}

// Errors are ignored here and in the other destructors: at process exit the
// driver may already be shutting down (CUDA_ERROR_DEINITIALIZED).
PrimaryContext::~PrimaryContext() { api().cuDevicePrimaryCtxRelease(dev_); }

Scope::Scope(const PrimaryContext& pc, bool quiet) {
  const DriverApi& a = api();
  CUcontext current = nullptr;
  a.cuCtxGetCurrent(&current);
  if (current == pc.get()) return;
  const CUresult r = a.cuCtxPushCurrent(pc.get());
  pushed_ = r == CUDA_SUCCESS;
  if (!quiet) check(r, "cuCtxPushCurrent");
}

Scope::~Scope() {
  if (pushed_) {
    CUcontext popped = nullptr;
    api().cuCtxPopCurrent(&popped);
  }
}

// ---- memory ----

CuMem::~CuMem() {
  if (!owned_) return;
  Scope scope(*pc_, true);
  api().cuMemFree(ptr_);
}

// ---- programs and kernels ----

Module::~Module() {
  Scope scope(*pc, true);
  api().cuModuleUnload(module);
}

CuKernel::CuKernel(std::string name, std::shared_ptr<Module> module, CUfunction f,
                   std::optional<std::size_t> param_count)
    : name_(std::move(name)), module_(std::move(module)), function_(f) {
  const DriverApi& a = api();
  std::size_t count = 0;
  if (!a.cuFuncGetParamInfo) return;
  const bool from_driver = a.cuFuncGetParamCount && a.cuFuncGetParamCount(function_, &count) == CUDA_SUCCESS;
  if (!from_driver && !param_count) return;  // checked per launch instead, as far as the arguments go
  if (!from_driver) count = *param_count;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t offset = 0, size = 0;
    if (a.cuFuncGetParamInfo(function_, i, &offset, &size) != CUDA_SUCCESS) {
      param_sizes_.clear();
      return;
    }
    param_sizes_.push_back(size);
  }
  params_known_ = true;
}

void CuKernel::allow_shared(std::size_t bytes) {
  std::size_t allowed = shared_allowed_.load(std::memory_order_relaxed);
  if (bytes <= allowed) return;
  check(api().cuFuncSetAttribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes)),
        "cuFuncSetAttribute(" + name_ + ", max dynamic shared memory " + std::to_string(bytes) + ")");
  while (bytes > allowed && !shared_allowed_.compare_exchange_weak(allowed, bytes)) {
  }
}

void CuKernel::check_args(const std::vector<KernelArg>& args) const {
  auto given = [&](std::size_t i) {
    return args[i].kind == KernelArg::Kind::Scalar ? args[i].size : sizeof(CUdeviceptr);
  };
  auto mismatch = [&](std::size_t i, std::size_t want) {
    throw Error(Status::InvalidArgument, "kernel " + name_ + ": argument " + std::to_string(i) + " is " +
                                             std::to_string(given(i)) + " bytes, the parameter " +
                                             std::to_string(want));
  };
  if (params_known_) {
    if (args.size() != param_sizes_.size())
      throw Error(Status::InvalidArgument, "kernel " + name_ + " takes " + std::to_string(param_sizes_.size()) +
                                               " arguments, " + std::to_string(args.size()) + " given");
    for (std::size_t i = 0; i < args.size(); ++i)
      if (given(i) != param_sizes_[i]) mismatch(i, param_sizes_[i]);
    return;
  }
  const DriverApi& a = api();
  if (!a.cuFuncGetParamInfo) return;
  std::lock_guard lock(prefix_mutex_);
  while (prefix_sizes_.size() < args.size()) {
    std::size_t offset = 0, size = 0;
    if (a.cuFuncGetParamInfo(function_, prefix_sizes_.size(), &offset, &size) != CUDA_SUCCESS)
      throw Error(Status::InvalidArgument, "kernel " + name_ + " takes " + std::to_string(prefix_sizes_.size()) +
                                               " arguments, " + std::to_string(args.size()) + " given");
    prefix_sizes_.push_back(size);
  }
  for (std::size_t i = 0; i < args.size(); ++i)
    if (given(i) != prefix_sizes_[i]) mismatch(i, prefix_sizes_[i]);
}

KernelPtr CuProgram::kernel(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = kernels_.find(name);
  if (it != kernels_.end()) return it->second;
  if (module_has_kernel(binary_, name) == false) throw Error(Status::NotFound, "program has no kernel '" + name + "'");
  Scope scope(*module_->pc);
  CUfunction f = nullptr;
  const CUresult r = api().cuModuleGetFunction(&f, module_->module, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) throw Error(Status::NotFound, "program has no kernel '" + name + "'");
  check(r, "cuModuleGetFunction(" + name + ")");
  auto k = std::make_shared<CuKernel>(name, module_, f, cubin_param_count(binary_, name));
  kernels_[name] = k;
  return k;
}

// ---- context ----

namespace {

// cuModuleLoadData takes a cubin or NUL-terminated PTX (JIT-compiled then).
CUresult load_module(const PrimaryPtr& pc, const std::vector<std::uint8_t>& binary, std::shared_ptr<Module>* out) {
  if (binary.empty()) return CUDA_ERROR_INVALID_IMAGE;
  Scope scope(*pc);
  CUmodule m = nullptr;
  const CUresult r = api().cuModuleLoadData(&m, binary.data());
  if (r != CUDA_SUCCESS) return r;
  auto module = std::make_shared<Module>();
  module->pc = pc;
  module->module = m;
  *out = std::move(module);
  return CUDA_SUCCESS;
}

// Words of 8 bytes from a pattern of one or two words; pattern sizes that
// the driver's memsets cannot express.
const char* kFillSource = R"(
__kernel void optune_fill_words(const ulong n, __global ulong* restrict p, const ulong w0, const ulong w1,
                                const uint period) {
  for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) p[i] = (i & (period - 1)) ? w1 : w0;
}
)";

}  // namespace

CuContext::CuContext(std::shared_ptr<CuDevice> device)
    : ContextImpl(device), cu_device_(device), pc_(std::make_shared<PrimaryContext>(device->handle())) {}

std::shared_ptr<MemImpl> CuContext::alloc(std::size_t bytes) {
  Scope scope(*pc_);
  // More than the device has is refused here, not by a failing driver call.
  if (bytes >= cu_device_->caps().global_mem_bytes)
    throw Error(Status::OutOfResources, "cuMemAlloc(" + std::to_string(bytes) + " bytes) on " +
                                            cu_device_->caps().name + ": more than the device's " +
                                            std::to_string(cu_device_->caps().global_mem_bytes) + " bytes");
  // Requests are rounded up to 256 bytes: kernels read aligned 16-byte
  // chunks (cp.async with zero fill, vector loads) whose valid part may end
  // before the chunk does, and the rounding keeps the whole chunk inside
  // what compute-sanitizer knows as the allocation. Sizes seen by optune
  // stay the ones asked for.
  CUdeviceptr ptr = 0;
  const CUresult r = api().cuMemAlloc(&ptr, (bytes + 255) / 256 * 256);
  if (r != CUDA_SUCCESS)
    throw Error(r == CUDA_ERROR_OUT_OF_MEMORY ? Status::OutOfResources : Status::DeviceError,
                "cuMemAlloc(" + std::to_string(bytes) + " bytes) on " + cu_device_->caps().name + ": " +
                    error_name(r));
  return std::make_shared<CuMem>(this, bytes, pc_, ptr);
}

std::shared_ptr<MemImpl> CuContext::adopt(const interop::NativeBuffer& native, std::size_t bytes) {
  const auto ptr = CUdeviceptr(native.device_pointer);
  if (!ptr) throw Error(Status::InvalidArgument, "interop::adopt: device_pointer is null");
  Scope scope(*pc_);
  // The address must be device memory of this device, reachable from its
  // primary context (memory of torch, CuPy and JAX is).
  CUcontext owner = nullptr;
  CUresult r = api().cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, ptr);
  unsigned type = 0;
  if (r == CUDA_SUCCESS) r = api().cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr);
  if (r != CUDA_SUCCESS)
    throw Error(Status::InvalidArgument, "interop::adopt: the address is not CUDA memory (" + error_name(r) + ")");
  int ordinal = -1;
  r = api().cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr);
  if (r == CUDA_SUCCESS && ordinal != cu_device_->ordinal())
    throw Error(Status::InvalidArgument, "interop::adopt: the memory is on cuda:" + std::to_string(ordinal) +
                                             ", not on " + cu_device_->caps().spec);
  if (type == CU_MEMORYTYPE_HOST)
    throw Error(Status::InvalidArgument, "interop::adopt: the address is pinned host memory, not device memory");
  return std::make_shared<CuMem>(this, bytes, pc_, ptr, false);
}

std::shared_ptr<MemImpl> CuContext::adopt_host(void*, std::size_t) {
  throw Error(Status::Unsupported, "interop::adopt_host: host memory is not adopted on the CUDA back end (copy it)");
}

std::shared_ptr<void> CuContext::pin_host(void* data, std::size_t bytes) {
  if (!data || bytes == 0) return nullptr;
  constexpr std::uintptr_t kPage = 4096;
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(data) & ~(kPage - 1);
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes + kPage - 1) & ~(kPage - 1);
  void* start = reinterpret_cast<void*>(first);
  Scope scope(*pc_);
  if (api().cuMemHostRegister(start, end - first, 0) != CUDA_SUCCESS) return nullptr;
  PrimaryPtr pc = pc_;
  return std::shared_ptr<void>(start, [pc](void* p) {
    Scope s(*pc);
    api().cuMemHostUnregister(p);  // nothing to do if it fails: the pages stay locked until exit
  });
}

std::shared_ptr<ImageImpl> CuContext::create_image(std::size_t, std::size_t, ChannelType) {
  throw Error(Status::Unsupported, "images are not supported on the CUDA back end");
}

QueuePtr CuContext::create_queue() { return std::make_shared<CuQueue>(*this); }

ProgramPtr CuContext::build(const std::string& source, const std::string& options) {
  NvrtcOutput out = nvrtc_build(source, options);
  const std::string& name = cu_device_->caps().name;
  if (!out.ok)
    throw Error(Status::BuildFailure, "kernel build failed on " + name + " (NVRTC, " +
                                          (out.arch.empty() ? cu_device_->caps().architecture : out.arch) +
                                          ", options:" + options + "):\n" + out.log);
  if (!out.log.empty() && log_enabled(LogLevel::Debug)) log_debug("NVRTC log:\n" + out.log);
  std::shared_ptr<Module> module;
  if (CUresult r = load_module(pc_, out.binary, &module); r != CUDA_SUCCESS)
    throw Error(r == CUDA_ERROR_OUT_OF_MEMORY ? Status::OutOfResources : Status::BuildFailure,
                "the driver rejected the " + out.arch + " code NVRTC made for " + name + ": " + error_name(r));
  return std::make_shared<CuProgram>(std::move(module), std::move(out.binary));
}

ProgramPtr CuContext::load_binary(const std::vector<std::uint8_t>& binary, const std::string&) {
  // Bytes that cannot be a module never reach the driver (its refusal would
  // be an API error that compute-sanitizer reports).
  if (!looks_like_module(binary)) return nullptr;
  std::shared_ptr<Module> module;
  if (load_module(pc_, binary, &module) != CUDA_SUCCESS) return nullptr;
  return std::make_shared<CuProgram>(std::move(module), binary);
}

CuKernel& CuContext::fill_kernel() {
  std::lock_guard lock(fill_mutex_);
  if (!fill_kernel_) {
    ProgramPtr p = get_program_from_text(*this, "cuda/fill_words", kFillSource, {});
    fill_kernel_ = p->kernel("optune_fill_words");
  }
  return static_cast<CuKernel&>(*fill_kernel_);
}

}  // namespace optune::detail::cu
