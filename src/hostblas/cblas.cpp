// The CBLAS symbols (netlib's cblas.h, 32-bit CBLAS_INT), over the routines
// of level1.hpp and level3.hpp. As in netlib's CBLAS: cblas_i?amax returns
// the 0-based index; the layout and transpose arguments are checked here
// (cblas_xerbla, with the CBLAS argument's position), everything else by
// the Fortran-level routine (xerbla_); a row-major call runs as the
// column-major call of the transposed problem, with RowMajorStrg set while it
// runs (netlib's test programs read it to renumber xerbla's positions).
#include <cstddef>

#include "hostblas/level1.hpp"
#include "hostblas/level3.hpp"
#include "hostblas/xerbla.hpp"

namespace hb = optune::hostblas;
using hb::c32;
using hb::c64;
using cint = int;

enum CblasLayout { CblasRowMajor = 101, CblasColMajor = 102 };
enum CblasTranspose { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };

namespace {
template <class T> const T& val(const void* p) { return *static_cast<const T*>(p); }
template <class T> T* ptr(void* p) { return static_cast<T*>(p); }
template <class T> const T* ptr(const void* p) { return static_cast<const T*>(p); }

// The Fortran character of a CBLAS transpose, 0 when it is none.
char trans_char(int t) { return t == CblasNoTrans ? 'N' : t == CblasTrans ? 'T' : t == CblasConjTrans ? 'C' : 0; }

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
}  // namespace

extern "C" {

// ---- level 1 ----
#define OPTUNE_CBLAS_REAL(P, T)                                                                                 \
  void cblas_##P##swap(cint n, T* x, cint incx, T* y, cint incy) { hb::swap(#P "SWAP", n, x, incx, y, incy); }  \
  void cblas_##P##copy(cint n, const T* x, cint incx, T* y, cint incy) { hb::copy(#P "COPY", n, x, incx, y, incy); } \
  void cblas_##P##axpy(cint n, T alpha, const T* x, cint incx, T* y, cint incy) {                               \
    hb::axpy(#P "AXPY", n, alpha, x, incx, y, incy);                                                            \
  }                                                                                                             \
  void cblas_##P##scal(cint n, T alpha, T* x, cint incx) { hb::scal(#P "SCAL", n, alpha, x, incx); }            \
  T cblas_##P##dot(cint n, const T* x, cint incx, const T* y, cint incy) {                                      \
    return hb::dot(#P "DOT", hb::Dot::Real, n, x, incx, y, incy);                                               \
  }                                                                                                             \
  T cblas_##P##nrm2(cint n, const T* x, cint incx) { return hb::norm<T, true>(#P "NRM2", n, x, incx); }         \
  T cblas_##P##asum(cint n, const T* x, cint incx) { return hb::norm<T, false>(#P "ASUM", n, x, incx); }        \
  std::size_t cblas_i##P##amax(cint n, const T* x, cint incx) {                                                 \
    const auto i = hb::iamax("I" #P "AMAX", n, x, incx);                                                        \
    return i < 0 ? 0 : std::size_t(i);                                                                          \
  }                                                                                                             \
  void cblas_##P##rot(cint n, T* x, cint incx, T* y, cint incy, T c, T s) {                                    \
    hb::rot(#P "ROT", n, x, incx, y, incy, c, s);                                                               \
  }                                                                                                             \
  void cblas_##P##rotg(T* a, T* b, T* c, T* s) { optune::rotg(*a, *b, *c, *s); }                               \
  void cblas_##P##rotm(cint n, T* x, cint incx, T* y, cint incy, const T* p) {                                  \
    hb::rotm(#P "ROTM", n, x, incx, y, incy, p);                                                                \
  }                                                                                                             \
  void cblas_##P##rotmg(T* d1, T* d2, T* b1, T b2, T* p) { hb::rotmg(d1, d2, b1, b2, p); }
OPTUNE_CBLAS_REAL(s, float)
OPTUNE_CBLAS_REAL(d, double)

float cblas_sdsdot(cint n, float alpha, const float* x, cint incx, const float* y, cint incy) {
  return float(double(alpha) + hb::dsdot("SDSDOT", n, x, incx, y, incy));
}
double cblas_dsdot(cint n, const float* x, cint incx, const float* y, cint incy) {
  return hb::dsdot("DSDOT", n, x, incx, y, incy);
}

// Complex vectors as void*; R the real type, S and N2 / AS the names of the
// real-scaled scal, nrm2 and asum (cs / zd, scnrm2 / dznrm2, ...).
#define OPTUNE_CBLAS_COMPLEX(P, T, R, S, N2, AS)                                                                \
  void cblas_##P##swap(cint n, void* x, cint incx, void* y, cint incy) {                                        \
    hb::swap(#P "SWAP", n, ptr<T>(x), incx, ptr<T>(y), incy);                                                   \
  }                                                                                                             \
  void cblas_##P##copy(cint n, const void* x, cint incx, void* y, cint incy) {                                  \
    hb::copy(#P "COPY", n, ptr<T>(x), incx, ptr<T>(y), incy);                                                   \
  }                                                                                                             \
  void cblas_##P##axpy(cint n, const void* alpha, const void* x, cint incx, void* y, cint incy) {               \
    hb::axpy(#P "AXPY", n, val<T>(alpha), ptr<T>(x), incx, ptr<T>(y), incy);                                    \
  }                                                                                                             \
  void cblas_##P##scal(cint n, const void* alpha, void* x, cint incx) {                                         \
    hb::scal(#P "SCAL", n, val<T>(alpha), ptr<T>(x), incx);                                                     \
  }                                                                                                             \
  void cblas_##S##scal(cint n, R alpha, void* x, cint incx) { hb::scal(#S "SCAL", n, alpha, ptr<T>(x), incx); } \
  void cblas_##P##dotu_sub(cint n, const void* x, cint incx, const void* y, cint incy, void* r) {               \
    *ptr<T>(r) = hb::dot(#P "DOTU", hb::Dot::U, n, ptr<T>(x), incx, ptr<T>(y), incy);                           \
  }                                                                                                             \
  void cblas_##P##dotc_sub(cint n, const void* x, cint incx, const void* y, cint incy, void* r) {               \
    *ptr<T>(r) = hb::dot(#P "DOTC", hb::Dot::C, n, ptr<T>(x), incx, ptr<T>(y), incy);                           \
  }                                                                                                             \
  R cblas_##N2(cint n, const void* x, cint incx) { return hb::norm<T, true>(#N2, n, ptr<T>(x), incx); }         \
  R cblas_##AS(cint n, const void* x, cint incx) { return hb::norm<T, false>(#AS, n, ptr<T>(x), incx); }        \
  std::size_t cblas_i##P##amax(cint n, const void* x, cint incx) {                                              \
    const auto i = hb::iamax("I" #P "AMAX", n, ptr<T>(x), incx);                                                \
    return i < 0 ? 0 : std::size_t(i);                                                                          \
  }                                                                                                             \
  void cblas_##S##rot(cint n, void* x, cint incx, void* y, cint incy, R c, R s) {                               \
    hb::rot(#S "ROT", n, ptr<T>(x), incx, ptr<T>(y), incy, c, s);                                               \
  }                                                                                                             \
  void cblas_##P##rotg(void* a, void* b, R* c, void* s) { optune::rotg(*ptr<T>(a), val<T>(b), *c, *ptr<T>(s)); }
OPTUNE_CBLAS_COMPLEX(c, c32, float, cs, scnrm2, scasum)
OPTUNE_CBLAS_COMPLEX(z, c64, double, zd, dznrm2, dzasum)

float cblas_scabs1(const void* z) { return hb::cabs1(val<c32>(z)); }
double cblas_dcabs1(const void* z) { return hb::cabs1(val<c64>(z)); }

// ---- level 3 ----
#define OPTUNE_CBLAS_GEMM(P, T, NAME)                                                                           \
  void cblas_##P##gemm(int layout, int ta, int tb, cint m, cint n, cint k, T alpha, const T* a, cint lda,       \
                       const T* b, cint ldb, T beta, T* c, cint ldc) {                                          \
    cblas_gemm("cblas_" #P "gemm", NAME, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);         \
  }
OPTUNE_CBLAS_GEMM(s, float, "SGEMM ")
OPTUNE_CBLAS_GEMM(d, double, "DGEMM ")

}  // extern "C"
