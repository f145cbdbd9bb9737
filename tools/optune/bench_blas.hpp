// optune bench blas: BLAS level 1 (axpy, dot, nrm2; dotc for c32) in f32, f64
// and c32 on vectors of 256 MiB each (16 MiB on CPUs), well beyond the
// caches, as GB/s (bytes read plus written) and as a fraction of the copy
// ceiling, against CLBlast (OpenCL) or cuBLAS (CUDA) in the same run on the
// same buffers, their results compared. Level 3 (bench_blas3.cpp): cgemm and
// symm (f32) at 4096 (256 on CPUs) as TFLOP/s, in the JSON's "level3" rows.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceilings.hpp"

namespace optune::tool {

// The cases' names ("axpy-f32", ..., "cgemm-c32", "symm-f32"), for --only.
std::vector<std::string> blas_case_names();

class ReferenceBlas;
std::vector<std::string> blas3_case_names();
// The level-3 rows (a JSON array); ref null: ref_reason says why.
nlohmann::json bench_blas3(const Queue& q, const Ceilings& c, int runs, bool quiet, ReferenceBlas* ref,
                           const std::string& ref_reason, const std::vector<std::string>& only);

// runs <= 0 picks by device type (20 on GPUs, 5 on CPUs); reference false
// skips the reference library.
nlohmann::json bench_blas(const Queue& q, const Ceilings& c, int runs, bool quiet, bool reference,
                          const std::vector<std::string>& only = {});

// The triangular level-2 rows (bench_blas_tri.cpp: trmv, trsv in f32, f64,
// c32), appended to rows; bench_blas runs them after level 1.
class ReferenceBlas;
std::vector<std::string> blas_tri_case_names();
void bench_blas_tri(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason, int runs,
                    bool quiet, const std::vector<std::string>& only, nlohmann::json& rows);

}  // namespace optune::tool
