// BLAS level-2 triangular routines below the public templates
// (optune/blas2_triangular.hpp): one untyped call that validates and runs
// them all, shared by the templates, the C API and the tuning case.
#pragma once

#include "kernels/blas/blas_tri.hpp"
#include "ops/blas1_ops.hpp"
#include "optune/blas2_triangular.hpp"

namespace optune::detail {

enum class TriForm { Full, Band, Packed };

struct BlasTriCall {
  bool solve = false;  // trsv / tbsv / tpsv, else trmv / tbmv / tpmv
  TriForm form = TriForm::Full;
  Layout layout = Layout::ColMajor;
  Triangle uplo = Triangle::Upper;
  BlasTranspose trans = BlasTranspose::No;
  Diagonal diag = Diagonal::NonUnit;
  std::int64_t n = 0, k = 0, lda = 1;  // k: band only; lda: full and band
  BlasVector a, x;
  std::int64_t incx = 1;
};

// "trmv", "tbsv", ...
std::string blas_tri_name(const BlasTriCall& c);

// Validates (Error naming the routine and the argument), then enqueues.
Event blas_tri_untyped(const Queue& q, const BlasTriCall& call, const WaitList& wait);

// Enqueues a validated call with forced parameters (the tuning case).
Event run_blas_tri(const Queue& q, const BlasTriCall& call, const WaitList& wait, const Params* forced);

}  // namespace optune::detail
