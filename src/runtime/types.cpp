#include <cstring>
#include <string>

#include "optune/error.hpp"
#include "optune/types.hpp"

namespace optune {

const char* status_name(Status s) noexcept {
  switch (s) {
    case Status::Success: return "success";
    case Status::InvalidArgument: return "invalid argument";
    case Status::InvalidShape: return "invalid shape";
    case Status::InvalidType: return "invalid type";
    case Status::BufferTooSmall: return "buffer too small";
    case Status::Overflow: return "overflow";
    case Status::DeviceNotFound: return "device not found";
    case Status::Unsupported: return "unsupported";
    case Status::BuildFailure: return "build failure";
    case Status::OutOfResources: return "out of resources";
    case Status::DeviceError: return "device error";
    case Status::BackendUnavailable: return "backend unavailable";
    case Status::IoError: return "i/o error";
    case Status::NotFound: return "not found";
    case Status::Internal: return "internal error";
  }
  return "unknown status";
}

std::uint16_t half::from_float(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exp = (x >> 23) & 0xffu;
  std::uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return std::uint16_t(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));
  int e = int(exp) - 127 + 15;
  if (e >= 31) return std::uint16_t(sign | 0x7c00u);  // overflow to infinity
  if (e <= 0) {                                        // subnormal or zero
    if (e < -10) return std::uint16_t(sign);
    mant |= 0x800000u;
    const int shift = 14 - e;
    std::uint32_t h = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1))) ++h;
    return std::uint16_t(sign | h);
  }
  std::uint32_t h = (std::uint32_t(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;  // may carry into the exponent: still right
  return std::uint16_t(sign | h);
}

float half::to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // normalise the subnormal
      int e = -1;
      do { ++e; mant <<= 1; } while (!(mant & 0x400u));
      x = sign | (std::uint32_t(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else {
    x = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

std::uint16_t bfloat16::from_float(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((x >> 16) | 0x40u);  // NaN: keep it, quiet
  // Ties go to the even upper half; a carry out of the significand raises the
  // exponent, and out of the largest finite value gives infinity, as it should.
  return std::uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float bfloat16::to_float(std::uint16_t b) {
  const std::uint32_t x = std::uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

bool is_floating(DType t) noexcept {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16 || t == DType::F64;
}

bool is_complex(DType t) noexcept { return t == DType::C32 || t == DType::C64; }

DType real_dtype(DType t) noexcept {
  return t == DType::C32 ? DType::F32 : t == DType::C64 ? DType::F64 : t;
}

std::size_t dtype_size(DType t) noexcept {
  switch (t) {
    case DType::F32: return 4;
    case DType::F16: return 2;
    case DType::BF16: return 2;
    case DType::F64: return 8;
    case DType::I32: return 4;
    case DType::I8: return 1;
    case DType::U8: return 1;
    case DType::C32: return 8;
    case DType::C64: return 16;
  }
  return 0;
}

std::string_view dtype_name(DType t) noexcept {
  switch (t) {
    case DType::F32: return "f32";
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::F64: return "f64";
    case DType::I32: return "i32";
    case DType::I8: return "i8";
    case DType::U8: return "u8";
    case DType::C32: return "c32";
    case DType::C64: return "c64";
  }
  return "?";
}

DType parse_dtype(std::string_view text) {
  if (text == "f32" || text == "float" || text == "float32") return DType::F32;
  if (text == "f16" || text == "half" || text == "float16") return DType::F16;
  if (text == "bf16" || text == "bfloat16") return DType::BF16;
  if (text == "f64" || text == "double" || text == "float64") return DType::F64;
  if (text == "i32" || text == "int" || text == "int32") return DType::I32;
  if (text == "i8" || text == "int8") return DType::I8;
  if (text == "u8" || text == "uint8") return DType::U8;
  if (text == "c32" || text == "complex64") return DType::C32;
  if (text == "c64" || text == "complex128") return DType::C64;
  throw Error(Status::InvalidType,
              "unknown data type '" + std::string(text) + "' (f32, f16, bf16, f64, i32, i8, u8, c32, c64)");
}

}  // namespace optune
