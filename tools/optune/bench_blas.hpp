// optune bench blas: BLAS level 1 (axpy, dot, nrm2; dotc for c32) and level 2
// (gemv, gemv_t, ger, symv; geru and hemv for c32) in f32, f64
// and c32 (and h: f16 storage, f32 arithmetic; against cuBLAS's Ex routines
// where it has them, see reference/cublas.cpp) on vectors of 256 MiB each
// (16 MiB on CPUs), well beyond the caches, as GB/s (bytes read plus written) and as a fraction of the copy
// ceiling, against CLBlast (OpenCL) or cuBLAS (CUDA) in the same run on the
// same buffers, their results compared. Level 3 (bench_blas3.cpp): cgemm and
// symm (f32) at 4096 (256 on CPUs) as TFLOP/s, in the JSON's "level3" rows.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "ceilings.hpp"
#include "common.hpp"

namespace optune::tool {

// The cases' names ("axpy-f32", ..., "cgemm-c32", "symm-f32"), for --only.
std::vector<std::string> blas_case_names();

class ReferenceBlas;
std::vector<std::string> blas3_case_names();
// The level-3 rows (a JSON array); ref null: ref_reason says why.
nlohmann::json bench_blas3(const Queue& q, const Ceilings& c, int runs, bool quiet, ReferenceBlas* ref,
                           const std::string& ref_reason, const std::vector<std::string>& only);

// runs <= 0 picks by device type (20 on GPUs, 5 on CPUs); reference false
// skips the reference library; mib: level 1's vectors and level 2's matrices
// in MiB (0: 256 on GPUs, 16 on CPUs).
nlohmann::json bench_blas(const Queue& q, const Ceilings& c, int runs, bool quiet, bool reference,
                          const std::vector<std::string>& only = {}, std::size_t mib = 0);

// The triangular level-2 rows (bench_blas_tri.cpp: trmv, trsv in f32, f64,
// c32), appended to rows; bench_blas runs them after level 1.
class ReferenceBlas;
std::vector<std::string> blas_tri_case_names();
void bench_blas_tri(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason, int runs,
                    bool quiet, const std::vector<std::string>& only, nlohmann::json& rows);
// Level 2 (bench_blas2.cpp): gemv in both orders, ger (geru), symv (hemv) on
// matrices of matrix_bytes, against the reference when given; bench_blas's
// "level2".
class ReferenceBlas;
std::vector<std::string> blas2_case_names();
nlohmann::json bench_blas2(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                           int runs, bool quiet, const std::vector<std::string>& only, std::size_t matrix_bytes);

// im2col and col2im (bench_blas_im2col.cpp): one image of 112 x 112 whose
// 3 x 3 patch matrix holds about 256 MiB (16 MiB on CPUs), f32, f64, c32,
// against the reference when it has them; bench_blas's "im2col".
std::vector<std::string> blas_im2col_case_names();
nlohmann::json bench_blas_im2col(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                                 int runs, bool quiet, const std::vector<std::string>& only);

// A row's shared parts (bench_blas.cpp): optune's timing of a memory-bound
// call moving `bytes` as JSON (GB/s and the fraction of the copy ceiling), the
// reference's timing as JSON, and the printed line (n in n_width columns; why:
// the reference's absence).
nlohmann::json memory_row(const std::string& op, DType t, std::int64_t n, double bytes, const Timing& tm,
                          double copy_gbs);
nlohmann::json reference_row(const Timing& theirs, const Timing& ours, double bytes);
void print_row(const std::string& op, DType t, std::int64_t n, int n_width, const Timing& tm, double gbs, double frac,
               const nlohmann::json& rj, const std::string& why);

// How far two h results (f16 storage, f32 arithmetic) may differ, relative
// to the largest: each rounds once to f16 (half an ulp, 2^-11), so they lie
// at most one ulp of the largest apart (2^-10); twice that leaves room for
// the two summation orders' f32 drift (about 2^-24 sqrt(n), far below).
constexpr double kHalfResultTolerance = 0x1p-9;
// For an h row whose reference reported a relative_difference: adds
// "tolerance" and "within_tolerance" (print_row then flags a mismatch).
void judge_half_difference(DType t, nlohmann::json& rj);

// A downloaded value as host arithmetic takes it (f16 through float).
template <class T>
auto host_value(const T& v) {
  if constexpr (std::is_same_v<T, half>) return double(float(v));
  else return v;
}

// Uniform values in [-1, 1) from a 64-bit LCG, as parts of T.
template <class R>
void fill_parts(const Queue& q, const Buffer<R>& b, std::uint64_t seed) {
  const std::size_t chunk = std::size_t(1) << 22;
  std::vector<R> host(std::min(chunk, b.size()));
  std::uint64_t s = seed;
  for (std::size_t at = 0; at < b.size(); at += chunk) {
    const std::size_t n = std::min(chunk, b.size() - at);
    for (std::size_t i = 0; i < n; ++i) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      host[i] = R(double(std::int32_t(s >> 32)) / 2147483648.0);
    }
    q.write(b.view(at, n), std::span<const R>(host.data(), n)).wait();
  }
}

}  // namespace optune::tool
