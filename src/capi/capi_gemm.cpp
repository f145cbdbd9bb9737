// C API: GEMM and strided-batched GEMM over the library's untyped entry
// (every type combination reaches the same validation as the templates).
#include "capi/capi.hpp"
#include "ops/gemm_ops.hpp"

using namespace optune;
using namespace optune::capi;

namespace {

GemmOptions gemm_options(const optune_gemm_options* o, const char* fn) {
  GemmOptions g;
  if (!o) return g;
  const std::string f(fn);
  g.bias_mode = need_enum<BiasMode>(int(o->bias_mode), int(BiasMode::PerColumn), (f + ": options->bias_mode").c_str());
  if (o->bias) {
    const optune_buffer_t& b = *o->bias;
    g.bias.mem = b.mem;
    g.bias.offset = b.offset;
    g.bias.count = b.count;
    g.bias.dtype = b.dtype;
    g.bias.shape = {std::int64_t(b.count)};
  } else if (g.bias_mode != BiasMode::None) {
    invalid(f + ": options->bias is NULL with a bias mode");
  }
  g.activation = need_enum<Unary>(int(o->activation), int(Unary::Clamp), (f + ": options->activation").c_str());
  g.activation_params.alpha = o->activation_params.alpha;
  g.activation_params.beta = o->activation_params.beta;
  g.accumulate =
      need_enum<Accumulate>(int(o->accumulate), int(Accumulate::F32), (f + ": options->accumulate").c_str());
  g.compute =
      need_enum<GemmCompute>(int(o->compute), int(GemmCompute::FastTF32), (f + ": options->compute").c_str());
  return g;
}

struct Common {
  const Queue* q;
  Layout layout;
  Transpose ta, tb;
  GemmOptions options;
  WaitList wait;
  const optune_buffer_t *a, *b, *c;
};

Common common(const char* fn, optune_queue queue, optune_layout layout, optune_transpose ta, optune_transpose tb,
              optune_buffer a, optune_buffer b, optune_buffer c, const optune_gemm_options* options,
              const optune_event* wait, size_t wait_count) {
  const std::string f(fn);
  Common k;
  k.q = &need_queue(queue, fn);
  k.layout = need_enum<Layout>(int(layout), int(Layout::ColMajor), (f + ": layout").c_str());
  k.ta = need_enum<Transpose>(int(ta), int(Transpose::Conjugate), (f + ": trans_a").c_str());
  k.tb = need_enum<Transpose>(int(tb), int(Transpose::Conjugate), (f + ": trans_b").c_str());
  k.a = &need_buffer(a, (f + ": a").c_str());
  k.b = &need_buffer(b, (f + ": b").c_str());
  k.c = &need_buffer(c, (f + ": c").c_str());
  k.options = gemm_options(options, fn);
  k.wait = wait_list(wait, wait_count, fn);
  return k;
}

detail::GemmMatrix matrix(const optune_buffer_t& b) { return {b.mem, b.offset, b.count, b.dtype}; }

// optune_blas_gemm's scalars: complex for complex matrices, else real.
std::complex<double> gemm_scalar(const optune_buffer_t& a, optune_complex s, const std::string& what) {
  if (!is_complex(a.dtype) && s.im != 0)
    invalid(what + " has an imaginary part (" + std::to_string(s.im) + ") for real matrices");
  return {s.re, s.im};
}

}  // namespace

extern "C" {

optune_status optune_gemm(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                          optune_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha, optune_buffer a,
                          int64_t lda, optune_buffer b, int64_t ldb, double beta, optune_buffer c, int64_t ldc,
                          const optune_gemm_options* options, const optune_event* wait, size_t wait_count,
                          optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const Common x = common("optune_gemm", queue, layout, trans_a, trans_b, a, b, c, options, wait, wait_count);
    out.set(detail::gemm_untyped(*x.q, x.layout, x.ta, x.tb, m, n, k, alpha, matrix(*x.a), lda, 0, matrix(*x.b),
                                 ldb, 0, beta, matrix(*x.c), ldc, 0, 1, false, x.options, x.wait));
  });
}

optune_status optune_gemm_strided_batched(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                                          optune_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                                          optune_buffer a, int64_t lda, int64_t stride_a, optune_buffer b,
                                          int64_t ldb, int64_t stride_b, double beta, optune_buffer c, int64_t ldc,
                                          int64_t stride_c, int64_t batch, const optune_gemm_options* options,
                                          const optune_event* wait, size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const Common x =
        common("optune_gemm_strided_batched", queue, layout, trans_a, trans_b, a, b, c, options, wait, wait_count);
    out.set(detail::gemm_untyped(*x.q, x.layout, x.ta, x.tb, m, n, k, alpha, matrix(*x.a), lda, stride_a,
                                 matrix(*x.b), ldb, stride_b, beta, matrix(*x.c), ldc, stride_c, batch, true,
                                 x.options, x.wait));
  });
}

optune_status optune_blas_gemm(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                               optune_transpose trans_b, int64_t m, int64_t n, int64_t k, optune_complex alpha,
                               optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb, optune_complex beta,
                               optune_buffer c, int64_t ldc, const optune_event* wait, size_t wait_count,
                               optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const char* fn = "optune_blas_gemm";
    const Common x = common(fn, queue, layout, trans_a, trans_b, a, b, c, nullptr, wait, wait_count);
    out.set(detail::gemm_untyped(*x.q, x.layout, x.ta, x.tb, m, n, k,
                                 gemm_scalar(*x.a, alpha, std::string(fn) + ": alpha"), matrix(*x.a), lda, 0,
                                 matrix(*x.b), ldb, 0, gemm_scalar(*x.a, beta, std::string(fn) + ": beta"),
                                 matrix(*x.c), ldc, 0, 1, false, x.options, x.wait));
  });
}

optune_status optune_blas_gemm_strided_batched(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                                               optune_transpose trans_b, int64_t m, int64_t n, int64_t k,
                                               optune_complex alpha, optune_buffer a, int64_t lda, int64_t stride_a,
                                               optune_buffer b, int64_t ldb, int64_t stride_b, optune_complex beta,
                                               optune_buffer c, int64_t ldc, int64_t stride_c, int64_t batch,
                                               const optune_event* wait, size_t wait_count, optune_event* event) {
  return guard([&] {
    EventOut out(event);
    const char* fn = "optune_blas_gemm_strided_batched";
    const Common x = common(fn, queue, layout, trans_a, trans_b, a, b, c, nullptr, wait, wait_count);
    out.set(detail::gemm_untyped(*x.q, x.layout, x.ta, x.tb, m, n, k,
                                 gemm_scalar(*x.a, alpha, std::string(fn) + ": alpha"), matrix(*x.a), lda, stride_a,
                                 matrix(*x.b), ldb, stride_b, gemm_scalar(*x.a, beta, std::string(fn) + ": beta"),
                                 matrix(*x.c), ldc, stride_c, batch, true, x.options, x.wait));
  });
}

}  // extern "C"
