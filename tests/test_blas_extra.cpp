// CLBlast's extra routines (optune/blas_extra.hpp): had, omatcopy and
// axpy_batched in s, d, c and z against a long double reference written
// here, at odd sizes, increments of both signs, both layouts and every
// transposition, inside poisoned allocations (NaN wherever a call must not
// write, checked after it); beta = 0 with NaN in z; and every validation
// error.
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <tuple>
#include <type_traits>

#include "ops/blas_extra_ops.hpp"
#include "optune/blas_extra.hpp"
#include "support/blas_values.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;
using test::expect_error;

namespace {

using namespace test::blas;

template <class T> T scalar(double re, double im) {
  if constexpr (kComplex<T>) return T(Real<T>(re), Real<T>(im));
  else return T(re);
}

// Every element of the allocation against the model (NaN: untouched).
template <class T>
void expect_model(const std::string& what, const Buffer<T>& all, const std::vector<CL>& model) {
  const std::vector<T> got = test::queue().download(all);
  const LD tol = 8 * LD(std::numeric_limits<Real<T>>::epsilon());
  int bad = 0;
  for (std::size_t p = 0; p < got.size() && bad < 4; ++p) {
    if (std::isnan(model[p].real())) {
      if (!has_nan(got[p])) {
        ADD_FAILURE() << what << ": element " << p << " should be untouched";
        ++bad;
      }
      continue;
    }
    const LD err = std::abs(to_ref(got[p]) - model[p]);
    if (!(err <= tol * (1 + std::abs(model[p])))) {
      ADD_FAILURE() << what << ": element " << p << " differs by " << double(err);
      ++bad;
    }
  }
}

template <class T>
Buffer<T> upload(const std::vector<T>& h) {
  Buffer<T> b = test::context().alloc<T>(h.size());
  test::queue().upload(b, std::span<const T>(h));
  return b;
}

template <class T>
class BlasExtra : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::is_same_v<Real<T>, double> && !test::device().caps().fp64) GTEST_SKIP() << "no fp64";
  }
};

using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(BlasExtra, Types);

TYPED_TEST(BlasExtra, Had) {
  using T = TypeParam;
  const Queue& q = test::queue();
  struct Case { std::int64_t n, incx, incy, incz; bool beta_zero; };
  for (const Case& k : {Case{1, 1, 1, 1, false}, Case{7, -1, 2, 1, true}, Case{1000, 1, 1, -2, false},
                        Case{65537, 1, 1, 1, true}, Case{33, -3, -1, 2, false}}) {
    const auto vec = [&](std::int64_t inc, bool fill) {
      std::vector<T> h(2 + std::size_t((k.n - 1) * std::abs(inc) + 1) + 2, nan_value<T>());
      if (fill)
        for (std::int64_t i = 0; i < k.n; ++i) h[2 + at(i, k.n, inc)] = random_value<T>();
      return h;
    };
    const std::vector<T> hx = vec(k.incx, true), hy = vec(k.incy, true);
    // z: NaN everywhere when beta is 0 (must not be read), random otherwise.
    const std::vector<T> hz = vec(k.incz, !k.beta_zero);
    const T alpha = scalar<T>(0.75, -0.5), beta = k.beta_zero ? T(0) : scalar<T>(-1.25, 0.25);
    Buffer<T> x = upload(hx), y = upload(hy), z = upload(hz);
    const auto view = [&](const Buffer<T>& b) { return b.view(2, b.size() - 4); };
    had(q, k.n, alpha, view(x), k.incx, view(y), k.incy, beta, view(z), k.incz).wait();
    std::vector<CL> model(hz.size(), CL(std::numeric_limits<LD>::quiet_NaN(), 0));
    for (std::int64_t i = 0; i < k.n; ++i) {
      CL v = to_ref(alpha) * to_ref(hx[2 + at(i, k.n, k.incx)]) * to_ref(hy[2 + at(i, k.n, k.incy)]);
      if (!k.beta_zero) v += to_ref(beta) * to_ref(hz[2 + at(i, k.n, k.incz)]);
      model[2 + at(i, k.n, k.incz)] = v;
    }
    expect_model("had n=" + std::to_string(k.n), z, model);
  }
  // In place: z is x.
  std::vector<T> h(9);
  for (T& v : h) v = random_value<T>();
  Buffer<T> x = upload(h), y = upload(h);
  had(q, 9, T(2), x, 1, y, 1, T(1), x, 1).wait();
  std::vector<CL> model(9);
  for (int i = 0; i < 9; ++i) model[i] = LD(2) * to_ref(h[i]) * to_ref(h[i]) + to_ref(h[i]);
  expect_model("had in place", x, model);
}

TYPED_TEST(BlasExtra, Omatcopy) {
  using T = TypeParam;
  const Queue& q = test::queue();
  int idx = 0;
  for (Layout layout : {Layout::ColMajor, Layout::RowMajor})
    for (BlasTranspose trans : {BlasTranspose::No, BlasTranspose::Yes, BlasTranspose::Conjugate})
      for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {5, 3}, {17, 40}}) {
        const bool col = layout == Layout::ColMajor;
        const std::int64_t lda = (col ? m : n) + idx % 3;
        const std::int64_t rows = trans == BlasTranspose::No ? m : n, cols = trans == BlasTranspose::No ? n : m;
        const std::int64_t ldb = (col ? rows : cols) + (idx + 1) % 3;
        ++idx;
        const std::int64_t outer_a = col ? n : m, outer_b = col ? cols : rows;
        std::vector<T> ha(std::size_t(outer_a * lda) + 1, nan_value<T>()), hb(std::size_t(outer_b * ldb) + 1, nan_value<T>());
        const auto ai = [&](std::int64_t r, std::int64_t c) { return std::size_t(1 + (col ? r + c * lda : r * lda + c)); };
        const auto bi = [&](std::int64_t r, std::int64_t c) { return std::size_t(col ? r + c * ldb : r * ldb + c); };
        for (std::int64_t r = 0; r < m; ++r)
          for (std::int64_t c = 0; c < n; ++c) ha[ai(r, c)] = random_value<T>();
        Buffer<T> a = upload(ha), b = upload(hb);
        const T alpha = scalar<T>(-1.5, 0.5);
        omatcopy(q, layout, trans, m, n, alpha, a.view(1, a.size() - 1), lda, b.view(0, b.size() - 1), ldb).wait();
        std::vector<CL> model(hb.size(), CL(std::numeric_limits<LD>::quiet_NaN(), 0));
        for (std::int64_t i = 0; i < rows; ++i)
          for (std::int64_t j = 0; j < cols; ++j) {
            CL v = trans == BlasTranspose::No ? to_ref(ha[ai(i, j)]) : to_ref(ha[ai(j, i)]);
            if (trans == BlasTranspose::Conjugate) v = std::conj(v);
            model[bi(i, j)] = to_ref(alpha) * v;
          }
        expect_model("omatcopy m=" + std::to_string(m) + " n=" + std::to_string(n) + " layout=" +
                         std::to_string(int(layout)) + " trans=" + std::to_string(int(trans)),
                     b, model);
      }
}

TYPED_TEST(BlasExtra, AxpyBatched) {
  using T = TypeParam;
  const Queue& q = test::queue();
  for (auto [n, incx, incy] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{1, 1, 1}, {13, -2, 1}, {300, 1, -1}}) {
    const std::int64_t batch = 5;
    const std::size_t sx = std::size_t((n - 1) * std::abs(incx) + 1), sy = std::size_t((n - 1) * std::abs(incy) + 1);
    std::vector<std::int64_t> xo, yo;
    std::vector<T> alphas;
    for (std::int64_t b = 0; b < batch; ++b) {
      xo.push_back(std::int64_t((batch - 1 - b) * (sx + 1)));  // x in reverse order, one gap element
      yo.push_back(std::int64_t(b * (sy + 2) + 1));
      alphas.push_back(scalar<T>(0.5 + double(b), -double(b)));
    }
    std::vector<T> hx(std::size_t(batch) * (sx + 1), nan_value<T>()), hy(std::size_t(batch) * (sy + 2) + 1, nan_value<T>());
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t i = 0; i < n; ++i) {
        hx[std::size_t(xo[b]) + at(i, n, incx)] = random_value<T>();
        hy[std::size_t(yo[b]) + at(i, n, incy)] = random_value<T>();
      }
    Buffer<T> x = upload(hx), y = upload(hy);
    axpy_batched(q, n, std::span<const T>(alphas), x, std::span<const std::int64_t>(xo), incx, y,
                 std::span<const std::int64_t>(yo), incy)
        .wait();
    std::vector<CL> model(hy.size());
    for (std::size_t p = 0; p < hy.size(); ++p) model[p] = has_nan(hy[p]) ? CL(std::numeric_limits<LD>::quiet_NaN(), 0) : to_ref(hy[p]);
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t i = 0; i < n; ++i)
        model[std::size_t(yo[b]) + at(i, n, incy)] += to_ref(alphas[b]) * to_ref(hx[std::size_t(xo[b]) + at(i, n, incx)]);
    expect_model("axpy_batched n=" + std::to_string(n), y, model);
  }
}

}  // namespace

TEST(BlasExtraErrors, Every) {
  const Queue& q = test::queue();
  Buffer<float> x = test::context().alloc<float>(16), y = test::context().alloc<float>(16), z = test::context().alloc<float>(16);
  q.fill(x, 1.0f).wait();
  q.fill(y, 1.0f).wait();
  expect_error(Status::InvalidArgument, "had: n", [&] { had(q, -1, 1.0f, x, 1, y, 1, 0.0f, z, 1); });
  expect_error(Status::InvalidArgument, "had: incz is 0", [&] { had(q, 4, 1.0f, x, 1, y, 1, 0.0f, z, 0); });
  expect_error(Status::InvalidArgument, "had: incx is 0", [&] { had(q, 4, 1.0f, x, 0, y, 1, 0.0f, z, 1); });
  expect_error(Status::BufferTooSmall, "had: y", [&] { had(q, 9, 1.0f, x, 1, y, -2, 0.0f, z, 1); });
  expect_error(Status::InvalidArgument, "had: x and z overlap", [&] { had(q, 8, 1.0f, x, 1, y, 1, 0.0f, x.view(1, 15), 1); });
  expect_error(Status::InvalidArgument, "had: z is an empty buffer", [&] { had(q, 0, 1.0f, x, 1, y, 1, 0.0f, Buffer<float>(), 1); });
  expect_error(Status::InvalidArgument, "omatcopy: lda is 2; at least 3", [&] {
    omatcopy(q, Layout::ColMajor, BlasTranspose::No, 3, 2, 1.0f, x, 2, y, 3);
  });
  expect_error(Status::InvalidArgument, "omatcopy: ldb is 2; at least 3", [&] {
    omatcopy(q, Layout::ColMajor, BlasTranspose::Yes, 2, 3, 1.0f, x, 2, y, 2);
  });
  expect_error(Status::InvalidArgument, "omatcopy: trans is 5", [&] {
    omatcopy(q, Layout::RowMajor, BlasTranspose(5), 2, 3, 1.0f, x, 3, y, 3);
  });
  expect_error(Status::InvalidArgument, "omatcopy: layout is 9", [&] {
    omatcopy(q, Layout(9), BlasTranspose::No, 2, 3, 1.0f, x, 3, y, 3);
  });
  expect_error(Status::InvalidArgument, "omatcopy: m", [&] {
    omatcopy(q, Layout::RowMajor, BlasTranspose::No, -2, 3, 1.0f, x, 3, y, 3);
  });
  expect_error(Status::BufferTooSmall, "omatcopy: b", [&] {
    omatcopy(q, Layout::RowMajor, BlasTranspose::No, 4, 4, 1.0f, x, 4, y.view(0, 15), 4);
  });
  expect_error(Status::InvalidArgument, "omatcopy: a and b overlap", [&] {
    omatcopy(q, Layout::RowMajor, BlasTranspose::No, 2, 2, 1.0f, x.view(0, 4), 2, x.view(3, 4), 2);
  });
  const float alphas[2] = {1, 2};
  const std::int64_t xo[2] = {0, 4}, yo[2] = {0, 3}, bad[1] = {0}, neg[2] = {0, -1};
  expect_error(Status::InvalidArgument, "axpy_batched: x_offsets (1) and y_offsets (2) must have one entry per alpha (2)",
               [&] { axpy_batched(q, 4, std::span<const float>(alphas), x, std::span<const std::int64_t>(bad), 1, y,
                                  std::span<const std::int64_t>(yo), 1); });
  expect_error(Status::InvalidArgument, "the y of batches 0 and 1 overlap", [&] {
    axpy_batched(q, 4, std::span<const float>(alphas), x, std::span<const std::int64_t>(xo), 1, y,
                 std::span<const std::int64_t>(yo), 1);
  });
  expect_error(Status::InvalidArgument, "batch 1: a negative offset", [&] {
    axpy_batched(q, 4, std::span<const float>(alphas), x, std::span<const std::int64_t>(neg), 1, y,
                 std::span<const std::int64_t>(xo), 1);
  });
  expect_error(Status::InvalidArgument, "the x of batch 1 overlaps the y of batch 0", [&] {
    axpy_batched(q, 4, std::span<const float>(alphas), x, std::span<const std::int64_t>(xo), 1, x,
                 std::span<const std::int64_t>(std::array<std::int64_t, 2>{4, 8}), 1);
  });
  expect_error(Status::BufferTooSmall, "axpy_batched: y (batch 1)", [&] {
    axpy_batched(q, 4, std::span<const float>(alphas), x, std::span<const std::int64_t>(xo), 1, y,
                 std::span<const std::int64_t>(std::array<std::int64_t, 2>{0, 13}), 1);
  });
  expect_error(Status::InvalidArgument, "axpy_batched: incy is 0", [&] {
    axpy_batched(q, 4, std::span<const float>(alphas), x, std::span<const std::int64_t>(xo), 1, y,
                 std::span<const std::int64_t>(xo), 0);
  });
  // Types reach the untyped call only through other entries: bf16 refused.
  detail::BlasExtraCall c;
  c.n = 4;
  c.x = detail::blas_vector(x);
  c.x.dtype = DType::BF16;
  c.y = c.x;
  c.z = c.x;
  expect_error(Status::InvalidType, "had: x is bf16; f32, f64, c32, c64 or f16 expected", [&] { detail::blas_extra_untyped(q, c, {}); });
  c.x.dtype = DType::F32;
  c.y = detail::blas_vector(test::context().alloc<double>(4));
  expect_error(Status::InvalidType, "had: y is f64 but the first operand is f32", [&] { detail::blas_extra_untyped(q, c, {}); });
}

// The checks the test above leaves: each increment and size of each routine,
// each operand's view too small, extents past 64 bits, y overlapping z, and
// hand-made views that claim more than their allocation holds.
TEST(BlasExtraErrors, EveryOperand) {
  const Queue& q = test::queue();
  Buffer<float> x = test::context().alloc<float>(16), y = test::context().alloc<float>(16), z = test::context().alloc<float>(16);
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max(), most_negative = std::numeric_limits<std::int64_t>::min();
  expect_error(Status::InvalidArgument, "had: incy is 0", [&] { had(q, 4, 1.0f, x, 1, y, 0, 0.0f, z, 1); });
  expect_error(Status::BufferTooSmall, "had: x", [&] { had(q, 9, 1.0f, x, 2, y, 1, 0.0f, z, 1); });
  expect_error(Status::BufferTooSmall, "had: z", [&] { had(q, 9, 1.0f, x, 1, y, 1, 0.0f, z, -2); });
  expect_error(Status::Overflow, "had: x (n, incx)", [&] { had(q, 4, 1.0f, x, most_negative, y, 1, 0.0f, z, 1); });
  expect_error(Status::InvalidArgument, "had: y and z overlap without being the same vector",
               [&] { had(q, 8, 1.0f, x, 1, y, 1, 0.0f, y.view(4, 12), 1); });
  expect_error(Status::InvalidArgument, "omatcopy: n must not be negative", [&] {
    omatcopy(q, Layout::RowMajor, BlasTranspose::No, 2, -3, 1.0f, x, 3, y, 3);
  });
  expect_error(Status::BufferTooSmall, "omatcopy: a", [&] {
    omatcopy(q, Layout::RowMajor, BlasTranspose::No, 4, 4, 1.0f, x.view(0, 15), 4, y, 4);
  });
  expect_error(Status::Overflow, "omatcopy: a (m, n, lda)", [&] {
    omatcopy(q, Layout::RowMajor, BlasTranspose::No, 4, 4, 1.0f, x, huge, y, 4);
  });
  expect_error(Status::Overflow, "omatcopy: b (m, n, ldb)", [&] {
    omatcopy(q, Layout::ColMajor, BlasTranspose::Yes, 4, 4, 1.0f, x, 4, y, huge);
  });
  const float alphas[2] = {1, 2};
  const std::int64_t xo[2] = {0, 4}, yo[2] = {0, 8}, far[2] = {0, 13};
  const auto batched = [&](std::int64_t n, std::span<const std::int64_t> x_offsets, std::int64_t incx) {
    axpy_batched(q, n, std::span<const float>(alphas), x, x_offsets, incx, y, std::span<const std::int64_t>(yo), 1);
  };
  expect_error(Status::InvalidArgument, "axpy_batched: n must not be negative", [&] { batched(-1, xo, 1); });
  expect_error(Status::BufferTooSmall, "axpy_batched: x (batch 1)", [&] { batched(4, far, 1); });
  expect_error(Status::Overflow, "axpy_batched: x (n, incx)", [&] { batched(4, xo, most_negative); });
  // Views of 16 that claim 4096 more, or start far past the end.
  Buffer<float> big = test::context().alloc<float>(1024);
  for (std::size_t at : {std::size_t(0), std::size_t(1) << 40}) {
    const Buffer<float> bad(x.mem(), at, 16 + 4096);
    expect_error(Status::BufferTooSmall, "had: z", [&] { had(q, 1024, 1.0f, big, 1, big, 1, 0.0f, bad, 1); });
    expect_error(Status::BufferTooSmall, "omatcopy: a", [&] {
      omatcopy(q, Layout::RowMajor, BlasTranspose::No, 32, 32, 1.0f, bad, 32, big, 32);
    });
  }
}

// The C API: a had, an omatcopy and an axpy_batched that work, read back;
// its own checks (NULL arrays, imaginary parts for real data).
TEST(BlasExtraErrors, CApi) {
  using test::capi::Buf;
  const auto& e = test::capi::env();
  Buf x(OPTUNE_F32, 4), y(OPTUNE_F32, 4), z(OPTUNE_F32, 4);
  const float hx[4] = {1, 2, 3, 4}, hy[4] = {2, 2, 2, 2};
  C_OK(optune_buffer_write(e.queue, x.h, hx, 4, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, y.h, hy, 4, nullptr, 0, nullptr));
  C_OK(optune_blas_had(e.queue, 4, {0.5, 0}, x.h, 1, y.h, 1, {0, 0}, z.h, -1, nullptr, 0, nullptr));
  float out[4];
  C_OK(optune_buffer_read(e.queue, z.h, out, 4, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[3 - i], hx[i]);  // 0.5 * x * 2, walked backwards
  // B (2 x 2, column-major) = 2 A^T, A = [1 3; 2 4].
  C_OK(optune_blas_omatcopy(e.queue, OPTUNE_COL_MAJOR, 1, 2, 2, {2, 0}, x.h, 2, z.h, 2, nullptr, 0, nullptr));
  C_OK(optune_buffer_read(e.queue, z.h, out, 4, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  EXPECT_EQ(out[0], 2.0f);
  EXPECT_EQ(out[1], 6.0f);
  EXPECT_EQ(out[2], 4.0f);
  EXPECT_EQ(out[3], 8.0f);
  // y[0..1] += 1 x[2..3], y[2..3] += 2 x[0..1].
  const optune_complex alphas[2] = {{1, 0}, {2, 0}};
  const int64_t xo[2] = {2, 0}, yo[2] = {0, 2};
  C_OK(optune_blas_axpy_batched(e.queue, 2, alphas, x.h, xo, 1, y.h, yo, 1, 2, nullptr, 0, nullptr));
  C_OK(optune_buffer_read(e.queue, y.h, out, 4, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  EXPECT_EQ(out[0], 5.0f);
  EXPECT_EQ(out[1], 6.0f);
  EXPECT_EQ(out[2], 4.0f);
  EXPECT_EQ(out[3], 6.0f);
  const auto expect_c = [](optune_status got, optune_status want, const std::string& needle) {
    EXPECT_EQ(got, want) << optune_last_error_message();
    EXPECT_NE(std::string(optune_last_error_message()).find(needle), std::string::npos) << optune_last_error_message();
  };
  expect_c(optune_blas_axpy_batched(e.queue, 2, nullptr, x.h, xo, 1, y.h, yo, 1, 2, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "optune_blas_axpy_batched: alphas is NULL");
  expect_c(optune_blas_had(e.queue, 4, {0.5, 1}, x.h, 1, y.h, 1, {0, 0}, z.h, 1, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "optune_blas_had: alpha has an imaginary part");
}
