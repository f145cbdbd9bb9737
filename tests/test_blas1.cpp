// BLAS level 1 (optune/blas.hpp) against a long double reference written
// here, in s, d, c and z: odd and boundary sizes, increments of both signs
// and 0, offsets, every element of every allocation checked (the ones a call
// must not touch are NaN before it and must stay so), fresh random data.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "optune/blas.hpp"
#include "support/blas_values.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

using namespace optune::test::blas;

template <class T> LD mag(const T& v) { return std::abs(to_ref(v)); }

// A device vector inside a larger allocation: `off` NaN elements, the view
// (what n and inc address, random; the rest NaN), one NaN element in the
// view past the last addressed one, one more after the view.
template <class T>
struct Vec {
  std::int64_t n, inc;
  std::size_t off;
  std::vector<T> host;  // the whole allocation, as uploaded (then as the model says)
  Buffer<T> all, view;

  Vec(std::int64_t n_, std::int64_t inc_, std::size_t off_) : n(n_), inc(inc_), off(off_) {
    const std::size_t len = span_of(n, inc);
    host.assign(off + len + 2, nan_value<T>());
    for (std::int64_t i = 0; i < n; ++i) host[off + at(i, n, inc)] = random_value<T>();
    all = test::context().alloc<T>(host.size());
    test::queue().upload(all, std::span<const T>(host));
    view = all.view(off, len + 1);
  }
  T& el(std::int64_t i) { return host[off + at(i, n, inc)]; }
};

// Every element of the allocation against the model: NaN where the model
// has NaN (untouched poison), else within tol (1 + |model|).
template <class T>
void expect_matches(const char* what, const Vec<T>& v, LD tol) {
  const std::vector<T> dev = test::queue().download(v.all);
  int bad = 0;
  for (std::size_t p = 0; p < dev.size() && bad < 5; ++p) {
    const T& m = v.host[p];
    if (has_nan(m)) {
      if (!has_nan(dev[p])) {
        ADD_FAILURE() << what << ": element " << p << " should be untouched (NaN)";
        ++bad;
      }
      continue;
    }
    const LD err = std::abs(to_ref(dev[p]) - to_ref(m));
    if (!(err <= tol * (1 + mag(m)))) {
      ADD_FAILURE() << what << ": element " << p << " differs by " << double(err) << " (tolerance " << double(tol)
                    << ")";
      ++bad;
    }
  }
}

// A one-element result at offset 1 of three poisoned elements.
template <class U>
struct Result {
  Buffer<U> all, view;
  Result() {
    all = test::context().alloc<U>(3);
    U poison;
    if constexpr (std::is_same_v<U, std::int32_t>) poison = -7;
    else poison = nan_value<U>();
    const std::vector<U> h(3, poison);
    test::queue().upload(all, std::span<const U>(h));
    view = all.view(1, 1);
  }
  U get() const {
    const std::vector<U> h = test::queue().download(all);
    if constexpr (std::is_same_v<U, std::int32_t>) {
      EXPECT_EQ(h[0], -7);
      EXPECT_EQ(h[2], -7);
    } else {
      EXPECT_TRUE(has_nan(h[0]) && has_nan(h[2])) << "the result's neighbours were written";
    }
    return h[1];
  }
};

using Case = VectorCase;

std::vector<Case> cases() {
  std::vector<Case> out;
  const std::int64_t sizes[] = {0, 1, 2, 7, 1000, 65537};
  const std::int64_t incs[][2] = {{1, 1}, {2, -1}, {-1, -3}, {-3, 2}};
  for (std::int64_t n : sizes) {
    for (int k = 0; k < 4; ++k) out.push_back({n, incs[k][0], incs[k][1], k ? 3u : 0u, k ? 5u : 0u});
    // Contiguous vectors at offsets that allow packs of 4 (real types run
    // packs there, complex ones in the element-wise routines), and at
    // offsets that allow none.
    out.push_back({n, 1, 1, 4, 8});
    out.push_back({n, 1, 1, 1, 2});
  }
  out.push_back({-1, 1, 1, 0, 0});
  return out;
}

template <class T>
class Blas1 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::is_same_v<Real<T>, double> && !test::device().caps().fp64) GTEST_SKIP() << "no fp64";
  }
};

using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Blas1, Types);

// The element-wise tolerance: a few roundings of values of about 1.
template <class T> LD ew_tol() { return 8 * eps<T>(); }

TYPED_TEST(Blas1, SwapCopy) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    Vec<T> x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
    swap(q, c.n, x.view, c.incx, y.view, c.incy).wait();
    for (std::int64_t i = 0; i < c.n; ++i) std::swap(x.el(i), y.el(i));
    expect_matches("swap x", x, 0);
    expect_matches("swap y", y, 0);
    Vec<T> a(c.n, c.incx, c.offx), b(c.n, c.incy, c.offy);
    copy(q, c.n, a.view, c.incx, b.view, c.incy).wait();
    for (std::int64_t i = 0; i < c.n; ++i) b.el(i) = a.el(i);
    expect_matches("copy x", a, 0);
    expect_matches("copy y", b, 0);
  }
}

TYPED_TEST(Blas1, ScalAxpy) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    const T alpha = random_value<T>();
    {
      Vec<T> x(c.n, std::abs(c.incx), c.offx);
      scal(q, c.n, alpha, x.view, std::abs(c.incx)).wait();
      for (std::int64_t i = 0; i < c.n; ++i) x.el(i) = from_ref<T>(to_ref(alpha) * to_ref(x.el(i)));
      expect_matches("scal", x, ew_tol<T>());
    }
    if constexpr (kComplex<T>) {  // csscal / zdscal: each part times a real alpha
      Vec<T> x(c.n, std::abs(c.incy), c.offy);
      const Real<T> ra = alpha.real();
      scal(q, c.n, ra, x.view, std::abs(c.incy)).wait();
      for (std::int64_t i = 0; i < c.n; ++i) x.el(i) = T(ra * x.el(i).real(), ra * x.el(i).imag());
      expect_matches("real scal", x, 0);
    }
    Vec<T> x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
    axpy(q, c.n, alpha, x.view, c.incx, y.view, c.incy).wait();
    for (std::int64_t i = 0; i < c.n; ++i) y.el(i) = from_ref<T>(to_ref(y.el(i)) + to_ref(alpha) * to_ref(x.el(i)));
    expect_matches("axpy x", x, 0);
    expect_matches("axpy y", y, ew_tol<T>());
  }
}

TYPED_TEST(Blas1, Rot) {
  using T = TypeParam;
  using R = Real<T>;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    const R cs = R(std::cos(0.7)), sn = R(std::sin(0.7));
    Vec<T> x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
    rot(q, c.n, x.view, c.incx, y.view, c.incy, cs, sn).wait();
    for (std::int64_t i = 0; i < c.n; ++i) {
      const Ref<T> w = to_ref(x.el(i)), z = to_ref(y.el(i));
      x.el(i) = from_ref<T>(LD(cs) * w + LD(sn) * z);
      y.el(i) = from_ref<T>(LD(cs) * z - LD(sn) * w);
    }
    expect_matches("rot x", x, ew_tol<T>());
    expect_matches("rot y", y, ew_tol<T>());
  }
}

// The reductions' bound (optune/blas.hpp): about (n / (G WGS) + log2(G WGS)
// + 1) eps times the sum of the terms' magnitudes, with G >= 16, WGS >= 64.
template <class T> LD red_tol(std::int64_t n) { return (LD(std::max<std::int64_t>(n, 0)) / 1024 + 24) * eps<T>(); }

template <class U, class V>
void expect_near_ref(const char* what, const U& got, const V& want, LD bound) {
  const LD err = std::abs(to_ref(got) - want);
  EXPECT_LE(double(err), double(bound)) << what;
}

TYPED_TEST(Blas1, DotSumAsum) {
  using T = TypeParam;
  using R = Real<T>;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    Vec<T> x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
    Ref<T> dot_u = 0, dot_c = 0, total = 0;
    LD abs_dot = 0, abs_sum = 0, asum_ref = 0;
    for (std::int64_t i = 0; i < c.n; ++i) {
      const Ref<T> a = to_ref(x.el(i)), b = to_ref(y.el(i));
      dot_u += a * b;
      if constexpr (kComplex<T>) {
        dot_c += std::conj(a) * b;
        asum_ref += std::abs(a.real()) + std::abs(a.imag());
      } else {
        asum_ref += std::abs(a);
      }
      abs_dot += std::abs(a) * std::abs(b);
      abs_sum += std::abs(a);
      total += a;
    }
    const LD tol = red_tol<T>(c.n);
    if constexpr (kComplex<T>) {
      Result<T> ru, rc;
      dotu(q, c.n, x.view, c.incx, y.view, c.incy, ru.view).wait();
      dotc(q, c.n, x.view, c.incx, y.view, c.incy, rc.view).wait();
      expect_near_ref("dotu", ru.get(), dot_u, tol * 2 * abs_dot + 1e-30L);
      expect_near_ref("dotc", rc.get(), dot_c, tol * 2 * abs_dot + 1e-30L);
    } else {
      Result<T> r;
      dot(q, c.n, x.view, c.incx, y.view, c.incy, r.view).wait();
      expect_near_ref("dot", r.get(), dot_u, tol * abs_dot + 1e-30L);
    }
    Result<T> rs;
    sum(q, c.n, x.view, c.incx, rs.view).wait();
    expect_near_ref("sum", rs.get(), total, tol * 2 * abs_sum + 1e-30L);
    // asum and iamax return at once for incx <= 0.
    Result<R> ra;
    asum(q, c.n, x.view, c.incx, ra.view).wait();
    expect_near_ref("asum", ra.get(), c.incx > 0 ? asum_ref : LD(0), tol * asum_ref + 1e-30L);
    expect_matches("x", x, 0);
    expect_matches("y", y, 0);
  }
}

TYPED_TEST(Blas1, Nrm2) {
  using T = TypeParam;
  using R = Real<T>;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    // Scales at the edges of the range: squares that would overflow, and
    // squares that would underflow, as well as ordinary values.
    const R big = R(std::sqrt(double(std::numeric_limits<R>::max())) * 4);
    const R tiny = R(std::sqrt(double(std::numeric_limits<R>::min())) / 4);
    // Modes 3 and 4: parts on both sides of Blue's thresholds in one vector
    // (2^-1 and 2^1 times TBIG; 2^-1 and 2^1 times TSML, with zeros), at
    // magnitudes where both sums count, so that a pack holds parts of two
    // ranges (the kernel's packs of the middle range take the others part by
    // part) and the result combines the sums.
    const bool dbl = sizeof(R) == 8;
    const R tbig = R(std::ldexp(1.0, dbl ? 486 : 52)), tsml = R(std::ldexp(1.0, dbl ? -511 : -63));
    for (int mode = 0; mode < 5; ++mode) {
      const R scale = mode == 0 ? R(1) : mode == 1 ? big : mode == 2 ? tiny : mode == 3 ? tbig : tsml;
      Vec<T> x(c.n, c.incx, c.offx);
      LD ss = 0;
      const LD unit = LD(scale);
      for (std::int64_t i = 0; i < c.n; ++i) {
        const R s = mode < 3 ? scale : mode == 4 && i % 5 == 0 ? R(0) : i % 2 ? scale * R(2) : scale / R(2);
        x.el(i) = x.el(i) * s;
        const Ref<T> a = to_ref(x.el(i));
        ss += std::norm(std::complex<LD>(a)) / (unit * unit);
      }
      q.upload(x.all, std::span<const T>(x.host));
      const LD want = std::sqrt(ss) * unit;
      Result<R> r;
      nrm2(q, c.n, x.view, c.incx, r.view).wait();
      const R got = r.get();
      EXPECT_TRUE(std::isfinite(got)) << "scale " << double(scale) << " mode " << mode;
      EXPECT_LE(double(std::abs(LD(got) - want)), double(red_tol<T>(c.n) * 2 * want + unit * 1e-30L))
          << "scale " << double(scale) << " mode " << mode;
    }
  }
}

// The reference's iamax in T's own arithmetic (|re| + |im| rounded as the
// device rounds it), 0-based; 0 for n < 1 or incx <= 0.
template <class T>
std::int32_t ref_iamax(Vec<T>& x, bool is_min) {
  if (x.n < 1 || x.inc <= 0) return 0;
  const auto key = [](const T& v) -> Real<T> {
    if constexpr (kComplex<T>) return std::abs(v.real()) + std::abs(v.imag());
    else return std::abs(v);
  };
  std::int32_t best = 0;
  Real<T> bv = key(x.el(0));
  for (std::int64_t i = 1; i < x.n; ++i) {
    const Real<T> k = key(x.el(i));
    if (is_min ? k < bv : k > bv) {
      best = std::int32_t(i);
      bv = k;
    }
  }
  return best;
}

TYPED_TEST(Blas1, IamaxIamin) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    Vec<T> x(c.n, c.incx, c.offx);
    Result<std::int32_t> rmax, rmin;
    iamax(q, c.n, x.view, c.incx, rmax.view).wait();
    iamin(q, c.n, x.view, c.incx, rmin.view).wait();
    EXPECT_EQ(rmax.get(), ref_iamax(x, false));
    EXPECT_EQ(rmin.get(), ref_iamax(x, true));
  }
  // Ties go to the first index; a NaN at index 0 is the answer, elsewhere never.
  for (const std::int64_t n : {7, 3000}) {
    Vec<T> x(n, 1, 0);
    for (std::int64_t i = 0; i < n; ++i) x.el(i) = T(Real<T>(i % 5 == 3 ? 2 : 1));
    x.el(n - 2) = nan_value<T>();
    q.upload(x.all, std::span<const T>(x.host));
    Result<std::int32_t> r1, r2;
    iamax(q, n, x.view, 1, r1.view).wait();
    iamin(q, n, x.view, 1, r2.view).wait();
    EXPECT_EQ(r1.get(), 3);
    EXPECT_EQ(r2.get(), 0);
    x.el(0) = nan_value<T>();
    q.upload(x.all, std::span<const T>(x.host));
    Result<std::int32_t> r3, r4;
    iamax(q, n, x.view, 1, r3.view).wait();
    iamin(q, n, x.view, 1, r4.view).wait();
    EXPECT_EQ(r3.get(), 0);
    EXPECT_EQ(r4.get(), 0);
  }
}

// Increment 0 as the reference's loops: an output of increment 0 sees every
// iteration in order (the last write wins, axpy accumulates), an input of
// increment 0 repeats its element; scal, asum and iamax do nothing (write 0).
TYPED_TEST(Blas1, ZeroIncrement) {
  using T = TypeParam;
  using R = Real<T>;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const std::int64_t n : {1, 5, 1000}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    Vec<T> x(n, 1, 2), y(1, 1, 1);
    copy(q, n, x.view, 1, y.view, 0).wait();
    y.el(0) = x.el(n - 1);
    expect_matches("copy to inc 0", y, 0);

    Vec<T> ya(1, 1, 1);
    const T alpha = random_value<T>();
    axpy(q, n, alpha, x.view, 1, ya.view, 0).wait();
    Ref<T> acc = to_ref(ya.el(0));
    LD mags = mag(ya.el(0));
    for (std::int64_t i = 0; i < n; ++i) {
      acc = to_ref(from_ref<T>(acc + to_ref(alpha) * to_ref(x.el(i))));  // rounded each step, as the loop
      mags += mag(alpha) * mag(x.el(i));
    }
    ya.el(0) = from_ref<T>(acc);
    expect_matches("axpy into inc 0", ya, 8 * eps<T>() * mags);

    Vec<T> sx(n, 1, 0);
    Vec<T> s0(1, 1, 0);
    swap(q, n, sx.view, 1, s0.view, 0).wait();
    for (std::int64_t i = 0; i < n; ++i) std::swap(sx.el(i), s0.el(0));
    expect_matches("swap x", sx, 0);
    expect_matches("swap y inc 0", s0, 0);

    Vec<T> one(1, 1, 0);
    Result<T> rd;
    const T v = one.el(0);
    if constexpr (kComplex<T>) dotu(q, n, one.view, 0, x.view, 1, rd.view).wait();
    else dot(q, n, one.view, 0, x.view, 1, rd.view).wait();
    Ref<T> want = 0;
    LD mags2 = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      want += to_ref(v) * to_ref(x.el(i));
      mags2 += mag(v) * mag(x.el(i));
    }
    expect_near_ref("dot inc 0", rd.get(), want, red_tol<T>(n) * 2 * mags2 + 1e-30L);

    Result<R> rn;
    nrm2(q, n, one.view, 0, rn.view).wait();
    EXPECT_NEAR(double(rn.get()), double(std::sqrt(LD(n)) * mag(v)), double(red_tol<T>(n) * 2 * std::sqrt(LD(n))));

    Vec<T> sc(n, 1, 0);
    scal(q, n, alpha, sc.view, 0).wait();
    scal(q, n, alpha, sc.view, -1).wait();
    expect_matches("scal with incx <= 0", sc, 0);
    Result<R> ra;
    asum(q, n, x.view, 0, ra.view).wait();
    EXPECT_EQ(double(ra.get()), 0.0);
    Result<std::int32_t> ri;
    iamax(q, n, x.view, -1, ri.view).wait();
    EXPECT_EQ(ri.get(), 0);
  }
}

// alpha = 0: axpy leaves y unread and unwritten (NaN stays NaN); rotm with
// flag -2 likewise.
TYPED_TEST(Blas1, EarlyReturns) {
  using T = TypeParam;
  const Queue& q = test::queue();
  Vec<T> x(9, 1, 0), y(9, 1, 0);
  y.el(4) = nan_value<T>();
  q.upload(y.all, std::span<const T>(y.host));
  const Event e = axpy(q, 9, T(0), x.view, 1, y.view, 1);
  EXPECT_FALSE(e.valid());
  expect_matches("axpy alpha 0", y, 0);
  if constexpr (!kComplex<T>) {
    const Event r = rotm(q, 9, x.view, 1, y.view, 1, std::array<T, 5>{T(-2), T(5), T(5), T(5), T(5)});
    EXPECT_FALSE(r.valid());
    expect_matches("rotm flag -2", x, 0);
  }
}

TYPED_TEST(Blas1, Rotm) {
  using T = TypeParam;
  if constexpr (!kComplex<T>) {
    SCOPED_TRACE(test::seed());
    const Queue& q = test::queue();
    for (const Case& c : cases()) {
      for (const T flag : {T(-1), T(0), T(1)}) {
        SCOPED_TRACE(label(c) + " flag=" + std::to_string(double(flag)));
        const std::array<T, 5> p{flag, random_value<T>(), random_value<T>(), random_value<T>(), random_value<T>()};
        LD h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];
        if (flag == 0) h11 = h22 = 1;
        if (flag == 1) h12 = 1, h21 = -1;
        Vec<T> x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
        rotm(q, c.n, x.view, c.incx, y.view, c.incy, p).wait();
        for (std::int64_t i = 0; i < c.n; ++i) {
          const LD w = x.el(i), z = y.el(i);
          x.el(i) = T(h11 * w + h12 * z);
          y.el(i) = T(h21 * w + h22 * z);
        }
        expect_matches("rotm x", x, ew_tol<T>());
        expect_matches("rotm y", y, ew_tol<T>());
      }
    }
  }
}

// rotg: [c s; -conj(s) c] (a, b) = (r, 0) with c real, c^2 + |s|^2 = 1, and
// values near the ends of the range do not overflow.
TYPED_TEST(Blas1, Rotg) {
  using T = TypeParam;
  using R = Real<T>;
  SCOPED_TRACE(test::seed());
  const R big = std::numeric_limits<R>::max() / 8, tiny = std::numeric_limits<R>::min() * 8;
  for (int k = 0; k < 200; ++k) {
    const R scale = k % 3 == 0 ? R(1) : k % 3 == 1 ? big : tiny;
    T a = random_value<T>() * scale, b = random_value<T>() * scale;
    if (k == 0) b = T(0);
    if (k == 3) a = T(0);
    const Ref<T> a0 = to_ref(a), b0 = to_ref(b);
    R c;
    T s;
    if constexpr (kComplex<T>) {
      rotg(a, b, c, s);
    } else {
      rotg(a, b, c, s);
    }
    const Ref<T> r = to_ref(a), sr = to_ref(s);
    const LD tol = 16 * eps<T>() * (std::abs(a0) + std::abs(b0));
    Ref<T> first, second;
    if constexpr (kComplex<T>) {
      first = LD(c) * a0 + sr * b0;
      second = -std::conj(sr) * a0 + LD(c) * b0;
    } else {
      first = LD(c) * a0 + sr * b0;
      second = -sr * a0 + LD(c) * b0;
    }
    EXPECT_LE(double(std::abs(first - r)), double(tol)) << "k=" << k;
    EXPECT_LE(double(std::abs(second)), double(tol)) << "k=" << k;
    EXPECT_NEAR(double(LD(c) * c + std::norm(std::complex<LD>(sr))), 1.0, double(16 * eps<T>())) << "k=" << k;
    EXPECT_TRUE(std::isfinite(double(std::abs(r)))) << "k=" << k;
  }
}

// rotmg: H (x1, y1) = (x1', 0) and d1' x1'^2 = d1 x1^2 + d2 y1^2 (the
// modified rotation keeps the weighted norm), including rescaled cases.
TYPED_TEST(Blas1, Rotmg) {
  using T = TypeParam;
  if constexpr (!kComplex<T>) {
    SCOPED_TRACE(test::seed());
    std::uniform_real_distribution<double> u(0.1, 2.0);
    for (int k = 0; k < 300; ++k) {
      const double e = k % 3 == 0 ? 1.0 : k % 3 == 1 ? 1e-9 : 1e9;
      T d1 = T(u(test::rng()) * e), d2 = T(u(test::rng())), x1 = T(random_value<T>()), y1 = T(random_value<T>());
      if (k == 1) y1 = 0;
      const LD before = LD(d1) * LD(x1) * LD(x1) + LD(d2) * LD(y1) * LD(y1);
      const T x0 = x1;
      std::array<T, 5> p{};
      rotmg(d1, d2, x1, y1, p);
      if (p[0] == T(-2)) {
        EXPECT_EQ(LD(d2) * LD(y1), 0.0L) << "k=" << k;
        continue;
      }
      LD h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];
      if (p[0] == 0) h11 = h22 = 1;
      if (p[0] == 1) h12 = 1, h21 = -1;
      const LD nx = h11 * LD(x0) + h12 * LD(y1), ny = h21 * LD(x0) + h22 * LD(y1);
      const LD tol = 64 * eps<T>();
      EXPECT_LE(double(std::abs(nx - LD(x1))), double(tol * (std::abs(nx) + 1e-30L))) << "k=" << k;
      EXPECT_LE(double(std::abs(ny)), double(tol * (std::abs(nx) + std::abs(LD(y1)) + 1))) << "k=" << k;
      EXPECT_LE(double(std::abs(LD(d1) * LD(x1) * LD(x1) - before)), double(tol * before)) << "k=" << k;
    }
  }
}

}  // namespace
