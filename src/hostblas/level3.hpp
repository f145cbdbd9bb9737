// BLAS level 3 over host memory, with the reference's argument checks
// (xerbla's positions are the Fortran routine's) and quick returns. Both
// interfaces call these; CBLAS maps row-major calls onto them as netlib's
// CBLAS does (the transposed problem).
#pragma once

#include <cstdint>

#include "hostblas/engine.hpp"
#include "hostblas/xerbla.hpp"
#include "optune/gemm.hpp"

namespace optune::hostblas {

// Column-major extent of a rows x cols matrix with leading dimension ld.
inline std::size_t mat_count(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return rows <= 0 || cols <= 0 ? 0 : std::size_t(cols - 1) * std::size_t(ld) + std::size_t(rows);
}

// C = beta C on the host, for the reference's alpha == 0 or k == 0 path
// (beta == 0 writes zeros without reading C).
template <class T>
void scale_host(std::int64_t m, std::int64_t n, T beta, T* c, std::int64_t ldc) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      T& v = c[i + j * ldc];
      v = beta == T(0) ? T(0) : beta * v;
    }
}

// xGEMM: name as xerbla spells it ("SGEMM "), trans* as Fortran's characters.
template <class T>
void gemm(const char* name, char transa, char transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  const auto valid = [](char t) { return t == 'N' || t == 'T' || t == 'C'; };
  const bool nota = transa == 'N', notb = transb == 'N';
  const std::int64_t nrowa = nota ? m : k, nrowb = notb ? k : n;
  int info = 0;
  if (!valid(transa)) info = 1;
  else if (!valid(transb)) info = 2;
  else if (m < 0) info = 3;
  else if (n < 0) info = 4;
  else if (k < 0) info = 5;
  else if (lda < std::max<std::int64_t>(1, nrowa)) info = 8;
  else if (ldb < std::max<std::int64_t>(1, nrowb)) info = 10;
  else if (ldc < std::max<std::int64_t>(1, m)) info = 13;
  if (info) return report_xerbla(name, info);
  if (m == 0 || n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  if (alpha == T(0) || k == 0) return scale_host(m, n, beta, c, ldc);
  run<T>(name, Class::Level3, double(m) * double(n) * double(k), [&](Call& call) {
    auto ab = call.in(a, mat_count(nrowa, nota ? k : m, lda));
    auto bb = call.in(b, mat_count(nrowb, notb ? n : k, ldb));
    // Without gaps between C's columns and with beta == 0, C is not uploaded.
    auto cb = beta == T(0) && ldc == m ? call.out(c, mat_count(m, n, ldc)) : call.inout(c, mat_count(m, n, ldc));
    optune::gemm<T>(call.queue(), Layout::ColMajor, nota ? Transpose::No : Transpose::Yes,
                    notb ? Transpose::No : Transpose::Yes, m, n, k, double(alpha), ab, lda, bb, ldb, double(beta), cb,
                    ldc);
  });
}

}  // namespace optune::hostblas
