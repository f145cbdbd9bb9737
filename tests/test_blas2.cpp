// BLAS level 2, the general and symmetric / Hermitian routines
// (optune/blas2.hpp), against a long double reference written here, in s, d,
// c and z: odd and boundary sizes, increments of +-1 and +-2, both layouts,
// every transpose and triangle, every storage (dense, band, packed) with its
// addresses computed from the BLAS definitions (not the library's maps),
// beta = 0 with NaN in y, alpha = 0, and every element of every allocation
// checked: what a call must not read is NaN (the unreferenced triangle, the
// band's corners, the padding past each row or column) and what it must not
// write must stay NaN.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <type_traits>

#include "kernels/families.hpp"
#include "ops/blas2_ops.hpp"
#include "ops/blas_common.hpp"
#include "runtime/scratch.hpp"
#include "optune/blas2.hpp"
#include "support/blas_values.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

using namespace optune::test::blas;

template <class T> Ref<T> conj_ref(const Ref<T>& v) {
  if constexpr (kComplex<T>) return std::conj(v);
  else return v;
}

// A device allocation: `off` poisoned elements, then the view of `len`
// elements (poisoned until set), then two more poisoned ones; the host copy
// is the model of what the device must hold.
template <class T>
struct Store {
  std::size_t off, len;
  std::vector<T> host;
  Buffer<T> all, view;
  Store(std::size_t off_, std::size_t len_) : off(off_), len(len_), host(off_ + len_ + 2, nan_value<T>()) {}
  T& operator[](std::size_t k) { return host[off + k]; }
  void upload() {
    all = test::context().alloc<T>(host.size());
    test::queue().upload(all, std::span<const T>(host));
    view = all.view(off, len);
  }
  // Every element against the model: NaN where the model has NaN, else within
  // tol (1 + |model|).
  void expect(const char* what, LD tol) const {
    const std::vector<T> dev = test::queue().download(all);
    int bad = 0;
    for (std::size_t p = 0; p < dev.size() && bad < 5; ++p) {
      if (has_nan(host[p])) {
        if (!has_nan(dev[p])) ADD_FAILURE() << what << ": element " << p << " should be untouched (NaN)", ++bad;
        continue;
      }
      const LD err = std::abs(to_ref(dev[p]) - to_ref(host[p]));
      if (!(err <= tol * (1 + std::abs(to_ref(host[p]))))) {
        ADD_FAILURE() << what << ": element " << p << " is " << double(std::abs(to_ref(dev[p]))) << ", differs by "
                      << double(err) << " (tolerance " << double(tol) << ")";
        ++bad;
      }
    }
  }
};

// A vector of n with increment inc (element i at i inc, or (n - 1 - i) |inc|
// for inc < 0), random, in a Store at offset 2.
template <class T>
struct Vec : Store<T> {
  std::int64_t n, inc;
  Vec(std::int64_t n_, std::int64_t inc_, std::size_t off = 2)
      : Store<T>(off, n_ <= 0 ? 1 : std::size_t((n_ - 1) * std::abs(inc_) + 1)), n(n_), inc(inc_) {
    for (std::int64_t i = 0; i < n; ++i) el(i) = random_value<T>();
    this->upload();
  }
  T& el(std::int64_t i) { return (*this)[std::size_t(inc >= 0 ? i * inc : (n - 1 - i) * -inc)]; }
};

// Matrix storage, as the BLAS defines it.
enum class Kind { General, Band, Full, SymBand, Packed };
struct Storage {
  Kind kind = Kind::General;
  bool col = true, upper = true;
  std::int64_t m = 0, n = 0, kl = 0, ku = 0, lda = 0;  // SymBand: k in kl
  // Where stored element (r, c) lies, if it is stored.
  std::optional<std::size_t> addr(std::int64_t r, std::int64_t c) const {
    const auto z = [](std::int64_t v) { return std::optional<std::size_t>(std::size_t(v)); };
    switch (kind) {
      case Kind::General: return z(col ? r + c * lda : r * lda + c);
      case Kind::Band:
        if (c - r > ku || r - c > kl) return std::nullopt;
        return z(col ? ku + r - c + c * lda : kl + c - r + r * lda);
      case Kind::Full:
        if (upper ? r > c : r < c) return std::nullopt;
        return z(col ? r + c * lda : r * lda + c);
      case Kind::SymBand:
        if (upper ? (r > c || c - r > kl) : (r < c || r - c > kl)) return std::nullopt;
        if (col) return z(upper ? kl + r - c + c * lda : r - c + c * lda);
        return z(upper ? c - r + r * lda : kl + c - r + r * lda);
      case Kind::Packed:
        if (upper ? r > c : r < c) return std::nullopt;
        if (col) return z(upper ? r + c * (c + 1) / 2 : r + (2 * n - c - 1) * c / 2);
        return z(upper ? (c - r) + r * (2 * n - r + 1) / 2 : c + r * (r + 1) / 2);
    }
    return std::nullopt;
  }
  // Stored rows and columns (square but for General and Band).
  std::int64_t rows() const { return kind == Kind::General || kind == Kind::Band ? m : n; }
  // The elements the library requires (optune/blas2.hpp).
  std::size_t extent() const {
    if (kind == Kind::Packed) return std::size_t(n * (n + 1) / 2);
    if (rows() == 0 || n == 0) return 0;
    const std::int64_t outer = col ? n : rows();
    const std::int64_t inner =
        kind == Kind::Band ? kl + ku + 1 : kind == Kind::SymBand ? kl + 1 : col ? rows() : n;
    return std::size_t((outer - 1) * lda + inner);
  }
};

// A random matrix in its storage (NaN wherever nothing is stored), with the
// values it holds.
template <class T>
struct Mat : Store<T> {
  Storage s;
  Mat(const Storage& s_, std::size_t off = 3) : Store<T>(off, std::max<std::size_t>(s_.extent(), 1)), s(s_) {
    for (std::int64_t r = 0; r < s.rows(); ++r)
      for (std::int64_t c = 0; c < s.n; ++c)
        if (auto a = s.addr(r, c)) (*this)[*a] = random_value<T>();
    this->upload();
  }
  bool stored(std::int64_t r, std::int64_t c) const { return bool(s.addr(r, c)); }
  T& el(std::int64_t r, std::int64_t c) { return (*this)[*s.addr(r, c)]; }
  // The matrix's element: 0 outside a band; symmetric / Hermitian ones from
  // their stored triangle (Hermitian: the diagonal's real part).
  Ref<T> full(std::int64_t r, std::int64_t c, bool herm) {
    if (s.kind == Kind::General || s.kind == Kind::Band) return stored(r, c) ? to_ref(el(r, c)) : Ref<T>(0);
    Ref<T> v = 0;
    if (stored(r, c)) v = to_ref(el(r, c));
    else if (stored(c, r)) v = herm ? conj_ref<T>(to_ref(el(c, r))) : to_ref(el(c, r));
    if constexpr (kComplex<T>)
      if (herm && r == c) v = Ref<T>(v.real(), 0);
    return v;
  }
};

template <class T>
class Blas2 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::is_same_v<Real<T>, double> && !test::device().caps().fp64) GTEST_SKIP() << "no fp64";
  }
};

using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Blas2, Types);

// Increment pairs: both positive, mixed signs, both negative.
const std::int64_t kIncs[][2] = {{1, 1}, {-2, 2}, {2, -1}, {-1, -2}};

// Tolerance of a sum of k terms of about 1 (with alpha and beta).
template <class T> LD sum_tol(std::int64_t k) { return LD(4 * k + 16) * eps<T>(); }

// alpha, beta: random; beta 0 (y NaN before, unread); alpha 0; alpha 0 and
// beta 1 (nothing happens).
enum class Scalars { Random, BetaZero, AlphaZero, Identity };
const Scalars kScalars[] = {Scalars::Random, Scalars::BetaZero, Scalars::AlphaZero, Scalars::Identity};

template <class T>
std::pair<T, T> scalars(Scalars k) {
  T alpha = random_value<T>(), beta = random_value<T>();
  if (k == Scalars::BetaZero) beta = T(0);
  if (k == Scalars::AlphaZero || k == Scalars::Identity) alpha = T(0);
  if (k == Scalars::Identity) beta = T(1);
  return {alpha, beta};
}

// Runs one product: y = alpha M x + beta y, M rows x cols from `elem`, and
// checks y (and that A and x are untouched).
template <class T, class Elem, class Call>
void check_product(const char* what, Mat<T>& a, std::int64_t rows, std::int64_t cols, std::int64_t incx,
                   std::int64_t incy, Scalars k, Elem elem, Call call, std::size_t xoff = 2) {
  const auto [alpha, beta] = scalars<T>(k);
  Vec<T> x(cols, incx, xoff), y(rows, incy);
  if (k == Scalars::BetaZero) {
    for (std::int64_t i = 0; i < rows; ++i) y.el(i) = nan_value<T>();
    y.upload();
    for (std::int64_t i = 0; i < rows; ++i) y.el(i) = T(0);  // placeholder, written below
  }
  call(alpha, beta, x, y);
  const bool quick = rows == 0 || cols == 0 || (to_ref(alpha) == Ref<T>(0) && to_ref(beta) == Ref<T>(1));
  if (!quick) {
    for (std::int64_t i = 0; i < rows; ++i) {
      Ref<T> s = 0;
      if (to_ref(alpha) != Ref<T>(0))
        for (std::int64_t j = 0; j < cols; ++j) s += elem(i, j) * to_ref(x.el(j));
      Ref<T> v = to_ref(alpha) * s;
      if (k != Scalars::BetaZero) v += to_ref(beta) * to_ref(y.el(i));
      y.el(i) = from_ref<T>(v);
    }
  } else if (k == Scalars::BetaZero) {
    for (std::int64_t i = 0; i < rows; ++i) y.el(i) = nan_value<T>();
  }
  const std::string w(what);
  y.expect((w + " y").c_str(), sum_tol<T>(cols));
  x.expect((w + " x").c_str(), 0);
  a.expect((w + " a").c_str(), 0);
}

std::string label(bool col, const char* mode, std::int64_t m, std::int64_t n, const std::int64_t* inc, Scalars k) {
  return std::string(col ? "col-major " : "row-major ") + mode + " m=" + std::to_string(m) +
         " n=" + std::to_string(n) + " incx=" + std::to_string(inc[0]) + " incy=" + std::to_string(inc[1]) +
         " scalars=" + std::to_string(int(k));
}

// Sizes (m, n): empty, 1 x 1, odd and skinny ones, one wider than a group.
const std::int64_t kSizes[][2] = {{0, 3}, {3, 0}, {1, 1}, {7, 5}, {4, 9}, {37, 3}, {2, 301}};

const BlasTranspose kTrans[] = {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate};
const char* trans_name(BlasTranspose t) { return t == BlasTranspose::No ? "N" : t == BlasTranspose::Yes ? "T" : "C"; }

template <class T>
Ref<T> op_elem(Mat<T>& a, BlasTranspose t, std::int64_t i, std::int64_t j) {
  if (t == BlasTranspose::No) return a.full(i, j, false);
  const Ref<T> v = a.full(j, i, false);
  return t == BlasTranspose::Conjugate ? conj_ref<T>(v) : v;
}

}  // namespace

TYPED_TEST(Blas2, Gemv) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (bool col : {true, false})
    for (BlasTranspose t : kTrans)
      for (const auto& mn : kSizes)
        for (int c = 0; c < 4; ++c)
          for (Scalars k : kScalars) {
            if (c > 0 && (k == Scalars::AlphaZero || k == Scalars::Identity)) continue;
            const std::int64_t m = mn[0], n = mn[1];
            SCOPED_TRACE(label(col, trans_name(t), m, n, kIncs[c], k));
            Storage s;
            s.col = col;
            s.m = m;
            s.n = n;
            s.lda = std::max<std::int64_t>(1, col ? m : n) + (c % 2 ? 2 : 0);
            Mat<T> a(s);
            const std::int64_t rows = t == BlasTranspose::No ? m : n, cols = t == BlasTranspose::No ? n : m;
            check_product<T>(
                "gemv", a, rows, cols, kIncs[c][0], kIncs[c][1], k,
                [&](std::int64_t i, std::int64_t j) { return op_elem(a, t, i, j); },
                [&](T alpha, T beta, Vec<T>& x, Vec<T>& y) {
                  gemv<T>(q, col ? Layout::ColMajor : Layout::RowMajor, t, m, n, alpha, a.view, s.lda, x.view,
                          kIncs[c][0], beta, y.view, kIncs[c][1])
                      .wait();
                });
          }
}

TYPED_TEST(Blas2, Gbmv) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  const std::int64_t bands[][2] = {{0, 0}, {1, 2}, {3, 0}, {0, 5}};
  for (bool col : {true, false})
    for (BlasTranspose t : kTrans)
      for (const auto& mn : kSizes)
        for (int b = 0; b < 4; ++b)
          for (int c = 0; c < 4; ++c) {
            const Scalars k = kScalars[(b + c) % 2];
            const std::int64_t m = mn[0], n = mn[1], kl = bands[b][0], ku = bands[b][1];
            SCOPED_TRACE(label(col, trans_name(t), m, n, kIncs[c], k) + " kl=" + std::to_string(kl) +
                         " ku=" + std::to_string(ku));
            Storage s;
            s.kind = Kind::Band;
            s.col = col;
            s.m = m;
            s.n = n;
            s.kl = kl;
            s.ku = ku;
            s.lda = kl + ku + 1 + (c % 2);
            Mat<T> a(s);
            const std::int64_t rows = t == BlasTranspose::No ? m : n, cols = t == BlasTranspose::No ? n : m;
            check_product<T>(
                "gbmv", a, rows, cols, kIncs[c][0], kIncs[c][1], k,
                [&](std::int64_t i, std::int64_t j) { return op_elem(a, t, i, j); },
                [&](T alpha, T beta, Vec<T>& x, Vec<T>& y) {
                  gbmv<T>(q, col ? Layout::ColMajor : Layout::RowMajor, t, m, n, kl, ku, alpha, a.view, s.lda,
                          x.view, kIncs[c][0], beta, y.view, kIncs[c][1])
                      .wait();
                });
          }
}

// symv / hemv, sbmv / hbmv, spmv / hpmv.
TYPED_TEST(Blas2, SymmetricProducts) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  constexpr bool herm = kComplex<T>;
  const std::int64_t sizes[] = {0, 1, 6, 33, 130};
  for (bool col : {true, false})
    for (bool upper : {true, false})
      for (std::int64_t n : sizes)
        for (int c = 0; c < 4; ++c)
          for (Kind kind : {Kind::Full, Kind::SymBand, Kind::Packed}) {
            const Scalars k = kScalars[(c + int(kind)) % 3];
            const std::int64_t kb = kind == Kind::SymBand ? std::int64_t(c) * 2 % 5 : 0;
            SCOPED_TRACE(label(col, upper ? "upper" : "lower", n, n, kIncs[c], k) + " kind=" +
                         std::to_string(int(kind)) + " k=" + std::to_string(kb));
            Storage s;
            s.kind = kind;
            s.col = col;
            s.upper = upper;
            s.m = s.n = n;
            s.kl = kb;
            s.lda = (kind == Kind::SymBand ? kb + 1 : std::max<std::int64_t>(1, n)) + (c % 2 ? 1 : 0);
            Mat<T> a(s);
            const Layout lay = col ? Layout::ColMajor : Layout::RowMajor;
            const Triangle tri = upper ? Triangle::Upper : Triangle::Lower;
            const std::int64_t ix = kIncs[c][0], iy = kIncs[c][1];
            check_product<T>(
                "symmetric", a, n, n, ix, iy, k, [&](std::int64_t i, std::int64_t j) { return a.full(i, j, herm); },
                [&](T alpha, T beta, Vec<T>& x, Vec<T>& y) {
                  if constexpr (herm) {
                    if (kind == Kind::Full) hemv<T>(q, lay, tri, n, alpha, a.view, s.lda, x.view, ix, beta, y.view, iy).wait();
                    if (kind == Kind::SymBand)
                      hbmv<T>(q, lay, tri, n, kb, alpha, a.view, s.lda, x.view, ix, beta, y.view, iy).wait();
                    if (kind == Kind::Packed) hpmv<T>(q, lay, tri, n, alpha, a.view, x.view, ix, beta, y.view, iy).wait();
                  } else {
                    if (kind == Kind::Full) symv<T>(q, lay, tri, n, alpha, a.view, s.lda, x.view, ix, beta, y.view, iy).wait();
                    if (kind == Kind::SymBand)
                      sbmv<T>(q, lay, tri, n, kb, alpha, a.view, s.lda, x.view, ix, beta, y.view, iy).wait();
                    if (kind == Kind::Packed) spmv<T>(q, lay, tri, n, alpha, a.view, x.view, ix, beta, y.view, iy).wait();
                  }
                });
          }
}

// The reference's ger: A += alpha x y^T (gerc: y^H), a column where y_j is 0
// skipped (so an infinite or NaN x never reaches it).
template <class T>
void ger_reference(Mat<T>& a, T alpha, Vec<T>& x, Vec<T>& y, bool conj, std::int64_t m, std::int64_t n) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      if (to_ref(y.el(j)) == Ref<T>(0)) continue;
      const Ref<T> yj = conj ? conj_ref<T>(to_ref(y.el(j))) : to_ref(y.el(j));
      a.el(i, j) = from_ref<T>(to_ref(a.el(i, j)) + to_ref(alpha) * to_ref(x.el(i)) * yj);
    }
}

// ger / geru / gerc: A += alpha x y^T (y^H).
TYPED_TEST(Blas2, Ger) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  for (bool col : {true, false})
    for (bool conj : {false, true}) {
      if (conj && !kComplex<T>) continue;
      for (const auto& mn : kSizes)
        for (int c = 0; c < 4; ++c)
          for (bool zero_alpha : {false, true}) {
            if (zero_alpha && c > 0) continue;
            const std::int64_t m = mn[0], n = mn[1];
            SCOPED_TRACE(label(col, conj ? "gerc" : "ger", m, n, kIncs[c], Scalars::Random));
            Storage s;
            s.col = col;
            s.m = m;
            s.n = n;
            s.lda = std::max<std::int64_t>(1, col ? m : n) + (c % 2 ? 3 : 0);
            Mat<T> a(s);
            Vec<T> x(m, kIncs[c][0]), y(n, kIncs[c][1]);
            // A zero in y: the reference skips that column (NaN in x stays out).
            if (n > 1) {
              y.el(1) = T(0);
              y.upload();
            }
            const T alpha = zero_alpha ? T(0) : random_value<T>();
            const Layout lay = col ? Layout::ColMajor : Layout::RowMajor;
            if constexpr (kComplex<T>) {
              if (conj) gerc<T>(q, lay, m, n, alpha, x.view, kIncs[c][0], y.view, kIncs[c][1], a.view, s.lda).wait();
              else geru<T>(q, lay, m, n, alpha, x.view, kIncs[c][0], y.view, kIncs[c][1], a.view, s.lda).wait();
            } else {
              ger<T>(q, lay, m, n, alpha, x.view, kIncs[c][0], y.view, kIncs[c][1], a.view, s.lda).wait();
            }
            if (!zero_alpha) ger_reference(a, alpha, x, y, conj, m, n);
            a.expect("ger a", 8 * eps<T>());
            x.expect("ger x", 0);
            y.expect("ger y", 0);
          }
    }
}

// syr / spr / her / hpr and syr2 / spr2 / her2 / hpr2.
TYPED_TEST(Blas2, SymmetricUpdates) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  constexpr bool herm = kComplex<T>;
  const std::int64_t sizes[] = {0, 1, 6, 33};
  for (bool col : {true, false})
    for (bool upper : {true, false})
      for (std::int64_t n : sizes)
        for (int c = 0; c < 4; ++c)
          for (Kind kind : {Kind::Full, Kind::Packed})
            for (bool rank2 : {false, true}) {
              SCOPED_TRACE(label(col, upper ? "upper" : "lower", n, n, kIncs[c], Scalars::Random) + " kind=" +
                           std::to_string(int(kind)) + (rank2 ? " rank 2" : " rank 1"));
              Storage s;
              s.kind = kind;
              s.col = col;
              s.upper = upper;
              s.m = s.n = n;
              s.lda = std::max<std::int64_t>(1, n) + (c % 2 ? 2 : 0);
              Mat<T> a(s);
              Vec<T> x(n, kIncs[c][0]), y(n, kIncs[c][1]);
              if (n > 2) {  // x_1 = 0 (and y_1 = 0): the reference skips column 1
                x.el(1) = T(0);
                y.el(1) = T(0);
                x.upload();
                y.upload();
              }
              const Layout lay = col ? Layout::ColMajor : Layout::RowMajor;
              const Triangle tri = upper ? Triangle::Upper : Triangle::Lower;
              const std::int64_t ix = kIncs[c][0], iy = kIncs[c][1];
              T alpha = random_value<T>();
              if constexpr (herm)
                if (!rank2) alpha = T(alpha.real());
              const bool packed = kind == Kind::Packed;
              if constexpr (herm) {
                if (!rank2 && !packed) her<T>(q, lay, tri, n, alpha.real(), x.view, ix, a.view, s.lda).wait();
                if (!rank2 && packed) hpr<T>(q, lay, tri, n, alpha.real(), x.view, ix, a.view).wait();
                if (rank2 && !packed) her2<T>(q, lay, tri, n, alpha, x.view, ix, y.view, iy, a.view, s.lda).wait();
                if (rank2 && packed) hpr2<T>(q, lay, tri, n, alpha, x.view, ix, y.view, iy, a.view).wait();
              } else {
                if (!rank2 && !packed) syr<T>(q, lay, tri, n, alpha, x.view, ix, a.view, s.lda).wait();
                if (!rank2 && packed) spr<T>(q, lay, tri, n, alpha, x.view, ix, a.view).wait();
                if (rank2 && !packed) syr2<T>(q, lay, tri, n, alpha, x.view, ix, y.view, iy, a.view, s.lda).wait();
                if (rank2 && packed) spr2<T>(q, lay, tri, n, alpha, x.view, ix, y.view, iy, a.view).wait();
              }
              const Ref<T> al = to_ref(alpha);
              for (std::int64_t i = 0; i < n; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                  if (!a.stored(i, j)) continue;
                  const Ref<T> xi = to_ref(x.el(i)), xj = to_ref(x.el(j)), yi = to_ref(y.el(i)),
                               yj = to_ref(y.el(j));
                  Ref<T> v = to_ref(a.el(i, j));
                  if (rank2) v += al * xi * conj_ref<T>(yj) + conj_ref<T>(al) * yi * conj_ref<T>(xj);
                  else v += al * xi * conj_ref<T>(xj);
                  if constexpr (herm)
                    if (i == j) v = Ref<T>(v.real(), 0);
                  a.el(i, j) = from_ref<T>(v);
                }
              a.expect("update a", 16 * eps<T>());
              x.expect("update x", 0);
              y.expect("update y", 0);
            }
}

// The dense paths of gemv and ger (packs of VW along A's contiguous
// direction, the split's sums added by the last group or a second pass), with
// forced parameters: A's offset and leading dimension multiples of the pack
// (whole packs as one access) or not (lane by lane), rows and columns that
// leave partial packs, x aligned or not, several slices fused or not (one
// group size and pack width, so one program per type: PoCL compiles are slow;
// f64 runs packs of 2, complex types packs of 1).
namespace {
const optune::detail::Params kDenseParams[] = {
    {{"WGS", 64}, {"SB", 16}, {"TJ", 4}, {"CTJ", 2}, {"SLICES", 4}, {"FUSE", 1}, {"VW", 4}, {"RC", 8}},
    {{"WGS", 64}, {"SB", 16}, {"TJ", 8}, {"CTJ", 1}, {"SLICES", 2}, {"FUSE", 0}, {"VW", 4}, {"RC", 4}},
    {{"WGS", 64}, {"SB", 16}, {"TJ", 2}, {"CTJ", 4}, {"SLICES", 1}, {"FUSE", 1}, {"VW", 4}, {"RC", 1}},
};

template <class T>
optune::detail::Blas2Call dense_call(optune::detail::Blas2Routine r, bool col, BlasTranspose t, std::int64_t m,
                                     std::int64_t n, T alpha, T beta, const Buffer<T>& a, std::int64_t lda,
                                     const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy) {
  optune::detail::Blas2Call c;
  c.routine = r;
  c.layout = col ? Layout::ColMajor : Layout::RowMajor;
  c.trans = t;
  c.m = m;
  c.n = n;
  c.alpha = optune::detail::blas_as_complex(alpha);
  c.beta = optune::detail::blas_as_complex(beta);
  c.a = optune::detail::blas_vector(a);
  c.lda = lda;
  c.x = optune::detail::blas_vector(x);
  c.incx = incx;
  c.y = optune::detail::blas_vector(y);
  c.incy = incy;
  return c;
}
// One dense gemv through detail::run_blas2 under forced parameters, checked
// against the reference: A at offset aoff with leading dimension lda (at
// least its stored rows' length), x at xoff.
template <class T>
void check_dense_gemv(const Queue& q, const optune::detail::Params& fp, const char* what, bool col, BlasTranspose t,
                      std::int64_t m, std::int64_t n, const std::int64_t* inc, Scalars k, std::int64_t lda,
                      std::size_t aoff, std::size_t xoff) {
  Storage s;
  s.col = col;
  s.m = m;
  s.n = n;
  s.lda = lda;
  SCOPED_TRACE(label(col, trans_name(t), m, n, inc, k) + " lda=" + std::to_string(lda) +
               " offset=" + std::to_string(aoff));
  Mat<T> a(s, aoff);
  const std::int64_t rows = t == BlasTranspose::No ? m : n, cols = t == BlasTranspose::No ? n : m;
  check_product<T>(
      what, a, rows, cols, inc[0], inc[1], k, [&](std::int64_t i, std::int64_t j) { return op_elem(a, t, i, j); },
      [&](T alpha, T beta, Vec<T>& x, Vec<T>& y) {
        optune::detail::run_blas2(q,
                                  dense_call<T>(optune::detail::Blas2Routine::Gemv, col, t, m, n, alpha, beta, a.view,
                                                lda, x.view, inc[0], y.view, inc[1]),
                                  {}, &fp)
            .wait();
      },
      xoff);
}
}  // namespace

TYPED_TEST(Blas2, DenseGemvPacks) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  const std::int64_t sizes[][2] = {{8, 37}, {13, 16}, {5, 130}, {70, 9}};
  int round = 0, set = 0;
  for (const auto& base : kDenseParams) {
    // Complex elements as pairs of reals (OpenCL, blas2_gemv_r_pairs and
    // blas2_gemv_c_pairs): CPAIRS 4, 1 and 0 (the complex loops), one
    // parameter set each.
    optune::detail::Params fp = base;
    const std::int64_t pairs_of[] = {4, 1, 0};  // 4: c64 runs 2 (fit's 32-byte pack)
    fp["CPAIRS"] = kComplex<T> ? pairs_of[set++] : 0;
    for (bool col : {true, false})
      for (BlasTranspose t : kTrans)
        for (const auto& mn : sizes)
          for (int v = 0; v < 2; ++v) {
            if (t == BlasTranspose::Conjugate && !kComplex<T>) continue;
            ++round;
            const std::int64_t m = mn[0], n = mn[1];
            const std::int64_t* inc = kIncs[v == 0 ? 0 : 1 + round % 3];
            const Scalars k = round % 3 == 1 ? Scalars::BetaZero : Scalars::Random;
            // v 0: A and x at offset 0, lda a multiple of 4; v 1: offset 1, lda odd.
            const std::size_t aoff = v == 0 ? 0 : 1, xoff = v == 0 ? 0 : 1;
            const std::int64_t least = col ? m : n;
            std::int64_t lda = v == 0 ? (least + 3) / 4 * 4 : least | 1;
            if (lda < least) lda += 2;
            SCOPED_TRACE("SLICES=" + std::to_string(fp.at("SLICES")) + " FUSE=" + std::to_string(fp.at("FUSE")) +
                         " CPAIRS=" + std::to_string(fp.at("CPAIRS")));
            check_dense_gemv<T>(q, fp, "dense gemv", col, t, m, n, inc, k, lda, aoff, xoff);
          }
  }
}

// Dense gemv's fused split counts its row blocks' arrivals in the queue's
// ticket slot, which is filled with zeros only when allocated: the last group
// of each row block sets its counter back to 0. Calls in a row on a fresh
// queue (more row blocks, fewer, either layout, a split of 2, 4 and 7) are
// each right, and leave the slot zero.
TYPED_TEST(Blas2, DenseGemvFusedSplitLeavesTheTicketsZero) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue q(test::context());
  const std::int64_t inc[2] = {1, 1};
  int i = 0;
  for (std::int64_t slices : {4, 2, 7})
    for (const auto& mn : {std::array<std::int64_t, 2>{300, 90}, {45, 64}, {129, 33}})
      for (bool col : {true, false}) {
        optune::detail::Params fp = kDenseParams[0];
        fp["SLICES"] = slices;
        const std::int64_t m = mn[0], n = mn[1], lda = col ? m : n;
        SCOPED_TRACE("SLICES=" + std::to_string(slices));
        check_dense_gemv<T>(q, fp, "fused dense gemv", col, BlasTranspose::No, m, n, inc,
                            ++i % 2 ? Scalars::Random : Scalars::BetaZero, lda, 0, 0);
        std::array<std::size_t, optune::detail::kScratchSlots> bytes{};
        bytes[optune::detail::kTicketSlot] = 4;
        const std::shared_ptr<optune::detail::MemImpl> mem = optune::detail::lease_scratch(q, bytes).slot[optune::detail::kTicketSlot];
        ASSERT_TRUE(mem);
        const Buffer<std::uint32_t> tickets(mem, 0, 64);  // the slot holds at least 256 bytes
        for (std::uint32_t w : q.download(tickets)) ASSERT_EQ(w, 0u);
      }
}

// Dense real gemv run as a GEMM whose N is 1 (the blas2 parameter GEMM;
// ops/blas2.cpp's gemv_as_gemm) under GEMM 62, which routes every dense
// f32 / f64 gemv with positive increments there: both layouts, both
// transposes, A at an odd offset with an odd leading dimension or aligned,
// increments 1 and 2 (the negative ones keep the packs), beta 0 over NaN.
TYPED_TEST(Blas2, DenseGemvAsGemm) {
  using T = TypeParam;
  if constexpr (kComplex<T>) GTEST_SKIP() << "the GEMM route takes real types only";
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  optune::detail::Params fp = kDenseParams[0];
  fp["GEMM"] = 62;
  const std::int64_t sizes[][2] = {{8, 37}, {13, 16}, {1, 130}, {70, 1}, {33, 5}};
  const std::int64_t incs[][2] = {{1, 1}, {2, 1}, {1, 3}, {-1, 2}};
  int round = 0;
  for (bool col : {true, false})
    for (BlasTranspose t : {BlasTranspose::No, BlasTranspose::Yes})
      for (const auto& mn : sizes)
        for (const auto& inc : incs) {
          ++round;
          const std::int64_t m = mn[0], n = mn[1];
          const Scalars k = round % 3 == 1 ? Scalars::BetaZero : Scalars::Random;
          const std::size_t aoff = round % 2, xoff = round % 2;
          const std::int64_t least = col ? m : n;
          std::int64_t lda = round % 2 ? least | 1 : (least + 3) / 4 * 4;
          if (lda < least) lda += 2;
          check_dense_gemv<T>(q, fp, "gemv as gemm", col, t, m, n, inc, k, lda, aoff, xoff);
        }
}

// Which problems the GEMM parameter takes, and that fit keeps it only there
// (elsewhere every value is the program of GEMM 0). check accepts it
// everywhere: the database checks an entry against each call, and an entry's
// threshold must not keep it from the calls above it.
TEST(Blas2Gemm, RouteTakesDenseRealGemvUpToItsSize) {
  using optune::detail::Blas2Family;
  using optune::detail::Blas2Problem;
  using optune::detail::Blas2Routine;
  const Blas2Family& fam = optune::detail::families::blas2();
  const optune::Capabilities& caps = test::queue().device().caps();
  optune::detail::Params p = fam.defaults(caps);
  p["GEMM"] = 24;
  Blas2Problem pr;
  pr.dtype = DType::F32;
  pr.routine = Blas2Routine::Gemv;
  pr.dense = true;
  pr.rows = 4096;
  pr.cols = 4096;  // 2^24 elements: taken
  EXPECT_TRUE(Blas2Family::as_gemm(p, pr));
  EXPECT_EQ(fam.fit(p, caps, pr).at("GEMM"), 24);
  EXPECT_EQ(fam.check(p, caps, pr), "");
  pr.cols = 4097;  // one column more: not taken
  EXPECT_FALSE(Blas2Family::as_gemm(p, pr));
  EXPECT_EQ(fam.fit(p, caps, pr).at("GEMM"), 0);
  EXPECT_EQ(fam.check(p, caps, pr), "");
  pr.cols = 4096;
  for (DType t : {DType::C32, DType::C64, DType::F16}) {
    pr.dtype = t;
    EXPECT_FALSE(Blas2Family::as_gemm(p, pr)) << dtype_name(t);
  }
  pr.dtype = DType::F64;
  EXPECT_TRUE(Blas2Family::as_gemm(p, pr));
  pr.routine = Blas2Routine::Ger;  // dense too, but no product
  EXPECT_FALSE(Blas2Family::as_gemm(p, pr));
  pr.routine = Blas2Routine::Gemv;
  pr.dense = false;  // alpha 0, or f16: the generic kernel
  EXPECT_FALSE(Blas2Family::as_gemm(p, pr));
  p["GEMM"] = 0;
  pr.dense = true;
  EXPECT_FALSE(Blas2Family::as_gemm(p, pr));
}

// ger through blas2_ger (geru / gerc: on OpenCL through blas2_ger_pairs
// with CPAIRS 1 and 2, blas2_rank with 0; on CUDA blas2_ger's VW 1 loop;
// ops/blas2.cpp): y zero at every third column (the
// reference skips it, so NaN in A there stays and nothing is written), and a
// call with y all zero and an infinite x, which must leave A bit for bit.
TYPED_TEST(Blas2, DenseGerPacks) {
  using T = TypeParam;
  SCOPED_TRACE(test::seed());
  const Queue& q = test::queue();
  using optune::detail::Blas2Routine;
  const std::int64_t sizes[][2] = {{8, 37}, {13, 6}, {5, 30}, {70, 9}};
  int round = 0;
  for (const auto& base : kDenseParams)
    for (std::int64_t pairs : {0, 1, 2, 4}) {
      if (pairs && !kComplex<T>) continue;
      optune::detail::Params fp = base;
      fp["CPAIRS"] = pairs;
    for (bool col : {true, false})
      for (bool conj : {false, true})
        for (const auto& mn : sizes)
          for (int v = 0; v < 3; ++v) {
            if (conj && !kComplex<T>) continue;
            ++round;
            const std::int64_t m = mn[0], n = mn[1];
            const std::int64_t* inc = kIncs[v == 0 ? 0 : 1 + round % 3];
            const std::size_t aoff = v == 1 ? 1 : 0;
            Storage s;
            s.col = col;
            s.m = m;
            s.n = n;
            const std::int64_t least = col ? m : n;
            s.lda = v == 1 ? least | 1 : (least + 3) / 4 * 4;
            if (s.lda < least) s.lda += 2;
            SCOPED_TRACE(label(col, conj ? "gerc" : "ger", m, n, inc, Scalars::Random) + " lda=" +
                         std::to_string(s.lda) + " offset=" + std::to_string(aoff) + " RC=" +
                         std::to_string(fp.at("RC")) + " VW=" + std::to_string(fp.at("VW")) + " CPAIRS=" +
                         std::to_string(pairs) + " v=" + std::to_string(v));
            Mat<T> a(s, aoff);
            Vec<T> x(m, inc[0], v == 1 ? 1 : 0), y(n, inc[1]);
            const bool all_zero = v == 2;  // y all zero, x infinite: nothing may change
            for (std::int64_t j = 0; j < n; ++j)
              if (all_zero || j % 3 == 1) y.el(j) = T(0);
            if (all_zero) x.el(m / 2) = T(std::numeric_limits<Real<T>>::infinity());
            // A NaN where a skipped column crosses a row: it must stay NaN.
            if (n > 1 && m > 0) a.el(m - 1, 1) = nan_value<T>();
            x.upload();
            y.upload();
            a.upload();
            const T alpha = random_value<T>();
            const Blas2Routine r = !kComplex<T> ? Blas2Routine::Ger : conj ? Blas2Routine::Gerc : Blas2Routine::Geru;
            optune::detail::run_blas2(q,
                                      dense_call<T>(r, col, BlasTranspose::No, m, n, alpha, T(0), a.view, s.lda,
                                                    x.view, inc[0], y.view, inc[1]),
                                      {}, &fp)
                .wait();
            ger_reference(a, alpha, x, y, conj, m, n);
            a.expect("dense ger a", all_zero ? 0 : 8 * eps<T>());
            if (!all_zero) x.expect("dense ger x", 0);
            y.expect("dense ger y", 0);
          }
    }
}

// symv / hemv in dense storage under forced blas2 parameters: both layouts
// and triangles, increments of either sign, beta 0 over NaN, sizes `sizes`.
template <typename T>
void check_symv_forced(const optune::detail::Params& fp, std::initializer_list<std::int64_t> sizes,
                       const char* what) {
  const Queue& q = test::queue();
  constexpr bool herm = kComplex<T>;
  int round = 0;
  for (bool col : {true, false})
    for (bool upper : {true, false})
      for (std::int64_t n : sizes) {
        ++round;
        const std::int64_t* inc = kIncs[round % 4];
        const Scalars k = round % 3 == 1 ? Scalars::BetaZero : Scalars::Random;
        SCOPED_TRACE(label(col, upper ? "upper" : "lower", n, n, inc, k));
        Storage s;
        s.kind = Kind::Full;
        s.col = col;
        s.upper = upper;
        s.m = s.n = n;
        // lda n and n + 1 for every size, offsets 3 and 4 (f32 and f64
        // blocks: packs in rounds 2 and 8, and not in 4 and 6)
        s.lda = n + (round + round / 4) % 2;
        Mat<T> a(s, round % 3 == 0 ? 3 : 4);
        check_product<T>(
            what, a, n, n, inc[0], inc[1], k, [&](std::int64_t i, std::int64_t j) { return a.full(i, j, herm); },
            [&](T alpha, T beta, Vec<T>& x, Vec<T>& y) {
              optune::detail::Blas2Call c = dense_call<T>(
                  herm ? optune::detail::Blas2Routine::Hemv : optune::detail::Blas2Routine::Symv, col,
                  BlasTranspose::No, 0, n, alpha, beta, a.view, s.lda, x.view, inc[0], y.view, inc[1]);
              c.uplo = upper ? Triangle::Upper : Triangle::Lower;
              optune::detail::run_blas2(q, c, {}, &fp).wait();
            });
      }
}

// By column strips (blas2_symv_strips): 16-wide strips, chunks of 256 rows
// (n = 300 gives strips of two chunks).
TYPED_TEST(Blas2, SymvStrips) {
  SCOPED_TRACE(test::seed());
  check_symv_forced<TypeParam>({{"WGS", 64}, {"SB", 16}, {"STRIP", 256}, {"VW", 4}}, {1, 6, 33, 300},
                               "symv strips");
}

// By walks (blas2_symv_walk, real types; the others fall back to the
// blocks): chunks of 2 tiles of 16 (n = 100: 7 block columns, the lower
// ones' diagonal in their first chunk, the upper ones' in their last, and a
// last chunk of one tile), 4 of 32 (n = 131: an edge tile past n) and 32 (one
// chunk per column); one and four slow indices per work-item. n = 300 gives
// blas2_mv_final 19 slices at SB 16 (its loop of 8 loads per lane, then the rest).
TYPED_TEST(Blas2, SymvWalks) {
  SCOPED_TRACE(test::seed());
  for (const auto& [sb, walk] : {std::pair<std::int64_t, std::int64_t>{16, 2}, {32, 4}, {32, 32}}) {
    SCOPED_TRACE("SB " + std::to_string(sb) + " WALK " + std::to_string(walk));
    const optune::detail::Params fp{{"WGS", 64}, {"SB", sb}, {"STRIP", 0}, {"VW", 4}, {"WALK", walk}};
    optune::detail::Blas2Problem pr;
    pr.dtype = kComplex<TypeParam> ? (std::is_same_v<Real<TypeParam>, float> ? optune::DType::C32 : optune::DType::C64)
                                   : (std::is_same_v<TypeParam, float> ? optune::DType::F32 : optune::DType::F64);
    pr.routine = optune::detail::Blas2Routine::Symv;
    pr.blocked = true;
    pr.rows = pr.cols = 100;
    const auto& fam = optune::detail::families::blas2();
    EXPECT_EQ(fam.walks(fam.fit(fp, test::device().caps(), pr), pr),
              pr.dtype == optune::DType::F32 || pr.dtype == optune::DType::F64);
    check_symv_forced<TypeParam>(fp, {5, 100, 131, 300}, "symv walks");
  }
}

// By blocks (blas2_symv_blocks): whole off-diagonal blocks go through the
// register path (WGS <= SB^2 / 4: one slow index per work-item at SB 16,
// four at SB 32), the edge and diagonal blocks through the local copy; n =
// 100 has whole blocks, edges and diagonals. The first set's program is the
// strips test's (STRIP is not a define).
TYPED_TEST(Blas2, SymvBlocks) {
  SCOPED_TRACE(test::seed());
  for (std::int64_t sb : {16, 32}) {
    SCOPED_TRACE("SB " + std::to_string(sb));
    check_symv_forced<TypeParam>({{"WGS", 64}, {"SB", sb}, {"STRIP", 0}, {"VW", 4}}, {5, 100}, "symv blocks");
  }
}
