// BLAS level 2's argument checks with netlib's argument positions (xerbla's
// INFO): modes, sizes, leading dimensions, increments, types, queues and the
// buffers' extents. The launch is in blas2.cpp.
#include <string>
#include <utility>

#include "kernels/blas/blas_types.hpp"
#include "ops/blas2_routines.hpp"
#include "ops/blas_common.hpp"
#include "ops/validate.hpp"

namespace optune::detail {

namespace {

using namespace blas2_routines;

// netlib's argument positions (xerbla's INFO), 0 where the routine has none.
struct Positions {
  int mode = 1, m = 0, n = 0, kl = 0, ku = 0, a = 0, lda = 0, x = 0, incx = 0, y = 0, incy = 0;
};
Positions positions(R r) {
  Positions p;
  switch (r) {
    case R::Gemv: p = {1, 2, 3, 0, 0, 5, 6, 7, 8, 10, 11}; break;
    case R::Gbmv: p = {1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13}; break;
    case R::Symv: case R::Hemv: p = {1, 0, 2, 0, 0, 4, 5, 6, 7, 9, 10}; break;
    case R::Sbmv: case R::Hbmv: p = {1, 0, 2, 3, 0, 5, 6, 7, 8, 10, 11}; break;
    case R::Spmv: case R::Hpmv: p = {1, 0, 2, 0, 0, 4, 0, 5, 6, 8, 9}; break;
    case R::Ger: case R::Geru: case R::Gerc: p = {0, 1, 2, 0, 0, 8, 9, 4, 5, 6, 7}; break;
    case R::Syr: case R::Her: p = {1, 0, 2, 0, 0, 6, 7, 4, 5, 0, 0}; break;
    case R::Spr: case R::Hpr: p = {1, 0, 2, 0, 0, 6, 0, 4, 5, 0, 0}; break;
    case R::Syr2: case R::Her2: p = {1, 0, 2, 0, 0, 8, 9, 4, 5, 6, 7}; break;
    case R::Spr2: case R::Hpr2: p = {1, 0, 2, 0, 0, 8, 0, 4, 5, 6, 7}; break;
  }
  return p;
}

// Elements the matrix argument spans.
std::size_t matrix_extent(const Blas2Call& c, const std::string& what) {
  const char* w = what.c_str();
  const R r = c.routine;
  if (is_packed(r)) return validate::mul(w, std::size_t(c.n), std::size_t(c.n) + 1) / 2;
  const bool col = c.layout == Layout::ColMajor;
  // Stored rows x columns (band: the band's rows).
  std::size_t outer, inner;
  if (r == R::Gbmv) {
    outer = std::size_t(col ? c.n : c.m);
    inner = std::size_t(c.kl + c.ku + 1);
  } else if (r == R::Sbmv || r == R::Hbmv) {
    outer = std::size_t(c.n);
    inner = std::size_t(c.kl + 1);
  } else if (is_general(r)) {
    outer = std::size_t(col ? c.n : c.m);
    inner = std::size_t(col ? c.m : c.n);
  } else {
    outer = inner = std::size_t(c.n);
  }
  if (outer == 0 || inner == 0) return 0;
  return validate::add(w, validate::mul(w, outer - 1, std::size_t(c.lda)), inner);
}

// The least leading dimension, and how the reference names it.
std::pair<std::int64_t, std::string> least_lda(const Blas2Call& c) {
  const bool col = c.layout == Layout::ColMajor;
  switch (c.routine) {
    case R::Gbmv: return {c.kl + c.ku + 1, "kl + ku + 1"};
    case R::Sbmv: case R::Hbmv: return {c.kl + 1, "k + 1"};
    case R::Gemv: case R::Ger: case R::Geru: case R::Gerc:
      return {std::max<std::int64_t>(1, col ? c.m : c.n), col ? "max(1, m)" : "max(1, n)"};
    default: return {std::max<std::int64_t>(1, c.n), "max(1, n)"};
  }
}

}  // namespace

void validate_blas2_call(const Queue& q, const Blas2Call& c) {
  const R r = c.routine;
  if (int(r) < 0 || int(r) > int(R::Hpr2))
    throw Error(Status::InvalidArgument, "blas2: routine " + std::to_string(int(r)) + " is not known");
  const std::string name = blas2_routine_name(r);
  const Positions pos = positions(r);
  const auto fail = [&](Status st, const std::string& msg) { throw Error(st, name + ": " + msg); };
  const auto argn = [&](const char* a, int p) {
    return std::string(a) + " (argument " + std::to_string(p) + ")";
  };
  if (c.layout != Layout::RowMajor && c.layout != Layout::ColMajor)
    fail(Status::InvalidArgument, "layout is " + std::to_string(int(c.layout)) + "; RowMajor or ColMajor expected");
  if (r == R::Gemv || r == R::Gbmv) {
    if (c.trans != BlasTranspose::No && c.trans != BlasTranspose::Yes && c.trans != BlasTranspose::Conjugate)
      fail(Status::InvalidArgument, argn("trans", 1) + " is " + std::to_string(int(c.trans)) +
                                        "; No, Yes or Conjugate expected");
  } else if (pos.mode) {
    if (c.uplo != Triangle::Upper && c.uplo != Triangle::Lower)
      fail(Status::InvalidArgument,
           argn("uplo", 1) + " is " + std::to_string(int(c.uplo)) + "; Upper or Lower expected");
  }
  const auto non_negative = [&](const char* a, int p, std::int64_t v) {
    if (v < 0) fail(Status::InvalidArgument, argn(a, p) + " is " + std::to_string(v) + "; at least 0 expected");
  };
  if (pos.m) non_negative("m", pos.m, c.m);
  non_negative("n", pos.n, c.n);
  if (r == R::Gbmv) {
    non_negative("kl", pos.kl, c.kl);
    non_negative("ku", pos.ku, c.ku);
  }
  if (r == R::Sbmv || r == R::Hbmv) non_negative("k", pos.kl, c.kl);
  if (has_lda(r)) {
    const auto [least, how] = least_lda(c);
    if (c.lda < least)
      fail(Status::InvalidArgument, argn("lda", pos.lda) + " is " + std::to_string(c.lda) + "; at least " + how +
                                        " = " + std::to_string(least) + " expected");
  }
  if (c.incx == 0) fail(Status::InvalidArgument, argn("incx", pos.incx) + " is 0");
  if (has_y(r) && c.incy == 0) fail(Status::InvalidArgument, argn("incy", pos.incy) + " is 0");
  // Types and buffers.
  const char* a_name = is_packed(r) ? "ap" : "a";
  const std::string a_arg = name + ": " + a_name, x_arg = name + ": x", y_arg = name + ": y";
  validate::dtype_known(a_arg.c_str(), c.a.dtype);
  validate::on_queue(a_arg.c_str(), c.a.mem, q);
  validate::dtype_known(x_arg.c_str(), c.x.dtype);
  validate::on_queue(x_arg.c_str(), c.x.mem, q);
  if (has_y(r)) {
    validate::dtype_known(y_arg.c_str(), c.y.dtype);
    validate::on_queue(y_arg.c_str(), c.y.mem, q);
  }
  const DType t = c.a.dtype;
  const auto tn = [](DType d) { return std::string(dtype_name(d)); };
  if (t != DType::F32 && t != DType::F64 && t != DType::C32 && t != DType::C64 && t != DType::F16)
    fail(Status::InvalidType, std::string(a_name) + " is " + tn(t) + "; f32, f64, c32, c64 or f16 expected");
  if (type_kind(r) == 1 && is_complex(t))
    fail(Status::InvalidType, std::string(a_name) + " is " + tn(t) + ": " + name + " takes f32, f64 or f16");
  if (type_kind(r) == 2 && !is_complex(t))
    fail(Status::InvalidType, std::string(a_name) + " is " + tn(t) + ": " + name + " takes c32 or c64");
  if (c.x.dtype != t)
    fail(Status::InvalidType, std::string(a_name) + " is " + tn(t) + " but x is " + tn(c.x.dtype));
  if (has_y(r) && c.y.dtype != t)
    fail(Status::InvalidType, std::string(a_name) + " is " + tn(t) + " but y is " + tn(c.y.dtype));
  validate::dtype_held(a_arg.c_str(), t, q.device().caps());
  check_view(a_arg, c.a);
  check_view(x_arg, c.x);
  if (has_y(r)) check_view(y_arg, c.y);
  if (rows_of(c) == 0 || cols_of(c) == 0) return;
  validate::fits(a_arg.c_str(), c.a.count, 0, matrix_extent(c, a_arg + " (extent)"));
  // Products: x has cols elements, y rows; updates: x rows (the i side), y cols.
  const bool product = blas2_is_product(r);
  const std::int64_t nx = product ? cols_of(c) : rows_of(c), ny = product ? rows_of(c) : cols_of(c);
  validate::fits(x_arg.c_str(), c.x.count, 0, blas_extent(x_arg + " (n, incx)", nx, c.incx));
  if (has_y(r)) validate::fits(y_arg.c_str(), c.y.count, 0, blas_extent(y_arg + " (n, incy)", ny, c.incy));
}

}  // namespace optune::detail
