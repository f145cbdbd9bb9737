// BLAS level 3 triangular and rank-k routines (optune/blas3_triangular.hpp)
// against a long double reference written here, in f32 and f64: every
// layout, side, triangle, transpose and diagonal, sizes that cross the
// diagonal block (NB is forced to 16 for this process, so 17 and 40 take the
// recursion and a partial last block), offsets and leading dimensions with
// gaps. Every element of every allocation is checked: elements a call must
// not read or write (gaps, A's other triangle, a unit diagonal, C's other
// triangle) are NaN before the call and the NaN must neither reach a result
// nor be overwritten.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/families.hpp"
#include "ops/blas3_ops.hpp"
#include "ops/params.hpp"
#include "support/blas3_mats.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

[[maybe_unused]] const int kParams = setenv("OPTUNE_PARAMS", "blas3:NB=16", 1);

using test::blas::eps;
using test::blas::LD;
using test::blas::Mat;
using test::blas::name;
using test::blas::nan_value;

double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(test::rng()); }

// got against the model's allocation: NaN where the model has NaN, else
// |got - want| <= tol[i] (tol empty: exactly equal).
template <class T>
void expect_matches(const std::vector<T>& got, const std::vector<T>& want, const std::vector<LD>& tol,
                    const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  int bad = 0;
  for (std::size_t i = 0; i < got.size() && bad < 5; ++i) {
    const bool ok = std::isnan(want[i]) ? std::isnan(got[i])
                                        : !std::isnan(got[i]) && std::abs(LD(got[i]) - LD(want[i])) <= tol[i];
    if (!ok) {
      ++bad;
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected " << want[i] << " (tol "
                    << double(tol[i]) << ")";
    }
  }
}

// Forced parameters for the calls (nullptr: the process's, NB = 16): the
// call goes through detail::run_blas3 after the public entry's validation.
const optune::detail::Params* g_forced = nullptr;

template <class T>
optune::detail::GemmMatrix whole(const Buffer<T>& b) {
  return {b.mem(), b.offset(), b.size(), dtype_of_v<T>};
}


// ---- syrk / syr2k ----------------------------------------------------------

template <class T>
void check_rank_k(bool two, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
                  double alpha, double beta) {
  const std::string what = std::string(two ? "syr2k " : "syrk ") + name(layout) + " " + name(uplo) + " " +
                           name(trans) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                           " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta);
  SCOPED_TRACE(what);
  const bool t = trans != BlasTranspose::No;
  Mat<T> a(layout, t ? k : n, t ? n : k), b(layout, t ? k : n, t ? n : k, 5), c(layout, n, n, 1);
  const bool upper = uplo == Triangle::Upper;
  // C's other triangle is NaN: never read, never written. beta == 0: the
  // triangle is NaN too and must be overwritten.
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      if ((upper ? j < i : j > i) || beta == 0) c.el(i, j) = nan_value<T>();
  a.upload();
  b.upload();
  c.upload();
  Mat<T> want = c;
  std::vector<LD> tol(c.host.size(), 0);
  const auto p = [&](const Mat<T>& m, std::int64_t i, std::int64_t l) { return LD(t ? m.el(l, i) : m.el(i, l)); };
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      if (upper ? j < i : j > i) continue;
      LD s = 0, mag = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        if (two) {
          s += p(a, i, l) * p(b, j, l) + p(b, i, l) * p(a, j, l);
          mag += std::abs(p(a, i, l) * p(b, j, l)) + std::abs(p(b, i, l) * p(a, j, l));
        } else {
          s += p(a, i, l) * p(a, j, l);
          mag += std::abs(p(a, i, l) * p(a, j, l));
        }
      }
      LD v = LD(alpha) * s, m = std::abs(LD(alpha)) * mag;
      if (beta != 0) v += LD(beta) * LD(c.el(i, j)), m += std::abs(LD(beta) * LD(c.el(i, j)));
      want.el(i, j) = T(v);
      tol[c.index(i, j)] = eps<T>() * LD(2 * k + 4) * (m + 1e-30L);
    }
  if (g_forced) {
    optune::detail::Blas3Call call;
    call.routine = two ? optune::detail::Blas3Routine::Syr2k : optune::detail::Blas3Routine::Syrk;
    call.layout = layout;
    call.uplo = uplo;
    call.trans = trans;
    call.n = n;
    call.k = k;
    call.alpha = alpha;
    call.beta = beta;
    call.a = whole(a.view);
    call.b = whole(b.view);
    call.c = whole(c.view);
    call.lda = a.ld;
    call.ldb = b.ld;
    call.ldc = c.ld;
    optune::detail::run_blas3(test::queue(), call, {}, g_forced).wait();
  } else if (two)
    syr2k(test::queue(), layout, uplo, trans, n, k, alpha, a.view, a.ld, b.view, b.ld, beta, c.view, c.ld).wait();
  else
    syrk(test::queue(), layout, uplo, trans, n, k, alpha, a.view, a.ld, beta, c.view, c.ld).wait();
  expect_matches(c.download(), want.host, tol, what);
}

template <class T>
void rank_k_all(bool two) {
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
      for (BlasTranspose trans : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate}) {
        check_rank_k<T>(two, layout, uplo, trans, 37, 5, 0.75, -0.5);
        check_rank_k<T>(two, layout, uplo, trans, 16, 3, -1.25, 0.0);  // one full block; beta 0 over NaN
      }
  // Sizes at and around the block, a single element, alpha and k edge cases.
  for (std::int64_t n : {1, 15, 17, 32, 33})
    check_rank_k<T>(two, Layout::ColMajor, Triangle::Lower, BlasTranspose::No, n, 4, 1.0, 0.5);
  // Several off-diagonal blocks in the listed GEMM, with and without a
  // partial last block row or column.
  for (std::int64_t n : {64, 70}) {
    check_rank_k<T>(two, Layout::ColMajor, Triangle::Upper, BlasTranspose::No, n, 5, 0.5, -1.0);
    check_rank_k<T>(two, Layout::RowMajor, Triangle::Lower, BlasTranspose::Yes, n, 3, -1.0, 0.0);
  }
  check_rank_k<T>(two, Layout::RowMajor, Triangle::Upper, BlasTranspose::Yes, 23, 40, 0.5, 1.0);
  check_rank_k<T>(two, Layout::RowMajor, Triangle::Lower, BlasTranspose::No, 21, 6, 0.0, 0.5);   // alpha 0
  check_rank_k<T>(two, Layout::RowMajor, Triangle::Upper, BlasTranspose::No, 21, 6, 0.0, 0.0);   // zeros, no read
  check_rank_k<T>(two, Layout::ColMajor, Triangle::Upper, BlasTranspose::Yes, 19, 0, 2.0, -1.5); // k 0
  check_rank_k<T>(two, Layout::ColMajor, Triangle::Lower, BlasTranspose::No, 19, 0, 2.0, 1.0);   // nothing at all
  check_rank_k<T>(two, Layout::RowMajor, Triangle::Lower, BlasTranspose::No, 0, 5, 1.0, 0.0);    // n 0
}

// ---- trmm / trsm -----------------------------------------------------------

// A's stored triangle well conditioned (off-diagonal entries within 1 / na,
// a non-unit diagonal in +-[1, 2]); the other triangle NaN, and a unit
// diagonal NaN: neither may be read.
template <class T>
Mat<T> triangle(Layout layout, Triangle uplo, Diagonal diag, std::int64_t na) {
  Mat<T> a(layout, na, na, 2);
  const bool upper = uplo == Triangle::Upper;
  for (std::int64_t i = 0; i < na; ++i)
    for (std::int64_t j = 0; j < na; ++j) {
      if (i == j) a.el(i, j) = diag == Diagonal::Unit ? nan_value<T>() : T((uniform(0, 1) < 0.5 ? -1 : 1) * uniform(1, 2));
      else if (upper ? j < i : j > i) a.el(i, j) = nan_value<T>();
      else a.el(i, j) = T(uniform(-1, 1) / double(na));
    }
  return a;
}

// op(A)(i, j) as the reference reads it.
template <class T>
LD op_a(const Mat<T>& a, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t i, std::int64_t j) {
  if (trans != BlasTranspose::No) std::swap(i, j);
  if (i == j) return diag == Diagonal::Unit ? 1.0L : LD(a.el(i, i));
  const bool in = uplo == Triangle::Upper ? j > i : j < i;
  return in ? LD(a.el(i, j)) : 0.0L;
}

// The reference of trmm (solve false) or trsm, for batch system `s` of B.
template <class T>
void reference_tri(bool solve, Side side, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t m,
                   std::int64_t n, double alpha, const Mat<T>& a, const std::function<LD(std::int64_t, std::int64_t)>& b,
                   const std::function<void(std::int64_t, std::int64_t, LD, LD)>& put) {
  const bool left = side == Side::Left;
  const std::int64_t na = left ? m : n, vecs = left ? n : m;
  // T' x = alpha b for each vector (left: columns of B, T' = op(A); right:
  // rows of B, T' = op(A)^T).
  const auto tp = [&](std::int64_t i, std::int64_t j) { return left ? op_a(a, uplo, trans, diag, i, j) : op_a(a, uplo, trans, diag, j, i); };
  const auto bel = [&](std::int64_t v, std::int64_t i) { return left ? b(i, v) : b(v, i); };
  bool upper = (uplo == Triangle::Upper) != (trans != BlasTranspose::No);
  if (!left) upper = !upper;
  for (std::int64_t v = 0; v < vecs; ++v) {
    if (alpha == 0) {  // B = 0 without reading B or A
      for (std::int64_t i = 0; i < na; ++i) left ? put(i, v, 0, 0) : put(v, i, 0, 0);
      continue;
    }
    std::vector<LD> x(static_cast<std::size_t>(na)), mag(static_cast<std::size_t>(na));
    if (!solve) {
      for (std::int64_t i = 0; i < na; ++i) {
        LD s = 0, m2 = 0;
        for (std::int64_t j = 0; j < na; ++j) {
          if (upper ? j < i : j > i) continue;
          s += tp(i, j) * bel(v, j);
          m2 += std::abs(tp(i, j) * bel(v, j));
        }
        x[i] = LD(alpha) * s;
        mag[i] = std::abs(LD(alpha)) * m2;
      }
    } else {
      LD big = 0;
      for (std::int64_t step = 0; step < na; ++step) {
        const std::int64_t i = upper ? na - 1 - step : step;
        LD s = LD(alpha) * bel(v, i);
        for (std::int64_t j = 0; j < na; ++j)
          if (j != i && (upper ? j > i : j < i)) s -= tp(i, j) * x[j];
        x[i] = s / tp(i, i);
        big = std::max(big, std::abs(x[i]));
      }
      for (auto& e : mag) e = 4 * big + std::abs(LD(alpha));
    }
    for (std::int64_t i = 0; i < na; ++i) {
      const LD tol = eps<T>() * LD(4 * na + 8) * (mag[i] + 1e-30L);
      if (left) put(i, v, x[i], tol);
      else put(v, i, x[i], tol);
    }
  }
}

template <class T>
void check_tri(bool solve, Layout layout, Side side, Triangle uplo, BlasTranspose trans, Diagonal diag,
               std::int64_t m, std::int64_t n, double alpha, std::int64_t batch = 0) {
  const std::string what = std::string(solve ? "trsm " : "trmm ") + name(layout) + " " + name(side) + " " +
                           name(uplo) + " " + name(trans) + " " + name(diag) + " m=" + std::to_string(m) +
                           " n=" + std::to_string(n) + " alpha=" + std::to_string(alpha) +
                           (batch ? " batch=" + std::to_string(batch) : "");
  SCOPED_TRACE(what);
  const std::int64_t na = side == Side::Left ? m : n;
  const std::int64_t systems = std::max<std::int64_t>(batch, 1);
  // Batched: the systems stacked as one tall B (and A) of `systems` blocks,
  // each block's rows (row-major) or columns (col-major) a stride apart.
  std::vector<Mat<T>> as, bs;
  for (std::int64_t s = 0; s < systems; ++s) {
    as.push_back(triangle<T>(layout, uplo, diag, na));
    bs.emplace_back(layout, m, n, 4);
    if (alpha == 0)  // B is not read
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) bs.back().el(i, j) = nan_value<T>();
  }
  Buffer<T> a_all, b_all;
  std::int64_t sa = 0, sb = 0;
  test::blas::pack_systems(as, a_all, sa);
  std::vector<T> want = test::blas::pack_systems(bs, b_all, sb);
  std::vector<LD> tol(want.size(), 0);
  for (std::int64_t s = 0; s < systems; ++s) {
    const Mat<T>& bm = bs[std::size_t(s)];
    reference_tri<T>(solve, side, uplo, trans, diag, m, n, alpha, as[std::size_t(s)],
                     [&](std::int64_t i, std::int64_t j) { return LD(bm.el(i, j)); },
                     [&](std::int64_t i, std::int64_t j, LD v, LD t) {
                       const std::size_t at = std::size_t(s * sb) + bm.index(i, j);
                       want[at] = T(v);
                       tol[at] = t;
                     });
  }
  const Mat<T>& a0 = as[0];
  const Mat<T>& b0 = bs[0];
  const Buffer<T> av = a_all.view(a0.off, a_all.size() - a0.off), bv = b_all.view(b0.off, b_all.size() - b0.off);
  const Queue& q = test::queue();
  if (g_forced) {
    optune::detail::Blas3Call call;
    call.routine = solve ? optune::detail::Blas3Routine::Trsm : optune::detail::Blas3Routine::Trmm;
    call.layout = layout;
    call.side = side;
    call.uplo = uplo;
    call.trans = trans;
    call.diag = diag;
    call.m = m;
    call.n = n;
    call.alpha = alpha;
    call.a = whole(av);
    call.b = whole(bv);
    call.lda = a0.ld;
    call.ldb = b0.ld;
    call.batched = batch > 0;
    call.stride_a = sa;
    call.stride_b = sb;
    call.batch = std::max<std::int64_t>(batch, 1);
    optune::detail::run_blas3(q, call, {}, g_forced).wait();
  } else if (batch)
    trsm_strided_batched(q, layout, side, uplo, trans, diag, m, n, alpha, av, a0.ld, sa, bv, b0.ld, sb, batch).wait();
  else if (solve)
    trsm(q, layout, side, uplo, trans, diag, m, n, alpha, av, a0.ld, bv, b0.ld).wait();
  else
    trmm(q, layout, side, uplo, trans, diag, m, n, alpha, av, a0.ld, bv, b0.ld).wait();
  expect_matches(q.download(b_all), want, tol, what);
}

template <class T>
void tri_all(bool solve) {
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Side side : {Side::Left, Side::Right})
      for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
        for (BlasTranspose trans : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate})
          for (Diagonal diag : {Diagonal::NonUnit, Diagonal::Unit}) {
            // The triangle's order 40 (three blocks, two levels) on the side.
            const bool left = side == Side::Left;
            check_tri<T>(solve, layout, side, uplo, trans, diag, left ? 40 : 5, left ? 5 : 40, -0.75);
          }
  for (std::int64_t na : {1, 2, 15, 16, 17, 33})
    check_tri<T>(solve, Layout::ColMajor, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, na, 3,
                 1.5);
  // Levels of the halving with several nodes of one shape (64: 2 and 4
  // nodes) and of two shapes (100).
  for (std::int64_t na : {64, 100})
    for (Triangle uplo : {Triangle::Upper, Triangle::Lower}) {
      check_tri<T>(solve, Layout::ColMajor, Side::Left, uplo, BlasTranspose::No, Diagonal::NonUnit, na, 3, 0.5);
      check_tri<T>(solve, Layout::RowMajor, Side::Right, uplo, BlasTranspose::Yes, Diagonal::Unit, 2, na, -1.0);
    }
  check_tri<T>(solve, Layout::RowMajor, Side::Right, Triangle::Upper, BlasTranspose::Yes, Diagonal::NonUnit, 7, 19,
               0.0);  // alpha 0: zeros over NaN
  check_tri<T>(solve, Layout::RowMajor, Side::Left, Triangle::Upper, BlasTranspose::No, Diagonal::Unit, 0, 4, 1.0);
  check_tri<T>(solve, Layout::ColMajor, Side::Right, Triangle::Lower, BlasTranspose::No, Diagonal::Unit, 4, 0, 1.0);
}

}  // namespace

TEST(Blas3, SyrkFloat) { rank_k_all<float>(false); }
TEST(Blas3, Syr2kFloat) { rank_k_all<float>(true); }
TEST(Blas3, TrmmFloat) { tri_all<float>(false); }
TEST(Blas3, TrsmFloat) { tri_all<float>(true); }

TEST(Blas3, Double) {
  if (!test::device().caps().fp64) GTEST_SKIP() << "no fp64 on this device";
  rank_k_all<double>(false);
  rank_k_all<double>(true);
  tri_all<double>(false);
  tri_all<double>(true);
}

TEST(Blas3, TrsmStridedBatched) {
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Side side : {Side::Left, Side::Right})
      for (Triangle uplo : {Triangle::Upper, Triangle::Lower}) {
        check_tri<float>(true, layout, side, uplo, BlasTranspose::Yes, Diagonal::NonUnit, 21, 6, 0.5, 3);
        check_tri<float>(true, layout, side, uplo, BlasTranspose::No, Diagonal::Unit, 6, 21, 1.0, 2);
      }
  check_tri<float>(true, Layout::RowMajor, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, 9, 4,
                   0.0, 3);
  if (test::device().caps().fp64)
    check_tri<double>(true, Layout::ColMajor, Side::Left, Triangle::Upper, BlasTranspose::No, Diagonal::NonUnit, 35,
                      4, -2.0, 4);
}

// One triangle shared by every system (stride_a 0).
TEST(Blas3, TrsmBatchedSharedTriangle) {
  const std::int64_t m = 19, n = 3, batch = 3;
  Mat<float> a = triangle<float>(Layout::RowMajor, Triangle::Lower, Diagonal::NonUnit, m);
  a.upload();
  std::vector<Mat<float>> bs;
  std::vector<float> host;
  for (int s = 0; s < batch; ++s) {
    bs.emplace_back(Layout::RowMajor, m, n, 0);
    host.insert(host.end(), bs.back().host.begin(), bs.back().host.end());
  }
  const std::int64_t sb = std::int64_t(bs[0].host.size());
  Buffer<float> b = test::context().alloc<float>(host.size());
  test::queue().upload(b, std::span<const float>(host));
  std::vector<float> want = host;
  std::vector<LD> tol(host.size(), 0);
  for (std::int64_t s = 0; s < batch; ++s)
    reference_tri<float>(true, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, m, n, 1.0, a,
                         [&](std::int64_t i, std::int64_t j) { return LD(bs[std::size_t(s)].el(i, j)); },
                         [&](std::int64_t i, std::int64_t j, LD v, LD t) {
                           want[std::size_t(s * sb) + bs[0].index(i, j)] = float(v);
                           tol[std::size_t(s * sb) + bs[0].index(i, j)] = t;
                         });
  trsm_strided_batched(test::queue(), Layout::RowMajor, Side::Left, Triangle::Lower, BlasTranspose::No,
                       Diagonal::NonUnit, m, n, 1.0, a.view, a.ld, 0, b, bs[0].ld, sb, batch)
      .wait();
  expect_matches(test::queue().download(b), want, tol, "shared triangle");
}

// Other blocks and group sizes (forced, as the tuner runs them), at sizes
// that cross them.
TEST(Blas3, OtherBlocks) {
  for (std::int64_t nb : {32, 64, 128})
    for (std::int64_t wgs : {64, 256}) {
      const optune::detail::Params p{{"NB", nb}, {"WGS", wgs}};
      g_forced = &p;
      check_rank_k<float>(false, Layout::RowMajor, Triangle::Lower, BlasTranspose::Yes, 150, 7, 1.0, 0.5);
      check_rank_k<float>(true, Layout::ColMajor, Triangle::Upper, BlasTranspose::No, 131, 5, -0.5, 0.0);
      check_tri<float>(true, Layout::ColMajor, Side::Right, Triangle::Upper, BlasTranspose::Yes, Diagonal::NonUnit,
                       6, 140, 1.0);
      check_tri<float>(false, Layout::RowMajor, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::Unit, 133,
                       4, 2.0);
      check_tri<float>(true, Layout::RowMajor, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, 70,
                       3, 1.0, 2);
      // trmm over a batch (the internal call): listed leaves and levels.
      for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
        check_tri<float>(false, Layout::ColMajor, Side::Left, uplo, BlasTranspose::No, Diagonal::NonUnit, 2 * nb + 64,
                         3, 1.5, 2);
      g_forced = nullptr;
    }
}

// blas3's GEMM parameter names the kernel of the routine's products
// (gemm_routine's KERNEL merged onto their lookups): each product's choice
// looks up gemm_routine, then the candidate it runs (a thin one ahead where
// the routine puts it first), so with 1 the direct kernel follows every
// routine lookup and with 2 the tiled one, whatever the routine would choose
// for 128 x 128 x 1100 blocks; the results are right either way, and a force
// of the thread's own is kept.
std::vector<std::string> chosen_after_routine() {
  const std::vector<optune::detail::LookupRecord> all = optune::detail::take_lookups();
  std::vector<std::string> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].family != "gemm_routine") continue;
    std::size_t j = i + 1;
    while (j < all.size() && all[j].family == "gemm_thin") ++j;
    if (j < all.size()) out.push_back(all[j].family);
  }
  return out;
}

TEST(Blas3, ProductsKernel) {
  for (std::int64_t kernel : {1, 2}) {
    const optune::detail::Params p{{"NB", 128}, {"WGS", 64}, {"GEMM", kernel}};
    g_forced = &p;
    optune::detail::take_lookups();
    check_rank_k<float>(false, Layout::RowMajor, Triangle::Lower, BlasTranspose::No, 300, 1100, 1.0, 0.5);
    const std::vector<std::string> chosen = chosen_after_routine();
    EXPECT_FALSE(chosen.empty());
    for (const std::string& f : chosen) EXPECT_EQ(f, kernel == 1 ? "gemm_direct" : "gemm_tiled") << "GEMM " << kernel;
    check_tri<float>(true, Layout::ColMajor, Side::Left, Triangle::Upper, BlasTranspose::No, Diagonal::NonUnit, 300,
                     5, 1.0);
    g_forced = nullptr;
  }
  // Under a force of the thread's (a candidate's parameters): both kept.
  const optune::detail::Params p{{"NB", 128}, {"WGS", 64}, {"GEMM", 2}};
  optune::detail::GemmForce outer;
  outer.params["gemm_tiled"] = optune::detail::families::gemm_tiled().defaults(test::device().caps());
  const optune::detail::GemmForceScope scope(outer);
  g_forced = &p;
  check_rank_k<float>(true, Layout::ColMajor, Triangle::Upper, BlasTranspose::Yes, 300, 1100, -0.5, 0.0);
  g_forced = nullptr;
  EXPECT_EQ(optune::detail::GemmForceScope::current(), &outer);
}

// trsm's inverted sub-blocks doubled up to the block (IB < NB: two and three
// levels of listed GEMMs), with a partial last block, batched, every side and
// triangle.
TEST(Blas3, TrsmDoubledInverses) {
  for (std::int64_t ib : {16, 32}) {
    const optune::detail::Params p{{"NB", 64}, {"IB", ib}, {"WGS", 64}};
    g_forced = &p;
    for (Triangle uplo : {Triangle::Upper, Triangle::Lower})
      for (Diagonal diag : {Diagonal::NonUnit, Diagonal::Unit}) {
        check_tri<float>(true, Layout::ColMajor, Side::Left, uplo, BlasTranspose::No, diag, 150, 3, 0.5);
        check_tri<float>(true, Layout::RowMajor, Side::Right, uplo, BlasTranspose::Yes, diag, 2, 128, -1.0, 2);
      }
    if (test::device().caps().fp64)
      check_tri<double>(true, Layout::ColMajor, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, 140,
                        2, 1.0, 2);
    g_forced = nullptr;
  }
}

// optune bench blas's level-3 rows run ours and, where installed, the
// reference library on the same inputs, whose results agree.
TEST(Blas3, BenchRows) { test::blas::check_level3_bench_rows("syrk-f32,trsm-f32", 2, "f32"); }
