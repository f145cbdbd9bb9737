// Double-precision references for reductions, softmax and the norms, on
// dense row-major tensors given as doubles (the values the device stores).
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "optune/optune.hpp"

namespace optune::ref {

// One reduced value and the scale its rounding error is relative to (the sum
// of the magnitudes that went into it, for sum-like operators).
struct Reduced {
  std::vector<double> value;
  std::vector<double> scale;
};

// Reduces x of `shape` over `axes` (normalised, sorted, non-empty) with the
// semantics of optune::reduce (NaN rules, first-index ties, flattened indices
// over several axes). The output is row-major over the kept axes.
Reduced reduce(ReduceOp op, const std::vector<double>& x, const std::vector<std::int64_t>& shape,
               const std::vector<int>& axes);

// Softmax or log_softmax of x along `axis`: m = max (NaN-propagating),
// s = sum exp(x - m), y = exp(x - m) / s or (x - m) - log(s).
std::vector<double> softmax(const std::vector<double>& x, const std::vector<std::int64_t>& shape, int axis, bool log);

// Row statistics and outputs of layer_norm / rms_norm over [rows][cols].
struct Normed {
  std::vector<double> y, mean, rstd;
};
Normed layer_norm(const std::vector<double>& x, std::size_t rows, std::size_t cols, const std::vector<double>* gamma,
                  const std::vector<double>* beta, double eps);
Normed rms_norm(const std::vector<double>& x, std::size_t rows, std::size_t cols, const std::vector<double>* gamma,
                double eps);

// The shape of reduce's output (keepdims keeps 1s; a full reduction without
// keepdims gives []).
std::vector<std::int64_t> reduced_shape(const std::vector<std::int64_t>& shape, const std::vector<int>& axes,
                                        bool keepdims);

// |got - ref| <= rtol * scale + atol, with NaN matching NaN and infinities
// matching exactly.
::testing::AssertionResult close(double got, double ref, double scale, double rtol, double atol = 0);

}  // namespace optune::ref
