// The CBLAS symbols of level 3 (netlib's cblas.h, 32-bit CBLAS_INT) over
// the routines of level3.hpp, with cblas.cpp's conventions: the layout and
// the enum arguments checked here (cblas_xerbla, with the CBLAS argument's
// position), a row-major call run as the column-major call of the
// transposed problem.
#include "hostblas/cblas_args.hpp"
#include "hostblas/level3.hpp"

namespace {

template <class T>
void cblas_gemm(const char* name, const char* f77name, int layout, int transa, int transb, cint m, cint n, cint k,
                T alpha, const T* a, cint lda, const T* b, cint ldb, T beta, T* c, cint ldc) {
  const bool row = layout == CblasRowMajor;
  hb::CblasScope scope(row);
  if (!row && layout != CblasColMajor)
    return hb::report_cblas_xerbla(1, name, "Illegal layout setting, %d\n", layout);
  const char ta = trans_char(transa), tb = trans_char(transb);
  if (!ta) return hb::report_cblas_xerbla(2, name, "Illegal TransA setting, %d\n", transa);
  if (!tb) return hb::report_cblas_xerbla(3, name, "Illegal TransB setting, %d\n", transb);
  if (row) hb::gemm(f77name, tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
  else hb::gemm(f77name, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void cblas_syrk_any(const char* name, const char* f77, int layout, int uplo, int trans, cint n, cint k, T alpha,
                    const T* a, cint lda, const T* b, cint ldb, T beta, T* c, cint ldc, bool herm = false) {
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  const char u = uplo_char(uplo, args.row()), t = trans_char(trans);
  if (!args.ok(u, 2, kUplo, uplo) || !args.ok(t, 3, kTrans, trans)) return;
  if (!args.row()) return hb::syrk_any(f77, u, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc, herm);
  if (!herm) return hb::syrk_any(f77, u, flip_trans(t), n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  T al = alpha;
  if constexpr (hb::kComplex<T>)
    if (b) al = std::conj(alpha);
  hb::syrk_any(f77, u, t == 'N' ? 'C' : 'N', n, k, al, a, lda, b, ldb, beta, c, ldc, true);
}
// symm; herm: hemm (the same row-major mapping: the transposed problem's
// matrix is A^T = conj(A), Hermitian in the other triangle).
template <class T>
void cblas_symm_any(const char* name, const char* f77, bool herm, int layout, int side, int uplo, cint m, cint n,
                    T alpha, const T* a, cint lda, const T* b, cint ldb, T beta, T* c, cint ldc) {
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  const char s = side_char(side, args.row()), u = uplo_char(uplo, args.row());
  if (!args.ok(s, 2, kSide, side) || !args.ok(u, 3, kUplo, uplo)) return;
  if (args.row()) hb::symm(f77, s, u, n, m, alpha, a, lda, b, ldb, beta, c, ldc, herm);
  else hb::symm(f77, s, u, m, n, alpha, a, lda, b, ldb, beta, c, ldc, herm);
}
template <class T>
void cblas_trmm_any(const char* name, const char* f77, bool solve, int layout, int side, int uplo, int trans,
                    int diag, cint m, cint n, T alpha, const T* a, cint lda, T* b, cint ldb) {
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  const char s = side_char(side, args.row()), u = uplo_char(uplo, args.row()), t = trans_char(trans),
             d = diag_char(diag);
  if (!args.ok(s, 2, kSide, side) || !args.ok(u, 3, kUplo, uplo) || !args.ok(t, 4, kTrans, trans) ||
      !args.ok(d, 5, kDiag, diag))
    return;
  if (args.row()) hb::trmm_any(f77, solve, s, u, t, d, n, m, alpha, a, lda, b, ldb);
  else hb::trmm_any(f77, solve, s, u, t, d, m, n, alpha, a, lda, b, ldb);
}

}  // namespace

extern "C" {

// ---- level 3 ----
#define OPTUNE_CBLAS_GEMM(P, T, NAME)                                                                           \
  void cblas_##P##gemm(int layout, int ta, int tb, cint m, cint n, cint k, T alpha, const T* a, cint lda,       \
                       const T* b, cint ldb, T beta, T* c, cint ldc) {                                          \
    cblas_gemm("cblas_" #P "gemm", NAME, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);         \
  }
OPTUNE_CBLAS_GEMM(s, float, "SGEMM ")
OPTUNE_CBLAS_GEMM(d, double, "DGEMM ")

#define OPTUNE_CBLAS_LEVEL3(P, T, N)                                                                            \
  void cblas_##P##symm(int lo, int sd, int ul, cint m, cint n, T alpha, const T* a, cint lda, const T* b,       \
                       cint ldb, T beta, T* c, cint ldc) {                                                      \
    cblas_symm_any<T>("cblas_" #P "symm", N "SYMM ", false, lo, sd, ul, m, n, alpha, a, lda, b, ldb, beta, c,   \
                      ldc);                                                                                     \
  }                                                                                                             \
  void cblas_##P##syrk(int lo, int ul, int tr, cint n, cint k, T alpha, const T* a, cint lda, T beta, T* c,     \
                       cint ldc) {                                                                              \
    cblas_syrk_any<T>("cblas_" #P "syrk", N "SYRK ", lo, ul, tr, n, k, alpha, a, lda, nullptr, 0, beta, c, ldc); \
  }                                                                                                             \
  void cblas_##P##syr2k(int lo, int ul, int tr, cint n, cint k, T alpha, const T* a, cint lda, const T* b,      \
                        cint ldb, T beta, T* c, cint ldc) {                                                     \
    cblas_syrk_any<T>("cblas_" #P "syr2k", N "SYR2K", lo, ul, tr, n, k, alpha, a, lda, b, ldb, beta, c, ldc);   \
  }                                                                                                             \
  void cblas_##P##trmm(int lo, int sd, int ul, int tr, int dg, cint m, cint n, T alpha, const T* a, cint lda,   \
                       T* b, cint ldb) {                                                                        \
    cblas_trmm_any<T>("cblas_" #P "trmm", N "TRMM ", false, lo, sd, ul, tr, dg, m, n, alpha, a, lda, b, ldb);  \
  }                                                                                                             \
  void cblas_##P##trsm(int lo, int sd, int ul, int tr, int dg, cint m, cint n, T alpha, const T* a, cint lda,   \
                       T* b, cint ldb) {                                                                        \
    cblas_trmm_any<T>("cblas_" #P "trsm", N "TRSM ", true, lo, sd, ul, tr, dg, m, n, alpha, a, lda, b, ldb);   \
  }
OPTUNE_CBLAS_LEVEL3(s, float, "S")
OPTUNE_CBLAS_LEVEL3(d, double, "D")

// ---- level 3, complex: alpha and beta by pointer (herk's real alpha and
// beta, her2k's real beta by value), as netlib's cblas.h ----
#define OPTUNE_CBLAS_LEVEL3_COMPLEX(P, T, R, N)                                                                 \
  void cblas_##P##gemm(int lo, int ta, int tb, cint m, cint n, cint k, const void* alpha, const void* a,        \
                       cint lda, const void* b, cint ldb, const void* beta, void* c, cint ldc) {                \
    cblas_gemm("cblas_" #P "gemm", N "GEMM ", lo, ta, tb, m, n, k, val<T>(alpha), ptr<T>(a), lda, ptr<T>(b),    \
               ldb, val<T>(beta), ptr<T>(c), ldc);                                                              \
  }                                                                                                             \
  void cblas_##P##symm(int lo, int sd, int ul, cint m, cint n, const void* alpha, const void* a, cint lda,      \
                       const void* b, cint ldb, const void* beta, void* c, cint ldc) {                          \
    cblas_symm_any<T>("cblas_" #P "symm", N "SYMM ", false, lo, sd, ul, m, n, val<T>(alpha), ptr<T>(a), lda,    \
                      ptr<T>(b), ldb, val<T>(beta), ptr<T>(c), ldc);                                            \
  }                                                                                                             \
  void cblas_##P##hemm(int lo, int sd, int ul, cint m, cint n, const void* alpha, const void* a, cint lda,      \
                       const void* b, cint ldb, const void* beta, void* c, cint ldc) {                          \
    cblas_symm_any<T>("cblas_" #P "hemm", N "HEMM ", true, lo, sd, ul, m, n, val<T>(alpha), ptr<T>(a), lda,     \
                      ptr<T>(b), ldb, val<T>(beta), ptr<T>(c), ldc);                                            \
  }                                                                                                             \
  void cblas_##P##syrk(int lo, int ul, int tr, cint n, cint k, const void* alpha, const void* a, cint lda,      \
                       const void* beta, void* c, cint ldc) {                                                   \
    cblas_syrk_any<T>("cblas_" #P "syrk", N "SYRK ", lo, ul, tr, n, k, val<T>(alpha), ptr<T>(a), lda, nullptr,  \
                      0, val<T>(beta), ptr<T>(c), ldc);                                                         \
  }                                                                                                             \
  void cblas_##P##syr2k(int lo, int ul, int tr, cint n, cint k, const void* alpha, const void* a, cint lda,     \
                        const void* b, cint ldb, const void* beta, void* c, cint ldc) {                         \
    cblas_syrk_any<T>("cblas_" #P "syr2k", N "SYR2K", lo, ul, tr, n, k, val<T>(alpha), ptr<T>(a), lda,          \
                      ptr<T>(b), ldb, val<T>(beta), ptr<T>(c), ldc);                                            \
  }                                                                                                             \
  void cblas_##P##herk(int lo, int ul, int tr, cint n, cint k, R alpha, const void* a, cint lda, R beta,        \
                       void* c, cint ldc) {                                                                     \
    cblas_syrk_any<T>("cblas_" #P "herk", N "HERK ", lo, ul, tr, n, k, T(alpha), ptr<T>(a), lda, nullptr, 0,    \
                      T(beta), ptr<T>(c), ldc, true);                                                           \
  }                                                                                                             \
  void cblas_##P##her2k(int lo, int ul, int tr, cint n, cint k, const void* alpha, const void* a, cint lda,     \
                        const void* b, cint ldb, R beta, void* c, cint ldc) {                                   \
    cblas_syrk_any<T>("cblas_" #P "her2k", N "HER2K", lo, ul, tr, n, k, val<T>(alpha), ptr<T>(a), lda,          \
                      ptr<T>(b), ldb, T(beta), ptr<T>(c), ldc, true);                                           \
  }                                                                                                             \
  void cblas_##P##trmm(int lo, int sd, int ul, int tr, int dg, cint m, cint n, const void* alpha,               \
                       const void* a, cint lda, void* b, cint ldb) {                                            \
    cblas_trmm_any<T>("cblas_" #P "trmm", N "TRMM ", false, lo, sd, ul, tr, dg, m, n, val<T>(alpha), ptr<T>(a), \
                      lda, ptr<T>(b), ldb);                                                                     \
  }                                                                                                             \
  void cblas_##P##trsm(int lo, int sd, int ul, int tr, int dg, cint m, cint n, const void* alpha,               \
                       const void* a, cint lda, void* b, cint ldb) {                                            \
    cblas_trmm_any<T>("cblas_" #P "trsm", N "TRSM ", true, lo, sd, ul, tr, dg, m, n, val<T>(alpha), ptr<T>(a),  \
                      lda, ptr<T>(b), ldb);                                                                     \
  }
OPTUNE_CBLAS_LEVEL3_COMPLEX(c, c32, float, "C")
OPTUNE_CBLAS_LEVEL3_COMPLEX(z, c64, double, "Z")

}  // extern "C"
