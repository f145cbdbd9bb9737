// Argument errors of the host interface, reported as the reference BLAS and
// CBLAS report them: through xerbla_ and cblas_xerbla, looked up through the
// dynamic linker at each error, so that a program's own definitions (netlib's
// test programs have them) replace the library's.
#pragma once

namespace optune::hostblas {

// xerbla_(name, &info, strlen(name)) as the Fortran routines call it; name is
// the routine's name as the reference spells it ("SGEMM ").
void report_xerbla(const char* name, int info) noexcept;
// cblas_xerbla(info, rout, form, ...) as netlib's CBLAS wrappers call it.
void report_cblas_xerbla(int info, const char* rout, const char* form, int value) noexcept;

// Netlib's CBLAS globals, which its test programs read: set while a CBLAS
// wrapper runs (RowMajorStrg when called row-major).
struct CblasScope {
  explicit CblasScope(bool row_major);
  ~CblasScope();
};

// Fortran's character arguments: the first letter, upper-cased.
char upper(const char* c) noexcept;

}  // namespace optune::hostblas
