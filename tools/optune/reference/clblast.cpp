// CLBlast through its C API (clblast_c.h), loaded at run time.
//
// "As shipped": CLBlast picks its kernel parameters from the database compiled
// into the library (tuned entries for the devices its authors and users
// tuned, defaults elsewhere); this file never calls its tuner or overrides a
// parameter, so the comparison is with what a user of the package gets.
#include <type_traits>

#include "clblast_api.hpp"

namespace optune::tool {

namespace {

using namespace clblast;

template <class S>
S scalar(double v) {
  if constexpr (std::is_same_v<S, cl_half>) {
    return half::from_float(float(v));
  } else if constexpr (std::is_same_v<S, cl_float2>) {
    S z;
    z.s[0] = float(v);
    z.s[1] = 0.0f;
    return z;
  } else {
    return S(v);
  }
}

class Clblast : public ReferenceBlas {
 public:
  Clblast(const ClblastApi& api, const Capabilities& caps)
      : api_(api), fp16_(caps.fp16), fp64_(caps.fp64) {}

  std::string name() const override {
    return "CLBlast " + (api_.probe.version.empty() ? std::string("(version unknown)") : api_.probe.version) +
           " as shipped (its own tuning database, not tuned here)";
  }

  std::string unsupported(DType t) const override {
    if (t == DType::F16 && !fp16_) return "CLBlast's Hgemm needs cl_khr_fp16, which the device lacks";
    if (t == DType::F64 && !fp64_) return "the device has no fp64";
    if (t != DType::F32 && t != DType::F16 && t != DType::F64 && t != DType::C32)
      return "CLBlast has no GEMM of this type";
    return "";
  }

  Event gemm(const Queue& q, const GemmCall& call, const interop::NativeBuffer& a, const interop::NativeBuffer& b,
             const interop::NativeBuffer& c) override {
    if (std::string why = unsupported(call.dtype); !why.empty()) throw Error(Status::Unsupported, "CLBlast: " + why);
    switch (call.dtype) {
      case DType::F64: return run(q, api_.d, 'D', call, a, b, c);
      case DType::F16: return run(q, api_.h, 'H', call, a, b, c);
      case DType::C32: return run(q, api_.c, 'C', call, a, b, c);
      default: return run(q, api_.s, 'S', call, a, b, c);
    }
  }

  std::string unsupported(const Level1Call& call) const override {
    if (call.dtype == DType::F16) return half_reason();
    if (call.dtype == DType::F64 && !fp64_) return "the device has no fp64";
    if (call.dtype != DType::F32 && call.dtype != DType::F64 && call.dtype != DType::C32)
      return "not compared for this type";
    return "";
  }

  Event level1(const Queue& q, const Level1Call& call, const interop::NativeBuffer& x,
               const interop::NativeBuffer& y, const interop::NativeBuffer& result) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "CLBlast: " + why);
    switch (call.dtype) {
      case DType::F64: return run1(q, api_.d1, 'D', call, double(call.alpha), x, y, result);
      case DType::C32: {
        cl_float2 a;
        a.s[0] = float(call.alpha);
        a.s[1] = 0;
        return run1(q, api_.c1, 'C', call, a, x, y, result);
      }
      default: return run1(q, api_.s1, 'S', call, float(call.alpha), x, y, result);
    }
  }

  std::string unsupported(const TriCall& call) const override {
    if (call.dtype == DType::F64 && !fp64_) return "the device has no fp64";
    if (call.dtype != DType::F32 && call.dtype != DType::F64 && call.dtype != DType::C32)
      return "not compared for this type";
    if (!tri_fn(call)) return "the library lacks trmv / trsv";
    return "";
  }

  // Column-major (102), lower (122), no transposition (111), non-unit (131).
  Event level2_tri(const Queue& q, const TriCall& call, const interop::NativeBuffer& a,
                   const interop::NativeBuffer& x) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "CLBlast: " + why);
    TriFn* fn = tri_fn(call);
    const std::size_t es = dtype_size(call.dtype);
    const char letter = call.dtype == DType::F64 ? 'D' : call.dtype == DType::C32 ? 'C' : 'S';
    const std::string what = std::string("CLBlast") + letter + (call.solve ? "trsv" : "trmv");
    int status = 0;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
      cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
      cl_event done = nullptr;
      status = fn(102, 122, 111, 131, std::size_t(call.n), static_cast<cl_mem>(a.cl_mem), a.offset_bytes / es,
                  std::size_t(call.lda), static_cast<cl_mem>(x.cl_mem), x.offset_bytes / es, 1, &queue, &done);
      if (done) clReleaseEvent(done);
    });
    if (status != 0) throw Error(Status::DeviceError, what + " returned " + status_text(status));
    return ev;
  }

  std::string unsupported(const Level3Call& call) const override {
    if (call.dtype == DType::F64 && !fp64_) return "the device has no fp64";
    if (call.dtype == DType::F32) return api_.s3.loaded() ? "" : "this CLBlast lacks Ssyrk, Ssyr2k, Strmm or Strsm";
    if (call.dtype == DType::F64) return api_.d3.loaded() ? "" : "this CLBlast lacks Dsyrk, Dsyr2k, Dtrmm or Dtrsm";
    if (call.dtype == DType::C32)
      return api_.c3.loaded() && api_.c3.herk && api_.c3.her2k ? "" : "this CLBlast lacks a complex level-3 routine";
    return "not compared for this type";
  }

  Event level3(const Queue& q, const Level3Call& call, const interop::NativeBuffer& a, const interop::NativeBuffer& b,
               const interop::NativeBuffer& c) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "CLBlast: " + why);
    if (call.dtype == DType::F64) return run3<double>(q, api_.d3, 'D', call, a, b, c);
    if (call.dtype == DType::C32) return run3<cl_float2>(q, api_.c3, 'C', call, a, b, c);
    return run3<float>(q, api_.s3, 'S', call, a, b, c);
  }

  std::string unsupported(const Level2Call& call) const override {
    if (call.dtype == DType::F16) return half_reason();
    if (call.dtype == DType::F64 && !fp64_) return "the device has no fp64";
    if (call.dtype == DType::C64 && !fp64_) return "the device has no fp64";
    const bool have = call.dtype == DType::F32   ? api_.s2.loaded()
                      : call.dtype == DType::F64 ? api_.d2.loaded()
                      : call.dtype == DType::C32 ? api_.c2.loaded()
                                                 : call.dtype == DType::C64 && api_.z2.loaded();
    if (call.dtype != DType::F32 && call.dtype != DType::F64 && call.dtype != DType::C32 && call.dtype != DType::C64)
      return "not compared for this type";
    return have ? "" : "CLBlast lacks a level-2 entry point";
  }

  Event level2(const Queue& q, const Level2Call& call, const interop::NativeBuffer& a,
               const interop::NativeBuffer& x, const interop::NativeBuffer& y) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "CLBlast: " + why);
    switch (call.dtype) {
      case DType::F64: return run2(q, api_.d2, call, 0.5, 0.0, a, x, y);
      case DType::C32: {
        cl_float2 alpha, beta;
        alpha.s[0] = 0.5f;
        alpha.s[1] = beta.s[0] = beta.s[1] = 0.0f;
        return run2(q, api_.c2, call, alpha, beta, a, x, y);
      }
      case DType::C64: {
        cl_double2 alpha, beta;
        alpha.s[0] = 0.5;
        alpha.s[1] = beta.s[0] = beta.s[1] = 0.0;
        return run2(q, api_.z2, call, alpha, beta, a, x, y);
      }
      default: return run2(q, api_.s2, call, 0.5f, 0.0f, a, x, y);
    }
  }

  std::string unsupported(const Im2colCall& call) const override {
    if (call.dtype == DType::F64 && !fp64_) return "the device has no fp64";
    if (call.dtype != DType::F32 && call.dtype != DType::F64 && call.dtype != DType::C32)
      return "not compared for this type";
    if (!patches_fn(call)) return "this CLBlast lacks im2col / col2im";
    return "";
  }

  Event im2col(const Queue& q, const Im2colCall& call, const interop::NativeBuffer& im,
               const interop::NativeBuffer& col) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "CLBlast: " + why);
    PatchesFn* fn = patches_fn(call);
    const std::size_t es = dtype_size(call.dtype);
    const char letter = call.dtype == DType::F64 ? 'D' : call.dtype == DType::C32 ? 'C' : 'S';
    const std::string what = std::string("CLBlast") + letter + (call.to_im ? "col2im" : "im2col");
    const interop::NativeBuffer& from = call.to_im ? col : im;
    const interop::NativeBuffer& to = call.to_im ? im : col;
    const auto k = std::size_t(call.kernel), p = std::size_t(call.pad), st = std::size_t(call.stride),
               d = std::size_t(call.dilation);
    int status = 0;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
      cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
      cl_event done = nullptr;
      status = fn(kCrossCorrelation, std::size_t(call.channels), std::size_t(call.height), std::size_t(call.width), k,
                  k, p, p, st, st, d, d, static_cast<cl_mem>(from.cl_mem), from.offset_bytes / es,
                  static_cast<cl_mem>(to.cl_mem), to.offset_bytes / es, &queue, &done);
      if (done) clReleaseEvent(done);
    });
    if (status != 0) throw Error(Status::DeviceError, what + " returned " + status_text(status));
    return ev;
  }

 private:
  // Why the h level-1 and level-2 rows have no CLBlast reference.
  std::string half_reason() const {
    if (!fp16_) return "none: CLBlast's half routines need cl_khr_fp16, which the device lacks";
    return "none: not compared: CLBlast's half level 1 and 2 compute in f16, optune's h in f32";
  }

  PatchesFn* patches_fn(const Im2colCall& call) const {
    const PatchesApi& api = call.dtype == DType::F64 ? api_.dx : call.dtype == DType::C32 ? api_.cx : api_.sx;
    return call.to_im ? api.col2im : api.im2col;
  }

  TriFn* tri_fn(const TriCall& call) const {
    const auto pick = [&](const auto& api) { return call.solve ? api.trsv : api.trmv; };
    return call.dtype == DType::F64 ? pick(api_.d1) : call.dtype == DType::C32 ? pick(api_.c1) : pick(api_.s1);
  }

  template <class S>
  Event run3(const Queue& q, const Level3Api<S>& fn, char letter, const Level3Call& call,
             const interop::NativeBuffer& a, const interop::NativeBuffer& b, const interop::NativeBuffer& c) {
    const std::size_t es = dtype_size(call.dtype), n = std::size_t(call.n);
    const S alpha = scalar<S>(call.alpha), beta = scalar<S>(call.beta);
    auto mem = [](const interop::NativeBuffer& x) { return static_cast<cl_mem>(x.cl_mem); };
    const std::size_t ao = a.offset_bytes / es, bo = b.offset_bytes / es, co = c.offset_bytes / es;
    static const char* names[] = {"syrk", "syr2k", "trmm", "trsm", "herk", "her2k"};
    const std::string what = std::string("CLBlast") + letter + names[int(call.op)];
    int status = 0;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
      cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
      cl_event done = nullptr;
      switch (call.op) {
        case Level3Op::Syrk:
          status = fn.syrk(kColMajor, kLower, kTransposeNo, n, n, alpha, mem(a), ao, n, beta, mem(c), co, n, &queue,
                           &done);
          break;
        case Level3Op::Syr2k:
          status = fn.syr2k(kColMajor, kLower, kTransposeNo, n, n, alpha, mem(a), ao, n, mem(b), bo, n, beta, mem(c),
                            co, n, &queue, &done);
          break;
        case Level3Op::Trmm:
        case Level3Op::Trsm:
          status = (call.op == Level3Op::Trmm ? fn.trmm : fn.trsm)(kColMajor, kLeft, kLower, kTransposeNo, kUnit, n, n,
                                                                   alpha, mem(a), ao, n, mem(b), bo, n, &queue, &done);
          break;
        case Level3Op::Herk:
          status = fn.herk(kColMajor, kLower, kTransposeNo, n, n, float(call.alpha), mem(a), ao, n, float(call.beta),
                           mem(c), co, n, &queue, &done);
          break;
        case Level3Op::Her2k:
          status = fn.her2k(kColMajor, kLower, kTransposeNo, n, n, scalar<cl_float2>(call.alpha), mem(a), ao, n,
                            mem(b), bo, n, float(call.beta), mem(c), co, n, &queue, &done);
          break;
      }
      if (done) clReleaseEvent(done);
    });
    if (status != 0) throw Error(Status::DeviceError, what + " returned " + status_text(status));
    return ev;
  }

  template <class S>
  Event run2(const Queue& q, const Level2Api<S>& fn, const Level2Call& call, S alpha, S beta,
             const interop::NativeBuffer& a, const interop::NativeBuffer& x, const interop::NativeBuffer& y) {
    const std::size_t es = dtype_size(call.dtype), n = std::size_t(call.n);
    auto mem = [](const interop::NativeBuffer& b) { return static_cast<cl_mem>(b.cl_mem); };
    const std::size_t ao = a.offset_bytes / es, xo = x.offset_bytes / es, yo = y.offset_bytes / es;
    int status = 0;
    const char* what = call.op == Level2Op::Ger ? "ger" : call.op == Level2Op::Symv ? "symv" : "gemv";
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
      cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
      cl_event done = nullptr;
      switch (call.op) {
        case Level2Op::Gemv: case Level2Op::GemvT:
          status = fn.gemv(kColMajor, call.op == Level2Op::GemvT ? kTransposeYes : kTransposeNo, n, n, alpha, mem(a),
                           ao, n, mem(x), xo, 1, beta, mem(y), yo, 1, &queue, &done);
          break;
        case Level2Op::Ger:
          status = fn.ger(kColMajor, n, n, alpha, mem(x), xo, 1, mem(y), yo, 1, mem(a), ao, n, &queue, &done);
          break;
        case Level2Op::Symv:
          status = fn.symv(kColMajor, 121, n, alpha, mem(a), ao, n, mem(x), xo, 1, beta, mem(y), yo, 1, &queue, &done);
          break;
      }
      if (done) clReleaseEvent(done);
    });
    if (status != 0) throw Error(Status::DeviceError, std::string("CLBlast ") + what + " returned " + status_text(status));
    return ev;
  }

  template <class S>
  Event run1(const Queue& q, const Level1Api<S>& fn, char letter, const Level1Call& call, S alpha,
             const interop::NativeBuffer& x, const interop::NativeBuffer& y, const interop::NativeBuffer& r) {
    const std::size_t es = dtype_size(call.dtype), rs = dtype_size(call.op == Level1Op::Nrm2 ? real_dtype(call.dtype)
                                                                                               : call.dtype);
    const auto n = std::size_t(call.n);
    auto mem = [](const interop::NativeBuffer& b) { return static_cast<cl_mem>(b.cl_mem); };
    int status = 0;
    const char* op = call.op == Level1Op::Axpy ? "axpy" : call.op == Level1Op::Dot ? (letter == 'C' ? "dotc" : "dot")
                                                                                  : (letter == 'C' ? "cnrm2" : "nrm2");
    const std::string what = std::string("CLBlast") + (letter == 'C' && call.op == Level1Op::Nrm2 ? 'S' : letter) + op;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
      cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
      cl_event done = nullptr;
      switch (call.op) {
        case Level1Op::Axpy:
          status = fn.axpy(n, alpha, mem(x), x.offset_bytes / es, 1, mem(y), y.offset_bytes / es, 1, &queue, &done);
          break;
        case Level1Op::Dot:
          status = fn.dot(n, mem(r), r.offset_bytes / rs, mem(x), x.offset_bytes / es, 1, mem(y), y.offset_bytes / es,
                          1, &queue, &done);
          break;
        case Level1Op::Nrm2:
          status = fn.nrm2(n, mem(r), r.offset_bytes / rs, mem(x), x.offset_bytes / es, 1, &queue, &done);
          break;
      }
      if (done) clReleaseEvent(done);
    });
    if (status != 0) throw Error(Status::DeviceError, what + " returned " + status_text(status));
    return ev;
  }

  std::string unsupported(const SymmCall& call) const override {
    return call.dtype == DType::F32 ? "" : "only Ssymm is wired here";
  }

  Event symm(const Queue& q, const SymmCall& call, const interop::NativeBuffer& a, const interop::NativeBuffer& b,
             const interop::NativeBuffer& c) override {
    if (std::string why = unsupported(call); !why.empty()) throw Error(Status::Unsupported, "CLBlast: " + why);
    auto mem = [](const interop::NativeBuffer& x) { return static_cast<cl_mem>(x.cl_mem); };
    const int layout = call.layout == Layout::RowMajor ? kRowMajor : kColMajor;
    const int side = call.side == Side::Left ? kLeft : kRight;
    const int triangle = call.triangle == Triangle::Upper ? kUpper : kLower;
    int status = 0;
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
      cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
      cl_event done = nullptr;
      status = api_.ssymm(layout, side, triangle, std::size_t(call.m), std::size_t(call.n), float(call.alpha), mem(a),
                          a.offset_bytes / 4, std::size_t(call.lda), mem(b), b.offset_bytes / 4, std::size_t(call.ldb),
                          float(call.beta), mem(c), c.offset_bytes / 4, std::size_t(call.ldc), &queue, &done);
      if (done) clReleaseEvent(done);
    });
    if (status != 0) throw Error(Status::DeviceError, "CLBlastSsymm returned " + status_text(status));
    return ev;
  }

  template <class S>
  Event run(const Queue& q, const TypedApi<S>& fn, char letter, const GemmCall& call,
            const interop::NativeBuffer& a, const interop::NativeBuffer& b, const interop::NativeBuffer& c) {
    const std::size_t es = dtype_size(call.dtype);
    const int layout = call.layout == Layout::RowMajor ? kRowMajor : kColMajor;
    const int ta = call.trans_a == Transpose::Yes ? kTransposeYes : kTransposeNo;
    const int tb = call.trans_b == Transpose::Yes ? kTransposeYes : kTransposeNo;
    const auto m = std::size_t(call.m), n = std::size_t(call.n), k = std::size_t(call.k);
    const auto lda = std::size_t(call.lda), ldb = std::size_t(call.ldb), ldc = std::size_t(call.ldc);
    const S alpha = scalar<S>(call.alpha), beta = scalar<S>(call.beta);
    auto mem = [](const interop::NativeBuffer& x) { return static_cast<cl_mem>(x.cl_mem); };
    int status = 0;
    const std::string what = std::string("CLBlast") + letter + (call.batch > 1 ? "gemmStridedBatched" : "gemm");
    Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
      cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
      cl_event done = nullptr;
      if (call.batch > 1) {
        status = fn.strided_batched(layout, ta, tb, m, n, k, alpha, mem(a), a.offset_bytes / es, lda,
                                    std::size_t(call.stride_a), mem(b), b.offset_bytes / es, ldb,
                                    std::size_t(call.stride_b), beta, mem(c), c.offset_bytes / es, ldc,
                                    std::size_t(call.stride_c), std::size_t(call.batch), &queue, &done);
      } else {
        status = fn.gemm(layout, ta, tb, m, n, k, alpha, mem(a), a.offset_bytes / es, lda, mem(b),
                         b.offset_bytes / es, ldb, beta, mem(c), c.offset_bytes / es, ldc, &queue, &done);
      }
      if (done) clReleaseEvent(done);  // the span's markers time the call, not this last kernel alone
    });
    if (status != 0) throw Error(Status::DeviceError, what + " returned " + status_text(status));
    return ev;
  }

  const ClblastApi& api_;
  bool fp16_, fp64_;
};

}  // namespace

LibraryProbe probe_clblast() { return load().probe; }

void* clblast_symbol(const char* name) {
  const ClblastApi& api = load();
  return api.probe.loaded ? api.lib.raw_symbol(name) : nullptr;
}

std::string clblast_status_text(int status) { return status_text(status); }

ReferenceOpen open_clblast(const Queue& q) {
  ReferenceOpen r;
  const Capabilities& caps = q.device().caps();
  if (caps.backend != Backend::OpenCL) {
    r.reason = "not available: CLBlast runs on OpenCL devices, this is " + caps.spec;
    return r;
  }
  const ClblastApi& api = load();
  if (!api.probe.loaded) {
    r.reason = "not available: " + api.probe.reason;
    return r;
  }
  r.blas = std::make_unique<Clblast>(api, caps);
  return r;
}

}  // namespace optune::tool
