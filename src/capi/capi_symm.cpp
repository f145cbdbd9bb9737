// C API: symm and hemm over the library's untyped entry (ops/blas3_symm.hpp).
#include "capi/capi.hpp"
#include "ops/blas3_symm.hpp"

using namespace optune;
using namespace optune::capi;

namespace {

optune_status run(const char* fn, bool hermitian, optune_queue queue, optune_layout layout, optune_side side,
                  optune_triangle uplo, int64_t m, int64_t n, optune_complex alpha, optune_buffer a, int64_t lda,
                  optune_buffer b, int64_t ldb, optune_complex beta, optune_buffer c, int64_t ldc,
                  const optune_event* wait, size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const std::string f(fn);
    const Queue& q = need_queue(queue, fn);
    detail::SymmCall s;
    s.what = hermitian ? "hemm" : "symm";
    s.hermitian = hermitian;
    s.layout = need_enum<Layout>(int(layout), int(Layout::ColMajor), (f + ": layout").c_str());
    s.side = need_enum<Side>(int(side), int(Side::Right), (f + ": side (argument 1)").c_str());
    s.triangle = need_enum<Triangle>(int(uplo), int(Triangle::Lower), (f + ": uplo (argument 2)").c_str());
    s.m = m, s.n = n;
    const optune_buffer_t* mats[3] = {&need_buffer(a, (f + ": a").c_str()), &need_buffer(b, (f + ": b").c_str()),
                                      &need_buffer(c, (f + ": c").c_str())};
    detail::GemmMatrix* dst[3] = {&s.a, &s.b, &s.c};
    for (int i = 0; i < 3; ++i) *dst[i] = {mats[i]->mem, mats[i]->offset, mats[i]->count, mats[i]->dtype};
    for (const auto& [v, name] : {std::pair{alpha, "alpha"}, {beta, "beta"}})
      if (!is_complex(s.a.dtype) && v.im != 0)
        invalid(f + ": " + name + " has an imaginary part (" + std::to_string(v.im) + ") for real matrices");
    s.alpha = {alpha.re, alpha.im};
    s.beta = {beta.re, beta.im};
    s.lda = lda, s.ldb = ldb, s.ldc = ldc;
    out.set(detail::symm_untyped(q, s, wait_list(wait, wait_count, fn)));
  });
}

}  // namespace

extern "C" {

optune_status optune_blas_symm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               int64_t m, int64_t n, optune_complex alpha, optune_buffer a, int64_t lda,
                               optune_buffer b, int64_t ldb, optune_complex beta, optune_buffer c, int64_t ldc,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_symm", false, queue, layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, wait,
             wait_count, event);
}

optune_status optune_blas_hemm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               int64_t m, int64_t n, optune_complex alpha, optune_buffer a, int64_t lda,
                               optune_buffer b, int64_t ldb, optune_complex beta, optune_buffer c, int64_t ldc,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_hemm", true, queue, layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, wait,
             wait_count, event);
}

}  // extern "C"
