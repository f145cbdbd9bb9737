// Double-precision references for the element-wise operators, and helpers to
// move values of any data type between the host (as doubles) and the device.
#pragma once

#include <vector>

#include <gtest/gtest.h>

#include "optune/optune.hpp"

namespace optune::ref {

double unary(Unary op, double x, double alpha = 0, double beta = 0);
double binary(Binary op, double a, double b);
double ternary(Ternary op, double a, double b, double c, double alpha = 1);

// The value a device of this type stores for v (rounding, saturation for
// floating -> integer conversion with NaN -> 0, wrapping for integer -> integer).
double store_as(DType t, double v, bool from_integer);
bool is_integer(DType t);

// Device tensor of `count` elements of type t, uploaded from doubles.
struct DeviceData {
  Buffer<std::uint8_t> bytes;
  DType dtype;
  std::size_t count;
  Operand operand(std::vector<std::int64_t> shape = {}, std::vector<std::int64_t> strides = {},
                  std::size_t offset = 0) const;
};
DeviceData upload(const Queue& q, DType t, const std::vector<double>& values);
std::vector<double> download(const Queue& q, const DeviceData& d);
// Fills with a value that no operator produces from the test inputs.
void poison(const Queue& q, const DeviceData& d);

// Random values in [lo, hi] representable in t, with special values mixed in
// when `special` (±0, ±inf, NaN, subnormals of t, large magnitudes; floats only).
std::vector<double> random_values(DType t, std::size_t n, double lo, double hi, bool special);

// Checks got against the reference (computed in double from the stored
// inputs): NaN must match NaN, infinities must match after storing the
// reference in t, and finite values must agree within rtol * |ref| + atol.
// With zero_sign, a zero result must also have the reference's sign (for
// operators that define it: neg(+0) is -0, floor(-0) is -0; not fmin/fmax ties).
::testing::AssertionResult matches(DType t, double got, double ref, double rtol, double atol, bool zero_sign = true);

}  // namespace optune::ref
