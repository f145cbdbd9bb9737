// Reference BLAS libraries for the benchmark, loaded with dlopen at run time
// when present: CLBlast (libclblast.so.1) on OpenCL devices, cuBLAS
// (libcublas.so.13) on CUDA. They run on optune's own buffers and queue
// (include/optune/interop.hpp), so one run times both on the same operands
// and the results can be compared element by element.
//
// Neither library is needed to build: the few entry points are declared here
// (clblast.cpp, cublas.cpp) with the types of the libraries' C headers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "optune/blas_types.hpp"
#include "optune/gemm.hpp"
#include "optune/interop.hpp"

namespace optune::tool {

// C = alpha * op(A) * op(B) + beta * C, BLAS semantics as optune::gemm; with
// batch > 1, a strided batch (strides in elements). c32 (cgemm) takes alpha
// and beta as real numbers (imaginary parts 0), one product at a time.
struct GemmCall {
  DType dtype = DType::F32;  // A, B and C
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::int64_t m = 0, n = 0, k = 0;
  double alpha = 1, beta = 0;
  std::int64_t lda = 0, ldb = 0, ldc = 0;
  std::int64_t batch = 1, stride_a = 0, stride_b = 0, stride_c = 0;
  // Last, so that positional initialisers of the fields above keep working.
  GemmCompute compute = GemmCompute::Default;  // FastTF32: f32 in tf32 on tensor cores (cuBLAS only)
};

// BLAS level 1 for `optune bench blas`, increments 1 from the buffers' views:
// axpy y = alpha x + y; dot result = x . y (conj(x) . y for c32: dotc);
// nrm2 result = ||x||_2 (a real result for c32). Types f32, f64, c32, and
// f16 (f16 storage and result, f32 arithmetic; cuBLAS's *Ex routines).
enum class Level1Op { Axpy, Dot, Nrm2 };
struct Level1Call {
  Level1Op op = Level1Op::Axpy;
  DType dtype = DType::F32;
  std::int64_t n = 0;
  double alpha = 1;  // axpy (c32: alpha + 0i)
};

// BLAS level 2 triangular for `optune bench blas`: trmv x = A x or trsv
// (the solve A x = b in place), A column-major n x n lower, not transposed,
// non-unit diagonal, x of increment 1. Types f32, f64, c32.
struct TriCall {
  bool solve = false;
  DType dtype = DType::F32;
  std::int64_t n = 0, lda = 0;
};

// symm for `optune bench blas`: C = alpha A B + beta C (Side::Left, A m x m)
// or alpha B A + beta C (Side::Right), A's `triangle` read; f32.
struct SymmCall {
  DType dtype = DType::F32;
  Layout layout = Layout::RowMajor;
  Side side = Side::Left;
  Triangle triangle = Triangle::Upper;
  std::int64_t m = 0, n = 0;
  double alpha = 1, beta = 0;
  std::int64_t lda = 0, ldb = 0, ldc = 0;
};

// BLAS level 3 triangular and rank-k routines for `optune bench blas`, f32,
// f64 and c32, column-major, every matrix n x n with leading dimension n, C's
// and A's lower triangle, no transpose, the left side, a unit diagonal:
// syrk C = alpha A A^T + beta C; syr2k C = alpha (A B^T + B A^T) + beta C;
// trmm B = alpha A B; trsm B = alpha A^-1 B (B in place); c32 only: herk
// C = alpha A A^H + beta C, her2k C = alpha A B^H + alpha B A^H + beta C
// (alpha and beta real).
enum class Level3Op { Syrk, Syr2k, Trmm, Trsm, Herk, Her2k };
struct Level3Call {
  Level3Op op = Level3Op::Syrk;
  DType dtype = DType::F32;
  std::int64_t n = 0;
  double alpha = 1, beta = 0;
};

// BLAS level 2 for `optune bench blas`: column-major n x n, lda n,
// increments 1, alpha 0.5, beta 0. gemv y = A x, gemv_t y = A^T x (the
// row-major product's order), ger A += alpha x y^T (c32: geru), symv
// y = A x from the upper triangle (c32: hemv). f16: gemv and gemv_t on
// cuBLAS (cublasGemmEx with n = 1, f32 compute); unsupported() says why
// not for the rest ("none: cuBLAS has no half ger").
enum class Level2Op { Gemv, GemvT, Ger, Symv };
struct Level2Call {
  Level2Op op = Level2Op::Gemv;
  DType dtype = DType::F32;
  std::int64_t n = 0;
};

// im2col (col from im) or col2im (im += the patches of col) for `optune
// bench blas`: one image of channels x height x width, square kernel,
// pad, stride and dilation, cross-correlation. Types f32, f64, c32.
struct Im2colCall {
  bool to_im = false;  // col2im
  DType dtype = DType::F32;
  std::int64_t channels = 0, height = 0, width = 0, kernel = 3, pad = 1, stride = 1, dilation = 1;
};

class ReferenceBlas {
 public:
  virtual ~ReferenceBlas() = default;
  // Library, version and the mode it runs in, e.g. "CLBlast 1.5.3 (as
  // shipped: its own tuning database, not tuned here)".
  virtual std::string name() const = 0;
  // "" when the library can multiply this type on this device, else why not.
  virtual std::string unsupported(DType t) const = 0;
  // Enqueues the product on q (the queue the library was opened for); the
  // Event spans all of the library's work. Throws Error naming the library's
  // status when the call fails.
  virtual Event gemm(const Queue& q, const GemmCall& call, const interop::NativeBuffer& a,
                     const interop::NativeBuffer& b, const interop::NativeBuffer& c) = 0;

  // "" when the library runs this level-1 call on this device, else why not.
  virtual std::string unsupported(const Level1Call& call) const = 0;
  // Enqueues the call; result (dot, nrm2) is one element of device memory.
  virtual Event level1(const Queue& q, const Level1Call& call, const interop::NativeBuffer& x,
                       const interop::NativeBuffer& y, const interop::NativeBuffer& result) = 0;

  // "" when the library runs this triangular call here, else why not (by
  // default: not wired for the library).
  virtual std::string unsupported(const TriCall&) const { return "not wired for this library"; }
  virtual Event level2_tri(const Queue&, const TriCall&, const interop::NativeBuffer&, const interop::NativeBuffer&) {
    throw Error(Status::Unsupported, name() + ": triangular level 2 is not wired");
  }
  // "" when the library runs this symm on this device, else why not.
  virtual std::string unsupported(const SymmCall& call) const = 0;
  virtual Event symm(const Queue& q, const SymmCall& call, const interop::NativeBuffer& a,
                     const interop::NativeBuffer& b, const interop::NativeBuffer& c) = 0;
  // "" when the library runs this level-3 call on this device, else why not
  // (by default: not compared).
  virtual std::string unsupported(const Level3Call&) const { return "not compared by this library's adapter"; }
  // Enqueues the call (syrk reads a, writes c; syr2k reads a and b, writes c;
  // trmm and trsm read a and overwrite b; c unused there).
  virtual Event level3(const Queue&, const Level3Call&, const interop::NativeBuffer&, const interop::NativeBuffer&,
                       const interop::NativeBuffer&) {
    throw Error(Status::Unsupported, "level 3 is not compared by this library's adapter");
  }

  // "" when the library runs this level-2 call on this device, else why not.
  virtual std::string unsupported(const Level2Call&) const { return "level 2 is not compared with this library"; }
  // Enqueues the call on a (n x n), x and y (n each).
  virtual Event level2(const Queue&, const Level2Call&, const interop::NativeBuffer& /*a*/,
                       const interop::NativeBuffer& /*x*/, const interop::NativeBuffer& /*y*/) {
    throw Error(Status::Unsupported, "level 2 is not compared with this library");
  }

  // "" when the library runs this im2col / col2im here, else why not (by
  // default: the library has none; cuBLAS has none).
  virtual std::string unsupported(const Im2colCall&) const { return "the library has no im2col / col2im"; }
  // Enqueues the call: im2col reads im and writes col, col2im the reverse.
  virtual Event im2col(const Queue&, const Im2colCall&, const interop::NativeBuffer& /*im*/,
                       const interop::NativeBuffer& /*col*/) {
    throw Error(Status::Unsupported, name() + ": im2col / col2im is not wired");
  }

  template <class T>
  Event gemm(const Queue& q, GemmCall call, const Buffer<T>& a, const Buffer<T>& b, const Buffer<T>& c) {
    call.dtype = dtype_of_v<T>;
    return gemm(q, call, interop::native_buffer(a), interop::native_buffer(b), interop::native_buffer(c));
  }
};

// A library found on disk (no device needed to find it).
struct LibraryProbe {
  bool loaded = false;
  std::string path;     // the file dlopen resolved
  std::string version;  // "1.5.3", "13.0.2"; "" when unknown
  std::string reason;   // why it could not be loaded
};

// Destroys a CUDA library's handle (cuBLAS, cuDNN) made for queue q, inside
// q's native context, and clears it; a failure is ignored (at exit the driver
// may refuse, and the process is ending anyway).
template <class Handle, class Destroy>
void destroy_cuda_handle(const Queue& q, Handle& handle, Destroy&& destroy) noexcept {
  if (!handle) return;
  try {
    interop::with_native(q, [&](const interop::NativeQueue&) { destroy(handle); });
  } catch (...) {
  }
  handle = nullptr;
}

// The library alone. OPTUNE_CLBLAST_LIBRARY / OPTUNE_CUBLAS_LIBRARY name a
// file to use instead of the search (LD_LIBRARY_PATH, the CUDA toolkit).
LibraryProbe probe_clblast();
LibraryProbe probe_cublas();

// A reference opened for one queue, or why there is none.
struct ReferenceOpen {
  std::unique_ptr<ReferenceBlas> blas;
  std::string reason;  // "not available: ..." when blas is null
};

ReferenceOpen open_clblast(const Queue& q);  // OpenCL queues
ReferenceOpen open_cublas(const Queue& q);   // CUDA queues
// The one for q's backend.
inline ReferenceOpen open_reference_blas(const Queue& q) {
  return q.device().backend() == Backend::CUDA ? open_cublas(q) : open_clblast(q);
}

}  // namespace optune::tool
