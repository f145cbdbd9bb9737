// The CBLAS symbols (netlib's cblas.h, 32-bit CBLAS_INT) of levels 1 and 2,
// over the routines of level1.hpp and level2.hpp (level2_complex.hpp); level
// 3's are in cblas_level3.cpp, the argument checks they share in
// cblas_args.hpp. As in
// netlib's CBLAS: cblas_i?amax returns the 0-based index; the layout and the enum arguments
// (transpose, uplo, diag, side) are checked here
// (cblas_xerbla, with the CBLAS argument's position), everything else by
// the Fortran-level routine (xerbla_); a row-major call runs as the
// column-major call of the transposed problem, with RowMajorStrg set while it
// runs (netlib's test programs read it to renumber xerbla's positions).
#include <cstddef>
#include <type_traits>

#include "hostblas/cblas_args.hpp"
#include "hostblas/level1.hpp"
#include "hostblas/level2.hpp"
#include "hostblas/level2_complex.hpp"
#include "hostblas/xerbla.hpp"


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
  return float(hb::dsdot("SDSDOT", n, x, incx, y, incy, double(alpha)));
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

}  // extern "C"

// ---- level 2 (s, d) ----
namespace {
template <class T>
void cblas_gemv(const char* name, const char* f77, int layout, int trans, cint m, cint n, T alpha, const T* a,
                cint lda, const T* x, cint incx, T beta, T* y, cint incy) {
  if constexpr (!std::is_floating_point_v<T>) {
    // Row-major A^H x, as netlib's CBLAS: the row-major Trans problem (the
    // column-major A^T x) on conj(x), conj(y), conj(alpha), conj(beta),
    // whose y is conj of the result (conjugated back).
    if (layout == CblasRowMajor && trans == CblasConjTrans) {
      const hb::Conjugated<T> xc(m, x, incx);
      const hb::ConjugatedInPlace<T> yc(n, y, incy);
      return cblas_gemv(name, f77, layout, CblasTrans, m, n, std::conj(alpha), a, lda, xc.p, cint(xc.inc),
                        std::conj(beta), y, incy);
    }
  }
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  const char t = trans_char(trans);
  if (!args.ok(t, 2, kTrans, trans)) return;
  if (args.row()) hb::gemv(f77, flip_trans(t), n, m, alpha, a, lda, x, incx, beta, y, incy);
  else hb::gemv(f77, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}
template <class T>
void cblas_gbmv(const char* name, const char* f77, int layout, int trans, cint m, cint n, cint kl, cint ku, T alpha,
                const T* a, cint lda, const T* x, cint incx, T beta, T* y, cint incy) {
  if constexpr (!std::is_floating_point_v<T>) {
    if (layout == CblasRowMajor && trans == CblasConjTrans) {  // as gemv's
      const hb::Conjugated<T> xc(m, x, incx);
      const hb::ConjugatedInPlace<T> yc(n, y, incy);
      return cblas_gbmv(name, f77, layout, CblasTrans, m, n, kl, ku, std::conj(alpha), a, lda, xc.p, cint(xc.inc),
                        std::conj(beta), y, incy);
    }
  }
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  const char t = trans_char(trans);
  if (!args.ok(t, 2, kTrans, trans)) return;
  if (args.row()) hb::gbmv(f77, flip_trans(t), n, m, ku, kl, alpha, a, lda, x, incx, beta, y, incy);
  else hb::gbmv(f77, t, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy);
}
// The routines whose only enum is uplo (symv, sbmv, spmv, syr, spr, syr2,
// spr2): fn(the Fortran uplo) after the checks.
template <class Fn>
void cblas_uplo_only(const char* name, int layout, int uplo, Fn&& fn) {
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  const char u = uplo_char(uplo, args.row());
  if (!args.ok(u, 2, kUplo, uplo)) return;
  fn(u);
}
template <class T>
void cblas_tr(const char* name, const char* f77, bool solve, hb::Tri kind, int layout, int uplo, int trans, int diag,
              cint n, cint k, const T* a, cint lda, T* x, cint incx) {
  if constexpr (!std::is_floating_point_v<T>) {
    // Row-major A^H (netlib's CBLAS): the row-major Trans problem on conj(x),
    // in place, whose result is conjugated back.
    if (layout == CblasRowMajor && trans == CblasConjTrans) {
      const hb::ConjugatedInPlace<T> xc(n, x, incx);
      return cblas_tr(name, f77, solve, kind, layout, uplo, CblasTrans, diag, n, k, a, lda, x, incx);
    }
  }
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  const char u = uplo_char(uplo, args.row()), t0 = trans_char(trans), d = diag_char(diag);
  if (!args.ok(u, 2, kUplo, uplo) || !args.ok(t0, 3, kTrans, trans) || !args.ok(d, 4, kDiag, diag)) return;
  hb::tr_any(f77, solve, kind, u, args.row() ? flip_trans(t0) : t0, d, n, k, a, lda, x, incx);
}
// syrk, syr2k; herm: herk and her2k, whose row-major call is the
// column-major one with N <-> C (T as C) and, for her2k, conj(alpha), as
// netlib's cblas_cher2k.
}  // namespace

extern "C" {

#define OPTUNE_CBLAS_TRI(P, T, N, op, OP, SOLVE)                                                                \
  void cblas_##P##tr##op(int lo, int ul, int tr, int dg, cint n, const T* a, cint lda, T* x, cint incx) {       \
    cblas_tr("cblas_" #P "tr" #op, N "TR" #OP " ", SOLVE, hb::Tri::Full, lo, ul, tr, dg, n, 0, a, lda, x, incx); \
  }                                                                                                             \
  void cblas_##P##tb##op(int lo, int ul, int tr, int dg, cint n, cint k, const T* a, cint lda, T* x,            \
                         cint incx) {                                                                           \
    cblas_tr("cblas_" #P "tb" #op, N "TB" #OP " ", SOLVE, hb::Tri::Band, lo, ul, tr, dg, n, k, a, lda, x, incx); \
  }                                                                                                             \
  void cblas_##P##tp##op(int lo, int ul, int tr, int dg, cint n, const T* ap, T* x, cint incx) {                \
    cblas_tr("cblas_" #P "tp" #op, N "TP" #OP " ", SOLVE, hb::Tri::Packed, lo, ul, tr, dg, n, 0, ap, 0, x, incx); \
  }
#define OPTUNE_CBLAS_LEVEL2(P, T, N)                                                                            \
  void cblas_##P##gemv(int lo, int tr, cint m, cint n, T alpha, const T* a, cint lda, const T* x, cint incx,    \
                       T beta, T* y, cint incy) {                                                               \
    cblas_gemv("cblas_" #P "gemv", N "GEMV ", lo, tr, m, n, alpha, a, lda, x, incx, beta, y, incy);            \
  }                                                                                                             \
  void cblas_##P##gbmv(int lo, int tr, cint m, cint n, cint kl, cint ku, T alpha, const T* a, cint lda,         \
                       const T* x, cint incx, T beta, T* y, cint incy) {                                        \
    cblas_gbmv("cblas_" #P "gbmv", N "GBMV ", lo, tr, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy);    \
  }                                                                                                             \
  void cblas_##P##symv(int lo, int ul, cint n, T alpha, const T* a, cint lda, const T* x, cint incx, T beta,    \
                       T* y, cint incy) {                                                                       \
    cblas_uplo_only("cblas_" #P "symv", lo, ul,                                                                 \
                    [&](char u) { hb::symv(N "SYMV ", u, n, alpha, a, lda, x, incx, beta, y, incy); });         \
  }                                                                                                             \
  void cblas_##P##sbmv(int lo, int ul, cint n, cint k, T alpha, const T* a, cint lda, const T* x, cint incx,    \
                       T beta, T* y, cint incy) {                                                               \
    cblas_uplo_only("cblas_" #P "sbmv", lo, ul,                                                                 \
                    [&](char u) { hb::sbmv(N "SBMV ", u, n, k, alpha, a, lda, x, incx, beta, y, incy); });      \
  }                                                                                                             \
  void cblas_##P##spmv(int lo, int ul, cint n, T alpha, const T* ap, const T* x, cint incx, T beta, T* y,       \
                       cint incy) {                                                                             \
    cblas_uplo_only("cblas_" #P "spmv", lo, ul,                                                                 \
                    [&](char u) { hb::spmv(N "SPMV ", u, n, alpha, ap, x, incx, beta, y, incy); });             \
  }                                                                                                             \
  void cblas_##P##ger(int lo, cint m, cint n, T alpha, const T* x, cint incx, const T* y, cint incy, T* a,      \
                      cint lda) {                                                                               \
    const CblasArgs args{"cblas_" #P "ger", lo};                                                                \
    hb::CblasScope scope(args.row());                                                                           \
    if (!args.layout_ok()) return;                                                                              \
    if (args.row()) hb::ger(N "GER  ", n, m, alpha, y, incy, x, incx, a, lda);                                  \
    else hb::ger(N "GER  ", m, n, alpha, x, incx, y, incy, a, lda);                                             \
  }                                                                                                             \
  void cblas_##P##syr(int lo, int ul, cint n, T alpha, const T* x, cint incx, T* a, cint lda) {                 \
    cblas_uplo_only("cblas_" #P "syr", lo, ul,                                                                  \
                    [&](char u) { hb::syr_any<T>(N "SYR  ", u, n, alpha, x, incx, nullptr, 0, a, lda); });      \
  }                                                                                                             \
  void cblas_##P##spr(int lo, int ul, cint n, T alpha, const T* x, cint incx, T* ap) {                          \
    cblas_uplo_only("cblas_" #P "spr", lo, ul,                                                                  \
                    [&](char u) { hb::syr_any<T>(N "SPR  ", u, n, alpha, x, incx, nullptr, 0, ap, -1); });      \
  }                                                                                                             \
  void cblas_##P##syr2(int lo, int ul, cint n, T alpha, const T* x, cint incx, const T* y, cint incy, T* a,     \
                       cint lda) {                                                                              \
    cblas_uplo_only("cblas_" #P "syr2", lo, ul,                                                                 \
                    [&](char u) { hb::syr_any<T>(N "SYR2 ", u, n, alpha, x, incx, y, incy, a, lda); });         \
  }                                                                                                             \
  void cblas_##P##spr2(int lo, int ul, cint n, T alpha, const T* x, cint incx, const T* y, cint incy, T* ap) {  \
    cblas_uplo_only("cblas_" #P "spr2", lo, ul,                                                                 \
                    [&](char u) { hb::syr_any<T>(N "SPR2 ", u, n, alpha, x, incx, y, incy, ap, -1); });         \
  }                                                                                                             \
  OPTUNE_CBLAS_TRI(P, T, N, mv, MV, false)                                                                      \
  OPTUNE_CBLAS_TRI(P, T, N, sv, SV, true)
OPTUNE_CBLAS_LEVEL2(s, float, "S")
OPTUNE_CBLAS_LEVEL2(d, double, "D")

}  // extern "C"

// ---- level 2 (c, z) ----
namespace {
// hemv (Tri::Full), hbmv (Band) and hpmv (Packed). Row-major as netlib's
// CBLAS: the other triangle (the column-major A^T = conj(A)) on conj(x),
// conj(y), conj(alpha), conj(beta), y conjugated back after.
template <class T>
void cblas_hemv_any(const char* name, const char* f77, hb::Tri kind, int layout, int uplo, cint n, cint k, T alpha,
                    const T* a, cint lda, const T* x, cint incx, T beta, T* y, cint incy) {
  const bool row = layout == CblasRowMajor;
  cblas_uplo_only(name, layout, uplo, [&](char u) {
    if (!row) return hb::hemv_any(f77, kind, u, n, k, alpha, a, lda, x, incx, beta, y, incy);
    const hb::Conjugated<T> xc(n, x, incx);
    const hb::ConjugatedInPlace<T> yc(n, y, incy);
    hb::hemv_any(f77, kind, u, n, k, std::conj(alpha), a, lda, xc.p, xc.inc, std::conj(beta), y, incy);
  });
}
// her, hpr (y == nullptr; alpha real, as T) and her2, hpr2; lda < 0 packed.
// Row-major as netlib's CBLAS: the other triangle, on conjugated copies of
// x (and y), her2 / hpr2 with x and y swapped.
template <class T>
void cblas_her_any(const char* name, const char* f77, int layout, int uplo, cint n, T alpha, const T* x, cint incx,
                   const T* y, cint incy, T* a, cint lda) {
  const bool row = layout == CblasRowMajor;
  cblas_uplo_only(name, layout, uplo, [&](char u) {
    if (!row) return hb::syr_any<T>(f77, u, n, alpha, x, incx, y, incy, a, lda);
    const hb::Conjugated<T> xc(n, x, incx), yc(y ? n : 0, y, incy);
    if (y) hb::syr_any<T>(f77, u, n, alpha, yc.p, yc.inc, xc.p, xc.inc, a, lda);
    else hb::syr_any<T>(f77, u, n, alpha, xc.p, xc.inc, nullptr, 0, a, lda);
  });
}
// geru (conj false) and gerc. Row-major as netlib's CBLAS: geru of the
// transposed problem (y and x swapped), gerc's y a conjugated copy; netlib
// calls the Fortran geru for both, so xerbla names it.
template <class T>
void cblas_ger_complex(const char* name, const char* f77u, const char* f77c, bool conj, int layout, cint m, cint n,
                       T alpha, const T* x, cint incx, const T* y, cint incy, T* a, cint lda) {
  const CblasArgs args{name, layout};
  hb::CblasScope scope(args.row());
  if (!args.layout_ok()) return;
  if (!args.row()) return hb::geru_any(conj ? f77c : f77u, conj, m, n, alpha, x, incx, y, incy, a, lda);
  const hb::Conjugated<T> yc(conj ? n : 0, y, incy);
  hb::geru_any(f77u, false, n, m, alpha, yc.p, yc.inc, x, incx, a, lda);
}
}  // namespace

extern "C" {

// Complex scalars and arrays as void* (netlib's cblas.h); the triangular
// routines' arrays are typed here (the same pointers to the linker).
#define OPTUNE_CBLAS_LEVEL2_COMPLEX(P, T, R, N)                                                                 \
  void cblas_##P##gemv(int lo, int tr, cint m, cint n, const void* alpha, const void* a, cint lda,              \
                       const void* x, cint incx, const void* beta, void* y, cint incy) {                        \
    cblas_gemv("cblas_" #P "gemv", N "GEMV ", lo, tr, m, n, val<T>(alpha), ptr<T>(a), lda, ptr<T>(x), incx,     \
               val<T>(beta), ptr<T>(y), incy);                                                                  \
  }                                                                                                             \
  void cblas_##P##gbmv(int lo, int tr, cint m, cint n, cint kl, cint ku, const void* alpha, const void* a,      \
                       cint lda, const void* x, cint incx, const void* beta, void* y, cint incy) {              \
    cblas_gbmv("cblas_" #P "gbmv", N "GBMV ", lo, tr, m, n, kl, ku, val<T>(alpha), ptr<T>(a), lda, ptr<T>(x),   \
               incx, val<T>(beta), ptr<T>(y), incy);                                                            \
  }                                                                                                             \
  void cblas_##P##hemv(int lo, int ul, cint n, const void* alpha, const void* a, cint lda, const void* x,       \
                       cint incx, const void* beta, void* y, cint incy) {                                       \
    cblas_hemv_any("cblas_" #P "hemv", N "HEMV ", hb::Tri::Full, lo, ul, n, 0, val<T>(alpha), ptr<T>(a), lda,   \
                   ptr<T>(x), incx, val<T>(beta), ptr<T>(y), incy);                                             \
  }                                                                                                             \
  void cblas_##P##hbmv(int lo, int ul, cint n, cint k, const void* alpha, const void* a, cint lda,              \
                       const void* x, cint incx, const void* beta, void* y, cint incy) {                        \
    cblas_hemv_any("cblas_" #P "hbmv", N "HBMV ", hb::Tri::Band, lo, ul, n, k, val<T>(alpha), ptr<T>(a), lda,   \
                   ptr<T>(x), incx, val<T>(beta), ptr<T>(y), incy);                                             \
  }                                                                                                             \
  void cblas_##P##hpmv(int lo, int ul, cint n, const void* alpha, const void* ap, const void* x, cint incx,     \
                       const void* beta, void* y, cint incy) {                                                  \
    cblas_hemv_any("cblas_" #P "hpmv", N "HPMV ", hb::Tri::Packed, lo, ul, n, 0, val<T>(alpha), ptr<T>(ap), 0,  \
                   ptr<T>(x), incx, val<T>(beta), ptr<T>(y), incy);                                             \
  }                                                                                                             \
  void cblas_##P##geru(int lo, cint m, cint n, const void* alpha, const void* x, cint incx, const void* y,      \
                       cint incy, void* a, cint lda) {                                                          \
    cblas_ger_complex("cblas_" #P "geru", N "GERU ", N "GERC ", false, lo, m, n, val<T>(alpha), ptr<T>(x),      \
                      incx, ptr<T>(y), incy, ptr<T>(a), lda);                                                   \
  }                                                                                                             \
  void cblas_##P##gerc(int lo, cint m, cint n, const void* alpha, const void* x, cint incx, const void* y,      \
                       cint incy, void* a, cint lda) {                                                          \
    cblas_ger_complex("cblas_" #P "gerc", N "GERU ", N "GERC ", true, lo, m, n, val<T>(alpha), ptr<T>(x),       \
                      incx, ptr<T>(y), incy, ptr<T>(a), lda);                                                   \
  }                                                                                                             \
  void cblas_##P##her(int lo, int ul, cint n, R alpha, const void* x, cint incx, void* a, cint lda) {           \
    cblas_her_any<T>("cblas_" #P "her", N "HER  ", lo, ul, n, T(alpha), ptr<T>(x), incx, nullptr, 0, ptr<T>(a), \
                        lda);                                                                                   \
  }                                                                                                             \
  void cblas_##P##hpr(int lo, int ul, cint n, R alpha, const void* x, cint incx, void* ap) {                    \
    cblas_her_any<T>("cblas_" #P "hpr", N "HPR  ", lo, ul, n, T(alpha), ptr<T>(x), incx, nullptr, 0,            \
                        ptr<T>(ap), -1);                                                                        \
  }                                                                                                             \
  void cblas_##P##her2(int lo, int ul, cint n, const void* alpha, const void* x, cint incx, const void* y,      \
                       cint incy, void* a, cint lda) {                                                          \
    cblas_her_any<T>("cblas_" #P "her2", N "HER2 ", lo, ul, n, val<T>(alpha), ptr<T>(x), incx, ptr<T>(y),       \
                        incy, ptr<T>(a), lda);                                                                  \
  }                                                                                                             \
  void cblas_##P##hpr2(int lo, int ul, cint n, const void* alpha, const void* x, cint incx, const void* y,      \
                       cint incy, void* ap) {                                                                   \
    cblas_her_any<T>("cblas_" #P "hpr2", N "HPR2 ", lo, ul, n, val<T>(alpha), ptr<T>(x), incx, ptr<T>(y),       \
                        incy, ptr<T>(ap), -1);                                                                  \
  }                                                                                                             \
  OPTUNE_CBLAS_TRI(P, T, N, mv, MV, false)                                                                      \
  OPTUNE_CBLAS_TRI(P, T, N, sv, SV, true)
OPTUNE_CBLAS_LEVEL2_COMPLEX(c, c32, float, "C")
OPTUNE_CBLAS_LEVEL2_COMPLEX(z, c64, double, "Z")

}  // extern "C"
