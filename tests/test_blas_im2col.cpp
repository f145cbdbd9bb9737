// im2col and col2im (optune/blas_extra.hpp) in h, s, d, c and z against a
// double-precision reference written here in CLBlast's formulation (a loop
// over channels, patches and kernel taps; col2im scatters where the kernel
// gathers): odd sizes, pads, strides and dilations that differ between the
// axes, a kernel larger than the padded image (CLBlast's one-row grid),
// strides past the kernel (image elements no patch reads), both kernel
// modes, operands inside NaN-poisoned allocations at offsets; col2im adds
// to the image; zero sizes return at once; every validation error; the C API.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "ops/blas_extra_ops.hpp"
#include "optune/blas_extra.hpp"
#include "reference/im2col_ref.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;
using test::expect_error;

namespace {

using C = std::complex<double>;

template <class T> constexpr bool kIsComplex = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

template <class T> C to_c(const T& v) {
  if constexpr (std::is_same_v<T, half>) return {double(float(v)), 0.0};
  else if constexpr (kIsComplex<T>) return {double(v.real()), double(v.imag())};
  else return {double(v), 0.0};
}

template <class T> T from_c(C v) {
  if constexpr (std::is_same_v<T, half>) return half(float(v.real()));
  else if constexpr (kIsComplex<T>) return T(typename T::value_type(v.real()), typename T::value_type(v.imag()));
  else return T(v.real());
}

template <class T> bool is_nan(const T& v) {
  const C c = to_c(v);
  return std::isnan(c.real()) || std::isnan(c.imag());
}

// The storage type's unit roundoff (half: 2^-11).
template <class T> double unit() {
  if constexpr (std::is_same_v<T, half>) return 1.0 / 2048;
  else if constexpr (kIsComplex<T>) return std::numeric_limits<typename T::value_type>::epsilon() / 2;
  else return std::numeric_limits<T>::epsilon() / 2;
}

template <class T> T random_value() {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  return from_c<T>(C(d(test::rng()), kIsComplex<T> ? d(test::rng()) : 0.0));
}

using ref::Im2colShape;
using Shape = Im2colShape;

// 2 elements before the view and 3 after, NaN; the view holds `inner`.
template <class T>
Buffer<T> poisoned(const std::vector<T>& inner) {
  std::vector<T> h(inner.size() + 5, from_c<T>(C(NAN, NAN)));
  std::copy(inner.begin(), inner.end(), h.begin() + 2);
  Buffer<T> b = test::context().alloc<T>(h.size());
  test::queue().upload(b, std::span<const T>(h));
  return b;
}
template <class T> Buffer<T> view_of(const Buffer<T>& b) { return b.view(2, b.size() - 5); }

template <class T>
class Im2col : public ::testing::Test {
 protected:
  void SetUp() override {
    if ((std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>) && !test::device().caps().fp64)
      GTEST_SKIP() << "no fp64";
  }
};

using Types = ::testing::Types<half, float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Im2col, Types);

const Shape kShapes[] = {
    {1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1},   // one element
    {3, 5, 7, 3, 3, 1, 1, 1, 1, 1, 1},   // the common 3 x 3, pad 1
    {2, 7, 5, 3, 2, 0, 2, 2, 1, 1, 3},   // pads, strides, dilations differ by axis
    {3, 9, 6, 2, 3, 2, 0, 3, 2, 2, 1},
    {1, 4, 3, 5, 5, 0, 0, 1, 1, 1, 1},   // kernel beyond the image: one patch row and column
    {2, 6, 11, 3, 3, 3, 1, 1, 2, 3, 2},  // pad wider than the kernel
    {2, 8, 8, 4, 1, 1, 0, 3, 1, 1, 1},   // stride 3 with a 4-tall kernel: uneven overlaps
    {1, 10, 1, 3, 1, 4, 0, 2, 1, 3, 1},  // one column
    {1, 9, 9, 2, 2, 0, 0, 4, 3, 1, 1},   // stride past the kernel: unread image elements
};

std::string label(const Shape& s, KernelMode mode) {
  std::string t = mode == KernelMode::Convolution ? "conv" : "xcorr";
  for (std::int64_t v : {s.c, s.h, s.w, s.kh, s.kw, s.ph, s.pw, s.sh, s.sw, s.dh, s.dw}) t += " " + std::to_string(v);
  return t;
}

TYPED_TEST(Im2col, MatchesReference) {
  using T = TypeParam;
  const Queue& q = test::queue();
  for (const Shape& s : kShapes)
    for (KernelMode mode : {KernelMode::CrossCorrelation, KernelMode::Convolution}) {
      const std::string what = label(s, mode);
      const std::size_t n_im = s.im_size(), n_col = s.col_size();
      std::vector<T> him(n_im), hcol(n_col), nan_col(n_col, from_c<T>(C(NAN, NAN)));
      for (T& v : him) v = random_value<T>();
      for (T& v : hcol) v = random_value<T>();
      std::vector<C> cim(n_im), ccol(n_col);
      std::transform(him.begin(), him.end(), cim.begin(), [](const T& v) { return to_c(v); });
      std::transform(hcol.begin(), hcol.end(), ccol.begin(), [](const T& v) { return to_c(v); });
      // im2col: every element of col written (NaN before), exactly the image's bits or 0.
      const std::vector<C> model = ref::im2col(s, mode, cim);
      Buffer<T> im = poisoned(him), col = poisoned(nan_col);
      im2col(q, mode, s.c, s.h, s.w, s.kh, s.kw, s.ph, s.pw, s.sh, s.sw, s.dh, s.dw, view_of(im), view_of(col)).wait();
      std::vector<T> got = q.download(col);
      int bad = 0;
      for (std::size_t i = 0; i < got.size() && bad < 4; ++i) {
        const bool guard = i < 2 || i >= 2 + n_col;
        if (guard ? !is_nan(got[i]) : to_c(got[i]) != model[i - 2]) {
          ADD_FAILURE() << "im2col " << what << ": element " << i << (guard ? " (guard) written" : " differs");
          ++bad;
        }
      }
      // col2im: im += the sums of the col elements that read each image element.
      std::vector<double> mag;
      const std::vector<C> sum = ref::col2im(s, mode, ccol, cim, &mag);
      Buffer<T> im2 = poisoned(him), col2 = poisoned(hcol);
      col2im(q, mode, s.c, s.h, s.w, s.kh, s.kw, s.ph, s.pw, s.sh, s.sw, s.dh, s.dw, view_of(col2), view_of(im2)).wait();
      got = q.download(im2);
      const double tol = unit<T>() * double(s.kh * s.kw + 2) * 2;
      bad = 0;
      for (std::size_t i = 0; i < got.size() && bad < 4; ++i) {
        const bool guard = i < 2 || i >= 2 + n_im;
        if (guard) {
          if (!is_nan(got[i])) ADD_FAILURE() << "col2im " << what << ": guard " << i << " written", ++bad;
          continue;
        }
        const double err = std::abs(to_c(got[i]) - sum[i - 2]);
        if (!(err <= tol * mag[i - 2])) {
          ADD_FAILURE() << "col2im " << what << ": element " << i - 2 << " is " << to_c(got[i]) << ", expected "
                        << sum[i - 2] << " (error " << err << ")";
          ++bad;
        }
      }
    }
}

// col2im accumulates: twice from the same columns adds them twice; and the
// grid-stride path (one wave of 64-wide groups) gives the same results.
TYPED_TEST(Im2col, Col2imAccumulatesAndGridStrides) {
  using T = TypeParam;
  const Queue& q = test::queue();
  const Shape s{5, 13, 11, 3, 3, 1, 1, 1, 1, 1, 1};
  const std::size_t n_im = s.im_size(), n_col = s.col_size();
  std::vector<T> hcol(n_col), zero(n_im, from_c<T>(C(0)));
  for (T& v : hcol) v = random_value<T>();
  Buffer<T> col = test::context().alloc<T>(n_col), once = test::context().alloc<T>(n_im),
            twice = test::context().alloc<T>(n_im);
  q.upload(col, std::span<const T>(hcol));
  q.upload(once, std::span<const T>(zero));
  q.upload(twice, std::span<const T>(zero));
  const auto run = [&](const Buffer<T>& im) {
    col2im(q, KernelMode::Convolution, s.c, s.h, s.w, s.kh, s.kw, s.ph, s.pw, s.sh, s.sw, s.dh, s.dw, col, im).wait();
  };
  run(once);
  run(twice);
  run(twice);
  const std::vector<T> a = q.download(once), b = q.download(twice);
  for (std::size_t i = 0; i < n_im; ++i)
    ASSERT_LE(std::abs(to_c(b[i]) - 2.0 * to_c(a[i])), 4 * unit<T>() * (1 + std::abs(to_c(b[i])))) << "element " << i;
  // Forced small grid: WGS 64, one wave, so work-items loop over their elements.
  detail::BlasExtraCall c;
  c.routine = detail::BlasExtraRoutine::Im2col;
  c.channels = s.c, c.height = s.h, c.width = s.w, c.kernel_h = s.kh, c.kernel_w = s.kw;
  c.pad_h = s.ph, c.pad_w = s.pw;
  Buffer<T> im = test::context().alloc<T>(n_im), col_a = test::context().alloc<T>(n_col),
            col_b = test::context().alloc<T>(n_col);
  q.upload(im, std::span<const T>(std::vector<T>(hcol.begin(), hcol.begin() + std::ptrdiff_t(n_im))));
  c.x = detail::blas_vector(im);
  c.y = detail::blas_vector(col_a);
  detail::blas_extra_untyped(q, c, {}).wait();
  c.y = detail::blas_vector(col_b);
  const detail::Params forced{{"WGS", 64}, {"WAVES", 1}};
  detail::run_blas_extra(q, c, {}, &forced).wait();
  const std::vector<T> ga = q.download(col_a), gb = q.download(col_b);
  for (std::size_t i = 0; i < n_col; ++i) ASSERT_EQ(to_c(ga[i]), to_c(gb[i])) << "element " << i;
}

// Packs of pixels (the blas_extra family's PV): every PV forced at matrix
// offsets that allow it (0, 4) and one that does not (2: halved, then 1),
// then col2im back from the result under the same PV (row packs),
// over shapes whose pixels fill packs that cross rows of the output
// (4 x 7), strides and dilations, both modes, and a grid of one wave of
// 64-wide groups (work-items loop over their packs). Every element of the
// view must be the model's, and the NaN guards around it untouched.
TYPED_TEST(Im2col, PixelPacks) {
  using T = TypeParam;
  const Queue& q = test::queue();
  const Shape shapes[] = {
      {3, 4, 7, 3, 3, 1, 1, 1, 1, 1, 1},    // 28 pixels: packs wrap the output's rows
      {2, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1},    // 64
      {2, 10, 9, 3, 2, 0, 2, 2, 1, 1, 3},   // strides and dilations differ by axis: 4 x 10 patches
      {1, 2, 2, 1, 1, 0, 0, 1, 1, 1, 1},    // 4 pixels, one pack
      {2, 9, 10, 3, 3, 4, 3, 1, 1, 2, 3},   // stride 1, dilations, pads wider than the kernel: 13 x 10 patches
      {1, 3, 6, 1, 1, 0, 0, 1, 1, 1, 1},    // 18 pixels: PV 4 halved to 2 at offset 0
  };
  for (const Shape& s : shapes)
    for (KernelMode mode : {KernelMode::CrossCorrelation, KernelMode::Convolution}) {
      const std::size_t n_im = s.im_size(), n_col = s.col_size();
      std::vector<T> him(n_im);
      for (T& v : him) v = random_value<T>();
      std::vector<C> cim(n_im);
      std::transform(him.begin(), him.end(), cim.begin(), [](const T& v) { return to_c(v); });
      const std::vector<C> model = ref::im2col(s, mode, cim);
      Buffer<T> im = test::context().alloc<T>(n_im);
      q.upload(im, std::span<const T>(him));
      for (std::int64_t pv : {1, 2, 4})
        for (std::size_t off : {std::size_t(0), std::size_t(2), std::size_t(4)})
          for (std::int64_t waves : {0, 1}) {
            const std::string what = label(s, mode) + " PV " + std::to_string(pv) + " offset " +
                                     std::to_string(off) + " waves " + std::to_string(waves);
            std::vector<T> h(n_col + off + 3, from_c<T>(C(NAN, NAN)));
            Buffer<T> col = test::context().alloc<T>(h.size());
            q.upload(col, std::span<const T>(h));
            detail::BlasExtraCall c;
            c.routine = detail::BlasExtraRoutine::Im2col;
            c.kernel_mode = mode;
            c.channels = s.c, c.height = s.h, c.width = s.w, c.kernel_h = s.kh, c.kernel_w = s.kw;
            c.pad_h = s.ph, c.pad_w = s.pw, c.stride_h = s.sh, c.stride_w = s.sw;
            c.dilation_h = s.dh, c.dilation_w = s.dw;
            c.x = detail::blas_vector(im);
            c.y = detail::blas_vector(col.view(off, n_col));
            const detail::Params forced{{"WGS", 64}, {"WAVES", waves}, {"PV", pv}};
            detail::run_blas_extra(q, c, {}, &forced).wait();
            const std::vector<T> got = q.download(col);
            int bad = 0;
            for (std::size_t i = 0; i < got.size() && bad < 4; ++i) {
              const bool guard = i < off || i >= off + n_col;
              if (guard ? !is_nan(got[i]) : to_c(got[i]) != model[i - off]) {
                ADD_FAILURE() << "im2col " << what << ": element " << i << (guard ? " (guard) written" : " differs");
                ++bad;
              }
            }
            // col2im from the matrix just written (the model's), into an
            // image inside NaN guards at the same offset: PV image elements
            // of a row per work-item, rows whose last pack hangs past them.
            std::vector<T> hi(n_im + off + 3, from_c<T>(C(NAN, NAN)));
            std::copy(him.begin(), him.end(), hi.begin() + std::ptrdiff_t(off));
            Buffer<T> img = test::context().alloc<T>(hi.size());
            q.upload(img, std::span<const T>(hi));
            c.routine = detail::BlasExtraRoutine::Col2im;
            c.x = detail::blas_vector(img.view(off, n_im));
            c.y = detail::blas_vector(col.view(off, n_col));
            detail::run_blas_extra(q, c, {}, &forced).wait();
            std::vector<double> mag;
            const std::vector<C> sum = ref::col2im(s, mode, model, cim, &mag);
            const std::vector<T> back = q.download(img);
            const double tol = unit<T>() * double(s.kh * s.kw + 2) * 2;
            bad = 0;
            for (std::size_t i = 0; i < back.size() && bad < 4; ++i) {
              const bool guard = i < off || i >= off + n_im;
              if (guard ? !is_nan(back[i]) : !(std::abs(to_c(back[i]) - sum[i - off]) <= tol * mag[i - off])) {
                ADD_FAILURE() << "col2im " << what << ": element " << i << (guard ? " (guard) written" : " differs");
                ++bad;
              }
            }
          }
    }
}

TEST(Im2colSize, OutputSize) {
  EXPECT_EQ(im2col_output_size(5, 3, 1, 1, 1), 5);
  EXPECT_EQ(im2col_output_size(7, 3, 2, 2, 2), 4);   // (11 - 5) / 2 + 1
  EXPECT_EQ(im2col_output_size(4, 5, 0, 1, 1), 1);   // kernel beyond the image: CLBlast's one
  EXPECT_EQ(im2col_output_size(9, 2, 0, 4, 1), 2);
  EXPECT_EQ(im2col_output_size(0, 3, 1, 1, 1), 1);   // (2 - 3) < 0: one
  expect_error(Status::InvalidArgument, "size (argument 1) is -1", [] { im2col_output_size(-1, 3, 0, 1, 1); });
  expect_error(Status::InvalidArgument, "kernel (argument 2) is 0; at least 1", [] { im2col_output_size(4, 0, 0, 1, 1); });
  expect_error(Status::InvalidArgument, "pad (argument 3) is -2", [] { im2col_output_size(4, 3, -2, 1, 1); });
  expect_error(Status::InvalidArgument, "stride (argument 4) is 0", [] { im2col_output_size(4, 3, 0, 0, 1); });
  expect_error(Status::InvalidArgument, "dilation (argument 5) is 0", [] { im2col_output_size(4, 3, 0, 1, 0); });
  expect_error(Status::Overflow, "size (argument 1) is 2147483648; at most 2^31 - 1",
               [] { im2col_output_size(std::int64_t(1) << 31, 3, 0, 1, 1); });
  expect_error(Status::Overflow, "the padded size", [] { im2col_output_size(INT32_MAX, 3, 1, 1, 1); });
}

TEST(Im2colErrors, EveryCheck) {
  const Queue& q = test::queue();
  Buffer<float> im = test::context().alloc<float>(64), col = test::context().alloc<float>(512);
  // A valid call: 2 x 4 x 4, 2 x 2 kernel, stride 1: 9 patches, col 2 * 4 * 9 = 72.
  struct Args {
    KernelMode mode = KernelMode::CrossCorrelation;
    std::int64_t v[11] = {2, 4, 4, 2, 2, 0, 0, 1, 1, 1, 1};
  };
  const auto call = [&](bool to_col, const Args& a, const Buffer<float>& i, const Buffer<float>& c) {
    const std::int64_t* v = a.v;
    if (to_col) im2col(q, a.mode, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], i, c).wait();
    else col2im(q, a.mode, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], c, i).wait();
  };
  const char* names[11] = {"channels", "height", "width", "kernel_h", "kernel_w", "pad_h",
                           "pad_w",    "stride_h", "stride_w", "dilation_h", "dilation_w"};
  for (bool to_col : {true, false}) {
    const std::string r = to_col ? "im2col: " : "col2im: ";
    call(to_col, Args{}, im, col);  // valid
    Args bad_mode;
    bad_mode.mode = KernelMode(7);
    expect_error(Status::InvalidArgument, r + "kernel_mode (argument 1) is 7; CrossCorrelation or Convolution expected",
                 [&] { call(to_col, bad_mode, im, col); });
    for (int k = 0; k < 11; ++k) {
      Args a;
      const std::int64_t least = k >= 7 ? 1 : 0;
      a.v[k] = least - 1;
      expect_error(Status::InvalidArgument,
                   r + names[k] + " (argument " + std::to_string(k + 2) + ") is " + std::to_string(least - 1) +
                       "; at least " + std::to_string(least) + " expected",
                   [&] { call(to_col, a, im, col); });
      a.v[k] = std::int64_t(1) << 31;
      expect_error(Status::Overflow, r + names[k] + " (argument " + std::to_string(k + 2) + ") is 2147483648",
                   [&] { call(to_col, a, im, col); });
    }
    Args padded;
    padded.v[1] = INT32_MAX;
    padded.v[5] = 1;
    expect_error(Status::Overflow, r + "the padded height", [&] { call(to_col, padded, im, col); });
    Args padded_w;
    padded_w.v[2] = INT32_MAX - 1;
    padded_w.v[6] = 1;
    expect_error(Status::Overflow, r + "the padded width", [&] { call(to_col, padded_w, im, col); });
    Args wide;
    wide.v[2] = INT32_MAX - 2;
    wide.v[6] = 1;
    wide.v[4] = 1;
    wide.v[0] = 1;
    wide.v[1] = 1;
    // 1 x 1 x (2^31 - 3) fits no buffer of 64: the view is too small.
    expect_error(Status::BufferTooSmall, r + "im", [&] { call(to_col, wide, im, col); });
    Args huge;
    for (int k : {0, 1, 2}) huge.v[k] = INT32_MAX;
    expect_error(Status::Overflow, r + "im (channels x height x width)", [&] { call(to_col, huge, im, col); });
    Args huge_col;
    huge_col.v[0] = huge_col.v[3] = huge_col.v[4] = INT32_MAX;
    huge_col.v[1] = huge_col.v[2] = 1;
    expect_error(Status::Overflow, r + "col (channels x kernel_h", [&] { call(to_col, huge_col, im, col); });
    expect_error(Status::BufferTooSmall, r + "im", [&] { call(to_col, Args{}, im.view(0, 31), col); });
    expect_error(Status::BufferTooSmall, r + "col", [&] { call(to_col, Args{}, im, col.view(0, 71)); });
    expect_error(Status::InvalidArgument, r + "im and col overlap in one allocation",
                 [&] { call(to_col, Args{}, col.view(100, 32), col.view(60, 72)); });
    // Adjacent views of one allocation are fine.
    call(to_col, Args{}, col.view(0, 32), col.view(32, 72));
    expect_error(Status::InvalidArgument, r + (to_col ? "im" : "col"), [&] {
      call(to_col, Args{}, to_col ? Buffer<float>() : im, to_col ? col : Buffer<float>());
    });
  }
  // Zero sizes return at once, writing nothing, however small the buffers.
  Buffer<float> one = test::context().alloc<float>(1);
  q.upload(one, std::span<const float>(std::vector<float>{NAN}));
  for (int k : {0, 1, 2, 3, 4}) {
    std::int64_t v[11] = {2, 4, 4, 2, 2, 0, 0, 1, 1, 1, 1};
    v[k] = 0;
    EXPECT_FALSE(im2col(q, KernelMode::Convolution, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
                        one, one)
                     .valid());
    EXPECT_FALSE(col2im(q, KernelMode::Convolution, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
                        one, one)
                     .valid());
  }
  EXPECT_TRUE(std::isnan(q.download(one)[0]));
  // Types reach the untyped call only through the C API.
  detail::BlasExtraCall c;
  c.routine = detail::BlasExtraRoutine::Im2col;
  c.channels = 1, c.height = c.width = c.kernel_h = c.kernel_w = 1;
  c.x = detail::blas_vector(im);
  c.y = detail::blas_vector(col);
  c.x.dtype = DType::I32;
  expect_error(Status::InvalidType, "im2col: im is i32; f16, f32, f64, c32 or c64 expected",
               [&] { detail::blas_extra_untyped(q, c, {}); });
  c.x.dtype = DType::F32;
  c.y.dtype = DType::BF16;
  expect_error(Status::InvalidType, "im2col: col is bf16 but im is f32", [&] { detail::blas_extra_untyped(q, c, {}); });
  c.routine = detail::BlasExtraRoutine::Col2im;
  expect_error(Status::InvalidType, "col2im: col is bf16; f16, f32, f64, c32 or c64 expected",
               [&] { detail::blas_extra_untyped(q, c, {}); });
  c.y.dtype = DType::F32;
  c.x.dtype = DType::C32;
  expect_error(Status::InvalidType, "col2im: im is c32 but col is f32", [&] { detail::blas_extra_untyped(q, c, {}); });
}

// The destination's buffer checks (the test above empties the source), an
// unknown element type through the untyped call, and hand-made views that
// claim more than their allocation holds: 2 x 4 x 4 with a 2 x 2 kernel reads
// 32 elements and writes 72, from views of 16 claiming 4096 more.
TEST(Im2colErrors, DestinationsAndViews) {
  const Queue& q = test::queue();
  Buffer<float> im = test::context().alloc<float>(32), col = test::context().alloc<float>(72),
                small = test::context().alloc<float>(16);
  const auto call = [&](bool to_col, const Buffer<float>& i, const Buffer<float>& c) {
    if (to_col) im2col(q, KernelMode::CrossCorrelation, 2, 4, 4, 2, 2, 0, 0, 1, 1, 1, 1, i, c).wait();
    else col2im(q, KernelMode::CrossCorrelation, 2, 4, 4, 2, 2, 0, 0, 1, 1, 1, 1, c, i).wait();
  };
  expect_error(Status::InvalidArgument, "im2col: col is an empty buffer", [&] { call(true, im, Buffer<float>()); });
  expect_error(Status::InvalidArgument, "col2im: im is an empty buffer", [&] { call(false, Buffer<float>(), col); });
  for (std::size_t at : {std::size_t(0), std::size_t(1) << 40}) {
    const Buffer<float> bad(small.mem(), at, 16 + 4096);
    for (bool to_col : {true, false}) {
      const std::string r = to_col ? "im2col: " : "col2im: ";
      expect_error(Status::BufferTooSmall, r + "im", [&] { call(to_col, bad, col); });
      expect_error(Status::BufferTooSmall, r + "col", [&] { call(to_col, im, bad); });
    }
  }
  detail::BlasExtraCall c;
  c.routine = detail::BlasExtraRoutine::Im2col;
  c.channels = 1, c.height = c.width = c.kernel_h = c.kernel_w = 1;
  c.x = detail::blas_vector(im);
  c.y = detail::blas_vector(col);
  c.y.dtype = DType(99);
  expect_error(Status::InvalidArgument, "im2col: col: unknown data type 99", [&] { detail::blas_extra_untyped(q, c, {}); });
}

// The C API: an im2col and a col2im that work, read back; a bad kernel mode.
TEST(Im2colErrors, CApi) {
  using test::capi::Buf;
  const auto& e = test::capi::env();
  // One 3 x 3 channel, 2 x 2 kernel, convolution mode: col row 0 holds tap (1, 1).
  Buf im(OPTUNE_F32, 9), col(OPTUNE_F32, 16);
  const float him[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  C_OK(optune_buffer_write(e.queue, im.h, him, 9, nullptr, 0, nullptr));
  C_OK(optune_blas_im2col(e.queue, 1, 1, 3, 3, 2, 2, 0, 0, 1, 1, 1, 1, im.h, col.h, nullptr, 0, nullptr));
  float out[16];
  C_OK(optune_buffer_read(e.queue, col.h, out, 16, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  const float want[16] = {5, 6, 8, 9, 4, 5, 7, 8, 2, 3, 5, 6, 1, 2, 4, 5};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], want[i]) << i;
  // Adding the same columns back in the same mode: each element gains itself
  // once per patch that reads it.
  C_OK(optune_blas_col2im(e.queue, 1, 1, 3, 3, 2, 2, 0, 0, 1, 1, 1, 1, col.h, im.h, nullptr, 0, nullptr));
  float back[9];
  C_OK(optune_buffer_read(e.queue, im.h, back, 9, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  const float count[9] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(back[i], him[i] * (1 + count[i])) << i;
  EXPECT_EQ(optune_blas_im2col(e.queue, 2, 1, 3, 3, 2, 2, 0, 0, 1, 1, 1, 1, im.h, col.h, nullptr, 0, nullptr),
            OPTUNE_INVALID_ARGUMENT);
  EXPECT_NE(std::string(optune_last_error_message()).find("kernel_mode (argument 1) is 2"), std::string::npos)
      << optune_last_error_message();
}

}  // namespace
