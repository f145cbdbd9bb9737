// cuDNN through its legacy C API (cudnn.h of v8, cudnn_cnn.h / cudnn_ops.h
// of v9, which libcudnn.so.9 still exports and forwards to its
// sub-libraries), loaded at run time.
//
// Math: f32 runs CUDNN_FMA_MATH (no TF32, as the issue's PyTorch figures
// with allow_tf32 = False); f16 and bf16 CUDNN_TENSOR_OP_MATH with f32
// accumulation (the convolution descriptor's compute type CUDNN_DATA_FLOAT,
// as PyTorch sets it for half); CUDNN_DATA_HALF on request (half_sums: the
// bench's second reference beside a row whose own sums were f16).
// Cross-correlation, as optune's conv2d.
// cudnnFindConvolutionForwardAlgorithmEx times the algorithms on the case's
// own buffers with a workspace as large as the largest any algorithm asks
// (up to 1 GiB and the device's largest allocation), and the fastest that
// succeeded runs. cuDNN's 2-D descriptor has one pad per dimension, so
// asymmetric pads are unsupported here.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <mutex>

#include "dynamic_library.hpp"
#include "reference_conv.hpp"

#ifndef OPTUNE_REFERENCE_CUDA_LIBRARY_DIR
#define OPTUNE_REFERENCE_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace optune::tool {

namespace {

// cudnn_graph.h / cudnn_ops.h / cudnn_cnn.h: every enum is a C enum (int),
// every descriptor an opaque pointer.
using Handle = void*;
using Desc = void*;
enum : int { kSuccess = 0 };
enum : int { kNchw = 0, kNhwc = 1 };                           // cudnnTensorFormat_t
enum : int { kFloat = 0, kHalf = 2, kBfloat16 = 9 };           // cudnnDataType_t
enum : int { kCrossCorrelation = 1 };                          // cudnnConvolutionMode_t
enum : int { kTensorOpMath = 1, kFmaMath = 3 };                // cudnnMathType_t
constexpr int kAlgorithms = 8;                                 // cudnnConvolutionFwdAlgo_t 0..7
const char* const kAlgoNames[kAlgorithms] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM",     "DIRECT",
                                             "FFT",           "FFT_TILING",            "WINOGRAD", "WINOGRAD_NONFUSED"};

// cudnnConvolutionFwdAlgoPerf_t.
struct AlgoPerf {
  int algo;
  int status;
  float time;
  std::size_t memory;
  int determinism;
  int math_type;
  int reserved[3];
};

struct CudnnApi {
  LibraryProbe probe;
  std::size_t (*get_version)() = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*create)(Handle*) = nullptr;
  int (*destroy)(Handle) = nullptr;
  int (*set_stream)(Handle, void*) = nullptr;
  int (*create_tensor)(Desc*) = nullptr;
  int (*set_tensor)(Desc, int format, int type, int n, int c, int h, int w) = nullptr;
  int (*destroy_tensor)(Desc) = nullptr;
  int (*create_filter)(Desc*) = nullptr;
  int (*set_filter)(Desc, int type, int format, int k, int c, int h, int w) = nullptr;
  int (*destroy_filter)(Desc) = nullptr;
  int (*create_conv)(Desc*) = nullptr;
  int (*set_conv)(Desc, int pad_h, int pad_w, int u, int v, int dil_h, int dil_w, int mode, int compute) = nullptr;
  int (*set_groups)(Desc, int) = nullptr;
  int (*set_math)(Desc, int) = nullptr;
  int (*destroy_conv)(Desc) = nullptr;
  int (*workspace_size)(Handle, Desc x, Desc w, Desc conv, Desc y, int algo, std::size_t* bytes) = nullptr;
  int (*find_ex)(Handle, Desc x, const void* xp, Desc w, const void* wp, Desc conv, Desc y, void* yp, int requested,
                 int* returned, AlgoPerf* results, void* workspace, std::size_t workspace_bytes) = nullptr;
  int (*forward)(Handle, const void* alpha, Desc x, const void* xp, Desc w, const void* wp, Desc conv, int algo,
                 void* workspace, std::size_t workspace_bytes, const void* beta, Desc y, void* yp) = nullptr;
};

const CudnnApi& load() {
  static CudnnApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> names;
    if (const char* env = std::getenv("OPTUNE_CUDNN_LIBRARY"); env && *env) {
      names.push_back(env);
    } else {
      for (const char* so : {"libcudnn.so.9", "libcudnn.so.8"}) {
        names.push_back(so);
        names.push_back(std::string(OPTUNE_REFERENCE_CUDA_LIBRARY_DIR) + "/" + so);
      }
    }
    std::string reason;
    DynamicLibrary lib = DynamicLibrary::open_first(names, &reason);
    if (!lib.loaded()) {
      api.probe.reason = "libcudnn.so.9 or .8 not found (" + reason + ")";
      return;
    }
    std::string missing;
    lib.symbol("cudnnGetVersion", api.get_version, &missing);
    lib.symbol("cudnnGetErrorString", api.error_string, &missing);
    lib.symbol("cudnnCreate", api.create, &missing);
    lib.symbol("cudnnDestroy", api.destroy, &missing);
    lib.symbol("cudnnSetStream", api.set_stream, &missing);
    lib.symbol("cudnnCreateTensorDescriptor", api.create_tensor, &missing);
    lib.symbol("cudnnSetTensor4dDescriptor", api.set_tensor, &missing);
    lib.symbol("cudnnDestroyTensorDescriptor", api.destroy_tensor, &missing);
    lib.symbol("cudnnCreateFilterDescriptor", api.create_filter, &missing);
    lib.symbol("cudnnSetFilter4dDescriptor", api.set_filter, &missing);
    lib.symbol("cudnnDestroyFilterDescriptor", api.destroy_filter, &missing);
    lib.symbol("cudnnCreateConvolutionDescriptor", api.create_conv, &missing);
    lib.symbol("cudnnSetConvolution2dDescriptor", api.set_conv, &missing);
    lib.symbol("cudnnSetConvolutionGroupCount", api.set_groups, &missing);
    lib.symbol("cudnnSetConvolutionMathType", api.set_math, &missing);
    lib.symbol("cudnnDestroyConvolutionDescriptor", api.destroy_conv, &missing);
    lib.symbol("cudnnGetConvolutionForwardWorkspaceSize", api.workspace_size, &missing);
    lib.symbol("cudnnFindConvolutionForwardAlgorithmEx", api.find_ex, &missing);
    lib.symbol("cudnnConvolutionForward", api.forward, &missing);
    api.probe.path = lib.path();
    if (!missing.empty()) {
      api.probe.reason = lib.path() + " lacks " + missing;
      return;
    }
    // cudnnGetVersion: major 10000 + minor 100 + patch from 9.0 (v8: 1000, 100).
    const std::size_t v = api.get_version();
    const std::size_t major = v >= 90000 ? v / 10000 : v / 1000, rest = v >= 90000 ? v % 10000 : v % 1000;
    api.probe.version = std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
    api.probe.loaded = true;
  });
  return api;
}

int checked_int(std::int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX)
    throw Error(Status::Unsupported, std::string("cuDNN: ") + what + " = " + std::to_string(v) +
                                         " does not fit its 32-bit descriptors");
  return int(v);
}

// The descriptors and workspace of one prepared case, released with it.
struct Prepared {
  const CudnnApi* api = nullptr;
  Queue queue;
  Desc x = nullptr, w = nullptr, y = nullptr, conv = nullptr;
  Buffer<float> workspace;
  ~Prepared() {
    try {
      interop::with_native(queue, [&](const interop::NativeQueue&) {
        if (conv) api->destroy_conv(conv);
        if (x) api->destroy_tensor(x);
        if (y) api->destroy_tensor(y);
        if (w) api->destroy_filter(w);
      });
    } catch (...) {  // at exit the driver may refuse; the process is ending anyway
    }
  }
};

class Cudnn : public ReferenceConv {
 public:
  Cudnn(const CudnnApi& api, const Queue& q) : api_(api), queue_(q) {
    int status = kSuccess;
    interop::with_native(q, [&](const interop::NativeQueue& nq) {
      status = api_.create(&handle_);
      if (status == kSuccess) status = api_.set_stream(handle_, nq.queue);
    });
    if (status != kSuccess) {
      release();
      throw Error(Status::BackendUnavailable, "cuDNN handle set-up failed: " + status_text(status));
    }
  }
  ~Cudnn() override { release(); }

  std::string name() const override {
    return "cuDNN " + api_.probe.version +
           " (f32 CUDNN_FMA_MATH: no TF32; f16 and bf16 CUDNN_TENSOR_OP_MATH with f32 accumulation; "
           "cudnnFindConvolutionForwardAlgorithmEx)";
  }

  std::string unsupported(const Conv2dDesc& d, DType t) const override {
    if (t != DType::F32 && t != DType::F16 && t != DType::BF16) return "cuDNN reference: f32, f16 and bf16 only";
    if (d.pad_top != d.pad_bottom || d.pad_left != d.pad_right) return "asymmetric pads (cuDNN has one per side)";
    if (d.input_layout != d.output_layout) return "mixed layouts";
    return "";
  }

  PreparedConv prepare(const Queue& q, const Conv2dDesc& d, DType t, const interop::NativeBuffer& in,
                       const interop::NativeBuffer& wt, const interop::NativeBuffer& out,
                       bool half_sums = false) override {
    if (std::string why = unsupported(d, t); !why.empty()) throw Error(Status::Unsupported, why);
    const int type = t == DType::F32 ? kFloat : t == DType::F16 ? kHalf : kBfloat16;
    const int format = d.input_layout == ConvLayout::NHWC ? kNhwc : kNchw;
    auto p = std::make_shared<Prepared>();
    p->api = &api_;
    p->queue = q;
    int status = kSuccess;
    std::string what;
    const auto step = [&](const char* name, int s) {
      if (status == kSuccess && s != kSuccess) status = s, what = name;
    };
    interop::with_native(q, [&](const interop::NativeQueue&) {
      step("cudnnCreateTensorDescriptor", api_.create_tensor(&p->x));
      step("cudnnCreateTensorDescriptor", api_.create_tensor(&p->y));
      step("cudnnCreateFilterDescriptor", api_.create_filter(&p->w));
      step("cudnnCreateConvolutionDescriptor", api_.create_conv(&p->conv));
      if (status != kSuccess) return;
      step("cudnnSetTensor4dDescriptor (x)",
           api_.set_tensor(p->x, format, type, checked_int(d.batch, "N"), checked_int(d.in_channels, "C"),
                           checked_int(d.in_height, "H"), checked_int(d.in_width, "W")));
      step("cudnnSetTensor4dDescriptor (y)",
           api_.set_tensor(p->y, format, type, checked_int(d.batch, "N"), checked_int(d.out_channels, "K"),
                           checked_int(d.out_height(), "OH"), checked_int(d.out_width(), "OW")));
      step("cudnnSetFilter4dDescriptor",
           api_.set_filter(p->w, type, format, checked_int(d.out_channels, "K"),
                           checked_int(d.in_channels / d.groups, "C/groups"), checked_int(d.kernel_h, "R"),
                           checked_int(d.kernel_w, "S")));
      step("cudnnSetConvolution2dDescriptor",
           api_.set_conv(p->conv, checked_int(d.pad_top, "pad"), checked_int(d.pad_left, "pad"),
                         checked_int(d.stride_h, "stride"), checked_int(d.stride_w, "stride"),
                         checked_int(d.dilation_h, "dilation"), checked_int(d.dilation_w, "dilation"),
                         kCrossCorrelation, half_sums && t == DType::F16 ? kHalf : kFloat));
      step("cudnnSetConvolutionGroupCount", api_.set_groups(p->conv, checked_int(d.groups, "groups")));
      step("cudnnSetConvolutionMathType", api_.set_math(p->conv, t == DType::F32 ? kFmaMath : kTensorOpMath));
    });
    if (status != kSuccess) throw Error(Status::DeviceError, what + " failed: " + status_text(status));
    // The workspace the hungriest algorithm asks for, within 1 GiB and the
    // device's largest allocation.
    std::size_t bytes = 0;
    const std::size_t cap = std::min<std::size_t>(std::size_t(1) << 30, q.device().caps().max_alloc_bytes);
    interop::with_native(q, [&](const interop::NativeQueue&) {
      for (int a = 0; a < kAlgorithms; ++a) {
        std::size_t b = 0;
        if (api_.workspace_size(handle_, p->x, p->w, p->conv, p->y, a, &b) == kSuccess && b <= cap)
          bytes = std::max(bytes, b);
      }
    });
    p->workspace = q.context().alloc<float>(std::max<std::size_t>(bytes / sizeof(float) + 1, 1));
    void* ws = reinterpret_cast<void*>(interop::native_buffer(p->workspace).device_pointer);
    const void* xp = reinterpret_cast<const void*>(in.device_pointer);
    const void* wp = reinterpret_cast<const void*>(wt.device_pointer);
    void* yp = reinterpret_cast<void*>(out.device_pointer);
    AlgoPerf perf[kAlgorithms] = {};
    int returned = 0;
    q.finish();
    interop::with_native(q, [&](const interop::NativeQueue&) {
      status = api_.find_ex(handle_, p->x, xp, p->w, wp, p->conv, p->y, yp, kAlgorithms, &returned, perf, ws, bytes);
    });
    if (status != kSuccess)
      throw Error(Status::DeviceError, "cudnnFindConvolutionForwardAlgorithmEx failed: " + status_text(status));
    // Sorted fastest first; the first that ran.
    const AlgoPerf* best = nullptr;
    for (int i = 0; i < returned && !best; ++i)
      if (perf[i].status == kSuccess && perf[i].algo >= 0 && perf[i].algo < kAlgorithms) best = &perf[i];
    if (!best) throw Error(Status::Unsupported, "cuDNN: no forward algorithm ran this case");
    const int algo = best->algo;
    const std::size_t need = best->memory;
    PreparedConv r;
    r.algorithm = std::string(kAlgoNames[algo]) + (half_sums && t == DType::F16 ? " (f16 sums)" : "");
    const Handle handle = handle_;
    const CudnnApi* api = &api_;
    r.run = [p, api, handle, algo, xp, wp, yp, ws, need]() {
      const float alpha = 1, beta = 0;
      int s = kSuccess;
      Event ev = interop::enqueue_native(p->queue, [&](const interop::NativeQueue&) {
        s = api->forward(handle, &alpha, p->x, xp, p->w, wp, p->conv, algo, ws, need, &beta, p->y, yp);
      });
      if (s != kSuccess)
        throw Error(Status::DeviceError, std::string("cudnnConvolutionForward failed: ") + api->error_string(s) +
                                             " (" + std::to_string(s) + ")");
      return ev;
    };
    return r;
  }

 private:
  std::string status_text(int s) const {
    const char* text = api_.error_string ? api_.error_string(s) : nullptr;
    return (text ? std::string(text) : std::string("cuDNN status")) + " (" + std::to_string(s) + ")";
  }
  void release() noexcept { destroy_cuda_handle(queue_, handle_, [&](Handle h) { api_.destroy(h); }); }

  const CudnnApi& api_;
  Queue queue_;
  Handle handle_ = nullptr;
};

}  // namespace

LibraryProbe probe_cudnn() { return load().probe; }

ReferenceConvOpen open_reference_conv(const Queue& q) {
  ReferenceConvOpen r;
  const Capabilities& caps = q.device().caps();
  if (caps.backend != Backend::CUDA) return open_clblast_conv(q);
  const CudnnApi& api = load();
  if (!api.probe.loaded) {
    r.reason = "not installed: " + api.probe.reason;
    return r;
  }
  try {
    r.conv = std::make_unique<Cudnn>(api, q);
  } catch (const Error& e) {
    r.reason = std::string("not available: ") + e.what();
  }
  return r;
}

}  // namespace optune::tool
