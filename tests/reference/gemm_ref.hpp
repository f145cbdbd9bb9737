// Double-precision reference of optune::gemm: any layout, transposition,
// leading dimension and offset, with the fused epilogue, and the scale of
// each result that its error bound is measured against.
#pragma once

#include <cstdint>
#include <vector>

#include "optune/optune.hpp"

namespace optune::ref {

// One product over host copies of the stored matrices (as doubles).
struct GemmRef {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 0, n = 0, k = 0;
  double alpha = 1, beta = 0;
  const std::vector<double>* a = nullptr;
  std::size_t a_off = 0;
  std::int64_t lda = 1;
  const std::vector<double>* b = nullptr;
  std::size_t b_off = 0;
  std::int64_t ldb = 1;
  std::size_t c_off = 0;
  std::int64_t ldc = 1;
  BiasMode bias_mode = BiasMode::None;
  const std::vector<double>* bias = nullptr;  // from element 0
  Unary activation = Unary::Copy;
  double act_p0 = 0, act_p1 = 0;  // the activation's parameters, defaults filled in
};

// Element (i, j) of a stored matrix.
inline std::size_t gemm_index(Layout layout, std::size_t off, std::int64_t ld, std::int64_t i, std::int64_t j) {
  return off + std::size_t(layout == Layout::RowMajor ? i * ld + j : i + j * ld);
}

// c (the whole buffer, as doubles) gets the product's elements; elements
// outside C keep their values. BLAS semantics: beta == 0 does not read C,
// alpha == 0 or k == 0 does not read A or B. When scale is given, it
// receives for each element of C (at the same index) the magnitude its
// rounding errors are proportional to: |alpha| sum |a b| + |beta c| + |bias|.
void gemm(const GemmRef& r, std::vector<double>& c, std::vector<double>* scale = nullptr);

}  // namespace optune::ref
