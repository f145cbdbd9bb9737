// CLBlast's extra routines (had, omatcopy, axpy_batched): validation and the
// launches of the blas_extra family (blas/blas_extra.cl).
#include <algorithm>
#include <complex>
#include <cstring>
#include <string>

#include "kernels/blas/blas_types.hpp"
#include "ops/blas_common.hpp"
#include "ops/blas_extra_ops.hpp"
#include "ops/params.hpp"
#include "ops/validate.hpp"
#include "runtime/scratch.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {

using R = BlasExtraRoutine;

const char* routine_name(R r) { return r == R::Had ? "had" : r == R::Omatcopy ? "omatcopy" : "axpy_batched"; }

std::uint64_t magnitude(std::int64_t inc) {
  return inc < 0 ? std::uint64_t(0) - std::uint64_t(inc) : std::uint64_t(inc);
}

std::size_t extent(const std::string& what, std::int64_t n, std::int64_t inc) {
  if (n <= 0) return 0;
  return validate::add(what.c_str(), validate::mul(what.c_str(), std::size_t(n - 1), magnitude(inc)), 1);
}

// The index of element 0 of a vector starting `start` elements into its view.
std::uint64_t base_of(std::uint64_t start, std::int64_t n, std::int64_t inc) {
  return start + (inc < 0 && n > 0 ? std::uint64_t(n - 1) * magnitude(inc) : 0);
}

bool spans_meet(std::uint64_t a, std::uint64_t ea, std::uint64_t b, std::uint64_t eb) { return a < b + eb && b < a + ea; }

KernelArg type_arg(DType t, std::complex<double> v) { return blas_type_arg(t, v); }

// Rows and columns of B.
std::pair<std::int64_t, std::int64_t> b_shape(const BlasExtraCall& c) {
  return c.trans == BlasTranspose::No ? std::pair{c.m, c.n} : std::pair{c.n, c.m};
}

std::size_t matrix_span(const std::string& what, Layout layout, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  if (rows == 0 || cols == 0) return 0;
  const std::int64_t outer = layout == Layout::ColMajor ? cols : rows, inner = layout == Layout::ColMajor ? rows : cols;
  return validate::add(what.c_str(), validate::mul(what.c_str(), std::size_t(outer - 1), std::size_t(ld)),
                       std::size_t(inner));
}

void validate_call(const Queue& q, const BlasExtraCall& c) {
  const std::string name = routine_name(c.routine);
  const auto fail = [&](Status st, const std::string& msg) { throw Error(st, name + ": " + msg); };
  const auto buffer = [&](const char* what, const BlasVector& v, DType t) {
    const std::string arg = name + ": " + what;
    validate::dtype_known(arg.c_str(), v.dtype);
    validate::on_queue(arg.c_str(), v.mem, q);
    if (v.dtype != t)
      fail(Status::InvalidType, std::string(what) + " is " + std::string(dtype_name(v.dtype)) + " but the first operand is " +
                                    std::string(dtype_name(t)));
    check_view(arg, v);
  };
  const DType t = c.x.dtype;
  const bool om = c.routine == R::Omatcopy;
  const char* first = om ? "a" : "x";
  validate::dtype_known((name + ": " + first).c_str(), t);
  if (t != DType::F32 && t != DType::F64 && t != DType::C32 && t != DType::C64 && t != DType::F16)
    fail(Status::InvalidType, std::string(first) + " is " + std::string(dtype_name(t)) +
                                  "; f32, f64, c32, c64 or f16 expected");
  buffer(first, c.x, t);
  buffer(om ? "b" : "y", c.y, t);
  if (c.routine == R::Had) buffer("z", c.z, t);
  validate::dtype_held((name + ": " + first).c_str(), t, q.device().caps());
  if (om) {
    if (c.layout != Layout::RowMajor && c.layout != Layout::ColMajor)
      fail(Status::InvalidArgument, "layout is " + std::to_string(int(c.layout)) + "; RowMajor or ColMajor expected");
    if (c.trans != BlasTranspose::No && c.trans != BlasTranspose::Yes && c.trans != BlasTranspose::Conjugate)
      fail(Status::InvalidArgument, "trans is " + std::to_string(int(c.trans)) + "; No, Yes or Conjugate expected");
    validate::non_negative((name + ": m").c_str(), c.m);
    validate::non_negative((name + ": n").c_str(), c.n);
    const auto [rows, cols] = b_shape(c);
    const bool col = c.layout == Layout::ColMajor;
    const std::int64_t need_a = std::max<std::int64_t>(1, col ? c.m : c.n), need_b = std::max<std::int64_t>(1, col ? rows : cols);
    if (c.lda < need_a) fail(Status::InvalidArgument, "lda is " + std::to_string(c.lda) + "; at least " + std::to_string(need_a) + " expected");
    if (c.ldb < need_b) fail(Status::InvalidArgument, "ldb is " + std::to_string(c.ldb) + "; at least " + std::to_string(need_b) + " expected");
    const std::size_t ea = matrix_span(name + ": a (m, n, lda)", c.layout, c.m, c.n, c.lda);
    const std::size_t eb = matrix_span(name + ": b (m, n, ldb)", c.layout, rows, cols, c.ldb);
    validate::fits((name + ": a").c_str(), c.x.count, 0, ea);
    validate::fits((name + ": b").c_str(), c.y.count, 0, eb);
    if (ea && eb && c.x.mem == c.y.mem && spans_meet(c.x.offset, ea, c.y.offset, eb))
      fail(Status::InvalidArgument, "a and b overlap in one allocation");
    return;
  }
  validate::non_negative((name + ": n").c_str(), c.n);
  if (c.incx == 0) fail(Status::InvalidArgument, "incx is 0; a nonzero increment expected");
  if (c.incy == 0) fail(Status::InvalidArgument, "incy is 0; a nonzero increment expected");
  if (c.routine == R::Had) {
    if (c.incz == 0) fail(Status::InvalidArgument, "incz is 0; a nonzero increment expected");
    const std::size_t ex = extent(name + ": x (n, incx)", c.n, c.incx), ey = extent(name + ": y (n, incy)", c.n, c.incy),
                      ez = extent(name + ": z (n, incz)", c.n, c.incz);
    validate::fits((name + ": x").c_str(), c.x.count, 0, ex);
    validate::fits((name + ": y").c_str(), c.y.count, 0, ey);
    validate::fits((name + ": z").c_str(), c.z.count, 0, ez);
    const auto apart = [&](const BlasVector& v, std::size_t ev, std::int64_t inc, const char* what) {
      if (c.n == 0 || v.mem != c.z.mem) return;
      if (v.offset == c.z.offset && inc == c.incz) return;
      if (spans_meet(v.offset, ev, c.z.offset, ez))
        fail(Status::InvalidArgument, std::string(what) + " and z overlap without being the same vector");
    };
    apart(c.x, ex, c.incx, "x");
    apart(c.y, ey, c.incy, "y");
    return;
  }
  // axpy_batched.
  const std::size_t batch = c.alphas.size();
  if (c.x_offsets.size() != batch || c.y_offsets.size() != batch)
    fail(Status::InvalidArgument, "x_offsets (" + std::to_string(c.x_offsets.size()) + ") and y_offsets (" +
                                      std::to_string(c.y_offsets.size()) + ") must have one entry per alpha (" +
                                      std::to_string(batch) + ")");
  if (c.n == 0) return;
  const std::size_t ex = extent(name + ": x (n, incx)", c.n, c.incx), ey = extent(name + ": y (n, incy)", c.n, c.incy);
  struct Span { std::uint64_t at, len; std::size_t b; };
  std::vector<Span> ys;
  for (std::size_t b = 0; b < batch; ++b) {
    if (c.x_offsets[b] < 0 || c.y_offsets[b] < 0)
      fail(Status::InvalidArgument, "batch " + std::to_string(b) + ": a negative offset");
    validate::fits((name + ": x (batch " + std::to_string(b) + ")").c_str(), c.x.count, std::size_t(c.x_offsets[b]), ex);
    validate::fits((name + ": y (batch " + std::to_string(b) + ")").c_str(), c.y.count, std::size_t(c.y_offsets[b]), ey);
    ys.push_back({c.y.offset + std::uint64_t(c.y_offsets[b]), ey, b});
  }
  std::sort(ys.begin(), ys.end(), [](const Span& a, const Span& b) { return a.at < b.at; });
  for (std::size_t i = 1; i < ys.size(); ++i)
    if (ys[i - 1].at + ys[i - 1].len > ys[i].at)
      fail(Status::InvalidArgument, "the y of batches " + std::to_string(ys[i - 1].b) + " and " +
                                        std::to_string(ys[i].b) + " overlap");
  if (c.x.mem != c.y.mem) return;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::uint64_t xa = c.x.offset + std::uint64_t(c.x_offsets[b]);
    auto it = std::upper_bound(ys.begin(), ys.end(), xa, [](std::uint64_t v, const Span& s) { return v < s.at; });
    if (it != ys.begin()) --it;
    for (; it != ys.end() && it->at < xa + ex; ++it) {
      if (!spans_meet(xa, ex, it->at, it->len)) continue;
      if (it->b == b && it->at == xa && c.incx == c.incy) continue;
      fail(Status::InvalidArgument, "the x of batch " + std::to_string(b) + " overlaps the y of batch " +
                                        std::to_string(it->b));
    }
  }
}

}  // namespace

Event run_blas_extra(const Queue& q, const BlasExtraCall& c, const WaitList& wait, const Params* forced) {
  if (is_patches(c.routine)) return run_blas_patches(q, c, wait, forced);
  const Capabilities& caps = q.device().caps();
  const BlasExtraFamily& fam = families::blas_extra();
  BlasExtraProblem pr;
  pr.dtype = c.x.dtype;
  pr.routine = c.routine;
  pr.elements = c.routine == R::Omatcopy ? c.m * c.n : c.n;
  pr.batch = c.routine == R::AxpyBatched ? std::int64_t(c.alphas.size()) : 1;
  const Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
  const Geometry g = fam.geometry(p, caps, pr);
  KernelPtr k = compile_kernel(q, fam.program(p, pr));
  const DType t = pr.dtype;
  const auto u64 = [](std::uint64_t v) { return KernelArg::scalar(v); };
  const auto i64 = [](std::int64_t v) { return KernelArg::scalar(v); };
  if (c.routine == R::Had) {
    const bool read_z = std::abs(c.beta.real()) + std::abs(c.beta.imag()) != 0;
    return launch_kernel(q, *k,
                         {u64(std::uint64_t(c.n)), type_arg(t, c.alpha), type_arg(t, c.beta),
                          KernelArg::scalar(std::int32_t(read_z)), KernelArg::buffer(*c.x.mem),
                          u64(base_of(c.x.offset, c.n, c.incx)), i64(c.incx), KernelArg::buffer(*c.y.mem),
                          u64(base_of(c.y.offset, c.n, c.incy)), i64(c.incy), KernelArg::buffer(*c.z.mem),
                          u64(base_of(c.z.offset, c.n, c.incz)), i64(c.incz)},
                         g, wait, &p);
  }
  if (c.routine == R::Omatcopy) {
    const auto [rows, cols] = b_shape(c);
    const bool col = c.layout == Layout::ColMajor;
    // A's strides in A's indices, then in B's (swapped when op transposes).
    std::uint64_t ars = col ? 1 : std::uint64_t(c.lda), acs = col ? std::uint64_t(c.lda) : 1;
    if (c.trans != BlasTranspose::No) std::swap(ars, acs);
    const std::uint64_t brs = col ? 1 : std::uint64_t(c.ldb), bcs = col ? std::uint64_t(c.ldb) : 1;
    const bool conj = c.trans == BlasTranspose::Conjugate && is_complex(t);
    return launch_kernel(q, *k,
                         {u64(std::uint64_t(rows)), u64(std::uint64_t(cols)), type_arg(t, c.alpha),
                          KernelArg::scalar(std::int32_t(conj)), KernelArg::scalar(std::int32_t(!col)),
                          KernelArg::buffer(*c.x.mem), u64(c.x.offset), u64(ars), u64(acs),
                          KernelArg::buffer(*c.y.mem), u64(c.y.offset), u64(brs), u64(bcs)},
                         g, wait, &p);
  }
  // axpy_batched: the per-batch alphas (as the kernel's TYPE: float for f16)
  // and bases into scratch, then one launch.
  const std::size_t batch = c.alphas.size(), es = dtype_size(blas_compute_dtype(t));
  ScratchLease lease = lease_scratch(q, {batch * es, batch * 8, batch * 8, 0});
  std::vector<std::uint8_t> alphas(batch * es);
  std::vector<std::uint64_t> xbs(batch), ybs(batch);
  for (std::size_t b = 0; b < batch; ++b) {
    const std::complex<double> a = c.alphas[b];
    switch (t) {
      case DType::F64: { const double v = a.real(); std::memcpy(&alphas[b * es], &v, es); break; }
      case DType::C32: { const std::complex<float> v(a); std::memcpy(&alphas[b * es], &v, es); break; }
      case DType::C64: std::memcpy(&alphas[b * es], &a, es); break;
      default: { const float v = float(a.real()); std::memcpy(&alphas[b * es], &v, es); break; }
    }
    xbs[b] = base_of(c.x.offset + std::uint64_t(c.x_offsets[b]), c.n, c.incx);
    ybs[b] = base_of(c.y.offset + std::uint64_t(c.y_offsets[b]), c.n, c.incy);
  }
  q.write(Buffer<std::uint8_t>(lease.slot[0], 0, alphas.size()), std::span<const std::uint8_t>(alphas), wait);
  q.write(Buffer<std::uint64_t>(lease.slot[1], 0, batch), std::span<const std::uint64_t>(xbs));
  q.write(Buffer<std::uint64_t>(lease.slot[2], 0, batch), std::span<const std::uint64_t>(ybs)).wait();
  return launch_kernel(q, *k,
                       {u64(std::uint64_t(c.n)), KernelArg::buffer(*lease.slot[0]), KernelArg::buffer(*lease.slot[1]),
                        i64(c.incx), KernelArg::buffer(*c.x.mem), KernelArg::buffer(*lease.slot[2]), i64(c.incy),
                        KernelArg::buffer(*c.y.mem)},
                       g, {}, &p);
}

Event blas_extra_untyped(const Queue& q, const BlasExtraCall& c, const WaitList& wait) {
  if (is_patches(c.routine)) return blas_patches_untyped(q, c, wait);
  trace::Span traced(std::string("blas ") + routine_name(c.routine));
  if (traced) {
    traced.text("dtype", dtype_name(c.x.dtype));
    traced.number("n", double(c.n));
  }
  validate_call(q, c);
  if (c.n == 0 || (c.routine == R::Omatcopy && c.m == 0) || (c.routine == R::AxpyBatched && c.alphas.empty()))
    return Event();
  return run_blas_extra(q, c, wait, nullptr);
}

}  // namespace optune::detail

namespace optune {

using detail::blas_as_complex;

template <class T>
Event had(const Queue& q, std::int64_t n, std::type_identity_t<T> alpha, const Buffer<T>& x, std::int64_t incx,
          const Buffer<T>& y, std::int64_t incy, std::type_identity_t<T> beta, const Buffer<T>& z, std::int64_t incz,
          const WaitList& wait) {
  detail::BlasExtraCall c;
  c.routine = detail::BlasExtraRoutine::Had;
  c.n = n;
  c.alpha = blas_as_complex(alpha);
  c.beta = blas_as_complex(beta);
  c.x = detail::blas_vector(x);
  c.y = detail::blas_vector(y);
  c.z = detail::blas_vector(z);
  c.incx = incx;
  c.incy = incy;
  c.incz = incz;
  return detail::blas_extra_untyped(q, c, wait);
}

template <class T>
Event omatcopy(const Queue& q, Layout layout, BlasTranspose trans, std::int64_t m, std::int64_t n,
               std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
               std::int64_t ldb, const WaitList& wait) {
  detail::BlasExtraCall c;
  c.routine = detail::BlasExtraRoutine::Omatcopy;
  c.layout = layout;
  c.trans = trans;
  c.m = m;
  c.n = n;
  c.alpha = blas_as_complex(alpha);
  c.x = detail::blas_vector(a);
  c.y = detail::blas_vector(b);
  c.lda = lda;
  c.ldb = ldb;
  return detail::blas_extra_untyped(q, c, wait);
}

template <class T>
Event axpy_batched(const Queue& q, std::int64_t n, std::span<const T> alphas, const Buffer<T>& x,
                   std::span<const std::int64_t> x_offsets, std::int64_t incx, const Buffer<T>& y,
                   std::span<const std::int64_t> y_offsets, std::int64_t incy, const WaitList& wait) {
  detail::BlasExtraCall c;
  c.routine = detail::BlasExtraRoutine::AxpyBatched;
  c.n = n;
  for (const T& a : alphas) c.alphas.push_back(blas_as_complex(a));
  c.x_offsets.assign(x_offsets.begin(), x_offsets.end());
  c.y_offsets.assign(y_offsets.begin(), y_offsets.end());
  c.x = detail::blas_vector(x);
  c.y = detail::blas_vector(y);
  c.incx = incx;
  c.incy = incy;
  return detail::blas_extra_untyped(q, c, wait);
}

#define OPTUNE_BLAS_EXTRA(T)                                                                                      \
  template Event had<T>(const Queue&, std::int64_t, std::type_identity_t<T>, const Buffer<T>&, std::int64_t,      \
                        const Buffer<T>&, std::int64_t, std::type_identity_t<T>, const Buffer<T>&, std::int64_t,  \
                        const WaitList&);                                                                         \
  template Event omatcopy<T>(const Queue&, Layout, BlasTranspose, std::int64_t, std::int64_t,                     \
                             std::type_identity_t<T>, const Buffer<T>&, std::int64_t, const Buffer<T>&,           \
                             std::int64_t, const WaitList&);                                                      \
  template Event axpy_batched<T>(const Queue&, std::int64_t, std::span<const T>, const Buffer<T>&,               \
                                 std::span<const std::int64_t>, std::int64_t, const Buffer<T>&,                   \
                                 std::span<const std::int64_t>, std::int64_t, const WaitList&);
OPTUNE_BLAS_EXTRA(float)
OPTUNE_BLAS_EXTRA(double)
OPTUNE_BLAS_EXTRA(std::complex<float>)
OPTUNE_BLAS_EXTRA(std::complex<double>)
OPTUNE_BLAS_EXTRA(half)

}  // namespace optune
