// BLAS level 1 on the device, in s (float), d (double), c
// (std::complex<float>) and z (std::complex<double>): the reference BLAS's
// routines with its semantics, plus CLBlast's extras iamin and sum.
// h (optune::half) too: f16 storage, f32 arithmetic, each result rounded
// once (levels 2 and 3: optune/blas2.hpp, blas3_triangular.hpp, ...).
//
// Vectors are Buffer<T> views with an increment: element i of x is
// x[k] with k = i * incx for incx >= 0 and k = (n - 1 - i) * |incx| for
// incx < 0, counted from the view's offset (CLBlast's x_offset is the view's
// offset). So a negative increment walks the vector backwards, as netlib's
// loops do, and an increment of 0 reads (or writes) one element n times.
// The view must hold every element the call addresses:
// (n - 1) * |inc| + 1 of them when n > 0.
//
// Reference semantics, routine by routine (netlib's level-1 routines call no
// xerbla: no increment or size is an error; n <= 0 returns at once):
// - swap, copy, axpy, rot, rotm, dot, dotu, dotc, sum: any increment,
//   0 included. Where an output has increment 0 (copy's y, axpy's y, swap's
//   and rot's x or y) the call runs the reference's loop in order on one
//   work-item, so the result is the reference's (the last write wins; axpy
//   accumulates in order).
// - scal, asum, iamax, iamin: incx <= 0 returns at once (asum, iamax and
//   iamin then write 0), as netlib's sscal, sasum and isamax do.
// - nrm2: as LAPACK 3.10's dnrm2 (Blue's algorithm, three scaled sums of
//   squares: no overflow or underflow on the way); a negative increment
//   walks backwards and 0 repeats the element, as that version does.
// - axpy: alpha == 0 (complex: |re| + |im| == 0) returns at once, y unread.
// - rotm: flag -2 (param[0]) returns at once.
// - scal with a real alpha on a complex vector is csscal / zdscal: each part
//   times alpha (not a complex product, which differs where x holds an
//   infinity or NaN).
// - Reductions write their result into a device buffer (one element at the
//   view's offset), as CLBlast does: dot, dotu, dotc and sum of T; asum and
//   nrm2 of T's real type; iamax and iamin as a 0-based int32 index (the
//   convention of CLBlast and of CBLAS's cblas_isamax: Fortran's 1-based
//   index minus 1, and 0 where the reference returns 0: n <= 0 or
//   incx <= 0). n > 2^31 - 1 is Overflow for iamax and iamin. Empty
//   reductions write their identity: 0.
// - iamax / iamin: the first index of the largest (smallest) |x_i|, with
//   |re| + |im| for complex (icamax's scabs1). NaN as the reference's loop
//   treats it: a NaN at index 0 is the answer, a NaN elsewhere never is.
// - asum of complex: sum of |re| + |im| (scasum). sum: the plain sum
//   (complex: of the complex values), CLBlast's xSUM.
// - dot: real vectors only; dotu (x . y) and dotc (conj(x) . y): complex
//   only. rotm, rotmg: real only. rot on complex vectors is csrot / zdrot
//   (real c and s).
// - rotg and rotmg compute scalars and run on the host (LAPACK 3.10's
//   srotg/crotg, which scale to avoid overflow; netlib's srotmg).
//
// Accuracy: reductions are deterministic (the grid depends only on n and the
// tuned parameters) and sum in T's precision: each work-item sums its slice
// of about n / (G WGS) elements in order, then a tree over the group and one
// over the G groups (G <= 1024, WGS <= 512), so the error of dot and sum is
// at most about (n / (G WGS) + log2(G WGS) + 1) eps sum|x_i y_i| (eps of
// the real type), where netlib's in-order loop has n eps. nrm2 carries the
// same bound relative to its result, with no overflow or underflow.
//
// Overlapping vectors: x and y of swap, copy, axpy, rot and rotm (written
// element by element in parallel) must be the same elements in the same
// order (same offset and increment) or share no element (InvalidArgument
// otherwise); where an output has increment 0 the reference's loop runs in
// order and any overlap gives the reference's result.
//
// Every call validates first and throws optune::Error naming the routine and
// argument: InvalidArgument (an empty buffer, a buffer of another context,
// rotm's flag not -2, -1, 0 or 1, x and y overlapping), BufferTooSmall (a view shorter than what
// n and its increment address, a result view of 0 elements), Overflow
// ((n - 1) |inc| beyond 64 bits, iamax/iamin beyond int32), InvalidType
// (types that differ, a result of the wrong type, dot on complex or dotu /
// dotc on real vectors; bf16), Unsupported (double and
// complex<double> without fp64). Calls are asynchronous; the Event covers
// every kernel the call enqueued (empty when there was nothing to do).
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "optune/runtime.hpp"

namespace optune {

// The real type of T (float for std::complex<float>).
template <class T> struct blas_real { using type = T; };
template <class R> struct blas_real<std::complex<R>> { using type = R; };
template <class T> using blas_real_t = typename blas_real<T>::type;

// x <-> y (s, d, c, z).
template <class T>
Event swap(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const WaitList& wait = {});

// x = alpha x (s, d, c, z).
template <class T>
Event scal(const Queue& q, std::int64_t n, std::type_identity_t<T> alpha, const Buffer<T>& x, std::int64_t incx,
           const WaitList& wait = {});
// x = alpha x with a real alpha on a complex vector (csscal, zdscal).
Event scal(const Queue& q, std::int64_t n, float alpha, const Buffer<std::complex<float>>& x, std::int64_t incx,
           const WaitList& wait = {});
Event scal(const Queue& q, std::int64_t n, double alpha, const Buffer<std::complex<double>>& x, std::int64_t incx,
           const WaitList& wait = {});

// y = x (s, d, c, z).
template <class T>
Event copy(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const WaitList& wait = {});

// y = alpha x + y (s, d, c, z).
template <class T>
Event axpy(const Queue& q, std::int64_t n, std::type_identity_t<T> alpha, const Buffer<T>& x, std::int64_t incx,
           const Buffer<T>& y, std::int64_t incy, const WaitList& wait = {});

// result = x . y (s, d).
template <class T>
Event dot(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
          std::int64_t incy, const Buffer<T>& result, const WaitList& wait = {});
// result = x . y (c, z: cdotu, zdotu).
template <class T>
Event dotu(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const Buffer<T>& result, const WaitList& wait = {});
// result = conj(x) . y (c, z: cdotc, zdotc).
template <class T>
Event dotc(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const Buffer<T>& result, const WaitList& wait = {});

// result = ||x||_2 (snrm2, dnrm2, scnrm2, dznrm2).
template <class T>
Event nrm2(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<blas_real_t<T>>& result,
           const WaitList& wait = {});
// result = sum |x_i| (|re| + |im| for complex).
template <class T>
Event asum(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<blas_real_t<T>>& result,
           const WaitList& wait = {});
// result = sum x_i (CLBlast's xSUM).
template <class T>
Event sum(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& result,
          const WaitList& wait = {});
// result = the 0-based index of the first largest (smallest) |x_i|.
template <class T>
Event iamax(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<std::int32_t>& result,
            const WaitList& wait = {});
template <class T>
Event iamin(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<std::int32_t>& result,
            const WaitList& wait = {});

// x = c x + s y, y = c y - s x (s, d; on c and z: csrot, zdrot).
template <class T>
Event rot(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
          std::int64_t incy, blas_real_t<T> c, blas_real_t<T> s, const WaitList& wait = {});
// (x, y) = H (x, y), H the modified Givens rotation of param (rotmg's
// output: param[0] the flag, then h11, h21, h12, h22) (s, d).
template <class T>
Event rotm(const Queue& q, std::int64_t n, const Buffer<T>& x, std::int64_t incx, const Buffer<T>& y,
           std::int64_t incy, const std::array<T, 5>& param, const WaitList& wait = {});

// Host computations of rotation parameters (as netlib's, in place).
// rotg: c, s and r with [c s; -s c] (a, b) = (r, 0); a becomes r and b the
// reconstruction value z (srotg, drotg).
void rotg(float& a, float& b, float& c, float& s);
void rotg(double& a, double& b, double& c, double& s);
// crotg, zrotg: [c s; -conj(s) c] (a, b) = (r, 0) with real c; a becomes r.
void rotg(std::complex<float>& a, const std::complex<float>& b, float& c, std::complex<float>& s);
void rotg(std::complex<double>& a, const std::complex<double>& b, double& c, std::complex<double>& s);
// rotmg: the modified Givens rotation that zeroes the second component of
// (sqrt(d1) x1, sqrt(d2) y1); d1, d2 and x1 are updated, param receives
// the flag and H as rotm reads it.
void rotmg(float& d1, float& d2, float& x1, float y1, std::array<float, 5>& param);
void rotmg(double& d1, double& d2, double& x1, double y1, std::array<double, 5>& param);

}  // namespace optune
