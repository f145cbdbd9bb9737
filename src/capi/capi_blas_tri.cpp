// C API: the triangular level-2 routines over the library's untyped entry
// (detail::blas_tri_untyped), so every dtype and enumeration value reaches
// the same validation (and xerbla positions) as the templates.
#include "capi/capi.hpp"
#include "capi/capi_blas_vector.hpp"
#include "ops/blas_tri_ops.hpp"

using namespace optune;
using namespace optune::capi;
using detail::BlasTriCall;
using detail::TriForm;

namespace {

optune_status tri(const char* fn, bool solve, TriForm form, optune_queue queue, optune_layout layout, int32_t uplo,
                  int32_t trans, int32_t diag, int64_t n, int64_t k, optune_buffer a, int64_t lda, optune_buffer x,
                  int64_t incx, const optune_event* wait, size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const std::string f(fn);
    const Queue& q = need_queue(queue, fn);
    BlasTriCall c;
    c.solve = solve;
    c.form = form;
    c.layout = Layout(int(layout));
    c.uplo = Triangle(uplo);
    c.trans = BlasTranspose(trans);
    c.diag = Diagonal(diag);
    c.n = n;
    c.k = k;
    c.lda = lda;
    c.a = blas_vector(a, f + (form == TriForm::Packed ? ": ap" : ": a"));
    c.x = blas_vector(x, f + ": x");
    c.incx = incx;
    const WaitList w = wait_list(wait, wait_count, fn);
    out.set(detail::blas_tri_untyped(q, c, w));
  });
}

}  // namespace

extern "C" {

optune_status optune_blas_trmv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return tri("optune_blas_trmv", false, TriForm::Full, queue, layout, uplo, trans, diag, n, 0, a, lda, x, incx, wait,
             wait_count, event);
}
optune_status optune_blas_tbmv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, int64_t k, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return tri("optune_blas_tbmv", false, TriForm::Band, queue, layout, uplo, trans, diag, n, k, a, lda, x, incx, wait,
             wait_count, event);
}
optune_status optune_blas_tpmv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer ap, optune_buffer x, int64_t incx, const optune_event* wait,
                               size_t wait_count, optune_event* event) {
  return tri("optune_blas_tpmv", false, TriForm::Packed, queue, layout, uplo, trans, diag, n, 0, ap, 1, x, incx, wait,
             wait_count, event);
}
optune_status optune_blas_trsv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return tri("optune_blas_trsv", true, TriForm::Full, queue, layout, uplo, trans, diag, n, 0, a, lda, x, incx, wait,
             wait_count, event);
}
optune_status optune_blas_tbsv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, int64_t k, optune_buffer a, int64_t lda, optune_buffer x, int64_t incx,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return tri("optune_blas_tbsv", true, TriForm::Band, queue, layout, uplo, trans, diag, n, k, a, lda, x, incx, wait,
             wait_count, event);
}
optune_status optune_blas_tpsv(optune_queue queue, optune_layout layout, int32_t uplo, int32_t trans, int32_t diag,
                               int64_t n, optune_buffer ap, optune_buffer x, int64_t incx, const optune_event* wait,
                               size_t wait_count, optune_event* event) {
  return tri("optune_blas_tpsv", true, TriForm::Packed, queue, layout, uplo, trans, diag, n, 0, ap, 1, x, incx, wait,
             wait_count, event);
}

}  // extern "C"
