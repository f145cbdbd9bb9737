// The rotation-parameter routines of BLAS level 1, on the host: they act on
// scalars. rotg follows LAPACK 3.10's srotg/crotg (scaled by safmin and
// safmax, so no intermediate overflows or underflows); rotmg netlib's srotmg.
#include <algorithm>
#include <cmath>
#include <limits>

#include "optune/blas.hpp"

namespace optune {

namespace {

// safmin: the smallest power of the radix whose reciprocal does not
// overflow (la_constants' safmin), and its reciprocal.
template <class R>
R safmin() {
  return std::ldexp(R(1), std::max(std::numeric_limits<R>::min_exponent - 1, 1 - std::numeric_limits<R>::max_exponent));
}

template <class R>
void rotg_real(R& a, R& b, R& c, R& s) {
  const R smin = safmin<R>(), smax = R(1) / smin;
  const R anorm = std::abs(a), bnorm = std::abs(b);
  if (bnorm == R(0)) {
    c = 1;
    s = 0;
    b = 0;
  } else if (anorm == R(0)) {
    c = 0;
    s = 1;
    a = b;
    b = 1;
  } else {
    const R scl = std::min(smax, std::max({smin, anorm, bnorm}));
    const R sigma = anorm > bnorm ? std::copysign(R(1), a) : std::copysign(R(1), b);
    const R as = a / scl, bs = b / scl;
    const R r = sigma * (scl * std::sqrt(as * as + bs * bs));
    c = a / r;
    s = b / r;
    R z;
    if (anorm > bnorm) z = s;
    else if (c != R(0)) z = R(1) / c;
    else z = 1;
    a = r;
    b = z;
  }
}

template <class R>
R abs2(const std::complex<R>& v) {
  return v.real() * v.real() + v.imag() * v.imag();
}

template <class R>
void rotg_complex(std::complex<R>& a, const std::complex<R>& b, R& c, std::complex<R>& s) {
  using C = std::complex<R>;
  const R smin = safmin<R>(), smax = R(1) / smin, rtmin = std::sqrt(smin);
  const C f = a, g = b;
  C r;
  if (g == C(0)) {
    c = 1;
    s = 0;
    r = f;
  } else if (f == C(0)) {
    c = 0;
    if (g.real() == R(0)) {
      const R d = std::abs(g.imag());
      s = std::conj(g) / d;
      r = d;
    } else if (g.imag() == R(0)) {
      const R d = std::abs(g.real());
      s = std::conj(g) / d;
      r = d;
    } else {
      const R g1 = std::max(std::abs(g.real()), std::abs(g.imag()));
      const R rtmax = std::sqrt(smax / 2);
      if (g1 > rtmin && g1 < rtmax) {
        const R d = std::sqrt(abs2(g));
        s = std::conj(g) / d;
        r = d;
      } else {
        const R u = std::min(smax, std::max(smin, g1));
        const C gs = g / u;
        const R d = std::sqrt(abs2(gs));
        s = std::conj(gs) / d;
        r = d * u;
      }
    }
  } else {
    const R f1 = std::max(std::abs(f.real()), std::abs(f.imag()));
    const R g1 = std::max(std::abs(g.real()), std::abs(g.imag()));
    R rtmax = std::sqrt(smax / 4);
    // The unscaled algorithm where both are well inside the range, else
    // f and g scaled (f separately when much smaller than g), then c and r
    // rescaled.
    const bool unscaled = f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax;
    R u = 1, w = 1;
    C fs = f, gs = g;
    R f2, g2, h2;
    if (unscaled) {
      f2 = abs2(f);
      g2 = abs2(g);
      h2 = f2 + g2;
    } else {
      u = std::min(smax, std::max({smin, f1, g1}));
      gs = g / u;
      g2 = abs2(gs);
      if (f1 / u < rtmin) {
        const R v = std::min(smax, std::max(smin, f1));
        w = v / u;
        fs = f / v;
        f2 = abs2(fs);
        h2 = f2 * w * w + g2;
      } else {
        fs = f / u;
        f2 = abs2(fs);
        h2 = f2 + g2;
      }
    }
    if (f2 >= h2 * smin) {
      c = std::sqrt(f2 / h2);
      r = fs / c;
      rtmax *= 2;
      if (f2 > rtmin && h2 < rtmax) s = std::conj(gs) * (fs / std::sqrt(f2 * h2));
      else s = std::conj(gs) * (r / h2);
    } else {
      const R d = std::sqrt(f2 * h2);
      c = f2 / d;
      if (c >= smin) r = fs / c;
      else r = fs * (h2 / d);
      s = std::conj(gs) * (fs / d);
    }
    if (!unscaled) {
      c *= w;
      r *= u;
    }
  }
  a = r;
}

// netlib's srotmg. One departure: its rescaling loops set h12 = 1 and
// h21 = -1 on every pass where the flag is not 0, which on a second pass
// (flag already -1) overwrites the scaled entries; here they are set only
// when the flag turns explicit (0 or 1 to -1), as the algorithm means.
template <class R>
void rotmg_real(R& d1, R& d2, R& x1, R y1, std::array<R, 5>& param) {
  const R gam = 4096, gamsq = gam * gam, rgamsq = R(1) / gamsq;
  R flag, h11 = 0, h12 = 0, h21 = 0, h22 = 0;
  const auto zero_all = [&] {
    flag = -1;
    h11 = h12 = h21 = h22 = 0;
    d1 = d2 = x1 = 0;
  };
  if (d1 < R(0)) {
    zero_all();
  } else {
    const R p2 = d2 * y1;
    if (p2 == R(0)) {
      param[0] = -2;
      return;
    }
    const R p1 = d1 * x1, q2 = p2 * y1, q1 = p1 * x1;
    if (std::abs(q1) > std::abs(q2)) {
      h21 = -y1 / x1;
      h12 = p2 / p1;
      const R u = R(1) - h12 * h21;
      if (u > R(0)) {
        flag = 0;
        d1 /= u;
        d2 /= u;
        x1 *= u;
      } else {
        zero_all();
      }
    } else if (q2 < R(0)) {
      zero_all();
    } else {
      flag = 1;
      h11 = p1 / p2;
      h22 = x1 / y1;
      const R u = R(1) + h11 * h22;
      const R t = d2 / u;
      d2 = d1 / u;
      d1 = t;
      x1 = y1 * u;
    }
    const auto explicit_h = [&] {
      if (flag == R(0)) {
        h11 = 1;
        h22 = 1;
      } else if (flag == R(1)) {
        h21 = -1;
        h12 = 1;
      }
      flag = -1;
    };
    if (d1 != R(0)) {
      while (d1 <= rgamsq || d1 >= gamsq) {
        explicit_h();
        if (d1 <= rgamsq) {
          d1 *= gam * gam;
          x1 /= gam;
          h11 /= gam;
          h12 /= gam;
        } else {
          d1 /= gam * gam;
          x1 *= gam;
          h11 *= gam;
          h12 *= gam;
        }
      }
    }
    if (d2 != R(0)) {
      while (std::abs(d2) <= rgamsq || std::abs(d2) >= gamsq) {
        explicit_h();
        if (std::abs(d2) <= rgamsq) {
          d2 *= gam * gam;
          h21 /= gam;
          h22 /= gam;
        } else {
          d2 /= gam * gam;
          h21 *= gam;
          h22 *= gam;
        }
      }
    }
  }
  if (flag < R(0)) {
    param[1] = h11;
    param[2] = h21;
    param[3] = h12;
    param[4] = h22;
  } else if (flag == R(0)) {
    param[2] = h21;
    param[3] = h12;
  } else {
    param[1] = h11;
    param[4] = h22;
  }
  param[0] = flag;
}

}  // namespace

void rotg(float& a, float& b, float& c, float& s) { rotg_real(a, b, c, s); }
void rotg(double& a, double& b, double& c, double& s) { rotg_real(a, b, c, s); }
void rotg(std::complex<float>& a, const std::complex<float>& b, float& c, std::complex<float>& s) {
  rotg_complex(a, b, c, s);
}
void rotg(std::complex<double>& a, const std::complex<double>& b, double& c, std::complex<double>& s) {
  rotg_complex(a, b, c, s);
}
void rotmg(float& d1, float& d2, float& x1, float y1, std::array<float, 5>& param) {
  rotmg_real(d1, d2, x1, y1, param);
}
void rotmg(double& d1, double& d2, double& x1, double y1, std::array<double, 5>& param) {
  rotmg_real(d1, d2, x1, y1, param);
}

}  // namespace optune
