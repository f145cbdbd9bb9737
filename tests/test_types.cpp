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

TEST(DTypes, NamesAndSizes) {
  for (DType t : {DType::F32, DType::F16, DType::F64, DType::I32, DType::I8, DType::U8})
    EXPECT_EQ(parse_dtype(dtype_name(t)), t);
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
