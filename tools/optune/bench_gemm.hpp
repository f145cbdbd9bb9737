// optune bench gemm: optune::gemm against the device's FMA ceiling (f16, bf16
// and tf32 rows: the tensor cores' where measured) and the reference library
// (CLBlast on OpenCL, cuBLAS on CUDA) in the same run, on the same operands,
// with the results cross-checked.
//
// Cases (GPUs): squares 256 to 8192; each transpose mix at 4096; the
// inference shapes 128x4096x4096, 4096x128x4096, 4096x4096x128 (m x n x k);
// strided batches 4096 x 64^3 and 64 x 512^3. f32 everywhere, f16 and f64
// where the device computes them. CPU devices run the same cases scaled down
// (squares 64 to 1024, ...) so a run takes seconds, and say so.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ceilings.hpp"

namespace optune::tool {

struct GemmBenchOptions {
  int runs = 0;                      // 0: 5 on CPUs, 20 on GPUs
  bool quick = false;                // --gemm-quick: only the cases the acceptance targets name
  std::vector<std::int64_t> sizes;   // restrict the square cases to these sizes
  std::vector<std::string> groups;   // square, transpose, inference, thin, batched (empty: all)
  std::vector<std::int64_t> product; // --gemm-product M,N,K[,M,N,K...]: these products (group "product") instead of the groups
  std::vector<std::string> trans{"NN"};  // --gemm-trans: the products' transposes (A then B, row-major), one or one per product
  std::vector<std::string> dtypes;   // f32, f16, f64 (empty: all the device supports)
  std::vector<std::string> only;     // --only: rows whose name ("square f32 NN 512x512x512") contains one
  bool reference = true;             // run the reference library
  bool quiet = false;
};

// The names of the cases these options select on this device ("square f32
// NN 512x512x512"), for --only.
std::vector<std::string> gemm_case_names(const Capabilities& caps, const GemmBenchOptions& o);

nlohmann::json bench_gemm(const Queue& q, const Ceilings& c, const GemmBenchOptions& o);

}  // namespace optune::tool
