// C API: BLAS level 3 triangular and rank-k routines over the library's
// untyped entry (detail::blas3_untyped), so every dtype and enum value
// reaches the same validation (with netlib's argument positions) as the
// templates.
#include "capi/capi.hpp"
#include "ops/blas3_ops.hpp"

using namespace optune;
using namespace optune::capi;
using detail::Blas3Call;
using detail::Blas3Routine;

namespace {

detail::GemmMatrix matrix_of(optune_buffer b, const std::string& what) {
  const optune_buffer_t& v = need_buffer(b, what.c_str());
  return {v.mem, v.offset, v.count, v.dtype};
}

// A scalar for matrices of type t: for real ones its imaginary part must be
// 0 (complex ones take it as it is; herk's and her2k's real scalars are
// doubles in their signatures).
std::complex<double> scalar(optune_complex a, DType t, const std::string& what) {
  if (!is_complex(t) && a.im != 0)
    invalid(what + " has an imaginary part (" + std::to_string(a.im) + ") for real matrices");
  return {a.re, a.im};
}

template <class F>
optune_status run(const char* fn, optune_queue queue, Blas3Routine r, optune_layout layout, const optune_event* wait,
                  size_t wait_count, optune_event* event, F&& fill) {
  return guard([&] {
    EventOut out(event);
    const std::string f(fn);
    const Queue& q = need_queue(queue, fn);
    Blas3Call c;
    c.routine = r;
    c.layout = Layout(int(layout));  // checked by the call's validation
    fill(c, f);
    const WaitList w = wait_list(wait, wait_count, fn);
    out.set(detail::blas3_untyped(q, c, w));
  });
}

template <class F>
optune_status triangular(const char* fn, optune_queue queue, Blas3Routine r, optune_layout layout, optune_side side,
                         optune_triangle uplo, optune_transpose trans_a, optune_diagonal diag, int64_t m, int64_t n,
                         optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb,
                         const optune_event* wait, size_t wait_count, optune_event* event, F&& more) {
  return run(fn, queue, r, layout, wait, wait_count, event, [&](Blas3Call& c, const std::string& f) {
    c.side = Side(int(side));
    c.uplo = Triangle(int(uplo));
    c.trans = BlasTranspose(int(trans_a));
    c.diag = Diagonal(int(diag));
    c.m = m;
    c.n = n;
    c.a = matrix_of(a, f + ": a");
    c.alpha = scalar(alpha, c.a.dtype, f + ": alpha");
    c.lda = lda;
    c.b = matrix_of(b, f + ": b");
    c.ldb = ldb;
    more(c);
  });
}

// The rank-k routines' shared arguments: a, then more(c, f) (scalars, b),
// then c, so the buffers are checked in their argument order.
template <class F>
optune_status rank_k(const char* fn, optune_queue queue, Blas3Routine r, optune_layout layout, optune_triangle uplo,
                     optune_transpose trans, int64_t n, int64_t k, optune_buffer a, int64_t lda, optune_buffer c,
                     int64_t ldc, const optune_event* wait, size_t wait_count, optune_event* event, F&& more) {
  return run(fn, queue, r, layout, wait, wait_count, event, [&](Blas3Call& call, const std::string& f) {
    call.uplo = Triangle(int(uplo));
    call.trans = BlasTranspose(int(trans));
    call.n = n;
    call.k = k;
    call.a = matrix_of(a, f + ": a");
    call.lda = lda;
    more(call, f);
    call.c = matrix_of(c, f + ": c");
    call.ldc = ldc;
  });
}

}  // namespace

extern "C" {

optune_status optune_blas_syrk(optune_queue queue, optune_layout layout, optune_triangle uplo,
                               optune_transpose trans, int64_t n, int64_t k, optune_complex alpha, optune_buffer a,
                               int64_t lda, optune_complex beta, optune_buffer c, int64_t ldc,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return rank_k("optune_blas_syrk", queue, Blas3Routine::Syrk, layout, uplo, trans, n, k, a, lda, c, ldc, wait,
                wait_count, event, [&](Blas3Call& call, const std::string& f) {
                  call.alpha = scalar(alpha, call.a.dtype, f + ": alpha");
                  call.beta = scalar(beta, call.a.dtype, f + ": beta");
                });
}

optune_status optune_blas_syr2k(optune_queue queue, optune_layout layout, optune_triangle uplo,
                                optune_transpose trans, int64_t n, int64_t k, optune_complex alpha, optune_buffer a,
                                int64_t lda, optune_buffer b, int64_t ldb, optune_complex beta, optune_buffer c,
                                int64_t ldc, const optune_event* wait, size_t wait_count, optune_event* event) {
  return rank_k("optune_blas_syr2k", queue, Blas3Routine::Syr2k, layout, uplo, trans, n, k, a, lda, c, ldc, wait,
                wait_count, event, [&](Blas3Call& call, const std::string& f) {
                  call.alpha = scalar(alpha, call.a.dtype, f + ": alpha");
                  call.beta = scalar(beta, call.a.dtype, f + ": beta");
                  call.b = matrix_of(b, f + ": b");
                  call.ldb = ldb;
                });
}

optune_status optune_blas_herk(optune_queue queue, optune_layout layout, optune_triangle uplo,
                               optune_transpose trans, int64_t n, int64_t k, double alpha, optune_buffer a,
                               int64_t lda, double beta, optune_buffer c, int64_t ldc, const optune_event* wait,
                               size_t wait_count, optune_event* event) {
  return rank_k("optune_blas_herk", queue, Blas3Routine::Herk, layout, uplo, trans, n, k, a, lda, c, ldc, wait,
                wait_count, event, [&](Blas3Call& call, const std::string&) {
                  call.alpha = alpha;
                  call.beta = beta;
                });
}

optune_status optune_blas_her2k(optune_queue queue, optune_layout layout, optune_triangle uplo,
                                optune_transpose trans, int64_t n, int64_t k, optune_complex alpha, optune_buffer a,
                                int64_t lda, optune_buffer b, int64_t ldb, double beta, optune_buffer c, int64_t ldc,
                                const optune_event* wait, size_t wait_count, optune_event* event) {
  return rank_k("optune_blas_her2k", queue, Blas3Routine::Her2k, layout, uplo, trans, n, k, a, lda, c, ldc, wait,
                wait_count, event, [&](Blas3Call& call, const std::string& f) {
                  call.alpha = {alpha.re, alpha.im};
                  call.beta = beta;
                  call.b = matrix_of(b, f + ": b");
                  call.ldb = ldb;
                });
}

optune_status optune_blas_trmm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               optune_transpose trans_a, optune_diagonal diag, int64_t m, int64_t n,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return triangular("optune_blas_trmm", queue, Blas3Routine::Trmm, layout, side, uplo, trans_a, diag, m, n, alpha,
                    a, lda, b, ldb, wait, wait_count, event, [](Blas3Call&) {});
}

optune_status optune_blas_trsm(optune_queue queue, optune_layout layout, optune_side side, optune_triangle uplo,
                               optune_transpose trans_a, optune_diagonal diag, int64_t m, int64_t n,
                               optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb,
                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return triangular("optune_blas_trsm", queue, Blas3Routine::Trsm, layout, side, uplo, trans_a, diag, m, n, alpha,
                    a, lda, b, ldb, wait, wait_count, event, [](Blas3Call&) {});
}

optune_status optune_blas_trsm_strided_batched(optune_queue queue, optune_layout layout, optune_side side,
                                               optune_triangle uplo, optune_transpose trans_a, optune_diagonal diag,
                                               int64_t m, int64_t n, optune_complex alpha, optune_buffer a,
                                               int64_t lda, int64_t stride_a, optune_buffer b, int64_t ldb,
                                               int64_t stride_b, int64_t batch, const optune_event* wait,
                                               size_t wait_count, optune_event* event) {
  return triangular("optune_blas_trsm_strided_batched", queue, Blas3Routine::Trsm, layout, side, uplo, trans_a, diag,
                    m, n, alpha, a, lda, b, ldb, wait, wait_count, event, [&](Blas3Call& c) {
                      c.batched = true;
                      c.stride_a = stride_a;
                      c.stride_b = stride_b;
                      c.batch = batch;
                    });
}

}  // extern "C"
