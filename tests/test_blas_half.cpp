// Half precision (h, optune::half) in the BLAS routines: f16 storage with f32
// arithmetic inside the kernels, results rounded once on store. Every h
// routine at small odd sizes, increments of both signs, against a long double
// reference computed from the same half inputs, inside poisoned allocations
// (half NaN wherever a call must not write, checked after it). The tolerance
// of a result r made of k terms whose magnitudes sum to S is its rounding to
// half plus the f32 sums': 2^-11 |r| + (k + 24) 2^-24 S (+ half's smallest
// subnormal step).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/families.hpp"
#include "ops/blas1_ops.hpp"
#include "ops/blas2_ops.hpp"
#include "ops/blas_common.hpp"
#include "optune/blas.hpp"
#include "optune/blas2.hpp"
#include "optune/blas2_triangular.hpp"
#include "optune/blas3.hpp"
#include "optune/blas3_triangular.hpp"
#include "optune/blas_extra.hpp"
#include "support/blas_values.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

// Level 3's blocks forced small, so that sizes up to 40 take the recursion,
// trsm's doubling (IB 16 to NB 32) and a partial last block.
[[maybe_unused]] const int kParams = setenv("OPTUNE_PARAMS", "blas3:NB=32,IB=16", 1);

using H = optune::half;
using LD = long double;

H hnan() {
  H h;
  h.bits = 0x7e00;
  return h;
}
bool hisnan(H v) { return (v.bits & 0x7c00) == 0x7c00 && (v.bits & 0x03ff) != 0; }
LD val(H v) { return LD(float(v)); }
H hrand(double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> d(lo, hi);
  return H(float(d(test::rng())));
}

constexpr LD kHalfUlp = 1.0L / 2048;           // 2^-11: rounding to half, relative
constexpr LD kF32Ulp = 1.0L / 16777216;        // 2^-24: f32 sums, relative to the terms
constexpr LD kSubnormal = 1.0L / 33554432;     // 2^-25: half's rounding near 0

// The tolerance of a stored result (see the file's comment).
LD tol_of(LD r, LD s, LD k) { return LD(1.01) * (kHalfUlp * std::abs(r) + (k + 24) * kF32Ulp * s) + kSubnormal; }

using test::blas::at;
using test::blas::span_of;

// A device allocation with its model: each element's expected value (NaN:
// must stay untouched, NaN) and tolerance (0: exactly).
struct Mem {
  std::vector<H> host;
  std::vector<LD> model, tol;
  Buffer<H> all;

  explicit Mem(std::size_t size) : host(size, hnan()), model(size, NAN), tol(size, 0) {}
  void set(std::size_t p, H v) {
    host[p] = v;
    model[p] = val(v);
  }
  void expect(std::size_t p, LD r, LD t) {
    model[p] = r;
    tol[p] = t;
  }
  void upload() {
    all = test::context().alloc<H>(host.size());
    test::queue().upload(all, std::span<const H>(host));
  }
  void check(const std::string& what) const {
    const std::vector<H> dev = test::queue().download(all);
    int bad = 0;
    for (std::size_t p = 0; p < dev.size() && bad < 5; ++p) {
      if (std::isnan(model[p])) {
        if (!hisnan(dev[p])) {
          ADD_FAILURE() << what << ": element " << p << " should be untouched (NaN), is " << float(dev[p]);
          ++bad;
        }
        continue;
      }
      const LD err = std::abs(val(dev[p]) - model[p]);
      if (!(err <= tol[p])) {
        ADD_FAILURE() << what << ": element " << p << " is " << float(dev[p]) << ", expected " << double(model[p])
                      << " (tolerance " << double(tol[p]) << ")";
        ++bad;
      }
    }
  }
};

// A vector of n with increment inc at offset off of a poisoned allocation.
struct HVec : Mem {
  std::int64_t n, inc;
  std::size_t off;
  Buffer<H> view;
  HVec(std::int64_t n_, std::int64_t inc_, std::size_t off_)
      : Mem(off_ + span_of(n_, inc_) + 2), n(n_), inc(inc_), off(off_) {
    for (std::int64_t i = 0; i < n; ++i) set(pos(i), hrand());
    upload();
    view = all.view(off, span_of(n, inc) + 1);
  }
  std::size_t pos(std::int64_t i) const { return off + at(i, n, inc); }
  LD el(std::int64_t i) const { return val(host[pos(i)]); }
};

// A one-element result at offset 1 of three poisoned elements.
template <class U>
struct Result {
  Buffer<U> all = test::context().alloc<U>(3), view;
  Result() {
    std::vector<U> h(3);
    if constexpr (std::is_same_v<U, H>) std::fill(h.begin(), h.end(), hnan());
    else std::fill(h.begin(), h.end(), U(-7));
    test::queue().upload(all, std::span<const U>(h));
    view = all.view(1, 1);
  }
  U get() const {
    const std::vector<U> h = test::queue().download(all);
    if constexpr (std::is_same_v<U, H>) EXPECT_TRUE(hisnan(h[0]) && hisnan(h[2])) << "neighbours written";
    else EXPECT_TRUE(h[0] == -7 && h[2] == -7) << "neighbours written";
    return h[1];
  }
};

using Case = test::blas::VectorCase;
using test::blas::label;
std::vector<Case> cases() {
  std::vector<Case> out;
  for (std::int64_t n : {0, 1, 7, 33, 1001}) {
    out.push_back({n, 1, 1, 0, 4});   // packs
    out.push_back({n, 1, 1, 1, 3});   // no packs
    out.push_back({n, 2, -1, 3, 0});
    out.push_back({n, -2, 2, 0, 1});
  }
  return out;
}

TEST(BlasHalf, Level1ElementWise) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    {
      HVec x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
      swap(q, c.n, x.view, c.incx, y.view, c.incy).wait();
      for (std::int64_t i = 0; i < c.n; ++i) {
        const LD a = x.el(i), b = y.el(i);
        x.expect(x.pos(i), b, 0);
        y.expect(y.pos(i), a, 0);
      }
      x.check("swap x");
      y.check("swap y");
    }
    {
      HVec x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
      copy(q, c.n, x.view, c.incx, y.view, c.incy).wait();
      for (std::int64_t i = 0; i < c.n; ++i) y.expect(y.pos(i), x.el(i), 0);
      x.check("copy x");
      y.check("copy y");
    }
    {
      const std::int64_t inc = std::abs(c.incx);
      HVec x(c.n, inc, c.offx);
      const H alpha = hrand();
      scal(q, c.n, alpha, x.view, inc).wait();
      for (std::int64_t i = 0; i < c.n; ++i) {
        const LD r = val(alpha) * x.el(i);
        x.expect(x.pos(i), r, tol_of(r, std::abs(r), 1));
      }
      x.check("scal");
    }
    {
      HVec x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
      const H alpha = hrand();
      axpy(q, c.n, alpha, x.view, c.incx, y.view, c.incy).wait();
      for (std::int64_t i = 0; i < c.n; ++i) {
        const LD r = y.el(i) + val(alpha) * x.el(i);
        y.expect(y.pos(i), r, tol_of(r, std::abs(y.el(i)) + std::abs(val(alpha) * x.el(i)), 2));
      }
      x.check("axpy x");
      y.check("axpy y");
    }
    {
      HVec x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
      const H cs(0.75f), sn(-0.625f);
      rot(q, c.n, x.view, c.incx, y.view, c.incy, cs, sn).wait();
      for (std::int64_t i = 0; i < c.n; ++i) {
        const LD w = x.el(i), z = y.el(i), s = std::abs(w) + std::abs(z);
        x.expect(x.pos(i), val(cs) * w + val(sn) * z, tol_of(val(cs) * w + val(sn) * z, s, 2));
        y.expect(y.pos(i), val(cs) * z - val(sn) * w, tol_of(val(cs) * z - val(sn) * w, s, 2));
      }
      x.check("rot x");
      y.check("rot y");
    }
    for (float flag : {-1.0f, 0.0f, 1.0f}) {
      HVec x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
      const std::array<H, 5> p{H(flag), H(0.5f), H(-0.25f), H(1.5f), H(0.75f)};  // flag, h11, h21, h12, h22
      rotm(q, c.n, x.view, c.incx, y.view, c.incy, p).wait();
      LD h11 = val(p[1]), h21 = val(p[2]), h12 = val(p[3]), h22 = val(p[4]);
      if (flag == 0) h11 = h22 = 1;
      if (flag == 1) h21 = -1, h12 = 1;
      for (std::int64_t i = 0; i < c.n; ++i) {
        const LD w = x.el(i), z = y.el(i), s = 2 * (std::abs(w) + std::abs(z));
        x.expect(x.pos(i), h11 * w + h12 * z, tol_of(h11 * w + h12 * z, s, 2));
        y.expect(y.pos(i), h21 * w + h22 * z, tol_of(h21 * w + h22 * z, s, 2));
      }
      x.check("rotm x");
      y.check("rotm y");
    }
  }
  // axpy with alpha 0 returns at once; an output of increment 0 runs the
  // reference's loop in order (axpy accumulates into one element).
  HVec x(9, 1, 0), y(9, 1, 0);
  axpy(q, 9, H(0.0f), x.view, 1, y.view, 1).wait();
  y.check("axpy alpha 0");
  HVec y0(1, 1, 2);
  axpy(q, 9, H(0.5f), x.view, 1, y0.view, 0).wait();
  LD r = y0.el(0), s = std::abs(r);
  for (std::int64_t i = 0; i < 9; ++i) {
    r += LD(0.5) * x.el(i);
    s += std::abs(x.el(i));
  }
  // Rounded to half at each of the 9 steps, each step's error within half an
  // ulp of that partial sum, which is at most s (not of the final r: with
  // cancellation the partial sums are larger than r).
  y0.expect(y0.pos(0), r, LD(9) * tol_of(s, s, 2));
  y0.check("axpy incy 0");
}

TEST(BlasHalf, Level1Reductions) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    HVec x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy);
    LD dot_r = 0, dot_s = 0, sum_r = 0, abs_r = 0, sq = 0;
    for (std::int64_t i = 0; i < c.n; ++i) {
      dot_r += x.el(i) * y.el(i);
      dot_s += std::abs(x.el(i) * y.el(i));
      sum_r += x.el(i);
      abs_r += std::abs(x.el(i));
      sq += x.el(i) * x.el(i);
    }
    const LD k = LD(std::max<std::int64_t>(c.n, 1));
    Result<H> rd, rs, ra, rn;
    dot(q, c.n, x.view, c.incx, y.view, c.incy, rd.view).wait();
    EXPECT_NEAR(double(val(rd.get())), double(dot_r), double(tol_of(dot_r, dot_s, k))) << "dot";
    sum(q, c.n, x.view, c.incx, rs.view).wait();
    EXPECT_NEAR(double(val(rs.get())), double(sum_r), double(tol_of(sum_r, abs_r, k))) << "sum";
    const std::int64_t pinc = std::abs(c.incx);  // asum, nrm2, iamax: incx <= 0 returns 0
    HVec xp(c.n, pinc, c.offx);
    LD pabs = 0, psq = 0;
    for (std::int64_t i = 0; i < c.n; ++i) {
      pabs += std::abs(xp.el(i));
      psq += xp.el(i) * xp.el(i);
    }
    asum(q, c.n, xp.view, pinc, ra.view).wait();
    EXPECT_NEAR(double(val(ra.get())), double(pabs), double(tol_of(pabs, pabs, k))) << "asum";
    nrm2(q, c.n, xp.view, pinc, rn.view).wait();
    const LD nr = std::sqrt(psq);
    EXPECT_NEAR(double(val(rn.get())), double(nr), double(tol_of(nr, nr, k))) << "nrm2";
    Result<std::int32_t> rmax, rmin;
    iamax(q, c.n, xp.view, pinc, rmax.view).wait();
    iamin(q, c.n, xp.view, pinc, rmin.view).wait();
    std::int32_t imax = 0, imin = 0;
    for (std::int64_t i = 1; i < c.n; ++i) {
      if (std::abs(xp.el(i)) > std::abs(xp.el(imax))) imax = std::int32_t(i);
      if (std::abs(xp.el(i)) < std::abs(xp.el(imin))) imin = std::int32_t(i);
    }
    EXPECT_EQ(rmax.get(), imax) << "iamax";
    EXPECT_EQ(rmin.get(), imin) << "iamin";
    x.check("x after the reductions");
    y.check("y after the reductions");
  }
  // nrm2 of values whose squares are below half's normal range (f32 sums them).
  HVec t(5, 1, 0);
  for (std::int64_t i = 0; i < 5; ++i) t.set(t.pos(i), H(1e-3f));
  t.upload();
  Result<H> r;
  nrm2(q, 5, t.all.view(0, 5), 1, r.view).wait();
  const LD want = std::sqrt(LD(5)) * val(H(1e-3f));
  EXPECT_NEAR(double(val(r.get())), double(want), double(tol_of(want, want, 5)));
}

TEST(BlasHalf, Extras) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Case& c : cases()) {
    SCOPED_TRACE(label(c));
    for (const bool beta_zero : {true, false}) {
      HVec x(c.n, c.incx, c.offx), y(c.n, c.incy, c.offy), z(c.n, -c.incy, 1);
      if (beta_zero) {  // beta = 0: z not read, so its NaN does not propagate
        for (std::int64_t i = 0; i < c.n; ++i) z.host[z.pos(i)] = hnan();
        z.upload();
        z.view = z.all.view(z.off, span_of(z.n, z.inc) + 1);
      }
      const H alpha = hrand(), beta = beta_zero ? H(0.0f) : hrand();
      had(q, c.n, alpha, x.view, c.incx, y.view, c.incy, beta, z.view, -c.incy).wait();
      for (std::int64_t i = 0; i < c.n; ++i) {
        const LD p = val(alpha) * x.el(i) * y.el(i), b = beta_zero ? 0 : val(beta) * z.el(i);
        z.expect(z.pos(i), p + b, tol_of(p + b, std::abs(p) + std::abs(b), 3));
      }
      z.check(beta_zero ? "had beta 0" : "had");
    }
  }
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor}) {
    for (const BlasTranspose tr : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate}) {
      const std::int64_t m = 5, n = 7, lda = (layout == Layout::ColMajor ? m : n) + 2;
      const bool t = tr != BlasTranspose::No;
      const std::int64_t brows = t ? n : m, bcols = t ? m : n;
      const std::int64_t ldb = (layout == Layout::ColMajor ? brows : bcols) + 1;
      const auto idx = [&](std::int64_t r, std::int64_t cc, std::int64_t ld) {
        return std::size_t(layout == Layout::ColMajor ? r + cc * ld : r * ld + cc);
      };
      Mem a(std::size_t(lda * (layout == Layout::ColMajor ? n : m))), b(std::size_t(ldb * (layout == Layout::ColMajor ? bcols : brows)));
      for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t cc = 0; cc < n; ++cc) a.set(idx(r, cc, lda), hrand());
      a.upload();
      b.upload();
      const H alpha = hrand();
      omatcopy(q, layout, tr, m, n, alpha, a.all, lda, b.all, ldb).wait();
      for (std::int64_t r = 0; r < brows; ++r)
        for (std::int64_t cc = 0; cc < bcols; ++cc) {
          const LD v = val(alpha) * val(a.host[t ? idx(cc, r, lda) : idx(r, cc, lda)]);
          b.expect(idx(r, cc, ldb), v, tol_of(v, std::abs(v), 1));
        }
      b.check("omatcopy");
      a.check("omatcopy's A");
    }
  }
  // Two batches of 13, increments 2 and -1, apart in one allocation each.
  const std::int64_t n = 13;
  HVec x(2 * n, 2, 1), y(2 * n, 1, 0);
  const std::array<H, 2> alphas{hrand(), hrand()};
  const std::array<std::int64_t, 2> xo{0, 2 * n}, yo{n, 0};
  axpy_batched(q, n, std::span<const H>(alphas), x.view, std::span<const std::int64_t>(xo), 2, y.view,
               std::span<const std::int64_t>(yo), -1).wait();
  for (int bt = 0; bt < 2; ++bt)
    for (std::int64_t i = 0; i < n; ++i) {
      const std::size_t xp = x.off + std::size_t(xo[bt]) + std::size_t(i * 2);
      const std::size_t yp = y.off + std::size_t(yo[bt]) + std::size_t(n - 1 - i);
      const LD yv = val(y.host[yp]), p = val(alphas[bt]) * val(x.host[xp]);
      y.expect(yp, yv + p, tol_of(yv + p, std::abs(yv) + std::abs(p), 2));
    }
  y.check("axpy_batched");
  x.check("axpy_batched's x");
}

// ---- level 2 ----

enum class Form { Dense, Band, Packed };

// Storage of a rows x cols matrix (square for band-symmetric and packed
// ones) in a poisoned allocation: pos(i, j) its element's index, or -1
// where the form stores nothing. Band: kl and ku diagonals (BLAS band
// storage for the layout); packed: the triangle `upper`.
struct Storage {
  Layout layout;
  Form form;
  std::int64_t rows, cols, kl = 0, ku = 0, ld = 0;
  bool upper = true;
  std::int64_t pos(std::int64_t i, std::int64_t j) const {
    const bool col = layout == Layout::ColMajor;
    if (form == Form::Dense) return col ? i + j * ld : i * ld + j;
    if (form == Form::Band) {
      if (j - i > ku || i - j > kl) return -1;
      return col ? ku + i - j + j * ld : kl + j - i + i * ld;
    }
    const std::int64_t n = rows;
    if (upper ? i > j : i < j) return -1;
    // Column-major upper (row-major lower) columns of growing length, the
    // other two of shrinking length.
    const bool growing = upper == col;
    const std::int64_t r = col ? i : j, c = col ? j : i;
    return growing ? r + c * (c + 1) / 2 : r + (2 * n - c - 1) * c / 2;
  }
  std::size_t size() const {
    if (form == Form::Packed) return std::size_t(rows * (rows + 1) / 2);
    return std::size_t(ld * (layout == Layout::ColMajor ? cols : (form == Form::Band ? rows : rows)));
  }
};

// A stored matrix: its allocation, model and a value per stored element.
struct HMat : Mem {
  Storage st;
  HMat(const Storage& s, double lo = -1, double hi = 1) : Mem(s.size() + 3), st(s) {
    for (std::int64_t i = 0; i < s.rows; ++i)
      for (std::int64_t j = 0; j < s.cols; ++j)
        if (s.pos(i, j) >= 0) set(std::size_t(s.pos(i, j)), hrand(lo, hi));
    upload();
  }
  // The stored element (i, j), 0 where the form stores none.
  LD el(std::int64_t i, std::int64_t j) const { return st.pos(i, j) < 0 ? 0 : val(host[std::size_t(st.pos(i, j))]); }
  // A symmetric matrix's element from its stored triangle.
  LD sym(std::int64_t i, std::int64_t j) const { return st.pos(i, j) >= 0 ? el(i, j) : el(j, i); }
};

std::string l2label(Layout l, const char* what) {
  return std::string(what) + (l == Layout::ColMajor ? " col-major" : " row-major");
}

// y = alpha M x + beta y (M rows x cols through `m`), checked on y, A and x.
void expect_product(const std::string& what, std::int64_t rows, std::int64_t cols,
                    const std::function<LD(std::int64_t, std::int64_t)>& m, H alpha, const HVec& x, H beta,
                    bool beta_zero, HVec& y, const Mem& a) {
  for (std::int64_t i = 0; i < rows; ++i) {
    LD r = 0, s = 0;
    for (std::int64_t j = 0; j < cols; ++j) {
      r += m(i, j) * x.el(j);
      s += std::abs(m(i, j) * x.el(j));
    }
    r *= val(alpha);
    s *= std::abs(val(alpha));
    if (!beta_zero) {
      r += val(beta) * y.el(i);
      s += std::abs(val(beta) * y.el(i));
    }
    y.expect(y.pos(i), r, tol_of(r, s, LD(cols + 1)));
  }
  y.check(what + ": y");
  a.check(what + ": a");
  x.check(what + ": x");
}

// y with NaN in its elements (beta = 0 must not read them).
void poison_elements(HVec& y) {
  for (std::int64_t i = 0; i < y.n; ++i) y.host[y.pos(i)] = hnan();
  y.upload();
  y.view = y.all.view(y.off, span_of(y.n, y.inc) + 1);
}

// Only a symmetric matrix's stored triangle may be read: the other one is NaN
// on the device and in the model (it must stay so).
void poison_other_triangle(HMat& a, bool up) {
  for (std::int64_t i = 0; i < a.st.rows; ++i)
    for (std::int64_t j = 0; j < a.st.cols; ++j)
      if (up ? i > j : i < j) {
        a.host[std::size_t(a.st.pos(i, j))] = hnan();
        a.model[std::size_t(a.st.pos(i, j))] = NAN;
      }
  a.upload();
}

TEST(BlasHalf, Level2Products) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  int round = 0;
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor}) {
    for (const BlasTranspose tr : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate}) {
      for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{7, 5}, {33, 70}}) {
        const bool t = tr != BlasTranspose::No, beta_zero = (round++ % 2) == 0;
        SCOPED_TRACE(l2label(layout, "gemv") + " m=" + std::to_string(m) + " t=" + std::to_string(int(tr)));
        const std::int64_t ld = (layout == Layout::ColMajor ? m : n) + 2;
        HMat a({layout, Form::Dense, m, n, 0, 0, ld});
        const std::int64_t xl = t ? m : n, yl = t ? n : m;
        HVec x(xl, -2, 1), y(yl, beta_zero ? 1 : -1, 3);
        if (beta_zero) poison_elements(y);
        const H alpha = hrand(), beta = beta_zero ? H(0.0f) : hrand();
        gemv(q, layout, tr, m, n, alpha, a.all, ld, x.view, -2, beta, y.view, y.inc).wait();
        expect_product("gemv", yl, xl, [&](std::int64_t i, std::int64_t j) { return t ? a.el(j, i) : a.el(i, j); },
                       alpha, x, beta, beta_zero, y, a);
      }
      // gbmv: 9 x 7, kl 2, ku 1.
      const std::int64_t m = 9, n = 7, kl = 2, ku = 1;
      const bool t = tr != BlasTranspose::No;
      SCOPED_TRACE(l2label(layout, "gbmv"));
      const std::int64_t ld = kl + ku + 2;
      HMat a({layout, Form::Band, m, n, kl, ku, ld});
      const std::int64_t xl = t ? m : n, yl = t ? n : m;
      HVec x(xl, 1, 0), y(yl, 2, 1);
      const H alpha = hrand(), beta = hrand();
      gbmv(q, layout, tr, m, n, kl, ku, alpha, a.all, ld, x.view, 1, beta, y.view, 2).wait();
      expect_product("gbmv", yl, xl, [&](std::int64_t i, std::int64_t j) { return t ? a.el(j, i) : a.el(i, j); },
                     alpha, x, beta, false, y, a);
    }
    for (const Triangle uplo : {Triangle::Upper, Triangle::Lower}) {
      const bool up = uplo == Triangle::Upper;
      for (const std::int64_t n : {7, 40}) {
        SCOPED_TRACE(l2label(layout, up ? "upper" : "lower") + " n=" + std::to_string(n));
        const bool beta_zero = n == 7;
        {
          HMat a({layout, Form::Dense, n, n, 0, 0, n + 1});
          poison_other_triangle(a, up);
          const auto m = [&](std::int64_t i, std::int64_t j) {
            return (up ? i <= j : i >= j) ? a.el(i, j) : a.el(j, i);
          };
          HVec x(n, 2, 0), y(n, -1, 1);
          if (beta_zero) poison_elements(y);
          const H alpha = hrand(), beta = beta_zero ? H(0.0f) : hrand();
          symv(q, layout, uplo, n, alpha, a.all, n + 1, x.view, 2, beta, y.view, -1).wait();
          expect_product("symv", n, n, m, alpha, x, beta, beta_zero, y, a);
        }
        {
          const std::int64_t k = 2;
          HMat a({layout, Form::Band, n, n, up ? 0 : k, up ? k : 0, k + 1});
          HVec x(n, 1, 1), y(n, 1, 0);
          const H alpha = hrand(), beta = hrand();
          sbmv(q, layout, uplo, n, k, alpha, a.all, k + 1, x.view, 1, beta, y.view, 1).wait();
          expect_product("sbmv", n, n, [&](std::int64_t i, std::int64_t j) { return a.sym(i, j); }, alpha, x, beta,
                         false, y, a);
        }
        {
          Storage s{layout, Form::Packed, n, n};
          s.upper = up;
          HMat a(s);
          HVec x(n, -1, 0), y(n, 2, 0);
          const H alpha = hrand(), beta = hrand();
          spmv(q, layout, uplo, n, alpha, a.all, x.view, -1, beta, y.view, 2).wait();
          expect_product("spmv", n, n, [&](std::int64_t i, std::int64_t j) { return a.sym(i, j); }, alpha, x, beta,
                         false, y, a);
        }
      }
    }
  }
}

// A level-2 call for detail::run_blas2 (forced parameters) on half operands.
detail::Blas2Call half_call(detail::Blas2Routine r, Layout layout, std::int64_t m, std::int64_t n, H alpha, H beta,
                            const HMat& a, std::int64_t lda, const HVec& x, const HVec& y) {
  detail::Blas2Call c;
  c.routine = r;
  c.layout = layout;
  c.m = m;
  c.n = n;
  c.alpha = detail::blas_as_complex(alpha);
  c.beta = detail::blas_as_complex(beta);
  c.a = detail::blas_vector(a.all);
  c.lda = lda;
  c.x = detail::blas_vector(x.view);
  c.incx = x.inc;
  c.y = detail::blas_vector(y.view);
  c.incy = y.inc;
  return c;
}

// symv by walks (blas2_symv_walk, WALK > 0) and by blocks (WALK 0,
// blas2_symv_blocks) under forced parameters, through detail::run_blas2:
// chunks of 2 tiles of 32, four slow indices per work-item (one program for
// both: each costs PoCL seconds), n = 100 (whole tiles, edges, diagonals, a
// column of two chunks) and 131 (an edge tile past n), each triangle with
// leading dimensions a multiple of 4 (whole tiles as packs of halves) and one
// more (element by element); the other triangle is NaN.
TEST(BlasHalf, Level2SymvWalks) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  int round = 0;
  for (const auto& [sb, walk] : {std::pair<std::int64_t, std::int64_t>{32, 2}, {32, 0}}) {
    const detail::Params fp{{"WGS", 64}, {"SB", sb}, {"STRIP", 0}, {"VW", 4}, {"WALK", walk}};
    detail::Blas2Problem pr;
    pr.dtype = DType::F16;
    pr.routine = detail::Blas2Routine::Symv;
    pr.blocked = true;
    pr.rows = pr.cols = 100;
    const auto& fam = detail::families::blas2();
    ASSERT_EQ(fam.walks(fam.fit(fp, test::device().caps(), pr), pr), walk > 0);
    for (const Layout layout : {Layout::ColMajor, Layout::RowMajor})
      for (const bool up : {true, false})
        for (const std::int64_t n : {5, 100, 131})
          for (const std::int64_t lda : {(n + 3) / 4 * 4, (n + 3) / 4 * 4 + 1}) {
            ++round;
            const std::int64_t incx = round % 3 == 0 ? -2 : 1, incy = round % 4 == 0 ? -1 : 1;
            const bool beta_zero = round % 3 == 1;
            SCOPED_TRACE(l2label(layout, up ? "upper" : "lower") + " WALK " + std::to_string(walk) + " n=" +
                         std::to_string(n) + " lda=" + std::to_string(lda));
            HMat a({layout, Form::Dense, n, n, 0, 0, lda});
            poison_other_triangle(a, up);
            HVec x(n, incx, 1), y(n, incy, 2);
            if (beta_zero) poison_elements(y);
            const H alpha = hrand(), beta = beta_zero ? H(0.0f) : hrand();
            detail::Blas2Call c = half_call(detail::Blas2Routine::Symv, layout, n, n, alpha, beta, a, lda, x, y);
            c.uplo = up ? Triangle::Upper : Triangle::Lower;
            detail::run_blas2(q, c, {}, &fp).wait();
            const auto m = [&](std::int64_t i, std::int64_t j) {
              return (up ? i <= j : i >= j) ? a.el(i, j) : a.el(j, i);
            };
            expect_product("symv walks", n, n, m, alpha, x, beta, beta_zero, y, a);
          }
  }
}

// A += alpha u v^T (+ alpha v u^T) over the stored elements, the rest untouched.
void expect_update(const std::string& what, HMat& a, H alpha, const HVec& u, const HVec& v, bool rank2,
                   bool tri) {
  for (std::int64_t i = 0; i < a.st.rows; ++i)
    for (std::int64_t j = 0; j < a.st.cols; ++j) {
      const std::int64_t p = a.st.pos(i, j);
      if (p < 0 || (tri && (a.st.upper ? i > j : i < j))) continue;
      LD d = val(alpha) * u.el(i) * v.el(j), s = std::abs(d);
      if (rank2) {
        d += val(alpha) * v.el(i) * u.el(j);
        s += std::abs(val(alpha) * v.el(i) * u.el(j));
      }
      const LD r = a.el(i, j) + d;
      a.expect(std::size_t(p), r, tol_of(r, s + std::abs(a.el(i, j)), 3));
    }
  a.check(what + ": a");
  u.check(what + ": x");
  v.check(what + ": y");
}

// Dense gemv and ger on matrices whose leading dimension and base are
// multiples of 8 and whose vectors are contiguous: the pack paths (whole packs
// of halves along the contiguous direction, x by packs in row-major gemv, the
// last partial pack lane by lane), a product wide enough to be split in
// slices (the second pass or the fused one writes y), and one of a single
// slice whose work-items take f16's 8-pack loops.
TEST(BlasHalf, Level2Packs) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  int round = 0;
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor}) {
    for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{130, 37}, {45, 1027}}) {
      const std::int64_t ld = ((layout == Layout::ColMajor ? m : n) + 7) / 8 * 8;
      for (const BlasTranspose tr : {BlasTranspose::No, BlasTranspose::Yes}) {
        const bool t = tr != BlasTranspose::No, beta_zero = (round++ % 2) == 0;
        SCOPED_TRACE(l2label(layout, "gemv") + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                     " t=" + std::to_string(int(t)));
        HMat a({layout, Form::Dense, m, n, 0, 0, ld});
        const std::int64_t xl = t ? m : n, yl = t ? n : m;
        HVec x(xl, 1, 0), y(yl, 1, 8);
        if (beta_zero) poison_elements(y);
        const H alpha = hrand(), beta = beta_zero ? H(0.0f) : hrand();
        gemv(q, layout, tr, m, n, alpha, a.all, ld, x.view, 1, beta, y.view, 1).wait();
        expect_product("gemv", yl, xl, [&](std::int64_t i, std::int64_t j) { return t ? a.el(j, i) : a.el(i, j); },
                       alpha, x, beta, beta_zero, y, a);
      }
      // One slice (SLICES 1, forced): each work-item walks all 2048 columns,
      // so the 8-pack loops run on every device (with GPU defaults the slices
      // are too short for them); m = 66 ends in a partial pack (blas2_gemv_c's
      // lane-by-lane loop).
      if (n == 1027) {
        const detail::Params fp{{"SLICES", 1}};
        for (const BlasTranspose tr : {BlasTranspose::No, BlasTranspose::Yes}) {
          const bool t = tr != BlasTranspose::No;
          const std::int64_t wm = 66, wn = 2048, wld = layout == Layout::ColMajor ? 72 : wn;
          SCOPED_TRACE(l2label(layout, "gemv, one slice") + " t=" + std::to_string(int(t)));
          HMat a({layout, Form::Dense, wm, wn, 0, 0, wld});
          HVec x(t ? wm : wn, 1, 0), y(t ? wn : wm, 1, 8);
          const H alpha = hrand(), beta = hrand();
          detail::Blas2Call c = half_call(detail::Blas2Routine::Gemv, layout, wm, wn, alpha, beta, a, wld, x, y);
          c.trans = tr;
          detail::run_blas2(q, c, {}, &fp).wait();
          expect_product("gemv", t ? wn : wm, t ? wm : wn,
                         [&](std::int64_t i, std::int64_t j) { return t ? a.el(j, i) : a.el(i, j); }, alpha, x, beta,
                         false, y, a);
        }
      }
      SCOPED_TRACE(l2label(layout, "ger") + " m=" + std::to_string(m) + " n=" + std::to_string(n));
      HMat a({layout, Form::Dense, m, n, 0, 0, ld});
      HVec x(m, 1, 0), y(n, 1, 0);
      // A zero in y: its column is skipped (read, not written).
      y.set(y.pos(3), H(0.0f));
      y.upload();
      y.view = y.all.view(y.off, span_of(y.n, y.inc) + 1);
      const H alpha = hrand();
      ger(q, layout, m, n, alpha, x.view, 1, y.view, 1, a.all, ld).wait();
      expect_update("ger", a, alpha, x, y, false, false);
    }
  }
}

TEST(BlasHalf, Level2Updates) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor}) {
    {
      const std::int64_t m = 7, n = 37, ld = (layout == Layout::ColMajor ? m : n) + 1;
      SCOPED_TRACE(l2label(layout, "ger"));
      HMat a({layout, Form::Dense, m, n, 0, 0, ld});
      HVec x(m, -1, 0), y(n, 2, 1);
      const H alpha = hrand();
      ger(q, layout, m, n, alpha, x.view, -1, y.view, 2, a.all, ld).wait();
      expect_update("ger", a, alpha, x, y, false, false);
    }
    for (const Triangle uplo : {Triangle::Upper, Triangle::Lower}) {
      const bool up = uplo == Triangle::Upper;
      const std::int64_t n = 9;
      SCOPED_TRACE(l2label(layout, up ? "upper" : "lower"));
      for (const bool rank2 : {false, true}) {
        {
          Storage s{layout, Form::Dense, n, n, 0, 0, n + 2};
          s.upper = up;
          HMat a(s);
          HVec x(n, 1, 0), y(n, -2, 1);
          const H alpha = hrand();
          if (rank2) syr2(q, layout, uplo, n, alpha, x.view, 1, y.view, -2, a.all, n + 2).wait();
          else syr(q, layout, uplo, n, alpha, x.view, 1, a.all, n + 2).wait();
          expect_update(rank2 ? "syr2" : "syr", a, alpha, x, rank2 ? y : x, rank2, true);
          if (!rank2) y.check("syr's unused y");
        }
        {
          Storage s{layout, Form::Packed, n, n};
          s.upper = up;
          HMat a(s);
          HVec x(n, 2, 0), y(n, 1, 0);
          const H alpha = hrand();
          if (rank2) spr2(q, layout, uplo, n, alpha, x.view, 2, y.view, 1, a.all).wait();
          else spr(q, layout, uplo, n, alpha, x.view, 2, a.all).wait();
          expect_update(rank2 ? "spr2" : "spr", a, alpha, x, rank2 ? y : x, rank2, true);
        }
      }
    }
  }
}

// x = op(M) x (solve 0) or op(M)^-1 x (solve 1), M triangular in any form.
TEST(BlasHalf, Level2Triangular) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  int round = 0;
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor}) {
    for (const Triangle uplo : {Triangle::Upper, Triangle::Lower}) {
      for (const BlasTranspose tr : {BlasTranspose::No, BlasTranspose::Yes}) {
        for (const Form form : {Form::Dense, Form::Band, Form::Packed}) {
          for (const bool solve : {false, true}) {
            const bool up = uplo == Triangle::Upper, t = tr == BlasTranspose::Yes;
            const Diagonal diag = (round++ % 3) == 0 ? Diagonal::Unit : Diagonal::NonUnit;
            const bool unit = diag == Diagonal::Unit;
            const std::int64_t n = round % 2 ? 9 : 40, k = form == Form::Band ? 3 : n - 1;
            SCOPED_TRACE(l2label(layout, solve ? "solve" : "product") + " n=" + std::to_string(n) +
                         " upper=" + std::to_string(up) + " trans=" + std::to_string(t) +
                         " form=" + std::to_string(int(form)) + " unit=" + std::to_string(unit));
            Storage s{layout, form, n, n};
            s.upper = up;
            if (form == Form::Dense) s.ld = n + 1;
            if (form == Form::Band) {
              s.kl = up ? 0 : k;
              s.ku = up ? k : 0;
              s.ld = k + 2;
            }
            // Off-diagonal entries small beside a diagonal in [1, 2]: a
            // well-conditioned solve.
            HMat a(s, -1.0 / double(n), 1.0 / double(n));
            for (std::int64_t i = 0; i < n; ++i) {
              const std::size_t p = std::size_t(s.pos(i, i));
              if (unit) {  // never read: NaN
                a.host[p] = hnan();
                a.model[p] = NAN;
              } else {
                a.set(p, hrand(1.0, 2.0));
              }
            }
            a.upload();
            const auto m = [&](std::int64_t i, std::int64_t j) -> LD {
              const std::int64_t r = t ? j : i, c = t ? i : j;
              if (r == c) return unit ? 1 : a.el(r, r);
              if (s.pos(r, c) < 0 || (up ? r > c : r < c)) return 0;
              return a.el(r, c);
            };
            const std::int64_t inc = round % 2 ? -2 : 1;
            HVec x(n, inc, 1);
            std::vector<LD> want(static_cast<std::size_t>(n), 0), scale(static_cast<std::size_t>(n), 0);
            if (!solve) {
              for (std::int64_t i = 0; i < n; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                  want[std::size_t(i)] += m(i, j) * x.el(j);
                  scale[std::size_t(i)] += std::abs(m(i, j) * x.el(j));
                }
            } else {  // substitution in long double, in the triangle's order
              const bool lower_m = up == t;
              for (std::int64_t s2 = 0; s2 < n; ++s2) {
                const std::int64_t i = lower_m ? s2 : n - 1 - s2;
                LD r = x.el(i), sc = std::abs(r);
                for (std::int64_t j = 0; j < n; ++j)
                  if (j != i && m(i, j) != 0) {
                    r -= m(i, j) * want[std::size_t(j)];
                    sc += std::abs(m(i, j) * want[std::size_t(j)]);
                  }
                want[std::size_t(i)] = r / m(i, i);
                scale[std::size_t(i)] = sc;
              }
            }
            if (form == Form::Dense) {
              if (solve) trsv(q, layout, uplo, tr, diag, n, a.all, s.ld, x.view, inc).wait();
              else trmv(q, layout, uplo, tr, diag, n, a.all, s.ld, x.view, inc).wait();
            } else if (form == Form::Band) {
              if (solve) tbsv(q, layout, uplo, tr, diag, n, k, a.all, s.ld, x.view, inc).wait();
              else tbmv(q, layout, uplo, tr, diag, n, k, a.all, s.ld, x.view, inc).wait();
            } else {
              if (solve) tpsv(q, layout, uplo, tr, diag, n, a.all, x.view, inc).wait();
              else tpmv(q, layout, uplo, tr, diag, n, a.all, x.view, inc).wait();
            }
            // A solve's f32 errors grow along the chain (by at most the
            // triangle's small growth): n f32 steps per element.
            for (std::int64_t i = 0; i < n; ++i)
              x.expect(x.pos(i), want[std::size_t(i)],
                       tol_of(want[std::size_t(i)], scale[std::size_t(i)], LD(solve ? 4 * n : n)));
            x.check("x");
            a.check("a");
          }
        }
      }
    }
  }
}

// ---- level 3 ----

// A dense rows x cols matrix in a poisoned allocation (ld = rows or cols + 1).
HMat dense(Layout layout, std::int64_t rows, std::int64_t cols) {
  return HMat({layout, Form::Dense, rows, cols, 0, 0, (layout == Layout::ColMajor ? rows : cols) + 1});
}

// C = alpha P + beta C over the elements `in` selects (P(i, j) and the sum of
// its terms' magnitudes from `prod`), the rest of C untouched.
void expect_c(const std::string& what, HMat& c, H alpha, H beta, bool beta_zero, std::int64_t k,
              const std::function<std::pair<LD, LD>(std::int64_t, std::int64_t)>& prod,
              const std::function<bool(std::int64_t, std::int64_t)>& in = nullptr) {
  for (std::int64_t i = 0; i < c.st.rows; ++i)
    for (std::int64_t j = 0; j < c.st.cols; ++j) {
      if (in && !in(i, j)) continue;
      auto [p, s] = prod(i, j);
      LD r = val(alpha) * p, sc = std::abs(val(alpha)) * s;
      if (!beta_zero) {
        r += val(beta) * c.el(i, j);
        sc += std::abs(val(beta) * c.el(i, j));
      }
      c.expect(std::size_t(c.st.pos(i, j)), r, tol_of(r, sc, LD(k + 1)));
    }
  c.check(what + ": c");
}

// C's elements NaN (beta = 0 must not read them).
void poison_matrix(HMat& c) {
  for (std::int64_t i = 0; i < c.st.rows; ++i)
    for (std::int64_t j = 0; j < c.st.cols; ++j) c.host[std::size_t(c.st.pos(i, j))] = hnan();
  c.upload();
}

// The n x n triangle `upper` of a matrix NaN outside it (unread, untouched),
// its elements NaN too with beta_zero (C, beta = 0).
void triangle_only(HMat& c, bool upper, bool beta_zero) {
  for (std::int64_t i = 0; i < c.st.rows; ++i)
    for (std::int64_t j = 0; j < c.st.cols; ++j) {
      const std::size_t p = std::size_t(c.st.pos(i, j));
      const bool in = upper ? i <= j : i >= j;
      if (!in || beta_zero) c.host[p] = hnan();
      if (!in) c.model[p] = NAN;
    }
  c.upload();
}

TEST(BlasHalf, Symm) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  int round = 0;
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor})
    for (const Side side : {Side::Left, Side::Right})
      for (const Triangle uplo : {Triangle::Upper, Triangle::Lower}) {
        const std::int64_t m = 9, n = 13, ka = side == Side::Left ? m : n;
        const bool up = uplo == Triangle::Upper, beta_zero = (round++ % 2) == 0;
        SCOPED_TRACE(l2label(layout, "symm") + " left=" + std::to_string(side == Side::Left) +
                     " upper=" + std::to_string(up));
        HMat a = dense(layout, ka, ka), b = dense(layout, m, n), c = dense(layout, m, n);
        triangle_only(a, up, false);  // the other triangle unread: NaN
        if (beta_zero) poison_matrix(c);
        const auto sa = [&](std::int64_t i, std::int64_t j) { return (up ? i <= j : i >= j) ? a.el(i, j) : a.el(j, i); };
        const H alpha = hrand(), beta = beta_zero ? H(0.0f) : hrand();
        symm(q, layout, side, uplo, m, n, alpha, a.all, a.st.ld, b.all, b.st.ld, beta, c.all, c.st.ld).wait();
        expect_c("symm", c, alpha, beta, beta_zero, ka, [&](std::int64_t i, std::int64_t j) {
          LD p = 0, s = 0;
          for (std::int64_t l = 0; l < ka; ++l) {
            const LD t = side == Side::Left ? sa(i, l) * b.el(l, j) : b.el(i, l) * sa(l, j);
            p += t;
            s += std::abs(t);
          }
          return std::pair{p, s};
        });
        a.check("symm: a");
        b.check("symm: b");
      }
}

TEST(BlasHalf, RankK) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  int round = 0;
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor})
    for (const Triangle uplo : {Triangle::Upper, Triangle::Lower})
      for (const BlasTranspose tr : {BlasTranspose::No, BlasTranspose::Yes})
        for (const bool two : {false, true}) {
          const std::int64_t n = 37, k = 11;
          const bool up = uplo == Triangle::Upper, t = tr != BlasTranspose::No, beta_zero = (round++ % 3) == 0;
          SCOPED_TRACE(l2label(layout, two ? "syr2k" : "syrk") + " upper=" + std::to_string(up) +
                       " trans=" + std::to_string(t));
          HMat a = dense(layout, t ? k : n, t ? n : k), b = dense(layout, t ? k : n, t ? n : k),
               c = dense(layout, n, n);
          triangle_only(c, up, beta_zero);
          const auto opa = [&](std::int64_t i, std::int64_t l) { return t ? a.el(l, i) : a.el(i, l); };
          const auto opb = [&](std::int64_t i, std::int64_t l) { return t ? b.el(l, i) : b.el(i, l); };
          const H alpha = hrand(), beta = beta_zero ? H(0.0f) : hrand();
          if (two)
            syr2k(q, layout, uplo, tr, n, k, double(float(alpha)), a.all, a.st.ld, b.all, b.st.ld,
                  double(float(beta)), c.all, c.st.ld).wait();
          else
            syrk(q, layout, uplo, tr, n, k, double(float(alpha)), a.all, a.st.ld, double(float(beta)), c.all, c.st.ld)
                .wait();
          expect_c(
              two ? "syr2k" : "syrk", c, alpha, beta, beta_zero, 2 * k,
              [&](std::int64_t i, std::int64_t j) {
                LD p = 0, s = 0;
                for (std::int64_t l = 0; l < k; ++l) {
                  const LD v = two ? opa(i, l) * opb(j, l) + opb(i, l) * opa(j, l) : opa(i, l) * opa(j, l);
                  p += v;
                  s += two ? std::abs(opa(i, l) * opb(j, l)) + std::abs(opb(i, l) * opa(j, l)) : std::abs(v);
                }
                return std::pair{p, s};
              },
              [&](std::int64_t i, std::int64_t j) { return up ? i <= j : i >= j; });
          a.check("a");
          b.check("b");
        }
}

// trmm (B = alpha op(A) B or alpha B op(A)) and trsm (op(A) X = alpha B or
// X op(A) = alpha B), and a batched trsm on one shared triangle.
TEST(BlasHalf, TrmmTrsm) {
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  int round = 0;
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor})
    for (const Side side : {Side::Left, Side::Right})
      for (const Triangle uplo : {Triangle::Upper, Triangle::Lower})
        for (const BlasTranspose tr : {BlasTranspose::No, BlasTranspose::Yes})
          for (const bool solve : {false, true}) {
            const std::int64_t m = 40, n = 13, ka = side == Side::Left ? m : n;
            const bool up = uplo == Triangle::Upper, t = tr != BlasTranspose::No, left = side == Side::Left;
            const Diagonal diag = (round++ % 3) == 0 ? Diagonal::Unit : Diagonal::NonUnit;
            const bool unit = diag == Diagonal::Unit;
            SCOPED_TRACE(l2label(layout, solve ? "trsm" : "trmm") + " left=" + std::to_string(left) +
                         " upper=" + std::to_string(up) + " trans=" + std::to_string(t) + " unit=" + std::to_string(unit));
            // A's stored triangle: small off-diagonal entries beside a
            // diagonal in [1, 2]; the other triangle (and a unit diagonal) NaN.
            HMat a(Storage{layout, Form::Dense, ka, ka, 0, 0, ka + 1}, -1.0 / double(ka), 1.0 / double(ka));
            for (std::int64_t i = 0; i < ka; ++i)
              for (std::int64_t j = 0; j < ka; ++j) {
                const std::size_t p = std::size_t(a.st.pos(i, j));
                if ((up ? i > j : i < j) || (i == j && unit)) {
                  a.host[p] = hnan();
                  a.model[p] = NAN;
                } else if (i == j) {
                  a.set(p, hrand(1.0, 2.0));
                }
              }
            a.upload();
            HMat b = dense(layout, m, n);
            const auto opa = [&](std::int64_t i, std::int64_t j) -> LD {  // op(A), triangular
              const std::int64_t r = t ? j : i, c = t ? i : j;
              if (r == c) return unit ? 1 : a.el(r, r);
              return (up ? r < c : r > c) ? a.el(r, c) : 0;
            };
            const H alpha = hrand(0.5, 1.5);
            std::vector<LD> want(std::size_t(m * n), 0), scale(std::size_t(m * n), 0);
            const auto w = [&](std::int64_t i, std::int64_t j) -> LD& { return want[std::size_t(i * n + j)]; };
            if (!solve) {
              for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t j = 0; j < n; ++j)
                  for (std::int64_t l = 0; l < ka; ++l) {
                    const LD v = left ? opa(i, l) * b.el(l, j) : b.el(i, l) * opa(l, j);
                    w(i, j) += val(alpha) * v;
                    scale[std::size_t(i * n + j)] += std::abs(val(alpha) * v);
                  }
            } else {
              // Substitution along op(A)'s triangle: lower when A is lower
              // and not transposed (or upper and transposed); on the right,
              // X op(A) = alpha B runs along op(A)^T.
              const bool lower = up == t;
              const bool forward = left ? lower : !lower;
              for (std::int64_t s2 = 0; s2 < ka; ++s2) {
                const std::int64_t e = forward ? s2 : ka - 1 - s2;
                for (std::int64_t o = 0; o < (left ? n : m); ++o) {
                  const std::int64_t i = left ? e : o, j = left ? o : e;
                  LD r = val(alpha) * b.el(i, j), sc = std::abs(r);
                  for (std::int64_t l = 0; l < ka; ++l) {
                    if (l == e) continue;
                    const LD coef = left ? opa(e, l) : opa(l, e);
                    if (coef == 0) continue;
                    const LD x = left ? w(l, j) : w(i, l);
                    r -= coef * x;
                    sc += std::abs(coef * x);
                  }
                  w(i, j) = r / opa(e, e);
                  scale[std::size_t(i * n + j)] = sc;
                }
              }
            }
            if (solve)
              trsm(q, layout, side, uplo, tr, diag, m, n, double(float(alpha)), a.all, a.st.ld, b.all, b.st.ld).wait();
            else
              trmm(q, layout, side, uplo, tr, diag, m, n, double(float(alpha)), a.all, a.st.ld, b.all, b.st.ld).wait();
            for (std::int64_t i = 0; i < m; ++i)
              for (std::int64_t j = 0; j < n; ++j)
                b.expect(std::size_t(b.st.pos(i, j)), w(i, j), tol_of(w(i, j), scale[std::size_t(i * n + j)], LD(4 * ka)));
            b.check("b");
            a.check("a");
          }
  // Batched: three systems on one shared lower triangle, B's 1 element apart
  // beyond their extent.
  const std::int64_t m = 21, n = 5, batch = 3;
  HMat a(Storage{Layout::ColMajor, Form::Dense, m, m, 0, 0, m}, -1.0 / m, 1.0 / m);
  for (std::int64_t i = 0; i < m; ++i) a.set(std::size_t(a.st.pos(i, i)), hrand(1.0, 2.0));
  a.upload();
  const std::int64_t sb = m * n + 1;
  Mem b(std::size_t(sb * batch));
  for (std::size_t p = 0; p < b.host.size(); ++p)
    if (p % std::size_t(sb) != std::size_t(m * n)) b.set(p, hrand());
  b.upload();
  const std::vector<H> b0 = b.host;
  trsm_strided_batched(q, Layout::ColMajor, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, m, n,
                       1.0, a.all, m, 0, b.all, m, sb, batch).wait();
  for (std::int64_t s2 = 0; s2 < batch; ++s2)
    for (std::int64_t j = 0; j < n; ++j) {
      std::vector<LD> x(static_cast<std::size_t>(m), 0);
      for (std::int64_t i = 0; i < m; ++i) {
        LD r = val(b0[std::size_t(s2 * sb + i + j * m)]), sc = std::abs(r);
        for (std::int64_t l = 0; l < i; ++l) {
          r -= a.el(i, l) * x[std::size_t(l)];
          sc += std::abs(a.el(i, l) * x[std::size_t(l)]);
        }
        x[std::size_t(i)] = r / a.el(i, i);
        b.expect(std::size_t(s2 * sb + i + j * m), x[std::size_t(i)], tol_of(x[std::size_t(i)], sc, 4 * m));
      }
    }
  b.check("batched trsm");
}

// The C API takes OPTUNE_F16 buffers (uint16_t bit patterns) where its s / d
// entries serve: axpy, dot, gemv, trsv and syrk on small exact values.
TEST(BlasHalf, CApi) {
  using test::capi::Buf;
  const auto& e = test::capi::env();
  const auto bits = [](std::initializer_list<float> v) {
    std::vector<std::uint16_t> b;
    for (float f : v) b.push_back(H(f).bits);
    return b;
  };
  const auto read = [&](const Buf& b, std::size_t n) {
    std::vector<std::uint16_t> h(n);
    EXPECT_EQ(optune_buffer_read(e.queue, b.h, h.data(), n, nullptr, 0, nullptr), OPTUNE_SUCCESS);
    EXPECT_EQ(optune_queue_finish(e.queue), OPTUNE_SUCCESS);
    std::vector<float> f;
    for (std::uint16_t v : h) f.push_back(H::to_float(v));
    return f;
  };
  Buf x(OPTUNE_F16, 4), y(OPTUNE_F16, 4), r(OPTUNE_F16, 1), a(OPTUNE_F16, 4), c(OPTUNE_F16, 4);
  const auto hx = bits({1, 2, 3, 4}), hy = bits({0.5f, 0.5f, 0.5f, 0.5f}), ha = bits({2, 1, 0, 4});  // A = [2 0; 1 4]
  C_OK(optune_buffer_write(e.queue, x.h, hx.data(), 4, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, y.h, hy.data(), 4, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, a.h, ha.data(), 4, nullptr, 0, nullptr));
  C_OK(optune_blas_axpy(e.queue, 4, {2, 0}, x.h, 1, y.h, 1, nullptr, 0, nullptr));  // y = 2 x + y
  EXPECT_EQ(read(y, 4), (std::vector<float>{2.5f, 4.5f, 6.5f, 8.5f}));
  C_OK(optune_blas_dot(e.queue, 4, x.h, 1, y.h, 1, r.h, nullptr, 0, nullptr));  // 2.5 + 9 + 19.5 + 34
  EXPECT_EQ(read(r, 1), (std::vector<float>{65.0f}));
  // y[0..1] = A x[0..1] (column-major) = (2, 1 + 8).
  C_OK(optune_blas_gemv(e.queue, OPTUNE_COL_MAJOR, OPTUNE_BLAS_NO_TRANS, 2, 2, {1, 0}, a.h, 2, x.h, 1, {0, 0}, y.h, 1,
                        nullptr, 0, nullptr));
  EXPECT_EQ(read(y, 2), (std::vector<float>{2.0f, 9.0f}));
  // x[0..1] = A^-1 (2, 9) = (1, 2).
  C_OK(optune_blas_trsv(e.queue, OPTUNE_COL_MAJOR, 1, 0, 0, 2, a.h, 2, y.h, 1, nullptr, 0, nullptr));
  EXPECT_EQ(read(y, 2), (std::vector<float>{1.0f, 2.0f}));
  // C (lower, 2 x 2) = A A^T: (4, 2; 2, 17); the upper element untouched.
  const auto hc = bits({-1, -1, -1, -1});
  C_OK(optune_buffer_write(e.queue, c.h, hc.data(), 4, nullptr, 0, nullptr));
  C_OK(optune_blas_syrk(e.queue, OPTUNE_COL_MAJOR, OPTUNE_LOWER, OPTUNE_NO_TRANS, 2, 2, {1, 0}, a.h, 2, {0, 0}, c.h,
                        2, nullptr, 0, nullptr));
  EXPECT_EQ(read(c, 4), (std::vector<float>{4.0f, 2.0f, -1.0f, 17.0f}));
  // Complex-only routines refuse f16 as any real type.
  EXPECT_EQ(optune_blas_dotc(e.queue, 4, x.h, 1, y.h, 1, r.h, nullptr, 0, nullptr), OPTUNE_INVALID_TYPE);
  EXPECT_NE(std::string(optune_last_error_message()).find("dotc: x is f16: use dot"), std::string::npos)
      << optune_last_error_message();
}

}  // namespace
