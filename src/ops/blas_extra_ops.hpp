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
};

Event blas_extra_untyped(const Queue& q, const BlasExtraCall& call, const WaitList& wait);
Event run_blas_extra(const Queue& q, const BlasExtraCall& call, const WaitList& wait, const Params* forced);

}  // namespace optune::detail
