// optune bench blas, level 3: syrk, syr2k, trmm and trsm in f32 and f64 at
// n = 4096 (256 on CPUs), column-major, lower triangle, no transpose, left
// side, unit diagonal (the reference's call in reference/reference_blas.hpp),
// as GFLOP/s and a fraction of the FMA ceiling, against CLBlast (OpenCL) or
// cuBLAS (CUDA) in the same run on the same buffers, results compared.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceilings.hpp"
#include "reference/reference_blas.hpp"

namespace optune::tool {

std::vector<std::string> blas3_tri_case_names();  // "syrk-f32", ...

nlohmann::json bench_blas3_tri(const Queue& q, const Ceilings& c, int runs, bool quiet, ReferenceBlas* ref,
                           const std::string& ref_reason, const std::vector<std::string>& only);

}  // namespace optune::tool
