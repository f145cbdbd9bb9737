// OpenCL contexts, memory, queues, events and programs.
#include <chrono>
#include <thread>

#include "runtime/log.hpp"
#include "runtime/opencl/cl_objects.hpp"

namespace optune::detail::cl {

namespace {

const ClMem& as_mem(const MemImpl& m) { return static_cast<const ClMem&>(m); }
const ClImage& as_image(const ImageImpl& m) { return static_cast<const ClImage&>(m); }

cl_image_format image_format(ChannelType t) {
  cl_image_format f;
  f.image_channel_order = CL_RGBA;
  f.image_channel_data_type = t == ChannelType::Float ? CL_FLOAT : t == ChannelType::Half ? CL_HALF_FLOAT : CL_UNORM_INT8;
  return f;
}

std::string build_log(cl_program p, cl_device_id d) {
  std::size_t n = 0;
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  if (n) clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

// ---- events ----

void ClEvent::wait() {
  cl_event e = event_.get();
  check(clWaitForEvents(1, &e), "clWaitForEvents");
}

bool ClEvent::complete() {
  cl_int status = 0;
  check(clGetEventInfo(event_.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
        "clGetEventInfo");
  if (status < 0) check(status, "command");
  return status == CL_COMPLETE;
}

EventTimes ClEvent::times() {
  wait();
  EventTimes t;
  auto get = [&](cl_profiling_info what, std::uint64_t& out) {
    cl_ulong v = 0;
    check(clGetEventProfilingInfo(event_.get(), what, sizeof v, &v, nullptr), "clGetEventProfilingInfo");
    out = v;
  };
  get(CL_PROFILING_COMMAND_QUEUED, t.queued);
  get(CL_PROFILING_COMMAND_SUBMIT, t.submit);
  get(CL_PROFILING_COMMAND_START, t.start);
  get(CL_PROFILING_COMMAND_END, t.end);
  return t;
}

// ---- programs ----

KernelPtr ClProgram::kernel(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = kernels_.find(name);
  if (it != kernels_.end()) return it->second;
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program_.get(), name.c_str(), &err);
  if (err == CL_INVALID_KERNEL_NAME) throw Error(Status::NotFound, "program has no kernel '" + name + "'");
  check(err, ("clCreateKernel(" + name + ")").c_str());
  auto kp = std::make_shared<ClKernel>(name, k);
  kernels_[name] = kp;
  return kp;
}

std::vector<std::uint8_t> ClProgram::binary() {
  std::size_t size = 0;
  if (clGetProgramInfo(program_.get(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS || !size)
    return {};
  std::vector<std::uint8_t> bin(size);
  unsigned char* ptr = bin.data();
  if (clGetProgramInfo(program_.get(), CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) != CL_SUCCESS) return {};
  return bin;
}

// ---- context ----

ContextPtr ClDevice::create_context() {
  return std::make_shared<ClContext>(std::static_pointer_cast<ClDevice>(shared_from_this()));
}

ClContext::ClContext(std::shared_ptr<ClDevice> device) : ContextImpl(device), device_id_(device->id()) {
  cl_int err = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device->platform()),
                                   0};
  cl_context c = clCreateContext(props, 1, &device_id_, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  context_ = ContextHandle(c);
}

std::shared_ptr<MemImpl> ClContext::alloc(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_.get(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, ("clCreateBuffer(" + std::to_string(bytes) + " bytes)").c_str());
  return std::make_shared<ClMem>(this, bytes, m);
}

std::shared_ptr<ImageImpl> ClContext::create_image(std::size_t width, std::size_t height, ChannelType type) {
  cl_image_format fmt = image_format(type);
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateImage(context_.get(), CL_MEM_READ_WRITE, &fmt, &desc, nullptr, &err);
  if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED || err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    throw Error(Status::Unsupported, "the device does not support this RGBA image format");
  check(err, "clCreateImage");
  return std::make_shared<ClImage>(this, width, height, type, m);
}

QueuePtr ClContext::create_queue() {
  cl_int err = CL_SUCCESS;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(context_.get(), device_id_, props, &err);
  if (err != CL_SUCCESS) {  // OpenCL 1.x drivers
    q = clCreateCommandQueue(context_.get(), device_id_, CL_QUEUE_PROFILING_ENABLE, &err);
  }
  check(err, "clCreateCommandQueue");
  return std::make_shared<ClQueue>(*this, q);
}

ProgramPtr ClContext::build(const std::string& source, const std::string& options) {
  const char* text = source.c_str();
  const std::size_t len = source.size();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context_.get(), 1, &text, &len, &err);
  check(err, "clCreateProgramWithSource");
  ProgramHandle owner(p);
  err = clBuildProgram(p, 1, &device_id_, options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    const std::string log = build_log(p, device_id_);
    throw Error(Status::BuildFailure, std::string("kernel build failed on ") + device()->caps().name + " (" +
                                          error_name(err) + ", options:" + options + "):\n" + log);
  }
  const std::string log = build_log(p, device_id_);
  if (!log.empty() && log_enabled(LogLevel::Debug)) log_debug("build log:\n" + log);
  clRetainProgram(p);  // owner drops its reference at scope end
  return std::make_shared<ClProgram>(p, device_id_);
}

ProgramPtr ClContext::load_binary(const std::vector<std::uint8_t>& binary, const std::string& options) {
  const unsigned char* data = binary.data();
  const std::size_t size = binary.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program p = clCreateProgramWithBinary(context_.get(), 1, &device_id_, &size, &data, &status, &err);
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    if (p) clReleaseProgram(p);
    return nullptr;
  }
  if (clBuildProgram(p, 1, &device_id_, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    clReleaseProgram(p);
    return nullptr;
  }
  return std::make_shared<ClProgram>(p, device_id_);
}

// ---- queue ----

// Every enqueue of this queue passes its wait list through here first, so an
// event of another OpenCL context is refused before anything is enqueued
// (the driver would answer CL_INVALID_CONTEXT from deep inside the call).
std::vector<cl_event> ClQueue::wait_list(const WaitList& wait) {
  std::vector<cl_event> out;
  for (std::size_t i = 0; i < wait.size(); ++i) {
    const Event& e = wait[i];
    if (!e.valid()) continue;
    auto* ce = dynamic_cast<ClEvent*>(e.impl().get());
    if (ce) {
      cl_context owner = nullptr;
      check(clGetEventInfo(ce->get(), CL_EVENT_CONTEXT, sizeof owner, &owner, nullptr), "clGetEventInfo");
      if (owner != ctx_.get())
        throw Error(Status::InvalidArgument, "wait list: event " + std::to_string(i) +
                                                 " belongs to another context than the queue");
      out.push_back(ce->get());
    } else {
      e.wait();  // an event of another backend: wait on the host
    }
  }
  return out;
}

#define OPTUNE_WAIT_ARGS(list) cl_uint((list).size()), (list).empty() ? nullptr : (list).data()

EventPtr ClQueue::write(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* src,
                        const WaitList& wait) {
  auto wl = wait_list(wait);
  cl_event e = nullptr;
  check(clEnqueueWriteBuffer(queue_.get(), as_mem(dst).get(), CL_FALSE, offset, bytes, src, OPTUNE_WAIT_ARGS(wl), &e),
        "clEnqueueWriteBuffer");
  return std::make_shared<ClEvent>(e);
}

EventPtr ClQueue::read(const MemImpl& src, std::size_t offset, std::size_t bytes, void* dst, const WaitList& wait) {
  auto wl = wait_list(wait);
  cl_event e = nullptr;
  check(clEnqueueReadBuffer(queue_.get(), as_mem(src).get(), CL_FALSE, offset, bytes, dst, OPTUNE_WAIT_ARGS(wl), &e),
        "clEnqueueReadBuffer");
  return std::make_shared<ClEvent>(e);
}

EventPtr ClQueue::copy(const MemImpl& src, std::size_t src_offset, const MemImpl& dst, std::size_t dst_offset,
                       std::size_t bytes, const WaitList& wait) {
  auto wl = wait_list(wait);
  cl_event e = nullptr;
  check(clEnqueueCopyBuffer(queue_.get(), as_mem(src).get(), as_mem(dst).get(), src_offset, dst_offset, bytes,
                            OPTUNE_WAIT_ARGS(wl), &e),
        "clEnqueueCopyBuffer");
  return std::make_shared<ClEvent>(e);
}

EventPtr ClQueue::fill(const MemImpl& dst, std::size_t offset, std::size_t bytes, const void* pattern,
                       std::size_t pattern_size, const WaitList& wait) {
  auto wl = wait_list(wait);
  cl_event e = nullptr;
  check(clEnqueueFillBuffer(queue_.get(), as_mem(dst).get(), pattern, pattern_size, offset, bytes,
                            OPTUNE_WAIT_ARGS(wl), &e),
        "clEnqueueFillBuffer");
  return std::make_shared<ClEvent>(e);
}

EventPtr ClQueue::write_image(const ImageImpl& dst, const void* src, const WaitList& wait) {
  auto wl = wait_list(wait);
  const std::size_t origin[3] = {0, 0, 0}, region[3] = {dst.width(), dst.height(), 1};
  cl_event e = nullptr;
  check(clEnqueueWriteImage(queue_.get(), as_image(dst).get(), CL_FALSE, origin, region, 0, 0, src,
                            OPTUNE_WAIT_ARGS(wl), &e),
        "clEnqueueWriteImage");
  return std::make_shared<ClEvent>(e);
}

EventPtr ClQueue::read_image(const ImageImpl& src, void* dst, const WaitList& wait) {
  auto wl = wait_list(wait);
  const std::size_t origin[3] = {0, 0, 0}, region[3] = {src.width(), src.height(), 1};
  cl_event e = nullptr;
  check(clEnqueueReadImage(queue_.get(), as_image(src).get(), CL_FALSE, origin, region, 0, 0, dst,
                           OPTUNE_WAIT_ARGS(wl), &e),
        "clEnqueueReadImage");
  return std::make_shared<ClEvent>(e);
}

EventPtr ClQueue::launch(KernelImpl& kernel, const std::vector<KernelArg>& args, const Geometry& g,
                         const WaitList& wait) {
  auto& k = static_cast<ClKernel&>(kernel);
  auto wl = wait_list(wait);
  std::lock_guard lock(k.mutex);
  for (cl_uint i = 0; i < args.size(); ++i) {
    const KernelArg& a = args[i];
    cl_int err;
    if (a.kind == KernelArg::Kind::Mem) {
      cl_mem m = as_mem(*a.mem).get();
      err = clSetKernelArg(k.get(), i, sizeof m, &m);
    } else if (a.kind == KernelArg::Kind::Image) {
      cl_mem m = as_image(*a.image).get();
      err = clSetKernelArg(k.get(), i, sizeof m, &m);
    } else {
      err = clSetKernelArg(k.get(), i, a.size, a.value);
    }
    check(err, ("clSetKernelArg(" + k.name() + ", " + std::to_string(i) + ")").c_str());
  }
  cl_event e = nullptr;
  check(clEnqueueNDRangeKernel(queue_.get(), k.get(), g.dims, nullptr, g.global, g.local, OPTUNE_WAIT_ARGS(wl), &e),
        ("clEnqueueNDRangeKernel(" + k.name() + ")").c_str());
  return std::make_shared<ClEvent>(e);
}

void ClQueue::finish() { check(clFinish(queue_.get()), "clFinish"); }

}  // namespace optune::detail::cl
