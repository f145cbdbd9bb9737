// What the CBLAS files (cblas.cpp, cblas_level3.cpp) share: netlib's CBLAS
// enums, the Fortran characters of their values, and the argument checks of
// netlib's CBLAS wrappers with their positions. Each file has its own copy
// (an anonymous namespace: nothing here is exported).
#pragma once

#include "hostblas/engine.hpp"
#include "hostblas/xerbla.hpp"

namespace hb = optune::hostblas;
using hb::c32;
using hb::c64;
using cint = int;

enum CblasLayout { CblasRowMajor = 101, CblasColMajor = 102 };
enum CblasTranspose { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
enum CblasUplo { CblasUpper = 121, CblasLower = 122 };
enum CblasDiag { CblasNonUnit = 131, CblasUnit = 132 };
enum CblasSide { CblasLeft = 141, CblasRight = 142 };

namespace {
template <class T> const T& val(const void* p) { return *static_cast<const T*>(p); }
template <class T> T* ptr(void* p) { return static_cast<T*>(p); }
template <class T> const T* ptr(const void* p) { return static_cast<const T*>(p); }

// The Fortran character of a CBLAS transpose, 0 when it is none.
inline char trans_char(int t) {
  return t == CblasNoTrans ? 'N' : t == CblasTrans ? 'T' : t == CblasConjTrans ? 'C' : 0;
}

// The Fortran characters of CBLAS's uplo, diag and side, 0 when none; `flip`
// gives the other one (a row-major call's transposed problem).
inline char uplo_char(int u, bool flip) {
  return u == CblasUpper ? (flip ? 'L' : 'U') : u == CblasLower ? (flip ? 'U' : 'L') : 0;
}
inline char diag_char(int d) { return d == CblasNonUnit ? 'N' : d == CblasUnit ? 'U' : 0; }
inline char side_char(int s, bool flip) {
  return s == CblasLeft ? (flip ? 'R' : 'L') : s == CblasRight ? (flip ? 'L' : 'R') : 0;
}
// A real matrix's transpose for a row-major call: N <-> T (C as T).
inline char flip_trans(char t) { return t == 'N' ? 'T' : t ? 'N' : 0; }

// The checks of netlib's CBLAS wrappers, in their order: layout (1), then
// each of the given enums at its position. Returns false after reporting.
struct CblasArgs {
  const char* name;
  int layout;
  bool row() const { return layout == CblasRowMajor; }
  bool layout_ok() const {
    if (layout == CblasRowMajor || layout == CblasColMajor) return true;
    hb::report_cblas_xerbla(1, name, "Illegal layout setting, %d\n", layout);
    return false;
  }
  bool ok(char c, int pos, const char* form, int value) const {
    if (c) return true;
    hb::report_cblas_xerbla(pos, name, form, value);
    return false;
  }
};
constexpr const char* kUplo = "Illegal Uplo setting, %d\n";
constexpr const char* kTrans = "Illegal TransA setting, %d\n";
constexpr const char* kDiag = "Illegal Diag setting, %d\n";
constexpr const char* kSide = "Illegal Side setting, %d\n";

}  // namespace
