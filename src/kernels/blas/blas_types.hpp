// The element-type defines and type lists the BLAS families share
// (blas1, blas2, blas_tri, blas_extra, blas3). Half precision (f16) is a
// storage type there: the kernels compute in float (TYPE and REAL float) and
// load and store through vload_half / vstore_half (HALF 1,
// blas/blas_storage.cl), which core OpenCL has, so f16 needs no cl_khr_fp16
// and runs on every device.
#pragma once

#include <string>
#include <vector>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

// The type the kernels compute in: f32 for f16 storage, else the type itself.
inline DType blas_compute_dtype(DType t) { return t == DType::F16 ? DType::F32 : t; }

// TYPE, REAL, COMPLEX and HALF for elements of type t.
inline Defines blas_type_defines(DType t) {
  const DType c = blas_compute_dtype(t);
  return {{"TYPE", c_type_name(c)},
          {"REAL", c_type_name(real_dtype(c))},
          {"COMPLEX", is_complex(c) ? "1" : "0"},
          {"HALF", t == DType::F16 ? "1" : "0"}};
}

// The types a BLAS family serves: s, c and h everywhere, d and z with fp64.
inline std::vector<DType> blas_family_dtypes(const Capabilities& caps) {
  if (caps.fp64) return {DType::F32, DType::F64, DType::C32, DType::C64, DType::F16};
  return {DType::F32, DType::C32, DType::F16};
}

// The widest pack a BLAS kernel reads as one access, in bytes: 16 on GPUs
// (CUDA's widest access, and what NVIDIA's OpenCL was measured with), 32 on
// CPUs (PoCL 3.1, 2-core EPYC, 16 MiB vectors: axpy f32 by packs of 8 399-407
// us against 614-624 by packs of 4; f64 ger by packs of 4 1.09-1.26 ms
// against 1.67-1.75 by 2).
inline std::size_t blas_pack_bytes(const Capabilities& caps) { return caps.type == DeviceType::CPU ? 32 : 16; }

// The program text of a BLAS kernel file: the parts its "check-prepend:"
// line names (blas/blas_storage.cl: the element loads and stores, HALF),
// then the file, as GEMM's sources are assembled.
inline std::string blas_program_text(const std::string& source) {
  return gemm_kernels::program_text(source, Unary::Copy);
}

}  // namespace optune::detail
