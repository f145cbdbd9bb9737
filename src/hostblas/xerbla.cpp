// xerbla_, cblas_xerbla, lsame_ and netlib CBLAS's globals (xerbla.hpp).
#include "hostblas/xerbla.hpp"

#include <dlfcn.h>

#include <cctype>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {

// Netlib's CBLAS globals, exported as the reference's libblas.so.3 exports them.
int RowMajorStrg = 0;
int CBLAS_CallFromC = 0;

// The reference's xerbla: the message, then STOP.
void xerbla_(const char* srname, const int* info, std::size_t len) {
  std::size_t n = 0;
  while (n < len && srname[n] != ' ' && srname[n] != '\0') ++n;
  std::printf(" ** On entry to %.*s parameter number %2d had an illegal value\n", int(n), srname, *info);
  std::fflush(stdout);
  std::exit(1);
}

// LAPACK's xerbla_array: the name as an array of characters.
void xerbla_array_(const char* srname_array, const int* srname_len, const int* info, std::size_t) {
  char name[32] = {0};
  const int n = *srname_len < 0 ? 0 : *srname_len > 31 ? 31 : *srname_len;
  std::memcpy(name, srname_array, std::size_t(n));
  xerbla_(name, info, std::size_t(n));
}

// Netlib's cblas_xerbla: the parameter's position and routine, the form's
// message, then exit.
void cblas_xerbla(int info, const char* rout, const char* form, ...) {
  std::va_list args;
  va_start(args, form);
  std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  std::vfprintf(stderr, form, args);
  va_end(args);
  std::exit(-1);
}

// Whether two characters are one letter, in either case.
int lsame_(const char* ca, const char* cb, std::size_t, std::size_t) {
  return std::toupper(static_cast<unsigned char>(*ca)) == std::toupper(static_cast<unsigned char>(*cb));
}

}  // extern "C"

namespace optune::hostblas {

namespace {
// The first definition the dynamic linker finds (the program's own, or a
// library loaded before this one), else this library's.
template <class F>
F resolve(const char* symbol, F own) {
  if (void* p = dlsym(RTLD_DEFAULT, symbol)) return reinterpret_cast<F>(p);
  return own;
}
}  // namespace

void report_xerbla(const char* name, int info) noexcept {
  using Fn = void (*)(const char*, const int*, std::size_t);
  resolve<Fn>("xerbla_", &xerbla_)(name, &info, std::strlen(name));
}

void report_cblas_xerbla(int info, const char* rout, const char* form, int value) noexcept {
  using Fn = void (*)(int, const char*, const char*, ...);
  resolve<Fn>("cblas_xerbla", &cblas_xerbla)(info, rout, form, value);
}

CblasScope::CblasScope(bool row_major) {
  CBLAS_CallFromC = 1;
  RowMajorStrg = row_major ? 1 : 0;
}

CblasScope::~CblasScope() {
  CBLAS_CallFromC = 0;
  RowMajorStrg = 0;
}

char upper(const char* c) noexcept { return char(std::toupper(static_cast<unsigned char>(*c))); }

}  // namespace optune::hostblas
