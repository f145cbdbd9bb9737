// Complex GEMM (cgemm, zgemm: optune/gemm.hpp) against a complex<long double>
// reference written here: every transpose pair (N, T, C) in both layouts,
// odd and boundary sizes, offsets and padded leading dimensions, complex
// alpha and beta (real beta, complex beta, beta = 0 over NaN in C, alpha = 0
// over NaN in A and B), the strided and listed batches, fresh random data.
// Every element of C's allocation is checked: the ones a call must not touch
// are NaN before it and must stay so. Also: real matrices take
// Transpose::Conjugate as Yes, the C API's entries, and the validation errors
// complex products add.
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "optune/gemm.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

using LD = long double;
using ZL = std::complex<LD>;
using Z = std::complex<double>;

template <class T> using Part = typename T::value_type;

template <class T> T nan_value() {
  const Part<T> q = std::numeric_limits<Part<T>>::quiet_NaN();
  return T(q, q);
}
template <class T> bool has_nan(const T& v) { return std::isnan(v.real()) || std::isnan(v.imag()); }
template <class T> T random_value() {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  return T(Part<T>(d(test::rng())), Part<T>(d(test::rng())));
}
template <class T> ZL to_ref(const T& v) { return {LD(v.real()), LD(v.imag())}; }
template <class T> LD eps() { return LD(std::numeric_limits<Part<T>>::epsilon()); }

template <class T> bool skip_type() {
  return std::is_same_v<Part<T>, double> && !test::device().caps().fp64;
}

// One stored matrix of `rows` x `cols` (as stored) in the layout, with
// leading dimension ld and batch stride in one allocation from `off`; the
// addressed elements random (or NaN when `poison`), every other one NaN.
template <class T>
struct Mat {
  std::int64_t rows = 0, cols = 0, ld = 0, stride = 0;
  std::size_t off = 0;
  bool row_major = true;
  std::vector<T> host;
  Buffer<T> all, view;

  Mat(Layout layout, std::int64_t r, std::int64_t c, std::int64_t pad, std::size_t off_, std::int64_t batch,
      bool poison, std::int64_t stride_ = -1)
      : rows(r), cols(c), off(off_), row_major(layout == Layout::RowMajor) {
    const std::int64_t inner = row_major ? cols : rows, outer = row_major ? rows : cols;
    ld = std::max<std::int64_t>(inner, 1) + pad;
    const std::int64_t extent = outer * ld;
    stride = stride_ >= 0 ? stride_ : extent + 3;
    const std::size_t len = std::size_t(std::max<std::int64_t>(0, (batch - 1) * stride + extent)) + 2;
    host.assign(off + len, nan_value<T>());
    for (std::int64_t z = 0; z < batch; ++z)
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) el(z, i, j) = poison ? nan_value<T>() : random_value<T>();
    all = test::context().alloc<T>(host.size());
    test::queue().upload(all, std::span<const T>(host));
    view = all.view(off, len);
  }
  std::size_t at(std::int64_t z, std::int64_t i, std::int64_t j) const {
    return off + std::size_t(z * stride + (row_major ? i * ld + j : i + j * ld));
  }
  T& el(std::int64_t z, std::int64_t i, std::int64_t j) { return host[at(z, i, j)]; }
};

// op(X)(i, j) of a stored matrix.
template <class T>
ZL op_el(Mat<T>& x, Transpose t, std::int64_t z, std::int64_t i, std::int64_t j) {
  const ZL v = to_ref(t == Transpose::No ? x.el(z, i, j) : x.el(z, j, i));
  return t == Transpose::Conjugate ? std::conj(v) : v;
}

// C's model after the call; every element checked, NaN where untouched.
template <class T>
void expect_product(Mat<T>& a, Mat<T>& b, Mat<T>& c, const std::vector<T>& c_before, Transpose ta, Transpose tb,
                    std::int64_t m, std::int64_t n, std::int64_t k, const std::vector<Z>& alphas,
                    const std::vector<Z>& betas, const std::vector<std::int64_t>& za,
                    const std::vector<std::int64_t>& zb, const std::string& what) {
  const std::vector<T> got = test::queue().download(c.all);
  std::vector<bool> written(got.size(), false);
  std::size_t bad = 0;
  for (std::size_t z = 0; z < alphas.size(); ++z)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const ZL alpha(LD(alphas[z].real()), LD(alphas[z].imag())), beta(LD(betas[z].real()), LD(betas[z].imag()));
        ZL sum = 0;
        LD mag = 0;
        if (alpha != ZL(0))
          for (std::int64_t p = 0; p < k; ++p) {
            const ZL x = op_el(a, ta, za[z], i, p), y = op_el(b, tb, zb[z], p, j);
            sum += x * y;
            mag += std::abs(x) * std::abs(y);
          }
        const std::size_t at = c.at(std::int64_t(z), i, j);
        const ZL old = to_ref(c_before[at]);
        // beta = 0: old (NaN where the test poisoned C) takes no part.
        const ZL old_part = beta == ZL(0) ? ZL(0) : beta * old;
        const ZL want = alpha * sum + old_part;
        const LD bound = 4 * LD(k + 4) * eps<T>() * (std::abs(alpha) * mag + std::abs(old_part)) +
                         std::numeric_limits<LD>::min();
        if (std::isnan(bound)) ADD_FAILURE() << what << ": the model itself is NaN";
        written[at] = true;
        const ZL g = to_ref(got[at]);
        if (has_nan(got[at]) || std::abs(g - want) > bound) {
          if (bad++ < 5)
            ADD_FAILURE() << what << ": C(" << z << ", " << i << ", " << j << ") = " << got[at].real() << " + "
                          << got[at].imag() << "i, expected " << double(want.real()) << " + "
                          << double(want.imag()) << "i (bound " << double(bound) << ")";
        }
      }
  for (std::size_t e = 0; e < got.size(); ++e)
    if (!written[e] && !has_nan(got[e]) && bad++ < 5)
      ADD_FAILURE() << what << ": element " << e << " outside C was written";
  EXPECT_EQ(bad, 0u) << what;
}

struct Case {
  Layout layout;
  Transpose ta, tb;
  std::int64_t m, n, k;
  Z alpha, beta;
  bool nan_c = false;   // C's elements NaN (beta = 0 must not read them)
  bool nan_ab = false;  // A's and B's elements NaN (alpha = 0 must not read them)
};

std::string name_of(const Case& c) {
  const char* t[] = {"N", "T", "C"};
  return std::string(c.layout == Layout::RowMajor ? "row" : "col") + " " + t[int(c.ta)] + t[int(c.tb)] + " " +
         std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k) + " alpha (" +
         std::to_string(c.alpha.real()) + ", " + std::to_string(c.alpha.imag()) + ") beta (" +
         std::to_string(c.beta.real()) + ", " + std::to_string(c.beta.imag()) + ")";
}

template <class T>
std::pair<std::int64_t, std::int64_t> stored(std::int64_t r, std::int64_t c, Transpose t) {
  return t == Transpose::No ? std::pair{r, c} : std::pair{c, r};
}

template <class T>
void run_one(const Case& cs) {
  const auto [ar, ac] = stored<T>(cs.m, cs.k, cs.ta);
  const auto [br, bc] = stored<T>(cs.k, cs.n, cs.tb);
  Mat<T> a(cs.layout, ar, ac, 2, 3, 1, cs.nan_ab), b(cs.layout, br, bc, 1, 5, 1, cs.nan_ab);
  Mat<T> c(cs.layout, cs.m, cs.n, 3, 1, 1, cs.nan_c);
  const std::vector<T> before = c.host;
  gemm(test::queue(), cs.layout, cs.ta, cs.tb, cs.m, cs.n, cs.k, cs.alpha, a.view, a.ld, b.view, b.ld, cs.beta,
       c.view, c.ld);
  expect_product(a, b, c, before, cs.ta, cs.tb, cs.m, cs.n, cs.k, {cs.alpha}, {cs.beta}, {0}, {0}, name_of(cs));
}

template <class T>
class GemmComplex : public ::testing::Test {};
using Types = ::testing::Types<std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(GemmComplex, Types);

const Transpose kTrans[] = {Transpose::No, Transpose::Yes, Transpose::Conjugate};

TYPED_TEST(GemmComplex, EveryTransposePairBothLayouts) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (Transpose ta : kTrans)
      for (Transpose tb : kTrans) run_one<T>({layout, ta, tb, 7, 5, 9, Z(0.75, -1.25), Z(-0.5, 0.25)});
}

TYPED_TEST(GemmComplex, SizesAcrossTilesAndBoundaries) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  // 33 x 17 x 40 crosses the packing passes' 16 x 16 tiles (transposed ones
  // go through local memory); 1 x 1 x 1 and k = 1 the smallest.
  run_one<T>({Layout::RowMajor, Transpose::Conjugate, Transpose::Yes, 33, 17, 40, Z(1, 0.5), Z(0.25, 0)});
  run_one<T>({Layout::ColMajor, Transpose::Yes, Transpose::Conjugate, 17, 33, 21, Z(-1, 0), Z(0, 1)});
  run_one<T>({Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, Z(2, -1), Z(1, 1)});
  run_one<T>({Layout::ColMajor, Transpose::No, Transpose::Conjugate, 19, 3, 1, Z(0.5, 0.5), Z(1, 0)});
  run_one<T>({Layout::RowMajor, Transpose::No, Transpose::No, 40, 36, 33, Z(1, 0), Z(0, 0)});
}

TYPED_TEST(GemmComplex, BetaZeroDoesNotReadC) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  for (Transpose ta : {Transpose::No, Transpose::Conjugate})
    run_one<T>({Layout::RowMajor, ta, Transpose::No, 6, 7, 5, Z(1, -2), Z(0, 0), true, false});
  // k = 0: C = beta C, here 0 over NaN.
  run_one<T>({Layout::ColMajor, Transpose::No, Transpose::No, 5, 3, 0, Z(1, 0), Z(0, 0), true, false});
}

TYPED_TEST(GemmComplex, AlphaZeroDoesNotReadAB) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  run_one<T>({Layout::RowMajor, Transpose::Yes, Transpose::No, 6, 7, 5, Z(0, 0), Z(0.5, -0.75), false, true});
  run_one<T>({Layout::ColMajor, Transpose::No, Transpose::Conjugate, 4, 9, 3, Z(0, 0), Z(2, 0), false, true});
  run_one<T>({Layout::RowMajor, Transpose::No, Transpose::No, 4, 3, 2, Z(0, 0), Z(0, 0), true, true});
}

TYPED_TEST(GemmComplex, StridedBatches) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  const std::int64_t m = 5, n = 6, k = 7, batch = 3;
  for (bool shared_b : {false, true})
    for (Layout layout : {Layout::RowMajor, Layout::ColMajor}) {
      const Transpose ta = shared_b ? Transpose::Conjugate : Transpose::No, tb = shared_b ? Transpose::No : Transpose::Yes;
      const auto [ar, ac] = stored<T>(m, k, ta);
      const auto [br, bc] = stored<T>(k, n, tb);
      Mat<T> a(layout, ar, ac, 1, 2, batch, false), b(layout, br, bc, 2, 1, shared_b ? 1 : batch, false, shared_b ? 0 : -1);
      Mat<T> c(layout, m, n, 1, 4, batch, false);
      const std::vector<T> before = c.host;
      const Z alpha(0.5, 1.5), beta = shared_b ? Z(0.25, -1) : Z(-1, 0);
      gemm_strided_batched(test::queue(), layout, ta, tb, m, n, k, alpha, a.view, a.ld, a.stride, b.view, b.ld,
                           shared_b ? 0 : b.stride, beta, c.view, c.ld, c.stride, batch);
      expect_product(a, b, c, before, ta, tb, m, n, k, {alpha, alpha, alpha}, {beta, beta, beta}, {0, 1, 2},
                     shared_b ? std::vector<std::int64_t>{0, 0, 0} : std::vector<std::int64_t>{0, 1, 2},
                     std::string("strided ") + (shared_b ? "shared b" : "") + (layout == Layout::RowMajor ? " row" : " col"));
    }
}

TYPED_TEST(GemmComplex, ListedBatches) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  const std::int64_t m = 4, n = 5, k = 3, batch = 3;
  for (bool complex_beta : {false, true}) {
    const Layout layout = complex_beta ? Layout::ColMajor : Layout::RowMajor;
    Mat<T> a(layout, k, m, 0, 1, batch, false), b(layout, n, k, 1, 0, batch, false);
    Mat<T> c(layout, m, n, 2, 3, batch, false);
    // Product 1 has alpha = 0 and its B is NaN (not read); with a complex
    // beta product 2's C is NaN under beta = 0.
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < k; ++j) b.el(1, i, j) = nan_value<T>();
    test::queue().upload(b.all, std::span<const T>(b.host));
    if (complex_beta) {
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) c.el(2, i, j) = nan_value<T>();
      test::queue().upload(c.all, std::span<const T>(c.host));
    }
    const std::vector<T> before = c.host;
    const std::vector<Z> alphas{Z(1, -1), Z(0, 0), Z(-0.5, 2)};
    const std::vector<Z> betas = complex_beta ? std::vector<Z>{Z(0.5, 0.5), Z(0, -1), Z(0, 0)}
                                              : std::vector<Z>{Z(2, 0), Z(-1, 0), Z(0, 0)};
    // Products in reverse order of the stored matrices: offsets, not strides.
    const std::vector<std::int64_t> ao{2 * a.stride, a.stride, 0}, bo{0, b.stride, 2 * b.stride},
        co{c.stride, 0, 2 * c.stride};
    gemm_batched(test::queue(), layout, Transpose::Yes, Transpose::Conjugate, m, n, k,
                 std::span<const Z>(alphas), a.view, a.ld, std::span<const std::int64_t>(ao), b.view, b.ld,
                 std::span<const std::int64_t>(bo), std::span<const Z>(betas), c.view, c.ld,
                 std::span<const std::int64_t>(co));
    // The model indexes C by stored product: stored product s of C holds
    // listed product p with co[p] = s * stride.
    std::vector<Z> al(batch), be(batch);
    std::vector<std::int64_t> za(batch), zb(batch);
    for (std::int64_t p = 0; p < batch; ++p) {
      const std::int64_t s = co[std::size_t(p)] / c.stride;
      al[std::size_t(s)] = alphas[std::size_t(p)];
      be[std::size_t(s)] = betas[std::size_t(p)];
      za[std::size_t(s)] = ao[std::size_t(p)] / a.stride;
      zb[std::size_t(s)] = bo[std::size_t(p)] / b.stride;
    }
    expect_product(a, b, c, before, Transpose::Yes, Transpose::Conjugate, m, n, k, al, be, za, zb,
                   complex_beta ? "listed, complex betas" : "listed, real betas");
  }
}

// Real alpha and beta through the templates reach the same path.
TEST(GemmComplexScalars, RealScalarsOnComplexMatrices) {
  using T = std::complex<float>;
  Mat<T> a(Layout::RowMajor, 3, 4, 0, 0, 1, false), b(Layout::RowMajor, 4, 5, 0, 0, 1, false);
  Mat<T> c(Layout::RowMajor, 3, 5, 0, 0, 1, false);
  const std::vector<T> before = c.host;
  gemm(test::queue(), Layout::RowMajor, Transpose::No, Transpose::No, 3, 5, 4, 2.0, a.view, a.ld, b.view, b.ld, 0.5,
       c.view, c.ld);
  expect_product(a, b, c, before, Transpose::No, Transpose::No, 3, 5, 4, {Z(2, 0)}, {Z(0.5, 0)}, {0}, {0},
                 "real scalars");
}

// Real matrices take Transpose::Conjugate as Transpose::Yes, bit for bit.
TEST(GemmComplexScalars, RealConjugateIsTranspose) {
  const std::int64_t m = 5, n = 4, k = 6;
  const std::vector<float> av = test::random_floats(std::size_t(k * m)), bv = test::random_floats(std::size_t(n * k));
  Buffer<float> a = test::context().alloc<float>(av.size()), b = test::context().alloc<float>(bv.size());
  test::queue().upload(a, std::span<const float>(av));
  test::queue().upload(b, std::span<const float>(bv));
  Buffer<float> c1 = test::context().alloc<float>(std::size_t(m * n)), c2 = test::context().alloc<float>(std::size_t(m * n));
  gemm(test::queue(), Layout::RowMajor, Transpose::Yes, Transpose::Yes, m, n, k, 1.5, a, m, b, k, 0.0, c1, n);
  gemm(test::queue(), Layout::RowMajor, Transpose::Conjugate, Transpose::Conjugate, m, n, k, 1.5, a, m, b, k, 0.0,
       c2, n);
  const std::vector<float> r1 = test::queue().download(c1), r2 = test::queue().download(c2);
  EXPECT_EQ(r1, r2);
  LD err = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      LD s = 0;
      for (std::int64_t p = 0; p < k; ++p) s += LD(av[std::size_t(p * m + i)]) * LD(bv[std::size_t(j * k + p)]);
      err = std::max(err, std::abs(LD(r1[std::size_t(i * n + j)]) - LD(1.5) * s));
    }
  EXPECT_LT(double(err), 1e-5);
}

TEST(GemmComplexErrors, Validation) {
  using T = std::complex<float>;
  auto a = test::context().alloc<T>(64), b = test::context().alloc<T>(64), c = test::context().alloc<T>(64);
  const auto& q = test::queue();
  GemmOptions bias;
  bias.activation = Unary::Relu;
  test::expect_error(Status::InvalidArgument, "no bias or activation", [&] {
    gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, Z(1, 0), a, 4, b, 4, Z(0, 0), c, 4, bias);
  });
  GemmOptions tf32;
  tf32.compute = GemmCompute::FastTF32;
  test::expect_error(Status::InvalidArgument, "FastTF32", [&] {
    gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, Z(1, 0), a, 4, b, 4, Z(0, 0), c, 4, tf32);
  });
  test::expect_error(Status::InvalidArgument, "transposition", [&] {
    gemm(q, Layout::RowMajor, Transpose(3), Transpose::No, 4, 4, 4, Z(1, 0), a, 4, b, 4, Z(0, 0), c, 4);
  });
  test::expect_error(Status::InvalidArgument, "lda", [&] {
    gemm(q, Layout::RowMajor, Transpose::Conjugate, Transpose::No, 4, 4, 5, Z(1, 0), a, 3, b, 4, Z(0, 0), c, 4);
  });
  test::expect_error(Status::BufferTooSmall, "b", [&] {
    gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, Z(1, 0), a, 4, b.view(60, 4), 4, Z(0, 0), c, 4);
  });
  test::expect_error(Status::InvalidArgument, "c overlaps a", [&] {
    gemm(q, Layout::RowMajor, Transpose::No, Transpose::No, 4, 4, 4, Z(1, 0), a, 4, b, 4, Z(0, 0), a.view(8, 56), 4);
  });
}

// The C API: optune_blas_gemm (complex scalars), optune_gemm with real ones on
// complex buffers, OPTUNE_CONJ_TRANS, and their errors.
TEST(GemmComplexCapi, EntriesAndErrors) {
  namespace capi = test::capi;
  const std::int64_t m = 3, n = 4, k = 5;
  capi::Buf a(OPTUNE_C32, std::size_t(k * m)), b(OPTUNE_C32, std::size_t(k * n)), c(OPTUNE_C32, std::size_t(m * n));
  std::vector<float> av = test::random_floats(std::size_t(2 * k * m)), bv = test::random_floats(std::size_t(2 * k * n)),
                     cv = test::random_floats(std::size_t(2 * m * n));
  C_OK(optune_buffer_write(capi::env().queue, a.h, av.data(), std::size_t(k * m), nullptr, 0, nullptr));
  C_OK(optune_buffer_write(capi::env().queue, b.h, bv.data(), std::size_t(k * n), nullptr, 0, nullptr));
  C_OK(optune_buffer_write(capi::env().queue, c.h, cv.data(), std::size_t(m * n), nullptr, 0, nullptr));
  const optune_complex alpha{0.5, -1}, beta{0, 2};
  // A stored k x m (conjugate-transposed), B stored k x n, row-major.
  C_OK(optune_blas_gemm(capi::env().queue, OPTUNE_ROW_MAJOR, OPTUNE_CONJ_TRANS, OPTUNE_NO_TRANS, m, n, k, alpha, a.h, m,
                        b.h, n, beta, c.h, n, nullptr, 0, nullptr));
  std::vector<float> got(std::size_t(2 * m * n));
  C_OK(optune_buffer_read(capi::env().queue, c.h, got.data(), std::size_t(m * n), nullptr, 0, nullptr));
  C_OK(optune_queue_finish(capi::env().queue));
  const auto cx = [](const std::vector<float>& v, std::int64_t e) { return ZL(LD(v[std::size_t(2 * e)]), LD(v[std::size_t(2 * e + 1)])); };
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      ZL s = 0;
      for (std::int64_t p = 0; p < k; ++p) s += std::conj(cx(av, p * m + i)) * cx(bv, p * n + j);
      const ZL want = ZL(0.5, -1) * s + ZL(0, 2) * cx(cv, i * n + j);
      EXPECT_LT(double(std::abs(cx(got, i * n + j) - want)), 1e-4) << i << ", " << j;
    }
  // Strided with batch 1 and real scalars through optune_gemm run too.
  C_OK(optune_blas_gemm_strided_batched(capi::env().queue, OPTUNE_COL_MAJOR, OPTUNE_NO_TRANS, OPTUNE_TRANS, m, n, k,
                                        alpha, a.h, m, 0, b.h, n, 0, beta, c.h, m, 0, 1, nullptr, 0, nullptr));
  C_OK(optune_gemm(capi::env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_NO_TRANS, m, n, k, 1.0, a.h, k, b.h,
                   n, 0.0, c.h, n, nullptr, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(capi::env().queue));

  capi::Buf r(OPTUNE_F32, 64);
  EXPECT_TRUE(capi::fails(optune_blas_gemm(capi::env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_NO_TRANS, 2, 2,
                                           2, optune_complex{1, 1}, r.h, 2, r.h, 2, optune_complex{0, 0}, r.h, 2,
                                           nullptr, 0, nullptr),
                          OPTUNE_INVALID_ARGUMENT, "alpha has an imaginary part"));
  EXPECT_TRUE(capi::fails(optune_blas_gemm(capi::env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_NO_TRANS, 2, 2,
                                           2, optune_complex{1, 0}, r.h, 2, r.h, 2, optune_complex{0, 1}, r.h, 2,
                                           nullptr, 0, nullptr),
                          OPTUNE_INVALID_ARGUMENT, "beta has an imaginary part"));
  EXPECT_TRUE(capi::fails(optune_blas_gemm(capi::env().queue, OPTUNE_ROW_MAJOR, optune_transpose(3), OPTUNE_NO_TRANS,
                                           2, 2, 2, optune_complex{1, 0}, a.h, 2, b.h, 2, optune_complex{0, 0}, c.h, 2,
                                           nullptr, 0, nullptr),
                          OPTUNE_INVALID_ARGUMENT, "trans_a"));
  EXPECT_TRUE(capi::fails(optune_blas_gemm(capi::env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_NO_TRANS, 2, 2,
                                           2, optune_complex{1, 0}, a.h, 2, r.h, 2, optune_complex{0, 0}, c.h, 2,
                                           nullptr, 0, nullptr),
                          OPTUNE_INVALID_TYPE, "a and b must have one type"));
}

}  // namespace
