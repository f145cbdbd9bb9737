// A double-precision reference of im2col and col2im (optune/blas_extra.hpp)
// in CLBlast's formulation: a loop over channels, patches and kernel taps,
// col2im scattering where the kernel gathers. Shared by test_blas_im2col
// and test_oclgrind.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "optune/blas_extra.hpp"

namespace optune::ref {

struct Im2colShape {
  std::int64_t c, h, w, kh, kw, ph, pw, sh, sw, dh, dw;
  std::int64_t out_rows() const { return im2col_output_size(h, kh, ph, sh, dh); }
  std::int64_t out_cols() const { return im2col_output_size(w, kw, pw, sw, dw); }
  std::size_t im_size() const { return std::size_t(c * h * w); }
  std::size_t col_size() const { return std::size_t(c * kh * kw * out_rows() * out_cols()); }
};

// Calls f(image index or -1 in the padding, col index) for every tap of
// every patch; the row within the channel is KH KW - 1 - (kh KW + kw) in
// convolution mode.
template <class F>
void for_each_tap(const Im2colShape& s, KernelMode mode, F&& f) {
  const std::int64_t oh = s.out_rows(), ow = s.out_cols();
  for (std::int64_t c = 0; c < s.c; ++c)
    for (std::int64_t oy = 0; oy < oh; ++oy)
      for (std::int64_t ox = 0; ox < ow; ++ox)
        for (std::int64_t kh = 0; kh < s.kh; ++kh)
          for (std::int64_t kw = 0; kw < s.kw; ++kw) {
            const std::int64_t k = mode == KernelMode::Convolution ? s.kh * s.kw - 1 - (kh * s.kw + kw) : kh * s.kw + kw;
            const std::int64_t iy = oy * s.sh - s.ph + kh * s.dh, ix = ox * s.sw - s.pw + kw * s.dw;
            const bool in = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
            f(in ? (c * s.h + iy) * s.w + ix : -1, ((c * s.kh * s.kw + k) * oh + oy) * ow + ox);
          }
}

using Cd = std::complex<double>;

inline std::vector<Cd> im2col(const Im2colShape& s, KernelMode mode, const std::vector<Cd>& im) {
  std::vector<Cd> col(s.col_size());
  for_each_tap(s, mode, [&](std::int64_t i, std::int64_t j) { col[std::size_t(j)] = i < 0 ? Cd(0) : im[std::size_t(i)]; });
  return col;
}

// im + the patches' sums; magnitude (when given) gets |im| + the sum of the
// added terms' magnitudes per element, the scale of its rounding error.
inline std::vector<Cd> col2im(const Im2colShape& s, KernelMode mode, const std::vector<Cd>& col, std::vector<Cd> im,
                              std::vector<double>* magnitude = nullptr) {
  if (magnitude) {
    magnitude->assign(im.size(), 0.0);
    for (std::size_t i = 0; i < im.size(); ++i) (*magnitude)[i] = std::abs(im[i]);
  }
  for_each_tap(s, mode, [&](std::int64_t i, std::int64_t j) {
    if (i < 0) return;
    im[std::size_t(i)] += col[std::size_t(j)];
    if (magnitude) (*magnitude)[std::size_t(i)] += std::abs(col[std::size_t(j)]);
  });
  return im;
}

}  // namespace optune::ref
