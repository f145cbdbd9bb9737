// The host interface's in-thread tier (docs/DESIGN.md "Host BLAS interface"):
// BLAS routines as compiled C++ loops over the caller's memory, for the calls
// whose work is below the class's in-thread threshold (engine.hpp, run() with
// two functions). No OpenCL or CUDA call, no allocation.
//
// Each follows the reference BLAS's (netlib, LAPACK 3.11) semantics and
// operation order: the same loops in the same nesting, sums taken left to
// right, beta == 0 writing zeros without reading, negative increments
// starting at the far end. Complex products are written out as Fortran forms
// them (no C99 Annex G NaN recovery), so results agree with the reference to
// the rounding of its own operations. Argument checks and quick returns
// (n <= 0, alpha == 0, ...) are the wrappers' (level1.hpp, level2.hpp,
// level3.hpp): these assume valid arguments.
//
// Everything is generic over T (float, double, std::complex of either);
// level 2 and 3 take a Conj flag per operand for the complex forms (gemv 'C',
// gerc, gemm 'C').
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace optune::hostblas::inl {

using i64 = std::int64_t;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;
template <class T> inline constexpr bool is_complex_v = !std::is_same_v<T, real_t<T>>;

// Fortran's complex product (the plain formula); a scalar of the real type
// scales both parts.
template <class T> inline T mul(const T& a, const T& b) {
  if constexpr (is_complex_v<T>)
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else return a * b;
}
template <class R> inline std::complex<R> mul(R a, const std::complex<R>& b) {
  return std::complex<R>(a * b.real(), a * b.imag());
}
template <class T> inline T conj_if(const T& a, bool c) {
  if constexpr (is_complex_v<T>) return c ? std::conj(a) : a;
  else return a;
}

// Where the reference starts a vector of n with increment inc (0-based): its
// far end for a negative increment.
inline i64 first(i64 n, i64 inc) { return inc < 0 ? (1 - n) * inc : 0; }

// ---- level 1 ----

template <class T> void swap(i64 n, T* x, i64 incx, T* y, i64 incy) {
  if (incx == 1 && incy == 1) {
    for (i64 i = 0; i < n; ++i) {
      const T t = x[i];
      x[i] = y[i];
      y[i] = t;
    }
    return;
  }
  for (i64 i = 0, ix = first(n, incx), iy = first(n, incy); i < n; ++i, ix += incx, iy += incy) {
    const T t = x[ix];
    x[ix] = y[iy];
    y[iy] = t;
  }
}

// x = alpha x (incx > 0); A is T or T's real type (csscal, zdscal).
template <class T, class A> void scal(i64 n, A alpha, T* x, i64 incx) {
  if (incx == 1) {
    for (i64 i = 0; i < n; ++i) x[i] = mul(alpha, x[i]);
    return;
  }
  for (i64 i = 0; i < n; ++i) x[i * incx] = mul(alpha, x[i * incx]);
}

template <class T> void copy(i64 n, const T* x, i64 incx, T* y, i64 incy) {
  if (incx == 1 && incy == 1) {
    for (i64 i = 0; i < n; ++i) y[i] = x[i];
    return;
  }
  for (i64 i = 0, ix = first(n, incx), iy = first(n, incy); i < n; ++i, ix += incx, iy += incy) y[iy] = x[ix];
}

template <class T> void axpy(i64 n, T alpha, const T* x, i64 incx, T* y, i64 incy) {
  if (incx == 1 && incy == 1) {
    for (i64 i = 0; i < n; ++i) y[i] += mul(alpha, x[i]);
    return;
  }
  for (i64 i = 0, ix = first(n, incx), iy = first(n, incy); i < n; ++i, ix += incx, iy += incy)
    y[iy] += mul(alpha, x[ix]);
}

// sum conj?(x_i) y_i, left to right; S the accumulator's type (double for
// dsdot / sdsdot over float vectors), starting at init.
template <class S, class T> S dot(i64 n, bool conj, const T* x, i64 incx, const T* y, i64 incy, S init = S(0)) {
  S s = init;
  for (i64 i = 0, ix = first(n, incx), iy = first(n, incy); i < n; ++i, ix += incx, iy += incy) {
    if constexpr (is_complex_v<T>) s += mul(conj_if(x[ix], conj), y[iy]);
    else s += S(x[ix]) * S(y[iy]);
  }
  return s;
}

// |re| + |im| for complex T, |x| for real T (asum's and iamax's measure).
template <class T> inline real_t<T> abs1(const T& v) {
  if constexpr (is_complex_v<T>) return std::abs(v.real()) + std::abs(v.imag());
  else return std::abs(v);
}

template <class T> real_t<T> asum(i64 n, const T* x, i64 incx) {
  real_t<T> s = 0;
  for (i64 i = 0; i < n; ++i) s += abs1(x[i * incx]);
  return s;
}

// The 0-based index of the first largest abs1 (n >= 1, incx > 0).
template <class T> i64 iamax(i64 n, const T* x, i64 incx) {
  i64 best = 0;
  real_t<T> top = abs1(x[0]);
  for (i64 i = 1; i < n; ++i) {
    const real_t<T> v = abs1(x[i * incx]);
    if (v > top) {
      best = i;
      top = v;
    }
  }
  return best;
}

// The reference's nrm2 (LAPACK 3.10 on: Blue's algorithm, Anderson 2017):
// squares summed in three accumulators, of small, medium and big values each
// scaled so that no square under- or overflows, then combined.
template <class T> real_t<T> nrm2(i64 n, const T* x, i64 incx) {
  using R = real_t<T>;
  using lim = std::numeric_limits<R>;
  // Fortran's minexponent / maxexponent are C's min_exponent / max_exponent.
  const int emin = lim::min_exponent, emax = lim::max_exponent, dig = lim::digits;
  const R tsml = std::ldexp(R(1), int(std::ceil((emin - 1) * 0.5)));
  const R tbig = std::ldexp(R(1), int(std::floor((emax - dig + 1) * 0.5)));
  const R ssml = std::ldexp(R(1), -int(std::floor((emin - dig) * 0.5)));
  const R sbig = std::ldexp(R(1), -int(std::ceil((emax + dig - 1) * 0.5)));
  const R maxn = lim::max();
  bool notbig = true;
  R asml = 0, amed = 0, abig = 0;
  const auto add = [&](R v) {
    const R ax = std::abs(v);
    if (ax > tbig) {
      abig += (ax * sbig) * (ax * sbig);
      notbig = false;
    } else if (ax < tsml) {
      if (notbig) asml += (ax * ssml) * (ax * ssml);
    } else {
      amed += ax * ax;
    }
  };
  for (i64 i = 0, ix = first(n, incx); i < n; ++i, ix += incx) {
    if constexpr (is_complex_v<T>) {
      add(x[ix].real());
      add(x[ix].imag());
    } else {
      add(x[ix]);
    }
  }
  R scl = 1, sumsq = amed;
  if (abig > 0) {
    if (amed > 0 || amed > maxn || amed != amed) abig += (amed * sbig) * sbig;
    scl = R(1) / sbig;
    sumsq = abig;
  } else if (asml > 0) {
    if (amed > 0 || amed > maxn || amed != amed) {
      amed = std::sqrt(amed);
      asml = std::sqrt(asml) / ssml;
      const R ymin = asml > amed ? amed : asml, ymax = asml > amed ? asml : amed;
      scl = 1;
      sumsq = ymax * ymax * (R(1) + (ymin / ymax) * (ymin / ymax));
    } else {
      scl = R(1) / ssml;
      sumsq = asml;
    }
  }
  return scl * std::sqrt(sumsq);
}

// (x, y) = (c x + s y, c y - s x), c and s real.
template <class T> void rot(i64 n, T* x, i64 incx, T* y, i64 incy, real_t<T> c, real_t<T> s) {
  for (i64 i = 0, ix = first(n, incx), iy = first(n, incy); i < n; ++i, ix += incx, iy += incy) {
    const T t = mul(c, x[ix]) + mul(s, y[iy]);
    y[iy] = mul(c, y[iy]) - mul(s, x[ix]);
    x[ix] = t;
  }
}

// The modified rotation, p = (flag, h11, h21, h12, h22) with flag -1 (full
// H), 0 (unit diagonal) or 1 (unit off-diagonal), as level1.hpp's rotm
// normalises it.
template <class T> void rotm(i64 n, T* x, i64 incx, T* y, i64 incy, const T* p) {
  const T h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];
  for (i64 i = 0, ix = first(n, incx), iy = first(n, incy); i < n; ++i, ix += incx, iy += incy) {
    const T w = x[ix], z = y[iy];
    if (p[0] < 0) {
      x[ix] = w * h11 + z * h12;
      y[iy] = w * h21 + z * h22;
    } else if (p[0] == 0) {
      x[ix] = w + z * h12;
      y[iy] = w * h21 + z;
    } else {
      x[ix] = w * h11 + z;
      y[iy] = -w + h22 * z;
    }
  }
}

// ---- level 2 ----

// y = alpha op(A) x + beta y, A m x n column-major; op = A (trans 'N'), A^T
// ('T') or A^H ('C'). The reference's order: y scaled first (beta == 0
// zeroes it unread), then column by column for 'N' (an axpy per column) or
// one dot per element of y for 'T' / 'C'.
template <class T> void gemv(char trans, i64 m, i64 n, T alpha, const T* a, i64 lda, const T* x, i64 incx, T beta,
                             T* y, i64 incy) {
  const bool notr = trans == 'N', cj = trans == 'C';
  const i64 lenx = notr ? n : m, leny = notr ? m : n;
  if (beta != T(1)) {
    for (i64 i = 0, iy = first(leny, incy); i < leny; ++i, iy += incy) y[iy] = beta == T(0) ? T(0) : mul(beta, y[iy]);
  }
  if (alpha == T(0)) return;
  if (notr) {
    for (i64 j = 0, jx = first(lenx, incx); j < n; ++j, jx += incx) {
      const T t = mul(alpha, x[jx]);
      const T* col = a + j * lda;
      if (incy == 1) {
        for (i64 i = 0; i < m; ++i) y[i] += mul(t, col[i]);
      } else {
        for (i64 i = 0, iy = first(leny, incy); i < m; ++i, iy += incy) y[iy] += mul(t, col[i]);
      }
    }
  } else {
    for (i64 j = 0, jy = first(leny, incy); j < n; ++j, jy += incy) {
      const T* col = a + j * lda;
      T t(0);
      for (i64 i = 0, ix = first(lenx, incx); i < m; ++i, ix += incx) t += mul(conj_if(col[i], cj), x[ix]);
      y[jy] += mul(alpha, t);
    }
  }
}

// A += alpha x y^T (conj_y: y^H, gerc), A m x n column-major.
template <class T> void ger(bool conj_y, i64 m, i64 n, T alpha, const T* x, i64 incx, const T* y, i64 incy, T* a,
                            i64 lda) {
  const i64 kx = first(m, incx);
  for (i64 j = 0, jy = first(n, incy); j < n; ++j, jy += incy) {
    const T t = mul(alpha, conj_if(y[jy], conj_y));
    T* col = a + j * lda;
    if (incx == 1) {
      for (i64 i = 0; i < m; ++i) col[i] += mul(x[i], t);
    } else {
      for (i64 i = 0, ix = kx; i < m; ++i, ix += incx) col[i] += mul(x[ix], t);
    }
  }
}

// ---- level 3 ----

// C = alpha op(A) op(B) + beta C, column-major, op by 'N', 'T' or 'C' (upper
// case). The reference's four loop orders: with B not transposed, C's
// column j is scaled and then gathers an axpy per column of op(A) (A 'N') or
// is a dot per element (A 'T' / 'C'); likewise with B transposed.
template <class T> void gemm(char transa, char transb, i64 m, i64 n, i64 k, T alpha, const T* a, i64 lda, const T* b,
                             i64 ldb, T beta, T* c, i64 ldc) {
  const bool nota = transa == 'N', notb = transb == 'N', ca = transa == 'C', cb = transb == 'C';
  // op(B)(l, j).
  const auto bv = [&](i64 l, i64 j) { return notb ? b[l + j * ldb] : conj_if(b[j + l * ldb], cb); };
  for (i64 j = 0; j < n; ++j) {
    T* cj = c + j * ldc;
    if (nota) {
      if (beta == T(0)) {
        for (i64 i = 0; i < m; ++i) cj[i] = T(0);
      } else if (beta != T(1)) {
        for (i64 i = 0; i < m; ++i) cj[i] = mul(beta, cj[i]);
      }
      for (i64 l = 0; l < k; ++l) {
        const T t = mul(alpha, bv(l, j));
        const T* al = a + l * lda;
        for (i64 i = 0; i < m; ++i) cj[i] += mul(t, al[i]);
      }
    } else {
      for (i64 i = 0; i < m; ++i) {
        const T* ai = a + i * lda;
        T t(0);
        if (notb) {
          const T* bj = b + j * ldb;
          for (i64 l = 0; l < k; ++l) t += mul(conj_if(ai[l], ca), bj[l]);
        } else {
          for (i64 l = 0; l < k; ++l) t += mul(conj_if(ai[l], ca), bv(l, j));
        }
        cj[i] = beta == T(0) ? mul(alpha, t) : mul(alpha, t) + mul(beta, cj[i]);
      }
    }
  }
}

}  // namespace optune::hostblas::inl
