// symm and hemm (optune/blas3.hpp) against a complex<long double> reference
// written here: s, d, c, z (hemm: c, z), every side x triangle x layout, odd
// sizes across the expansion's tiles, padded leading dimensions and offsets,
// complex alpha and beta, beta = 0 over NaN in C, alpha = 0, A's other
// triangle (and, for hemm, its diagonal's imaginary parts) NaN so that
// reading them would show; every element of C's allocation checked (the
// ones outside C NaN before and after). Then every validation error, C++
// and C.
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "ops/blas3_symm.hpp"
#include "optune/blas3.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

using LD = long double;
using ZL = std::complex<LD>;

template <class T> struct PartOf { using type = T; };
template <class R> struct PartOf<std::complex<R>> { using type = R; };
template <class T> using Part = typename PartOf<T>::type;
template <class T> constexpr bool kComplex = !std::is_same_v<T, Part<T>>;

template <class T> T make(double re, double im) {
  if constexpr (kComplex<T>) return T(Part<T>(re), Part<T>(im));
  else return T(re);
}
template <class T> T nan_value() {
  const double q = std::numeric_limits<double>::quiet_NaN();
  return make<T>(q, q);
}
template <class T> ZL to_ref(const T& v) {
  if constexpr (kComplex<T>) return {LD(v.real()), LD(v.imag())};
  else return {LD(v), 0};
}
template <class T> bool has_nan(const T& v) {
  const ZL z = to_ref(v);
  return std::isnan(z.real()) || std::isnan(z.imag());
}
template <class T> T random_value() {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const double re = d(test::rng());
  return make<T>(re, kComplex<T> ? d(test::rng()) : 0.0);
}
template <class T> bool skip_type() { return std::is_same_v<Part<T>, double> && !test::device().caps().fp64; }

// A stored rows x cols matrix (layout, ld = inner + pad) from `off` in its
// allocation; every element NaN until set.
template <class T>
struct Mat {
  std::int64_t rows, cols, ld;
  std::size_t off;
  bool row;
  std::vector<T> host;
  Buffer<T> all, view;
  Mat(Layout layout, std::int64_t r, std::int64_t c, std::int64_t pad, std::size_t off_)
      : rows(r), cols(c), off(off_), row(layout == Layout::RowMajor) {
    ld = std::max<std::int64_t>(row ? cols : rows, 1) + pad;
    host.assign(off + std::size_t((row ? rows : cols) * ld) + 2, nan_value<T>());
  }
  std::size_t at(std::int64_t i, std::int64_t j) const { return off + std::size_t(row ? i * ld + j : i + j * ld); }
  T& el(std::int64_t i, std::int64_t j) { return host[at(i, j)]; }
  void upload() {
    all = test::context().alloc<T>(host.size());
    test::queue().upload(all, std::span<const T>(host));
    view = all.view(off, host.size() - off);
  }
};

struct Case {
  bool herm;
  Layout layout;
  Side side;
  Triangle tri;
  std::int64_t m, n;
  ZL alpha, beta;
  bool nan_c = false;
};

template <class T>
void run_case(const Case& cs) {
  const std::int64_t ka = cs.side == Side::Left ? cs.m : cs.n;
  Mat<T> a(cs.layout, ka, ka, 2, 3), b(cs.layout, cs.m, cs.n, 1, 1), c(cs.layout, cs.m, cs.n, 3, 2);
  // Only the triangle is set; the other stays NaN, and so does a Hermitian
  // diagonal's imaginary part.
  for (std::int64_t i = 0; i < ka; ++i)
    for (std::int64_t j = 0; j < ka; ++j)
      if (cs.tri == Triangle::Upper ? i <= j : i >= j) {
        a.el(i, j) = random_value<T>();
        if constexpr (kComplex<T>)
          if (cs.herm && i == j) a.el(i, j) = T(a.el(i, j).real(), std::numeric_limits<Part<T>>::quiet_NaN());
      }
  for (std::int64_t i = 0; i < cs.m; ++i)
    for (std::int64_t j = 0; j < cs.n; ++j) {
      b.el(i, j) = random_value<T>();
      c.el(i, j) = cs.nan_c ? nan_value<T>() : random_value<T>();
    }
  a.upload(), b.upload(), c.upload();
  const std::vector<T> before = c.host;
  const T alpha = make<T>(double(cs.alpha.real()), double(cs.alpha.imag()));
  const T beta = make<T>(double(cs.beta.real()), double(cs.beta.imag()));
  if (cs.herm)
    hemm<T>(test::queue(), cs.layout, cs.side, cs.tri, cs.m, cs.n, alpha, a.view, a.ld, b.view, b.ld, beta, c.view,
            c.ld);
  else
    symm<T>(test::queue(), cs.layout, cs.side, cs.tri, cs.m, cs.n, alpha, a.view, a.ld, b.view, b.ld, beta, c.view,
            c.ld);
  const std::vector<T> got = test::queue().download(c.all);

  // The full A from its triangle.
  const auto full = [&](std::int64_t i, std::int64_t j) -> ZL {
    const bool stored = cs.tri == Triangle::Upper ? i <= j : i >= j;
    ZL v = to_ref(stored ? a.el(i, j) : a.el(j, i));
    if (cs.herm && i == j) return {v.real(), 0};
    return cs.herm && !stored ? std::conj(v) : v;
  };
  const std::string what = std::string(cs.herm ? "hemm " : "symm ") + (cs.layout == Layout::RowMajor ? "row " : "col ") +
                           (cs.side == Side::Left ? "left " : "right ") + (cs.tri == Triangle::Upper ? "upper " : "lower ") +
                           std::to_string(cs.m) + "x" + std::to_string(cs.n);
  const LD eps = LD(std::numeric_limits<Part<T>>::epsilon());
  std::vector<bool> written(got.size(), false);
  int bad = 0;
  for (std::int64_t i = 0; i < cs.m; ++i)
    for (std::int64_t j = 0; j < cs.n; ++j) {
      ZL sum = 0;
      LD mag = 0;
      if (cs.alpha != ZL(0))
        for (std::int64_t p = 0; p < ka; ++p) {
          const ZL x = cs.side == Side::Left ? full(i, p) : to_ref(b.el(i, p));
          const ZL y = cs.side == Side::Left ? to_ref(b.el(p, j)) : full(p, j);
          sum += x * y;
          mag += std::abs(x) * std::abs(y);
        }
      const ZL old_part = cs.beta == ZL(0) ? ZL(0) : cs.beta * to_ref(before[c.at(i, j)]);
      const ZL want = cs.alpha * sum + old_part;
      const LD bound = 4 * LD(ka + 4) * eps * (std::abs(cs.alpha) * mag + std::abs(old_part)) +
                       std::numeric_limits<LD>::min();
      written[c.at(i, j)] = true;
      const T g = got[c.at(i, j)];
      if ((has_nan(g) || std::abs(to_ref(g) - want) > bound) && bad++ < 5)
        ADD_FAILURE() << what << ": C(" << i << ", " << j << ") = " << double(to_ref(g).real()) << " + "
                      << double(to_ref(g).imag()) << "i, expected " << double(want.real()) << " + "
                      << double(want.imag()) << "i";
    }
  for (std::size_t e = 0; e < got.size(); ++e)
    if (!written[e] && !has_nan(got[e]) && bad++ < 5) ADD_FAILURE() << what << ": element " << e << " outside C written";
  EXPECT_EQ(bad, 0) << what;
}

template <class T>
class Symm : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Symm, Types);

TYPED_TEST(Symm, EverySideTriangleLayout) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  const ZL alpha = kComplex<T> ? ZL(0.75, -0.5) : ZL(0.75, 0), beta = kComplex<T> ? ZL(-0.5, 1) : ZL(-0.5, 0);
  for (bool herm : {false, true}) {
    if (herm && !kComplex<T>) continue;
    for (Layout layout : {Layout::RowMajor, Layout::ColMajor})
      for (Side side : {Side::Left, Side::Right})
        for (Triangle tri : {Triangle::Upper, Triangle::Lower})
          run_case<T>({herm, layout, side, tri, 7, 5, alpha, beta});
  }
}

TYPED_TEST(Symm, SizesAcrossTilesAndScalars) {
  using T = TypeParam;
  if (skip_type<T>()) GTEST_SKIP() << "no fp64";
  const bool herm = kComplex<T>;
  // 37 crosses the expansion's 16 x 16 tiles, with diagonal tiles mixed.
  run_case<T>({herm, Layout::RowMajor, Side::Left, Triangle::Lower, 37, 18, ZL(1, 0), ZL(0, 0)});
  run_case<T>({herm, Layout::ColMajor, Side::Right, Triangle::Upper, 19, 37, ZL(-1, 0), ZL(1, 0)});
  run_case<T>({false, Layout::RowMajor, Side::Right, Triangle::Upper, 1, 1, ZL(2, 0), ZL(0.5, 0)});
  // beta = 0 over NaN in C; alpha = 0 (C = beta C, A and B unread).
  run_case<T>({herm, Layout::ColMajor, Side::Left, Triangle::Upper, 6, 4, ZL(1, 0), ZL(0, 0), true});
  run_case<T>({false, Layout::RowMajor, Side::Left, Triangle::Lower, 5, 3, ZL(0, 0), ZL(-2, 0)});
  run_case<T>({herm, Layout::RowMajor, Side::Right, Triangle::Lower, 5, 3, ZL(0, 0), ZL(0, 0), true});
}

TEST(SymmErrors, EveryValidationError) {
  const Queue& q = test::queue();
  auto a = test::context().alloc<float>(64), b = test::context().alloc<float>(64), c = test::context().alloc<float>(64);
  const auto call = [&](Layout l, Side s, Triangle t, std::int64_t m, std::int64_t n, std::int64_t lda,
                        std::int64_t ldb, std::int64_t ldc, const Buffer<float>& cc) {
    symm<float>(q, l, s, t, m, n, 1.0f, a, lda, b, ldb, 0.0f, cc, ldc);
  };
  const Layout R = Layout::RowMajor;
  test::expect_error(Status::InvalidArgument, "layout", [&] { call(Layout(2), Side::Left, Triangle::Upper, 2, 2, 2, 2, 2, c); });
  test::expect_error(Status::InvalidArgument, "side (argument 1)", [&] { call(R, Side(5), Triangle::Upper, 2, 2, 2, 2, 2, c); });
  test::expect_error(Status::InvalidArgument, "triangle (argument 2)", [&] { call(R, Side::Left, Triangle(7), 2, 2, 2, 2, 2, c); });
  test::expect_error(Status::InvalidArgument, "m (argument 3)", [&] { call(R, Side::Left, Triangle::Upper, -1, 2, 2, 2, 2, c); });
  test::expect_error(Status::InvalidArgument, "n (argument 4)", [&] { call(R, Side::Left, Triangle::Upper, 2, -1, 2, 2, 2, c); });
  test::expect_error(Status::InvalidArgument, "lda (argument 7)", [&] { call(R, Side::Right, Triangle::Upper, 2, 3, 2, 3, 3, c); });
  test::expect_error(Status::InvalidArgument, "ldb (argument 9)", [&] { call(R, Side::Left, Triangle::Upper, 2, 3, 2, 2, 3, c); });
  test::expect_error(Status::InvalidArgument, "ldc (argument 12)", [&] { call(Layout::ColMajor, Side::Left, Triangle::Upper, 4, 3, 4, 4, 3, c); });
  test::expect_error(Status::BufferTooSmall, "symm: b", [&] { call(R, Side::Left, Triangle::Upper, 2, 40, 2, 40, 40, c); });
  test::expect_error(Status::InvalidArgument, "c overlaps a", [&] { call(R, Side::Left, Triangle::Upper, 2, 2, 2, 2, 2, a.view(2, 10)); });
  test::expect_error(Status::InvalidArgument, "c overlaps b", [&] { call(R, Side::Left, Triangle::Upper, 2, 2, 2, 2, 2, b); });
  // m = 0 still validates the buffers.
  test::expect_error(Status::InvalidArgument, "lda (argument 7)", [&] { call(R, Side::Left, Triangle::Upper, 0, 2, 0, 2, 2, c); });
  test::expect_error(Status::InvalidType, "c32 or c64", [&] {
    hemm<float>(q, R, Side::Left, Triangle::Upper, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
  });
  if (!test::device().caps().fp64) {
    auto d = test::context().alloc<double>(16);
    test::expect_error(Status::Unsupported, "f64", [&] {
      symm<double>(q, R, Side::Left, Triangle::Upper, 2, 2, 1.0, d, 2, d, 2, 0.0, d, 2);
    });
  }
}

// The checks the test above leaves: the queue, the buffers (empty, another
// context, a hand-made view past its allocation), A's extent past 64 bits,
// and what only the untyped call (the C API's) can carry: an unknown or
// unsupported element type.
TEST(SymmErrors, QueueBuffersAndTypes) {
  const Queue& q = test::queue();
  auto a = test::context().alloc<float>(64), b = test::context().alloc<float>(64), c = test::context().alloc<float>(64);
  const Layout R = Layout::RowMajor;
  const auto call = [&](const Queue& qq, const Buffer<float>& aa, std::int64_t lda, const Buffer<float>& cc) {
    symm<float>(qq, R, Side::Left, Triangle::Upper, 4, 4, 1.0f, aa, lda, b, 4, 0.0f, cc, 4);
  };
  test::expect_error(Status::InvalidArgument, "symm: empty queue", [&] { call(Queue(), a, 4, c); });
  test::expect_error(Status::InvalidArgument, "symm: a is an empty buffer", [&] { call(q, Buffer<float>(), 4, c); });
  const Context other(test::device());
  test::expect_error(Status::InvalidArgument, "symm: c belongs to another context",
                     [&] { call(q, a, 4, other.alloc<float>(16)); });
  test::expect_error(Status::BufferTooSmall, "symm: c: needs 4160 elements",
                     [&] { call(q, a, 4, Buffer<float>(c.mem(), 0, 64 + 4096)); });
  test::expect_error(Status::Overflow, "symm: a", [&] { call(q, a, std::numeric_limits<std::int64_t>::max(), c); });
  detail::SymmCall s;
  s.m = s.n = 2;
  s.a = {a.mem(), 0, 64, DType::BF16};
  s.b = {b.mem(), 0, 64, DType::BF16};
  s.c = {c.mem(), 0, 64, DType::BF16};
  s.lda = s.ldb = s.ldc = 2;
  test::expect_error(Status::InvalidType, "symm: bf16 matrices are not supported (f32, f64, c32, c64 or f16)",
                     [&] { detail::symm_untyped(q, s, {}); });
  s.b.dtype = DType(99);
  test::expect_error(Status::InvalidArgument, "symm: b: unknown data type 99", [&] { detail::symm_untyped(q, s, {}); });
}

TEST(SymmCapi, EntriesAndErrors) {
  namespace capi = test::capi;
  const auto& e = capi::env();
  capi::Buf a(OPTUNE_C32, 16), b(OPTUNE_C32, 16), c(OPTUNE_C32, 16), r(OPTUNE_F32, 16);
  std::vector<float> av = test::random_floats(32), bv = test::random_floats(32), cv(32, 0.0f);
  av[1] = av[7] = 0.0f;  // the diagonal's imaginary parts (2 x 2 row-major, a(0,0) and a(1,1))
  C_OK(optune_buffer_write(e.queue, a.h, av.data(), 16, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, b.h, bv.data(), 16, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, c.h, cv.data(), 16, nullptr, 0, nullptr));
  // 2 x 2 Hermitian from the upper triangle, left side: C = A B.
  C_OK(optune_blas_hemm(e.queue, OPTUNE_ROW_MAJOR, OPTUNE_LEFT, OPTUNE_UPPER, 2, 2, optune_complex{1, 0}, a.h, 2, b.h,
                        2, optune_complex{0, 0}, c.h, 2, nullptr, 0, nullptr));
  std::vector<float> got(32);
  C_OK(optune_buffer_read(e.queue, c.h, got.data(), 16, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  const auto z = [](const std::vector<float>& v, int k) { return ZL(LD(v[std::size_t(2 * k)]), LD(v[std::size_t(2 * k + 1)])); };
  const ZL full[2][2] = {{z(av, 0), z(av, 1)}, {std::conj(z(av, 1)), z(av, 3)}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const ZL want = full[i][0] * z(bv, j) + full[i][1] * z(bv, 2 + j);
      EXPECT_LT(double(std::abs(z(got, 2 * i + j) - want)), 1e-5) << i << ", " << j;
    }
  C_OK(optune_blas_symm(e.queue, OPTUNE_COL_MAJOR, OPTUNE_RIGHT, OPTUNE_LOWER, 2, 2, optune_complex{1, 1}, a.h, 2,
                        b.h, 2, optune_complex{0, -1}, c.h, 2, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  EXPECT_TRUE(capi::fails(optune_blas_symm(e.queue, OPTUNE_ROW_MAJOR, OPTUNE_LEFT, OPTUNE_UPPER, 2, 2,
                                           optune_complex{1, 2}, r.h, 2, r.h, 2, optune_complex{0, 0}, r.h, 2, nullptr,
                                           0, nullptr),
                          OPTUNE_INVALID_ARGUMENT, "alpha has an imaginary part"));
  EXPECT_TRUE(capi::fails(optune_blas_symm(e.queue, OPTUNE_ROW_MAJOR, optune_side(2), OPTUNE_UPPER, 2, 2,
                                           optune_complex{1, 0}, a.h, 2, b.h, 2, optune_complex{0, 0}, c.h, 2, nullptr,
                                           0, nullptr),
                          OPTUNE_INVALID_ARGUMENT, "side (argument 1)"));
  EXPECT_TRUE(capi::fails(optune_blas_hemm(e.queue, OPTUNE_ROW_MAJOR, OPTUNE_LEFT, optune_triangle(2), 2, 2,
                                           optune_complex{1, 0}, a.h, 2, b.h, 2, optune_complex{0, 0}, c.h, 2, nullptr,
                                           0, nullptr),
                          OPTUNE_INVALID_ARGUMENT, "uplo (argument 2)"));
  EXPECT_TRUE(capi::fails(optune_blas_hemm(e.queue, OPTUNE_ROW_MAJOR, OPTUNE_LEFT, OPTUNE_UPPER, 2, 2,
                                           optune_complex{1, 0}, r.h, 2, r.h, 2, optune_complex{0, 0}, r.h, 2, nullptr,
                                           0, nullptr),
                          OPTUNE_INVALID_TYPE, "c32 or c64"));
  EXPECT_TRUE(capi::fails(optune_blas_symm(e.queue, OPTUNE_ROW_MAJOR, OPTUNE_LEFT, OPTUNE_UPPER, 2, 2,
                                           optune_complex{1, 0}, a.h, 2, r.h, 2, optune_complex{0, 0}, c.h, 2, nullptr,
                                           0, nullptr),
                          OPTUNE_INVALID_TYPE, "one type"));
}

}  // namespace
