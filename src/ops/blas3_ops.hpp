// BLAS level 3 (triangular and rank-k routines) below the public templates
// (optune/blas3_triangular.hpp): one untyped call that validates and runs
// every routine, so the templates, the C API and the tuning case share it.
#pragma once

#include <complex>
#include <memory>

#include "kernels/blas/blas3.hpp"
#include "ops/gemm_ops.hpp"
#include "optune/blas3_triangular.hpp"

namespace optune::detail {

struct Blas3Call {
  Blas3Routine routine = Blas3Routine::Syrk;
  Layout layout = Layout::RowMajor;
  Side side = Side::Left;
  Triangle uplo = Triangle::Upper;
  BlasTranspose trans = BlasTranspose::No;
  Diagonal diag = Diagonal::NonUnit;
  std::int64_t m = 0, n = 0, k = 0;  // syrk ... her2k: n, k; trmm, trsm: m, n
  // Real types: imaginary parts 0 (checked); herk: alpha and beta real,
  // her2k: beta real.
  std::complex<double> alpha = 1, beta = 0;
  GemmMatrix a, b, c;  // syrk, herk: a, c; syr2k, her2k: a, b, c; trmm, trsm: a, b
  std::int64_t lda = 1, ldb = 1, ldc = 1;
  bool batched = false;  // trsm_strided_batched
  std::int64_t stride_a = 0, stride_b = 0, batch = 1;
};

// Validates (Error naming the routine and the argument), then enqueues.
Event blas3_untyped(const Queue& q, const Blas3Call& call, const WaitList& wait);

// Enqueues a validated call that acts (sizes > 0), with forced parameters
// where given (the tuning case).
Event run_blas3(const Queue& q, const Blas3Call& call, const WaitList& wait, const Params* forced);

}  // namespace optune::detail
