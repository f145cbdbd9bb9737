// cuBLAS's C API as optune's reference loads it at run time (cublas.cpp
// holds the ReferenceBlas over it): the enums and function types of
// cublas_api.h and library_types.h this tool calls, the table of loaded
// entry points, and the loader (libcublas.so.OPTUNE_CUBLAS_MAJOR from
// OPTUNE_CUBLAS_LIBRARY, the toolkit's library folder or CUDA_PATH; the
// optional entry points may be missing).
#pragma once

#include <complex>
#include <string>

#include "dynamic_library.hpp"
#include "reference_blas.hpp"

namespace optune::tool::cublas {

// cublas_api.h and library_types.h: every enum is a C enum (int).
struct CublasContext;
using Handle = CublasContext*;
enum : int { kSuccess = 0, kOpN = 0, kOpT = 1, kDefaultMath = 0, kGemmDefault = -1 };
enum : int { kR32F = 0, kR64F = 1, kR16F = 2, kR16BF = 14 };  // cudaDataType
enum : int { kCompute16F = 64, kCompute32F = 68, kCompute32FFastTF32 = 77, kCompute64F = 70 };
enum : int { kMajorVersion = 0, kMinorVersion = 1, kPatchLevel = 2 };  // libraryPropertyType

using CreateFn = int(Handle*);
using DestroyFn = int(Handle);
using SetStreamFn = int(Handle, void* stream);
using SetMathModeFn = int(Handle, int mode);
using GetPropertyFn = int(int type, int* value);
using StatusStringFn = const char*(int status);
template <class S>
using GemmFn = int(Handle, int ta, int tb, int m, int n, int k, const S* alpha, const S* a, int lda, const S* b,
                   int ldb, const S* beta, S* c, int ldc);
template <class S>
using StridedBatchedFn = int(Handle, int ta, int tb, int m, int n, int k, const S* alpha, const S* a, int lda,
                             long long stride_a, const S* b, int ldb, long long stride_b, const S* beta, S* c, int ldc,
                             long long stride_c, int batch);
using GemmExFn = int(Handle, int ta, int tb, int m, int n, int k, const void* alpha, const void* a, int a_type,
                     int lda, const void* b, int b_type, int ldb, const void* beta, void* c, int c_type, int ldc,
                     int compute, int algo);
using GemmStridedBatchedExFn = int(Handle, int ta, int tb, int m, int n, int k, const void* alpha, const void* a,
                                   int a_type, int lda, long long stride_a, const void* b, int b_type, int ldb,
                                   long long stride_b, const void* beta, void* c, int c_type, int ldc,
                                   long long stride_c, int batch, int compute, int algo);

using SetPointerModeFn = int(Handle, int mode);  // 0 host, 1 device
template <class S>
using AxpyFn = int(Handle, int n, const S* alpha, const S* x, int incx, S* y, int incy);
template <class S>
using DotFn = int(Handle, int n, const S* x, int incx, const S* y, int incy, S* result);
template <class S, class R>
using Nrm2Fn = int(Handle, int n, const S* x, int incx, R* result);
using C32 = std::complex<float>;  // cuComplex's layout
using C64 = std::complex<double>;  // cuDoubleComplex's layout
// The mixed-type level 1 (types are cudaDataType; alpha and result on the
// pointer mode's side).
using AxpyExFn = int(Handle, int n, const void* alpha, int alpha_type, const void* x, int x_type, int incx, void* y,
                     int y_type, int incy, int execution_type);
using DotExFn = int(Handle, int n, const void* x, int x_type, int incx, const void* y, int y_type, int incy,
                    void* result, int result_type, int execution_type);
using Nrm2ExFn = int(Handle, int n, const void* x, int x_type, int incx, void* result, int result_type,
                     int execution_type);
// trmv and trsv: (handle, uplo, trans, diag, n, A, lda, x, incx).
template <class S>
using TriFn = int(Handle, int uplo, int trans, int diag, int n, const S* a, int lda, S* x, int incx);
enum : int { kSideLeft = 0, kSideRight = 1, kFillLower = 0, kFillUpper = 1 };  // cublasSideMode_t, cublasFillMode_t
enum : int { kNotSupported = 15 };  // CUBLAS_STATUS_NOT_SUPPORTED: a call not wired here (strided cgemm)
template <class S>
using SymmFn = int(Handle, int side, int uplo, int m, int n, const S* alpha, const S* a, int lda, const S* b, int ldb,
                   const S* beta, S* c, int ldc);
// Level 3 (cublas_api.h: fill mode lower 0, side left 0, diag unit 1).
enum : int { kDiagUnit = 1 };
template <class S>
using SyrkFn = int(Handle, int uplo, int trans, int n, int k, const S* alpha, const S* a, int lda, const S* beta, S* c,
                   int ldc);
template <class S>
using Syr2kFn = int(Handle, int uplo, int trans, int n, int k, const S* alpha, const S* a, int lda, const S* b,
                    int ldb, const S* beta, S* c, int ldc);
template <class S>
using TrmmFn = int(Handle, int side, int uplo, int trans, int diag, int m, int n, const S* alpha, const S* a, int lda,
                   const S* b, int ldb, S* c, int ldc);
template <class S>
using TrsmFn = int(Handle, int side, int uplo, int trans, int diag, int m, int n, const S* alpha, const S* a, int lda,
                   S* b, int ldb);
// cherk and cher2k: real alpha (herk) and beta.
using HerkFn = int(Handle, int uplo, int trans, int n, int k, const float* alpha, const C32* a, int lda,
                   const float* beta, C32* c, int ldc);
using Her2kFn = int(Handle, int uplo, int trans, int n, int k, const C32* alpha, const C32* a, int lda, const C32* b,
                    int ldb, const float* beta, C32* c, int ldc);
template <class S>
struct Level3Api {
  SyrkFn<S>* syrk = nullptr;
  Syr2kFn<S>* syr2k = nullptr;
  TrmmFn<S>* trmm = nullptr;
  TrsmFn<S>* trsm = nullptr;
  HerkFn* herk = nullptr;  // c32 only
  Her2kFn* her2k = nullptr;
  bool loaded() const { return syrk && syr2k && trmm && trsm; }
};

// Level 2 (column-major; op 0 N, 1 T; fill mode 1 upper).
template <class S>
using GemvFn = int(Handle, int trans, int m, int n, const S* alpha, const S* a, int lda, const S* x, int incx,
                   const S* beta, S* y, int incy);
template <class S>
using GerFn = int(Handle, int m, int n, const S* alpha, const S* x, int incx, const S* y, int incy, S* a, int lda);
template <class S>
using SymvFn = int(Handle, int uplo, int n, const S* alpha, const S* a, int lda, const S* x, int incx, const S* beta,
                   S* y, int incy);
template <class S>
struct Level2Fns {
  GemvFn<S>* gemv = nullptr;
  GerFn<S>* ger = nullptr;    // c32, c64: geru
  SymvFn<S>* symv = nullptr;  // c32, c64: hemv
  bool loaded() const { return gemv && ger && symv; }
};

struct CublasApi {
  LibraryProbe probe;
  CreateFn* create = nullptr;
  DestroyFn* destroy = nullptr;
  SetStreamFn* set_stream = nullptr;
  SetMathModeFn* set_math_mode = nullptr;
  GetPropertyFn* get_property = nullptr;
  StatusStringFn* status_string = nullptr;  // optional
  GemmFn<float>* sgemm = nullptr;
  GemmFn<double>* dgemm = nullptr;
  StridedBatchedFn<float>* sgemm_strided_batched = nullptr;
  StridedBatchedFn<double>* dgemm_strided_batched = nullptr;
  GemmExFn* gemm_ex = nullptr;
  GemmStridedBatchedExFn* gemm_strided_batched_ex = nullptr;
  SetPointerModeFn* set_pointer_mode = nullptr;
  AxpyFn<float>* saxpy = nullptr;
  AxpyFn<double>* daxpy = nullptr;
  AxpyFn<C32>* caxpy = nullptr;
  DotFn<float>* sdot = nullptr;
  DotFn<double>* ddot = nullptr;
  DotFn<C32>* cdotc = nullptr;
  Nrm2Fn<float, float>* snrm2 = nullptr;
  Nrm2Fn<double, double>* dnrm2 = nullptr;
  Nrm2Fn<C32, float>* scnrm2 = nullptr;
  AxpyExFn* axpy_ex = nullptr;  // optional: the h level-1 rows go without a reference when missing
  DotExFn* dot_ex = nullptr;
  Nrm2ExFn* nrm2_ex = nullptr;
  TriFn<float>* strmv = nullptr;  // optional, as the triangular rows
  TriFn<double>* dtrmv = nullptr;
  TriFn<C32>* ctrmv = nullptr;
  TriFn<float>* strsv = nullptr;
  TriFn<double>* dtrsv = nullptr;
  TriFn<C32>* ctrsv = nullptr;
  GemmFn<C32>* cgemm = nullptr;
  SymmFn<float>* ssymm = nullptr;
  Level3Api<float> s3;  // optional: level-3 rows are skipped without them
  Level3Api<double> d3;
  Level3Api<C32> c3;
  // Optional: level 2 is left out of the comparison where one is missing.
  Level2Fns<float> s2;
  Level2Fns<double> d2;
  Level2Fns<C32> c2;
  Level2Fns<C64> z2;
};

// The entry points, loaded once (probe.loaded false, with the reason, where
// the library or a required symbol is missing).
const CublasApi& load();
// A status code as text (cublasGetStatusString where the library has it).
std::string status_text(const CublasApi& api, int s);

}  // namespace optune::tool::cublas
