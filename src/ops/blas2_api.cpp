// BLAS level 2's public entry points (include/optune/blas2.hpp): each fills
// a Blas2Call and hands it to blas2_untyped (ops/blas2.cpp: validation, the
// reference's early returns, the launch), for s, d, h, c and z.
#include <complex>
#include <type_traits>

#include "kernels/blas/blas_types.hpp"
#include "ops/blas2_ops.hpp"
#include "ops/blas_common.hpp"

namespace optune {

using detail::Blas2Call;
using detail::Blas2Routine;
using detail::blas_vector;

namespace {

template <class T>
std::complex<double> as_complex(const T& v) { return detail::blas_as_complex(v); }

template <class T>
Event product(const Queue& q, Blas2Routine r, Layout layout, BlasTranspose trans, Triangle uplo, std::int64_t m,
              std::int64_t n, std::int64_t kl, std::int64_t ku, const T& alpha, const Buffer<T>& a, std::int64_t lda,
              const Buffer<T>& x, std::int64_t incx, const T& beta, const Buffer<T>& y, std::int64_t incy,
              const WaitList& wait) {
  Blas2Call c;
  c.routine = r;
  c.layout = layout;
  c.trans = trans;
  c.uplo = uplo;
  c.m = m;
  c.n = n;
  c.kl = kl;
  c.ku = ku;
  c.alpha = as_complex(alpha);
  c.beta = as_complex(beta);
  c.a = blas_vector(a);
  c.lda = lda;
  c.x = blas_vector(x);
  c.incx = incx;
  c.y = blas_vector(y);
  c.incy = incy;
  return detail::blas2_untyped(q, c, wait);
}

template <class T>
Event update(const Queue& q, Blas2Routine r, Layout layout, Triangle uplo, std::int64_t m, std::int64_t n,
             std::complex<double> alpha, const Buffer<T>& x, std::int64_t incx, const Buffer<T>* y, std::int64_t incy,
             const Buffer<T>& a, std::int64_t lda, const WaitList& wait) {
  Blas2Call c;
  c.routine = r;
  c.layout = layout;
  c.uplo = uplo;
  c.m = m;
  c.n = n;
  c.alpha = alpha;
  c.x = blas_vector(x);
  c.incx = incx;
  if (y) {
    c.y = blas_vector(*y);
    c.incy = incy;
  }
  c.a = blas_vector(a);
  c.lda = lda;
  return detail::blas2_untyped(q, c, wait);
}

constexpr Triangle kNoUplo = Triangle::Upper;
constexpr BlasTranspose kNoTrans = BlasTranspose::No;

}  // namespace

template <class T>
Event gemv(const Queue& q, Layout layout, BlasTranspose trans, std::int64_t m, std::int64_t n,
           std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx,
           std::type_identity_t<T> beta, const Buffer<T>& y, std::int64_t incy, const WaitList& wait) {
  return product<T>(q, Blas2Routine::Gemv, layout, trans, kNoUplo, m, n, 0, 0, alpha, a, lda, x, incx, beta, y, incy,
                    wait);
}

template <class T>
Event gbmv(const Queue& q, Layout layout, BlasTranspose trans, std::int64_t m, std::int64_t n, std::int64_t kl,
           std::int64_t ku, std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x,
           std::int64_t incx, std::type_identity_t<T> beta, const Buffer<T>& y, std::int64_t incy,
           const WaitList& wait) {
  return product<T>(q, Blas2Routine::Gbmv, layout, trans, kNoUplo, m, n, kl, ku, alpha, a, lda, x, incx, beta, y,
                    incy, wait);
}

#define OPTUNE_BLAS2_SYMMETRIC(NAME, ROUTINE)                                                                        \
  template <class T>                                                                                                 \
  Event NAME(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,            \
             const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx,                            \
             std::type_identity_t<T> beta, const Buffer<T>& y, std::int64_t incy, const WaitList& wait) {            \
    return product<T>(q, Blas2Routine::ROUTINE, layout, kNoTrans, uplo, 0, n, 0, 0, alpha, a, lda, x, incx, beta, y, \
                      incy, wait);                                                                                   \
  }
OPTUNE_BLAS2_SYMMETRIC(symv, Symv)
OPTUNE_BLAS2_SYMMETRIC(hemv, Hemv)

#define OPTUNE_BLAS2_BAND(NAME, ROUTINE)                                                                             \
  template <class T>                                                                                                 \
  Event NAME(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::int64_t k,                           \
             std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x,                \
             std::int64_t incx, std::type_identity_t<T> beta, const Buffer<T>& y, std::int64_t incy,                 \
             const WaitList& wait) {                                                                                 \
    return product<T>(q, Blas2Routine::ROUTINE, layout, kNoTrans, uplo, 0, n, k, 0, alpha, a, lda, x, incx, beta, y, \
                      incy, wait);                                                                                   \
  }
OPTUNE_BLAS2_BAND(sbmv, Sbmv)
OPTUNE_BLAS2_BAND(hbmv, Hbmv)

#define OPTUNE_BLAS2_PACKED(NAME, ROUTINE)                                                                            \
  template <class T>                                                                                                  \
  Event NAME(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,             \
             const Buffer<T>& ap, const Buffer<T>& x, std::int64_t incx, std::type_identity_t<T> beta,                \
             const Buffer<T>& y, std::int64_t incy, const WaitList& wait) {                                           \
    return product<T>(q, Blas2Routine::ROUTINE, layout, kNoTrans, uplo, 0, n, 0, 0, alpha, ap, 0, x, incx, beta, y,   \
                      incy, wait);                                                                                    \
  }
OPTUNE_BLAS2_PACKED(spmv, Spmv)
OPTUNE_BLAS2_PACKED(hpmv, Hpmv)

#define OPTUNE_BLAS2_GER(NAME, ROUTINE)                                                                             \
  template <class T>                                                                                                \
  Event NAME(const Queue& q, Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,          \
             const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& a,      \
             std::int64_t lda, const WaitList& wait) {                                                              \
    return update<T>(q, Blas2Routine::ROUTINE, layout, kNoUplo, m, n, as_complex(alpha), x, incx, &y, incy, a, lda, \
                     wait);                                                                                         \
  }
OPTUNE_BLAS2_GER(ger, Ger)
OPTUNE_BLAS2_GER(geru, Geru)
OPTUNE_BLAS2_GER(gerc, Gerc)

template <class T>
Event syr(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
          const Buffer<T>& x, std::int64_t incx, const Buffer<T>& a, std::int64_t lda, const WaitList& wait) {
  return update<T>(q, Blas2Routine::Syr, layout, uplo, 0, n, as_complex(alpha), x, incx, nullptr, 0, a, lda, wait);
}
template <class T>
Event spr(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,
          const Buffer<T>& x, std::int64_t incx, const Buffer<T>& ap, const WaitList& wait) {
  return update<T>(q, Blas2Routine::Spr, layout, uplo, 0, n, as_complex(alpha), x, incx, nullptr, 0, ap, 0, wait);
}
template <class T>
Event her(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, blas_real_t<T> alpha, const Buffer<T>& x,
          std::int64_t incx, const Buffer<T>& a, std::int64_t lda, const WaitList& wait) {
  return update<T>(q, Blas2Routine::Her, layout, uplo, 0, n, {double(alpha), 0.0}, x, incx, nullptr, 0, a, lda,
                   wait);
}
template <class T>
Event hpr(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, blas_real_t<T> alpha, const Buffer<T>& x,
          std::int64_t incx, const Buffer<T>& ap, const WaitList& wait) {
  return update<T>(q, Blas2Routine::Hpr, layout, uplo, 0, n, {double(alpha), 0.0}, x, incx, nullptr, 0, ap, 0, wait);
}

#define OPTUNE_BLAS2_RANK2(NAME, ROUTINE)                                                                       \
  template <class T>                                                                                            \
  Event NAME(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,       \
             const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& a,  \
             std::int64_t lda, const WaitList& wait) {                                                          \
    return update<T>(q, Blas2Routine::ROUTINE, layout, uplo, 0, n, as_complex(alpha), x, incx, &y, incy, a, lda, \
                     wait);                                                                                     \
  }
OPTUNE_BLAS2_RANK2(syr2, Syr2)
OPTUNE_BLAS2_RANK2(her2, Her2)

#define OPTUNE_BLAS2_PACKED2(NAME, ROUTINE)                                                                       \
  template <class T>                                                                                              \
  Event NAME(const Queue& q, Layout layout, Triangle uplo, std::int64_t n, std::type_identity_t<T> alpha,         \
             const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y, std::int64_t incy, const Buffer<T>& ap,   \
             const WaitList& wait) {                                                                              \
    return update<T>(q, Blas2Routine::ROUTINE, layout, uplo, 0, n, as_complex(alpha), x, incx, &y, incy, ap, 0,   \
                     wait);                                                                                       \
  }
OPTUNE_BLAS2_PACKED2(spr2, Spr2)
OPTUNE_BLAS2_PACKED2(hpr2, Hpr2)

#define OPTUNE_BLAS2_PRODUCTS(T, SY, SB, SP)                                                                        \
  template Event gemv<T>(const Queue&, Layout, BlasTranspose, std::int64_t, std::int64_t, std::type_identity_t<T>,  \
                         const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, std::type_identity_t<T>,   \
                         const Buffer<T>&, std::int64_t, const WaitList&);                                          \
  template Event gbmv<T>(const Queue&, Layout, BlasTranspose, std::int64_t, std::int64_t, std::int64_t,             \
                         std::int64_t, std::type_identity_t<T>, const Buffer<T>&, std::int64_t, const Buffer<T>&,   \
                         std::int64_t, std::type_identity_t<T>, const Buffer<T>&, std::int64_t, const WaitList&);   \
  template Event SY<T>(const Queue&, Layout, Triangle, std::int64_t, std::type_identity_t<T>, const Buffer<T>&,     \
                       std::int64_t, const Buffer<T>&, std::int64_t, std::type_identity_t<T>, const Buffer<T>&,     \
                       std::int64_t, const WaitList&);                                                              \
  template Event SB<T>(const Queue&, Layout, Triangle, std::int64_t, std::int64_t, std::type_identity_t<T>,         \
                       const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, std::type_identity_t<T>,     \
                       const Buffer<T>&, std::int64_t, const WaitList&);                                            \
  template Event SP<T>(const Queue&, Layout, Triangle, std::int64_t, std::type_identity_t<T>, const Buffer<T>&,     \
                       const Buffer<T>&, std::int64_t, std::type_identity_t<T>, const Buffer<T>&, std::int64_t,     \
                       const WaitList&);
#define OPTUNE_BLAS2_GER_INST(T, NAME)                                                                          \
  template Event NAME<T>(const Queue&, Layout, std::int64_t, std::int64_t, std::type_identity_t<T>,            \
                         const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,     \
                         std::int64_t, const WaitList&);
#define OPTUNE_BLAS2_RANK2_INST(T, NAME)                                                                          \
  template Event NAME<T>(const Queue&, Layout, Triangle, std::int64_t, std::type_identity_t<T>, const Buffer<T>&, \
                         std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t,           \
                         const WaitList&);
#define OPTUNE_BLAS2_PACKED2_INST(T, NAME)                                                                        \
  template Event NAME<T>(const Queue&, Layout, Triangle, std::int64_t, std::type_identity_t<T>, const Buffer<T>&, \
                         std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&, const WaitList&);
#define OPTUNE_BLAS2_REAL(T)                                                                                      \
  OPTUNE_BLAS2_PRODUCTS(T, symv, sbmv, spmv)                                                                      \
  OPTUNE_BLAS2_GER_INST(T, ger)                                                                                   \
  template Event syr<T>(const Queue&, Layout, Triangle, std::int64_t, std::type_identity_t<T>, const Buffer<T>&,  \
                        std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);                           \
  template Event spr<T>(const Queue&, Layout, Triangle, std::int64_t, std::type_identity_t<T>, const Buffer<T>&,  \
                        std::int64_t, const Buffer<T>&, const WaitList&);                                         \
  OPTUNE_BLAS2_RANK2_INST(T, syr2)                                                                                \
  OPTUNE_BLAS2_PACKED2_INST(T, spr2)
#define OPTUNE_BLAS2_COMPLEX(T)                                                                                   \
  OPTUNE_BLAS2_PRODUCTS(T, hemv, hbmv, hpmv)                                                                      \
  OPTUNE_BLAS2_GER_INST(T, geru)                                                                                  \
  OPTUNE_BLAS2_GER_INST(T, gerc)                                                                                  \
  template Event her<T>(const Queue&, Layout, Triangle, std::int64_t, blas_real_t<T>, const Buffer<T>&,           \
                        std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);                           \
  template Event hpr<T>(const Queue&, Layout, Triangle, std::int64_t, blas_real_t<T>, const Buffer<T>&,           \
                        std::int64_t, const Buffer<T>&, const WaitList&);                                         \
  OPTUNE_BLAS2_RANK2_INST(T, her2)                                                                                \
  OPTUNE_BLAS2_PACKED2_INST(T, hpr2)

OPTUNE_BLAS2_REAL(float)
OPTUNE_BLAS2_REAL(double)
OPTUNE_BLAS2_REAL(half)  // f16 storage, f32 arithmetic (the generic kernels)
OPTUNE_BLAS2_COMPLEX(std::complex<float>)
OPTUNE_BLAS2_COMPLEX(std::complex<double>)

}  // namespace optune
