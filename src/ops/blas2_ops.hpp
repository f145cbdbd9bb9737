// BLAS level 2 below the public templates (optune/blas2.hpp): one untyped
// call that validates and runs every routine, so the templates and the C API
// share its checks.
#pragma once

#include <complex>

#include "kernels/blas/blas2.hpp"
#include "ops/blas1_ops.hpp"
#include "optune/blas2.hpp"

namespace optune::detail {

struct Blas2Call {
  Blas2Routine routine = Blas2Routine::Gemv;
  Layout layout = Layout::ColMajor;
  BlasTranspose trans = BlasTranspose::No;  // gemv, gbmv
  Triangle uplo = Triangle::Upper;          // symmetric / Hermitian routines
  std::int64_t m = 0, n = 0;                // m: gemv, gbmv, ger*; n: every routine
  std::int64_t kl = 0, ku = 0;              // gbmv; sbmv / hbmv take k in kl
  std::complex<double> alpha = 0, beta = 0; // beta: the products; her / hpr: alpha.real()
  BlasVector a, x, y;                       // a: the matrix (packed: ap); y absent for syr, spr, her, hpr
  std::int64_t lda = 0, incx = 1, incy = 1;
};

// Validates (Error naming the routine and the argument), then enqueues.
Event blas2_untyped(const Queue& q, const Blas2Call& call, const WaitList& wait);

// Enqueues a validated call with forced parameters (the tuning case).
Event run_blas2(const Queue& q, const Blas2Call& call, const WaitList& wait, const Params* forced);

}  // namespace optune::detail
