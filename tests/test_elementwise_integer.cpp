// Integer element-wise operators (i32, i8, u8: computed in 32-bit integers,
// wrapped when stored) and casts between every pair of types, against the
// reference, on every size from 1 past a few packs.
#include <cmath>

#include "reference/elementwise_ref.hpp"
#include "support/elementwise_cases.hpp"

using namespace optune;
using test::sizes;

namespace {

const DType kIntegers[] = {DType::I32, DType::I8, DType::U8};

// Inputs of each integer type: its whole range for the 8-bit types, a range
// whose products stay inside 32 bits for i32.
std::vector<double> integers(DType t, std::size_t n) {
  const double lo = t == DType::U8 ? 0 : t == DType::I8 ? -128 : -3000;
  const double hi = t == DType::U8 ? 255 : t == DType::I8 ? 127 : 3000;
  return ref::random_values(t, n, lo, hi, false);
}

}  // namespace

TEST(ElementwiseInteger, Unary) {
  const Queue& q = test::queue();
  for (DType t : kIntegers)
    for (Unary op : {Unary::Copy, Unary::Neg, Unary::Abs, Unary::Relu, Unary::Relu6, Unary::Square, Unary::Sign,
                     Unary::Clamp})
      for (std::size_t n : sizes()) {
        const auto x = integers(t, n);
        auto dx = ref::upload(q, t, x);
        auto dy = ref::upload(q, t, std::vector<double>(n, 0));
        ref::poison(q, dy);
        unary(q, op, dx.operand(), dy.operand(), op == Unary::Clamp ? OpParams{-5, 40} : OpParams{}).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(y[i], ref::store_as(t, ref::unary(op, x[i], -5, 40), true))
              << unary_name(op) << " " << dtype_name(t) << " n=" << n << " x=" << x[i];
      }
}

TEST(ElementwiseInteger, Binary) {
  const Queue& q = test::queue();
  for (DType t : kIntegers)
    for (Binary op : {Binary::Add, Binary::Sub, Binary::Mul, Binary::Max, Binary::Min, Binary::Prelu, Binary::Eq,
                      Binary::Ne, Binary::Lt, Binary::Le, Binary::Gt, Binary::Ge})
      for (std::size_t n : sizes()) {
        const double lo = t == DType::U8 ? 0 : -100, hi = 100;
        const auto a = ref::random_values(t, n, lo, hi, false);
        auto b = ref::random_values(t, n, lo, hi, false);
        for (std::size_t i = 0; i < n; i += 3) b[i] = a[i];  // equal pairs occur
        auto da = ref::upload(q, t, a), db = ref::upload(q, t, b);
        const DType yt = op >= Binary::Eq ? DType::U8 : t;
        auto dy = ref::upload(q, yt, std::vector<double>(n, 0));
        ref::poison(q, dy);
        binary(q, op, da.operand(), db.operand(), dy.operand()).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(y[i], ref::store_as(yt, ref::binary(op, a[i], b[i]), true))
              << binary_name(op) << " " << dtype_name(t) << " n=" << n << " a=" << a[i] << " b=" << b[i];
      }
}

// where with a mask of another integer type, and fma, addcmul (an integer
// alpha) and clamp wrapping like a C int stored to the type.
TEST(ElementwiseInteger, Ternary) {
  const Queue& q = test::queue();
  for (DType t : kIntegers)
    for (Ternary op : {Ternary::Where, Ternary::Fma, Ternary::Addcmul, Ternary::Clamp})
      for (std::size_t n : sizes()) {
        const DType at = op == Ternary::Where && t == DType::I32 ? DType::U8 : t;
        auto a = op == Ternary::Where ? ref::random_values(at, n, 0, 2, false) : integers(t, n);
        // clamp with b > c gives c, as min(max(a, b), c) says.
        const auto b = integers(t, n), c = integers(t, n);
        auto da = ref::upload(q, at, a), db = ref::upload(q, t, b), dc = ref::upload(q, t, c);
        auto dy = ref::upload(q, t, std::vector<double>(n, 0));
        ref::poison(q, dy);
        ternary(q, op, da.operand(), db.operand(), dc.operand(), dy.operand(), {-3, NAN}).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(y[i], ref::store_as(t, ref::ternary(op, a[i], b[i], c[i], -3), true))
              << ternary_name(op) << " " << dtype_name(t) << " n=" << n << " " << a[i] << " " << b[i] << " " << c[i];
      }
}

TEST(ElementwiseInteger, CastsBetweenEveryType) {
  const Queue& q = test::queue();
  std::vector<DType> types{DType::F32, DType::F16, DType::I32, DType::I8, DType::U8};
  if (test::device().caps().fp64) types.push_back(DType::F64);
  for (DType from : types)
    for (DType to : types)
      for (std::size_t n : sizes()) {
        const auto x = ref::random_values(from, n, -400, 400, !ref::is_integer(from));
        auto dx = ref::upload(q, from, x);
        auto dy = ref::upload(q, to, std::vector<double>(n, 0));
        ref::poison(q, dy);
        cast(q, dx.operand(), dy.operand()).wait();
        const auto y = ref::download(q, dy);
        for (std::size_t i = 0; i < n; ++i) {
          double want = x[i];
          // f64 -> f16 goes through f32 on the device (documented double rounding).
          if (from == DType::F64 && to == DType::F16) want = double(float(want));
          want = ref::store_as(to, want, ref::is_integer(from));
          ASSERT_TRUE(ref::matches(to, y[i], want, 0, 0))
              << dtype_name(from) << "->" << dtype_name(to) << " n=" << n << " x=" << x[i];
        }
      }
}
