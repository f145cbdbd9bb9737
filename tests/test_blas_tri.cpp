// BLAS level-2 triangular routines (optune/blas2_triangular.hpp) against a
// long double reference written here, in s, d, c and z: every layout,
// triangle, transposition and diagonal, full, banded and packed storage,
// odd sizes (1 to 70, beyond a panel of rows) and 300 (many panels; products
// also in many column slices), band
// widths 0 to beyond n, increments 1, -1, 2 and -3 inside poisoned
// allocations. A's storage holds NaN wherever the routine must not read
// (outside the triangle or band, unit diagonals, padding), x's allocation
// NaN wherever it must not write; fresh random data. Solves run on
// well-conditioned triangles (diagonals of magnitude 1 to 2, off-diagonal
// entries scaled by the row's width).
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "ops/blas_tri_ops.hpp"
#include "optune/blas2_triangular.hpp"
#include "support/blas_values.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

using namespace test::blas;

enum class Form { Full, Band, Packed };

struct Shape {
  Form form;
  Layout layout;
  Triangle uplo;
  std::int64_t n, k, lda;  // k: band width (n - 1 for full and packed)
};

// Index of A(r, c) in its storage, or -1 where it is not stored (outside
// the triangle or the band): CBLAS's definitions for each layout.
std::int64_t stored(const Shape& s, std::int64_t r, std::int64_t c) {
  const bool up = s.uplo == Triangle::Upper, col = s.layout == Layout::ColMajor;
  if (up ? c < r : c > r) return -1;
  if (s.form == Form::Band && std::abs(c - r) > s.k) return -1;
  const std::int64_t n = s.n, k = s.k, lda = s.lda;
  switch (s.form) {
    case Form::Full: return col ? r + c * lda : r * lda + c;
    case Form::Band:
      if (col) return (up ? k + r - c : r - c) + c * lda;
      return r * lda + (up ? c - r : k + c - r);
    default:
      if (col) return up ? r + c * (c + 1) / 2 : r + c * (2 * n - c - 1) / 2;
      return up ? c + r * (2 * n - r - 1) / 2 : c + r * (r + 1) / 2;
  }
}

std::int64_t storage_size(const Shape& s) {
  if (s.n == 0) return 0;
  if (s.form == Form::Packed) return s.n * (s.n + 1) / 2;
  return (s.n - 1) * s.lda + (s.form == Form::Full ? s.n : s.k + 1);
}

std::size_t x_at(std::int64_t i, std::int64_t n, std::int64_t inc) { return at(i, n, inc); }

template <class T>
struct Problem {
  Shape s;
  BlasTranspose trans;
  Diagonal diag;
  bool solve;
  std::int64_t incx;
  std::size_t aoff = 3, xoff = 2;
  std::vector<T> a;  // allocation: aoff NaN, the storage (NaN where not read), 2 NaN
  std::vector<T> x;  // allocation: xoff NaN, the view, 2 NaN
  std::vector<CL> want;  // the result, element i of x
  const detail::Params* forced = nullptr;  // parameters of the launcher, or the operator's choice

  CL m(std::int64_t i, std::int64_t j) const {  // op(A)(i, j), 0 outside the triangle
    const std::int64_t r = trans == BlasTranspose::No ? i : j, c = trans == BlasTranspose::No ? j : i;
    if (r == c && diag == Diagonal::Unit) return 1;
    const std::int64_t p = stored(s, r, c);
    if (p < 0) return 0;
    const CL v = to_ref(a[aoff + std::size_t(p)]);
    return trans == BlasTranspose::Conjugate ? std::conj(v) : v;
  }

  void make() {
    const std::int64_t n = s.n;
    const std::int64_t width = std::min<std::int64_t>(s.k, n > 0 ? n - 1 : 0) + 1;
    a.assign(aoff + std::size_t(storage_size(s)) + 2, nan_value<T>());
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t c = 0; c < n; ++c) {
        const std::int64_t p = stored(s, r, c);
        if (p < 0 || (r == c && diag == Diagonal::Unit)) continue;
        T v;
        if (r == c) {
          v = random_value<T>(1.0, 2.0);
          if (test::rng()() & 1) v = -v;
        } else {
          v = random_value<T>(-1.0, 1.0) * Real<T>(solve ? 0.5 / double(width) : 1.0);
        }
        a[aoff + std::size_t(p)] = v;
      }
    const std::size_t span = n > 0 ? std::size_t((n - 1) * std::abs(incx) + 1) : 0;
    x.assign(xoff + span + 2, nan_value<T>());
    for (std::int64_t i = 0; i < n; ++i) x[xoff + x_at(i, n, incx)] = random_value<T>(-1.0, 1.0);
    std::vector<CL> b(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) b[std::size_t(i)] = to_ref(x[xoff + x_at(i, n, incx)]);
    want.assign(std::size_t(n), 0);
    if (!solve) {
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) want[std::size_t(i)] += m(i, j) * b[std::size_t(j)];
      return;
    }
    // Substitution in long double, in the direction op(A)'s triangle asks.
    const bool lower = (s.uplo == Triangle::Lower) == (trans == BlasTranspose::No);
    for (std::int64_t q = 0; q < n; ++q) {
      const std::int64_t i = lower ? q : n - 1 - q;
      CL v = b[std::size_t(i)];
      for (std::int64_t j = 0; j < n; ++j)
        if (j != i) v -= m(i, j) * want[std::size_t(j)];
      want[std::size_t(i)] = v / m(i, i);
    }
  }

  Event run(const Queue& q, const Buffer<T>& av, const Buffer<T>& xv) const {
    const std::int64_t n = s.n;
    if (forced) {
      detail::BlasTriCall c;
      c.solve = solve;
      c.form = detail::TriForm(int(s.form));
      c.layout = s.layout;
      c.uplo = s.uplo;
      c.trans = trans;
      c.diag = diag;
      c.n = n;
      c.k = s.k;
      c.lda = s.form == Form::Packed ? 1 : s.lda;
      c.a = detail::blas_vector(av);
      c.x = detail::blas_vector(xv);
      c.incx = incx;
      return detail::run_blas_tri(q, c, {}, forced);
    }
    switch (s.form) {
      case Form::Full:
        return solve ? trsv(q, s.layout, s.uplo, trans, diag, n, av, s.lda, xv, incx)
                     : trmv(q, s.layout, s.uplo, trans, diag, n, av, s.lda, xv, incx);
      case Form::Band:
        return solve ? tbsv(q, s.layout, s.uplo, trans, diag, n, s.k, av, s.lda, xv, incx)
                     : tbmv(q, s.layout, s.uplo, trans, diag, n, s.k, av, s.lda, xv, incx);
      default:
        return solve ? tpsv(q, s.layout, s.uplo, trans, diag, n, av, xv, incx)
                     : tpmv(q, s.layout, s.uplo, trans, diag, n, av, xv, incx);
    }
  }

  std::string label() const {
    static const char* forms[] = {"full", "band", "packed"};
    return std::string(solve ? "solve " : "product ") + forms[int(s.form)] +
           (s.layout == Layout::RowMajor ? " row-major" : " col-major") +
           (s.uplo == Triangle::Upper ? " upper" : " lower") + " trans=" + std::to_string(int(trans)) +
           (diag == Diagonal::Unit ? " unit" : " non-unit") + " n=" + std::to_string(s.n) +
           " k=" + std::to_string(s.k) + " lda=" + std::to_string(s.lda) + " incx=" + std::to_string(incx);
  }

  // Runs on the device; every element of x's allocation against the model.
  void check() {
    make();
    const Queue& q = test::queue();
    Buffer<T> aall = test::context().alloc<T>(a.size()), xall = test::context().alloc<T>(x.size());
    q.upload(aall, std::span<const T>(a));
    q.upload(xall, std::span<const T>(x));
    run(q, aall.view(aoff, a.size() - aoff - 2), xall.view(xoff, x.size() - xoff - 2)).wait();
    const std::vector<T> got = q.download(xall);
    std::vector<CL> model(x.size(), CL(std::numeric_limits<LD>::quiet_NaN(), 0));
    for (std::int64_t i = 0; i < s.n; ++i) model[xoff + x_at(i, s.n, incx)] = want[std::size_t(i)];
    const LD eps = LD(std::numeric_limits<Real<T>>::epsilon());
    const LD tol = 16 * LD(s.n + 4) * eps;
    LD scale = 1;
    for (const CL& w : want) scale = std::max(scale, std::abs(w));
    int bad = 0;
    for (std::size_t p = 0; p < got.size() && bad < 4; ++p) {
      if (std::isnan(model[p].real())) {
        if (!has_nan(got[p])) {
          ADD_FAILURE() << label() << ": element " << p << " of x's allocation should be untouched";
          ++bad;
        }
        continue;
      }
      const LD err = std::abs(to_ref(got[p]) - model[p]);
      if (!(err <= tol * scale)) {
        ADD_FAILURE() << label() << ": element " << p << " differs by " << double(err) << " (tolerance "
                      << double(tol * scale) << ")";
        ++bad;
      }
    }
  }
};

template <class T>
class BlasTri : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::is_same_v<Real<T>, double> && !test::device().caps().fp64) GTEST_SKIP() << "no fp64";
  }
  // Every layout, triangle, transposition and diagonal of one form and
  // routine, the sizes, band widths and increments cycling through the
  // combinations.
  void all_combinations(Form form, bool solve) {
    static const std::int64_t sizes[] = {1, 2, 3, 17, 33, 70, 5};
    static const std::int64_t incs[] = {1, -1, 2, -3, -1};
    static const std::int64_t widths[] = {0, 1, 3, 40, 2};
    int idx = 0;
    for (Layout layout : {Layout::ColMajor, Layout::RowMajor})
      for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
        for (BlasTranspose trans : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate})
          for (Diagonal diag : {Diagonal::NonUnit, Diagonal::Unit}) {
            Problem<T> p;
            const std::int64_t n = sizes[idx % 7];
            const std::int64_t k = form == Form::Band ? widths[idx % 5] : std::max<std::int64_t>(n - 1, 0);
            p.s = {form, layout, uplo, n, k, form == Form::Full ? n + idx % 3 : k + 1 + idx % 2};
            p.trans = trans;
            p.diag = diag;
            p.solve = solve;
            p.incx = incs[idx % 5];
            p.check();
            ++idx;
          }
  }
};

using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(BlasTri, Types);

TYPED_TEST(BlasTri, Trmv) { this->all_combinations(Form::Full, false); }
TYPED_TEST(BlasTri, Tbmv) { this->all_combinations(Form::Band, false); }
TYPED_TEST(BlasTri, Tpmv) { this->all_combinations(Form::Packed, false); }
TYPED_TEST(BlasTri, Trsv) { this->all_combinations(Form::Full, true); }
TYPED_TEST(BlasTri, Tbsv) { this->all_combinations(Form::Band, true); }
TYPED_TEST(BlasTri, Tpsv) { this->all_combinations(Form::Packed, true); }

// Many panels (and, for solves, many work-groups waiting on each other).
TYPED_TEST(BlasTri, ManyPanels) {
  using T = TypeParam;
  for (bool solve : {false, true})
    for (Form form : {Form::Full, Form::Band, Form::Packed}) {
      Problem<T> p;
      const std::int64_t n = 300, k = form == Form::Band ? 45 : n - 1;
      p.s = {form, solve ? Layout::ColMajor : Layout::RowMajor, solve ? Triangle::Lower : Triangle::Upper, n, k,
             form == Form::Full ? n + 1 : k + 1};
      p.trans = solve ? BlasTranspose::No : BlasTranspose::Conjugate;
      p.diag = Diagonal::NonUnit;
      p.solve = solve;
      p.incx = solve ? 1 : -2;
      p.check();
      p.s.layout = Layout::RowMajor;
      p.trans = BlasTranspose::Yes;
      p.s.uplo = Triangle::Upper;
      p.check();
    }
}

// Solves in both modes whatever the device's default: one launch whose
// groups wait on each other (PERSIST 1), one launch per panel (0); two
// (WGS, NB) pairs per type (each pair is a program to compile), every NB
// among the four types; products in slices of 64 columns with the first
// pair (SW 64: up to two slices per panel, the last group of a panel adding
// them) and four rows per work-item (RV 4, tri_mv4), and in one slice with
// the second (SW 0, RV 1); one-launch solves without helpers (HELP 0) with
// the first pair, with 3 helper groups per panel with the second;
// increments 1, -2, 3, -1.
template <class T> constexpr int kTypeIndex = std::is_same_v<T, float> ? 0 : std::is_same_v<T, double> ? 1
                                              : std::is_same_v<T, std::complex<float>> ? 2 : 3;

TYPED_TEST(BlasTri, SolveModesAndPanels) {
  using T = TypeParam;
  static const std::int64_t pairs[8][2] = {{64, 8}, {128, 64}, {256, 16}, {64, 32},
                                           {128, 32}, {256, 8}, {64, 16}, {128, 32}};  // c64: NB 64 needs 66 KiB
  static const std::int64_t incs[] = {1, -2, 3, -1};
  int idx = 0;
  for (int pi = 0; pi < 2; ++pi)
    for (std::int64_t persist : {0, 1}) {
      const auto& pair = pairs[2 * kTypeIndex<T> + pi];
      const detail::Params params{{"WGS", pair[0]},        {"NB", pair[1]},          {"SW", pi == 0 ? 64 : 0},
                                  {"RV", pi == 0 ? 4 : 1}, {"HELP", pi == 0 ? 0 : 3}, {"PERSIST", persist}};
      for (Form form : {Form::Full, Form::Band, Form::Packed}) {
        Problem<T> p;
        p.forced = &params;
        const std::int64_t n = 97 + idx % 3, k = form == Form::Band ? 19 + 50 * (idx % 2) : n - 1;
        p.s = {form, idx % 2 ? Layout::RowMajor : Layout::ColMajor, idx % 3 ? Triangle::Lower : Triangle::Upper, n, k,
               form == Form::Full ? n : k + 1};
        p.trans = BlasTranspose(idx % 3);
        p.diag = idx % 4 == 3 ? Diagonal::Unit : Diagonal::NonUnit;
        p.incx = incs[idx % 4];
        p.solve = true;
        p.check();
        p.solve = false;
        p.check();
        ++idx;
      }
    }
}

// Products in many slices, with one and four rows per work-item (tri_mv,
// tri_mv4): n = 300 (and 131, not a multiple of any NB) in slices of 64
// columns, every form, both layouts, transposed and conjugated, unit and
// not; A at an offset of 4 elements with lda (band: lda - 1) a multiple of
// 4 where the idx says so (tri_mv4's 4-wide loads in real types, rows
// ascending and, upper, descending); n = 1100 (17 slices, more than 4 per
// lane: the last group's unrolled sum). The type's pair above with the
// fewest lanes per row (SW and RV are not defines: the same program).
TYPED_TEST(BlasTri, ProductSlices) {
  using T = TypeParam;
  const std::int64_t wgs[] = {128, 64, 128, 64}, nb[] = {64, 32, 32, 16};
  for (std::int64_t rv : {1, 4}) {
    const detail::Params params{
        {"WGS", wgs[kTypeIndex<T>]}, {"NB", nb[kTypeIndex<T>]}, {"SW", 64}, {"RV", rv}, {"PERSIST", 0}};
    int idx = 0;
    for (Form form : {Form::Full, Form::Band, Form::Packed})
      for (BlasTranspose trans : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate})
        for (bool aligned : {false, true}) {
          Problem<T> p;
          p.forced = &params;
          const std::int64_t n = aligned ? 300 : idx % 2 ? 131 : 297, k = form == Form::Band ? 100 : n - 1;
          const std::int64_t lda = form == Form::Full ? (aligned ? n : n + 2) : k + 1;
          p.s = {form, aligned || idx % 2 == 0 ? Layout::ColMajor : Layout::RowMajor,
                 idx % 4 < 2 ? Triangle::Lower : Triangle::Upper, n, k, lda};
          p.aoff = aligned ? 4 : 3;
          p.trans = trans;
          p.diag = idx % 3 == 1 ? Diagonal::Unit : Diagonal::NonUnit;
          p.incx = idx % 2 ? -1 : 2;
          p.solve = false;
          p.check();
          ++idx;
        }
    for (Triangle uplo : {Triangle::Lower, Triangle::Upper}) {
      Problem<T> p;
      p.forced = &params;
      p.s = {Form::Full, Layout::ColMajor, uplo, 1100, 1099, 1100};
      p.aoff = 4;
      p.trans = BlasTranspose::No;
      p.diag = Diagonal::NonUnit;
      p.incx = -1;
      p.solve = false;
      p.check();
    }
  }
}

// One-launch solves with 1, 3 and 7 helper groups per panel streaming its
// rows (n = 300 and 131 over many panels, every form, both layouts and
// triangles, transposed and conjugated); the program of the type's first
// pair in SolveModesAndPanels.
TYPED_TEST(BlasTri, SolveHelpers) {
  using T = TypeParam;
  const std::int64_t wgs[] = {64, 256, 128, 64}, nb[] = {8, 16, 32, 16};
  int idx = 0;
  for (std::int64_t help : {1, 3, 7}) {
    const detail::Params params{{"WGS", wgs[kTypeIndex<T>]}, {"NB", nb[kTypeIndex<T>]}, {"SW", 0},
                                {"RV", 1},                   {"HELP", help},            {"PERSIST", 1}};
    for (Form form : {Form::Full, Form::Band, Form::Packed}) {
      Problem<T> p;
      p.forced = &params;
      const std::int64_t n = idx % 2 ? 131 : 300, k = form == Form::Band ? 40 + idx : n - 1;
      p.s = {form, idx % 2 ? Layout::RowMajor : Layout::ColMajor, idx % 4 < 2 ? Triangle::Lower : Triangle::Upper, n,
             k, form == Form::Full ? n + 1 : k + 1};
      p.trans = BlasTranspose(idx % 3);
      p.diag = idx % 5 == 2 ? Diagonal::Unit : Diagonal::NonUnit;
      p.incx = idx % 2 ? -2 : 1;
      p.solve = true;
      p.check();
      ++idx;
    }
  }
}

// n = 0 returns at once: nothing is read or written.
TYPED_TEST(BlasTri, Empty) {
  using T = TypeParam;
  const Queue& q = test::queue();
  Buffer<T> a = test::context().alloc<T>(1), x = test::context().alloc<T>(2);
  const std::vector<T> poison(2, nan_value<T>());
  q.upload(x, std::span<const T>(poison));
  EXPECT_FALSE(trsv(q, Layout::ColMajor, Triangle::Upper, BlasTranspose::No, Diagonal::NonUnit, 0, a, 1, x, 1).valid());
  EXPECT_FALSE(tbmv(q, Layout::RowMajor, Triangle::Lower, BlasTranspose::Yes, Diagonal::Unit, 0, 3, a, 4, x, -1).valid());
  EXPECT_FALSE(tpsv(q, Layout::ColMajor, Triangle::Lower, BlasTranspose::Conjugate, Diagonal::Unit, 0, a, x, 2).valid());
  const std::vector<T> got = q.download(x);
  EXPECT_TRUE(has_nan(got[0]) && has_nan(got[1]));
}

}  // namespace
