// symm and hemm: A's triangle expanded to the full matrix in scratch (slot
// 4: complex GEMM uses slot 3, the real candidates 0 to 2) by
// kernels/blas/symm_expand.cl, then one GEMM through gemm_untyped.
#include "ops/blas3_symm.hpp"

#include <algorithm>

#include "kernels/descriptor.hpp"
#include "ops/blas_common.hpp"
#include "ops/gemm_candidates.hpp"
#include "ops/tensor.hpp"
#include "ops/validate.hpp"
#include "runtime/event_span.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

std::string arg(const SymmCall& s, const char* name, int position) {
  return std::string(s.what) + ": " + name + " (argument " + std::to_string(position) + ")";
}
[[noreturn]] void invalid(const std::string& msg) { throw Error(Status::InvalidArgument, msg); }

// One matrix: the view on the queue and in its allocation, ld at least the
// stored row length, the elements it spans inside the view; its bytes.
ByteRange check_matrix(const Queue& q, const SymmCall& s, const GemmMatrix& x, const char* name, const char* ld_name,
                       int ld_position, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  const std::string label = std::string(s.what) + ": " + name;
  validate::on_queue(label.c_str(), x.mem, q);
  check_view(label, *x.mem, x.dtype, x.offset, x.count);
  const bool row = s.layout == Layout::RowMajor;
  const std::int64_t outer = row ? rows : cols, inner = std::max<std::int64_t>(row ? cols : rows, 1);
  if (ld < inner)
    invalid(arg(s, ld_name, ld_position) + " = " + std::to_string(ld) + " is smaller than " + std::to_string(inner) +
            " (the stored " + (row ? "row" : "column") + " length of " + name + ")");
  const std::size_t extent = validate::matrix_extent(label.c_str(), outer, inner, ld);
  if (extent > 0) validate::fits(label.c_str(), x.count, 0, extent);
  const std::int64_t es = std::int64_t(dtype_size(x.dtype)), lo = std::int64_t(x.offset) * es;
  return {x.mem.get(), lo, lo + std::int64_t(extent) * es};
}

void validate_call(const Queue& q, const SymmCall& s) {
  if (!q.impl()) invalid(std::string(s.what) + ": empty queue");
  if (int(s.layout) < 0 || int(s.layout) > 1) invalid(std::string(s.what) + ": unknown layout");
  if (int(s.side) < 0 || int(s.side) > 1) invalid(arg(s, "side", 1) + " is neither Left nor Right");
  if (int(s.triangle) < 0 || int(s.triangle) > 1) invalid(arg(s, "triangle", 2) + " is neither Upper nor Lower");
  if (s.m < 0) invalid(arg(s, "m", 3) + " = " + std::to_string(s.m) + " is negative");
  if (s.n < 0) invalid(arg(s, "n", 4) + " = " + std::to_string(s.n) + " is negative");
  for (const auto& [x, name] : {std::pair{&s.a, "a"}, {&s.b, "b"}, {&s.c, "c"}})
    validate::dtype_known((std::string(s.what) + ": " + name).c_str(), x->dtype);
  const DType t = s.a.dtype;
  if (s.b.dtype != t || s.c.dtype != t)
    throw Error(Status::InvalidType, std::string(s.what) + ": a, b and c must have one type (a is " +
                                         std::string(dtype_name(t)) + ", b " + std::string(dtype_name(s.b.dtype)) +
                                         ", c " + std::string(dtype_name(s.c.dtype)) + ")");
  const bool real = t == DType::F32 || t == DType::F64 || t == DType::F16;
  if (s.hermitian ? !is_complex(t) : !(real || is_complex(t)))
    throw Error(Status::InvalidType, std::string(s.what) + ": " + std::string(dtype_name(t)) +
                                         " matrices are not supported (" +
                                         (s.hermitian ? "c32 or c64" : "f32, f64, c32, c64 or f16") + ")");
  validate::dtype_held(s.what, t, q.device().caps());
  const std::int64_t ka = s.side == Side::Left ? s.m : s.n;
  const ByteRange a = check_matrix(q, s, s.a, "a", "lda", 7, ka, ka, s.lda);
  const ByteRange b = check_matrix(q, s, s.b, "b", "ldb", 9, s.m, s.n, s.ldb);
  const ByteRange c = check_matrix(q, s, s.c, "c", "ldc", 12, s.m, s.n, s.ldc);
  if (c.overlaps(a)) invalid(std::string(s.what) + ": c overlaps a");
  if (c.overlaps(b)) invalid(std::string(s.what) + ": c overlaps b");
}

}  // namespace

Event symm_untyped(const Queue& q, const SymmCall& s, const WaitList& wait) {
  validate_call(q, s);
  if (s.m == 0 || s.n == 0) return Event();
  if (s.alpha == 0.0 && s.beta == 1.0) return Event();
  const std::int64_t ka = s.side == Side::Left ? s.m : s.n;
  const bool left = s.side == Side::Left;
  // f16: products accumulate in f32 whatever the device's half arithmetic
  // (the BLAS routines' f16 is storage), C rounded once.
  GemmOptions none;
  if (s.a.dtype == DType::F16) none.accumulate = Accumulate::F32;
  if (s.alpha == 0.0)  // C = beta C: GEMM reads neither operand
    return gemm_untyped(q, s.layout, Transpose::No, Transpose::No, s.m, s.n, ka, s.alpha, left ? s.a : s.b,
                        left ? s.lda : s.ldb, 0, left ? s.b : s.a, left ? s.ldb : s.lda, 0, s.beta, s.c, s.ldc, 0, 1,
                        false, none, wait);

  const DType t = s.a.dtype;
  const DType part = t == DType::F64 || t == DType::C64 ? DType::F64 : DType::F32;
  // (f16 elements are copied as their bits.)
  const std::string part_name = t == DType::F16 ? "ushort" : c_type_name(part);
  const std::size_t elems = validate::mul((std::string(s.what) + ": the expanded a").c_str(), std::size_t(ka),
                                          std::size_t(ka));
  ScratchLease lease =
      lease_scratch(q, {0, 0, 0, 0, validate::mul((std::string(s.what) + ": the expanded a").c_str(), elems,
                                                  dtype_size(t))});
  const std::size_t tile = gemm_helper_tile(q.device().caps());
  const std::string source = "blas/symm_expand.cl";
  const Defines defines{{"REAL", part_name}, {"PARTS", is_complex(t) ? "2" : "1"},
                        {"TILE", std::to_string(tile)}};
  KernelPtr k = compile_kernel(q, KernelSource{source, embedded_kernel_text(source), defines, "symm_expand"});
  // The triangle in stored coordinates: a column-major upper triangle is
  // the stored lower one.
  const bool upper_stored = (s.triangle == Triangle::Upper) == (s.layout == Layout::RowMajor);
  const std::uint32_t flags = (upper_stored ? 1u : 0u) | (s.hermitian ? 2u : 0u);
  Geometry g;
  g.dims = 2;
  g.local[0] = g.local[1] = tile;
  g.global[0] = g.global[1] = round_up(std::size_t(ka), tile);
  EventSpan span;
  const Event expanded =
      launch_kernel(q, *k,
                    {KernelArg::scalar(std::uint64_t(ka)), KernelArg::buffer(*s.a.mem),
                     KernelArg::scalar(std::uint64_t(s.a.offset)), KernelArg::scalar(std::uint64_t(s.lda)),
                     KernelArg::buffer(*lease.slot[4]), KernelArg::scalar(flags)},
                    g, wait);
  span.add(expanded);
  const GemmMatrix full{lease.slot[4], 0, elems, t};
  span.add(gemm_untyped(q, s.layout, Transpose::No, Transpose::No, s.m, s.n, ka, s.alpha, left ? full : s.b,
                        left ? ka : s.ldb, 0, left ? s.b : full, left ? s.ldb : ka, 0, s.beta, s.c, s.ldc, 0, 1, false,
                        none, {expanded}));
  return span.result();
}

}  // namespace optune::detail

namespace optune {

namespace {

template <class T>
Event run_symm(const char* what, bool hermitian, const Queue& q, Layout layout, Side side, Triangle triangle,
               std::int64_t m, std::int64_t n, T alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
               std::int64_t ldb, T beta, const Buffer<T>& c, std::int64_t ldc, const WaitList& wait) {
  const auto matrix = [](const Buffer<T>& x) {
    return detail::GemmMatrix{x.mem(), x.offset(), x.size(), dtype_of_v<T>};
  };
  detail::SymmCall s;
  s.what = what;
  s.hermitian = hermitian;
  s.layout = layout, s.side = side, s.triangle = triangle;
  s.m = m, s.n = n;
  s.alpha = detail::blas_as_complex(alpha), s.beta = detail::blas_as_complex(beta);
  s.a = matrix(a), s.b = matrix(b), s.c = matrix(c);
  s.lda = lda, s.ldb = ldb, s.ldc = ldc;
  return detail::symm_untyped(q, s, wait);
}

}  // namespace

template <class T>
Event symm(const Queue& q, Layout layout, Side side, Triangle triangle, std::int64_t m, std::int64_t n,
           std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, std::type_identity_t<T> beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait) {
  return run_symm<T>("symm", false, q, layout, side, triangle, m, n, alpha, a, lda, b, ldb, beta, c, ldc, wait);
}

template <class T>
Event hemm(const Queue& q, Layout layout, Side side, Triangle triangle, std::int64_t m, std::int64_t n,
           std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
           std::int64_t ldb, std::type_identity_t<T> beta, const Buffer<T>& c, std::int64_t ldc,
           const WaitList& wait) {
  return run_symm<T>("hemm", true, q, layout, side, triangle, m, n, alpha, a, lda, b, ldb, beta, c, ldc, wait);
}

#define OPTUNE_SYMM_INSTANTIATE(F, T)                                                                             \
  template Event F<T>(const Queue&, Layout, Side, Triangle, std::int64_t, std::int64_t, std::type_identity_t<T>, \
                      const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, std::type_identity_t<T>,   \
                      const Buffer<T>&, std::int64_t, const WaitList&);
OPTUNE_SYMM_INSTANTIATE(symm, float)
OPTUNE_SYMM_INSTANTIATE(symm, double)
OPTUNE_SYMM_INSTANTIATE(symm, std::complex<float>)
OPTUNE_SYMM_INSTANTIATE(symm, std::complex<double>)
OPTUNE_SYMM_INSTANTIATE(symm, half)
// hemm of real matrices is an Error(InvalidType), instantiated so the
// message says so rather than the linker.
OPTUNE_SYMM_INSTANTIATE(hemm, float)
OPTUNE_SYMM_INSTANTIATE(hemm, double)
OPTUNE_SYMM_INSTANTIATE(hemm, std::complex<float>)
OPTUNE_SYMM_INSTANTIATE(hemm, std::complex<double>)

}  // namespace optune
