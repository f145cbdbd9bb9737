// Complex GEMM (c32, z64 products) as one real GEMM of twice the size: the
// passes of kernels/gemm/gemm_complex.cl pack op(A) (where it is transposed
// or conjugated) and expand alpha op(B) into a real 2k x 2n matrix in the
// queue's scratch (slot 3), a beta with an imaginary part scales C first, and
// run_gemm multiplies with the real type's candidates and tuned parameters.
#pragma once

#include <complex>
#include <vector>

#include "ops/gemm_ops.hpp"

namespace optune::detail {

// A validated complex call in row-major form. `call` is GemmCall as for a
// real product (dtype C32 or C64, sizes, offsets, leading dimensions and
// strides in complex elements, trans_a/trans_b); its real alpha, beta,
// alphas and betas are ignored for the complex ones here.
struct ComplexGemm {
  GemmCall call;
  bool conj_a = false, conj_b = false;
  std::complex<double> alpha = 1, beta = 0;
  std::vector<std::complex<double>> alphas, betas;  // list mode
};

// Enqueues it after `wait`; the Event spans every pass.
Event run_complex_gemm(const Queue& q, const ComplexGemm& z, const WaitList& wait);

}  // namespace optune::detail
