// The host interface's in-thread loops (src/hostblas/inline.hpp) against
// double-precision (long double for f64) references on fresh random data:
// the forms netlib's programs do not reach through the library yet (complex
// gemv 'T' / 'C', geru / gerc, complex gemm with every transpose and
// conjugate), nrm2's scaling at the ends of the range, and negative
// increments, at small odd sizes. The real forms are also checked by the
// netlib programs' .thread runs (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "hostblas/inline.hpp"

namespace optune::hostblas {
namespace {

using i64 = std::int64_t;
using W = std::complex<long double>;

template <class T> std::vector<T> random_vector(std::size_t n, std::mt19937& gen) {
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (inl::is_complex_v<T>) x = T(inl::real_t<T>(d(gen)), inl::real_t<T>(d(gen)));
    else x = T(d(gen));
  }
  return v;
}

template <class T> W wide(const T& v) {
  if constexpr (inl::is_complex_v<T>) return W(v.real(), v.imag());
  else return W(v, 0);
}
template <class T> W wide_conj(const T& v, bool c) { return c ? std::conj(wide(v)) : wide(v); }

template <class T> double tolerance() { return 50 * std::numeric_limits<inl::real_t<T>>::epsilon(); }

// |got - want| within tol of the scale of the terms summed.
template <class T> void expect_near(const T& got, const W& want, double scale, const char* what) {
  EXPECT_LE(double(std::abs(wide(got) - want)), tolerance<T>() * (scale + 1)) << what;
}

template <class T> class InThread : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(InThread, Types);

TYPED_TEST(InThread, GemvEveryTransposeAndIncrement) {
  using T = TypeParam;
  std::mt19937 gen(11);
  const T alpha = random_vector<T>(1, gen)[0], beta = random_vector<T>(1, gen)[0];
  for (char trans : {'N', 'T', 'C'})
    for (i64 incx : {1, -2})
      for (i64 incy : {1, 3, -1})
        for (T b : {T(0), T(1), beta})
          for (auto [m, n] : std::initializer_list<std::pair<i64, i64>>{{1, 1}, {7, 5}, {4, 9}}) {
            const i64 lda = m + 2, lx = trans == 'N' ? n : m, ly = trans == 'N' ? m : n;
            const auto a = random_vector<T>(std::size_t(lda * n), gen);
            const auto x = random_vector<T>(std::size_t(lx * std::abs(incx)), gen);
            auto y = random_vector<T>(std::size_t(ly * std::abs(incy)), gen);
            // beta == 0 reads nothing of y: NaN stays out of the result.
            if (b == T(0))
              for (auto& v : y) v = T(std::numeric_limits<inl::real_t<T>>::quiet_NaN());
            const auto y0 = y;
            inl::gemv(trans, m, n, alpha, a.data(), lda, x.data(), incx, b, y.data(), incy);
            const auto xi = [&](i64 i) { return x[std::size_t(incx > 0 ? i * incx : (lx - 1 - i) * -incx)]; };
            const auto yi = [&](i64 i) { return std::size_t(incy > 0 ? i * incy : (ly - 1 - i) * -incy); };
            for (i64 i = 0; i < ly; ++i) {
              W s = 0;
              double scale = 0;
              for (i64 l = 0; l < lx; ++l) {
                const W av = trans == 'N' ? wide(a[std::size_t(i + l * lda)])
                                          : wide_conj(a[std::size_t(l + i * lda)], trans == 'C');
                s += av * wide(xi(l));
                scale += double(std::abs(av * wide(xi(l))));
              }
              const W want = wide(alpha) * s + (b == T(0) ? W(0) : wide(b) * wide(y0[yi(i)]));
              expect_near(y[yi(i)], want, scale + 1, "gemv");
            }
          }
}

TYPED_TEST(InThread, GerUnconjugatedAndConjugated) {
  using T = TypeParam;
  std::mt19937 gen(12);
  const T alpha = random_vector<T>(1, gen)[0];
  for (bool conj : {false, true})
    for (i64 incx : {1, -3})
      for (i64 incy : {2, -1}) {
        const i64 m = 5, n = 3, lda = 6;
        const auto x = random_vector<T>(std::size_t(m * std::abs(incx)), gen);
        const auto y = random_vector<T>(std::size_t(n * std::abs(incy)), gen);
        auto a = random_vector<T>(std::size_t(lda * n), gen);
        const auto a0 = a;
        inl::ger(conj, m, n, alpha, x.data(), incx, y.data(), incy, a.data(), lda);
        for (i64 j = 0; j < n; ++j)
          for (i64 i = 0; i < lda; ++i) {
            const std::size_t k = std::size_t(i + j * lda);
            if (i >= m) {
              EXPECT_EQ(a[k], a0[k]) << "ger wrote outside the matrix";
              continue;
            }
            const W xv = wide(x[std::size_t(incx > 0 ? i * incx : (m - 1 - i) * -incx)]);
            const W yv = wide_conj(y[std::size_t(incy > 0 ? j * incy : (n - 1 - j) * -incy)], conj);
            expect_near(a[k], wide(a0[k]) + wide(alpha) * xv * yv, 2, "ger");
          }
      }
}

TYPED_TEST(InThread, GemmEveryTransposePair) {
  using T = TypeParam;
  std::mt19937 gen(13);
  const T alpha = random_vector<T>(1, gen)[0], beta = random_vector<T>(1, gen)[0];
  for (char ta : {'N', 'T', 'C'})
    for (char tb : {'N', 'T', 'C'})
      for (T b : {T(0), beta}) {
        const i64 m = 5, n = 3, k = 7;
        const i64 lda = (ta == 'N' ? m : k) + 1, ldb = (tb == 'N' ? k : n) + 2, ldc = m + 1;
        const auto a = random_vector<T>(std::size_t(lda * (ta == 'N' ? k : m)), gen);
        const auto bm = random_vector<T>(std::size_t(ldb * (tb == 'N' ? n : k)), gen);
        auto c = random_vector<T>(std::size_t(ldc * n), gen);
        if (b == T(0))
          for (auto& v : c) v = T(std::numeric_limits<inl::real_t<T>>::quiet_NaN());
        const auto c0 = c;
        inl::gemm(ta, tb, m, n, k, alpha, a.data(), lda, bm.data(), ldb, b, c.data(), ldc);
        for (i64 j = 0; j < n; ++j)
          for (i64 i = 0; i < m; ++i) {
            W s = 0;
            double scale = 0;
            for (i64 l = 0; l < k; ++l) {
              const W av = ta == 'N' ? wide(a[std::size_t(i + l * lda)]) : wide_conj(a[std::size_t(l + i * lda)], ta == 'C');
              const W bv = tb == 'N' ? wide(bm[std::size_t(l + j * ldb)]) : wide_conj(bm[std::size_t(j + l * ldb)], tb == 'C');
              s += av * bv;
              scale += double(std::abs(av * bv));
            }
            const std::size_t at = std::size_t(i + j * ldc);
            const W want = wide(alpha) * s + (b == T(0) ? W(0) : wide(b) * wide(c0[at]));
            expect_near(c[at], want, scale + 1, "gemm");
          }
      }
}

TYPED_TEST(InThread, LevelOneWithNegativeIncrements) {
  using T = TypeParam;
  using R = inl::real_t<T>;
  std::mt19937 gen(14);
  const i64 n = 9;
  for (i64 incx : {1, -2})
    for (i64 incy : {1, 3, -1}) {
      const auto x = random_vector<T>(std::size_t(n * std::abs(incx)), gen);
      auto y = random_vector<T>(std::size_t(n * std::abs(incy)), gen);
      const auto xi = [&](i64 i) { return std::size_t(incx > 0 ? i * incx : (n - 1 - i) * -incx); };
      const auto yi = [&](i64 i) { return std::size_t(incy > 0 ? i * incy : (n - 1 - i) * -incy); };
      // dotc / dotu (dot for real types).
      for (bool conj : {false, true}) {
        W want = 0;
        for (i64 i = 0; i < n; ++i) want += wide_conj(x[xi(i)], conj) * wide(y[yi(i)]);
        expect_near(inl::dot<T>(n, conj, x.data(), incx, y.data(), incy), want, double(n), "dot");
      }
      // axpy.
      const T alpha = random_vector<T>(1, gen)[0];
      const auto y0 = y;
      inl::axpy(n, alpha, x.data(), incx, y.data(), incy);
      for (i64 i = 0; i < n; ++i) expect_near(y[yi(i)], wide(y0[yi(i)]) + wide(alpha) * wide(x[xi(i)]), 2, "axpy");
      // rot with real c and s.
      auto xr = x;
      auto yr = y;
      const R c = R(0.6), s = R(0.8);
      inl::rot(n, xr.data(), incx, yr.data(), incy, c, s);
      for (i64 i = 0; i < n; ++i) {
        expect_near(xr[xi(i)], W(c) * wide(x[xi(i)]) + W(s) * wide(y[yi(i)]), 2, "rot x");
        expect_near(yr[yi(i)], W(c) * wide(y[yi(i)]) - W(s) * wide(x[xi(i)]), 2, "rot y");
      }
      // copy and swap put element i of x at element i of y.
      std::vector<T> z(y.size(), T(7));
      inl::copy(n, x.data(), incx, z.data(), incy);
      for (i64 i = 0; i < n; ++i) EXPECT_EQ(z[yi(i)], x[xi(i)]) << "copy";
      auto xs = x;
      inl::swap(n, xs.data(), incx, z.data(), incy);
      for (i64 i = 0; i < n; ++i) EXPECT_EQ(xs[xi(i)], x[xi(i)]) << "swap";
    }
}

TYPED_TEST(InThread, NormsAndIamax) {
  using T = TypeParam;
  using R = inl::real_t<T>;
  std::mt19937 gen(15);
  const i64 n = 11, inc = 2;
  for (R mag : {R(1), std::numeric_limits<R>::max() / 8, std::numeric_limits<R>::min() * 4}) {
    auto x = random_vector<T>(std::size_t(n * inc), gen);
    for (auto& v : x) v *= mag;
    long double ss = 0, as = 0, top = -1;
    i64 at = -1;
    for (i64 i = 0; i < n; ++i) {
      const W v = wide(x[std::size_t(i * inc)]) / static_cast<long double>(mag);
      ss += std::norm(v);
      const long double a1 = std::abs(v.real()) + std::abs(v.imag());
      as += a1;
      if (a1 > top) {
        top = a1;
        at = i;
      }
    }
    // nrm2 neither overflows nor loses the tiny values.
    const long double got = static_cast<long double>(inl::nrm2(n, x.data(), inc)) / mag;
    EXPECT_NEAR(double(got), double(std::sqrt(ss)), tolerance<T>() * double(std::sqrt(ss))) << "nrm2 at " << mag;
    if (mag == R(1)) {
      EXPECT_NEAR(double(inl::asum(n, x.data(), inc)), double(as), tolerance<T>() * double(as)) << "asum";
      EXPECT_EQ(inl::iamax(n, x.data(), inc), at) << "iamax";
    }
  }
  // The first of equal largest values.
  std::vector<T> e{T(1), T(-3), T(3), T(2)};
  EXPECT_EQ(inl::iamax(i64(4), e.data(), 1), 1);
}

TYPED_TEST(InThread, ScalByItsTypeAndByAReal) {
  using T = TypeParam;
  using R = inl::real_t<T>;
  std::mt19937 gen(16);
  const i64 n = 7, inc = 3;
  const auto x = random_vector<T>(std::size_t(n * inc), gen);
  const T alpha = random_vector<T>(1, gen)[0];
  auto y = x;
  inl::scal(n, alpha, y.data(), inc);
  auto z = x;
  inl::scal(n, R(-2.5), z.data(), inc);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i % inc) {
      EXPECT_EQ(y[i], x[i]) << "scal wrote between the elements";
      continue;
    }
    expect_near(y[i], wide(alpha) * wide(x[i]), 1, "scal");
    expect_near(z[i], W(-2.5) * wide(x[i]), 1, "scal by a real");
  }
}

}  // namespace
}  // namespace optune::hostblas
