#include "reference/gemm_ref.hpp"

#include <cmath>

#include "reference/elementwise_ref.hpp"

namespace optune::ref {

void gemm(const GemmRef& r, std::vector<double>& c, std::vector<double>* scale) {
  const bool product = r.alpha != 0 && r.k > 0;
  for (std::int64_t i = 0; i < r.m; ++i)
    for (std::int64_t j = 0; j < r.n; ++j) {
      double sum = 0, mag = 0;
      if (product)
        for (std::int64_t p = 0; p < r.k; ++p) {
          const double x = r.trans_a == Transpose::No ? (*r.a)[gemm_index(r.layout, r.a_off, r.lda, i, p)]
                                                      : (*r.a)[gemm_index(r.layout, r.a_off, r.lda, p, i)];
          const double y = r.trans_b == Transpose::No ? (*r.b)[gemm_index(r.layout, r.b_off, r.ldb, p, j)]
                                                      : (*r.b)[gemm_index(r.layout, r.b_off, r.ldb, j, p)];
          sum += x * y;
          mag += std::fabs(x * y);
        }
      const std::size_t ci = gemm_index(r.layout, r.c_off, r.ldc, i, j);
      double v = product ? r.alpha * sum : 0.0;
      mag = product ? std::fabs(r.alpha) * mag : 0.0;
      if (r.beta != 0) {
        v += r.beta * c[ci];
        mag += std::fabs(r.beta * c[ci]);
      }
      if (r.bias_mode != BiasMode::None) {
        const double b = (*r.bias)[std::size_t(r.bias_mode == BiasMode::PerRow ? i : j)];
        v += b;
        mag += std::fabs(b);
      }
      c[ci] = unary(r.activation, v, r.act_p0, r.act_p1);
      if (scale) (*scale)[ci] = mag;
    }
}

}  // namespace optune::ref
