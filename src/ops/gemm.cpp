// optune::gemm, gemm_strided_batched and gemm_batched: one static check for
// the three (validate_gemm, ops/gemm_validate.cpp: no device access), then the
// row-major form of the call.
#include <algorithm>

#include "ops/elementwise_ops.hpp"
#include "ops/gemm_args.hpp"
#include "ops/gemm_complex.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/tensor.hpp"
#include "ops/validate.hpp"
#include "runtime/backend.hpp"
#include "runtime/trace.hpp"

namespace optune {

using namespace detail;

namespace {

GemmOperand operand_of(const MatrixArg& x) { return GemmOperand{x.mem, x.offset, x.ld, x.stride}; }

// The row-major call: a column-major C = op(A) op(B) is the row-major
// C^T = op(B)^T op(A)^T over the same memory.
GemmCall normalise(const GemmArgs& g, const Queue& q, double alpha, double beta, std::vector<std::int64_t> offs[3]) {
  const GemmOptions& o = *g.options;
  const bool col = g.layout == Layout::ColMajor;
  GemmCall c;
  c.dtype = g.a.dtype;
  c.c_dtype = g.c.dtype;
  // f16 arithmetic only for f16 -> f16 products that did not ask for f32;
  // every other f16 or bf16 product accumulates in f32.
  c.comp_half = g.a.dtype == DType::F16 && g.c.dtype == DType::F16 && o.accumulate == Accumulate::Default &&
                q.device().caps().fp16;
  c.tf32 = g.a.dtype == DType::F32 && o.compute == GemmCompute::FastTF32;
  c.m = col ? g.n : g.m;
  c.n = col ? g.m : g.n;
  c.k = g.k;
  c.batch = g.list ? std::int64_t(g.alphas.size()) : g.batch;
  c.a = operand_of(col ? g.b : g.a);
  c.b = operand_of(col ? g.a : g.b);
  c.c = operand_of(g.c);
  c.trans_a = (col ? g.trans_b : g.trans_a) != Transpose::No;
  c.trans_b = (col ? g.trans_a : g.trans_b) != Transpose::No;
  c.alpha = alpha;
  c.beta = beta;
  c.list = g.list;
  if (g.list) {
    c.a_offsets = col ? offs[1] : offs[0];
    c.b_offsets = col ? offs[0] : offs[1];
    c.c_offsets = offs[2];
    for (std::size_t i = 0; i < g.alphas.size(); ++i) {
      c.alphas.push_back(g.alphas[i].real());
      c.betas.push_back(g.betas[i].real());
    }
  }
  if (o.bias_mode != BiasMode::None) {
    c.bias_mode = (o.bias_mode == BiasMode::PerRow) != col ? 1 : 2;
    c.bias = o.bias.mem;
    c.bias_offset = o.bias.offset;
  }
  c.activation = o.activation;
  c.activation_params = unary_params(o.activation, o.activation_params);
  return c;
}

const char* trans_name(Transpose t) { return t == Transpose::No ? "N" : t == Transpose::Yes ? "T" : "C"; }

// The complex call: the row-major form (normalise's, whose real scalars are
// unused) with the conjugations, which a column-major call keeps with its
// operands (op(B)^T of B^H is conj(B) = (B read row-major)^H).
ComplexGemm complex_call(const GemmArgs& g, const Queue& q, std::complex<double> alpha, std::complex<double> beta,
                         std::vector<std::int64_t> offs[3]) {
  const bool col = g.layout == Layout::ColMajor;
  ComplexGemm z;
  z.call = normalise(g, q, 0, 0, offs);
  z.conj_a = (col ? g.trans_b : g.trans_a) == Transpose::Conjugate;
  z.conj_b = (col ? g.trans_a : g.trans_b) == Transpose::Conjugate;
  z.alpha = alpha;
  z.beta = beta;
  z.alphas = g.alphas;
  z.betas = g.betas;
  return z;
}

Event run(const GemmArgs& g, const Queue& q, std::complex<double> alpha, std::complex<double> beta,
          std::vector<std::int64_t> offs[3], const WaitList& wait) {
  trace::Span traced(g.what);
  if (traced) {
    traced.text("dtype", dtype_name(g.a.dtype))
        .text("c_dtype", dtype_name(g.c.dtype))
        .integers("mnk", {g.m, g.n, g.k})
        .text("layout", g.layout == Layout::RowMajor ? "row-major" : "column-major")
        .text("trans", std::string(trans_name(g.trans_a)) + trans_name(g.trans_b))
        .integers("ld", {g.a.ld, g.b.ld, g.c.ld})
        .number("batch", double(std::max<std::int64_t>(g.batch, 1)));
    if (!g.list) traced.number("alpha", alpha.real()).number("beta", beta.real());
    if (!g.list && (alpha.imag() != 0 || beta.imag() != 0))
      traced.number("alpha_im", alpha.imag()).number("beta_im", beta.imag());
    if (g.options->activation != Unary::Copy) traced.text("activation", unary_name(g.options->activation));
  }
  validate_gemm(g, q);
  if (g.m == 0 || g.n == 0) return Event();
  const GemmOptions& o = *g.options;
  // BLAS's quick return: nothing changes C.
  if (!g.list && (alpha == 0.0 || g.k == 0) && beta == 1.0 && o.bias_mode == BiasMode::None &&
      o.activation == Unary::Copy)
    return Event();
  if (is_complex(g.a.dtype)) return run_complex_gemm(q, complex_call(g, q, alpha, beta, offs), wait);
  return run_gemm(q, normalise(g, q, alpha.real(), beta.real(), offs), wait);
}

MatrixArg matrix(const char* name, const char* ld_name, const GemmMatrix& x, std::int64_t ld, std::int64_t stride) {
  return MatrixArg{name, ld_name, x.mem, x.offset, x.count, x.dtype, ld, stride, nullptr};
}
template <class T>
MatrixArg matrix(const char* name, const char* ld_name, const Buffer<T>& b, std::int64_t ld, std::int64_t stride) {
  return matrix(name, ld_name, GemmMatrix{b.mem(), b.offset(), b.size(), dtype_of_v<T>}, ld, stride);
}

GemmArgs args_of(const char* what, Layout layout, Transpose ta, Transpose tb, std::int64_t m, std::int64_t n,
                 std::int64_t k, const GemmOptions& options) {
  GemmArgs g;
  g.what = what;
  g.layout = layout;
  g.trans_a = ta;
  g.trans_b = tb;
  g.m = m, g.n = n, g.k = k;
  g.options = &options;
  return g;
}

}  // namespace

namespace detail {

Event gemm_untyped(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::complex<double> alpha, const GemmMatrix& a, std::int64_t lda,
                   std::int64_t stride_a, const GemmMatrix& b, std::int64_t ldb, std::int64_t stride_b,
                   std::complex<double> beta,
                   const GemmMatrix& c, std::int64_t ldc, std::int64_t stride_c, std::int64_t batch, bool strided,
                   const GemmOptions& options, const WaitList& wait) {
  GemmArgs g = args_of(strided ? "gemm_strided_batched" : "gemm", layout, trans_a, trans_b, m, n, k, options);
  g.strided = strided;
  g.batch = strided ? batch : 1;
  g.a = matrix("a", "lda", a, lda, strided ? stride_a : 0);
  g.b = matrix("b", "ldb", b, ldb, strided ? stride_b : 0);
  g.c = matrix("c", "ldc", c, ldc, strided ? stride_c : 0);
  return run(g, q, alpha, beta, nullptr, wait);
}

}  // namespace detail

namespace {

// The entry points' bodies, with complex scalars (a real call's have no
// imaginary part).
template <class T, class TC>
Event gemm_one(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
               std::int64_t k, std::complex<double> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
               std::int64_t ldb, std::complex<double> beta, const Buffer<TC>& c, std::int64_t ldc,
               const GemmOptions& options, const WaitList& wait) {
  GemmArgs g = args_of("gemm", layout, trans_a, trans_b, m, n, k, options);
  g.a = matrix("a", "lda", a, lda, 0);
  g.b = matrix("b", "ldb", b, ldb, 0);
  g.c = matrix("c", "ldc", c, ldc, 0);
  return run(g, q, alpha, beta, nullptr, wait);
}

template <class T, class TC>
Event gemm_strided(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::complex<double> alpha, const Buffer<T>& a, std::int64_t lda,
                   std::int64_t stride_a, const Buffer<T>& b, std::int64_t ldb, std::int64_t stride_b,
                   std::complex<double> beta, const Buffer<TC>& c, std::int64_t ldc, std::int64_t stride_c,
                   std::int64_t batch, const GemmOptions& options, const WaitList& wait) {
  GemmArgs g = args_of("gemm_strided_batched", layout, trans_a, trans_b, m, n, k, options);
  g.strided = true;
  g.batch = batch;
  g.a = matrix("a", "lda", a, lda, stride_a);
  g.b = matrix("b", "ldb", b, ldb, stride_b);
  g.c = matrix("c", "ldc", c, ldc, stride_c);
  return run(g, q, alpha, beta, nullptr, wait);
}

template <class T, class TC, class S>
Event gemm_list(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
                std::int64_t k, std::span<const S> alphas, const Buffer<T>& a, std::int64_t lda,
                std::span<const std::int64_t> a_offsets, const Buffer<T>& b, std::int64_t ldb,
                std::span<const std::int64_t> b_offsets, std::span<const S> betas, const Buffer<TC>& c,
                std::int64_t ldc, std::span<const std::int64_t> c_offsets, const GemmOptions& options,
                const WaitList& wait) {
  GemmArgs g = args_of("gemm_batched", layout, trans_a, trans_b, m, n, k, options);
  g.list = true;
  g.alphas.assign(alphas.begin(), alphas.end());
  g.betas.assign(betas.begin(), betas.end());
  std::vector<std::int64_t> offs[3] = {{a_offsets.begin(), a_offsets.end()},
                                       {b_offsets.begin(), b_offsets.end()},
                                       {c_offsets.begin(), c_offsets.end()}};
  g.a = matrix("a", "lda", a, lda, 0);
  g.b = matrix("b", "ldb", b, ldb, 0);
  g.c = matrix("c", "ldc", c, ldc, 0);
  g.a.offsets = &offs[0];
  g.b.offsets = &offs[1];
  g.c.offsets = &offs[2];
  g.batch = std::int64_t(g.alphas.size());
  return run(g, q, 1, 0, offs, wait);
}

}  // namespace

template <class T, class TC>
Event gemm(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
           std::int64_t k, double alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b, std::int64_t ldb,
           double beta, const Buffer<TC>& c, std::int64_t ldc, const GemmOptions& options, const WaitList& wait) {
  return gemm_one(q, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, wait);
}

template <class T, class TC>
Event gemm_strided_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                           std::int64_t n, std::int64_t k, double alpha, const Buffer<T>& a, std::int64_t lda,
                           std::int64_t stride_a, const Buffer<T>& b, std::int64_t ldb, std::int64_t stride_b,
                           double beta, const Buffer<TC>& c, std::int64_t ldc, std::int64_t stride_c,
                           std::int64_t batch, const GemmOptions& options, const WaitList& wait) {
  return gemm_strided(q, layout, trans_a, trans_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc,
                      stride_c, batch, options, wait);
}

template <class T, class TC>
Event gemm_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,
                   std::int64_t n, std::int64_t k, std::span<const double> alphas, const Buffer<T>& a,
                   std::int64_t lda, std::span<const std::int64_t> a_offsets, const Buffer<T>& b, std::int64_t ldb,
                   std::span<const std::int64_t> b_offsets, std::span<const double> betas, const Buffer<TC>& c,
                   std::int64_t ldc, std::span<const std::int64_t> c_offsets, const GemmOptions& options,
                   const WaitList& wait) {
  return gemm_list(q, layout, trans_a, trans_b, m, n, k, alphas, a, lda, a_offsets, b, ldb, b_offsets, betas, c, ldc,
                   c_offsets, options, wait);
}

// The complex overloads (complex alpha and beta).
#define OPTUNE_GEMM_COMPLEX(Z)                                                                                      \
  Event gemm(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,   \
             std::int64_t k, std::complex<double> alpha, const Buffer<Z>& a, std::int64_t lda, const Buffer<Z>& b,  \
             std::int64_t ldb, std::complex<double> beta, const Buffer<Z>& c, std::int64_t ldc,                     \
             const GemmOptions& options, const WaitList& wait) {                                                    \
    return gemm_one(q, layout, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, wait);      \
  }                                                                                                                 \
  Event gemm_strided_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,   \
                             std::int64_t n, std::int64_t k, std::complex<double> alpha, const Buffer<Z>& a,        \
                             std::int64_t lda, std::int64_t stride_a, const Buffer<Z>& b, std::int64_t ldb,         \
                             std::int64_t stride_b, std::complex<double> beta, const Buffer<Z>& c,                  \
                             std::int64_t ldc, std::int64_t stride_c, std::int64_t batch,                           \
                             const GemmOptions& options, const WaitList& wait) {                                    \
    return gemm_strided(q, layout, trans_a, trans_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c,   \
                        ldc, stride_c, batch, options, wait);                                                       \
  }                                                                                                                 \
  Event gemm_batched(const Queue& q, Layout layout, Transpose trans_a, Transpose trans_b, std::int64_t m,           \
                     std::int64_t n, std::int64_t k, std::span<const std::complex<double>> alphas,                  \
                     const Buffer<Z>& a, std::int64_t lda, std::span<const std::int64_t> a_offsets,                 \
                     const Buffer<Z>& b, std::int64_t ldb, std::span<const std::int64_t> b_offsets,                 \
                     std::span<const std::complex<double>> betas, const Buffer<Z>& c, std::int64_t ldc,             \
                     std::span<const std::int64_t> c_offsets, const GemmOptions& options, const WaitList& wait) {   \
    return gemm_list(q, layout, trans_a, trans_b, m, n, k, alphas, a, lda, a_offsets, b, ldb, b_offsets, betas, c,  \
                     ldc, c_offsets, options, wait);                                                                \
  }
OPTUNE_GEMM_COMPLEX(std::complex<float>)
OPTUNE_GEMM_COMPLEX(std::complex<double>)

#define OPTUNE_GEMM_INSTANTIATE(T, TC)                                                                           \
  template Event gemm<T, TC>(const Queue&, Layout, Transpose, Transpose, std::int64_t, std::int64_t, std::int64_t, \
                             double, const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, double,       \
                             const Buffer<TC>&, std::int64_t, const GemmOptions&, const WaitList&);                \
  template Event gemm_strided_batched<T, TC>(const Queue&, Layout, Transpose, Transpose, std::int64_t,             \
                                             std::int64_t, std::int64_t, double, const Buffer<T>&, std::int64_t,   \
                                             std::int64_t, const Buffer<T>&, std::int64_t, std::int64_t, double,   \
                                             const Buffer<TC>&, std::int64_t, std::int64_t, std::int64_t,          \
                                             const GemmOptions&, const WaitList&);                                 \
  template Event gemm_batched<T, TC>(const Queue&, Layout, Transpose, Transpose, std::int64_t, std::int64_t,       \
                                     std::int64_t, std::span<const double>, const Buffer<T>&, std::int64_t,        \
                                     std::span<const std::int64_t>, const Buffer<T>&, std::int64_t,                \
                                     std::span<const std::int64_t>, std::span<const double>, const Buffer<TC>&,    \
                                     std::int64_t, std::span<const std::int64_t>, const GemmOptions&,              \
                                     const WaitList&);
OPTUNE_GEMM_INSTANTIATE(float, float)
OPTUNE_GEMM_INSTANTIATE(double, double)
OPTUNE_GEMM_INSTANTIATE(half, half)
OPTUNE_GEMM_INSTANTIATE(half, bfloat16)
OPTUNE_GEMM_INSTANTIATE(half, float)
OPTUNE_GEMM_INSTANTIATE(bfloat16, bfloat16)
OPTUNE_GEMM_INSTANTIATE(bfloat16, half)
OPTUNE_GEMM_INSTANTIATE(bfloat16, float)
// Complex matrices with real alpha and beta (the C API's optune_gemm too).
OPTUNE_GEMM_INSTANTIATE(std::complex<float>, std::complex<float>)
OPTUNE_GEMM_INSTANTIATE(std::complex<double>, std::complex<double>)

}  // namespace optune
