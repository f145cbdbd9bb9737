// Double-precision references for reductions, softmax and the norms, on
// dense row-major tensors given as doubles (the values the device stores).
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "optune/optune.hpp"

namespace optune::ref {

// One reduced value and the scale its rounding error is relative to: the sum
// of the magnitudes that went into it for sum-like operators, 0 for max and
// min (they return a stored input exactly), |value| for prod, whose relative
// error grows with the count of factors (prod_rtol).
struct Reduced {
  std::vector<double> value;
  std::vector<double> scale;
  std::size_t count = 0;  // elements reduced into each output
};

// The relative error bound of a product of `count` factors accumulated with
// unit roundoff u_acc and stored with unit roundoff u_out: each multiplication
// rounds once (|error| <= count * u_acc to first order), then the store.
inline double prod_rtol(std::size_t count, double u_acc, double u_out) {
  const double nu = double(count) * u_acc;
  return nu / (1 - nu) + u_out;
}

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
