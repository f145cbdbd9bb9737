// C API: BLAS level 1 over the library's untyped entry (detail::blas1_untyped),
// so every dtype reaches the same validation as the templates; rotg and
// rotmg on the host.
#include <complex>

#include "capi/capi.hpp"
#include "capi/capi_blas_vector.hpp"
#include "ops/blas1_ops.hpp"

using namespace optune;
using namespace optune::capi;
using detail::Blas1Call;
using detail::Blas1Routine;

namespace {

// Runs a call after the arguments every routine has: queue, x, wait list.
template <class F>
optune_status run(const char* fn, optune_queue queue, Blas1Routine r, int64_t n, optune_buffer x, int64_t incx,
                  const optune_event* wait, size_t wait_count, optune_event* event, F&& fill) {
  return guard([&] {
    EventOut out(event);
    const std::string f(fn);
    const Queue& q = need_queue(queue, fn);
    Blas1Call c;
    c.routine = r;
    c.n = n;
    c.x = blas_vector(x, f + ": x");
    c.incx = incx;
    fill(c, f);
    const WaitList w = wait_list(wait, wait_count, fn);
    out.set(detail::blas1_untyped(q, c, w));
  });
}

std::complex<double> scalar_for(const detail::BlasVector& x, optune_complex a, const std::string& what) {
  if (!is_complex(x.dtype) && a.im != 0)
    invalid(what + " has an imaginary part (" + std::to_string(a.im) + ") for a real vector");
  return {a.re, a.im};
}

template <class F>
optune_status host(const char* fn, F&& f) {
  return guard([&] { f(std::string(fn)); });
}

}  // namespace

extern "C" {

optune_status optune_blas_swap(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_swap", queue, Blas1Routine::Swap, n, x, incx, wait, wait_count, event,
             [&](Blas1Call& c, const std::string& f) {
               c.y = blas_vector(y, f + ": y");
               c.incy = incy;
             });
}

optune_status optune_blas_scal(optune_queue queue, int64_t n, optune_complex alpha, optune_buffer x, int64_t incx,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_scal", queue, Blas1Routine::Scal, n, x, incx, wait, wait_count, event,
             [&](Blas1Call& c, const std::string& f) { c.alpha = scalar_for(c.x, alpha, f + ": alpha"); });
}

optune_status optune_blas_rscal(optune_queue queue, int64_t n, double alpha, optune_buffer x, int64_t incx,
                                const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_rscal", queue, Blas1Routine::Scal, n, x, incx, wait, wait_count, event,
             [&](Blas1Call& c, const std::string&) {
               c.alpha = alpha;
               c.real_alpha = true;
             });
}

optune_status optune_blas_copy(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_copy", queue, Blas1Routine::Copy, n, x, incx, wait, wait_count, event,
             [&](Blas1Call& c, const std::string& f) {
               c.y = blas_vector(y, f + ": y");
               c.incy = incy;
             });
}

optune_status optune_blas_axpy(optune_queue queue, int64_t n, optune_complex alpha, optune_buffer x, int64_t incx,
                               optune_buffer y, int64_t incy, const optune_event* wait, size_t wait_count,
                               optune_event* event) {
  return run("optune_blas_axpy", queue, Blas1Routine::Axpy, n, x, incx, wait, wait_count, event,
             [&](Blas1Call& c, const std::string& f) {
               c.alpha = scalar_for(c.x, alpha, f + ": alpha");
               c.y = blas_vector(y, f + ": y");
               c.incy = incy;
             });
}

#define OPTUNE_CAPI_DOT(NAME, ROUTINE)                                                                            \
  optune_status NAME(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y, int64_t incy, \
                     optune_buffer result, const optune_event* wait, size_t wait_count, optune_event* event) {    \
    return run(#NAME, queue, Blas1Routine::ROUTINE, n, x, incx, wait, wait_count, event,                         \
               [&](Blas1Call& c, const std::string& f) {                                                          \
                 c.y = blas_vector(y, f + ": y");                                                                   \
                 c.incy = incy;                                                                                   \
                 c.result = blas_vector(result, f + ": result");                                                    \
               });                                                                                                \
  }
OPTUNE_CAPI_DOT(optune_blas_dot, Dot)
OPTUNE_CAPI_DOT(optune_blas_dotu, Dotu)
OPTUNE_CAPI_DOT(optune_blas_dotc, Dotc)

#define OPTUNE_CAPI_REDUCE(NAME, ROUTINE)                                                                         \
  optune_status NAME(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer result,         \
                     const optune_event* wait, size_t wait_count, optune_event* event) {                          \
    return run(#NAME, queue, Blas1Routine::ROUTINE, n, x, incx, wait, wait_count, event,                         \
               [&](Blas1Call& c, const std::string& f) { c.result = blas_vector(result, f + ": result"); });        \
  }
OPTUNE_CAPI_REDUCE(optune_blas_nrm2, Nrm2)
OPTUNE_CAPI_REDUCE(optune_blas_asum, Asum)
OPTUNE_CAPI_REDUCE(optune_blas_sum, Sum)
OPTUNE_CAPI_REDUCE(optune_blas_iamax, Iamax)
OPTUNE_CAPI_REDUCE(optune_blas_iamin, Iamin)

optune_status optune_blas_rot(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                              int64_t incy, double cv, double sv, const optune_event* wait, size_t wait_count,
                              optune_event* event) {
  return run("optune_blas_rot", queue, Blas1Routine::Rot, n, x, incx, wait, wait_count, event,
             [&](Blas1Call& c, const std::string& f) {
               c.y = blas_vector(y, f + ": y");
               c.incy = incy;
               c.c = cv;
               c.s = sv;
             });
}

optune_status optune_blas_rotm(optune_queue queue, int64_t n, optune_buffer x, int64_t incx, optune_buffer y,
                               int64_t incy, const double* param, const optune_event* wait, size_t wait_count,
                               optune_event* event) {
  return run("optune_blas_rotm", queue, Blas1Routine::Rotm, n, x, incx, wait, wait_count, event,
             [&](Blas1Call& c, const std::string& f) {
               c.y = blas_vector(y, f + ": y");
               c.incy = incy;
               if (!param) invalid(f + ": param is NULL");
               for (int i = 0; i < 5; ++i) c.param[i] = param[i];
             });
}

optune_status optune_blas_srotg(float* a, float* b, float* c, float* s) {
  return host("optune_blas_srotg", [&](const std::string& f) {
    rotg(need(a, (f + ": a").c_str()), need(b, (f + ": b").c_str()), need(c, (f + ": c").c_str()),
         need(s, (f + ": s").c_str()));
  });
}

optune_status optune_blas_drotg(double* a, double* b, double* c, double* s) {
  return host("optune_blas_drotg", [&](const std::string& f) {
    rotg(need(a, (f + ": a").c_str()), need(b, (f + ": b").c_str()), need(c, (f + ": c").c_str()),
         need(s, (f + ": s").c_str()));
  });
}

optune_status optune_blas_crotg(float* a, const float* b, float* c, float* s) {
  return host("optune_blas_crotg", [&](const std::string& f) {
    need(a, (f + ": a").c_str());
    need(b, (f + ": b").c_str());
    need(c, (f + ": c").c_str());
    need(s, (f + ": s").c_str());
    std::complex<float> ca(a[0], a[1]), cs;
    rotg(ca, std::complex<float>(b[0], b[1]), *c, cs);
    a[0] = ca.real(), a[1] = ca.imag(), s[0] = cs.real(), s[1] = cs.imag();
  });
}

optune_status optune_blas_zrotg(double* a, const double* b, double* c, double* s) {
  return host("optune_blas_zrotg", [&](const std::string& f) {
    need(a, (f + ": a").c_str());
    need(b, (f + ": b").c_str());
    need(c, (f + ": c").c_str());
    need(s, (f + ": s").c_str());
    std::complex<double> ca(a[0], a[1]), cs;
    rotg(ca, std::complex<double>(b[0], b[1]), *c, cs);
    a[0] = ca.real(), a[1] = ca.imag(), s[0] = cs.real(), s[1] = cs.imag();
  });
}

optune_status optune_blas_srotmg(float* d1, float* d2, float* x1, float y1, float* param) {
  return host("optune_blas_srotmg", [&](const std::string& f) {
    need(param, (f + ": param").c_str());
    std::array<float, 5> p{param[0], param[1], param[2], param[3], param[4]};
    rotmg(need(d1, (f + ": d1").c_str()), need(d2, (f + ": d2").c_str()), need(x1, (f + ": x1").c_str()), y1, p);
    for (int i = 0; i < 5; ++i) param[i] = p[i];
  });
}

optune_status optune_blas_drotmg(double* d1, double* d2, double* x1, double y1, double* param) {
  return host("optune_blas_drotmg", [&](const std::string& f) {
    need(param, (f + ": param").c_str());
    std::array<double, 5> p{param[0], param[1], param[2], param[3], param[4]};
    rotmg(need(d1, (f + ": d1").c_str()), need(d2, (f + ": d2").c_str()), need(x1, (f + ": x1").c_str()), y1, p);
    for (int i = 0; i < 5; ++i) param[i] = p[i];
  });
}

}  // extern "C"
