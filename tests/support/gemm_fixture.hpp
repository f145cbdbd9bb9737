// What the GEMM tests share: the double-precision check (reference/
// gemm_check.hpp), running a chosen candidate kernel with forced parameters,
// and no cache file (many kernel variants: PoCL would compile each twice,
// once for the cache file's binary, see test_reduce).
#pragma once

#include <cstdlib>
#include <string>

#include "kernels/families.hpp"
#include "ops/gemm_ops.hpp"
#include "reference/gemm_check.hpp"
#include "support/test_support.hpp"

namespace optune::test {

inline const int kGemmNoCacheFile = setenv("OPTUNE_CACHE", "off", 0);

// The candidate ("direct", "tiled"; "" for the routine's choice), with its
// family's parameters when given.
inline detail::GemmForce force(const std::string& candidate, const detail::Params* params = nullptr) {
  detail::GemmForce f;
  f.candidate = candidate;
  if (params) f.params[candidate == "direct" ? "gemm_direct" : "gemm_tiled"] = *params;
  return f;
}

// The routine's choice under forced gemm_routine parameters.
inline detail::GemmForce force_routine(const detail::Params& routine) {
  detail::GemmForce f;
  f.params["gemm_routine"] = routine;
  return f;
}

// The GemmProblem of a dense row-major call (no memory attached).
inline detail::GemmProblem dense_problem(DType t, std::int64_t m, std::int64_t n, std::int64_t k,
                                         std::int64_t batch = 1) {
  detail::GemmCall call;
  call.dtype = t;
  call.m = m, call.n = n, call.k = k, call.batch = batch;
  call.a.ld = k, call.b.ld = n, call.c.ld = n;
  return detail::gemm_problem(call);
}

}  // namespace optune::test
