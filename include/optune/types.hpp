// Element types that optune stores on devices.
#pragma once

#include <cstddef>
#include <complex>
#include <cstdint>
#include <string_view>

namespace optune {

// IEEE 754 binary16 as stored on the device. Host arithmetic goes through float.
struct half {
  std::uint16_t bits = 0;
  half() = default;
  explicit half(float f) : bits(from_float(f)) {}
  explicit operator float() const { return to_float(bits); }
  static std::uint16_t from_float(float f);  // round to nearest even
  static float to_float(std::uint16_t h);
};

// bfloat16 (the upper 16 bits of an IEEE binary32) as stored on the device:
// 8 exponent bits as f32, 8 significant bits. Conversion from float rounds to
// nearest even (overflow gives infinity, NaN stays a quiet NaN of the same
// sign); to float is exact. Host arithmetic goes through float.
struct bfloat16 {
  std::uint16_t bits = 0;
  bfloat16() = default;
  explicit bfloat16(float f) : bits(from_float(f)) {}
  explicit operator float() const { return to_float(bits); }
  static std::uint16_t from_float(float f);  // round to nearest even
  static float to_float(std::uint16_t b);
};

// The numbers are stable (the C API and the database store them): new types
// are appended.
//
// C32 and C64 are complex numbers stored as interleaved (real, imaginary)
// pairs of f32 or f64: an element is 8 or 16 bytes, its host type
// std::complex<float> or std::complex<double> (whose layout the C++ standard
// fixes as that pair), and its kernels' type float2 or double2 (.x real, .y
// imaginary). Only the BLAS routines (optune/blas.hpp) take complex
// operands; the element-wise, reduction, normalisation, GEMM and convolution
// operators refuse them with Error(InvalidType).
enum class DType : int { F32 = 0, F16 = 1, F64 = 2, I32 = 3, I8 = 4, U8 = 5, BF16 = 6, C32 = 7, C64 = 8 };
inline constexpr DType kLastDType = DType::C64;

std::size_t dtype_size(DType t) noexcept;
std::string_view dtype_name(DType t) noexcept;
// true for f32, f16, bf16 and f64 (real floating types; complex ones are not).
bool is_floating(DType t) noexcept;
// true for c32 and c64.
bool is_complex(DType t) noexcept;
// The type of a complex type's parts (c32: f32, c64: f64); t itself otherwise.
DType real_dtype(DType t) noexcept;
// Parses "f32", "float", "f16", "half", "bf16", "bfloat16", "f64", "double",
// "i32", "i8", "u8", "c32", "complex64", "c64", "complex128";
// throws Error(InvalidType) naming the text otherwise.
DType parse_dtype(std::string_view text);

template <class T> struct dtype_of;
template <> struct dtype_of<float> { static constexpr DType value = DType::F32; };
template <> struct dtype_of<half> { static constexpr DType value = DType::F16; };
template <> struct dtype_of<bfloat16> { static constexpr DType value = DType::BF16; };
template <> struct dtype_of<double> { static constexpr DType value = DType::F64; };
template <> struct dtype_of<std::int32_t> { static constexpr DType value = DType::I32; };
template <> struct dtype_of<std::int8_t> { static constexpr DType value = DType::I8; };
template <> struct dtype_of<std::uint8_t> { static constexpr DType value = DType::U8; };
template <> struct dtype_of<std::complex<float>> { static constexpr DType value = DType::C32; };
template <> struct dtype_of<std::complex<double>> { static constexpr DType value = DType::C64; };
template <class T> inline constexpr DType dtype_of_v = dtype_of<T>::value;

}  // namespace optune
