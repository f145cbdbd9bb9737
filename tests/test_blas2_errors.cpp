// Bad input to the BLAS level-2 routines (general and symmetric / Hermitian),
// through the C++ templates and the C API (whose untyped buffers and enums
// reach the type and enumerator checks): each validation error, with its
// status and a message naming the routine and the argument with netlib's
// xerbla position.
#include <complex>

#include "optune/blas2.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;
using test::expect_error;
using test::capi::Buf;
using test::capi::env;
using test::capi::fails;

namespace {

using C = std::complex<float>;
constexpr Layout kCol = Layout::ColMajor;
constexpr Layout kRow = Layout::RowMajor;
constexpr BlasTranspose kN = BlasTranspose::No;
constexpr Triangle kUp = Triangle::Upper;

template <class T>
Buffer<T> zeros(std::size_t n) {
  Buffer<T> b = test::context().alloc<T>(n);
  test::queue().fill(b, T(0)).wait();
  return b;
}

}  // namespace

// Sizes, band widths, leading dimensions and increments, in netlib's order
// and with its argument positions.
TEST(Blas2Errors, ArgumentsWithPositions) {
  const Queue& q = test::queue();
  Buffer<float> a = zeros<float>(64), x = zeros<float>(16), y = zeros<float>(16);
  const Status bad = Status::InvalidArgument;
  expect_error(bad, "gemv: m (argument 2) is -1", [&] { gemv<float>(q, kCol, kN, -1, 2, 1, a, 1, x, 1, 0, y, 1); });
  expect_error(bad, "gemv: n (argument 3) is -2", [&] { gemv<float>(q, kCol, kN, 2, -2, 1, a, 2, x, 1, 0, y, 1); });
  expect_error(bad, "gemv: lda (argument 6) is 2; at least max(1, m) = 3",
               [&] { gemv<float>(q, kCol, kN, 3, 2, 1, a, 2, x, 1, 0, y, 1); });
  expect_error(bad, "gemv: lda (argument 6) is 3; at least max(1, n) = 4",
               [&] { gemv<float>(q, kRow, kN, 2, 4, 1, a, 3, x, 1, 0, y, 1); });
  expect_error(bad, "gemv: lda (argument 6) is 0; at least max(1, m) = 1",
               [&] { gemv<float>(q, kCol, kN, 0, 0, 1, a, 0, x, 1, 0, y, 1); });
  expect_error(bad, "gemv: incx (argument 8) is 0", [&] { gemv<float>(q, kCol, kN, 2, 2, 1, a, 2, x, 0, 0, y, 1); });
  expect_error(bad, "gemv: incy (argument 11) is 0", [&] { gemv<float>(q, kCol, kN, 2, 2, 1, a, 2, x, 1, 0, y, 0); });
  expect_error(bad, "gbmv: kl (argument 4) is -1",
               [&] { gbmv<float>(q, kCol, kN, 2, 2, -1, 0, 1, a, 1, x, 1, 0, y, 1); });
  expect_error(bad, "gbmv: ku (argument 5) is -3",
               [&] { gbmv<float>(q, kCol, kN, 2, 2, 0, -3, 1, a, 1, x, 1, 0, y, 1); });
  expect_error(bad, "gbmv: lda (argument 8) is 3; at least kl + ku + 1 = 4",
               [&] { gbmv<float>(q, kCol, kN, 4, 4, 1, 2, 1, a, 3, x, 1, 0, y, 1); });
  expect_error(bad, "gbmv: incx (argument 10) is 0",
               [&] { gbmv<float>(q, kCol, kN, 4, 4, 1, 2, 1, a, 4, x, 0, 0, y, 1); });
  expect_error(bad, "gbmv: incy (argument 13) is 0",
               [&] { gbmv<float>(q, kCol, kN, 4, 4, 1, 2, 1, a, 4, x, 1, 0, y, 0); });
  expect_error(bad, "symv: n (argument 2) is -1", [&] { symv<float>(q, kCol, kUp, -1, 1, a, 1, x, 1, 0, y, 1); });
  expect_error(bad, "symv: lda (argument 5) is 2; at least max(1, n) = 3",
               [&] { symv<float>(q, kCol, kUp, 3, 1, a, 2, x, 1, 0, y, 1); });
  expect_error(bad, "symv: incx (argument 7) is 0", [&] { symv<float>(q, kCol, kUp, 3, 1, a, 3, x, 0, 0, y, 1); });
  expect_error(bad, "symv: incy (argument 10) is 0", [&] { symv<float>(q, kCol, kUp, 3, 1, a, 3, x, 1, 0, y, 0); });
  expect_error(bad, "sbmv: k (argument 3) is -1", [&] { sbmv<float>(q, kCol, kUp, 3, -1, 1, a, 1, x, 1, 0, y, 1); });
  expect_error(bad, "sbmv: lda (argument 6) is 2; at least k + 1 = 3",
               [&] { sbmv<float>(q, kRow, kUp, 3, 2, 1, a, 2, x, 1, 0, y, 1); });
  expect_error(bad, "sbmv: incx (argument 8) is 0", [&] { sbmv<float>(q, kCol, kUp, 3, 1, 1, a, 2, x, 0, 0, y, 1); });
  expect_error(bad, "spmv: incx (argument 6) is 0", [&] { spmv<float>(q, kCol, kUp, 3, 1, a, x, 0, 0, y, 1); });
  expect_error(bad, "spmv: incy (argument 9) is 0", [&] { spmv<float>(q, kCol, kUp, 3, 1, a, x, 1, 0, y, 0); });
  expect_error(bad, "ger: m (argument 1) is -1", [&] { ger<float>(q, kCol, -1, 2, 1, x, 1, y, 1, a, 1); });
  expect_error(bad, "ger: n (argument 2) is -1", [&] { ger<float>(q, kCol, 2, -1, 1, x, 1, y, 1, a, 2); });
  expect_error(bad, "ger: incx (argument 5) is 0", [&] { ger<float>(q, kCol, 2, 2, 1, x, 0, y, 1, a, 2); });
  expect_error(bad, "ger: incy (argument 7) is 0", [&] { ger<float>(q, kCol, 2, 2, 1, x, 1, y, 0, a, 2); });
  expect_error(bad, "ger: lda (argument 9) is 1; at least max(1, m) = 2",
               [&] { ger<float>(q, kCol, 2, 2, 1, x, 1, y, 1, a, 1); });
  expect_error(bad, "syr: lda (argument 7) is 1; at least max(1, n) = 2",
               [&] { syr<float>(q, kCol, kUp, 2, 1, x, 1, a, 1); });
  expect_error(bad, "syr: incx (argument 5) is 0", [&] { syr<float>(q, kCol, kUp, 2, 1, x, 0, a, 2); });
  expect_error(bad, "spr: n (argument 2) is -4", [&] { spr<float>(q, kCol, kUp, -4, 1, x, 1, a); });
  expect_error(bad, "syr2: incy (argument 7) is 0", [&] { syr2<float>(q, kCol, kUp, 2, 1, x, 1, y, 0, a, 2); });
  expect_error(bad, "syr2: lda (argument 9) is 1", [&] { syr2<float>(q, kCol, kUp, 2, 1, x, 1, y, 1, a, 1); });
  expect_error(bad, "spr2: incx (argument 5) is 0", [&] { spr2<float>(q, kCol, kUp, 2, 1, x, 0, y, 1, a); });
  Buffer<C> ac = zeros<C>(16), xc = zeros<C>(4), yc = zeros<C>(4);
  expect_error(bad, "her: incx (argument 5) is 0", [&] { her<C>(q, kCol, kUp, 2, 1.0f, xc, 0, ac, 2); });
  expect_error(bad, "hpr2: incy (argument 7) is 0", [&] { hpr2<C>(q, kCol, kUp, 2, C(1), xc, 1, yc, 0, ac); });
  expect_error(bad, "hbmv: lda (argument 6) is 1; at least k + 1 = 2",
               [&] { hbmv<C>(q, kCol, kUp, 2, 1, C(1), ac, 1, xc, 1, C(0), yc, 1); });
  expect_error(bad, "gerc: lda (argument 9) is 1", [&] { gerc<C>(q, kCol, 2, 2, C(1), xc, 1, yc, 1, ac, 1); });
  // Validated even where the reference would return at once (n = 0, alpha = 0).
  expect_error(bad, "gemv: incx (argument 8) is 0", [&] { gemv<float>(q, kCol, kN, 0, 0, 0, a, 1, x, 0, 1, y, 1); });
}

TEST(Blas2Errors, EmptyForeignAndSmallBuffers) {
  const Queue& q = test::queue();
  Buffer<float> a = zeros<float>(12), x = zeros<float>(4), y = zeros<float>(4);
  const Status bad = Status::InvalidArgument, small = Status::BufferTooSmall;
  expect_error(bad, "gemv: a is an empty buffer",
               [&] { gemv<float>(q, kCol, kN, 3, 4, 1, Buffer<float>(), 3, x, 1, 0, y, 1); });
  expect_error(bad, "gemv: x is an empty buffer",
               [&] { gemv<float>(q, kCol, kN, 3, 4, 1, a, 3, Buffer<float>(), 1, 0, y, 1); });
  expect_error(bad, "ger: y is an empty buffer", [&] { ger<float>(q, kCol, 3, 4, 1, x, 1, Buffer<float>(), 1, a, 3); });
  const Context other(test::device());
  Buffer<float> foreign = other.alloc<float>(16);
  expect_error(bad, "symv: y belongs to another context",
               [&] { symv<float>(q, kCol, kUp, 3, 1, a, 3, x, 1, 0, foreign, 1); });
  // A 3 x 4 matrix: (4 - 1) 3 + 3 = 12 elements column-major; with lda 4, 3 + 4 ... = 15.
  gemv<float>(q, kCol, kN, 3, 4, 1, a, 3, x, 1, 0, y, 1).wait();
  expect_error(small, "gemv: a", [&] { gemv<float>(q, kCol, kN, 3, 4, 1, a, 4, x, 1, 0, y, 1); });
  expect_error(small, "gemv: a", [&] { gemv<float>(q, kCol, kN, 3, 4, 1, a.view(1, 11), 3, x, 1, 0, y, 1); });
  expect_error(small, "gemv: x", [&] { gemv<float>(q, kCol, kN, 3, 4, 1, a, 3, x, 2, 0, y, 1); });
  expect_error(small, "gemv: y", [&] { gemv<float>(q, kCol, BlasTranspose::Yes, 3, 4, 1, a, 3, x, 1, 0, y, -2); });
  expect_error(small, "gbmv: a", [&] { gbmv<float>(q, kRow, kN, 4, 3, 1, 1, 1, a, 4, x, 1, 0, y, 1); });
  expect_error(small, "sbmv: a", [&] { sbmv<float>(q, kCol, kUp, 4, 2, 1, a, 4, x, 1, 0, y, 1); });
  expect_error(small, "spmv: ap", [&] { spmv<float>(q, kCol, kUp, 4, 1, a.view(0, 9), x, 1, 0, y, 1); });
  expect_error(small, "spr2: ap", [&] { spr2<float>(q, kRow, kUp, 4, 1, x, 1, y, 1, a.view(0, 9)); });
  expect_error(small, "syr: x", [&] { syr<float>(q, kCol, kUp, 3, 1, x, -2, a, 3); });
  expect_error(small, "ger: y", [&] { ger<float>(q, kCol, 3, 4, 1, x, 1, y.view(0, 3), 1, a, 3); });
}

// A hand-made view that claims more elements, or a larger offset, than its
// allocation holds is refused for every vector and matrix before any kernel
// runs (the kernels would otherwise read or write past the allocation).
TEST(Blas2Errors, ViewsBeyondTheirAllocation) {
  const Queue& q = test::queue();
  Buffer<float> a = zeros<float>(16), x = zeros<float>(4), y = zeros<float>(4);
  for (bool far : {false, true}) {
    const auto beyond = [&](const Buffer<float>& b) {
      return Buffer<float>(b.mem(), far ? std::size_t(1) << 40 : 0, b.size() + 4096);
    };
    const Status small = Status::BufferTooSmall;
    expect_error(small, "gemv: a", [&] { gemv<float>(q, kCol, kN, 64, 64, 1, beyond(a), 64, x, 1, 0, y, 1); });
    expect_error(small, "gemv: x", [&] { gemv<float>(q, kCol, kN, 4, 4, 1, a, 4, beyond(x), 1, 0, y, 1); });
    expect_error(small, "symv: y", [&] { symv<float>(q, kCol, kUp, 4, 1, a, 4, x, 1, 0, beyond(y), 1); });
    expect_error(small, "ger: a", [&] { ger<float>(q, kCol, 4, 4, 1, x, 1, y, 1, beyond(a), 4); });
  }
}

// Types, enumerators, NULLs and scalars through the C API.
TEST(Blas2Errors, TypesAndEnumsThroughTheCApi) {
  const auto& e = env();
  Buf af(OPTUNE_F32, 16), xf(OPTUNE_F32, 4), yf(OPTUNE_F32, 4), yd(OPTUNE_F64, 4), ac(OPTUNE_C32, 16),
      xc(OPTUNE_C32, 4), yc(OPTUNE_C32, 4), ah(OPTUNE_BF16, 16);
  const optune_complex one{1, 0}, zero{0, 0}, imag{0, 1};
  const auto col = OPTUNE_COL_MAJOR;
  EXPECT_TRUE(fails(optune_blas_gemv(e.queue, optune_layout(5), OPTUNE_BLAS_NO_TRANS, 2, 2, one, af.h, 2, xf.h, 1, zero,
                                 yf.h, 1, nullptr, 0, nullptr),
                OPTUNE_INVALID_ARGUMENT, "gemv: layout is 5; RowMajor or ColMajor expected"));
  EXPECT_TRUE(fails(optune_blas_gemv(e.queue, col, optune_blas_transpose(3), 2, 2, one, af.h, 2, xf.h, 1, zero, yf.h, 1,
                                 nullptr, 0, nullptr),
                OPTUNE_INVALID_ARGUMENT, "gemv: trans (argument 1) is 3"));
  EXPECT_TRUE(fails(optune_blas_symv(e.queue, col, optune_triangle(2), 2, one, af.h, 2, xf.h, 1, zero, yf.h, 1, nullptr,
                                 0, nullptr),
                OPTUNE_INVALID_ARGUMENT, "symv: uplo (argument 1) is 2"));
  EXPECT_TRUE(fails(optune_blas_her(e.queue, col, optune_triangle(-1), 2, 1.0, xc.h, 1, ac.h, 2, nullptr, 0, nullptr),
                OPTUNE_INVALID_ARGUMENT, "her: uplo (argument 1) is -1"));
  EXPECT_TRUE(fails(optune_blas_symv(e.queue, col, OPTUNE_UPPER, 2, one, ac.h, 2, xc.h, 1, zero, yc.h, 1, nullptr, 0,
                                 nullptr),
                OPTUNE_INVALID_TYPE, "symv: a is c32: symv takes f32, f64 or f16"));
  EXPECT_TRUE(fails(optune_blas_hemv(e.queue, col, OPTUNE_UPPER, 2, one, af.h, 2, xf.h, 1, zero, yf.h, 1, nullptr, 0,
                                 nullptr),
                OPTUNE_INVALID_TYPE, "hemv: a is f32: hemv takes c32 or c64"));
  EXPECT_TRUE(fails(optune_blas_ger(e.queue, col, 2, 2, one, xc.h, 1, yc.h, 1, ac.h, 2, nullptr, 0, nullptr),
                OPTUNE_INVALID_TYPE, "ger: a is c32: ger takes f32, f64 or f16"));
  EXPECT_TRUE(fails(optune_blas_geru(e.queue, col, 2, 2, one, xf.h, 1, yf.h, 1, af.h, 2, nullptr, 0, nullptr),
                OPTUNE_INVALID_TYPE, "geru: a is f32: geru takes c32 or c64"));
  EXPECT_TRUE(fails(optune_blas_gemv(e.queue, col, OPTUNE_BLAS_NO_TRANS, 2, 2, one, af.h, 2, xf.h, 1, zero, yd.h, 1,
                                 nullptr, 0, nullptr),
                OPTUNE_INVALID_TYPE, "gemv: a is f32 but y is f64"));
  EXPECT_TRUE(fails(optune_blas_gemv(e.queue, col, OPTUNE_BLAS_NO_TRANS, 2, 2, one, af.h, 2, xc.h, 1, zero, yf.h, 1,
                                 nullptr, 0, nullptr),
                OPTUNE_INVALID_TYPE, "gemv: a is f32 but x is c32"));
  EXPECT_TRUE(fails(optune_blas_gemv(e.queue, col, OPTUNE_BLAS_NO_TRANS, 2, 2, one, ah.h, 2, xf.h, 1, zero, yf.h, 1,
                                 nullptr, 0, nullptr),
                OPTUNE_INVALID_TYPE, "gemv: a is bf16; f32, f64, c32, c64 or f16 expected"));
  EXPECT_TRUE(fails(optune_blas_gemv(e.queue, col, OPTUNE_BLAS_NO_TRANS, 2, 2, imag, af.h, 2, xf.h, 1, zero, yf.h, 1,
                                 nullptr, 0, nullptr),
                OPTUNE_INVALID_ARGUMENT, "optune_blas_gemv: alpha has an imaginary part"));
  EXPECT_TRUE(fails(optune_blas_symv(e.queue, col, OPTUNE_UPPER, 2, one, af.h, 2, xf.h, 1, imag, yf.h, 1, nullptr, 0,
                                 nullptr),
                OPTUNE_INVALID_ARGUMENT, "optune_blas_symv: beta has an imaginary part"));
  EXPECT_TRUE(fails(optune_blas_gemv(e.queue, col, OPTUNE_BLAS_NO_TRANS, 2, 2, one, af.h, 2, xf.h, 1, zero, nullptr, 1,
                                 nullptr, 0, nullptr),
                OPTUNE_INVALID_ARGUMENT, "optune_blas_gemv: y is NULL"));
  EXPECT_TRUE(fails(optune_blas_spr(nullptr, col, OPTUNE_UPPER, 2, 1.0, xf.h, 1, af.h, nullptr, 0, nullptr),
                OPTUNE_INVALID_ARGUMENT, "optune_blas_spr: queue is NULL"));
  // And one that works: c32 gemv, A^H x with A = [[1, i], [0, 1]] column-major, x = (1, 1).
  const float a[8] = {1, 0, 0, 0, 0, 1, 1, 0}, x[4] = {1, 0, 1, 0};
  C_OK(optune_buffer_write(e.queue, ac.h, a, 4, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, xc.h, x, 2, nullptr, 0, nullptr));
  C_OK(optune_blas_gemv(e.queue, col, OPTUNE_BLAS_CONJ_TRANS, 2, 2, one, ac.h, 2, xc.h, 1, zero, yc.h, 1, nullptr, 0,
                        nullptr));
  float out[4];
  C_OK(optune_buffer_read(e.queue, yc.h, out, 2, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  // y0 = conj(1) 1 + conj(0) 1 = 1; y1 = conj(i) 1 + conj(1) 1 = 1 - i.
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], -1.0f);
}
