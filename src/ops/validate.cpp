#include "ops/validate.hpp"

#include "runtime/backend.hpp"

namespace optune::detail::validate {

void positive(const char* arg, std::int64_t v) {
  if (v <= 0) throw Error(Status::InvalidArgument, std::string(arg) + " must be positive (got " + std::to_string(v) + ")");
}

void non_negative(const char* arg, std::int64_t v) {
  if (v < 0)
    throw Error(Status::InvalidArgument, std::string(arg) + " must not be negative (got " + std::to_string(v) + ")");
}

std::size_t mul(const char* what, std::size_t a, std::size_t b) {
  std::size_t r;
  if (__builtin_mul_overflow(a, b, &r))
    throw Error(Status::Overflow, std::string(what) + ": " + std::to_string(a) + " * " + std::to_string(b) +
                                      " overflows");
  return r;
}

std::size_t add(const char* what, std::size_t a, std::size_t b) {
  std::size_t r;
  if (__builtin_add_overflow(a, b, &r))
    throw Error(Status::Overflow, std::string(what) + ": " + std::to_string(a) + " + " + std::to_string(b) +
                                      " overflows");
  return r;
}

std::size_t matrix_extent(const char* arg, std::int64_t outer, std::int64_t inner, std::int64_t ld) {
  non_negative(arg, outer);
  non_negative(arg, inner);
  if (ld < std::max<std::int64_t>(inner, 1))
    throw Error(Status::InvalidArgument, std::string(arg) + ": leading dimension " + std::to_string(ld) +
                                             " is smaller than " + std::to_string(std::max<std::int64_t>(inner, 1)));
  if (outer == 0 || inner == 0) return 0;
  return add(arg, mul(arg, std::size_t(outer - 1), std::size_t(ld)), std::size_t(inner));
}

void fits(const char* arg, std::size_t elements, std::size_t offset, std::size_t extent) {
  const std::size_t need = add(arg, offset, extent);
  if (need > elements)
    throw Error(Status::BufferTooSmall, std::string(arg) + ": needs " + std::to_string(need) +
                                            " elements (offset " + std::to_string(offset) + " + extent " +
                                            std::to_string(extent) + ") but holds " + std::to_string(elements));
}

void on_queue(const char* arg, const std::shared_ptr<MemImpl>& mem, const Queue& queue) {
  if (!mem) throw Error(Status::InvalidArgument, std::string(arg) + " is an empty buffer");
  if (mem->context() != queue.context().impl().get())
    throw Error(Status::InvalidArgument, std::string(arg) + " belongs to another context than the queue");
}

void dtype_known(const char* arg, DType type) {
  switch (type) {
    case DType::F32: case DType::F16: case DType::F64: case DType::I32: case DType::I8: case DType::U8:
    case DType::BF16: case DType::C32: case DType::C64: return;
  }
  throw Error(Status::InvalidArgument,
              std::string(arg) + ": unknown data type " + std::to_string(static_cast<int>(type)));
}

void dtype_held(const char* arg, DType type, const Capabilities& caps) {
  dtype_known(arg, type);
  if ((type == DType::F64 || type == DType::C64) && !caps.fp64)
    throw Error(Status::Unsupported, std::string(arg) + ": device '" + caps.name + "' has no fp64 support");
}

void dtype_supported(const char* arg, DType type, const Capabilities& caps) {
  dtype_known(arg, type);
  if (is_complex(type))
    throw Error(Status::InvalidType, std::string(arg) + ": complex data (" + std::string(dtype_name(type)) +
                                         ") is only taken by the BLAS routines (optune/blas.hpp)");
  dtype_held(arg, type, caps);
}

void rank(const char* arg, std::size_t r, std::size_t max_rank) {
  if (r == 0 || r > max_rank)
    throw Error(Status::InvalidShape, std::string(arg) + ": rank " + std::to_string(r) +
                                          (r == 0 ? " (a scalar)" : "") + " is outside 1.." +
                                          std::to_string(max_rank) + (r == 0 ? " that this operator takes" : ""));
}

}  // namespace optune::detail::validate
