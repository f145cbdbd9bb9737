// BLAS level 2's routines described for the host: which storage, vectors
// and types each takes, the logical matrix's size, and the reference's quick
// returns (shared by the launch in blas2.cpp and the argument checks in
// blas2_validate.cpp).
#pragma once

#include <complex>
#include <cstdint>

#include "ops/blas2_ops.hpp"

namespace optune::detail::blas2_routines {

using R = Blas2Routine;

inline bool is_packed(R r) { return r == R::Spmv || r == R::Hpmv || r == R::Spr || r == R::Hpr || r == R::Spr2 || r == R::Hpr2; }
inline bool is_general(R r) { return r == R::Gemv || r == R::Gbmv || r == R::Ger || r == R::Geru || r == R::Gerc; }
inline bool has_y(R r) { return r != R::Syr && r != R::Spr && r != R::Her && r != R::Hpr; }
inline bool has_lda(R r) { return !is_packed(r); }
inline bool is_hermitian(R r) {
  return r == R::Hemv || r == R::Hbmv || r == R::Hpmv || r == R::Her || r == R::Hpr || r == R::Her2 || r == R::Hpr2;
}
// 0: any type; 1: real only; 2: complex only.
inline int type_kind(R r) {
  if (r == R::Gemv || r == R::Gbmv) return 0;
  if (is_hermitian(r) || r == R::Geru || r == R::Gerc) return 2;
  return 1;
}

// The logical matrix's size: rows (y's length) and cols (x's length) of a
// product; rows x cols of an update.
inline std::int64_t rows_of(const Blas2Call& c) {
  if (c.routine == R::Gemv || c.routine == R::Gbmv) return c.trans == BlasTranspose::No ? c.m : c.n;
  if (is_general(c.routine)) return c.m;
  return c.n;
}
inline std::int64_t cols_of(const Blas2Call& c) {
  if (c.routine == R::Gemv || c.routine == R::Gbmv) return c.trans == BlasTranspose::No ? c.n : c.m;
  return c.n;
}

inline bool is_zero(std::complex<double> v) { return v.real() == 0 && v.imag() == 0; }

// Whether the call reads or writes anything (the reference's quick returns).
inline bool acts(const Blas2Call& c) {
  if (rows_of(c) == 0 || cols_of(c) == 0) return false;
  if (blas2_is_product(c.routine)) return !(is_zero(c.alpha) && c.beta == std::complex<double>(1, 0));
  return !is_zero(c.alpha);
}

}  // namespace optune::detail::blas2_routines

namespace optune::detail {

// netlib's checks of a call, with its argument positions (xerbla's INFO):
// throws Error naming the routine and the argument (blas2_validate.cpp).
void validate_blas2_call(const Queue& q, const Blas2Call& c);

}  // namespace optune::detail
