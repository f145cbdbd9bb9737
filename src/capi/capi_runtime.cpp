// C API: status and messages, devices, contexts, queues, buffers, events.
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "capi/capi.hpp"
#include "runtime/trace.hpp"

namespace optune::capi {

namespace {
thread_local std::string t_message;
thread_local const char* t_fallback = "";  // when the message itself could not be stored
}  // namespace

void set_error(const char* message) noexcept {
  try {
    t_message = message;
    t_fallback = "";
  } catch (...) {
    t_message.clear();
    t_fallback = "out of host memory (the error message was lost)";
  }
}

void clear_error() noexcept {
  t_message.clear();
  t_fallback = "";
}

optune_status status_of(Status s) noexcept {
  const int v = int(s);
  return v >= 0 && v <= int(Status::Internal) ? optune_status(v) : OPTUNE_INTERNAL;
}

void invalid(const std::string& message) { throw Error(Status::InvalidArgument, message); }

DType need_dtype(optune_dtype t, const char* what) {
  if (int(t) < 0 || int(t) > int(kLastDType))
    throw Error(Status::InvalidType, std::string(what) + ": data type " + std::to_string(int(t)) + " is not known");
  return DType(int(t));
}

const Queue& need_queue(optune_queue q, const char* fn) {
  return need(q, (std::string(fn) + ": queue").c_str()).queue;
}

const optune_buffer_t& need_buffer(optune_buffer b, const char* what) { return need(b, what); }

Operand operand(const optune_tensor* t, const std::string& what) {
  if (!t) invalid(what + " is NULL");
  if (!t->buffer) invalid(what + ".buffer is NULL");
  if (t->ndim > 8)
    throw Error(Status::InvalidShape, what + " has " + std::to_string(t->ndim) + " dimensions (at most 8)");
  if (t->ndim && !t->shape) invalid(what + ".shape is NULL with ndim " + std::to_string(t->ndim));
  const optune_buffer_t& b = *t->buffer;
  if (t->offset > b.count)
    throw Error(Status::BufferTooSmall, what + ": offset " + std::to_string(t->offset) + " lies beyond the buffer's " +
                                            std::to_string(b.count) + " elements");
  Operand o;
  o.mem = b.mem;
  o.offset = b.offset + t->offset;
  o.count = b.count - t->offset;
  o.dtype = b.dtype;
  o.shape.assign(t->shape, t->shape + t->ndim);
  if (t->strides) o.strides.assign(t->strides, t->strides + t->ndim);
  return o;
}

Operand elementwise_operand(const optune_tensor* t, const std::string& what) {
  Operand o = operand(t, what);
  if (o.shape.empty()) {
    o.shape = {1};
    o.strides.clear();  // none were read for rank 0
  }
  return o;
}

std::optional<Operand> optional_operand(const optune_tensor* t, const std::string& what) {
  if (!t) return std::nullopt;
  return operand(t, what);
}

WaitList wait_list(const optune_event* list, std::size_t count, const char* fn) {
  WaitList w;
  if (count && !list) invalid(std::string(fn) + ": wait_list is NULL with wait_count " + std::to_string(count));
  for (std::size_t i = 0; i < count; ++i) {
    if (!list[i]) invalid(std::string(fn) + ": wait_list[" + std::to_string(i) + "] is NULL");
    if (list[i]->event.valid()) w.push_back(list[i]->event);
  }
  return w;
}

OpParams op_params(const optune_op_params* p) {
  OpParams o;
  if (p) o.alpha = p->alpha, o.beta = p->beta;
  return o;
}

EventOut::EventOut(optune_event* out) : out_(out) {
  if (out_) {
    *out_ = nullptr;
    ev_ = std::make_unique<optune_event_t>();
  }
}

void EventOut::set(Event e) {
  if (!out_) return;
  ev_->event = std::move(e);
  *out_ = ev_.release();
}

}  // namespace optune::capi

using namespace optune;
using namespace optune::capi;

namespace {

// One handle per device, made on first use and kept for the process.
optune_device device_handle(const Device& d) {
  static std::mutex mu;
  static auto* handles = new std::map<const detail::DeviceImpl*, optune_device>;
  std::lock_guard lock(mu);
  optune_device& h = (*handles)[d.impl().get()];
  if (!h) h = new optune_device_t{d};
  return h;
}

// Integers must arrive whole and in range; floating types take any double.
template <class T>
T fill_value(double v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return T(float(v));
  } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    return T(typename T::value_type(v), 0);  // (v, 0)
  } else if constexpr (std::is_floating_point_v<T>) {
    return T(v);
  } else {
    if (!(v == std::floor(v)) || v < double(std::numeric_limits<T>::min()) || v > double(std::numeric_limits<T>::max()))
      invalid("optune_buffer_fill: value " + std::to_string(v) + " is not an integer the buffer's type holds");
    return T(v);
  }
}

}  // namespace

extern "C" {

const char* optune_status_name(optune_status status) {
  if (int(status) < 0 || int(status) > int(Status::Internal)) return "unknown status";
  return status_name(Status(int(status)));
}

const char* optune_last_error_message(void) { return *capi::t_fallback ? capi::t_fallback : capi::t_message.c_str(); }

size_t optune_dtype_size(optune_dtype dtype) {
  return int(dtype) >= 0 && int(dtype) <= int(kLastDType) ? dtype_size(DType(int(dtype))) : 0;
}

optune_status optune_flush_trace(void) {
  return guard([] {
    if (!detail::trace::on())
      throw Error(Status::Unsupported, "optune_flush_trace: tracing is off (OPTUNE_TRACE was not set at first use)");
    if (!detail::trace::flush())
      throw Error(Status::IoError, "optune_flush_trace: the trace file could not be written");
  });
}

optune_status optune_device_count(size_t* count) {
  return guard([&] { need(count, "optune_device_count: count") = devices().size(); });
}

optune_status optune_device_get(size_t index, optune_device* device) {
  return guard([&] {
    need(device, "optune_device_get: device") = nullptr;
    const std::vector<Device> all = devices();
    if (index >= all.size())
      invalid("optune_device_get: index " + std::to_string(index) + " is out of range (" +
              std::to_string(all.size()) + " devices)");
    *device = device_handle(all[index]);
  });
}

optune_status optune_device_select(const char* spec, optune_device* device) {
  return guard([&] {
    need(device, "optune_device_select: device") = nullptr;
    if (!spec) invalid("optune_device_select: spec is NULL");
    *device = device_handle(select_device(spec));
  });
}

optune_status optune_device_default(optune_device* device) {
  return guard([&] {
    need(device, "optune_device_default: device") = nullptr;
    *device = device_handle(default_device());
  });
}

optune_status optune_device_get_info(optune_device device, optune_device_info* info) {
  return guard([&] {
    const Capabilities& c = need(device, "optune_device_get_info: device").device.caps();
    optune_device_info& i = need(info, "optune_device_get_info: info");
    i.backend = optune_backend(int(c.backend));
    i.type = optune_device_type(int(c.type));
    i.spec = c.spec.c_str();
    i.name = c.name.c_str();
    i.vendor = c.vendor.c_str();
    i.driver_version = c.driver_version.c_str();
    i.architecture = c.architecture.c_str();
    i.compute_units = c.compute_units;
    i.max_clock_mhz = c.max_clock_mhz;
    i.global_mem_bytes = c.global_mem_bytes;
    i.max_alloc_bytes = c.max_alloc_bytes;
    i.local_mem_bytes = c.local_mem_bytes;
    i.max_work_group_size = c.max_work_group_size;
    i.fp16 = c.fp16;
    i.fp64 = c.fp64;
    i.subgroups = c.subgroups;
    i.images = c.images;
    i.unified_memory = c.unified_memory;
  });
}

optune_status optune_context_create(optune_device device, optune_context* context) {
  return guard([&] {
    need(context, "optune_context_create: context") = nullptr;
    const Device& d = need(device, "optune_context_create: device").device;
    *context = new optune_context_t{Context(d)};
  });
}

optune_status optune_context_release(optune_context context) {
  delete context;
  clear_error();
  return OPTUNE_SUCCESS;
}

optune_status optune_queue_create(optune_context context, optune_queue* queue) {
  return guard([&] {
    need(queue, "optune_queue_create: queue") = nullptr;
    *queue = new optune_queue_t{Queue(need(context, "optune_queue_create: context").context)};
  });
}

optune_status optune_queue_finish(optune_queue queue) {
  return guard([&] { need_queue(queue, "optune_queue_finish").finish(); });
}

optune_status optune_queue_release(optune_queue queue) {
  delete queue;
  clear_error();
  return OPTUNE_SUCCESS;
}

optune_status optune_buffer_alloc(optune_context context, optune_dtype dtype, size_t count, optune_buffer* buffer) {
  return guard([&] {
    need(buffer, "optune_buffer_alloc: buffer") = nullptr;
    const Context& ctx = need(context, "optune_buffer_alloc: context").context;
    const DType t = need_dtype(dtype, "optune_buffer_alloc");
    auto b = std::make_unique<optune_buffer_t>();
    b->context = ctx;
    b->dtype = t;
    b->count = count;
    b->mem = with_dtype(t, [&](auto tag) { return ctx.alloc<decltype(tag)>(count).mem(); });
    *buffer = b.release();
  });
}

optune_status optune_buffer_view(optune_buffer buffer, size_t offset, size_t count, optune_buffer* view) {
  return guard([&] {
    need(view, "optune_buffer_view: view") = nullptr;
    const optune_buffer_t& b = need_buffer(buffer, "optune_buffer_view: buffer");
    if (offset > b.count || count > b.count - offset)
      throw Error(Status::BufferTooSmall, "optune_buffer_view: [" + std::to_string(offset) + ", " +
                                              std::to_string(offset) + " + " + std::to_string(count) +
                                              ") does not fit the buffer's " + std::to_string(b.count) + " elements");
    *view = new optune_buffer_t{b.context, b.mem, b.dtype, b.offset + offset, count};
  });
}

optune_status optune_buffer_get_info(optune_buffer buffer, optune_dtype* dtype, size_t* count, size_t* offset) {
  return guard([&] {
    const optune_buffer_t& b = need_buffer(buffer, "optune_buffer_get_info: buffer");
    if (dtype) *dtype = optune_dtype(int(b.dtype));
    if (count) *count = b.count;
    if (offset) *offset = b.offset;
  });
}

optune_status optune_buffer_release(optune_buffer buffer) {
  delete buffer;
  clear_error();
  return OPTUNE_SUCCESS;
}

optune_status optune_buffer_write(optune_queue queue, optune_buffer dst, const void* src, size_t count,
                                  const optune_event* wait, size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, "optune_buffer_write");
    const optune_buffer_t& b = need_buffer(dst, "optune_buffer_write: dst");
    if (!src) invalid("optune_buffer_write: src is NULL");
    if (count == 0) invalid("optune_buffer_write: count must be positive");
    const WaitList w = wait_list(wait, wait_count, "optune_buffer_write");
    out.set(with_dtype(b.dtype, [&](auto tag) {
      using T = decltype(tag);
      return q.write(typed<T>(b), std::span<const T>(static_cast<const T*>(src), count), w);
    }));
  });
}

optune_status optune_buffer_read(optune_queue queue, optune_buffer src, void* dst, size_t count,
                                 const optune_event* wait, size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, "optune_buffer_read");
    const optune_buffer_t& b = need_buffer(src, "optune_buffer_read: src");
    if (!dst) invalid("optune_buffer_read: dst is NULL");
    if (count == 0) invalid("optune_buffer_read: count must be positive");
    const WaitList w = wait_list(wait, wait_count, "optune_buffer_read");
    out.set(with_dtype(b.dtype, [&](auto tag) {
      using T = decltype(tag);
      return q.read(typed<T>(b), std::span<T>(static_cast<T*>(dst), count), w);
    }));
  });
}

optune_status optune_buffer_copy(optune_queue queue, optune_buffer src, optune_buffer dst,
                                 const optune_event* wait, size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, "optune_buffer_copy");
    const optune_buffer_t& s = need_buffer(src, "optune_buffer_copy: src");
    const optune_buffer_t& d = need_buffer(dst, "optune_buffer_copy: dst");
    if (s.dtype != d.dtype)
      throw Error(Status::InvalidType, "optune_buffer_copy: src is " + std::string(dtype_name(s.dtype)) +
                                           " but dst is " + std::string(dtype_name(d.dtype)));
    const WaitList w = wait_list(wait, wait_count, "optune_buffer_copy");
    out.set(with_dtype(s.dtype, [&](auto tag) {
      using T = decltype(tag);
      return q.copy(typed<T>(s), typed<T>(d), w);
    }));
  });
}

optune_status optune_buffer_fill(optune_queue queue, optune_buffer dst, double value, const optune_event* wait,
                                 size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, "optune_buffer_fill");
    const optune_buffer_t& b = need_buffer(dst, "optune_buffer_fill: dst");
    const WaitList w = wait_list(wait, wait_count, "optune_buffer_fill");
    out.set(with_dtype(b.dtype, [&](auto tag) {
      using T = decltype(tag);
      return q.fill(typed<T>(b), fill_value<T>(value), w);
    }));
  });
}

optune_status optune_event_wait(optune_event event) {
  return guard([&] { need(event, "optune_event_wait: event").event.wait(); });
}

optune_status optune_event_complete(optune_event event, int* complete) {
  return guard([&] {
    const Event& e = need(event, "optune_event_complete: event").event;
    need(complete, "optune_event_complete: complete") = e.complete() ? 1 : 0;
  });
}

optune_status optune_event_elapsed(optune_event event, double* seconds) {
  return guard([&] {
    const Event& e = need(event, "optune_event_elapsed: event").event;
    double& s = need(seconds, "optune_event_elapsed: seconds");
    s = e.valid() ? e.seconds() : 0.0;
  });
}

optune_status optune_event_release(optune_event event) {
  delete event;
  clear_error();
  return OPTUNE_SUCCESS;
}

}  // extern "C"
