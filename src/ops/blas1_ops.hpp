// BLAS level 1 below the public templates (optune/blas.hpp): one untyped
// call that validates and runs every routine, so the templates and the C API
// share its checks.
#pragma once

#include <array>
#include <complex>
#include <memory>

#include "kernels/blas/blas1.hpp"
#include "optune/blas.hpp"

namespace optune::detail {

// A vector argument: memory, element type and the view (in elements).
struct BlasVector {
  std::shared_ptr<MemImpl> mem;
  DType dtype = DType::F32;
  std::size_t offset = 0, count = 0;
  bool given() const { return mem != nullptr; }
};

template <class T>
BlasVector blas_vector(const Buffer<T>& b) {
  return {b.mem(), dtype_of_v<T>, b.offset(), b.size()};
}

// Throws BufferTooSmall (naming the operand) where the view claims more than
// its allocation holds, as a hand-made Buffer<T>(mem, offset, count) may:
// every BLAS routine's operands, after their types are checked.
void check_view(const std::string& name, const BlasVector& v);

struct Blas1Call {
  Blas1Routine routine = Blas1Routine::Axpy;
  std::int64_t n = 0;
  BlasVector x, y, result;  // y and result where the routine has them
  std::int64_t incx = 1, incy = 1;
  std::complex<double> alpha = 0;  // scal, axpy
  bool real_alpha = false;         // scal of a complex vector by alpha.real() (csscal, zdscal)
  double c = 0, s = 0;             // rot
  std::array<double, 5> param{};   // rotm
};

// Validates (Error naming the routine and the argument), then enqueues.
Event blas1_untyped(const Queue& q, const Blas1Call& call, const WaitList& wait);

// Enqueues a validated call with forced parameters (the tuning case).
Event run_blas1(const Queue& q, const Blas1Call& call, const WaitList& wait, const Params* forced);

}  // namespace optune::detail
