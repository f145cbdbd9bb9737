// Host side of the GEMM benchmark: operands, and the two checks every row
// gets: our C against the reference library's C, and a few elements of each
// against a double-precision product on the host.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "optune/gemm.hpp"

namespace optune::tool {

// One benchmark product: row-major, batch strided products of m x n x k.
struct GemmShape {
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  // Stored row-major sizes and leading dimensions, tightly packed.
  std::int64_t lda() const { return trans_a == Transpose::Yes ? m : k; }
  std::int64_t ldb() const { return trans_b == Transpose::Yes ? k : n; }
  std::int64_t ldc() const { return n; }
  std::int64_t size_a() const { return m * k; }
  std::int64_t size_b() const { return k * n; }
  std::int64_t size_c() const { return m * n; }
  double flops() const { return 2.0 * double(m) * double(n) * double(k) * double(batch); }
};

template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return double(float(v));
  } else {
    return double(v);
  }
}

// Uniform values in [-1, 1) from a 64-bit LCG (fast enough for 8192^2 f64),
// a different stream per seed; never zeros throughout, so an unwritten or
// zeroed C cannot pass.
template <class T>
std::vector<T> random_matrix(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = T(float(std::int32_t(s >> 32)) * (1.0f / 2147483648.0f));
  }
  return v;
}

// The tolerance of a normwise comparison of two correct results: the type's
// test tolerance (DESIGN.md section 7), grown like sqrt(k) beyond k = 64
// because two summation orders drift apart as a random walk of roundings.
// bf16 results round to 8 bits (2e-2); tf32 (tf32 = true) rounds the inputs
// to 11 bits (5e-3).
inline double gemm_tolerance(DType t, std::int64_t k, bool tf32 = false) {
  const double base = t == DType::F64 ? 1e-12 : t == DType::F16 ? 1e-2 : t == DType::BF16 ? 2e-2 : tf32 ? 5e-3 : 1e-5;
  return base * std::max(1.0, std::sqrt(double(k) / 64.0));
}

// max |x - y| / max |y| over all elements; infinity when either holds a NaN.
template <class T>
double max_relative_difference(const std::vector<T>& x, const std::vector<T>& y) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    const double a = to_double(x[i]), b = to_double(y[i]);
    if (std::isnan(a) || std::isnan(b)) return INFINITY;
    diff = std::max(diff, std::fabs(a - b));
    scale = std::max(scale, std::fabs(b));
  }
  return scale > 0 ? diff / scale : diff;
}

// The worst of `samples` elements of C (alpha = 1, beta = 0) against a
// double product on the host, each relative to sum_l |a_il b_lj|.
template <class T>
double spot_check(const GemmShape& s, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c,
                  int samples = 16) {
  double worst = 0;
  std::uint64_t r = 0x2545F4914F6CDD1Dull;
  for (int t = 0; t < samples; ++t) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    const std::int64_t p = std::int64_t((r >> 33) % std::uint64_t(s.batch));
    const std::int64_t i = std::int64_t((r >> 17) % std::uint64_t(s.m));
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    const std::int64_t j = std::int64_t((r >> 21) % std::uint64_t(s.n));
    const T* ap = a.data() + p * s.size_a();
    const T* bp = b.data() + p * s.size_b();
    double sum = 0, mag = 0;
    for (std::int64_t l = 0; l < s.k; ++l) {
      const double x = to_double(s.trans_a == Transpose::Yes ? ap[l * s.lda() + i] : ap[i * s.lda() + l]);
      const double y = to_double(s.trans_b == Transpose::Yes ? bp[j * s.ldb() + l] : bp[l * s.ldb() + j]);
      sum += x * y;
      mag += std::fabs(x * y);
    }
    const double got = to_double(c[std::size_t(p * s.size_c() + i * s.ldc() + j)]);
    if (std::isnan(got)) return INFINITY;
    worst = std::max(worst, std::fabs(got - sum) / (mag > 0 ? mag : 1.0));
  }
  return worst;
}

}  // namespace optune::tool
