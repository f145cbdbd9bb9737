// C API: BLAS level 2 (general and symmetric / Hermitian routines) over the
// library's untyped entry (detail::blas2_untyped), so every dtype and every
// enumerator value reaches the same validation as the templates.
#include <complex>

#include "capi/capi.hpp"
#include "capi/capi_blas_vector.hpp"
#include "ops/blas2_ops.hpp"

using namespace optune;
using namespace optune::capi;
using detail::Blas2Call;
using detail::Blas2Routine;

namespace {

std::complex<double> scalar_for(const detail::BlasVector& a, optune_complex s, const std::string& what) {
  if (!is_complex(a.dtype) && s.im != 0)
    invalid(what + " has an imaginary part (" + std::to_string(s.im) + ") for a real matrix");
  return {s.re, s.im};
}

// The arguments every routine has (queue, layout, the matrix; x; y where
// given), then the routine's own (fill), then the call.
template <class F>
optune_status run(const char* fn, optune_queue queue, Blas2Routine r, optune_layout layout, optune_buffer a,
                  int64_t lda, optune_buffer x, int64_t incx, optune_buffer y, int64_t incy,
                  const optune_event* wait, size_t wait_count, optune_event* event, F&& fill) {
  return guard([&] {
    EventOut out(event);
    const std::string f(fn);
    const Queue& q = need_queue(queue, fn);
    Blas2Call c;
    c.routine = r;
    c.layout = Layout(int(layout));
    c.a = blas_vector(a, f + ": a");
    c.lda = lda;
    c.x = blas_vector(x, f + ": x");
    c.incx = incx;
    if (r != Blas2Routine::Syr && r != Blas2Routine::Spr && r != Blas2Routine::Her && r != Blas2Routine::Hpr) {
      c.y = blas_vector(y, f + ": y");
      c.incy = incy;
    }
    fill(c, f);
    const WaitList w = wait_list(wait, wait_count, fn);
    out.set(detail::blas2_untyped(q, c, w));
  });
}

}  // namespace

extern "C" {

optune_status optune_blas_gemv(optune_queue queue, optune_layout layout, optune_blas_transpose trans, int64_t m,
                               int64_t n, optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer x,
                               int64_t incx, optune_complex beta, optune_buffer y, int64_t incy,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_gemv", queue, Blas2Routine::Gemv, layout, a, lda, x, incx, y,
             incy, wait, wait_count, event, [&](Blas2Call& c, const std::string& f) {
               c.trans = BlasTranspose(int(trans));
               c.m = m;
               c.n = n;
               c.alpha = scalar_for(c.a, alpha, f + ": alpha");
               c.beta = scalar_for(c.a, beta, f + ": beta");
             });
}

optune_status optune_blas_gbmv(optune_queue queue, optune_layout layout, optune_blas_transpose trans, int64_t m,
                               int64_t n, int64_t kl, int64_t ku, optune_complex alpha, optune_buffer a, int64_t lda,
                               optune_buffer x, int64_t incx, optune_complex beta, optune_buffer y, int64_t incy,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_gbmv", queue, Blas2Routine::Gbmv, layout, a, lda, x, incx, y,
             incy, wait, wait_count, event, [&](Blas2Call& c, const std::string& f) {
               c.trans = BlasTranspose(int(trans));
               c.m = m;
               c.n = n;
               c.kl = kl;
               c.ku = ku;
               c.alpha = scalar_for(c.a, alpha, f + ": alpha");
               c.beta = scalar_for(c.a, beta, f + ": beta");
             });
}

// symv / hemv, sbmv / hbmv (k), spmv / hpmv (no lda).
#define OPTUNE_CAPI_BLAS2_SYMMETRIC(NAME, ROUTINE, K_PARAM, K_VALUE, LDA_PARAM, LDA_VALUE)                      \
  optune_status NAME(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n K_PARAM,         \
                     optune_complex alpha, optune_buffer a LDA_PARAM, optune_buffer x, int64_t incx,            \
                     optune_complex beta, optune_buffer y, int64_t incy, const optune_event* wait,              \
                     size_t wait_count, optune_event* event) {                                                  \
    return run(#NAME, queue, Blas2Routine::ROUTINE, layout, a, LDA_VALUE, x, incx, y, incy,   \
               wait, wait_count, event, [&](Blas2Call& c, const std::string& f) {                               \
                 c.uplo = Triangle(int(uplo));                                                                  \
                 c.n = n;                                                                                       \
                 c.kl = K_VALUE;                                                                                \
                 c.alpha = scalar_for(c.a, alpha, f + ": alpha");                                               \
                 c.beta = scalar_for(c.a, beta, f + ": beta");                                                  \
               });                                                                                              \
  }
#define OPTUNE_COMMA ,
OPTUNE_CAPI_BLAS2_SYMMETRIC(optune_blas_symv, Symv, , 0, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_SYMMETRIC(optune_blas_hemv, Hemv, , 0, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_SYMMETRIC(optune_blas_sbmv, Sbmv, OPTUNE_COMMA int64_t k, k, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_SYMMETRIC(optune_blas_hbmv, Hbmv, OPTUNE_COMMA int64_t k, k, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_SYMMETRIC(optune_blas_spmv, Spmv, , 0, , 0)
OPTUNE_CAPI_BLAS2_SYMMETRIC(optune_blas_hpmv, Hpmv, , 0, , 0)

// ger, geru, gerc.
#define OPTUNE_CAPI_BLAS2_GER(NAME, ROUTINE)                                                                     \
  optune_status NAME(optune_queue queue, optune_layout layout, int64_t m, int64_t n, optune_complex alpha,     \
                     optune_buffer x, int64_t incx, optune_buffer y, int64_t incy, optune_buffer a,            \
                     int64_t lda, const optune_event* wait, size_t wait_count, optune_event* event) {          \
    return run(#NAME, queue, Blas2Routine::ROUTINE, layout, a, lda, x, incx, y, incy, wait,  \
               wait_count, event, [&](Blas2Call& c, const std::string& f) {                                    \
                 c.m = m;                                                                                      \
                 c.n = n;                                                                                      \
                 c.alpha = scalar_for(c.a, alpha, f + ": alpha");                                              \
               });                                                                                             \
  }
OPTUNE_CAPI_BLAS2_GER(optune_blas_ger, Ger)
OPTUNE_CAPI_BLAS2_GER(optune_blas_geru, Geru)
OPTUNE_CAPI_BLAS2_GER(optune_blas_gerc, Gerc)

// syr / her, spr / hpr (real alpha).
#define OPTUNE_CAPI_BLAS2_RANK1(NAME, ROUTINE, LDA_PARAM, LDA_VALUE)                                               \
  optune_status NAME(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n, double alpha,     \
                     optune_buffer x, int64_t incx, optune_buffer a LDA_PARAM, const optune_event* wait,          \
                     size_t wait_count, optune_event* event) {                                                    \
    return run(#NAME, queue, Blas2Routine::ROUTINE, layout, a, LDA_VALUE, x, incx, nullptr, 0, wait, wait_count,  \
               event, [&](Blas2Call& c, const std::string&) {                                                     \
                 c.uplo = Triangle(int(uplo));                                                                    \
                 c.n = n;                                                                                         \
                 c.alpha = alpha;                                                                                 \
               });                                                                                                \
  }
OPTUNE_CAPI_BLAS2_RANK1(optune_blas_syr, Syr, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_RANK1(optune_blas_her, Her, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_RANK1(optune_blas_spr, Spr, , 0)
OPTUNE_CAPI_BLAS2_RANK1(optune_blas_hpr, Hpr, , 0)

// syr2 / her2, spr2 / hpr2.
#define OPTUNE_CAPI_BLAS2_RANK2(NAME, ROUTINE, LDA_PARAM, LDA_VALUE)                                              \
  optune_status NAME(optune_queue queue, optune_layout layout, optune_triangle uplo, int64_t n,                  \
                     optune_complex alpha, optune_buffer x, int64_t incx, optune_buffer y, int64_t incy,         \
                     optune_buffer a LDA_PARAM, const optune_event* wait, size_t wait_count,                     \
                     optune_event* event) {                                                                      \
    return run(#NAME, queue, Blas2Routine::ROUTINE, layout, a, LDA_VALUE, x, incx, y, incy,    \
               wait, wait_count, event, [&](Blas2Call& c, const std::string& f) {                                \
                 c.uplo = Triangle(int(uplo));                                                                   \
                 c.n = n;                                                                                        \
                 c.alpha = scalar_for(c.a, alpha, f + ": alpha");                                                \
               });                                                                                               \
  }
OPTUNE_CAPI_BLAS2_RANK2(optune_blas_syr2, Syr2, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_RANK2(optune_blas_her2, Her2, OPTUNE_COMMA int64_t lda, lda)
OPTUNE_CAPI_BLAS2_RANK2(optune_blas_spr2, Spr2, , 0)
OPTUNE_CAPI_BLAS2_RANK2(optune_blas_hpr2, Hpr2, , 0)

}  // extern "C"
