#include "reference/reduce_ref.hpp"

#include <algorithm>
#include <cmath>

namespace optune::ref {

namespace {

bool contains(const std::vector<int>& axes, std::size_t d) {
  return std::find(axes.begin(), axes.end(), int(d)) != axes.end();
}

// Does (bv at bi) beat (av at ai) for argmax (sign = 1) or argmin (sign = -1)?
bool beats(double bv, std::size_t bi, double av, std::size_t ai, int sign) {
  if (std::isnan(bv) || std::isnan(av)) return std::isnan(bv) && (!std::isnan(av) || bi < ai);
  return sign * bv > sign * av || (bv == av && bi < ai);
}

}  // namespace

std::vector<std::int64_t> reduced_shape(const std::vector<std::int64_t>& shape, const std::vector<int>& axes,
                                        bool keepdims) {
  std::vector<std::int64_t> out;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (!contains(axes, d)) out.push_back(shape[d]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

Reduced reduce(ReduceOp op, const std::vector<double>& x, const std::vector<std::int64_t>& shape,
               const std::vector<int>& axes) {
  std::size_t outputs = 1, count = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) (contains(axes, d) ? count : outputs) *= std::size_t(shape[d]);
  std::vector<double> acc(outputs), scale(outputs, 0.0), best(outputs, NAN);
  std::vector<std::size_t> best_at(outputs, SIZE_MAX);
  const double init = op == ReduceOp::Max ? -INFINITY : op == ReduceOp::Min ? INFINITY
                      : (op == ReduceOp::Prod || op == ReduceOp::All) ? 1.0 : 0.0;
  std::fill(acc.begin(), acc.end(), init);
  std::vector<std::size_t> coord(shape.size(), 0);
  for (std::size_t e = 0; e < x.size(); ++e) {
    std::size_t out = 0, red = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      if (contains(axes, d)) red = red * std::size_t(shape[d]) + coord[d];
      else out = out * std::size_t(shape[d]) + coord[d];
    }
    const double v = x[e];
    double& a = acc[out];
    switch (op) {
      case ReduceOp::Sum: case ReduceOp::Mean: a += v; scale[out] += std::fabs(v); break;
      case ReduceOp::SumSquares: case ReduceOp::L2: a += v * v; scale[out] += v * v; break;
      case ReduceOp::L1: a += std::fabs(v); scale[out] += std::fabs(v); break;
      case ReduceOp::Prod: a *= v; break;
      case ReduceOp::Max: if (v > a || std::isnan(v)) a = std::isnan(a) ? a : v; break;
      case ReduceOp::Min: if (v < a || std::isnan(v)) a = std::isnan(a) ? a : v; break;
      case ReduceOp::Any: a = (a != 0 || v != 0) ? 1 : 0; break;
      case ReduceOp::All: a = (a != 0 && v != 0) ? 1 : 0; break;
      case ReduceOp::ArgMax: case ReduceOp::ArgMin:
        if (best_at[out] == SIZE_MAX || beats(v, red, best[out], best_at[out], op == ReduceOp::ArgMax ? 1 : -1)) {
          best[out] = v;
          best_at[out] = red;
        }
        break;
    }
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++coord[d] < std::size_t(shape[d])) break;
      coord[d] = 0;
    }
  }
  Reduced r;
  r.count = count;
  r.value.resize(outputs);
  r.scale.resize(outputs);
  for (std::size_t o = 0; o < outputs; ++o) {
    double v = acc[o], s = scale[o];
    if (op == ReduceOp::Mean) v /= double(count), s /= double(count);
    if (op == ReduceOp::L2) v = std::sqrt(v), s = std::sqrt(s);
    if (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) v = double(best_at[o]);
    // max and min return one of the stored inputs: no rounding at all. A
    // product's rounding is relative to itself (see Reduced::scale).
    if (op == ReduceOp::Max || op == ReduceOp::Min) s = 0;
    if (op == ReduceOp::Prod) s = std::fabs(v);
    r.value[o] = v;
    r.scale[o] = s;
  }
  return r;
}

std::vector<double> softmax(const std::vector<double>& x, const std::vector<std::int64_t>& shape, int axis, bool log) {
  std::size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= std::size_t(shape[std::size_t(d)]);
  for (std::size_t d = std::size_t(axis) + 1; d < shape.size(); ++d) inner *= std::size_t(shape[d]);
  const std::size_t n = std::size_t(shape[std::size_t(axis)]);
  std::vector<double> y(x.size());
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < inner; ++i) {
      const auto at = [&](std::size_t r) { return (o * n + r) * inner + i; };
      double m = -INFINITY;
      for (std::size_t r = 0; r < n; ++r) {
        const double v = x[at(r)];
        if (v > m || std::isnan(v)) m = std::isnan(m) ? m : v;
      }
      double s = 0;
      for (std::size_t r = 0; r < n; ++r) s += std::exp(x[at(r)] - m);
      for (std::size_t r = 0; r < n; ++r) y[at(r)] = log ? (x[at(r)] - m) - std::log(s) : std::exp(x[at(r)] - m) / s;
    }
  return y;
}

Normed layer_norm(const std::vector<double>& x, std::size_t rows, std::size_t cols, const std::vector<double>* gamma,
                  const std::vector<double>* beta, double eps) {
  Normed r{std::vector<double>(x.size()), std::vector<double>(rows), std::vector<double>(rows)};
  for (std::size_t i = 0; i < rows; ++i) {
    double mean = 0, var = 0;
    for (std::size_t j = 0; j < cols; ++j) mean += x[i * cols + j];
    mean /= double(cols);
    for (std::size_t j = 0; j < cols; ++j) var += (x[i * cols + j] - mean) * (x[i * cols + j] - mean);
    var /= double(cols);
    const double rstd = 1 / std::sqrt(var + eps);
    r.mean[i] = mean;
    r.rstd[i] = rstd;
    for (std::size_t j = 0; j < cols; ++j)
      r.y[i * cols + j] = (x[i * cols + j] - mean) * rstd * (gamma ? (*gamma)[j] : 1.0) + (beta ? (*beta)[j] : 0.0);
  }
  return r;
}

Normed rms_norm(const std::vector<double>& x, std::size_t rows, std::size_t cols, const std::vector<double>* gamma,
                double eps) {
  Normed r{std::vector<double>(x.size()), std::vector<double>(rows, 0.0), std::vector<double>(rows)};
  for (std::size_t i = 0; i < rows; ++i) {
    double ss = 0;
    for (std::size_t j = 0; j < cols; ++j) ss += x[i * cols + j] * x[i * cols + j];
    const double rstd = 1 / std::sqrt(ss / double(cols) + eps);
    r.rstd[i] = rstd;
    for (std::size_t j = 0; j < cols; ++j) r.y[i * cols + j] = x[i * cols + j] * rstd * (gamma ? (*gamma)[j] : 1.0);
  }
  return r;
}

::testing::AssertionResult close(double got, double ref, double scale, double rtol, double atol) {
  if (std::isnan(ref) || std::isnan(got)) {
    if (std::isnan(ref) && std::isnan(got)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected " << ref << ", got " << got;
  }
  if (std::isinf(ref) || std::isinf(got)) {
    if (got == ref) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected " << ref << ", got " << got;
  }
  const double allowed = rtol * scale + atol;
  if (std::fabs(got - ref) <= allowed) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << ref << ", got " << got << " (error " << std::fabs(got - ref)
                                       << ", allowed " << allowed << ")";
}

}  // namespace optune::ref
