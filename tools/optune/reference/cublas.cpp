// cuBLAS through its C API (cublas_api.h), loaded at run time.
//
// Math mode CUBLAS_DEFAULT_MATH: f32 products run in f32, never TF32 (which
// cuBLAS uses only when asked, through CUBLAS_TF32_TENSOR_OP_MATH or a
// *_FAST_TF32 compute type), so SGEMM is compared with SGEMM. f16 products
// compute in f16 (CUBLAS_COMPUTE_16F, as cublasHgemm), as optune's half GEMM
// does with Accumulate::Default on CUDA. bf16 products: cublasGemmEx with
// CUDA_R_16BF A, B and C and CUBLAS_COMPUTE_32F (f32 accumulation, as
// optune's). tf32 rows (GemmCall::compute = FastTF32): cublasGemmEx with
// CUDA_R_32F and CUBLAS_COMPUTE_32F_FAST_TF32, the contract of
// optune's GemmCompute::FastTF32.
//
// h (f16 storage, f32 arithmetic, as optune's h BLAS): level 1 through
// cublasAxpyEx, cublasDotEx and cublasNrm2Ex (x, y and the result
// CUDA_R_16F, alpha and execution CUDA_R_32F); gemv in both orders through
// cublasGemmEx with n = 1 (A, x and y CUDA_R_16F, CUBLAS_COMPUTE_32F), the
// same y = alpha op(A) x + beta y. cuBLAS has no half ger or symv: those rows
// say so.
//
// cuBLAS is column-major only. A row-major C = op(A) op(B) is the column-major
// C^T = op(B)^T op(A)^T on the same memory, so row-major calls swap A and B
// (and m and n) and keep every leading dimension.
#include <climits>
#include <complex>
#include <type_traits>

#include "cublas_api.hpp"

namespace optune::tool {

namespace {

using namespace cublas;

int checked_int(std::int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX)
    throw Error(Status::Unsupported, std::string("cuBLAS: ") + what + " = " + std::to_string(v) +
                                         " does not fit the 32-bit interface used here");
  return int(v);
}

class Cublas : public ReferenceBlas {
 public:
  Cublas(const CublasApi& api, const Queue& q) : api_(api), queue_(q) {
    int status = kSuccess;
    interop::with_native(q, [&](const interop::NativeQueue& nq) {
      status = api_.create(&handle_);
      if (status != kSuccess) return;
      status = api_.set_stream(handle_, nq.queue);
      if (status == kSuccess) status = api_.set_math_mode(handle_, kDefaultMath);
    });
    if (status != kSuccess) {
      release();
      throw Error(Status::BackendUnavailable, "cuBLAS handle set-up failed: " + status_text(api_, status));
    }
  }
  ~Cublas() override { release(); }

  std::string name() const override {
    return "cuBLAS " + (api_.probe.version.empty() ? std::string("(version unknown)") : api_.probe.version) +
           " (CUBLAS_DEFAULT_MATH: f32 without TF32, tf32 rows CUBLAS_COMPUTE_32F_FAST_TF32; f16 computes in f16,"
           " bf16 in f32; h BLAS rows f16 storage with f32 execution: cublasAxpyEx, cublasDotEx, cublasNrm2Ex,"
           " gemv as cublasGemmEx with n = 1)";
  }

  std::string unsupported(DType t) const override {
    if (t != DType::F32 && t != DType::F16 && t != DType::F64 && t != DType::BF16 && t != DType::C32)
      return "cuBLAS has no GEMM of this type here";
    return "";
  }

  Event gemm(const Queue& q, const GemmCall& call, const interop::NativeBuffer& a, const interop::NativeBuffer& b,
             const interop::NativeBuffer& c) override {
    if (std::string why = unsupported(call.dtype); !why.empty()) throw Error(Status::Unsupported, "cuBLAS: " + why);
    const bool row = call.layout == Layout::RowMajor;
    // Column-major operands: (first, second) = (A, B), or (B, A) for row-major.
    const interop::NativeBuffer& first = row ? b : a;
    const interop::NativeBuffer& second = row ? a : b;
    const int op1 = (row ? call.trans_b : call.trans_a) == Transpose::Yes ? kOpT : kOpN;
    const int op2 = (row ? call.trans_a : call.trans_b) == Transpose::Yes ? kOpT : kOpN;
    const int m = checked_int(row ? call.n : call.m, "m"), n = checked_int(row ? call.m : call.n, "n");
    const int k = checked_int(call.k, "k");
    const int ld1 = checked_int(row ? call.ldb : call.lda, "ld"), ld2 = checked_int(row ? call.lda : call.ldb, "ld");
    const int ldc = checked_int(call.ldc, "ldc"), batch = checked_int(call.batch, "batch");
    const long long s1 = row ? call.stride_b : call.stride_a, s2 = row ? call.stride_a : call.stride_b;
    const long long sc = call.stride_c;
    const void* p1 = reinterpret_cast<const void*>(first.device_pointer);
    const void* p2 = reinterpret_cast<const void*>(second.device_pointer);
    void* pc = reinterpret_cast<void*>(c.device_pointer);
    const float af = float(call.alpha), bf = float(call.beta);
    const half ah(af), bh(bf);
    int status = kSuccess;
    std::string what;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue&) {
      // bf16, and f32 in tf32: GemmEx with f32 accumulation and scalars.
      const bool tf32 = call.dtype == DType::F32 && call.compute == GemmCompute::FastTF32;
      if (tf32 || call.dtype == DType::BF16) {
        const int t = tf32 ? kR32F : kR16BF, compute = tf32 ? kCompute32FFastTF32 : kCompute32F;
        what = std::string(batch > 1 ? "cublasGemmStridedBatchedEx" : "cublasGemmEx") + (tf32 ? "(tf32)" : "(bf16)");
        status = batch > 1 ? api_.gemm_strided_batched_ex(handle_, op1, op2, m, n, k, &af, p1, t, ld1, s1, p2, t, ld2,
                                                          s2, &bf, pc, t, ldc, sc, batch, compute, kGemmDefault)
                           : api_.gemm_ex(handle_, op1, op2, m, n, k, &af, p1, t, ld1, p2, t, ld2, &bf, pc, t, ldc,
                                          compute, kGemmDefault);
        return;
      }
      switch (call.dtype) {
        case DType::C32: {
          const C32 ac(af, 0.0f), bc(bf, 0.0f);
          what = "cublasCgemm";
          status = batch > 1 ? kNotSupported
                             : api_.cgemm(handle_, op1, op2, m, n, k, &ac, as<C32>(p1), ld1, as<C32>(p2), ld2, &bc,
                                          as<C32>(pc), ldc);
          break;
        }
        case DType::F32:
          what = batch > 1 ? "cublasSgemmStridedBatched" : "cublasSgemm";
          status = batch > 1 ? api_.sgemm_strided_batched(handle_, op1, op2, m, n, k, &af, as<float>(p1), ld1, s1,
                                                          as<float>(p2), ld2, s2, &bf, as<float>(pc), ldc, sc, batch)
                             : api_.sgemm(handle_, op1, op2, m, n, k, &af, as<float>(p1), ld1, as<float>(p2), ld2,
                                          &bf, as<float>(pc), ldc);
          break;
        case DType::F64:
          what = batch > 1 ? "cublasDgemmStridedBatched" : "cublasDgemm";
          status = batch > 1 ? api_.dgemm_strided_batched(handle_, op1, op2, m, n, k, &call.alpha, as<double>(p1),
                                                          ld1, s1, as<double>(p2), ld2, s2, &call.beta,
                                                          as<double>(pc), ldc, sc, batch)
                             : api_.dgemm(handle_, op1, op2, m, n, k, &call.alpha, as<double>(p1), ld1,
                                          as<double>(p2), ld2, &call.beta, as<double>(pc), ldc);
          break;
        default:
          what = batch > 1 ? "cublasGemmStridedBatchedEx(f16)" : "cublasGemmEx(f16)";
          status = batch > 1 ? api_.gemm_strided_batched_ex(handle_, op1, op2, m, n, k, &ah, p1, kR16F, ld1, s1, p2,
                                                            kR16F, ld2, s2, &bh, pc, kR16F, ldc, sc, batch,
                                                            kCompute16F, kGemmDefault)
                             : api_.gemm_ex(handle_, op1, op2, m, n, k, &ah, p1, kR16F, ld1, p2, kR16F, ld2, &bh, pc,
                                            kR16F, ldc, kCompute16F, kGemmDefault);
          break;
      }
    });
    if (status != kSuccess) throw Error(Status::DeviceError, what + " failed: " + status_text(api_, status));
    return ev;
  }

  std::string unsupported(const SymmCall& call) const override {
    return call.dtype == DType::F32 ? "" : "only Ssymm is wired here";
  }

  // Column-major: a row-major symm (side, triangle, m, n) is the
  // column-major one of C^T = alpha B^T A + beta C^T (the other side and
  // triangle, n x m).
  Event symm(const Queue& q, const SymmCall& call, const interop::NativeBuffer& a, const interop::NativeBuffer& b,
             const interop::NativeBuffer& c) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "cuBLAS: " + why);
    const bool row = call.layout == Layout::RowMajor;
    const bool left = (call.side == Side::Left) != row, upper = (call.triangle == Triangle::Upper) != row;
    const int m = checked_int(row ? call.n : call.m, "m"), n = checked_int(row ? call.m : call.n, "n");
    const float af = float(call.alpha), bf = float(call.beta);
    int status = kSuccess;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue&) {
      status = api_.ssymm(handle_, left ? kSideLeft : kSideRight, upper ? kFillUpper : kFillLower, m, n, &af,
                          as<float>(reinterpret_cast<const void*>(a.device_pointer)), checked_int(call.lda, "lda"),
                          as<float>(reinterpret_cast<const void*>(b.device_pointer)), checked_int(call.ldb, "ldb"),
                          &bf, as<float>(reinterpret_cast<void*>(c.device_pointer)), checked_int(call.ldc, "ldc"));
    });
    if (status != kSuccess) throw Error(Status::DeviceError, "cublasSsymm failed: " + status_text(api_, status));
    return ev;
  }

  std::string unsupported(const Level1Call& call) const override {
    if (call.dtype == DType::F16) {
      const char* name = call.op == Level1Op::Axpy ? "cublasAxpyEx" : call.op == Level1Op::Dot ? "cublasDotEx"
                                                                                               : "cublasNrm2Ex";
      const bool have = call.op == Level1Op::Axpy ? api_.axpy_ex != nullptr
                        : call.op == Level1Op::Dot  ? api_.dot_ex != nullptr
                                                    : api_.nrm2_ex != nullptr;
      return have ? "" : std::string("none: this cuBLAS lacks ") + name;
    }
    if (call.dtype != DType::F32 && call.dtype != DType::F64 && call.dtype != DType::C32)
      return "not compared for this type";
    return "";
  }

  // axpy with alpha on the host; dot and nrm2 write their result to device
  // memory (CUBLAS_POINTER_MODE_DEVICE), so no call waits on the host.
  Event level1(const Queue& q, const Level1Call& call, const interop::NativeBuffer& x,
               const interop::NativeBuffer& y, const interop::NativeBuffer& result) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "cuBLAS: " + why);
    const int n = checked_int(call.n, "n");
    const void* px = reinterpret_cast<const void*>(x.device_pointer);
    void* py = reinterpret_cast<void*>(y.device_pointer);
    void* pr = reinterpret_cast<void*>(result.device_pointer);
    const float af = float(call.alpha);
    const C32 ac(af, 0.0f);
    const bool f64 = call.dtype == DType::F64, c32 = call.dtype == DType::C32;
    int status = kSuccess;
    std::string what;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue&) {
      status = api_.set_pointer_mode(handle_, call.op == Level1Op::Axpy ? 0 : 1);
      if (status != kSuccess) {
        what = "cublasSetPointerMode_v2";
        return;
      }
      if (call.dtype == DType::F16) {
        status = level1_half(call.op, n, af, px, py, pr, what);
        api_.set_pointer_mode(handle_, 0);
        return;
      }
      switch (call.op) {
        case Level1Op::Axpy:
          what = c32 ? "cublasCaxpy_v2" : f64 ? "cublasDaxpy_v2" : "cublasSaxpy_v2";
          status = c32   ? api_.caxpy(handle_, n, &ac, as<C32>(px), 1, as<C32>(py), 1)
                   : f64 ? api_.daxpy(handle_, n, &call.alpha, as<double>(px), 1, as<double>(py), 1)
                         : api_.saxpy(handle_, n, &af, as<float>(px), 1, as<float>(py), 1);
          break;
        case Level1Op::Dot:
          what = c32 ? "cublasCdotc_v2" : f64 ? "cublasDdot_v2" : "cublasSdot_v2";
          status = c32   ? api_.cdotc(handle_, n, as<C32>(px), 1, as<C32>(py), 1, as<C32>(pr))
                   : f64 ? api_.ddot(handle_, n, as<double>(px), 1, as<double>(py), 1, as<double>(pr))
                         : api_.sdot(handle_, n, as<float>(px), 1, as<float>(py), 1, as<float>(pr));
          break;
        case Level1Op::Nrm2:
          what = c32 ? "cublasScnrm2_v2" : f64 ? "cublasDnrm2_v2" : "cublasSnrm2_v2";
          status = c32   ? api_.scnrm2(handle_, n, as<C32>(px), 1, as<float>(pr))
                   : f64 ? api_.dnrm2(handle_, n, as<double>(px), 1, as<double>(pr))
                         : api_.snrm2(handle_, n, as<float>(px), 1, as<float>(pr));
          break;
      }
      api_.set_pointer_mode(handle_, 0);
    });
    if (status != kSuccess) throw Error(Status::DeviceError, what + " failed: " + status_text(api_, status));
    return ev;
  }

  std::string unsupported(const TriCall& call) const override {
    if (call.dtype != DType::F32 && call.dtype != DType::F64 && call.dtype != DType::C32)
      return "not compared for this type";
    if (!(call.solve ? api_.strsv && api_.dtrsv && api_.ctrsv : api_.strmv && api_.dtrmv && api_.ctrmv))
      return "the library lacks trmv / trsv";
    return "";
  }

  // Lower (CUBLAS_FILL_MODE_LOWER 0), no transposition (CUBLAS_OP_N 0),
  // non-unit diagonal (CUBLAS_DIAG_NON_UNIT 0).
  Event level2_tri(const Queue& q, const TriCall& call, const interop::NativeBuffer& a,
                   const interop::NativeBuffer& x) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "cuBLAS: " + why);
    const int n = checked_int(call.n, "n"), lda = checked_int(call.lda, "lda");
    const void* pa = reinterpret_cast<const void*>(a.device_pointer);
    void* px = reinterpret_cast<void*>(x.device_pointer);
    const bool f64 = call.dtype == DType::F64, c32 = call.dtype == DType::C32;
    const std::string what = std::string("cublas") + (c32 ? "C" : f64 ? "D" : "S") + (call.solve ? "trsv_v2" : "trmv_v2");
    int status = kSuccess;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue&) {
      if (c32)
        status = (call.solve ? api_.ctrsv : api_.ctrmv)(handle_, 0, 0, 0, n, as<C32>(pa), lda, as<C32>(px), 1);
      else if (f64)
        status = (call.solve ? api_.dtrsv : api_.dtrmv)(handle_, 0, 0, 0, n, as<double>(pa), lda, as<double>(px), 1);
      else
        status = (call.solve ? api_.strsv : api_.strmv)(handle_, 0, 0, 0, n, as<float>(pa), lda, as<float>(px), 1);
    });
    if (status != kSuccess) throw Error(Status::DeviceError, what + " failed: " + status_text(api_, status));
    return ev;
  }

  std::string unsupported(const Level3Call& call) const override {
    if (call.dtype == DType::F32) return api_.s3.loaded() ? "" : "this cuBLAS lacks ssyrk, ssyr2k, strmm or strsm";
    if (call.dtype == DType::F64) return api_.d3.loaded() ? "" : "this cuBLAS lacks dsyrk, dsyr2k, dtrmm or dtrsm";
    if (call.dtype == DType::C32)
      return api_.c3.loaded() && api_.c3.herk && api_.c3.her2k ? "" : "this cuBLAS lacks a complex level-3 routine";
    return "not compared for this type";
  }

  Event level3(const Queue& q, const Level3Call& call, const interop::NativeBuffer& a, const interop::NativeBuffer& b,
               const interop::NativeBuffer& c) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "cuBLAS: " + why);
    if (call.dtype == DType::F64) return run3<double>(q, api_.d3, 'D', call, a, b, c);
    if (call.dtype == DType::C32) return run3<C32>(q, api_.c3, 'C', call, a, b, c);
    return run3<float>(q, api_.s3, 'S', call, a, b, c);
  }

  std::string unsupported(const Level2Call& call) const override {
    if (call.dtype == DType::F16) {
      if (call.op == Level2Op::Ger) return "none: cuBLAS has no half ger";
      if (call.op == Level2Op::Symv) return "none: cuBLAS has no half symv";
      return "";  // gemv through cublasGemmEx (n = 1), which the library needs to load at all
    }
    if (call.dtype == DType::F32) return api_.s2.loaded() ? "" : "cuBLAS lacks a level-2 entry point";
    if (call.dtype == DType::F64) return api_.d2.loaded() ? "" : "cuBLAS lacks a level-2 entry point";
    if (call.dtype == DType::C32) return api_.c2.loaded() ? "" : "cuBLAS lacks a level-2 entry point";
    if (call.dtype == DType::C64) return api_.z2.loaded() ? "" : "cuBLAS lacks a level-2 entry point";
    return "not compared for this type";
  }

  Event level2(const Queue& q, const Level2Call& call, const interop::NativeBuffer& a,
               const interop::NativeBuffer& x, const interop::NativeBuffer& y) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "cuBLAS: " + why);
    switch (call.dtype) {
      case DType::F64: return run2<double>(q, api_.d2, call, 0.5, a, x, y);
      case DType::C32: return run2<C32>(q, api_.c2, call, C32(0.5f, 0.0f), a, x, y);
      case DType::C64: return run2<C64>(q, api_.z2, call, C64(0.5, 0.0), a, x, y);
      case DType::F16: return gemv_half(q, call, a, x, y);
      default: return run2<float>(q, api_.s2, call, 0.5f, a, x, y);
    }
  }

 private:
  // h level 1 (inside the enqueue, pointer mode set): f16 x, y and result,
  // f32 alpha and execution.
  int level1_half(Level1Op op, int n, const float& alpha, const void* x, void* y, void* result, std::string& what) {
    switch (op) {
      case Level1Op::Axpy:
        what = "cublasAxpyEx(f16, f32 execution)";
        return api_.axpy_ex(handle_, n, &alpha, kR32F, x, kR16F, 1, y, kR16F, 1, kR32F);
      case Level1Op::Dot:
        what = "cublasDotEx(f16, f32 execution)";
        return api_.dot_ex(handle_, n, x, kR16F, 1, y, kR16F, 1, result, kR16F, kR32F);
      default:
        what = "cublasNrm2Ex(f16, f32 execution)";
        return api_.nrm2_ex(handle_, n, x, kR16F, 1, result, kR16F, kR32F);
    }
  }

  // h gemv as the n x n by n x 1 product y = 0.5 op(A) x + 0 y (column-major:
  // x an n x 1 matrix of leading dimension n, y likewise), f32 accumulation;
  // beta = 0 leaves y unread, as gemv's.
  Event gemv_half(const Queue& q, const Level2Call& call, const interop::NativeBuffer& a,
                  const interop::NativeBuffer& x, const interop::NativeBuffer& y) {
    const int n = checked_int(call.n, "n");
    const float alpha = 0.5f, beta = 0.0f;
    const void* pa = reinterpret_cast<const void*>(a.device_pointer);
    const void* px = reinterpret_cast<const void*>(x.device_pointer);
    void* py = reinterpret_cast<void*>(y.device_pointer);
    const int op = call.op == Level2Op::GemvT ? kOpT : kOpN;
    int status = kSuccess;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue&) {
      status = api_.gemm_ex(handle_, op, kOpN, n, 1, n, &alpha, pa, kR16F, n, px, kR16F, n, &beta, py, kR16F, n,
                            kCompute32F, kGemmDefault);
    });
    if (status != kSuccess)
      throw Error(Status::DeviceError, "cublasGemmEx(f16 gemv, n = 1) failed: " + status_text(api_, status));
    return ev;
  }

  template <class S>
  Event run3(const Queue& q, const Level3Api<S>& fn, char letter, const Level3Call& call,
             const interop::NativeBuffer& a, const interop::NativeBuffer& b, const interop::NativeBuffer& c) {
    const int n = checked_int(call.n, "n");
    const S alpha = S(call.alpha), beta = S(call.beta);
    const S* pa = as<S>(reinterpret_cast<const void*>(a.device_pointer));
    S* pb = as<S>(reinterpret_cast<const void*>(b.device_pointer));
    S* pc = as<S>(reinterpret_cast<const void*>(c.device_pointer));
    static const char* names[] = {"syrk_v2", "syr2k_v2", "trmm_v2", "trsm_v2", "herk_v2", "her2k_v2"};
    [[maybe_unused]] const float alpha_real = float(call.alpha), beta_real = float(call.beta);
    const std::string what = std::string("cublas") + letter + names[int(call.op)];
    int status = kSuccess;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue&) {
      switch (call.op) {
        case Level3Op::Syrk: status = fn.syrk(handle_, kFillLower, kOpN, n, n, &alpha, pa, n, &beta, pc, n); break;
        case Level3Op::Syr2k:
          status = fn.syr2k(handle_, kFillLower, kOpN, n, n, &alpha, pa, n, pb, n, &beta, pc, n);
          break;
        case Level3Op::Trmm:  // in place: C = B
          status = fn.trmm(handle_, kSideLeft, kFillLower, kOpN, kDiagUnit, n, n, &alpha, pa, n, pb, n, pb, n);
          break;
        case Level3Op::Trsm:
          status = fn.trsm(handle_, kSideLeft, kFillLower, kOpN, kDiagUnit, n, n, &alpha, pa, n, pb, n);
          break;
        case Level3Op::Herk:
          if constexpr (std::is_same_v<S, C32>)
            status = fn.herk(handle_, kFillLower, kOpN, n, n, &alpha_real, pa, n, &beta_real, pc, n);
          else
            status = kNotSupported;
          break;
        case Level3Op::Her2k:
          if constexpr (std::is_same_v<S, C32>)
            status = fn.her2k(handle_, kFillLower, kOpN, n, n, &alpha, pa, n, pb, n, &beta_real, pc, n);
          else
            status = kNotSupported;
          break;
      }
    });
    if (status != kSuccess) throw Error(Status::DeviceError, what + " failed: " + status_text(api_, status));
    return ev;
  }

  template <class S>
  Event run2(const Queue& q, const Level2Fns<S>& fn, const Level2Call& call, S alpha,
             const interop::NativeBuffer& a, const interop::NativeBuffer& x, const interop::NativeBuffer& y) {
    const int n = checked_int(call.n, "n");
    const S beta = S(0);
    S* pa = as<S>(reinterpret_cast<const void*>(a.device_pointer));
    const S* px = as<S>(reinterpret_cast<const void*>(x.device_pointer));
    S* py = as<S>(reinterpret_cast<const void*>(y.device_pointer));
    int status = kSuccess;
    const char* what = call.op == Level2Op::Ger ? "ger" : call.op == Level2Op::Symv ? "symv" : "gemv";
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue&) {
      switch (call.op) {
        case Level2Op::Gemv: case Level2Op::GemvT:
          status = fn.gemv(handle_, call.op == Level2Op::GemvT ? 1 : 0, n, n, &alpha, pa, n, px, 1, &beta, py, 1);
          break;
        case Level2Op::Ger: status = fn.ger(handle_, n, n, &alpha, px, 1, py, 1, pa, n); break;
        case Level2Op::Symv: status = fn.symv(handle_, 1, n, &alpha, pa, n, px, 1, &beta, py, 1); break;
      }
    });
    if (status != kSuccess)
      throw Error(Status::DeviceError, std::string("cuBLAS ") + what + " failed: " + status_text(api_, status));
    return ev;
  }

  template <class S>
  static S* as(const void* p) {
    return static_cast<S*>(const_cast<void*>(p));
  }
  void release() noexcept { destroy_cuda_handle(queue_, handle_, [&](Handle h) { api_.destroy(h); }); }

  const CublasApi& api_;
  Queue queue_;
  Handle handle_ = nullptr;
};

}  // namespace

LibraryProbe probe_cublas() { return load().probe; }

ReferenceOpen open_cublas(const Queue& q) {
  ReferenceOpen r;
  const Capabilities& caps = q.device().caps();
  if (caps.backend != Backend::CUDA) {
    r.reason = "not available: cuBLAS runs on CUDA devices, this is " + caps.spec;
    return r;
  }
  const CublasApi& api = load();
  if (!api.probe.loaded) {
    r.reason = "not available: " + api.probe.reason;
    return r;
  }
  try {
    r.blas = std::make_unique<Cublas>(api, q);
  } catch (const Error& e) {
    r.reason = std::string("not available: ") + e.what();
  }
  return r;
}

}  // namespace optune::tool
