// BLAS level 3 rank-k and triangular routines in c32 and c64
// (optune/blas3_complex.hpp): csyrk, csyr2k, cherk, cher2k, ctrmm, ctrsm and
// batched ctrsm against a complex long double reference written here. Every
// layout, triangle, side, transpose (each routine's allowed ones) and
// diagonal; sizes that cross the diagonal block (NB forced to 16, so 37 and
// 40 take the recursion with a partial last block); complex alpha and beta
// (real where herk and her2k take them real); beta = 0 over NaN. Elements a
// call must not read or write (gaps, the other triangle, a unit diagonal)
// are NaN before the call and must stay NaN without reaching a result; herk
// and her2k must leave the diagonal's imaginary parts exactly 0 while C's
// diagonal comes in with non-zero ones.
#include <cmath>
#include <complex>
#include <cstdlib>
#include <limits>
#include <random>

#include "ops/blas3_ops.hpp"
#include "support/blas3_mats.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

[[maybe_unused]] const int kParams = setenv("OPTUNE_PARAMS", "blas3:NB=16", 1);

using LD = long double;
using ZL = std::complex<LD>;
using Zd = std::complex<double>;

template <class Z> Z cnan() { return test::blas::nan_value<Z>(); }
using test::blas::eps;
using test::blas::has_nan;
using test::blas::Mat;
using test::blas::name;

double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(test::rng()); }
Zd random_z(double scale = 1) { return {scale * uniform(-1, 1), scale * uniform(-1, 1)}; }

// got against the model: NaN where the model has NaN, else |got - want| <=
// tol[i]; where exact_imag0[i], the imaginary part must be exactly 0.
template <class Z>
void expect_matches(const std::vector<Z>& got, const std::vector<Z>& want, const std::vector<LD>& tol,
                    const std::vector<bool>& real_only, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  int bad = 0;
  for (std::size_t i = 0; i < got.size() && bad < 5; ++i) {
    bool ok = has_nan(want[i]) ? has_nan(got[i]) : !has_nan(got[i]) && std::abs(ZL(got[i]) - ZL(want[i])) <= tol[i];
    if (ok && !real_only.empty() && real_only[i]) ok = got[i].imag() == 0;
    if (!ok) {
      ++bad;
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected " << want[i] << " (tol "
                    << double(tol[i]) << ")";
    }
  }
}

// Equal element by element, NaN matching NaN (the untouched gaps).
template <class Z>
bool same(const std::vector<Z>& x, const std::vector<Z>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (has_nan(x[i]) ? !has_nan(y[i]) : x[i] != y[i]) return false;
  return true;
}

std::string text(Zd v) { return "(" + std::to_string(v.real()) + "," + std::to_string(v.imag()) + ")"; }

using R3 = optune::detail::Blas3Routine;

// ---- syrk, syr2k, herk, her2k ---------------------------------------------

template <class Z>
void check_rank_k(R3 r, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k, Zd alpha,
                  Zd beta) {
  const bool herm = r == R3::Herk || r == R3::Her2k, two = r == R3::Syr2k || r == R3::Her2k;
  const std::string what = std::string(optune::detail::blas3_routine_name(r)) + " " + name(layout) + " " +
                           name(uplo) + " " + name(trans) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                           " alpha=" + text(alpha) + " beta=" + text(beta);
  SCOPED_TRACE(what);
  const bool t = trans != BlasTranspose::No;
  Mat<Z> a(layout, t ? k : n, t ? n : k), b(layout, t ? k : n, t ? n : k, 5), c(layout, n, n, 1);
  const bool upper = uplo == Triangle::Upper;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      if ((upper ? j < i : j > i) || beta == Zd(0)) c.el(i, j) = cnan<Z>();
  a.upload();
  b.upload();
  c.upload();
  std::vector<Z> want = c.host;
  std::vector<LD> tol(c.host.size(), 0);
  std::vector<bool> real_only(c.host.size(), false);
  // op(X)(i, l): X, X^T, or (herm, 'C') X^H.
  const auto p = [&](const Mat<Z>& m, std::int64_t i, std::int64_t l) {
    if (!t) return m.ref(i, l);
    return herm ? std::conj(m.ref(l, i)) : m.ref(l, i);
  };
  // The second factor: op(Y)(j, l), conjugated for herk and her2k.
  const auto q = [&](const Mat<Z>& m, std::int64_t j, std::int64_t l) { return herm ? std::conj(p(m, j, l)) : p(m, j, l); };
  const ZL al(alpha), al2 = herm ? std::conj(al) : al, be(beta);
  const bool nothing = n == 0 || ((alpha == Zd(0) || k == 0) && beta == Zd(1));
  for (std::int64_t i = 0; i < n && !nothing; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      if (upper ? j < i : j > i) continue;
      ZL s = 0;
      LD mag = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        if (two) {
          s += al * p(a, i, l) * q(b, j, l) + al2 * p(b, i, l) * q(a, j, l);
          mag += std::abs(al * p(a, i, l) * q(b, j, l)) + std::abs(al2 * p(b, i, l) * q(a, j, l));
        } else {
          s += al * p(a, i, l) * q(a, j, l);
          mag += std::abs(al * p(a, i, l) * q(a, j, l));
        }
      }
      const std::size_t at = c.index(i, j);
      if (beta != Zd(0)) {
        ZL old = c.ref(i, j);
        if (herm && i == j) old = ZL(old.real(), 0);
        s += be * old;
        mag += std::abs(be * old);
      }
      if (herm && i == j) s = ZL(s.real(), 0), real_only[at] = true;
      want[at] = Z(s);
      tol[at] = eps<Z>() * LD(4 * k + 8) * (mag + 1e-30L);
    }
  const Queue& qu = test::queue();
  using std::int64_t;
  switch (r) {
    case R3::Syrk: syrk(qu, layout, uplo, trans, n, k, alpha, a.view, a.ld, beta, c.view, c.ld).wait(); break;
    case R3::Syr2k:
      syr2k(qu, layout, uplo, trans, n, k, alpha, a.view, a.ld, b.view, b.ld, beta, c.view, c.ld).wait();
      break;
    case R3::Herk:
      herk(qu, layout, uplo, trans, n, k, alpha.real(), a.view, a.ld, beta.real(), c.view, c.ld).wait();
      break;
    default: her2k(qu, layout, uplo, trans, n, k, alpha, a.view, a.ld, b.view, b.ld, beta.real(), c.view, c.ld).wait();
  }
  expect_matches(qu.download(c.all), want, tol, real_only, what);
}

template <class Z>
void rank_k_all(R3 r) {
  const bool herm = r == R3::Herk || r == R3::Her2k;
  // Complex scalars where the routine takes them (herk: both real; her2k:
  // beta real).
  const Zd alpha = r == R3::Herk ? Zd(0.75, 0) : Zd(0.75, -0.5);
  const Zd beta = herm ? Zd(-0.5, 0) : Zd(-0.5, 0.25);
  const BlasTranspose other = herm ? BlasTranspose::Conjugate : BlasTranspose::Yes;
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
      for (BlasTranspose trans : {BlasTranspose::No, other}) {
        check_rank_k<Z>(r, layout, uplo, trans, 37, 5, alpha, beta);
        check_rank_k<Z>(r, layout, uplo, trans, 16, 3, -alpha, 0.0);  // one full block; beta 0 over NaN
      }
  check_rank_k<Z>(r, Layout::ColMajor, Triangle::Lower, BlasTranspose::No, 17, 4, alpha, 1.0);  // beta 1
  // Several off-diagonal blocks in one listed GEMM, and a partial last block.
  check_rank_k<Z>(r, Layout::ColMajor, Triangle::Upper, other, 70, 3, alpha, beta);
  check_rank_k<Z>(r, Layout::RowMajor, Triangle::Lower, BlasTranspose::No, 64, 2, alpha, 0.0);
  check_rank_k<Z>(r, Layout::RowMajor, Triangle::Lower, BlasTranspose::No, 21, 6, 0.0, beta);   // alpha 0
  check_rank_k<Z>(r, Layout::RowMajor, Triangle::Upper, BlasTranspose::No, 21, 6, 0.0, 0.0);    // zeros, no read
  check_rank_k<Z>(r, Layout::ColMajor, Triangle::Upper, other, 19, 0, alpha, beta);              // k 0
  check_rank_k<Z>(r, Layout::ColMajor, Triangle::Lower, BlasTranspose::No, 19, 0, alpha, 1.0);  // nothing at all
  check_rank_k<Z>(r, Layout::RowMajor, Triangle::Lower, BlasTranspose::No, 0, 5, alpha, 0.0);   // n 0
}

// ---- trmm / trsm -----------------------------------------------------------

// A's stored triangle well conditioned (off-diagonal entries within 1 / na,
// a non-unit diagonal of modulus in [1, 2]); the other triangle NaN, and a
// unit diagonal NaN: neither may be read.
template <class Z>
Mat<Z> triangle(Layout layout, Triangle uplo, Diagonal diag, std::int64_t na) {
  Mat<Z> a(layout, na, na, 2);
  const bool upper = uplo == Triangle::Upper;
  for (std::int64_t i = 0; i < na; ++i)
    for (std::int64_t j = 0; j < na; ++j) {
      if (i == j) a.el(i, j) = diag == Diagonal::Unit ? cnan<Z>() : Z(std::polar(uniform(1, 2), uniform(0, 6.28)));
      else if (upper ? j < i : j > i) a.el(i, j) = cnan<Z>();
      else a.el(i, j) = Z(random_z(1.0 / double(na)));
    }
  return a;
}

// op(A)(i, j) as the reference reads it.
template <class Z>
ZL op_a(const Mat<Z>& a, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t i, std::int64_t j) {
  if (trans != BlasTranspose::No) std::swap(i, j);
  ZL v;
  if (i == j) v = diag == Diagonal::Unit ? ZL(1) : a.ref(i, i);
  else v = (uplo == Triangle::Upper ? j > i : j < i) ? a.ref(i, j) : ZL(0);
  return trans == BlasTranspose::Conjugate ? std::conj(v) : v;
}

template <class Z>
void check_tri(bool solve, Layout layout, Side side, Triangle uplo, BlasTranspose trans, Diagonal diag,
               std::int64_t m, std::int64_t n, Zd alpha, std::int64_t batch = 0) {
  const std::string what = std::string(solve ? "trsm " : "trmm ") + name(layout) + " " + name(side) + " " +
                           name(uplo) + " " + name(trans) + " " + name(diag) + " m=" + std::to_string(m) +
                           " n=" + std::to_string(n) + " alpha=" + text(alpha) +
                           (batch ? " batch=" + std::to_string(batch) : "");
  SCOPED_TRACE(what);
  const bool left = side == Side::Left;
  const std::int64_t na = left ? m : n, systems = std::max<std::int64_t>(batch, 1);
  std::vector<Mat<Z>> as, bs;
  for (std::int64_t s = 0; s < systems; ++s) {
    as.push_back(triangle<Z>(layout, uplo, diag, na));
    bs.emplace_back(layout, m, n, 4);
    if (alpha == Zd(0))  // B is not read
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) bs.back().el(i, j) = cnan<Z>();
  }
  Buffer<Z> a_all, b_all;
  std::int64_t sa = 0, sb = 0;
  test::blas::pack_systems(as, a_all, sa);
  std::vector<Z> want = test::blas::pack_systems(bs, b_all, sb);
  std::vector<LD> tol(want.size(), 0);
  const ZL al(alpha);
  for (std::int64_t s = 0; s < systems; ++s) {
    const Mat<Z>& a = as[std::size_t(s)];
    const Mat<Z>& bm = bs[std::size_t(s)];
    // T' x = alpha b for each vector (left: columns of B, T' = op(A); right:
    // rows of B, T' = op(A)^T).
    const auto tp = [&](std::int64_t i, std::int64_t j) {
      return left ? op_a(a, uplo, trans, diag, i, j) : op_a(a, uplo, trans, diag, j, i);
    };
    bool upper = (uplo == Triangle::Upper) != (trans != BlasTranspose::No);
    if (!left) upper = !upper;
    for (std::int64_t v = 0; v < (left ? n : m); ++v) {
      const auto put = [&](std::int64_t i, ZL x, LD t) {
        const std::size_t at = std::size_t(s * sb) + (left ? bm.index(i, v) : bm.index(v, i));
        want[at] = Z(x);
        tol[at] = t;
      };
      const auto bel = [&](std::int64_t i) { return left ? bm.ref(i, v) : bm.ref(v, i); };
      if (alpha == Zd(0)) {
        for (std::int64_t i = 0; i < na; ++i) put(i, 0, 0);
        continue;
      }
      std::vector<ZL> x(static_cast<std::size_t>(na));
      if (!solve) {
        for (std::int64_t i = 0; i < na; ++i) {
          ZL sum = 0;
          LD mag = 0;
          for (std::int64_t j = 0; j < na; ++j) {
            if (upper ? j < i : j > i) continue;
            sum += tp(i, j) * bel(j);
            mag += std::abs(tp(i, j) * bel(j));
          }
          put(i, al * sum, eps<Z>() * LD(8 * na + 16) * (std::abs(al) * mag + 1e-30L));
        }
      } else {
        LD big = 0;
        for (std::int64_t step = 0; step < na; ++step) {
          const std::int64_t i = upper ? na - 1 - step : step;
          ZL sum = al * bel(i);
          for (std::int64_t j = 0; j < na; ++j)
            if (j != i && (upper ? j > i : j < i)) sum -= tp(i, j) * x[std::size_t(j)];
          x[std::size_t(i)] = sum / tp(i, i);
          big = std::max(big, std::abs(x[std::size_t(i)]));
        }
        for (std::int64_t i = 0; i < na; ++i)
          put(i, x[std::size_t(i)], eps<Z>() * LD(8 * na + 16) * (4 * big + std::abs(al) + 1e-30L));
      }
    }
  }
  const Buffer<Z> av = a_all.view(as[0].off, a_all.size() - as[0].off);
  const Buffer<Z> bv = b_all.view(bs[0].off, b_all.size() - bs[0].off);
  const Queue& q = test::queue();
  if (batch)
    trsm_strided_batched(q, layout, side, uplo, trans, diag, m, n, alpha, av, as[0].ld, sa, bv, bs[0].ld, sb, batch)
        .wait();
  else if (solve)
    trsm(q, layout, side, uplo, trans, diag, m, n, alpha, av, as[0].ld, bv, bs[0].ld).wait();
  else
    trmm(q, layout, side, uplo, trans, diag, m, n, alpha, av, as[0].ld, bv, bs[0].ld).wait();
  expect_matches(q.download(b_all), want, tol, {}, what);
}

template <class Z>
void tri_all(bool solve) {
  const Zd alpha(-0.75, 0.5);
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Side side : {Side::Left, Side::Right})
      for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
        for (BlasTranspose trans : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate})
          for (Diagonal diag : {Diagonal::NonUnit, Diagonal::Unit}) {
            // The triangle's order 40 (three blocks, two levels) on the side.
            const bool left = side == Side::Left;
            check_tri<Z>(solve, layout, side, uplo, trans, diag, left ? 40 : 3, left ? 3 : 40, alpha);
          }
  for (std::int64_t na : {1, 16, 17})
    check_tri<Z>(solve, Layout::ColMajor, Side::Left, Triangle::Lower, BlasTranspose::Conjugate, Diagonal::NonUnit,
                 na, 3, Zd(1.5, 0));
  // Levels of several nodes (trmm's listed GEMMs), conjugated.
  for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
    check_tri<Z>(solve, Layout::RowMajor, Side::Left, uplo, BlasTranspose::Conjugate, Diagonal::NonUnit, 100, 2,
                 alpha);
  check_tri<Z>(solve, Layout::RowMajor, Side::Right, Triangle::Upper, BlasTranspose::Yes, Diagonal::NonUnit, 7, 19,
               0.0);  // alpha 0: zeros over NaN
  check_tri<Z>(solve, Layout::RowMajor, Side::Left, Triangle::Upper, BlasTranspose::No, Diagonal::Unit, 0, 4, alpha);
}

bool fp64() { return test::device().caps().fp64; }

}  // namespace

TEST(Blas3Complex, SyrkSyr2k) {
  rank_k_all<std::complex<float>>(R3::Syrk);
  rank_k_all<std::complex<float>>(R3::Syr2k);
}
TEST(Blas3Complex, HerkHer2k) {
  rank_k_all<std::complex<float>>(R3::Herk);
  rank_k_all<std::complex<float>>(R3::Her2k);
}
TEST(Blas3Complex, Trmm) { tri_all<std::complex<float>>(false); }
TEST(Blas3Complex, Trsm) { tri_all<std::complex<float>>(true); }

TEST(Blas3Complex, Double) {
  if (!fp64()) GTEST_SKIP() << "no fp64 on this device";
  for (R3 r : {R3::Syrk, R3::Syr2k, R3::Herk, R3::Her2k}) rank_k_all<std::complex<double>>(r);
  tri_all<std::complex<double>>(false);
  tri_all<std::complex<double>>(true);
}

TEST(Blas3Complex, TrsmStridedBatched) {
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Side side : {Side::Left, Side::Right}) {
      check_tri<std::complex<float>>(true, layout, side, Triangle::Upper, BlasTranspose::Conjugate, Diagonal::NonUnit,
                                     21, 6, Zd(0.5, 0.5), 3);
      check_tri<std::complex<float>>(true, layout, side, Triangle::Lower, BlasTranspose::No, Diagonal::Unit, 6, 21,
                                     1.0, 2);
    }
  if (fp64())
    check_tri<std::complex<double>>(true, Layout::ColMajor, Side::Left, Triangle::Upper, BlasTranspose::Yes,
                                    Diagonal::NonUnit, 35, 4, Zd(-2, 1), 3);
}

// The complex types through the templates with real scalars
// (optune/blas3_triangular.hpp), and the C API's herk and her2k: the same
// results as the complex-scalar calls.
TEST(Blas3Complex, RealScalarsAndCApi) {
  using Z = std::complex<float>;
  const Queue& q = test::queue();
  const std::int64_t n = 5, k = 3;
  Mat<Z> a(Layout::ColMajor, n, k, 0), c(Layout::ColMajor, n, n, 0);
  a.upload();
  c.upload();
  Buffer<Z> c1 = test::context().alloc<Z>(c.host.size()), c2 = test::context().alloc<Z>(c.host.size());
  q.upload(c1, std::span<const Z>(c.host));
  q.upload(c2, std::span<const Z>(c.host));
  syrk(q, Layout::ColMajor, Triangle::Upper, BlasTranspose::No, n, k, 0.5, a.view, a.ld, 2.0, c1, c.ld).wait();
  syrk(q, Layout::ColMajor, Triangle::Upper, BlasTranspose::No, n, k, Zd(0.5), a.view, a.ld, Zd(2.0), c2, c.ld).wait();
  EXPECT_TRUE(same(q.download(c1), q.download(c2)));

  // herk through the C API against the C++ entry.
  const auto& e = test::capi::env();
  test::capi::Buf ab(OPTUNE_C32, a.host.size()), cb(OPTUNE_C32, c.host.size());
  ASSERT_EQ(optune_buffer_write(e.queue, ab.h, a.host.data(), a.host.size(), nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_buffer_write(e.queue, cb.h, c.host.data(), c.host.size(), nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_blas_herk(e.queue, OPTUNE_COL_MAJOR, OPTUNE_LOWER, OPTUNE_NO_TRANS, n, k, 0.5, ab.h, a.ld, 2.0,
                             cb.h, c.ld, nullptr, 0, nullptr),
            OPTUNE_SUCCESS)
      << optune_last_error_message();
  std::vector<Z> got(c.host.size());
  ASSERT_EQ(optune_buffer_read(e.queue, cb.h, got.data(), got.size(), nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_buffer_write(e.queue, cb.h, c.host.data(), c.host.size(), nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_queue_finish(e.queue), OPTUNE_SUCCESS);
  q.upload(c1, std::span<const Z>(c.host));
  herk(q, Layout::ColMajor, Triangle::Lower, BlasTranspose::No, n, k, 0.5, a.view, a.ld, 2.0, c1, c.ld).wait();
  EXPECT_TRUE(same(got, q.download(c1)));
  for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(got[std::size_t(i + i * c.ld)].imag(), 0.0f);

  // her2k: C API against the C++ entry.
  Mat<Z> b(Layout::ColMajor, n, k, 0);
  b.upload();
  test::capi::Buf bb(OPTUNE_C32, b.host.size());
  ASSERT_EQ(optune_buffer_write(e.queue, bb.h, b.host.data(), b.host.size(), nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_blas_her2k(e.queue, OPTUNE_COL_MAJOR, OPTUNE_UPPER, OPTUNE_NO_TRANS, n, k, optune_complex{0.5, -1},
                              ab.h, a.ld, bb.h, b.ld, 0.0, cb.h, c.ld, nullptr, 0, nullptr),
            OPTUNE_SUCCESS)
      << optune_last_error_message();
  ASSERT_EQ(optune_buffer_read(e.queue, cb.h, got.data(), got.size(), nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_queue_finish(e.queue), OPTUNE_SUCCESS);
  q.upload(c1, std::span<const Z>(c.host));
  her2k(q, Layout::ColMajor, Triangle::Upper, BlasTranspose::No, n, k, Zd(0.5, -1), a.view, a.ld, b.view, b.ld, 0.0,
        c1, c.ld)
      .wait();
  EXPECT_TRUE(same(got, q.download(c1)));
}

// optune bench blas's c32 level-3 rows run ours and, where installed, the
// reference library on the same inputs, whose results agree (herk's row: the
// c32 rows share their code; one row keeps the reference's compiles short).
TEST(Blas3Complex, BenchRows) { test::blas::check_level3_bench_rows("herk-c32", 1, "c32"); }
