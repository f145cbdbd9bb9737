// half conversion, data-type names, status names and the shared validation helpers.
#include <cmath>
#include <cstring>

#include "ops/validate.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {
// Reference: the nearest half by exhaustive search over finite halves in double.
std::uint16_t nearest_half(float f) {
  if (std::isnan(f)) return 0x7e00;
  std::uint16_t best = 0;
  double best_err = INFINITY;
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {
    const double v = half::to_float(std::uint16_t(h));
    const double err = std::fabs(v - std::fabs(double(f)));
    if (err < best_err || (err == best_err && (h & 1) == 0)) {
      best_err = err;
      best = std::uint16_t(h);
    }
  }
  // Beyond the largest half by half an ulp or more: infinity.
  if (std::fabs(double(f)) >= 65520.0) best = 0x7c00;
  return std::uint16_t(best | (std::signbit(f) ? 0x8000 : 0));
}
}  // namespace

TEST(Half, EveryHalfRoundTrips) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = half::to_float(std::uint16_t(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(half::to_float(half::from_float(f))));
      continue;
    }
    ASSERT_EQ(half::from_float(f), h) << std::hex << h;
  }
}

TEST(Half, RoundsToNearestEven) {
  const float special[] = {0.0f, -0.0f, 1.0f, 65504.0f, 65519.0f, 65520.0f, 1e9f, -1e9f, 5.9604645e-8f,
                           2.9802322e-8f, 2.98023259e-8f, 1e-9f, 6.1035156e-5f, 6.0975552e-5f, INFINITY, -INFINITY};
  for (float f : special) EXPECT_EQ(half::from_float(f), nearest_half(f)) << f;
  std::uniform_real_distribution<float> d(-70000.0f, 70000.0f);
  std::uniform_real_distribution<float> small(-1e-4f, 1e-4f);
  for (int i = 0; i < 300; ++i) {
    const float f = (i % 2) ? d(test::rng()) : small(test::rng());
    ASSERT_EQ(half::from_float(f), nearest_half(f)) << f;
  }
}

// Reference for bfloat16: the two bf16 neighbours of f by their f32 values
// (bf16 values are exactly f32's with the low 16 bits zero), the nearer
// kept, ties to the even one; beyond the largest finite bf16 by half an ulp
// or more: infinity.
static std::uint16_t nearest_bf16(float f) {
  if (std::isnan(f)) return 0;  // not used for NaN
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t lo = x & 0xffff0000u, hi = lo + 0x10000u;
  float flo, fhi;
  std::memcpy(&flo, &lo, 4);
  std::memcpy(&fhi, &hi, 4);
  const double dl = std::fabs(double(f) - double(flo)), dh = std::fabs(double(fhi) - double(f));
  const std::uint16_t l = std::uint16_t(lo >> 16), h = std::uint16_t(hi >> 16);
  if ((x & 0xffffu) == 0) return l;
  if (dl < dh) return l;
  if (dh < dl) return h;
  return (l & 1) ? h : l;
}

TEST(BFloat16, EveryBf16RoundTripsExactly) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float f = bfloat16::to_float(std::uint16_t(b));
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    ASSERT_EQ(x, b << 16) << std::hex << b;  // to float is exact: the upper half
    if (std::isnan(f)) {
      EXPECT_EQ(bfloat16::from_float(f), std::uint16_t(b | 0x40)) << std::hex << b;  // quiet, payload and sign kept
      continue;
    }
    ASSERT_EQ(bfloat16::from_float(f), b) << std::hex << b;
  }
}

TEST(BFloat16, RoundsToNearestEven) {
  auto bits = [](std::uint32_t x) { float f; std::memcpy(&f, &x, 4); return f; };
  // Ties: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to the even 1.0;
  // 1 + 3 * 2^-8 halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up.
  EXPECT_EQ(bfloat16::from_float(bits(0x3f808000u)), 0x3f80u);
  EXPECT_EQ(bfloat16::from_float(bits(0x3f818000u)), 0x3f82u);
  EXPECT_EQ(bfloat16::from_float(bits(0x3f808001u)), 0x3f81u);  // just above the tie
  EXPECT_EQ(bfloat16::from_float(bits(0x3f807fffu)), 0x3f80u);  // just below
  // Overflow: the largest finite bf16 is 0x7f7f; from half an ulp above it, inf.
  EXPECT_EQ(bfloat16::from_float(bits(0x7f7f7fffu)), 0x7f7fu);
  EXPECT_EQ(bfloat16::from_float(bits(0x7f7f8000u)), 0x7f80u);
  EXPECT_EQ(bfloat16::from_float(bits(0xff7f8000u)), 0xff80u);
  EXPECT_EQ(bfloat16::from_float(INFINITY), 0x7f80u);
  EXPECT_EQ(bfloat16::from_float(-INFINITY), 0xff80u);
  // Zeros and denormals (f32's own, with the same exponent range): rounded as any other value.
  EXPECT_EQ(bfloat16::from_float(0.0f), 0x0000u);
  EXPECT_EQ(bfloat16::from_float(-0.0f), 0x8000u);
  EXPECT_EQ(bfloat16::from_float(bits(0x00000001u)), 0x0000u);  // the smallest f32 denormal
  EXPECT_EQ(bfloat16::from_float(bits(0x00008000u)), 0x0000u);  // tie to even zero
  EXPECT_EQ(bfloat16::from_float(bits(0x00018000u)), 0x0002u);  // tie, odd 1 -> 2
  EXPECT_EQ(bfloat16::from_float(bits(0x807fffffu)), 0x8080u);  // largest denormal rounds up to the smallest normal
  EXPECT_EQ(bfloat16::to_float(0x0001u), bits(0x00010000u));
  // NaN: quiet, whatever the payload; a signalling NaN whose payload lies
  // only in the low half stays NaN.
  EXPECT_TRUE(std::isnan(bfloat16::to_float(bfloat16::from_float(bits(0x7f800001u)))));
  EXPECT_EQ(bfloat16::from_float(bits(0x7f800001u)), 0x7fc0u);
  EXPECT_EQ(bfloat16::from_float(bits(0xffc00000u)), 0xffc0u);
  std::uniform_real_distribution<float> d(-3e38f, 3e38f), small(-1e-30f, 1e-30f), unit(-2.0f, 2.0f);
  for (int i = 0; i < 3000; ++i) {
    const float f = i % 3 == 0 ? d(test::rng()) : i % 3 == 1 ? small(test::rng()) : unit(test::rng());
    ASSERT_EQ(bfloat16::from_float(f), nearest_bf16(f)) << f;
    EXPECT_EQ(float(bfloat16(f)), bfloat16::to_float(bfloat16::from_float(f)));
  }
}

TEST(DTypes, NamesAndSizes) {
  for (DType t : {DType::F32, DType::F16, DType::F64, DType::I32, DType::I8, DType::U8, DType::BF16})
    EXPECT_EQ(parse_dtype(dtype_name(t)), t);
  // The numbers are stored (C API, database): BF16 was appended.
  EXPECT_EQ(int(DType::BF16), 6);
  EXPECT_EQ(parse_dtype("bfloat16"), DType::BF16);
  EXPECT_EQ(dtype_name(DType::BF16), "bf16");
  EXPECT_EQ(dtype_size(DType::BF16), 2u);
  EXPECT_TRUE(is_floating(DType::BF16));
  EXPECT_FALSE(is_floating(DType::I32));
  EXPECT_EQ(dtype_of_v<bfloat16>, DType::BF16);
  EXPECT_EQ(dtype_size(DType::F16), 2u);
  EXPECT_EQ(dtype_size(DType::F64), 8u);
  try {
    parse_dtype("f128");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidType);
    EXPECT_NE(std::string(e.what()).find("f128"), std::string::npos);
  }
  EXPECT_STREQ(status_name(Status::BuildFailure), "build failure");
}

namespace v = optune::detail::validate;

template <class F>
Status status_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.status();
  }
  return Status::Success;
}

TEST(Validate, EachCheckNamesItsArgument) {
  EXPECT_EQ(status_of([] { v::positive("m", 0); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([] { v::positive("m", -3); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([] { v::positive("m", 1); }), Status::Success);
  EXPECT_EQ(status_of([] { v::non_negative("k", -1); }), Status::InvalidArgument);
  EXPECT_EQ(status_of([] { v::non_negative("k", 0); }), Status::Success);
  EXPECT_EQ(status_of([] { v::mul("n", SIZE_MAX / 2, 3); }), Status::Overflow);
  EXPECT_EQ(status_of([] { v::add("n", SIZE_MAX, 1); }), Status::Overflow);
  EXPECT_EQ(v::mul("n", 6, 7), 42u);
  EXPECT_EQ(status_of([] { v::matrix_extent("lda", 4, 5, 4); }), Status::InvalidArgument);
  EXPECT_EQ(v::matrix_extent("lda", 4, 5, 8), 3u * 8u + 5u);
  EXPECT_EQ(v::matrix_extent("lda", 0, 5, 5), 0u);
  EXPECT_EQ(status_of([] { v::matrix_extent("lda", std::int64_t(1) << 62, 8, std::int64_t(1) << 62); }),
            Status::Overflow);
  EXPECT_EQ(status_of([] { v::fits("a", 10, 3, 8); }), Status::BufferTooSmall);
  EXPECT_EQ(status_of([] { v::fits("a", 10, 2, 8); }), Status::Success);
  EXPECT_EQ(status_of([] { v::fits("a", 10, SIZE_MAX, 2); }), Status::Overflow);
  EXPECT_EQ(status_of([] { v::rank("shape", 9, 8); }), Status::InvalidShape);
  EXPECT_EQ(status_of([] { v::rank("shape", 0, 8); }), Status::InvalidShape);
  Capabilities no64;
  no64.fp64 = false;
  EXPECT_EQ(status_of([&] { v::dtype_supported("a", DType::F64, no64); }), Status::Unsupported);
  EXPECT_EQ(status_of([&] { v::dtype_supported("a", DType::F16, no64); }), Status::Success);
  try {
    v::fits("bias", 4, 1, 4);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bias"), std::string::npos);
  }
  const Queue& q = test::queue();
  Buffer<float> b = q.context().alloc<float>(8);
  EXPECT_EQ(status_of([&] { v::buffer("x", b, q, 0, 8); }), Status::Success);
  EXPECT_EQ(status_of([&] { v::buffer("x", b, q, 1, 8); }), Status::BufferTooSmall);
  EXPECT_EQ(status_of([&] { v::buffer("x", Buffer<float>(), q, 0, 1); }), Status::InvalidArgument);
  Context other(q.device());
  Buffer<float> foreign = other.alloc<float>(8);
  EXPECT_EQ(status_of([&] { v::buffer("x", foreign, q, 0, 1); }), Status::InvalidArgument);
}
