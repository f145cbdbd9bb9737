// The arguments of optune::gemm, gemm_strided_batched and gemm_batched as
// their entry points gather them (ops/gemm.cpp), and their one static check
// (ops/gemm_validate.cpp): every argument, no device touched.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "optune/gemm.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

// One stored matrix as the caller gave it.
struct MatrixArg {
  const char* name;     // "a", "b", "c"
  const char* ld_name;  // "lda", ...
  std::shared_ptr<MemImpl> mem;
  std::size_t offset = 0, count = 0;  // the view
  DType dtype = DType::F32;
  std::int64_t ld = 0, stride = 0;
  const std::vector<std::int64_t>* offsets = nullptr;  // list mode
};

// Everything an entry point was given.
struct GemmArgs {
  std::string what;
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  MatrixArg a, b, c;
  bool strided = false, list = false;
  std::vector<std::complex<double>> alphas, betas;
  const GemmOptions* options = nullptr;
};

// Arm Compute style: every argument checked, no device touched; throws
// optune::Error naming the argument.
void validate_gemm(const GemmArgs& g, const Queue& q);

}  // namespace optune::detail
