// Run-time dispatch on a DType, for code that handles every element type
// through one path (the C API, the Python module).
#pragma once

#include <cstdint>
#include <string>

#include "optune/error.hpp"
#include "optune/types.hpp"

namespace optune {

// Calls f with a value of the C++ type of t (float, half, bfloat16, double, int32_t,
// int8_t, uint8_t, std::complex<float>, std::complex<double>) and returns what it returns.
template <class F>
decltype(auto) with_dtype(DType t, F&& f) {
  switch (t) {
    case DType::F32: return f(float{});
    case DType::F16: return f(half{});
    case DType::BF16: return f(bfloat16{});
    case DType::F64: return f(double{});
    case DType::I32: return f(std::int32_t{});
    case DType::I8: return f(std::int8_t{});
    case DType::U8: return f(std::uint8_t{});
    case DType::C32: return f(std::complex<float>{});
    case DType::C64: return f(std::complex<double>{});
  }
  throw Error(Status::InvalidType, "data type " + std::to_string(int(t)) + " is not known");
}

}  // namespace optune
