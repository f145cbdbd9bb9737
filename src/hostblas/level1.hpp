// BLAS level 1 over host memory: the routines both interfaces (fortran.cpp,
// cblas.cpp) call, with the reference's quick returns done here, on the
// host, so that no empty operand reaches the device.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hostblas/engine.hpp"
#include "hostblas/inline.hpp"
#include "optune/blas.hpp"

namespace optune::hostblas {

using i64 = std::int64_t;

template <class T>
void swap(const char* name, i64 n, T* x, i64 incx, T* y, i64 incy) {
  if (n <= 0) return;
  run<T>(name, Class::Level1, double(n), [&] { inl::swap(n, x, incx, y, incy); }, [&](Call& c) {
    optune::swap(c.queue(), n, c.inout(x, vec_count(n, incx)), incx, c.inout(y, vec_count(n, incy)), incy);
  });
}

// x = alpha x; A is T, or the real type for csscal / zdscal.
template <class T, class A>
void scal(const char* name, i64 n, A alpha, T* x, i64 incx) {
  if (n <= 0 || incx <= 0) return;
  run<T>(name, Class::Level1, double(n), [&] { inl::scal(n, alpha, x, incx); },
      [&](Call& c) { optune::scal(c.queue(), n, alpha, c.inout(x, vec_count(n, incx)), incx); });
}

template <class T>
void copy(const char* name, i64 n, const T* x, i64 incx, T* y, i64 incy) {
  if (n <= 0) return;
  run<T>(name, Class::Level1, double(n), [&] { inl::copy(n, x, incx, y, incy); }, [&](Call& c) {
    // y is written whole unless its increment leaves gaps (or repeats).
    auto yb = incy == 1 || incy == -1 ? c.out(y, vec_count(n, incy)) : c.inout(y, vec_count(n, incy));
    optune::copy(c.queue(), n, c.in(x, vec_count(n, incx)), incx, yb, incy);
  });
}

template <class T>
void axpy(const char* name, i64 n, T alpha, const T* x, i64 incx, T* y, i64 incy) {
  if (n <= 0 || alpha == T(0)) return;
  run<T>(name, Class::Level1, double(n), [&] { inl::axpy(n, alpha, x, incx, y, incy); }, [&](Call& c) {
    optune::axpy(c.queue(), n, alpha, c.in(x, vec_count(n, incx)), incx, c.inout(y, vec_count(n, incy)), incy);
  });
}

enum class Dot { Real, U, C };

template <class T>
T dot(const char* name, Dot kind, i64 n, const T* x, i64 incx, const T* y, i64 incy) {
  T r{};
  if (n <= 0) return r;
  run<T>(name, Class::Level1, double(n), [&] { r = inl::dot<T>(n, kind == Dot::C, x, incx, y, incy); },
         [&](Call& c) {
    auto xb = c.in(x, vec_count(n, incx));
    auto yb = c.in(y, vec_count(n, incy));
    auto rb = c.out(&r, 1);
    if constexpr (std::is_floating_point_v<T>) {
      optune::dot(c.queue(), n, xb, incx, yb, incy, rb);
    } else if (kind == Dot::U) {
      optune::dotu(c.queue(), n, xb, incx, yb, incy, rb);
    } else {
      optune::dotc(c.queue(), n, xb, incx, yb, incy, rb);
    }
  });
  return r;
}

// sdsdot and dsdot: float vectors, the products summed in double (from
// init: sdsdot's sb). In the caller's thread, the reference's loop; on a
// device, its ddot on the vectors converted to double on the host, in the
// order the increments walk them, plus init.
inline double dsdot(const char* name, i64 n, const float* x, i64 incx, const float* y, i64 incy, double init = 0) {
  if (n <= 0) return init;
  double r = init;
  const auto widen = [n](const float* v, i64 inc) {
    std::vector<double> w(static_cast<std::size_t>(n));
    const i64 step = inc < 0 ? -inc : inc;
    for (i64 i = 0; i < n; ++i) w[std::size_t(i)] = v[(inc < 0 ? n - 1 - i : i) * step];
    return w;
  };
  run<double>(name, Class::Level1, double(n), [&] { r = inl::dot<double>(n, false, x, incx, y, incy, init); },
              [&](Call& c) {
                const std::vector<double> xd = widen(x, incx), yd = widen(y, incy);
                double d = 0;
                optune::dot(c.queue(), n, c.in(xd.data(), xd.size()), 1, c.in(yd.data(), yd.size()), 1,
                            c.out(&d, 1));
                c.finish();
                r = init + d;
              });
  return r;
}

// nrm2 and asum: a real result of T's real type. asum returns 0 for
// incx <= 0; nrm2 (LAPACK 3.10 on, as Debian 12's reference) reads a
// negative increment from the far end and incx = 0 as n times x[0]: those
// calls run in the caller's thread whatever their size (the device routine
// takes positive increments).
template <class T, bool Nrm2>
blas_real_t<T> norm(const char* name, i64 n, const T* x, i64 incx) {
  blas_real_t<T> r = 0;
  if (n <= 0 || (!Nrm2 && incx <= 0)) return r;
  if (Nrm2 && incx <= 0) return inl::nrm2(n, x, incx);
  run<T>(name, Class::Level1, double(n),
         [&] { r = Nrm2 ? inl::nrm2(n, x, incx) : inl::asum(n, x, incx); }, [&](Call& c) {
    auto xb = c.in(x, vec_count(n, incx));
    auto rb = c.out(&r, 1);
    if constexpr (Nrm2) optune::nrm2(c.queue(), n, xb, incx, rb);
    else optune::asum(c.queue(), n, xb, incx, rb);
  });
  return r;
}

// The 0-based index of the first largest |x_i|; -1 where the reference
// returns 0 (n <= 0, incx <= 0).
template <class T>
i64 iamax(const char* name, i64 n, const T* x, i64 incx) {
  if (n <= 0 || incx <= 0) return -1;
  std::int32_t r = 0;
  run<T>(name, Class::Level1, double(n), [&] { r = std::int32_t(inl::iamax(n, x, incx)); }, [&](Call& c) {
    optune::iamax(c.queue(), n, c.in(x, vec_count(n, incx)), incx, c.out(&r, 1));
  });
  return r;
}

template <class T>
void rot(const char* name, i64 n, T* x, i64 incx, T* y, i64 incy, blas_real_t<T> cs, blas_real_t<T> sn) {
  if (n <= 0) return;
  run<T>(name, Class::Level1, double(n), [&] { inl::rot(n, x, incx, y, incy, cs, sn); }, [&](Call& c) {
    optune::rot(c.queue(), n, c.inout(x, vec_count(n, incx)), incx, c.inout(y, vec_count(n, incy)), incy, cs, sn);
  });
}

// rotm with the reference's reading of the flag: -2 returns at once, any
// other negative flag is a full H, a positive one the (h11, 1; -1, h22) form.
template <class T>
void rotm(const char* name, i64 n, T* x, i64 incx, T* y, i64 incy, const T* param) {
  if (n <= 0 || param[0] == T(-2)) return;
  const std::array<T, 5> p{param[0] < 0 ? T(-1) : param[0] == 0 ? T(0) : T(1), param[1], param[2], param[3],
                           param[4]};
  run<T>(name, Class::Level1, double(n), [&] { inl::rotm(n, x, incx, y, incy, p.data()); }, [&](Call& c) {
    optune::rotm(c.queue(), n, c.inout(x, vec_count(n, incx)), incx, c.inout(y, vec_count(n, incy)), incy, p);
  });
}

template <class T>
void rotmg(T* d1, T* d2, T* x1, T y1, T* param) {
  // The reference writes only the entries its flag uses: the others keep
  // the caller's values.
  std::array<T, 5> p{param[0], param[1], param[2], param[3], param[4]};
  optune::rotmg(*d1, *d2, *x1, y1, p);
  for (int i = 0; i < 5; ++i) param[i] = p[std::size_t(i)];
}

// |re| + |im| (scabs1, dcabs1).
template <class R>
R cabs1(const std::complex<R>& z) {
  return (z.real() < 0 ? -z.real() : z.real()) + (z.imag() < 0 ? -z.imag() : z.imag());
}

}  // namespace optune::hostblas
