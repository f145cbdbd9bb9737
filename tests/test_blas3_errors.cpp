// Bad input to the BLAS level-3 triangular and rank-k routines, through the
// C++ templates and the C API (whose untyped buffers and enum values reach
// the type and enum checks): each validation error, with its status and a
// message naming the routine, the argument and its position in netlib's
// argument list; and the calls that must not fail (empty sizes).
#include <limits>

#include "ops/blas3_ops.hpp"
#include "optune/blas3_complex.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;
using test::expect_error;
using test::capi::Buf;
using test::capi::env;

namespace {

constexpr Layout R = Layout::RowMajor;
constexpr Layout C = Layout::ColMajor;
constexpr Triangle U = Triangle::Upper;
constexpr BlasTranspose N = BlasTranspose::No;
constexpr Side L = Side::Left;
constexpr Diagonal NU = Diagonal::NonUnit;

Buffer<float> floats(std::size_t n) {
  Buffer<float> b = test::context().alloc<float>(n);
  test::queue().fill(b, 1.0f).wait();
  return b;
}

void expect_c(optune_status status, optune_status want, const std::string& needle) {
  EXPECT_EQ(status, want) << optune_last_error_message();
  EXPECT_NE(std::string(optune_last_error_message()).find(needle), std::string::npos)
      << "'" << needle << "' not in: " << optune_last_error_message();
}

}  // namespace

TEST(Blas3Errors, RankK) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(64), b = floats(64), c = floats(64);
  const auto bad_uplo = Triangle(7);
  const auto bad_trans = BlasTranspose(5);
  expect_error(Status::InvalidArgument, "syrk: argument 1 (uplo) is not Upper or Lower",
               [&] { syrk(q, R, bad_uplo, N, 4, 4, 1.0, a, 4, 0.0, c, 4); });
  expect_error(Status::InvalidArgument, "syrk: argument 2 (trans) is not No, Yes or Conjugate",
               [&] { syrk(q, R, U, bad_trans, 4, 4, 1.0, a, 4, 0.0, c, 4); });
  expect_error(Status::InvalidArgument, "syrk: layout is not RowMajor or ColMajor",
               [&] { syrk(q, Layout(3), U, N, 4, 4, 1.0, a, 4, 0.0, c, 4); });
  expect_error(Status::InvalidArgument, "syrk: argument 3 (n) = -1 must be >= 0",
               [&] { syrk(q, R, U, N, -1, 4, 1.0, a, 4, 0.0, c, 4); });
  expect_error(Status::InvalidArgument, "syrk: argument 4 (k) = -2 must be >= 0",
               [&] { syrk(q, R, U, N, 4, -2, 1.0, a, 4, 0.0, c, 4); });
  // Row-major A (n x k = 4 x 5) needs lda >= 5; column-major, >= 4.
  expect_error(Status::InvalidArgument, "syrk: argument 7 (lda) = 4 must be >= 5",
               [&] { syrk(q, R, U, N, 4, 5, 1.0, a, 4, 0.0, c, 4); });
  expect_error(Status::InvalidArgument, "syrk: argument 7 (lda) = 3 must be >= 4",
               [&] { syrk(q, C, U, N, 4, 5, 1.0, a, 3, 0.0, c, 4); });
  expect_error(Status::InvalidArgument, "syrk: argument 7 (lda) = 0 must be >= 1",
               [&] { syrk(q, C, U, N, 0, 0, 1.0, a, 0, 0.0, c, 1); });
  expect_error(Status::InvalidArgument, "syrk: argument 10 (ldc) = 3 must be >= 4",
               [&] { syrk(q, R, U, N, 4, 4, 1.0, a, 4, 0.0, c, 3); });
  expect_error(Status::BufferTooSmall, "syrk: argument 6 (A)",
               [&] { syrk(q, R, U, N, 4, 4, 1.0, a.view(0, 15), 4, 0.0, c, 4); });
  expect_error(Status::BufferTooSmall, "syrk: argument 9 (C)",
               [&] { syrk(q, R, U, BlasTranspose::Yes, 4, 4, 1.0, a, 4, 0.0, c.view(50, 14), 4); });
  expect_error(Status::InvalidArgument, "syrk: C (elements 8 to 23) overlaps A (0 to 15) in the same memory",
               [&] { syrk(q, R, U, N, 4, 4, 1.0, a.view(0, 16), 4, 0.0, a.view(8, 16), 4); });
  const std::int64_t big = std::int64_t(1) << 40;
  expect_error(Status::Overflow, "syrk: argument 6 (A)", [&] { syrk(q, R, U, N, big, big, 1.0, a, big, 0.0, c, big); });

  expect_error(Status::InvalidArgument, "syr2k: argument 9 (ldb) = 2 must be >= 3",
               [&] { syr2k(q, R, U, BlasTranspose::Yes, 3, 4, 1.0, a, 3, b, 2, 0.0, c, 3); });
  expect_error(Status::InvalidArgument, "syr2k: argument 12 (ldc) = 2 must be >= 3",
               [&] { syr2k(q, R, U, N, 3, 4, 1.0, a, 4, b, 4, 0.0, c, 2); });
  expect_error(Status::BufferTooSmall, "syr2k: argument 8 (B)",
               [&] { syr2k(q, R, U, N, 3, 4, 1.0, a, 4, b.view(0, 11), 4, 0.0, c, 3); });
  expect_error(Status::InvalidArgument, "syr2k: C (elements 0 to 8) overlaps B (4 to 15)",
               [&] { syr2k(q, R, U, N, 3, 4, 1.0, a, 4, c.view(4, 20), 4, 0.0, c, 3); });
  // n = 0 (and k = 0 with beta = 1) return at once, after validation.
  syrk(q, R, U, N, 0, 4, 1.0, a, 4, 0.0, c, 1).wait();
  syr2k(q, C, U, N, 3, 0, 1.0, a, 3, b, 3, 1.0, c, 3).wait();
}

TEST(Blas3Errors, Triangular) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(64), b = floats(64);
  expect_error(Status::InvalidArgument, "trmm: argument 1 (side) is not Left or Right",
               [&] { trmm(q, R, Side(2), U, N, NU, 4, 4, 1.0, a, 4, b, 4); });
  expect_error(Status::InvalidArgument, "trsm: argument 2 (uplo)",
               [&] { trsm(q, R, L, Triangle(-1), N, NU, 4, 4, 1.0, a, 4, b, 4); });
  expect_error(Status::InvalidArgument, "trsm: argument 3 (transa) is not No, Yes or Conjugate",
               [&] { trsm(q, R, L, U, BlasTranspose(3), NU, 4, 4, 1.0, a, 4, b, 4); });
  expect_error(Status::InvalidArgument, "trmm: argument 4 (diag) is not NonUnit or Unit",
               [&] { trmm(q, R, L, U, N, Diagonal(9), 4, 4, 1.0, a, 4, b, 4); });
  expect_error(Status::InvalidArgument, "trsm: argument 5 (m) = -1 must be >= 0",
               [&] { trsm(q, R, L, U, N, NU, -1, 4, 1.0, a, 4, b, 4); });
  expect_error(Status::InvalidArgument, "trmm: argument 6 (n) = -3 must be >= 0",
               [&] { trmm(q, R, L, U, N, NU, 4, -3, 1.0, a, 4, b, 4); });
  // A is m x m on the left, n x n on the right.
  expect_error(Status::InvalidArgument, "trsm: argument 9 (lda) = 3 must be >= 4",
               [&] { trsm(q, C, L, U, N, NU, 4, 2, 1.0, a, 3, b, 4); });
  expect_error(Status::InvalidArgument, "trsm: argument 9 (lda) = 4 must be >= 5",
               [&] { trsm(q, R, Side::Right, U, N, NU, 2, 5, 1.0, a, 4, b, 5); });
  // B m x n: row-major ldb >= n, column-major >= m.
  expect_error(Status::InvalidArgument, "trmm: argument 11 (ldb) = 4 must be >= 5",
               [&] { trmm(q, R, L, U, N, NU, 2, 5, 1.0, a, 2, b, 4); });
  expect_error(Status::InvalidArgument, "trmm: argument 11 (ldb) = 1 must be >= 2",
               [&] { trmm(q, C, L, U, N, NU, 2, 5, 1.0, a, 2, b, 1); });
  expect_error(Status::BufferTooSmall, "trsm: argument 8 (A)",
               [&] { trsm(q, R, L, U, N, NU, 4, 4, 1.0, a.view(60, 4), 4, b, 4); });
  expect_error(Status::BufferTooSmall, "trmm: argument 10 (B)",
               [&] { trmm(q, R, L, U, N, NU, 4, 4, 1.0, a, 4, b.view(0, 15), 4); });
  expect_error(Status::InvalidArgument, "trsm: B (elements 10 to 25) overlaps A (0 to 15)",
               [&] { trsm(q, R, L, U, N, NU, 4, 4, 1.0, a.view(0, 16), 4, a.view(10, 16), 4); });
  // m = 0 or n = 0: nothing to do, after validation.
  trsm(q, R, L, U, N, NU, 0, 4, 1.0, a, 1, b, 4).wait();
  trmm(q, C, Side::Right, U, N, NU, 4, 0, 1.0, a, 1, b, 4).wait();
}

TEST(Blas3Errors, StridedBatched) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(64), b = floats(64);
  expect_error(Status::InvalidArgument, "trsm_strided_batched: batch = 0 must be >= 1",
               [&] { trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a, 2, 4, b, 2, 4, 0); });
  expect_error(Status::InvalidArgument, "trsm_strided_batched: stride_a = -4 must be >= 0",
               [&] { trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a, 2, -4, b, 2, 4, 2); });
  expect_error(Status::InvalidArgument, "trsm_strided_batched: stride_b = -1 must be >= 0",
               [&] { trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a, 2, 4, b, 2, -1, 2); });
  expect_error(Status::InvalidArgument, "trsm_strided_batched: stride_b = 3 is less than one B's extent (4",
               [&] { trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a, 2, 4, b, 2, 3, 2); });
  expect_error(Status::BufferTooSmall, "trsm_strided_batched: argument 10 (B)",
               [&] { trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a, 2, 4, b.view(0, 19), 2, 8, 3); });
  expect_error(Status::BufferTooSmall, "trsm_strided_batched: argument 8 (A)",
               [&] { trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a.view(0, 10), 2, 4, b, 2, 8, 3); });
  // One triangle for every system (stride_a 0) is fine.
  trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a.view(0, 4), 2, 0, b, 2, 4, 3).wait();
}

TEST(Blas3Errors, CApi) {
  const auto& e = env();
  Buf af(OPTUNE_F32, 64), bf(OPTUNE_F32, 64), cd(OPTUNE_F64, 64), ah(OPTUNE_BF16, 64), ac(OPTUNE_C32, 64);
  const optune_complex one{1, 0}, zero{0, 0}, imag{0, 1};
  const auto row = OPTUNE_ROW_MAJOR;
  expect_c(optune_blas_syrk(e.queue, row, OPTUNE_UPPER, OPTUNE_NO_TRANS, 4, 4, one, af.h, 4, zero, cd.h, 4, nullptr,
                            0, nullptr),
           OPTUNE_INVALID_TYPE, "syrk: argument 9 (C) is f64 but A is f32");
  expect_c(optune_blas_trsm(e.queue, row, OPTUNE_LEFT, OPTUNE_UPPER, OPTUNE_NO_TRANS, OPTUNE_NON_UNIT, 4, 4, one,
                            ah.h, 4, ah.h, 4, nullptr, 0, nullptr),
           OPTUNE_INVALID_TYPE, "trsm: argument 8 (A) is bf16; f32, f64, c32, c64 or f16 expected");
  expect_c(optune_blas_trmm(e.queue, row, OPTUNE_LEFT, OPTUNE_UPPER, OPTUNE_NO_TRANS, OPTUNE_NON_UNIT, 4, 4, one,
                            ac.h, 4, bf.h, 4, nullptr, 0, nullptr),
           OPTUNE_INVALID_TYPE, "trmm: argument 10 (B) is f32 but A is c32");
  // herk and her2k: complex matrices only; her2k's complex alpha reaches
  // the call, a complex alpha for real matrices does not.
  expect_c(optune_blas_herk(e.queue, row, OPTUNE_UPPER, OPTUNE_NO_TRANS, 4, 4, 1.0, af.h, 4, 0.0, bf.h, 4, nullptr, 0,
                            nullptr),
           OPTUNE_INVALID_TYPE, "herk: argument 6 (A) is f32; c32 or c64 expected");
  expect_c(optune_blas_her2k(e.queue, row, OPTUNE_UPPER, optune_transpose(1), 4, 4, imag, ac.h, 4, ac.h, 4, 0.0,
                             ac.h, 4, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "her2k: argument 2 (trans) is Yes; her2k takes No or Conjugate");
  expect_c(optune_blas_trsm(e.queue, row, OPTUNE_LEFT, OPTUNE_UPPER, OPTUNE_NO_TRANS, OPTUNE_NON_UNIT, 4, 4, imag,
                            af.h, 4, bf.h, 4, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "optune_blas_trsm: alpha has an imaginary part");
  expect_c(optune_blas_syr2k(e.queue, row, OPTUNE_UPPER, OPTUNE_NO_TRANS, 4, 4, imag, af.h, 4, bf.h, 4, zero, cd.h,
                             4, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "optune_blas_syr2k: alpha has an imaginary part");
  expect_c(optune_blas_syrk(e.queue, row, OPTUNE_UPPER, OPTUNE_NO_TRANS, 4, 4, one, af.h, 4, imag, bf.h, 4, nullptr,
                            0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "optune_blas_syrk: beta has an imaginary part");
  expect_c(optune_blas_trsm(e.queue, row, optune_side(5), OPTUNE_UPPER, OPTUNE_NO_TRANS, OPTUNE_NON_UNIT, 4, 4, one,
                            af.h, 4, bf.h, 4, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "trsm: argument 1 (side)");
  expect_c(optune_blas_trsm_strided_batched(e.queue, optune_layout(2), OPTUNE_LEFT, OPTUNE_UPPER, OPTUNE_NO_TRANS,
                                            OPTUNE_UNIT, 2, 2, one, af.h, 2, 4, bf.h, 2, 4, 2, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "trsm_strided_batched: layout");
  expect_c(optune_blas_trmm(e.queue, row, OPTUNE_LEFT, OPTUNE_UPPER, OPTUNE_NO_TRANS, OPTUNE_NON_UNIT, 4, 4, one,
                            nullptr, 4, bf.h, 4, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "optune_blas_trmm: a");
  // A valid call through the C API: trmm with the identity's upper triangle
  // leaves B as it is (B all ones).
  Buf ident(OPTUNE_F32, 4);
  const float eye[4] = {1, 0, 0, 1};
  ASSERT_EQ(optune_buffer_write(e.queue, ident.h, eye, 4, nullptr, 0, nullptr), OPTUNE_SUCCESS);
  Buf bb(OPTUNE_F32, 6);
  const float ones[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(optune_buffer_write(e.queue, bb.h, ones, 6, nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_blas_trmm(e.queue, row, OPTUNE_LEFT, OPTUNE_UPPER, OPTUNE_NO_TRANS, OPTUNE_NON_UNIT, 2, 3,
                             optune_complex{2, 0}, ident.h, 2, bb.h, 3, nullptr, 0, nullptr),
            OPTUNE_SUCCESS)
      << optune_last_error_message();
  float got[6] = {};
  ASSERT_EQ(optune_buffer_read(e.queue, bb.h, got, 6, nullptr, 0, nullptr), OPTUNE_SUCCESS);
  ASSERT_EQ(optune_queue_finish(e.queue), OPTUNE_SUCCESS);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], 2.0f * ones[i]);
}

// The complex routines' own errors: the transposes the reference refuses,
// herk and her2k of real matrices, real scalars with imaginary parts.
TEST(Blas3Errors, Complex) {
  const Queue& q = test::queue();
  using Z = std::complex<float>;
  Buffer<Z> a = test::context().alloc<Z>(64), b = test::context().alloc<Z>(64), c = test::context().alloc<Z>(64);
  test::queue().fill(a, Z(1)).wait();
  const std::complex<double> one(1, 0);
  expect_error(Status::InvalidArgument, "syrk: argument 2 (trans) is Conjugate; syrk of complex matrices takes No or Yes",
               [&] { syrk(q, R, U, BlasTranspose::Conjugate, 4, 4, one, a, 4, one, c, 4); });
  expect_error(Status::InvalidArgument, "syr2k: argument 2 (trans) is Conjugate; syr2k of complex matrices",
               [&] { syr2k(q, R, U, BlasTranspose::Conjugate, 4, 4, one, a, 4, b, 4, one, c, 4); });
  expect_error(Status::InvalidArgument, "herk: argument 2 (trans) is Yes; herk takes No or Conjugate",
               [&] { herk(q, R, U, BlasTranspose::Yes, 4, 4, 1.0, a, 4, 1.0, c, 4); });
  expect_error(Status::InvalidArgument, "herk: argument 1 (uplo) is not Upper or Lower",
               [&] { herk(q, R, Triangle(3), N, 4, 4, 1.0, a, 4, 1.0, c, 4); });
  expect_error(Status::InvalidArgument, "herk: argument 7 (lda) = 3 must be >= 4",
               [&] { herk(q, C, U, N, 4, 4, 1.0, a, 3, 1.0, c, 4); });
  expect_error(Status::InvalidArgument, "her2k: argument 9 (ldb) = 2 must be >= 4",
               [&] { her2k(q, C, U, N, 4, 4, one, a, 4, b, 2, 1.0, c, 4); });
  expect_error(Status::InvalidArgument, "her2k: argument 12 (ldc) = 3 must be >= 4",
               [&] { her2k(q, C, U, N, 4, 4, one, a, 4, b, 4, 1.0, c, 3); });
  expect_error(Status::BufferTooSmall, "her2k: argument 11 (C)",
               [&] { her2k(q, C, U, N, 4, 4, one, a, 4, b, 4, 1.0, c.view(0, 15), 4); });
  expect_error(Status::InvalidArgument, "herk: C (elements 8 to 23) overlaps A (0 to 15) in the same memory",
               [&] { herk(q, R, U, N, 4, 4, 1.0, a.view(0, 16), 4, 0.0, a.view(8, 16), 4); });
  Buffer<float> f = test::context().alloc<float>(64);
  expect_error(Status::InvalidType, "herk: argument 6 (A) is f32; c32 or c64 expected",
               [&] { herk(q, R, U, N, 4, 4, 1.0, f, 4, 1.0, f, 4); });
  expect_error(Status::InvalidType, "her2k: argument 6 (A) is f64; c32 or c64 expected", [&] {
    Buffer<double> d = test::context().alloc<double>(64);
    her2k(q, R, U, N, 4, 4, one, d, 4, d, 4, 1.0, d.view(32, 32), 4);
  });
  // Scalars that must be real (the untyped call, as the C API and the host
  // interface reach it): herk's alpha and beta, her2k's beta, real types'.
  const auto call = [&](optune::detail::Blas3Routine r, std::complex<double> alpha, std::complex<double> beta,
                        DType t) {
    optune::detail::Blas3Call x;
    x.routine = r;
    x.n = x.k = 4;
    x.alpha = alpha;
    x.beta = beta;
    const Buffer<Z>& m = a;
    x.a = x.b = {m.mem(), 0, 64, t};
    x.c = {c.mem(), 0, 64, t};
    x.lda = x.ldb = x.ldc = 4;
    optune::detail::blas3_untyped(q, x, {}).wait();
  };
  const std::complex<double> i1(0, 1);
  expect_error(Status::InvalidArgument, "herk: argument 5 (alpha) has an imaginary part (1.000000); herk takes it real",
               [&] { call(optune::detail::Blas3Routine::Herk, i1, 0.0, DType::C32); });
  expect_error(Status::InvalidArgument, "herk: argument 8 (beta) has an imaginary part",
               [&] { call(optune::detail::Blas3Routine::Herk, 1.0, i1, DType::C32); });
  expect_error(Status::InvalidArgument, "her2k: argument 10 (beta) has an imaginary part",
               [&] { call(optune::detail::Blas3Routine::Her2k, i1, i1, DType::C32); });
  expect_error(Status::InvalidArgument, "syrk: argument 5 (alpha) has an imaginary part (1.000000); the matrices are real",
               [&] { call(optune::detail::Blas3Routine::Syrk, i1, 0.0, DType::F32); });
  // Complex alpha and beta are fine for complex syr2k; her2k's complex alpha too.
  call(optune::detail::Blas3Routine::Syr2k, i1, i1, DType::C32);
  call(optune::detail::Blas3Routine::Her2k, i1, 0.5, DType::C32);
  // c64 without fp64 is Unsupported; with it, a call runs.
  if (!test::device().caps().fp64) {
    Buffer<std::complex<double>> z = test::context().alloc<std::complex<double>>(64);
    expect_error(Status::Unsupported, "herk", [&] { herk(q, R, U, N, 2, 2, 1.0, z, 2, 0.0, z.view(32, 32), 2); });
  }
}

// A hand-made view that claims more elements, or a larger offset, than its
// allocation holds is refused for every matrix before any kernel runs (the
// kernels would otherwise read or write past the allocation).
TEST(Blas3Errors, ViewsBeyondTheirAllocation) {
  const Queue& q = test::queue();
  const auto beyond = [](const Buffer<float>& b, bool far) {
    return Buffer<float>(b.mem(), far ? std::size_t(1) << 40 : 0, b.size() + 4096);
  };
  for (bool far : {false, true}) {
    // 32 x 32 matrices (1024 elements); the bad views are of 64.
    Buffer<float> a = floats(1024), b = floats(1024), c = floats(1024), small = floats(64);
    expect_error(Status::BufferTooSmall, "syrk: argument 6 (A)",
                 [&] { syrk(q, R, U, N, 32, 32, 1.0, beyond(small, far), 32, 0.0, c, 32); });
    expect_error(Status::BufferTooSmall, "syrk: argument 9 (C)",
                 [&] { syrk(q, R, U, N, 32, 32, 1.0, a, 32, 0.0, beyond(small, far), 32); });
    expect_error(Status::BufferTooSmall, "trsm: argument 8 (A)",
                 [&] { trsm(q, R, L, U, N, NU, 32, 32, 1.0, beyond(small, far), 32, b, 32); });
    expect_error(Status::BufferTooSmall, "trmm: argument 10 (B)",
                 [&] { trmm(q, R, L, U, N, NU, 32, 32, 1.0, a, 32, beyond(small, far), 32); });
  }
}

// The buffers' own checks (empty, another context), the batch's extent past
// 64 bits, and the untyped call's checks of what the templates fix (the
// routine, a known element type).
TEST(Blas3Errors, BuffersBatchOverflowAndUntyped) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(64), b = floats(64), c = floats(64);
  expect_error(Status::InvalidArgument, "syrk: argument 6 (A) is an empty buffer",
               [&] { syrk(q, R, U, N, 4, 4, 1.0, Buffer<float>(), 4, 0.0, c, 4); });
  const Context other(test::device());
  expect_error(Status::InvalidArgument, "trsm: argument 10 (B) belongs to another context",
               [&] { trsm(q, R, L, U, N, NU, 4, 4, 1.0, a, 4, other.alloc<float>(16), 4); });
  expect_error(Status::Overflow, "trsm_strided_batched: argument 10 (B)", [&] {
    trsm_strided_batched(q, R, L, U, N, NU, 2, 2, 1.0, a, 2, 0, b, 2, std::int64_t(1) << 62, 8);
  });
  optune::detail::Blas3Call x;
  x.n = x.k = 4;
  x.a = {a.mem(), 0, 64, DType::F32};
  x.c = {c.mem(), 0, 64, DType::F32};
  x.lda = x.ldc = 4;
  x.routine = optune::detail::Blas3Routine(99);
  expect_error(Status::InvalidArgument, "blas3: routine 99 is not known",
               [&] { optune::detail::blas3_untyped(q, x, {}); });
  x.routine = optune::detail::Blas3Routine::Syrk;
  x.a.dtype = DType(99);
  expect_error(Status::InvalidArgument, "syrk: argument 6 (A): unknown data type 99",
               [&] { optune::detail::blas3_untyped(q, x, {}); });
}
