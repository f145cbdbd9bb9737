// symm and hemm (optune/blas3.hpp) over untyped matrices: the C++
// templates and the C API share one validation and launch.
#pragma once

#include <complex>

#include "ops/gemm_ops.hpp"
#include "optune/blas3.hpp"

namespace optune::detail {

struct SymmCall {
  const char* what = "symm";  // "symm" or "hemm" (hemm: A Hermitian, complex only)
  bool hermitian = false;
  Layout layout = Layout::RowMajor;
  Side side = Side::Left;
  Triangle triangle = Triangle::Upper;
  std::int64_t m = 0, n = 0;
  std::complex<double> alpha = 1, beta = 0;
  GemmMatrix a, b, c;
  std::int64_t lda = 1, ldb = 1, ldc = 1;
};

// Validates (Error naming the argument and its netlib position), then
// enqueues the expansion of A and the GEMM after `wait`.
Event symm_untyped(const Queue& q, const SymmCall& call, const WaitList& wait);

}  // namespace optune::detail
