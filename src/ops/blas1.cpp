// BLAS level 1: validation, the reference's early returns, and the launch of
// the blas1 family's kernels (one pass for the element-wise routines, two
// for the reductions, whose partial states go through per-queue scratch).
#include <cmath>
#include <limits>
#include <numeric>

#include "kernels/families.hpp"
#include "ops/blas1_ops.hpp"
#include "ops/blas_common.hpp"
#include "ops/params.hpp"
#include "ops/tensor.hpp"
#include "ops/validate.hpp"
#include "runtime/event_span.hpp"
#include "runtime/scratch.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {

using R = Blas1Routine;

bool has_y(R r) {
  return r == R::Swap || r == R::Copy || r == R::Axpy || r == R::Rot || r == R::Rotm || r == R::Dot ||
         r == R::Dotu || r == R::Dotc;
}

// Routines that return at once for incx <= 0, as netlib's sscal, sasum and
// isamax (iamin mirrors iamax).
bool stops_on_nonpositive_inc(R r) { return r == R::Scal || r == R::Asum || r == R::Iamax || r == R::Iamin; }

// Whether the call reads or writes anything.
bool acts(const Blas1Call& c) {
  if (c.n <= 0) return false;
  if (stops_on_nonpositive_inc(c.routine) && c.incx <= 0) return false;
  return true;
}

// An output of increment 0: the reference's loop, in order, on one work-item.
bool serial(const Blas1Call& c) {
  const R r = c.routine;
  if (r == R::Swap || r == R::Rot || r == R::Rotm) return c.incx == 0 || c.incy == 0;
  return (r == R::Copy || r == R::Axpy) && c.incy == 0;
}

std::uint64_t magnitude(std::int64_t inc) { return blas_magnitude(inc); }
std::size_t extent(const std::string& what, std::int64_t n, std::int64_t inc) { return blas_extent(what, n, inc); }

DType result_type(R r, DType t) {
  if (r == R::Asum || r == R::Nrm2) return real_dtype(t);
  if (r == R::Iamax || r == R::Iamin) return DType::I32;
  return t;
}

void validate_call(const Queue& q, const Blas1Call& c) {
  if (int(c.routine) < 0 || int(c.routine) > int(R::Iamin))
    throw Error(Status::InvalidArgument, "blas1: routine " + std::to_string(int(c.routine)) + " is not known");
  const std::string name = blas1_routine_name(c.routine);
  const auto arg = [&](const char* a) { return name + ": " + a; };
  const auto fail = [&](Status st, const std::string& msg) { throw Error(st, name + ": " + msg); };
  const DType t = c.x.dtype;
  validate::dtype_known(arg("x").c_str(), t);
  validate::on_queue(arg("x").c_str(), c.x.mem, q);
  if (t != DType::F32 && t != DType::F64 && t != DType::C32 && t != DType::C64 && t != DType::F16)
    fail(Status::InvalidType, "x is " + std::string(dtype_name(t)) + "; f32, f64, c32, c64 or f16 expected");
  const bool cplx = is_complex(t);
  if (c.routine == R::Dot && cplx) fail(Status::InvalidType, "x is complex: use dotu or dotc");
  if ((c.routine == R::Dotu || c.routine == R::Dotc) && !cplx)
    fail(Status::InvalidType, "x is " + std::string(dtype_name(t)) + ": use dot for real vectors");
  if (c.routine == R::Rotm && cplx) fail(Status::InvalidType, "x is complex: rotm takes f32, f64 or f16 vectors");
  if (c.real_alpha && !cplx) fail(Status::InvalidType, "a real alpha of a real vector is plain scal");
  if (has_y(c.routine)) {
    validate::dtype_known(arg("y").c_str(), c.y.dtype);
    validate::on_queue(arg("y").c_str(), c.y.mem, q);
    if (c.y.dtype != t)
      fail(Status::InvalidType,
           "x is " + std::string(dtype_name(t)) + " but y is " + std::string(dtype_name(c.y.dtype)));
  }
  if (blas1_is_reduction(c.routine)) {
    validate::dtype_known(arg("result").c_str(), c.result.dtype);
    validate::on_queue(arg("result").c_str(), c.result.mem, q);
    const DType want = result_type(c.routine, t);
    if (c.result.dtype != want)
      fail(Status::InvalidType, "result is " + std::string(dtype_name(c.result.dtype)) + "; " +
                                    std::string(dtype_name(want)) + " expected");
    validate::fits(arg("result").c_str(), c.result.count, 0, 1);
    check_view(arg("result"), c.result);
  }
  validate::dtype_held(arg("x").c_str(), t, q.device().caps());
  check_view(arg("x"), c.x);
  if (has_y(c.routine)) check_view(arg("y"), c.y);
  if (c.routine == R::Rotm) {
    const double f = c.param[0];
    if (!(f == -2 || f == -1 || f == 0 || f == 1))
      fail(Status::InvalidArgument, "param[0] (the flag) is " + std::to_string(f) + "; -2, -1, 0 or 1 expected");
  }
  if (!acts(c)) return;
  if ((c.routine == R::Iamax || c.routine == R::Iamin) && c.n > std::numeric_limits<std::int32_t>::max())
    fail(Status::Overflow, "n = " + std::to_string(c.n) + " exceeds the int32 index result");
  const std::size_t ex = extent(arg("x (n, incx)"), c.n, c.incx);
  validate::fits(arg("x").c_str(), c.x.count, 0, ex);
  if (!has_y(c.routine)) return;
  const std::size_t ey = extent(arg("y (n, incy)"), c.n, c.incy);
  validate::fits(arg("y").c_str(), c.y.count, 0, ey);
  // Work-items write y (and x) element by element in parallel: x and y may be
  // the very same elements in the same order, or apart. (Calls that run the
  // reference's loop on one work-item, an output of increment 0, take any.)
  if (blas1_is_reduction(c.routine) || serial(c) || c.x.mem != c.y.mem) return;
  const bool same = c.x.offset == c.y.offset && c.incx == c.incy;
  // Apart: disjoint spans, or interleaved (the offsets differ by no multiple
  // of the increments' gcd, so no element is in both).
  const std::uint64_t g = std::gcd(magnitude(c.incx), magnitude(c.incy));
  const std::uint64_t d = c.x.offset > c.y.offset ? c.x.offset - c.y.offset : c.y.offset - c.x.offset;
  const bool apart = c.x.offset + ex <= c.y.offset || c.y.offset + ey <= c.x.offset || (g > 0 && d % g != 0);
  if (!same && !apart)
    fail(Status::InvalidArgument, "x (elements " + std::to_string(c.x.offset) + " to " +
                                      std::to_string(c.x.offset + ex - 1) + ", increment " + std::to_string(c.incx) +
                                      ") and y (" + std::to_string(c.y.offset) + " to " +
                                      std::to_string(c.y.offset + ey - 1) + ", increment " +
                                      std::to_string(c.incy) + ") overlap without being the same vector");
}

// Scalars as the kernel's REAL (TYPE: blas_type_arg).
KernelArg real_arg(DType t, double v) {
  return real_dtype(t) == DType::F64 ? KernelArg::scalar(v) : KernelArg::scalar(float(v));
}

}  // namespace

void check_view(const std::string& name, const BlasVector& v) { check_view(name, *v.mem, v.dtype, v.offset, v.count); }

Event run_blas1(const Queue& q, const Blas1Call& c, const WaitList& wait, const Params* forced) {
  const Capabilities& caps = q.device().caps();
  const Blas1Family& fam = families::blas1();
  const R r = c.routine;
  Blas1Problem pr;
  pr.dtype = c.x.dtype;
  pr.routine = r;
  pr.n = c.n;
  pr.serial = serial(c);
  const Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
  const Geometry g = fam.geometry(p, caps, pr);
  KernelSource src = fam.program(p, pr);
  KernelPtr k = compile_kernel(q, src);
  const DType t = c.x.dtype;
  const auto n = KernelArg::scalar(std::uint64_t(c.n));
  const auto vec = [&](std::vector<KernelArg>& a, const BlasVector& v, std::int64_t inc) {
    a.push_back(KernelArg::buffer(*v.mem));
    a.push_back(KernelArg::scalar(blas_base_of(v, c.n, inc)));
    a.push_back(KernelArg::scalar(std::int64_t(inc)));
  };
  std::vector<KernelArg> args{n};
  if (!blas1_is_reduction(r)) {
    args.push_back(KernelArg::scalar(std::uint64_t(pr.serial ? 1 : g.global[0])));
    if (r == R::Scal) {
      args.push_back(blas_type_arg(t, c.alpha));
      args.push_back(KernelArg::scalar(std::int32_t(c.real_alpha ? 1 : 0)));
    }
    if (r == R::Axpy) args.push_back(blas_type_arg(t, c.alpha));
    vec(args, c.x, c.incx);
    if (has_y(r)) vec(args, c.y, c.incy);
    if (r == R::Rot) {
      args.push_back(real_arg(t, c.c));
      args.push_back(real_arg(t, c.s));
    }
    if (r == R::Rotm) {
      args.push_back(KernelArg::scalar(std::int32_t(c.param[0])));
      for (int i = 1; i < 5; ++i) args.push_back(real_arg(t, c.param[i]));
    }
    return launch_kernel(q, *k, args, g, wait, &p);
  }
  // Reductions: the first pass, then (with several groups) the second.
  const std::size_t groups = fam.reduction_groups(p, caps, pr);
  ScratchLease lease = lease_scratch(q, {groups > 1 ? groups * Blas1Family::partial_bytes(t) : 0, 0, 0, 0});
  const MemImpl& part = groups > 1 ? *lease.slot[0] : *c.result.mem;
  const bool is_min = r == R::Iamin;
  if (r == R::Dot || r == R::Dotu || r == R::Dotc || r == R::Sum)
    args.push_back(KernelArg::scalar(std::int32_t(r == R::Sum ? 2 : r == R::Dotc ? 1 : 0)));
  if (r == R::Iamax || r == R::Iamin) args.push_back(KernelArg::scalar(std::int32_t(is_min)));
  vec(args, c.x, c.incx);
  if (has_y(r)) vec(args, c.y, c.incy);
  if (r == R::Sum) vec(args, c.x, c.incx);  // the kernel's unread y
  args.push_back(KernelArg::buffer(part));
  args.push_back(KernelArg::buffer(*c.result.mem));
  args.push_back(KernelArg::scalar(std::uint64_t(c.result.offset)));
  EventSpan span;
  span.add(launch_kernel(q, *k, args, g, wait, &p));
  if (groups > 1) {
    src.entry = Blas1Family::final_entry(r);
    KernelPtr fk = compile_kernel(q, src);
    std::vector<KernelArg> fargs{KernelArg::scalar(std::uint32_t(groups))};
    if (r == R::Iamax || r == R::Iamin) fargs.push_back(KernelArg::scalar(std::int32_t(is_min)));
    fargs.push_back(KernelArg::buffer(part));
    fargs.push_back(KernelArg::buffer(*c.result.mem));
    fargs.push_back(KernelArg::scalar(std::uint64_t(c.result.offset)));
    Geometry fg;
    fg.local[0] = fg.global[0] = std::size_t(p.at("WGS"));
    span.add(launch_kernel(q, *fk, fargs, fg, {}, &p));
  }
  return span.result();
}

Event blas1_untyped(const Queue& q, const Blas1Call& c, const WaitList& wait) {
  trace::Span traced(std::string("blas ") + blas1_routine_name(c.routine));
  if (traced) {
    traced.text("dtype", dtype_name(c.x.dtype));
    traced.number("n", double(c.n));
    traced.number("incx", double(c.incx));
    if (has_y(c.routine)) traced.number("incy", double(c.incy));
  }
  validate_call(q, c);
  if (!acts(c)) {
    if (!blas1_is_reduction(c.routine)) return Event();
    // The reference's result of an empty reduction: 0 (of any type: zero bytes).
    const std::size_t es = dtype_size(c.result.dtype);
    const std::uint8_t zero = 0;
    return q.fill(Buffer<std::uint8_t>(c.result.mem, c.result.offset * es, es), zero, wait);
  }
  if (c.routine == R::Axpy && std::abs(c.alpha.real()) + std::abs(c.alpha.imag()) == 0) return Event();
  if (c.routine == R::Rotm && c.param[0] == -2) return Event();
  // nrm2 and asum of a contiguous complex vector are the real routine's over
  // its 2n parts, in the same order (the reference sums |re| and |im|, or
  // their squares in Blue's three sums, part by part), so the real kernel's
  // vector loads serve them: complex elements go one by one (c32 nrm2 read
  // at 82% of the copy ceiling on the H100, f32 at 87%).
  if ((c.routine == R::Nrm2 || c.routine == R::Asum) && is_complex(c.x.dtype) && c.incx == 1) {
    Blas1Call parts = c;
    parts.x.dtype = real_dtype(c.x.dtype);
    parts.x.offset *= 2;
    parts.x.count *= 2;
    parts.n *= 2;
    return run_blas1(q, parts, wait, nullptr);
  }
  return run_blas1(q, c, wait, nullptr);
}

}  // namespace optune::detail

namespace optune {

using detail::Blas1Call;
using detail::Blas1Routine;
using detail::blas_vector;

namespace {

template <class T>
Event two_vectors(const Queue& q, Blas1Routine r, std::int64_t n, const Buffer<T>& x, std::int64_t incx,
                  const Buffer<T>& y, std::int64_t incy, const WaitList& wait, Blas1Call c = {}) {
  c.routine = r;
  c.n = n;
  c.x = blas_vector(x);
  c.incx = incx;
  c.y = blas_vector(y);
  c.incy = incy;
  return detail::blas1_untyped(q, c, wait);
}

template <class T, class TR>
Event reduction(const Queue& q, Blas1Routine r, std::int64_t n, const Buffer<T>& x, std::int64_t incx,
                const Buffer<T>* y, std::int64_t incy, const Buffer<TR>& result, const WaitList& wait) {
  Blas1Call c;
  c.routine = r;
  c.n = n;
  c.x = blas_vector(x);
  c.incx = incx;
  if (y) {
    c.y = blas_vector(*y);
    c.incy = incy;
  }
  c.result = blas_vector(result);
  return detail::blas1_untyped(q, c, wait);
}

template <class T>
Event scal_any(const Queue& q, std::int64_t n, std::complex<double> alpha, bool real_alpha, const Buffer<T>& x,
               std::int64_t incx, const WaitList& wait) {
  Blas1Call c;
  c.routine = Blas1Routine::Scal;
  c.n = n;
  c.alpha = alpha;
  c.real_alpha = real_alpha;
  c.x = blas_vector(x);
  c.incx = incx;
  return detail::blas1_untyped(q, c, wait);
}

}  // namespace

template <class T>
Event swap(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const WaitList& wait) {
  return two_vectors(q, Blas1Routine::Swap, n, x, incx, y, incy, wait);
}

template <class T>
Event scal(const Queue& q, std::int64_t n, std::type_identity_t<T> alpha, const Buffer<T>& x, std::int64_t incx,
           const WaitList& wait) {
  return scal_any(q, n, detail::blas_as_complex(alpha), false, x, incx, wait);
}

Event scal(const Queue& q, std::int64_t n, float alpha, const Buffer<std::complex<float>>& x, std::int64_t incx,
           const WaitList& wait) {
  return scal_any(q, n, {double(alpha), 0.0}, true, x, incx, wait);
}

Event scal(const Queue& q, std::int64_t n, double alpha, const Buffer<std::complex<double>>& x, std::int64_t incx,
           const WaitList& wait) {
  return scal_any(q, n, {alpha, 0.0}, true, x, incx, wait);
}

template <class T>
Event copy(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const WaitList& wait) {
  return two_vectors(q, Blas1Routine::Copy, n, x, incx, y, incy, wait);
}

template <class T>
Event axpy(const Queue& q, std::int64_t n, std::type_identity_t<T> alpha, const Buffer<T>& x, std::int64_t incx,
           const Buffer<T>& y, std::int64_t incy, const WaitList& wait) {
  Blas1Call c;
  c.alpha = detail::blas_as_complex(alpha);
  return two_vectors(q, Blas1Routine::Axpy, n, x, incx, y, incy, wait, c);
}

template <class T>
Event dot(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
          std::int64_t incy, const Buffer<T>& result, const WaitList& wait) {
  return reduction(q, Blas1Routine::Dot, n, x, incx, &y, incy, result, wait);
}

template <class T>
Event dotu(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const Buffer<T>& result, const WaitList& wait) {
  return reduction(q, Blas1Routine::Dotu, n, x, incx, &y, incy, result, wait);
}

template <class T>
Event dotc(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const Buffer<T>& result, const WaitList& wait) {
  return reduction(q, Blas1Routine::Dotc, n, x, incx, &y, incy, result, wait);
}

template <class T>
Event nrm2(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<blas_real_t<T>>& result,
           const WaitList& wait) {
  return reduction<T>(q, Blas1Routine::Nrm2, n, x, incx, nullptr, 0, result, wait);
}

template <class T>
Event asum(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<blas_real_t<T>>& result,
           const WaitList& wait) {
  return reduction<T>(q, Blas1Routine::Asum, n, x, incx, nullptr, 0, result, wait);
}

template <class T>
Event sum(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& result,
          const WaitList& wait) {
  return reduction<T>(q, Blas1Routine::Sum, n, x, incx, nullptr, 0, result, wait);
}

template <class T>
Event iamax(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<std::int32_t>& result,
            const WaitList& wait) {
  return reduction<T>(q, Blas1Routine::Iamax, n, x, incx, nullptr, 0, result, wait);
}

template <class T>
Event iamin(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<std::int32_t>& result,
            const WaitList& wait) {
  return reduction<T>(q, Blas1Routine::Iamin, n, x, incx, nullptr, 0, result, wait);
}

template <class T>
Event rot(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
          std::int64_t incy, blas_real_t<T> c, blas_real_t<T> s, const WaitList& wait) {
  Blas1Call call;
  call.c = detail::blas_as_double(c);
  call.s = detail::blas_as_double(s);
  return two_vectors(q, Blas1Routine::Rot, n, x, incx, y, incy, wait, call);
}

template <class T>
Event rotm(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const std::array<T, 5>& param, const WaitList& wait) {
  Blas1Call call;
  for (int i = 0; i < 5; ++i) call.param[i] = detail::blas_as_double(param[i]);
  return two_vectors(q, Blas1Routine::Rotm, n, x, incx, y, incy, wait, call);
}

#define OPTUNE_BLAS1_ALL(T)                                                                                       \
  template Event swap<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,            \
                         std::int64_t, const WaitList&);                                                          \
  template Event scal<T>(const Queue&, std::int64_t, std::type_identity_t<T>, const Buffer<T>&, std::int64_t,     \
                         const WaitList&);                                                                        \
  template Event copy<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,            \
                         std::int64_t, const WaitList&);                                                          \
  template Event axpy<T>(const Queue&, std::int64_t, std::type_identity_t<T>, const Buffer<T>&, std::int64_t,     \
                         const Buffer<T>&, std::int64_t, const WaitList&);                                        \
  template Event nrm2<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t,                              \
                         const Buffer<blas_real_t<T>>&, const WaitList&);                                         \
  template Event asum<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t,                              \
                         const Buffer<blas_real_t<T>>&, const WaitList&);                                         \
  template Event sum<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,             \
                        const WaitList&);                                                                         \
  template Event iamax<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<std::int32_t>&, \
                          const WaitList&);                                                                       \
  template Event iamin<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<std::int32_t>&, \
                          const WaitList&);                                                                       \
  template Event rot<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,             \
                        std::int64_t, blas_real_t<T>, blas_real_t<T>, const WaitList&);
#define OPTUNE_BLAS1_REAL(T)                                                                                      \
  template Event dot<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,             \
                        std::int64_t, const Buffer<T>&, const WaitList&);                                         \
  template Event rotm<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,            \
                         std::int64_t, const std::array<T, 5>&, const WaitList&);
#define OPTUNE_BLAS1_COMPLEX(T)                                                                                   \
  template Event dotu<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,            \
                         std::int64_t, const Buffer<T>&, const WaitList&);                                        \
  template Event dotc<T>(const Queue&, std::int64_t, const Buffer<T>&, std::int64_t, const Buffer<T>&,            \
                         std::int64_t, const Buffer<T>&, const WaitList&);

OPTUNE_BLAS1_ALL(float)
OPTUNE_BLAS1_ALL(double)
OPTUNE_BLAS1_ALL(std::complex<float>)
OPTUNE_BLAS1_ALL(std::complex<double>)
OPTUNE_BLAS1_ALL(half)
OPTUNE_BLAS1_REAL(float)
OPTUNE_BLAS1_REAL(double)
OPTUNE_BLAS1_REAL(half)
OPTUNE_BLAS1_COMPLEX(std::complex<float>)
OPTUNE_BLAS1_COMPLEX(std::complex<double>)

}  // namespace optune
