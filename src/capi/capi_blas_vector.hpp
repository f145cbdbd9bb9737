// The C API's BLAS operands: a buffer handle as the ops' BlasVector (its
// memory, type, offset and count), shared by the level-1, level-2,
// triangular and extra routines' entry points.
#pragma once

#include <string>

#include "capi/capi.hpp"
#include "ops/blas1_ops.hpp"

namespace optune::capi {

inline detail::BlasVector blas_vector(optune_buffer b, const std::string& what) {
  const optune_buffer_t& v = need_buffer(b, what.c_str());
  return {v.mem, v.dtype, v.offset, v.count};
}

}  // namespace optune::capi
