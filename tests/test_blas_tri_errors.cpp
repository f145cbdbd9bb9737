// Every validation error of the triangular level-2 routines
// (optune/blas2_triangular.hpp): netlib's xerbla positions in the messages,
// checks made before n = 0 returns, buffers, types and overlaps.
#include <complex>
#include <limits>

#include "kernels/blas/blas_tri.hpp"
#include "ops/blas_tri_ops.hpp"
#include "optune/blas2_triangular.hpp"
#include "support/capi_support.hpp"
#include "support/test_support.hpp"

using namespace optune;
using test::expect_error;

namespace {

constexpr Layout kCol = Layout::ColMajor;
constexpr Triangle kUp = Triangle::Upper;
constexpr BlasTranspose kNo = BlasTranspose::No;
constexpr Diagonal kNon = Diagonal::NonUnit;

Buffer<float> floats(std::size_t n) {
  Buffer<float> b = test::context().alloc<float>(n);
  test::queue().fill(b, 1.0f).wait();
  return b;
}

}  // namespace

TEST(BlasTriErrors, EnumsAndSizes) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(64), x = floats(16);
  expect_error(Status::InvalidArgument, "trmv: layout (CBLAS's argument 1) is 7",
               [&] { trmv(q, Layout(7), kUp, kNo, kNon, 4, a, 4, x, 1); });
  expect_error(Status::InvalidArgument, "trsv: argument 1 (uplo) is 5",
               [&] { trsv(q, kCol, Triangle(5), kNo, kNon, 4, a, 4, x, 1); });
  expect_error(Status::InvalidArgument, "tbmv: argument 2 (trans) is 3",
               [&] { tbmv(q, kCol, kUp, BlasTranspose(3), kNon, 4, 1, a, 2, x, 1); });
  expect_error(Status::InvalidArgument, "tpsv: argument 3 (diag) is -1",
               [&] { tpsv(q, kCol, kUp, kNo, Diagonal(-1), 4, a, x, 1); });
  expect_error(Status::InvalidArgument, "tpmv: argument 4 (n) is -1", [&] { tpmv(q, kCol, kUp, kNo, kNon, -1, a, x, 1); });
  expect_error(Status::InvalidArgument, "tbsv: argument 5 (k) is -2",
               [&] { tbsv(q, kCol, kUp, kNo, kNon, 4, -2, a, 2, x, 1); });
  expect_error(Status::InvalidArgument, "trmv: argument 6 (lda) is 3; at least max(1, n) = 4",
               [&] { trmv(q, kCol, kUp, kNo, kNon, 4, a, 3, x, 1); });
  expect_error(Status::InvalidArgument, "trsv: argument 6 (lda) is 0; at least max(1, n) = 1",
               [&] { trsv(q, Layout::RowMajor, kUp, kNo, kNon, 0, a, 0, x, 1); });
  expect_error(Status::InvalidArgument, "tbmv: argument 7 (lda) is 2; at least k + 1 = 3",
               [&] { tbmv(q, kCol, kUp, kNo, kNon, 4, 2, a, 2, x, 1); });
  expect_error(Status::InvalidArgument, "trsv: argument 8 (incx) is 0", [&] { trsv(q, kCol, kUp, kNo, kNon, 4, a, 4, x, 0); });
  expect_error(Status::InvalidArgument, "tbsv: argument 9 (incx) is 0",
               [&] { tbsv(q, kCol, kUp, kNo, kNon, 4, 1, a, 2, x, 0); });
  expect_error(Status::InvalidArgument, "tpmv: argument 7 (incx) is 0", [&] { tpmv(q, kCol, kUp, kNo, kNon, 4, a, x, 0); });
}

TEST(BlasTriErrors, Buffers) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(64), x = floats(16);
  // Checked before n = 0 returns.
  expect_error(Status::InvalidArgument, "trmv: a is an empty buffer",
               [&] { trmv(q, kCol, kUp, kNo, kNon, 0, Buffer<float>(), 1, x, 1); });
  expect_error(Status::InvalidArgument, "tpsv: x is an empty buffer",
               [&] { tpsv(q, kCol, kUp, kNo, kNon, 0, a, Buffer<float>(), 1); });
  const Context other(test::device());
  expect_error(Status::InvalidArgument, "tpmv: ap belongs to another context",
               [&] { tpmv(q, kCol, kUp, kNo, kNon, 3, other.alloc<float>(8), x, 1); });
  // (n - 1) lda + n = 3 * 5 + 4 = 19 elements; packed 4 * 5 / 2 = 10; band
  // (n - 1) lda + k + 1 = 3 * 3 + 3 = 12; x (n - 1) |incx| + 1.
  expect_error(Status::BufferTooSmall, "trsv: a", [&] { trsv(q, kCol, kUp, kNo, kNon, 4, a.view(0, 18), 5, x, 1); });
  expect_error(Status::BufferTooSmall, "tpmv: ap", [&] { tpmv(q, kCol, kUp, kNo, kNon, 4, a.view(0, 9), x, 1); });
  expect_error(Status::BufferTooSmall, "tbsv: a", [&] { tbsv(q, kCol, kUp, kNo, kNon, 4, 2, a.view(0, 11), 3, x, 1); });
  expect_error(Status::BufferTooSmall, "trmv: x", [&] { trmv(q, kCol, kUp, kNo, kNon, 4, a, 4, x.view(0, 9), -3); });
  expect_error(Status::Overflow, "trmv: a (n, k, lda)",
               [&] { trmv(q, kCol, kUp, kNo, kNon, 4, a, std::numeric_limits<std::int64_t>::max(), x, 1); });
  // A and x in one allocation, overlapping.
  expect_error(Status::InvalidArgument, "trsv: a (elements 0 to 15) and x (12 to 15) overlap",
               [&] { trsv(q, kCol, kUp, kNo, kNon, 4, a.view(0, 16), 4, a.view(12, 4), 1); });
}

// The extents past 64 bits of each storage and of x, k at the top of its
// range (lda >= k + 1 cannot hold), and hand-made views that claim more than
// their allocation holds.
TEST(BlasTriErrors, OverflowAndViews) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(64), x = floats(16);
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  expect_error(Status::Overflow, "tpmv: a (n, k, lda)",
               [&] { tpmv(q, kCol, kUp, kNo, kNon, std::int64_t(1) << 33, a, x, 1); });
  expect_error(Status::Overflow, "tbmv: a (n, k, lda)", [&] { tbmv(q, kCol, kUp, kNo, kNon, 4, 1, a, big, x, 1); });
  expect_error(Status::Overflow, "trmv: x (n, incx)",
               [&] { trmv(q, kCol, kUp, kNo, kNon, 4, a, 4, x, std::numeric_limits<std::int64_t>::min()); });
  expect_error(Status::InvalidArgument, "tbsv: argument 7 (lda) is 4; at least k + 1 = 9223372036854775808 expected",
               [&] { tbsv(q, kCol, kUp, kNo, kNon, 4, big, a, 4, x, 1); });
  // 32 x 32 (1024 elements) from views of 64 that claim 4096 more, or start
  // far past the end.
  Buffer<float> big_a = floats(1024), big_x = floats(32);
  for (const Buffer<float>& bad : {Buffer<float>(a.mem(), 0, 64 + 4096), Buffer<float>(a.mem(), std::size_t(1) << 40, 64 + 4096)}) {
    expect_error(Status::BufferTooSmall, "trmv: a", [&] { trmv(q, kCol, kUp, kNo, kNon, 32, bad, 32, big_x, 1); });
    expect_error(Status::BufferTooSmall, "trsv: x", [&] { trsv(q, kCol, kUp, kNo, kNon, 32, big_a, 32, bad, 1); });
  }
}

// Types reach the untyped call only through the C API (the templates fix
// them): a bfloat16 matrix, and a and x of different types.
TEST(BlasTriErrors, Types) {
  const Queue& q = test::queue();
  Buffer<float> a = floats(16);
  Buffer<std::complex<float>> xc = test::context().alloc<std::complex<float>>(4);
  detail::BlasTriCall c;
  c.n = 4;
  c.lda = 4;
  c.a = detail::blas_vector(a);
  c.x = detail::blas_vector(xc);
  expect_error(Status::InvalidType, "trmv: a is f32 but x is c32", [&] { detail::blas_tri_untyped(q, c, {}); });
  c.a.dtype = DType::BF16;
  c.x = c.a;
  c.solve = true;
  expect_error(Status::InvalidType, "trsv: a is bf16; f32, f64, c32, c64 or f16 expected",
               [&] { detail::blas_tri_untyped(q, c, {}); });
}

namespace {

void expect_c(optune_status status, optune_status want, const std::string& needle) {
  EXPECT_EQ(status, want) << optune_last_error_message();
  EXPECT_NE(std::string(optune_last_error_message()).find(needle), std::string::npos)
      << "'" << needle << "' not in: " << optune_last_error_message();
}

}  // namespace

// The C API: types and enumeration values reach the same checks; one lower
// solve and one product that work, read back.
TEST(BlasTriErrors, CApi) {
  using test::capi::Buf;
  const auto& e = test::capi::env();
  Buf af(OPTUNE_F32, 16), xf(OPTUNE_F32, 4), xd(OPTUNE_F64, 4), ah(OPTUNE_BF16, 16);
  expect_c(optune_blas_trsv(e.queue, OPTUNE_COL_MAJOR, 0, 0, 0, 4, af.h, 4, xd.h, 1, nullptr, 0, nullptr),
           OPTUNE_INVALID_TYPE, "trsv: a is f32 but x is f64");
  expect_c(optune_blas_tpmv(e.queue, OPTUNE_COL_MAJOR, 0, 0, 0, 4, ah.h, ah.h, 1, nullptr, 0, nullptr),
           OPTUNE_INVALID_TYPE, "tpmv: ap is bf16");
  expect_c(optune_blas_tbsv(e.queue, OPTUNE_COL_MAJOR, 2, 0, 0, 4, 1, af.h, 2, xf.h, 1, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "tbsv: argument 1 (uplo) is 2");
  expect_c(optune_blas_tbmv(e.queue, OPTUNE_COL_MAJOR, 0, 0, 0, 4, 1, af.h, 2, xf.h, 0, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "tbmv: argument 9 (incx) is 0");
  expect_c(optune_blas_trmv(e.queue, optune_layout(4), 0, 0, 0, 4, af.h, 4, xf.h, 1, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "trmv: layout (CBLAS's argument 1) is 4");
  expect_c(optune_blas_tpsv(e.queue, OPTUNE_COL_MAJOR, 0, 0, 0, 4, nullptr, xf.h, 1, nullptr, 0, nullptr),
           OPTUNE_INVALID_ARGUMENT, "optune_blas_tpsv: ap is NULL");
  // A = [2 0; 1 4] (column-major, lower), b = (2, 9): x = (1, 2); then x = A x = (2, 9).
  const float a[4] = {2, 1, 0, 4}, b[2] = {2, 9};
  C_OK(optune_buffer_write(e.queue, af.h, a, 4, nullptr, 0, nullptr));
  C_OK(optune_buffer_write(e.queue, xf.h, b, 2, nullptr, 0, nullptr));
  C_OK(optune_blas_trsv(e.queue, OPTUNE_COL_MAJOR, 1, 0, 0, 2, af.h, 2, xf.h, 1, nullptr, 0, nullptr));
  float out[2];
  C_OK(optune_buffer_read(e.queue, xf.h, out, 2, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 2.0f);
  C_OK(optune_blas_trmv(e.queue, OPTUNE_COL_MAJOR, 1, 0, 0, 2, af.h, 2, xf.h, 1, nullptr, 0, nullptr));
  C_OK(optune_buffer_read(e.queue, xf.h, out, 2, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(e.queue));
  EXPECT_EQ(out[0], 2.0f);
  EXPECT_EQ(out[1], 9.0f);
}

// A program of the family holds every kernel (products and solves), so the
// solve's local arrays must fit the device for a product too: CUDA's 48 KiB
// refuse c64 with NB 64 and WGS 256 (tri_sv's inverse alone is 64 KiB), and
// fit() halves NB for products and solves alike.
TEST(BlasTriErrors, LocalMemoryOfEveryKernel) {
  const optune::detail::BlasTriFamily& fam = optune::detail::families::blas_tri();
  optune::Capabilities caps;
  caps.backend = optune::Backend::CUDA;
  caps.type = optune::DeviceType::GPU;
  caps.local_mem_bytes = 48 * 1024;
  caps.max_work_group_size = 1024;
  caps.max_work_item_sizes = {1024, 1024, 64};
  for (bool solve : {false, true}) {
    optune::detail::BlasTriProblem pr;
    pr.dtype = optune::DType::C64;
    pr.solve = solve;
    pr.n = 8192;
    optune::detail::Params p = fam.defaults(caps);
    p["NB"] = 64;
    p["WGS"] = 256;
    EXPECT_NE(fam.check(p, caps, pr), "") << "solve " << solve;
    const optune::detail::Params fitted = fam.fit(p, caps, pr);
    EXPECT_EQ(fitted.at("NB"), 32) << "solve " << solve;
    EXPECT_EQ(fam.check(fitted, caps, pr), "") << "solve " << solve;
    pr.dtype = optune::DType::F32;
    EXPECT_EQ(fam.check(p, caps, pr), "") << "solve " << solve;
  }
}
