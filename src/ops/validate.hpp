// Argument checks shared by every operator's validate(). Each throws
// optune::Error whose message names the argument, and touches no device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "optune/runtime.hpp"

namespace optune::detail::validate {

void positive(const char* arg, std::int64_t value);      // > 0, else InvalidArgument
void non_negative(const char* arg, std::int64_t value);  // >= 0, else InvalidArgument
// a * b and a + b as size_t, or Error(Overflow) naming what.
std::size_t mul(const char* what, std::size_t a, std::size_t b);
std::size_t add(const char* what, std::size_t a, std::size_t b);
// Elements a row- or column-major matrix spans: (outer - 1) * ld + inner,
// where ld >= inner is checked (InvalidArgument "ld too small").
std::size_t matrix_extent(const char* arg, std::int64_t outer, std::int64_t inner, std::int64_t ld);
// offset + extent elements fit in the buffer view, else BufferTooSmall.
void fits(const char* arg, std::size_t buffer_elements, std::size_t offset, std::size_t extent);
// The buffer is non-empty and belongs to the queue's context.
void on_queue(const char* arg, const std::shared_ptr<MemImpl>& mem, const Queue& queue);
// The value is one of DType's (a value cast from an integer may not be).
void dtype_known(const char* arg, DType type);
// Known, and the device can hold it (f16 storage is core; f64 and c64 need
// fp64).
void dtype_held(const char* arg, DType type, const Capabilities& caps);
// dtype_held, and not complex (InvalidType: only the BLAS routines take
// complex data): the tensor operators' check.
void dtype_supported(const char* arg, DType type, const Capabilities& caps);
void rank(const char* arg, std::size_t rank, std::size_t max_rank);  // 1..max_rank, else InvalidShape

template <class T>
void buffer(const char* arg, const Buffer<T>& b, const Queue& queue, std::size_t offset, std::size_t extent) {
  on_queue(arg, b.mem(), queue);
  fits(arg, b.size(), offset, extent);
}

}  // namespace optune::detail::validate
