// The C API's handles and the conversions every entry point shares: the
// exception barrier, argument checks for what C can get wrong (NULL, enum
// values out of range), tensors to Operands, wait lists and returned events.
#pragma once

#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "optune/optune.h"
#include "optune/optune.hpp"

struct optune_device_t {
  optune::Device device;
};
struct optune_context_t {
  optune::Context context;
};
struct optune_queue_t {
  optune::Queue queue;
};
// A typed view. The context is held so the allocation's context outlives it.
struct optune_buffer_t {
  optune::Context context;
  std::shared_ptr<optune::detail::MemImpl> mem;
  optune::DType dtype = optune::DType::F32;
  std::size_t offset = 0, count = 0;
};
struct optune_event_t {
  optune::Event event;  // may be empty: a call with nothing to do
};

namespace optune::capi {

void set_error(const char* message) noexcept;
void clear_error() noexcept;
optune_status status_of(Status s) noexcept;

// Runs f, turning every exception into a status and the thread's message.
template <class F>
optune_status guard(F&& f) noexcept {
  try {
    f();
    clear_error();
    return OPTUNE_SUCCESS;
  } catch (const Error& e) {
    set_error(e.what());
    return status_of(e.status());
  } catch (const std::bad_alloc&) {
    set_error("out of host memory");
    return OPTUNE_OUT_OF_RESOURCES;
  } catch (const std::exception& e) {
    set_error(e.what());
    return OPTUNE_INTERNAL;
  } catch (...) {
    set_error("unknown exception");
    return OPTUNE_INTERNAL;
  }
}

[[noreturn]] void invalid(const std::string& message);

template <class T>
T& need(T* p, const char* what) {
  if (!p) invalid(std::string(what) + " is NULL");
  return *p;
}

// The enum value when in [0, last], else InvalidArgument naming `what`.
template <class E>
E need_enum(int value, int last, const char* what) {
  if (value < 0 || value > last) invalid(std::string(what) + " " + std::to_string(value) + " is not a known value");
  return static_cast<E>(value);
}

DType need_dtype(optune_dtype t, const char* what);
const Queue& need_queue(optune_queue q, const char* fn);
const optune_buffer_t& need_buffer(optune_buffer b, const char* what);

// A tensor as an Operand; `what` names it in messages ("optune_unary: x").
Operand operand(const optune_tensor* t, const std::string& what);
// The same for the element-wise entry points, where ndim 0 (a scalar, as
// optune.h says) is the one-element shape [1]: it broadcasts as a scalar
// does and reads the one element at the tensor's offset.
Operand elementwise_operand(const optune_tensor* t, const std::string& what);
std::optional<Operand> optional_operand(const optune_tensor* t, const std::string& what);
WaitList wait_list(const optune_event* list, std::size_t count, const char* fn);
OpParams op_params(const optune_op_params* p);

// Where a call returns its event: allocated before the work is enqueued, so
// a call that reports success has always delivered its event.
class EventOut {
 public:
  explicit EventOut(optune_event* out);
  void set(Event e);

 private:
  optune_event* out_;
  std::unique_ptr<optune_event_t> ev_;
};

// Calls f with a value of the C++ type of t (float, half, bfloat16, double,
// int32_t, int8_t, uint8_t).
template <class F>
decltype(auto) with_type(DType t, F&& f) {
  switch (t) {
    case DType::F32: return f(float{});
    case DType::F16: return f(half{});
    case DType::BF16: return f(bfloat16{});
    case DType::F64: return f(double{});
    case DType::I32: return f(std::int32_t{});
    case DType::I8: return f(std::int8_t{});
    case DType::U8: return f(std::uint8_t{});
  }
  throw Error(Status::InvalidType, "data type " + std::to_string(int(t)) + " is not known");
}

template <class T>
Buffer<T> typed(const optune_buffer_t& b) {
  return Buffer<T>(b.mem, b.offset, b.count);
}

}  // namespace optune::capi
