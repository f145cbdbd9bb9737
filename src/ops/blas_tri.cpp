// BLAS level-2 triangular routines: validation in netlib's order, the
// reduction of every layout, triangle and transposition to one column-major
// form, and the launches of the blas_tri family (tri_gather + tri_mv for
// the products, tri_sv for the solves; see blas/blas_tri.cl).
#include <algorithm>
#include <complex>
#include <limits>
#include <string>

#include "kernels/blas/blas_types.hpp"
#include "ops/blas_tri_ops.hpp"
#include "ops/params.hpp"
#include "ops/validate.hpp"
#include "runtime/event_span.hpp"
#include "runtime/scratch.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

std::string blas_tri_name(const BlasTriCall& c) {
  const char* form = c.form == TriForm::Full ? "tr" : c.form == TriForm::Band ? "tb" : "tp";
  return std::string(form) + (c.solve ? "sv" : "mv");
}

namespace {

std::uint64_t magnitude(std::int64_t inc) {
  return inc < 0 ? std::uint64_t(0) - std::uint64_t(inc) : std::uint64_t(inc);
}

// Elements A's storage spans (n > 0).
std::size_t a_extent(const std::string& name, const BlasTriCall& c) {
  const std::string what = name + ": a (n, k, lda)";
  const std::size_t n = std::size_t(c.n);
  switch (c.form) {
    case TriForm::Full:
      return validate::add(what.c_str(), validate::mul(what.c_str(), n - 1, std::size_t(c.lda)), n);
    case TriForm::Band:
      return validate::add(what.c_str(), validate::mul(what.c_str(), n - 1, std::size_t(c.lda)),
                           std::size_t(c.k) + 1);
    default:
      return validate::mul(what.c_str(), n, n + 1) / 2;
  }
}

std::size_t x_extent(const std::string& name, const BlasTriCall& c) {
  const std::string what = name + ": x (n, incx)";
  return validate::add(what.c_str(), validate::mul(what.c_str(), std::size_t(c.n - 1), magnitude(c.incx)), 1);
}

void validate_call(const Queue& q, const BlasTriCall& c) {
  const std::string name = blas_tri_name(c);
  const auto fail = [&](Status st, const std::string& msg) { throw Error(st, name + ": " + msg); };
  const auto arg = [&](int pos, const char* what, const std::string& value, const std::string& want) {
    fail(Status::InvalidArgument, "argument " + std::to_string(pos) + " (" + what + ") is " + value + "; " + want);
  };
  // Netlib's positions: uplo 1, trans 2, diag 3, n 4, then (band) k 5, lda,
  // incx.
  const bool band = c.form == TriForm::Band, packed = c.form == TriForm::Packed;
  const int lda_pos = band ? 7 : 6, incx_pos = band ? 9 : packed ? 7 : 8;
  if (c.layout != Layout::RowMajor && c.layout != Layout::ColMajor)
    fail(Status::InvalidArgument, "layout (CBLAS's argument 1) is " + std::to_string(int(c.layout)) +
                                      "; RowMajor or ColMajor expected");
  if (c.uplo != Triangle::Upper && c.uplo != Triangle::Lower)
    arg(1, "uplo", std::to_string(int(c.uplo)), "Upper or Lower expected");
  if (c.trans != BlasTranspose::No && c.trans != BlasTranspose::Yes && c.trans != BlasTranspose::Conjugate)
    arg(2, "trans", std::to_string(int(c.trans)), "No, Yes or Conjugate expected");
  if (c.diag != Diagonal::NonUnit && c.diag != Diagonal::Unit)
    arg(3, "diag", std::to_string(int(c.diag)), "NonUnit or Unit expected");
  if (c.n < 0) arg(4, "n", std::to_string(c.n), "n >= 0 expected");
  if (band && c.k < 0) arg(5, "k", std::to_string(c.k), "k >= 0 expected");
  if (c.form == TriForm::Full && c.lda < std::max<std::int64_t>(1, c.n))
    arg(lda_pos, "lda", std::to_string(c.lda), "at least max(1, n) = " + std::to_string(std::max<std::int64_t>(1, c.n)) + " expected");
  if (band && (c.k >= std::numeric_limits<std::int64_t>::max() || c.lda < c.k + 1))
    arg(lda_pos, "lda", std::to_string(c.lda), "at least k + 1 = " + std::to_string(std::uint64_t(c.k) + 1) + " expected");
  if (c.incx == 0) arg(incx_pos, "incx", "0", "a nonzero increment expected");
  const std::string an = name + (packed ? ": ap" : ": a"), xn = name + ": x";
  const DType t = c.a.dtype;
  validate::dtype_known(an.c_str(), t);
  validate::on_queue(an.c_str(), c.a.mem, q);
  validate::dtype_known(xn.c_str(), c.x.dtype);
  validate::on_queue(xn.c_str(), c.x.mem, q);
  if (t != DType::F32 && t != DType::F64 && t != DType::C32 && t != DType::C64 && t != DType::F16)
    fail(Status::InvalidType, std::string(packed ? "ap" : "a") + " is " + std::string(dtype_name(t)) +
                                  "; f32, f64, c32, c64 or f16 expected");
  if (c.x.dtype != t)
    fail(Status::InvalidType, std::string(packed ? "ap" : "a") + " is " + std::string(dtype_name(t)) + " but x is " +
                                  std::string(dtype_name(c.x.dtype)));
  validate::dtype_held(an.c_str(), t, q.device().caps());
  check_view(an, c.a);
  check_view(xn, c.x);
  if (c.n == 0) return;
  const std::size_t ea = a_extent(name, c), ex = x_extent(name, c);
  validate::fits(an.c_str(), c.a.count, 0, ea);
  validate::fits(xn.c_str(), c.x.count, 0, ex);
  // x is written while A is read by other work-groups: no shared element.
  if (c.a.mem == c.x.mem && c.a.offset < c.x.offset + ex && c.x.offset < c.a.offset + ea)
    fail(Status::InvalidArgument, std::string(packed ? "ap" : "a") + " (elements " + std::to_string(c.a.offset) +
                                      " to " + std::to_string(c.a.offset + ea - 1) + ") and x (" +
                                      std::to_string(c.x.offset) + " to " + std::to_string(c.x.offset + ex - 1) +
                                      ") overlap in one allocation");
}

KernelArg u64(std::uint64_t v) { return KernelArg::scalar(v); }
KernelArg i32(bool v) { return KernelArg::scalar(std::int32_t(v ? 1 : 0)); }

}  // namespace

Event run_blas_tri(const Queue& q, const BlasTriCall& c, const WaitList& wait, const Params* forced) {
  const Capabilities& caps = q.device().caps();
  const BlasTriFamily& fam = families::blas_tri();
  BlasTriProblem pr;
  pr.dtype = c.a.dtype;
  pr.solve = c.solve;
  pr.n = c.n;
  const Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
  const Geometry g = fam.geometry(p, caps, pr);
  KernelSource src = fam.program(p, pr);
  // A row-major A is the column-major B = A^T: the other triangle, the
  // transposition toggled (conjugation stays).
  const bool row = c.layout == Layout::RowMajor;
  const bool upper = (c.uplo == Triangle::Upper) != row;
  const bool trans = (c.trans != BlasTranspose::No) != row;
  const bool conj = c.trans == BlasTranspose::Conjugate && is_complex(pr.dtype);
  // M = op(B) is upper when B is upper and not transposed, or lower and
  // transposed: then the kernel walks the indices backwards.
  const bool rev = upper != trans;
  const std::uint64_t n = std::uint64_t(c.n);
  const std::uint64_t k = c.form == TriForm::Band ? std::uint64_t(c.k) : n - 1;
  // Element 0 of x: netlib's start for a negative increment.
  const std::uint64_t xb = c.x.offset + (c.incx < 0 ? (n - 1) * magnitude(c.incx) : 0);
  std::vector<KernelArg> args{u64(n), u64(k), KernelArg::buffer(*c.a.mem), u64(c.a.offset),
                              u64(std::uint64_t(c.form == TriForm::Packed ? 1 : c.lda)),
                              KernelArg::scalar(std::int32_t(c.form)), i32(upper), i32(trans), i32(conj),
                              i32(c.diag == Diagonal::Unit), i32(rev), KernelArg::buffer(*c.x.mem), u64(xb),
                              KernelArg::scalar(std::int64_t(c.incx))};
  const std::size_t es = dtype_size(blas_compute_dtype(pr.dtype));  // scratch holds the kernels' TYPE
  const std::size_t blocks = (n + std::size_t(p.at("NB")) - 1) / std::size_t(p.at("NB"));
  EventSpan span;
  if (c.solve) {
    // xs (the solved values), the flags (the ticket counter, the count of
    // solved panels, each panel's helpers done) and the helpers' sums.
    const bool persist = p.at("PERSIST") != 0;
    const std::size_t helpers = persist ? std::size_t(p.at("HELP")) : 0;
    ScratchLease lease =
        lease_scratch(q, {n * es, (2 + blocks) * 4, helpers > 0 ? blocks * helpers * std::size_t(p.at("NB")) * es : es, 0});
    args.push_back(KernelArg::buffer(*lease.slot[0]));
    args.push_back(KernelArg::buffer(*lease.slot[1]));
    KernelPtr kk = compile_kernel(q, src);
    args.push_back(KernelArg::scalar(std::int64_t(-1)));
    args.push_back(KernelArg::scalar(std::uint32_t(helpers)));
    args.push_back(KernelArg::buffer(*lease.slot[2]));
    if (!persist) {
      // One group per panel, in order (the queue runs in order).
      for (std::size_t t = 0; t < blocks; ++t) {
        args[args.size() - 3] = KernelArg::scalar(std::int64_t(t));
        span.add(launch_kernel(q, *kk, args, g, t == 0 ? wait : WaitList{}, &p));
      }
      return span.result();
    }
    span.add(q.fill(Buffer<std::uint32_t>(lease.slot[1], 0, 2 + blocks), std::uint32_t(0), wait));
    span.add(launch_kernel(q, *kk, args, g, {}, &p));
    return span.result();
  }
  // Products: xs, the panels' counters (zeroed by tri_gather), the slices'
  // sums (slices of this band's longest span).
  Geometry mg = g;
  mg.global[1] = BlasTriFamily::mv_slices(p, n, k);
  ScratchLease lease = lease_scratch(q, {n * es, blocks * 4, mg.global[1] > 1 ? mg.global[1] * n * es : es, 0});
  const std::string product = src.entry;  // tri_mv or tri_mv4
  src.entry = "tri_gather";
  KernelPtr gk = compile_kernel(q, src);
  Geometry gg;
  gg.local[0] = std::size_t(p.at("WGS"));
  gg.global[0] = round_up(n, gg.local[0]);
  span.add(launch_kernel(q, *gk,
                         {u64(n), i32(rev), KernelArg::buffer(*c.x.mem), u64(xb), KernelArg::scalar(std::int64_t(c.incx)),
                          KernelArg::buffer(*lease.slot[0]), KernelArg::buffer(*lease.slot[1]), u64(blocks)},
                         gg, wait, &p));
  src.entry = product;
  KernelPtr mk = compile_kernel(q, src);
  args.push_back(KernelArg::buffer(*lease.slot[0]));
  args.push_back(KernelArg::buffer(*lease.slot[2]));
  args.push_back(KernelArg::buffer(*lease.slot[1]));
  args.push_back(u64(std::uint64_t(p.at("SW"))));
  if (product == "tri_mv4") {
    // 4-wide loads of a quad's column: real types, full or band storage not
    // transposed (rows at consecutive addresses), aligned: the quads start
    // at multiples of 4 in solve order, so the first row's offset (with rev,
    // the last row's: n - 1 - i - 3) and the column step must be multiples
    // of 4 elements.
    const std::uint64_t first = c.a.offset + (c.form == TriForm::Band && upper ? k : 0) + (rev ? n : 0);
    const std::uint64_t col = c.form == TriForm::Full ? std::uint64_t(c.lda) : std::uint64_t(c.lda) - 1;
    const bool vec = !is_complex(pr.dtype) && pr.dtype != DType::F16 && c.form != TriForm::Packed && !trans && first % 4 == 0 && col % 4 == 0;
    args.push_back(i32(vec));
  }
  span.add(launch_kernel(q, *mk, args, mg, {}, &p));
  return span.result();
}

Event blas_tri_untyped(const Queue& q, const BlasTriCall& c, const WaitList& wait) {
  trace::Span traced("blas " + blas_tri_name(c));
  if (traced) {
    traced.text("dtype", dtype_name(c.a.dtype));
    traced.number("n", double(c.n));
    traced.number("incx", double(c.incx));
  }
  validate_call(q, c);
  if (c.n == 0) return Event();
  return run_blas_tri(q, c, wait, nullptr);
}

}  // namespace optune::detail

namespace optune {

namespace {

template <class T>
Event tri_call(const Queue& q, bool solve, detail::TriForm form, Layout layout, Triangle uplo, BlasTranspose trans,
               Diagonal diag, std::int64_t n, std::int64_t k, const Buffer<T>& a, std::int64_t lda,
               const Buffer<T>& x, std::int64_t incx, const WaitList& wait) {
  detail::BlasTriCall c;
  c.solve = solve;
  c.form = form;
  c.layout = layout;
  c.uplo = uplo;
  c.trans = trans;
  c.diag = diag;
  c.n = n;
  c.k = k;
  c.lda = lda;
  c.a = detail::blas_vector(a);
  c.x = detail::blas_vector(x);
  c.incx = incx;
  return detail::blas_tri_untyped(q, c, wait);
}

}  // namespace

using detail::TriForm;

template <class T>
Event trmv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, const WaitList& wait) {
  return tri_call(q, false, TriForm::Full, layout, uplo, trans, diag, n, 0, a, lda, x, incx, wait);
}
template <class T>
Event tbmv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           std::int64_t k, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx,
           const WaitList& wait) {
  return tri_call(q, false, TriForm::Band, layout, uplo, trans, diag, n, k, a, lda, x, incx, wait);
}
template <class T>
Event tpmv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& ap, const Buffer<T>& x, std::int64_t incx, const WaitList& wait) {
  return tri_call(q, false, TriForm::Packed, layout, uplo, trans, diag, n, 0, ap, 1, x, incx, wait);
}
template <class T>
Event trsv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx, const WaitList& wait) {
  return tri_call(q, true, TriForm::Full, layout, uplo, trans, diag, n, 0, a, lda, x, incx, wait);
}
template <class T>
Event tbsv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           std::int64_t k, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& x, std::int64_t incx,
           const WaitList& wait) {
  return tri_call(q, true, TriForm::Band, layout, uplo, trans, diag, n, k, a, lda, x, incx, wait);
}
template <class T>
Event tpsv(const Queue& q, Layout layout, Triangle uplo, BlasTranspose trans, Diagonal diag, std::int64_t n,
           const Buffer<T>& ap, const Buffer<T>& x, std::int64_t incx, const WaitList& wait) {
  return tri_call(q, true, TriForm::Packed, layout, uplo, trans, diag, n, 0, ap, 1, x, incx, wait);
}

#define OPTUNE_BLAS_TRI(T)                                                                                        \
  template Event trmv<T>(const Queue&, Layout, Triangle, BlasTranspose, Diagonal, std::int64_t, const Buffer<T>&, \
                         std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);                          \
  template Event tbmv<T>(const Queue&, Layout, Triangle, BlasTranspose, Diagonal, std::int64_t, std::int64_t,     \
                         const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);        \
  template Event tpmv<T>(const Queue&, Layout, Triangle, BlasTranspose, Diagonal, std::int64_t, const Buffer<T>&, \
                         const Buffer<T>&, std::int64_t, const WaitList&);                                        \
  template Event trsv<T>(const Queue&, Layout, Triangle, BlasTranspose, Diagonal, std::int64_t, const Buffer<T>&, \
                         std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);                          \
  template Event tbsv<T>(const Queue&, Layout, Triangle, BlasTranspose, Diagonal, std::int64_t, std::int64_t,     \
                         const Buffer<T>&, std::int64_t, const Buffer<T>&, std::int64_t, const WaitList&);        \
  template Event tpsv<T>(const Queue&, Layout, Triangle, BlasTranspose, Diagonal, std::int64_t, const Buffer<T>&, \
                         const Buffer<T>&, std::int64_t, const WaitList&);
OPTUNE_BLAS_TRI(float)
OPTUNE_BLAS_TRI(double)
OPTUNE_BLAS_TRI(std::complex<float>)
OPTUNE_BLAS_TRI(std::complex<double>)
OPTUNE_BLAS_TRI(half)

}  // namespace optune
