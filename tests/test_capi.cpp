// The C API (include/optune/optune.h): status codes, devices, buffers,
// events and the operators against the double-precision references; the
// GEMM case when the C API's GEMM is built. tests/capi_smoke.c drives it from
// C; test_capi_errors checks its errors.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "reference/elementwise_ref.hpp"
#include "reference/reduce_ref.hpp"
#include "support/capi_support.hpp"

extern "C" int optune_capi_smoke(char* message, size_t size);

using namespace optune;
using namespace optune::test::capi;

// ---- status codes and devices ----

#define SAME_CODE(c, s) static_assert(int(c) == int(Status::s), #c);
SAME_CODE(OPTUNE_SUCCESS, Success)
SAME_CODE(OPTUNE_INVALID_ARGUMENT, InvalidArgument)
SAME_CODE(OPTUNE_INVALID_SHAPE, InvalidShape)
SAME_CODE(OPTUNE_INVALID_TYPE, InvalidType)
SAME_CODE(OPTUNE_BUFFER_TOO_SMALL, BufferTooSmall)
SAME_CODE(OPTUNE_OVERFLOW, Overflow)
SAME_CODE(OPTUNE_DEVICE_NOT_FOUND, DeviceNotFound)
SAME_CODE(OPTUNE_UNSUPPORTED, Unsupported)
SAME_CODE(OPTUNE_BUILD_FAILURE, BuildFailure)
SAME_CODE(OPTUNE_OUT_OF_RESOURCES, OutOfResources)
SAME_CODE(OPTUNE_DEVICE_ERROR, DeviceError)
SAME_CODE(OPTUNE_BACKEND_UNAVAILABLE, BackendUnavailable)
SAME_CODE(OPTUNE_IO_ERROR, IoError)
SAME_CODE(OPTUNE_NOT_FOUND, NotFound)
SAME_CODE(OPTUNE_INTERNAL, Internal)
static_assert(int(OPTUNE_F16) == int(DType::F16) && int(OPTUNE_U8) == int(DType::U8) && int(OPTUNE_BF16) == int(DType::BF16));
static_assert(int(OPTUNE_UNARY_CLAMP) == int(Unary::Clamp) && int(OPTUNE_BINARY_GE) == int(Binary::Ge));
static_assert(int(OPTUNE_TERNARY_CLAMP) == int(Ternary::Clamp) && int(OPTUNE_REDUCE_ALL) == int(ReduceOp::All));

TEST(CApi, StatusNamesAreTheCppOnes) {
  for (int s = 0; s <= int(Status::Internal); ++s)
    EXPECT_STREQ(optune_status_name(optune_status(s)), status_name(Status(s)));
  EXPECT_STREQ(optune_status_name(optune_status(99)), "unknown status");
  EXPECT_EQ(optune_dtype_size(OPTUNE_F16), 2u);
  EXPECT_EQ(optune_dtype_size(optune_dtype(17)), 0u);
  if (!std::getenv("OPTUNE_TRACE"))
    EXPECT_TRUE(fails(optune_flush_trace(), OPTUNE_UNSUPPORTED, "OPTUNE_TRACE"));
}

TEST(CApi, DevicesEnumerateSelectAndDescribe) {
  std::size_t n = 0;
  C_OK(optune_device_count(&n));
  ASSERT_EQ(n, devices().size());
  for (std::size_t i = 0; i < n; ++i) {
    optune_device d = nullptr;
    C_OK(optune_device_get(i, &d));
    optune_device_info info{};
    C_OK(optune_device_get_info(d, &info));
    EXPECT_EQ(std::string(info.spec), devices()[i].spec());
    EXPECT_EQ(std::string(info.name), devices()[i].name());
    optune_device again = nullptr;
    C_OK(optune_device_select(info.spec, &again));
    EXPECT_EQ(again, d) << "one handle per device";
  }
  optune_device_info info{};
  C_OK(optune_device_get_info(env().device, &info));
  const Capabilities& caps = test::device().caps();
  EXPECT_EQ(int(info.backend), int(caps.backend));
  EXPECT_EQ(info.compute_units, caps.compute_units);
  EXPECT_EQ(info.max_work_group_size, caps.max_work_group_size);
  EXPECT_EQ(info.fp64, int(caps.fp64));
  EXPECT_EQ(std::string(info.architecture), caps.architecture);
  optune_device d = nullptr;
  C_OK(optune_device_default(&d));
  optune_device none = env().device;
  EXPECT_TRUE(fails(optune_device_select("opencl:42:7", &none), OPTUNE_DEVICE_NOT_FOUND, "opencl:42:7"));
  EXPECT_EQ(none, nullptr);
  EXPECT_TRUE(fails(optune_device_get(n, &none), OPTUNE_INVALID_ARGUMENT, "out of range"));
}

// ---- buffers and events ----

TEST(CApi, BufferRoundTripViewsCopyAndFill) {
  const std::size_t n = 1025;
  const auto host = test::random_floats(n);
  Buf x(OPTUNE_F32, n), y(OPTUNE_F32, n);
  write_f32(x.h, host);
  EXPECT_EQ(read_f32(x.h, n), host);

  // A view: its own handle on part of the memory, offsets in elements.
  Buf v;
  C_OK(optune_buffer_view(x.h, 100, 17, &v.h));
  optune_dtype t = OPTUNE_F64;
  std::size_t count = 0, offset = 0;
  C_OK(optune_buffer_get_info(v.h, &t, &count, &offset));
  EXPECT_EQ(t, OPTUNE_F32);
  EXPECT_EQ(count, 17u);
  EXPECT_EQ(offset, 100u);
  EXPECT_EQ(read_f32(v.h, 17), std::vector<float>(host.begin() + 100, host.begin() + 117));
  C_OK(optune_buffer_fill(env().queue, v.h, 2.5, nullptr, 0, nullptr));
  Ev copied;
  C_OK(optune_buffer_copy(env().queue, x.h, y.h, nullptr, 0, &copied.h));
  C_OK(optune_event_wait(copied.h));
  int done = 0;
  C_OK(optune_event_complete(copied.h, &done));
  EXPECT_EQ(done, 1);
  double seconds = -1;
  C_OK(optune_event_elapsed(copied.h, &seconds));
  EXPECT_GE(seconds, 0.0);
  std::vector<float> want = host;
  std::fill(want.begin() + 100, want.begin() + 117, 2.5f);
  EXPECT_EQ(read_f32(y.h, n), want);

  // Other types: f16 as bit patterns, integers filled with whole values only.
  Buf h(OPTUNE_F16, 3), i(OPTUNE_I32, 5);
  const std::uint16_t bits[3] = {0x3c00, 0xc000, 0x7bff};  // 1, -2, 65504
  C_OK(optune_buffer_write(env().queue, h.h, bits, 3, nullptr, 0, nullptr));
  std::uint16_t back[3] = {};
  C_OK(optune_buffer_read(env().queue, h.h, back, 3, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(env().queue));
  EXPECT_EQ(std::memcmp(bits, back, sizeof bits), 0);
  C_OK(optune_buffer_fill(env().queue, i.h, -7, nullptr, 0, nullptr));
  std::int32_t ints[5] = {};
  C_OK(optune_buffer_read(env().queue, i.h, ints, 5, nullptr, 0, nullptr));
  C_OK(optune_queue_finish(env().queue));
  for (std::int32_t v : ints) EXPECT_EQ(v, -7);
  EXPECT_TRUE(fails(optune_buffer_fill(env().queue, i.h, 0.5, nullptr, 0, nullptr), OPTUNE_INVALID_ARGUMENT, "0.5"));
}

TEST(CApi, WaitListsOrderWork) {
  const std::size_t n = 4096;
  Buf x(OPTUNE_F32, n), y(OPTUNE_F32, n);
  const auto host = test::random_floats(n);
  Ev up, op;
  C_OK(optune_buffer_write(env().queue, x.h, host.data(), n, nullptr, 0, &up.h));
  Tensor tx(x.h, {64, 64}), ty(y.h, {64, 64});
  C_OK(optune_unary(env().queue, OPTUNE_UNARY_NEG, tx.get(), ty.get(), nullptr, &up.h, 1, &op.h));
  std::vector<float> got(n);
  C_OK(optune_buffer_read(env().queue, y.h, got.data(), n, &op.h, 1, nullptr));
  C_OK(optune_queue_finish(env().queue));
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], -host[i]) << i;
  // An operator with nothing to do still returns an event, already complete.
  Tensor empty_x(x.h, {0, 64}), empty_y(y.h, {0, 64});
  Ev nothing;
  C_OK(optune_unary(env().queue, OPTUNE_UNARY_NEG, empty_x.get(), empty_y.get(), nullptr, nullptr, 0, &nothing.h));
  ASSERT_NE(nothing.h, nullptr);
  double seconds = -1;
  C_OK(optune_event_elapsed(nothing.h, &seconds));
  EXPECT_EQ(seconds, 0.0);
}

// ---- operators against the references ----

TEST(CApi, UnaryMatchesTheReference) {
  const std::size_t n = 1023;
  const auto x = test::random_floats(n, -4, 4);
  Buf dx(OPTUNE_F32, n), dy(OPTUNE_F32, n);
  write_f32(dx.h, x);
  Tensor tx(dx.h, {31, 33}), ty(dy.h, {31, 33});
  C_OK(optune_unary(env().queue, OPTUNE_UNARY_GELU, tx.get(), ty.get(), nullptr, nullptr, 0, nullptr));
  auto y = read_f32(dy.h, n);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(ref::matches(DType::F32, y[i], ref::unary(Unary::Gelu, x[i]), 1e-5, 1e-30)) << i;

  // A reversed view (negative stride, offset at its first element) with a parameter.
  Tensor rx(dx.h, {std::int64_t(n)}, {-1}, n - 1), ry(dy.h, {std::int64_t(n)});
  const optune_op_params slope{0.2, NAN};
  C_OK(optune_unary(env().queue, OPTUNE_UNARY_LEAKY_RELU, rx.get(), ry.get(), &slope, nullptr, 0, nullptr));
  y = read_f32(dy.h, n);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(ref::matches(DType::F32, y[i], ref::unary(Unary::LeakyRelu, x[n - 1 - i], 0.2), 1e-6, 0)) << i;
}

TEST(CApi, BinaryScalarTernaryAndCast) {
  const auto a = test::random_floats(17 * 5, -3, 3), b = test::random_floats(5, -3, 3);
  Buf da(OPTUNE_F32, a.size()), db(OPTUNE_F32, b.size()), dy(OPTUNE_F32, a.size()), di(OPTUNE_I32, a.size());
  write_f32(da.h, a);
  write_f32(db.h, b);
  Tensor ta(da.h, {17, 5}), tb(db.h, {5}), ty(dy.h, {17, 5}), ti(di.h, {17, 5});
  C_OK(optune_binary(env().queue, OPTUNE_BINARY_MUL, ta.get(), tb.get(), ty.get(), nullptr, 0, nullptr));
  auto y = read_f32(dy.h, a.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(y[i], a[i] * b[i % 5]) << i;
  C_OK(optune_binary_scalar_tensor(env().queue, OPTUNE_BINARY_SUB, 1.5, ta.get(), ty.get(), nullptr, 0, nullptr));
  y = read_f32(dy.h, a.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(y[i], 1.5f - a[i]) << i;
  C_OK(optune_binary_tensor_scalar(env().queue, OPTUNE_BINARY_MAX, ta.get(), 0.25, ty.get(), nullptr, 0, nullptr));
  y = read_f32(dy.h, a.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(y[i], std::max(a[i], 0.25f)) << i;
  // addcmul: y = a + alpha * a * b, in place.
  const optune_op_params alpha{0.5, NAN};
  write_f32(dy.h, a);
  C_OK(optune_ternary(env().queue, OPTUNE_TERNARY_ADDCMUL, ty.get(), ta.get(), tb.get(), ty.get(), &alpha, nullptr, 0,
                      nullptr));
  y = read_f32(dy.h, a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    ASSERT_TRUE(ref::matches(DType::F32, y[i], ref::ternary(Ternary::Addcmul, a[i], a[i], b[i % 5], 0.5), 1e-6, 1e-7))
        << i;
  C_OK(optune_cast(env().queue, ta.get(), ti.get(), nullptr, 0, nullptr));
  std::vector<std::int32_t> ints(a.size());
  C_OK(optune_buffer_read(env().queue, di.h, ints.data(), ints.size(), nullptr, 0, nullptr));
  C_OK(optune_queue_finish(env().queue));
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(ints[i], std::int32_t(ref::store_as(DType::I32, a[i], false)));
}

TEST(CApi, CustomExpression) {
  const auto x = test::random_floats(300), b = test::random_floats(300);
  Buf dx(OPTUNE_F32, 300), db(OPTUNE_F32, 300), dy(OPTUNE_F32, 300), dz(OPTUNE_F32, 300);
  write_f32(dx.h, x);
  write_f32(db.h, b);
  Tensor ins[2] = {Tensor(dx.h, {300}), Tensor(db.h, {300})};
  Tensor outs[2] = {Tensor(dy.h, {300}), Tensor(dz.h, {300})};
  const optune_tensor in_list[2] = {*ins[0].get(), *ins[1].get()};
  const optune_tensor out_list[2] = {*outs[0].get(), *outs[1].get()};
  const char* in_names[] = {"p", "q"};
  const char* out_names[] = {"sum", "scaled"};
  const char* scalar_names[] = {"k"};
  const double scalar_values[] = {3.0};
  C_OK(optune_elementwise(env().queue, "sum = p + q; scaled = k * p", in_list, 2, in_names, out_list, 2, out_names,
                          scalar_names, scalar_values, 1, nullptr, 0, nullptr));
  const auto y = read_f32(dy.h, 300), z = read_f32(dz.h, 300);
  for (std::size_t i = 0; i < 300; ++i) {
    ASSERT_EQ(y[i], x[i] + b[i]) << i;
    ASSERT_EQ(z[i], 3.0f * x[i]) << i;
  }
  // Default names: x, b in; y out.
  C_OK(optune_elementwise(env().queue, "y = x - b", in_list, 2, nullptr, out_list, 1, nullptr, nullptr, nullptr, 0,
                          nullptr, 0, nullptr));
  const auto d = read_f32(dy.h, 300);
  for (std::size_t i = 0; i < 300; ++i) ASSERT_EQ(d[i], x[i] - b[i]) << i;
}

TEST(CApi, ReduceSoftmaxAndNormsMatchTheReference) {
  const std::vector<std::int64_t> shape{13, 3, 29};
  const std::size_t n = 13 * 3 * 29;
  const auto x = test::random_floats(n, -2, 2);
  Buf dx(OPTUNE_F32, n), dy(OPTUNE_F32, n), dr(OPTUNE_F32, 13 * 29), di(OPTUNE_I32, 13 * 3);
  write_f32(dx.h, x);
  Tensor tx(dx.h, shape);

  // sum over axis 1 (a middle axis), kept as 1.
  const int axes[] = {-2};
  Tensor tr(dr.h, {13, 1, 29});
  C_OK(optune_reduce(env().queue, OPTUNE_REDUCE_SUM, tx.get(), axes, 1, 1, tr.get(), nullptr, 0, nullptr));
  auto got = read_f32(dr.h, 13 * 29);
  auto want = ref::reduce(ReduceOp::Sum, doubles(x), shape, {1});
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_TRUE(ref::close(got[i], want.value[i], want.scale[i], 1e-5)) << i;
  // argmax over the last axis writes i32.
  const int last[] = {2};
  Tensor ti(di.h, {13, 3});
  C_OK(optune_reduce(env().queue, OPTUNE_REDUCE_ARGMAX, tx.get(), last, 1, 0, ti.get(), nullptr, 0, nullptr));
  std::vector<std::int32_t> idx(13 * 3);
  C_OK(optune_buffer_read(env().queue, di.h, idx.data(), idx.size(), nullptr, 0, nullptr));
  C_OK(optune_queue_finish(env().queue));
  want = ref::reduce(ReduceOp::ArgMax, doubles(x), shape, {2});
  for (std::size_t i = 0; i < idx.size(); ++i) ASSERT_EQ(idx[i], want.value[i]) << i;

  Tensor ty(dy.h, shape);
  C_OK(optune_log_softmax(env().queue, tx.get(), 0, ty.get(), nullptr, 0, nullptr));
  got = read_f32(dy.h, n);
  auto soft = ref::softmax(doubles(x), shape, 0, true);
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(ref::close(got[i], soft[i], std::max(std::fabs(soft[i]), 1.0), 2e-5));
  C_OK(optune_softmax(env().queue, tx.get(), -1, ty.get(), nullptr, 0, nullptr));
  got = read_f32(dy.h, n);
  soft = ref::softmax(doubles(x), shape, 2, false);
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(ref::close(got[i], soft[i], 1.0, 2e-5)) << i;

  // layer_norm with gamma, beta and both statistics; rms_norm without gamma.
  const auto gamma = test::random_floats(29), beta = test::random_floats(29);
  Buf dg(OPTUNE_F32, 29), db(OPTUNE_F32, 29), dm(OPTUNE_F32, 39), ds(OPTUNE_F32, 39);
  write_f32(dg.h, gamma);
  write_f32(db.h, beta);
  Tensor tg(dg.h, {29}), tb(db.h, {29}), tm(dm.h, {13, 3}), ts(ds.h, {13, 3});
  C_OK(optune_layer_norm(env().queue, tx.get(), tg.get(), tb.get(), 1e-5, ty.get(), tm.get(), ts.get(), nullptr, 0,
                         nullptr));
  const auto g64 = doubles(gamma), b64 = doubles(beta);
  const auto ln = ref::layer_norm(doubles(x), 39, 29, &g64, &b64, 1e-5);
  got = read_f32(dy.h, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(ref::close(got[i], ln.y[i], std::max(std::fabs(ln.y[i]), 1.0), 2e-5));
  const auto mean = read_f32(dm.h, 39), rstd = read_f32(ds.h, 39);
  for (std::size_t r = 0; r < 39; ++r) {
    ASSERT_TRUE(ref::close(mean[r], ln.mean[r], 1.0, 2e-5)) << r;
    ASSERT_TRUE(ref::close(rstd[r], ln.rstd[r], ln.rstd[r], 2e-5)) << r;
  }
  C_OK(optune_rms_norm(env().queue, tx.get(), nullptr, 1e-6, ty.get(), nullptr, 0, nullptr));
  const auto rn = ref::rms_norm(doubles(x), 39, 29, nullptr, 1e-6);
  got = read_f32(dy.h, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(ref::close(got[i], rn.y[i], std::max(std::fabs(rn.y[i]), 1.0), 2e-5));
}

TEST(CApi, PureCTranslationUnit) {
  char message[1024];
  EXPECT_EQ(optune_capi_smoke(message, sizeof message), 1) << message;
}

TEST(CApi, GemmMatchesTheReference) {
  const std::int64_t m = 17, n = 13, k = 29;
  const auto a = test::random_floats(std::size_t(m * k)), b = test::random_floats(std::size_t(k * n));
  const auto c0 = test::random_floats(std::size_t(m * n));
  Buf da(OPTUNE_F32, a.size()), db(OPTUNE_F32, b.size()), dc(OPTUNE_F32, c0.size());
  write_f32(da.h, a);
  write_f32(db.h, b);
  write_f32(dc.h, c0);
  C_OK(optune_gemm(env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_TRANS, m, n, k, 1.5, da.h, k, db.h, k, 0.5,
                   dc.h, n, nullptr, nullptr, 0, nullptr));
  // B is stored n x k (transposed), row-major.
  const auto c = read_f32(dc.h, c0.size());
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = 0, mag = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        s += double(a[std::size_t(i * k + p)]) * b[std::size_t(j * k + p)];
        mag += std::fabs(double(a[std::size_t(i * k + p)]) * b[std::size_t(j * k + p)]);
      }
      const double want = 1.5 * s + 0.5 * c0[std::size_t(i * n + j)];
      ASSERT_TRUE(ref::close(c[std::size_t(i * n + j)], want, 1.5 * mag + 1, 1e-5)) << i << "," << j;
    }
  Buf half_b(OPTUNE_F16, b.size());
  EXPECT_TRUE(fails(optune_gemm(env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_TRANS, m, n, k, 1, da.h, k,
                                half_b.h, k, 0, dc.h, n, nullptr, nullptr, 0, nullptr),
                    OPTUNE_INVALID_TYPE, "b is f16"));
  EXPECT_TRUE(fails(optune_gemm(env().queue, optune_layout(2), OPTUNE_NO_TRANS, OPTUNE_TRANS, m, n, k, 1, da.h, k,
                                db.h, k, 0, dc.h, n, nullptr, nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "layout 2"));
  EXPECT_TRUE(fails(optune_gemm(env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_TRANS, m, n, k, 1, da.h, k,
                                db.h, k, 0, dc.h, n - 1, nullptr, nullptr, 0, nullptr),
                    OPTUNE_INVALID_ARGUMENT, "ldc"));
  // Strided batch of 2 over the same A and B (stride 0), C side by side.
  Buf dc2(OPTUNE_F32, c0.size() * 2);
  C_OK(optune_gemm_strided_batched(env().queue, OPTUNE_ROW_MAJOR, OPTUNE_NO_TRANS, OPTUNE_TRANS, m, n, k, 1.0, da.h,
                                   k, 0, db.h, k, 0, 0.0, dc2.h, n, m * n, 2, nullptr, nullptr, 0, nullptr));
  const auto c2 = read_f32(dc2.h, c0.size() * 2);
  for (std::size_t i = 0; i < c0.size(); ++i) ASSERT_EQ(c2[i], c2[i + c0.size()]) << i;
}
