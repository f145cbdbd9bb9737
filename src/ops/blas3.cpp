// BLAS level 3, triangular and rank-k routines: validation in netlib's
// argument order (errors name the argument and its xerbla position), the
// reference's early returns, and the typed entry points. The algorithms are
// in ops/blas3_run.cpp.
#include <string>

#include "ops/blas3_ops.hpp"
#include "optune/blas3_complex.hpp"
#include "ops/tensor.hpp"
#include "ops/validate.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {

using R = Blas3Routine;

// Positions of the arguments in netlib's lists (xerbla's INFO).
struct Positions {
  int side = 0, uplo, trans, diag = 0, m = 0, n, k = 0, a, lda, b = 0, ldb = 0, c = 0, ldc = 0;
};

Positions positions(R r) {
  switch (r) {
    case R::Syrk:
    case R::Herk: return {0, 1, 2, 0, 0, 3, 4, 6, 7, 0, 0, 9, 10};
    case R::Syr2k:
    case R::Her2k: return {0, 1, 2, 0, 0, 3, 4, 6, 7, 8, 9, 11, 12};
    default: return {1, 2, 3, 4, 5, 6, 0, 8, 9, 10, 11, 0, 0};
  }
}

class Checker {
 public:
  Checker(const Queue& q, const Blas3Call& c) : q_(q), c_(c), pos_(positions(c.routine)) {
    name_ = blas3_routine_name(c.routine);
    if (c.batched) name_ += "_strided_batched";
  }

  std::string arg(const char* what, int pos) const {
    return name_ + ": " + (pos > 0 ? "argument " + std::to_string(pos) + " (" + what + ")" : std::string(what));
  }
  [[noreturn]] void fail(Status st, const std::string& msg) const { throw Error(st, msg); }

  void enums() const {
    if (c_.layout != Layout::RowMajor && c_.layout != Layout::ColMajor)
      fail(Status::InvalidArgument, arg("layout", 0) + " is not RowMajor or ColMajor");
    const bool tri = blas3_is_triangular(c_.routine);
    if (tri && c_.side != Side::Left && c_.side != Side::Right)
      fail(Status::InvalidArgument, arg("side", pos_.side) + " is not Left or Right");
    if (c_.uplo != Triangle::Upper && c_.uplo != Triangle::Lower)
      fail(Status::InvalidArgument, arg("uplo", pos_.uplo) + " is not Upper or Lower");
    if (c_.trans != BlasTranspose::No && c_.trans != BlasTranspose::Yes && c_.trans != BlasTranspose::Conjugate)
      fail(Status::InvalidArgument, arg(tri ? "transa" : "trans", pos_.trans) + " is not No, Yes or Conjugate");
    // The reference's complex rank-k routines: syrk and syr2k take N or T,
    // herk and her2k N or C.
    if (blas3_is_hermitian(c_.routine) && c_.trans == BlasTranspose::Yes)
      fail(Status::InvalidArgument, arg("trans", pos_.trans) + " is Yes; " + name_ + " takes No or Conjugate");
    if (!tri && !blas3_is_hermitian(c_.routine) && is_complex(c_.a.dtype) && c_.trans == BlasTranspose::Conjugate)
      fail(Status::InvalidArgument, arg("trans", pos_.trans) + " is Conjugate; " + name_ +
                                        " of complex matrices takes No or Yes");
    if (tri && c_.diag != Diagonal::NonUnit && c_.diag != Diagonal::Unit)
      fail(Status::InvalidArgument, arg("diag", pos_.diag) + " is not NonUnit or Unit");
  }

  void size(const char* what, int pos, std::int64_t v) const {
    if (v < 0) fail(Status::InvalidArgument, arg(what, pos) + " = " + std::to_string(v) + " must be >= 0");
  }

  // A stored rows x cols matrix: its leading dimension (netlib's check),
  // then the elements it spans.
  void ld(const char* what, int pos, std::int64_t rows, std::int64_t cols, std::int64_t ld) const {
    const std::int64_t need = std::max<std::int64_t>(1, c_.layout == Layout::RowMajor ? cols : rows);
    if (ld < need)
      fail(Status::InvalidArgument, arg(what, pos) + " = " + std::to_string(ld) + " must be >= " +
                                        std::to_string(need) + " (" +
                                        (c_.layout == Layout::RowMajor ? "columns" : "rows") + " of the stored matrix)");
  }

  // Elements [offset, offset + extent) of the view that the matrix (or the
  // batch of them) spans.
  std::size_t extent(const char* what, int pos, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                     std::int64_t stride) const {
    if (rows == 0 || cols == 0) return 0;
    const bool row = c_.layout == Layout::RowMajor;
    const std::string a = arg(what, pos);
    std::size_t e = validate::matrix_extent(a.c_str(), row ? rows : cols, row ? cols : rows, ld);
    if (c_.batched && c_.batch > 1)
      e = validate::add(a.c_str(), validate::mul(a.c_str(), std::size_t(c_.batch - 1), std::size_t(stride)), e);
    return e;
  }

  void matrix(const char* what, int pos, const GemmMatrix& m, std::size_t extent) const {
    const std::string a = arg(what, pos);
    validate::dtype_known(a.c_str(), m.dtype);
    validate::on_queue(a.c_str(), m.mem, q_);
    if (blas3_is_hermitian(c_.routine) ? !is_complex(m.dtype)
                                       : m.dtype != DType::F32 && m.dtype != DType::F64 && m.dtype != DType::F16 &&
                                             !is_complex(m.dtype))
      fail(Status::InvalidType, a + " is " + std::string(dtype_name(m.dtype)) + "; " +
                                    (blas3_is_hermitian(c_.routine) ? "c32 or c64" : "f32, f64, c32, c64 or f16") +
                                    " expected");
    if (m.dtype != c_.a.dtype)
      fail(Status::InvalidType, a + " is " + std::string(dtype_name(m.dtype)) + " but A is " + std::string(dtype_name(c_.a.dtype)));
    check_view(a, *m.mem, m.dtype, m.offset, m.count);
    validate::fits(a.c_str(), m.count, 0, extent);
  }

  // The output's elements must not share memory with an input's.
  void apart(const char* out, const GemmMatrix& o, std::size_t eo, const char* in, const GemmMatrix& i,
             std::size_t ei) const {
    if (o.mem != i.mem || eo == 0 || ei == 0) return;
    if (o.offset + eo <= i.offset || i.offset + ei <= o.offset) return;
    fail(Status::InvalidArgument, name_ + ": " + out + " (elements " + std::to_string(o.offset) + " to " +
                                      std::to_string(o.offset + eo - 1) + ") overlaps " + in + " (" +
                                      std::to_string(i.offset) + " to " + std::to_string(i.offset + ei - 1) +
                                      ") in the same memory");
  }

  void run() const {
    enums();
    if (blas3_is_triangular(c_.routine)) triangular();
    else rank_k();
    scalars();
    validate::dtype_held(arg("A", pos_.a).c_str(), c_.a.dtype, q_.device().caps());
  }

 private:
  void rank_k() const {
    size("n", pos_.n, c_.n);
    size("k", pos_.k, c_.k);
    const bool t = c_.trans != BlasTranspose::No;
    const std::int64_t ar = t ? c_.k : c_.n, ac = t ? c_.n : c_.k;
    ld("lda", pos_.lda, ar, ac, c_.lda);
    const bool two = blas3_is_two(c_.routine);
    if (two) ld("ldb", pos_.ldb, ar, ac, c_.ldb);
    ld("ldc", pos_.ldc, c_.n, c_.n, c_.ldc);
    const std::size_t ea = extent("A", pos_.a, ar, ac, c_.lda, 0);
    const std::size_t ec = extent("C", pos_.c, c_.n, c_.n, c_.ldc, 0);
    matrix("A", pos_.a, c_.a, ea);
    std::size_t eb = 0;
    if (two) {
      eb = extent("B", pos_.b, ar, ac, c_.ldb, 0);
      matrix("B", pos_.b, c_.b, eb);
    }
    matrix("C", pos_.c, c_.c, ec);
    apart("C", c_.c, ec, "A", c_.a, ea);
    if (two) apart("C", c_.c, ec, "B", c_.b, eb);
  }

  void triangular() const {
    size("m", pos_.m, c_.m);
    size("n", pos_.n, c_.n);
    const std::int64_t na = c_.side == Side::Left ? c_.m : c_.n;
    ld("lda", pos_.lda, na, na, c_.lda);
    ld("ldb", pos_.ldb, c_.m, c_.n, c_.ldb);
    if (c_.batched) {
      if (c_.stride_a < 0)
        fail(Status::InvalidArgument, arg("stride_a", 0) + " = " + std::to_string(c_.stride_a) + " must be >= 0");
      if (c_.stride_b < 0)
        fail(Status::InvalidArgument, arg("stride_b", 0) + " = " + std::to_string(c_.stride_b) + " must be >= 0");
      if (c_.batch < 1)
        fail(Status::InvalidArgument, arg("batch", 0) + " = " + std::to_string(c_.batch) + " must be >= 1");
    }
    const std::size_t ea = extent("A", pos_.a, na, na, c_.lda, c_.stride_a);
    const std::size_t eb = extent("B", pos_.b, c_.m, c_.n, c_.ldb, c_.stride_b);
    matrix("A", pos_.a, c_.a, ea);
    matrix("B", pos_.b, c_.b, eb);
    apart("B", c_.b, eb, "A", c_.a, ea);
    if (c_.batched && c_.batch > 1 && c_.m > 0 && c_.n > 0) {
      const std::size_t one = extent("B", pos_.b, c_.m, c_.n, c_.ldb, 0);
      if (std::size_t(c_.stride_b) < one)
        fail(Status::InvalidArgument, arg("stride_b", 0) + " = " + std::to_string(c_.stride_b) +
                                          " is less than one B's extent (" + std::to_string(one) +
                                          " elements): the systems would overlap");
    }
  }

  // Real scalars where the routine or the type has them: no imaginary part.
  void scalars() const {
    const bool real = !is_complex(c_.a.dtype), tri = blas3_is_triangular(c_.routine);
    const auto check = [&](const char* what, int pos, std::complex<double> v, bool must_be_real) {
      if (must_be_real && v.imag() != 0)
        fail(Status::InvalidArgument, arg(what, pos) + " has an imaginary part (" + std::to_string(v.imag()) + "); " +
                                          (real ? "the matrices are real" : name_ + " takes it real"));
    };
    const bool two = blas3_is_two(c_.routine), herm = blas3_is_hermitian(c_.routine);
    check("alpha", tri ? 7 : 5, c_.alpha, real || c_.routine == R::Herk);
    if (!tri) check("beta", two ? 10 : 8, c_.beta, real || herm);
  }

  const Queue& q_;
  const Blas3Call& c_;
  Positions pos_;
  std::string name_;
};

}  // namespace

Event blas3_untyped(const Queue& q, const Blas3Call& c, const WaitList& wait) {
  if (int(c.routine) < 0 || int(c.routine) > int(R::Her2k))
    throw Error(Status::InvalidArgument, "blas3: routine " + std::to_string(int(c.routine)) + " is not known");
  trace::Span traced(std::string("blas ") + blas3_routine_name(c.routine));
  if (traced) {
    traced.text("dtype", dtype_name(c.a.dtype));
    traced.number("m", double(c.m));
    traced.number("n", double(c.n));
    traced.number("k", double(c.k));
  }
  Checker(q, c).run();
  if (blas3_is_triangular(c.routine) ? (c.m == 0 || c.n == 0) : c.n == 0) return Event();
  if (!blas3_is_triangular(c.routine) && (c.alpha == 0.0 || c.k == 0) && c.beta == 1.0) return Event();
  return run_blas3(q, c, wait, nullptr);
}

}  // namespace optune::detail

namespace optune {

namespace {

template <class T>
detail::GemmMatrix matrix_of(const Buffer<T>& b) {
  return {b.mem(), b.offset(), b.size(), dtype_of_v<T>};
}

template <class T>
Event triangular(detail::Blas3Routine r, const Queue& q, Layout layout, Side side, Triangle uplo,
                 BlasTranspose trans_a, Diagonal diag, std::int64_t m, std::int64_t n, std::complex<double> alpha,
                 const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb, const WaitList& wait,
                 bool batched = false, std::int64_t stride_a = 0, std::int64_t stride_b = 0, std::int64_t batch = 1) {
  detail::Blas3Call c;
  c.routine = r;
  c.layout = layout;
  c.side = side;
  c.uplo = uplo;
  c.trans = trans_a;
  c.diag = diag;
  c.m = m;
  c.n = n;
  c.alpha = alpha;
  c.a = matrix_of(a);
  c.lda = lda;
  c.b = matrix_of(b);
  c.ldb = ldb;
  c.batched = batched;
  c.stride_a = stride_a;
  c.stride_b = stride_b;
  c.batch = batch;
  return detail::blas3_untyped(q, c, wait);
}

template <class T>
Event rank_k(detail::Blas3Routine r, const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans,
             std::int64_t n, std::int64_t k, std::complex<double> alpha, const Buffer<T>& a, std::int64_t lda,
             const Buffer<T>* b, std::int64_t ldb, std::complex<double> beta, const Buffer<T>& c, std::int64_t ldc,
             const WaitList& wait) {
  detail::Blas3Call call;
  call.routine = r;
  call.layout = layout;
  call.uplo = uplo;
  call.trans = trans;
  call.n = n;
  call.k = k;
  call.alpha = alpha;
  call.beta = beta;
  call.a = matrix_of(a);
  call.lda = lda;
  if (b) call.b = matrix_of(*b), call.ldb = ldb;
  call.c = matrix_of(c);
  call.ldc = ldc;
  return detail::blas3_untyped(q, call, wait);
}

}  // namespace

template <class T>
Event syrk(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
           double alpha, const Buffer<T>& a, std::int64_t lda, double beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait) {
  return rank_k(detail::Blas3Routine::Syrk, q, layout, uplo, trans, n, k, alpha, a, lda, static_cast<const Buffer<T>*>(nullptr), 0, beta, c, ldc,
                wait);
}

template <class T>
Event syr2k(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
            double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb, double beta,
            const Buffer<T>& c, std::int64_t ldc, const WaitList& wait) {
  return rank_k(detail::Blas3Routine::Syr2k, q, layout, uplo, trans, n, k, alpha, a, lda, &b, ldb, beta, c, ldc,
                wait);
}

template <class T>
Event trmm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,
           std::int64_t m, std::int64_t n, double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, const WaitList& wait) {
  return triangular(detail::Blas3Routine::Trmm, q, layout, side, uplo, trans_a, diag, m, n, alpha, a, lda, b, ldb,
                    wait);
}

template <class T>
Event trsm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,
           std::int64_t m, std::int64_t n, double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, const WaitList& wait) {
  return triangular(detail::Blas3Routine::Trsm, q, layout, side, uplo, trans_a, diag, m, n, alpha, a, lda, b, ldb,
                    wait);
}

template <class T>
Event trsm_strided_batched(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a,
                           Diagonal diag, std::int64_t m, std::int64_t n, double alpha, const Buffer<T>& a,
                           std::int64_t lda, std::int64_t stride_a, const Buffer<T>& b, std::int64_t ldb,
                           std::int64_t stride_b, std::int64_t batch, const WaitList& wait) {
  return triangular(detail::Blas3Routine::Trsm, q, layout, side, uplo, trans_a, diag, m, n, alpha, a, lda, b, ldb,
                    wait, true, stride_a, stride_b, batch);
}

#define OPTUNE_BLAS3(T)                                                                                            \
  template Event syrk<T>(const Queue&, Layout, Triangle, BlasTranspose, std::int64_t, std::int64_t, double,        \
                         const Buffer<T>&, std::int64_t, double, const Buffer<T>&, std::int64_t, const WaitList&);  \
  template Event syr2k<T>(const Queue&, Layout, Triangle, BlasTranspose, std::int64_t, std::int64_t, double,       \
                          const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, double, const Buffer<T>&, \
                          std::int64_t, const WaitList&);                                                           \
  template Event trmm<T>(const Queue&, Layout, Side, Triangle, BlasTranspose, Diagonal, std::int64_t, std::int64_t, \
                         double, const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);  \
  template Event trsm<T>(const Queue&, Layout, Side, Triangle, BlasTranspose, Diagonal, std::int64_t, std::int64_t, \
                         double, const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);  \
  template Event trsm_strided_batched<T>(const Queue&, Layout, Side, Triangle, BlasTranspose, Diagonal,             \
                                         std::int64_t, std::int64_t, double, const Buffer<T>&, std::int64_t,        \
                                         std::int64_t, const Buffer<T>&, std::int64_t, std::int64_t, std::int64_t,  \
                                         const WaitList&);
OPTUNE_BLAS3(float)
OPTUNE_BLAS3(double)
// The complex types with real scalars (the overloads below take complex ones).
OPTUNE_BLAS3(std::complex<float>)
OPTUNE_BLAS3(std::complex<double>)
// f16 storage: the routines run in f32 on widened copies (ops/blas3_run.cpp).
OPTUNE_BLAS3(half)
#undef OPTUNE_BLAS3

// ---- complex (optune/blas3_complex.hpp) ----

template <class T>
Event herk(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
           double alpha, const Buffer<T>& a, std::int64_t lda, double beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait) {
  return rank_k(detail::Blas3Routine::Herk, q, layout, uplo, trans, n, k, alpha, a, lda,
                static_cast<const Buffer<T>*>(nullptr), 0, beta, c, ldc, wait);
}

template <class T>
Event her2k(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,
            std::complex<double> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb,
            double beta, const Buffer<T>& c, std::int64_t ldc, const WaitList& wait) {
  return rank_k(detail::Blas3Routine::Her2k, q, layout, uplo, trans, n, k, alpha, a, lda, &b, ldb, beta, c, ldc,
                wait);
}

#define OPTUNE_BLAS3_HERM(T)                                                                                       \
  template Event herk<T>(const Queue&, Layout, Triangle, BlasTranspose, std::int64_t, std::int64_t, double,        \
                         const Buffer<T>&, std::int64_t, double, const Buffer<T>&, std::int64_t, const WaitList&);  \
  template Event her2k<T>(const Queue&, Layout, Triangle, BlasTranspose, std::int64_t, std::int64_t,               \
                          std::complex<double>, const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t,    \
                          double, const Buffer<T>&, std::int64_t, const WaitList&);
OPTUNE_BLAS3_HERM(std::complex<float>)
OPTUNE_BLAS3_HERM(std::complex<double>)
// Real matrices: an Error (InvalidType) rather than the linker's.
OPTUNE_BLAS3_HERM(float)
OPTUNE_BLAS3_HERM(double)
#undef OPTUNE_BLAS3_HERM

#define OPTUNE_BLAS3_COMPLEX(Z)                                                                                     \
  Event syrk(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,     \
             std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda, std::complex<double> beta,           \
             const Buffer<Z>& c, std::int64_t ldc, const WaitList& wait) {                                          \
    return rank_k(detail::Blas3Routine::Syrk, q, layout, uplo, trans, n, k, alpha, a, lda,                          \
                  static_cast<const Buffer<Z>*>(nullptr), 0, beta, c, ldc, wait);                                   \
  }                                                                                                                 \
  Event syr2k(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, std::int64_t n, std::int64_t k,    \
              std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda, const Buffer<Z>& b,                 \
              std::int64_t ldb, std::complex<double> beta, const Buffer<Z>& c, std::int64_t ldc,                    \
              const WaitList& wait) {                                                                               \
    return rank_k(detail::Blas3Routine::Syr2k, q, layout, uplo, trans, n, k, alpha, a, lda, &b, ldb, beta, c, ldc,  \
                  wait);                                                                                            \
  }                                                                                                                 \
  Event trmm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,         \
             std::int64_t m, std::int64_t n, std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda,      \
             const Buffer<Z>& b, std::int64_t ldb, const WaitList& wait) {                                          \
    return triangular(detail::Blas3Routine::Trmm, q, layout, side, uplo, trans_a, diag, m, n, alpha, a, lda, b,     \
                      ldb, wait);                                                                                   \
  }                                                                                                                 \
  Event trsm(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a, Diagonal diag,         \
             std::int64_t m, std::int64_t n, std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda,      \
             const Buffer<Z>& b, std::int64_t ldb, const WaitList& wait) {                                          \
    return triangular(detail::Blas3Routine::Trsm, q, layout, side, uplo, trans_a, diag, m, n, alpha, a, lda, b,     \
                      ldb, wait);                                                                                   \
  }                                                                                                                 \
  Event trsm_strided_batched(const Queue& q, Layout layout, Side side, Triangle uplo, BlasTranspose trans_a,        \
                             Diagonal diag, std::int64_t m, std::int64_t n, std::complex<double> alpha,             \
                             const Buffer<Z>& a, std::int64_t lda, std::int64_t stride_a, const Buffer<Z>& b,       \
                             std::int64_t ldb, std::int64_t stride_b, std::int64_t batch, const WaitList& wait) {   \
    return triangular(detail::Blas3Routine::Trsm, q, layout, side, uplo, trans_a, diag, m, n, alpha, a, lda, b,     \
                      ldb, wait, true, stride_a, stride_b, batch);                                                  \
  }
OPTUNE_BLAS3_COMPLEX(std::complex<float>)
OPTUNE_BLAS3_COMPLEX(std::complex<double>)
#undef OPTUNE_BLAS3_COMPLEX

}  // namespace optune
