// CLBlast's extra routines below the public templates
// (optune/blas_extra.hpp): one untyped call that validates and runs them,
// shared by the templates and the tuning case.
#pragma once

#include <complex>
#include <vector>

#include "kernels/blas/blas_extra.hpp"
#include "ops/blas1_ops.hpp"
#include "optune/blas_extra.hpp"

namespace optune::detail {

struct BlasExtraCall {
  BlasExtraRoutine routine = BlasExtraRoutine::Had;
  std::int64_t n = 0, m = 0;  // had, axpy_batched: n; omatcopy: A is m x n
  std::complex<double> alpha = 1, beta = 0;
  BlasVector x, y, z;  // had: x, y, z; axpy_batched: x, y; omatcopy: x = A, y = B
  std::int64_t incx = 1, incy = 1, incz = 1;
  Layout layout = Layout::ColMajor;  // omatcopy
  BlasTranspose trans = BlasTranspose::No;
  std::int64_t lda = 1, ldb = 1;
  std::vector<std::complex<double>> alphas;  // axpy_batched
  std::vector<std::int64_t> x_offsets, y_offsets;
  // im2col and col2im (x = im, y = col for both), CLBlast's arguments 1-12.
  KernelMode kernel_mode = KernelMode::CrossCorrelation;
  std::int64_t channels = 0, height = 0, width = 0, kernel_h = 0, kernel_w = 0, pad_h = 0, pad_w = 0, stride_h = 1,
               stride_w = 1, dilation_h = 1, dilation_w = 1;
};

Event blas_extra_untyped(const Queue& q, const BlasExtraCall& call, const WaitList& wait);
Event run_blas_extra(const Queue& q, const BlasExtraCall& call, const WaitList& wait, const Params* forced);

// im2col and col2im (ops/blas_im2col.cpp), which the two above hand them to:
// validation and the quick return of zero sizes, then the launch.
Event blas_patches_untyped(const Queue& q, const BlasExtraCall& call, const WaitList& wait);
Event run_blas_patches(const Queue& q, const BlasExtraCall& call, const WaitList& wait, const Params* forced);

}  // namespace optune::detail
