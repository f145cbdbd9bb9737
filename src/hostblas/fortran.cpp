// The Fortran BLAS symbols, with gfortran's convention: every argument by
// reference, a hidden length (size_t) after the others for each character
// argument, REAL and COMPLEX function results returned as C's float, double,
// float _Complex and double _Complex are. Each symbol is one line over the
// routines of level1.hpp, level2.hpp (level2_complex.hpp) and level3.hpp; a
// routine family's macro makes its s, d, c and z symbols. Routines not on the device yet are not here (see
// docs/DESIGN.md, "Host BLAS interface").
#include "hostblas/level1.hpp"
#include "hostblas/level2.hpp"
#include "hostblas/level2_complex.hpp"
#include "hostblas/level3.hpp"
#include "hostblas/xerbla.hpp"

namespace hb = optune::hostblas;
using hb::c32;
using hb::c64;
using fint = int;  // Fortran's default INTEGER (LP64)
using fchar = std::size_t;  // gfortran's hidden character length

namespace {
// gfortran returns COMPLEX results as C's _Complex types.
__complex__ float to_c99(const c32& z) {
  __complex__ float r;
  __real__ r = z.real();
  __imag__ r = z.imag();
  return r;
}
__complex__ double to_c99(const c64& z) {
  __complex__ double r;
  __real__ r = z.real();
  __imag__ r = z.imag();
  return r;
}
}  // namespace

extern "C" {

// ---- level 1 ----
#define OPTUNE_F77_SWAP_COPY_AXPY(P, T)                                                                         \
  void P##swap_(const fint* n, T* x, const fint* incx, T* y, const fint* incy) {                                \
    hb::swap(#P "SWAP", *n, x, *incx, y, *incy);                                                                \
  }                                                                                                             \
  void P##copy_(const fint* n, const T* x, const fint* incx, T* y, const fint* incy) {                          \
    hb::copy(#P "COPY", *n, x, *incx, y, *incy);                                                                \
  }                                                                                                             \
  void P##axpy_(const fint* n, const T* alpha, const T* x, const fint* incx, T* y, const fint* incy) {          \
    hb::axpy(#P "AXPY", *n, *alpha, x, *incx, y, *incy);                                                        \
  }                                                                                                             \
  void P##scal_(const fint* n, const T* alpha, T* x, const fint* incx) { hb::scal(#P "SCAL", *n, *alpha, x, *incx); }
OPTUNE_F77_SWAP_COPY_AXPY(s, float)
OPTUNE_F77_SWAP_COPY_AXPY(d, double)
OPTUNE_F77_SWAP_COPY_AXPY(c, c32)
OPTUNE_F77_SWAP_COPY_AXPY(z, c64)

void csscal_(const fint* n, const float* alpha, c32* x, const fint* incx) { hb::scal("CSSCAL", *n, *alpha, x, *incx); }
void zdscal_(const fint* n, const double* alpha, c64* x, const fint* incx) { hb::scal("ZDSCAL", *n, *alpha, x, *incx); }

float sdot_(const fint* n, const float* x, const fint* incx, const float* y, const fint* incy) {
  return hb::dot("SDOT", hb::Dot::Real, *n, x, *incx, y, *incy);
}
double ddot_(const fint* n, const double* x, const fint* incx, const double* y, const fint* incy) {
  return hb::dot("DDOT", hb::Dot::Real, *n, x, *incx, y, *incy);
}
float sdsdot_(const fint* n, const float* sb, const float* x, const fint* incx, const float* y, const fint* incy) {
  return float(hb::dsdot("SDSDOT", *n, x, *incx, y, *incy, double(*sb)));
}
double dsdot_(const fint* n, const float* x, const fint* incx, const float* y, const fint* incy) {
  return hb::dsdot("DSDOT", *n, x, *incx, y, *incy);
}
#define OPTUNE_F77_DOTUC(P, T, R)                                                                                  \
  __complex__ R P##dotu_(const fint* n, const T* x, const fint* incx, const T* y, const fint* incy) { \
    return to_c99(hb::dot(#P "DOTU", hb::Dot::U, *n, x, *incx, y, *incy));                                     \
  }                                                                                                             \
  __complex__ R P##dotc_(const fint* n, const T* x, const fint* incx, const T* y, const fint* incy) { \
    return to_c99(hb::dot(#P "DOTC", hb::Dot::C, *n, x, *incx, y, *incy));                                     \
  }
OPTUNE_F77_DOTUC(c, c32, float)
OPTUNE_F77_DOTUC(z, c64, double)

// nrm2, asum and i*amax: R the result's type, N2 and AS the names of nrm2
// and asum (snrm2 / scnrm2 / dznrm2 ...).
#define OPTUNE_F77_NORMS(P, T, N2, AS)                                                                          \
  decltype(hb::norm<T, true>(nullptr, 0, nullptr, 0)) N2##_(const fint* n, const T* x, const fint* incx) {     \
    return hb::norm<T, true>(#N2, *n, x, *incx);                                                               \
  }                                                                                                             \
  decltype(hb::norm<T, true>(nullptr, 0, nullptr, 0)) AS##_(const fint* n, const T* x, const fint* incx) {     \
    return hb::norm<T, false>(#AS, *n, x, *incx);                                                              \
  }                                                                                                             \
  fint i##P##amax_(const fint* n, const T* x, const fint* incx) {                                               \
    return fint(hb::iamax("I" #P "AMAX", *n, x, *incx) + 1);                                                   \
  }
OPTUNE_F77_NORMS(s, float, snrm2, sasum)
OPTUNE_F77_NORMS(d, double, dnrm2, dasum)
OPTUNE_F77_NORMS(c, c32, scnrm2, scasum)
OPTUNE_F77_NORMS(z, c64, dznrm2, dzasum)

// rot (srot, drot, csrot, zdrot: real c and s) and rotg.
#define OPTUNE_F77_ROT(NAME, T, R)                                                                              \
  void NAME##_(const fint* n, T* x, const fint* incx, T* y, const fint* incy, const R* c, const R* s) {         \
    hb::rot(#NAME, *n, x, *incx, y, *incy, *c, *s);                                                             \
  }
OPTUNE_F77_ROT(srot, float, float)
OPTUNE_F77_ROT(drot, double, double)
OPTUNE_F77_ROT(csrot, c32, float)
OPTUNE_F77_ROT(zdrot, c64, double)

void srotg_(float* a, float* b, float* c, float* s) { optune::rotg(*a, *b, *c, *s); }
void drotg_(double* a, double* b, double* c, double* s) { optune::rotg(*a, *b, *c, *s); }
void crotg_(c32* a, const c32* b, float* c, c32* s) { optune::rotg(*a, *b, *c, *s); }
void zrotg_(c64* a, const c64* b, double* c, c64* s) { optune::rotg(*a, *b, *c, *s); }

#define OPTUNE_F77_ROTM(P, T)                                                                                   \
  void P##rotm_(const fint* n, T* x, const fint* incx, T* y, const fint* incy, const T* param) {                \
    hb::rotm(#P "ROTM", *n, x, *incx, y, *incy, param);                                                         \
  }                                                                                                             \
  void P##rotmg_(T* d1, T* d2, T* x1, const T* y1, T* param) { hb::rotmg(d1, d2, x1, *y1, param); }
OPTUNE_F77_ROTM(s, float)
OPTUNE_F77_ROTM(d, double)

float scabs1_(const c32* z) { return hb::cabs1(*z); }
double dcabs1_(const c64* z) { return hb::cabs1(*z); }

// ---- level 2 ----
// gemv and gbmv (s, d, c, z).
#define OPTUNE_F77_GEMV(P, T, N)                                                                                \
  void P##gemv_(const char* tr, const fint* m, const fint* n, const T* alpha, const T* a, const fint* lda,      \
                const T* x, const fint* incx, const T* beta, T* y, const fint* incy, fchar) {                   \
    hb::gemv(N "GEMV ", hb::upper(tr), *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);                    \
  }                                                                                                             \
  void P##gbmv_(const char* tr, const fint* m, const fint* n, const fint* kl, const fint* ku, const T* alpha,   \
                const T* a, const fint* lda, const T* x, const fint* incx, const T* beta, T* y,                 \
                const fint* incy, fchar) {                                                                      \
    hb::gbmv(N "GBMV ", hb::upper(tr), *m, *n, *kl, *ku, *alpha, a, *lda, x, *incx, *beta, y, *incy);          \
  }
// The rest of s and d.
#define OPTUNE_F77_LEVEL2(P, T, N)                                                                              \
  OPTUNE_F77_GEMV(P, T, N)                                                                                      \
  void P##symv_(const char* ul, const fint* n, const T* alpha, const T* a, const fint* lda, const T* x,         \
                const fint* incx, const T* beta, T* y, const fint* incy, fchar) {                               \
    hb::symv(N "SYMV ", hb::upper(ul), *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);                        \
  }                                                                                                             \
  void P##sbmv_(const char* ul, const fint* n, const fint* k, const T* alpha, const T* a, const fint* lda,      \
                const T* x, const fint* incx, const T* beta, T* y, const fint* incy, fchar) {                   \
    hb::sbmv(N "SBMV ", hb::upper(ul), *n, *k, *alpha, a, *lda, x, *incx, *beta, y, *incy);                    \
  }                                                                                                             \
  void P##spmv_(const char* ul, const fint* n, const T* alpha, const T* ap, const T* x, const fint* incx,       \
                const T* beta, T* y, const fint* incy, fchar) {                                                 \
    hb::spmv(N "SPMV ", hb::upper(ul), *n, *alpha, ap, x, *incx, *beta, y, *incy);                             \
  }                                                                                                             \
  void P##ger_(const fint* m, const fint* n, const T* alpha, const T* x, const fint* incx, const T* y,          \
               const fint* incy, T* a, const fint* lda) {                                                       \
    hb::ger(N "GER  ", *m, *n, *alpha, x, *incx, y, *incy, a, *lda);                                           \
  }                                                                                                             \
  OPTUNE_F77_RANK(P, T, T, N, sy, SY, sp, SP)                                                                   \
  OPTUNE_F77_TRI(P, T, N, mv, MV, false)                                                                        \
  OPTUNE_F77_TRI(P, T, N, sv, SV, true)
// The rank updates syr, spr, syr2, spr2 (s, d: sy, SY, sp, SP) and her, hpr,
// her2, hpr2 (c, z: he, HE, hp, HP); A the type of syr / her's alpha.
#define OPTUNE_F77_RANK(P, T, A, N, sy, SY, sp, SP)                                                             \
  void P##sy##r_(const char* ul, const fint* n, const A* alpha, const T* x, const fint* incx, T* a,             \
                 const fint* lda, fchar) {                                                                      \
    hb::syr_any<T>(N #SY "R  ", hb::upper(ul), *n, T(*alpha), x, *incx, nullptr, 0, a, *lda);                   \
  }                                                                                                             \
  void P##sp##r_(const char* ul, const fint* n, const A* alpha, const T* x, const fint* incx, T* ap, fchar) {   \
    hb::syr_any<T>(N #SP "R  ", hb::upper(ul), *n, T(*alpha), x, *incx, nullptr, 0, ap, -1);                    \
  }                                                                                                             \
  void P##sy##r2_(const char* ul, const fint* n, const T* alpha, const T* x, const fint* incx, const T* y,      \
                  const fint* incy, T* a, const fint* lda, fchar) {                                             \
    hb::syr_any<T>(N #SY "R2 ", hb::upper(ul), *n, *alpha, x, *incx, y, *incy, a, *lda);                        \
  }                                                                                                             \
  void P##sp##r2_(const char* ul, const fint* n, const T* alpha, const T* x, const fint* incx, const T* y,      \
                  const fint* incy, T* ap, fchar) {                                                             \
    hb::syr_any<T>(N #SP "R2 ", hb::upper(ul), *n, *alpha, x, *incx, y, *incy, ap, -1);                         \
  }
// trmv / tbmv / tpmv and trsv / tbsv / tpsv.
#define OPTUNE_F77_TRI(P, T, N, op, OP, SOLVE)                                                                  \
  void P##tr##op##_(const char* ul, const char* tr, const char* dg, const fint* n, const T* a, const fint* lda, \
                    T* x, const fint* incx, fchar, fchar, fchar) {                                              \
    hb::tr_any(N "TR" #OP " ", SOLVE, hb::Tri::Full, hb::upper(ul), hb::upper(tr), hb::upper(dg), *n, 0, a,    \
               *lda, x, *incx);                                                                                 \
  }                                                                                                             \
  void P##tb##op##_(const char* ul, const char* tr, const char* dg, const fint* n, const fint* k, const T* a,   \
                    const fint* lda, T* x, const fint* incx, fchar, fchar, fchar) {                             \
    hb::tr_any(N "TB" #OP " ", SOLVE, hb::Tri::Band, hb::upper(ul), hb::upper(tr), hb::upper(dg), *n, *k, a,   \
               *lda, x, *incx);                                                                                 \
  }                                                                                                             \
  void P##tp##op##_(const char* ul, const char* tr, const char* dg, const fint* n, const T* ap, T* x,           \
                    const fint* incx, fchar, fchar, fchar) {                                                    \
    hb::tr_any(N "TP" #OP " ", SOLVE, hb::Tri::Packed, hb::upper(ul), hb::upper(tr), hb::upper(dg), *n, 0, ap, \
               0, x, *incx);                                                                                    \
  }
OPTUNE_F77_LEVEL2(s, float, "S")
OPTUNE_F77_LEVEL2(d, double, "D")

// ---- level 2 (c, z): R the real type (her and hpr's alpha) ----
#define OPTUNE_F77_LEVEL2_COMPLEX(P, T, R, N)                                                                   \
  OPTUNE_F77_GEMV(P, T, N)                                                                                      \
  void P##hemv_(const char* ul, const fint* n, const T* alpha, const T* a, const fint* lda, const T* x,         \
                const fint* incx, const T* beta, T* y, const fint* incy, fchar) {                               \
    hb::hemv_any(N "HEMV ", hb::Tri::Full, hb::upper(ul), *n, 0, *alpha, a, *lda, x, *incx, *beta, y, *incy);   \
  }                                                                                                             \
  void P##hbmv_(const char* ul, const fint* n, const fint* k, const T* alpha, const T* a, const fint* lda,      \
                const T* x, const fint* incx, const T* beta, T* y, const fint* incy, fchar) {                   \
    hb::hemv_any(N "HBMV ", hb::Tri::Band, hb::upper(ul), *n, *k, *alpha, a, *lda, x, *incx, *beta, y, *incy);  \
  }                                                                                                             \
  void P##hpmv_(const char* ul, const fint* n, const T* alpha, const T* ap, const T* x, const fint* incx,       \
                const T* beta, T* y, const fint* incy, fchar) {                                                 \
    hb::hemv_any(N "HPMV ", hb::Tri::Packed, hb::upper(ul), *n, 0, *alpha, ap, 0, x, *incx, *beta, y, *incy);   \
  }                                                                                                             \
  void P##geru_(const fint* m, const fint* n, const T* alpha, const T* x, const fint* incx, const T* y,         \
                const fint* incy, T* a, const fint* lda) {                                                      \
    hb::geru_any(N "GERU ", false, *m, *n, *alpha, x, *incx, y, *incy, a, *lda);                                \
  }                                                                                                             \
  void P##gerc_(const fint* m, const fint* n, const T* alpha, const T* x, const fint* incx, const T* y,         \
                const fint* incy, T* a, const fint* lda) {                                                      \
    hb::geru_any(N "GERC ", true, *m, *n, *alpha, x, *incx, y, *incy, a, *lda);                                 \
  }                                                                                                             \
  OPTUNE_F77_RANK(P, T, R, N, he, HE, hp, HP)                                                                   \
  OPTUNE_F77_TRI(P, T, N, mv, MV, false)                                                                        \
  OPTUNE_F77_TRI(P, T, N, sv, SV, true)
OPTUNE_F77_LEVEL2_COMPLEX(c, c32, float, "C")
OPTUNE_F77_LEVEL2_COMPLEX(z, c64, double, "Z")

// ---- level 3 ----
#define OPTUNE_F77_GEMM(P, T, NAME)                                                                             \
  void P##gemm_(const char* ta, const char* tb, const fint* m, const fint* n, const fint* k, const T* alpha,    \
                const T* a, const fint* lda, const T* b, const fint* ldb, const T* beta, T* c, const fint* ldc, \
                fchar, fchar) {                                                                                 \
    hb::gemm(NAME, hb::upper(ta), hb::upper(tb), *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);        \
  }
OPTUNE_F77_GEMM(s, float, "SGEMM ")
OPTUNE_F77_GEMM(d, double, "DGEMM ")

#define OPTUNE_F77_LEVEL3(P, T, N)                                                                              \
  void P##symm_(const char* sd, const char* ul, const fint* m, const fint* n, const T* alpha, const T* a,       \
                const fint* lda, const T* b, const fint* ldb, const T* beta, T* c, const fint* ldc, fchar,      \
                fchar) {                                                                                        \
    hb::symm(N "SYMM ", hb::upper(sd), hb::upper(ul), *m, *n, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);       \
  }                                                                                                             \
  void P##syrk_(const char* ul, const char* tr, const fint* n, const fint* k, const T* alpha, const T* a,       \
                const fint* lda, const T* beta, T* c, const fint* ldc, fchar, fchar) {                          \
    hb::syrk_any<T>(N "SYRK ", hb::upper(ul), hb::upper(tr), *n, *k, *alpha, a, *lda, nullptr, 0, *beta, c,    \
                    *ldc);                                                                                      \
  }                                                                                                             \
  void P##syr2k_(const char* ul, const char* tr, const fint* n, const fint* k, const T* alpha, const T* a,      \
                 const fint* lda, const T* b, const fint* ldb, const T* beta, T* c, const fint* ldc, fchar,     \
                 fchar) {                                                                                       \
    hb::syrk_any<T>(N "SYR2K", hb::upper(ul), hb::upper(tr), *n, *k, *alpha, a, *lda, b, *ldb, *beta, c,       \
                    *ldc);                                                                                      \
  }                                                                                                             \
  void P##trmm_(const char* sd, const char* ul, const char* tr, const char* dg, const fint* m, const fint* n,   \
                const T* alpha, const T* a, const fint* lda, T* b, const fint* ldb, fchar, fchar, fchar,        \
                fchar) {                                                                                        \
    hb::trmm_any(N "TRMM ", false, hb::upper(sd), hb::upper(ul), hb::upper(tr), hb::upper(dg), *m, *n, *alpha, \
                 a, *lda, b, *ldb);                                                                             \
  }                                                                                                             \
  void P##trsm_(const char* sd, const char* ul, const char* tr, const char* dg, const fint* m, const fint* n,   \
                const T* alpha, const T* a, const fint* lda, T* b, const fint* ldb, fchar, fchar, fchar,        \
                fchar) {                                                                                        \
    hb::trmm_any(N "TRSM ", true, hb::upper(sd), hb::upper(ul), hb::upper(tr), hb::upper(dg), *m, *n, *alpha,  \
                 a, *lda, b, *ldb);                                                                             \
  }
OPTUNE_F77_LEVEL3(s, float, "S")
OPTUNE_F77_LEVEL3(d, double, "D")

// ---- level 3, complex (c, z): gemm, symm, syrk, syr2k, trmm, trsm as the
// real ones (transposes 'C' conjugate), hemm, herk and her2k (real alpha and
// beta, real beta) ----
OPTUNE_F77_GEMM(c, c32, "CGEMM ")
OPTUNE_F77_GEMM(z, c64, "ZGEMM ")
OPTUNE_F77_LEVEL3(c, c32, "C")
OPTUNE_F77_LEVEL3(z, c64, "Z")
#define OPTUNE_F77_LEVEL3_HERMITIAN(P, T, R, N)                                                                 \
  void P##hemm_(const char* sd, const char* ul, const fint* m, const fint* n, const T* alpha, const T* a,       \
                const fint* lda, const T* b, const fint* ldb, const T* beta, T* c, const fint* ldc, fchar,      \
                fchar) {                                                                                        \
    hb::symm(N "HEMM ", hb::upper(sd), hb::upper(ul), *m, *n, *alpha, a, *lda, b, *ldb, *beta, c, *ldc, true); \
  }                                                                                                             \
  void P##herk_(const char* ul, const char* tr, const fint* n, const fint* k, const R* alpha, const T* a,       \
                const fint* lda, const R* beta, T* c, const fint* ldc, fchar, fchar) {                          \
    hb::syrk_any<T>(N "HERK ", hb::upper(ul), hb::upper(tr), *n, *k, T(*alpha), a, *lda, nullptr, 0, T(*beta), \
                    c, *ldc, true);                                                                             \
  }                                                                                                             \
  void P##her2k_(const char* ul, const char* tr, const fint* n, const fint* k, const T* alpha, const T* a,      \
                 const fint* lda, const T* b, const fint* ldb, const R* beta, T* c, const fint* ldc, fchar,     \
                 fchar) {                                                                                       \
    hb::syrk_any<T>(N "HER2K", hb::upper(ul), hb::upper(tr), *n, *k, *alpha, a, *lda, b, *ldb, T(*beta), c,    \
                    *ldc, true);                                                                                \
  }
OPTUNE_F77_LEVEL3_HERMITIAN(c, c32, float, "C")
OPTUNE_F77_LEVEL3_HERMITIAN(z, c64, double, "Z")

}  // extern "C"
