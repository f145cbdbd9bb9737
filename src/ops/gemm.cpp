// optune::gemm, gemm_strided_batched and gemm_batched: one static validate()
// for the three (no device access), then the row-major form of the call.
#include <algorithm>

#include "ops/elementwise_ops.hpp"
#include "ops/gemm_complex.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/tensor.hpp"
#include "ops/validate.hpp"
#include "runtime/backend.hpp"
#include "runtime/trace.hpp"

namespace optune {

using namespace detail;

namespace {

// One stored matrix as the caller gave it.
struct MatrixArg {
  const char* name;     // "a", "b", "c"
  const char* ld_name;  // "lda", ...
  std::shared_ptr<MemImpl> mem;
  std::size_t offset = 0, count = 0;  // the view
  DType dtype = DType::F32;
  std::int64_t ld = 0, stride = 0;
  const std::vector<std::int64_t>* offsets = nullptr;  // list mode
};

// Everything an entry point was given.
struct GemmArgs {
  std::string what;
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  MatrixArg a, b, c;
  bool strided = false, list = false;
  std::vector<std::complex<double>> alphas, betas;
  const GemmOptions* options = nullptr;
};

std::string fail(const GemmArgs& g, const std::string& msg) { return g.what + ": " + msg; }

// Rows and columns of an operand as stored.
std::pair<std::int64_t, std::int64_t> stored_shape(std::int64_t rows, std::int64_t cols, Transpose t) {
  return t == Transpose::No ? std::pair{rows, cols} : std::pair{cols, rows};
}

// Where an operand's products lie: its byte range in the allocation, and
// its lattice (outer lines of inner elements, ld apart) for the overlap of
// products in C.
struct MatrixReach {
  ByteRange range;
  std::int64_t outer = 0, inner = 0;
  std::size_t extent = 0;  // elements one product spans
};

// Checks one operand and its batch layout: the view lies in the allocation,
// and the elements its products reach lie in the view.
MatrixReach validate_matrix(const GemmArgs& g, const Queue& q, const MatrixArg& x, std::int64_t rows,
                            std::int64_t cols) {
  const std::string label = g.what + ": " + x.name;
  validate::on_queue(label.c_str(), x.mem, q);
  check_view(label, *x.mem, x.dtype, x.offset, x.count);
  const std::int64_t outer = g.layout == Layout::RowMajor ? rows : cols;
  const std::int64_t inner = g.layout == Layout::RowMajor ? cols : rows;
  if (x.ld < std::max<std::int64_t>(inner, 1))
    throw Error(Status::InvalidArgument,
                fail(g, std::string(x.ld_name) + " = " + std::to_string(x.ld) + " is smaller than " +
                            std::to_string(std::max<std::int64_t>(inner, 1)) + " (the stored " +
                            (g.layout == Layout::RowMajor ? "row" : "column") + " length of " + x.name + ")"));
  const std::size_t extent = validate::matrix_extent(label.c_str(), outer, inner, x.ld);
  std::size_t reach = 0;  // the farthest product's first element
  if (g.list) {
    for (std::size_t i = 0; i < x.offsets->size(); ++i) {
      const std::int64_t o = (*x.offsets)[i];
      if (o < 0)
        throw Error(Status::InvalidArgument, fail(g, std::string(x.name) + "_offsets[" + std::to_string(i) +
                                                         "] = " + std::to_string(o) + " is negative"));
      reach = std::max(reach, std::size_t(o));
    }
  } else if (g.strided) {
    const std::string sname = std::string("stride_") + x.name;
    if (x.stride < 0)
      throw Error(Status::InvalidArgument, fail(g, sname + " = " + std::to_string(x.stride) + " is negative"));
    if (x.name[0] == 'c' && x.stride == 0 && g.batch > 1)
      throw Error(Status::InvalidArgument, fail(g, "stride_c = 0 with batch > 1: the products would write the same C"));
    reach = validate::mul(label.c_str(), std::size_t(x.stride), std::size_t(g.batch - 1));
  }
  if (extent > 0) validate::fits(label.c_str(), x.count, reach, extent);
  const std::int64_t es = std::int64_t(dtype_size(x.dtype));
  const std::int64_t lo = std::int64_t(x.offset) * es;
  return {{x.mem.get(), lo, extent ? lo + std::int64_t(reach + extent) * es : lo}, outer, inner, extent};
}

// No two products write one element of C: strided products stride_c apart,
// listed ones at their offsets.
void validate_c_products(const GemmArgs& g, const MatrixReach& c) {
  if (c.extent == 0) return;
  const std::int64_t ld = g.c.ld, extent = std::int64_t(c.extent);
  if (g.strided && g.batch > 1) {
    for (std::int64_t k = 1; k < g.batch && k * g.c.stride < extent; ++k)
      if (lattices_overlap(k * g.c.stride, c.outer, c.inner, ld))
        throw Error(Status::InvalidArgument,
                    fail(g, "stride_c = " + std::to_string(g.c.stride) + " makes products " + std::to_string(k) +
                                " apart write the same elements of c"));
  }
  if (g.list) {
    std::vector<std::pair<std::int64_t, std::size_t>> offs;
    for (std::size_t i = 0; i < g.c.offsets->size(); ++i) offs.emplace_back((*g.c.offsets)[i], i);
    std::sort(offs.begin(), offs.end());
    for (std::size_t i = 0; i < offs.size(); ++i)
      for (std::size_t j = i + 1; j < offs.size() && offs[j].first - offs[i].first < extent; ++j)
        if (lattices_overlap(offs[j].first - offs[i].first, c.outer, c.inner, ld))
          throw Error(Status::InvalidArgument,
                      fail(g, "c_offsets[" + std::to_string(std::min(offs[i].second, offs[j].second)) + "] and c_offsets[" +
                                  std::to_string(std::max(offs[i].second, offs[j].second)) +
                                  "] make two products write the same elements of c"));
  }
}

// The element types: A and B alike; f32 and f64 products write their own
// type; f16 and bf16 products write f16, bf16 or f32.
void validate_types(const GemmArgs& g, const Queue& q) {
  for (const MatrixArg* x : {&g.a, &g.b, &g.c}) validate::dtype_known((g.what + ": " + x->name).c_str(), x->dtype);
  const DType t = g.a.dtype, tc = g.c.dtype;
  const std::string ta(dtype_name(t)), tcs(dtype_name(tc));
  if (g.b.dtype != t)
    throw Error(Status::InvalidType, fail(g, "a is " + ta + " but b is " + std::string(dtype_name(g.b.dtype)) +
                                                 " (a and b must have one type)"));
  if (!is_floating(t) && !is_complex(t))
    throw Error(Status::InvalidType, fail(g, ta + " matrices are not supported (f32, f64, f16, bf16, c32 or c64)"));
  const bool half_like = t == DType::F16 || t == DType::BF16;
  const bool c_ok = tc == t || (half_like && (tc == DType::F16 || tc == DType::BF16 || tc == DType::F32));
  if (!c_ok)
    throw Error(Status::InvalidType,
                fail(g, "c is " + tcs + " but a and b are " + ta +
                            (half_like ? " (f16 and bf16 products write f16, bf16 or f32)"
                                       : " (" + ta + " products write " + ta + ")")));
  if (is_complex(t))
    validate::dtype_held(g.what.c_str(), t, q.device().caps());
  else
    validate::dtype_supported(g.what.c_str(), t, q.device().caps());
}

void validate_options(const GemmArgs& g, const Queue& q) {
  const GemmOptions& o = *g.options;
  if (int(o.accumulate) < 0 || int(o.accumulate) > int(Accumulate::F32))
    throw Error(Status::InvalidArgument, fail(g, "unknown accumulate mode"));
  if (int(o.compute) < 0 || int(o.compute) > int(GemmCompute::FastTF32))
    throw Error(Status::InvalidArgument, fail(g, "unknown compute mode"));
  if (o.compute == GemmCompute::FastTF32 && g.a.dtype != DType::F32)
    throw Error(Status::InvalidArgument, fail(g, "GemmCompute::FastTF32 applies to f32 matrices, not " +
                                                     std::string(dtype_name(g.a.dtype))));
  if (int(o.activation) < 0 || int(o.activation) > int(Unary::Clamp))
    throw Error(Status::InvalidArgument, fail(g, "unknown activation"));
  try {
    unary_params(o.activation, o.activation_params);
  } catch (const Error& e) {
    throw Error(e.status(), fail(g, std::string("activation ") + e.what()));
  }
  if (is_complex(g.a.dtype) && (o.bias_mode != BiasMode::None || o.activation != Unary::Copy))
    throw Error(Status::InvalidArgument, fail(g, "complex products take no bias or activation"));
  if (o.bias_mode == BiasMode::None) return;
  if (o.bias_mode != BiasMode::PerRow && o.bias_mode != BiasMode::PerColumn)
    throw Error(Status::InvalidArgument, fail(g, "unknown bias mode"));
  const std::string label = g.what + ": bias";
  validate::on_queue(label.c_str(), o.bias.mem, q);
  validate::dtype_known(label.c_str(), o.bias.dtype);
  check_view(label, *o.bias.mem, o.bias.dtype, o.bias.offset, o.bias.count);
  if (o.bias.dtype != g.c.dtype)
    throw Error(Status::InvalidType, fail(g, "bias is " + std::string(dtype_name(o.bias.dtype)) + " but c is " +
                                                 std::string(dtype_name(g.c.dtype)) + " (the bias has c's type)"));
  const std::int64_t need = o.bias_mode == BiasMode::PerRow ? g.m : g.n;
  const std::string dim = o.bias_mode == BiasMode::PerRow ? "m = " : "n = ";
  std::int64_t elements = 1, long_dims = 0;
  for (std::size_t d = 0; d < o.bias.shape.size(); ++d) {
    elements *= o.bias.shape[d];
    long_dims += o.bias.shape[d] != 1;
    if (d < o.bias.strides.size() && o.bias.shape[d] != 1 && o.bias.strides[d] != 1)
      throw Error(Status::InvalidArgument, fail(g, "bias must be contiguous"));
  }
  if (long_dims > 1) throw Error(Status::InvalidArgument, fail(g, "bias must be a vector"));
  if (elements != need)
    throw Error(Status::InvalidArgument, fail(g, "bias has " + std::to_string(elements) + " elements but " + dim +
                                                     std::to_string(need)));
  validate::fits(label.c_str(), o.bias.count, 0, std::size_t(need));
}

// Arm Compute style: every argument checked, no device touched.
void validate(const GemmArgs& g, const Queue& q) {
  if (!q.impl()) throw Error(Status::InvalidArgument, fail(g, "empty queue"));
  validate::non_negative((g.what + ": m").c_str(), g.m);
  validate::non_negative((g.what + ": n").c_str(), g.n);
  validate::non_negative((g.what + ": k").c_str(), g.k);
  if (g.list) {
    const std::size_t len = g.alphas.size();
    if (len == 0) throw Error(Status::InvalidArgument, fail(g, "empty batch (no alphas)"));
    const std::pair<const char*, std::size_t> spans[] = {{"betas", g.betas.size()},
                                                         {"a_offsets", g.a.offsets->size()},
                                                         {"b_offsets", g.b.offsets->size()},
                                                         {"c_offsets", g.c.offsets->size()}};
    for (const auto& [name, size] : spans)
      if (size != len)
        throw Error(Status::InvalidArgument, fail(g, std::string(name) + " has " + std::to_string(size) +
                                                         " elements but alphas has " + std::to_string(len)));
  } else if (g.batch < 1) {
    throw Error(Status::InvalidArgument, fail(g, "empty batch (batch = " + std::to_string(g.batch) + ")"));
  }
  if (int(g.layout) < 0 || int(g.layout) > 1 || int(g.trans_a) < 0 || int(g.trans_a) > 2 || int(g.trans_b) < 0 ||
      int(g.trans_b) > 2)
    throw Error(Status::InvalidArgument, fail(g, "unknown layout or transposition"));
  validate_types(g, q);
  const auto [ar, ac] = stored_shape(g.m, g.k, g.trans_a);
  const auto [br, bc] = stored_shape(g.k, g.n, g.trans_b);
  const MatrixReach a = validate_matrix(g, q, g.a, ar, ac);
  const MatrixReach b = validate_matrix(g, q, g.b, br, bc);
  const MatrixReach c = validate_matrix(g, q, g.c, g.m, g.n);
  validate_options(g, q);
  // C is written while A, B and the bias are read: none may share an element
  // with it, and no two products may write one element.
  validate_c_products(g, c);
  if (c.range.overlaps(a.range)) throw Error(Status::InvalidArgument, fail(g, "c overlaps a"));
  if (c.range.overlaps(b.range)) throw Error(Status::InvalidArgument, fail(g, "c overlaps b"));
  const GemmOptions& o = *g.options;
  if (o.bias_mode != BiasMode::None) {
    const std::int64_t es = std::int64_t(dtype_size(g.c.dtype));
    const std::int64_t lo = std::int64_t(o.bias.offset) * es;
    const ByteRange bias{o.bias.mem.get(), lo, lo + (o.bias_mode == BiasMode::PerRow ? g.m : g.n) * es};
    if (c.range.overlaps(bias)) throw Error(Status::InvalidArgument, fail(g, "the bias overlaps c"));
  }
  // Work-item counts and batch products stay in 64 bits.
  validate::mul((g.what + ": m * n").c_str(), std::size_t(g.m), std::size_t(g.n));
  validate::mul((g.what + ": m * n * batch").c_str(), std::size_t(g.m) * std::size_t(g.n), std::size_t(g.batch));
}

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
  validate(g, q);
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
