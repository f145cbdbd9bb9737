// CLBlast's convgemm (CLBlastSconvgemm / CLBlastHconvgemm, its "level X"
// batched convolution as GEMM), the reference convolution of `optune bench
// conv` on OpenCL devices, through the library clblast.cpp loaded.
//
// What it computes (CLBlast 1.5's routines/levelx/xconvgemm.cpp and the
// kernels it builds): image batch x channels x height x width (NCHW), kernel
// num_kernels x channels x kernel_h x kernel_w (KCHW, optune's weights),
// result batch x num_kernels x out_h x out_w (NCHW); one pad per dimension,
// taken on both sides; no groups; kernel mode cross-correlation (151, what
// conv2d computes). 1.5 runs it as one kernel (XconvgemmNormal: its direct
// GEMM tiles reading the patches from the image), with no host wait, so the
// bracket of interop::enqueue_native times it as optune's own kernels are.
// Its kernel arguments and indices are 32-bit ints. As with its GEMM, its
// parameters come from the database compiled into the library ("as shipped").
#include <CL/cl.h>

#include <climits>

#include "reference_conv.hpp"

namespace optune::tool {

namespace {

enum : int { kCrossCorrelation = 151 };  // CLBlastKernelMode

// (kernel_mode, channels, height, width, kernel_h, kernel_w, pad_h, pad_w,
// stride_h, stride_w, dilation_h, dilation_w, num_kernels, batch_count,
// im_buffer, im_offset, kernel_buffer, kernel_offset, result_buffer,
// result_offset, queue, event); offsets in elements.
using ConvgemmFn = int(int kernel_mode, std::size_t channels, std::size_t height, std::size_t width,
                       std::size_t kernel_h, std::size_t kernel_w, std::size_t pad_h, std::size_t pad_w,
                       std::size_t stride_h, std::size_t stride_w, std::size_t dilation_h, std::size_t dilation_w,
                       std::size_t num_kernels, std::size_t batch_count, cl_mem im, std::size_t im_offset,
                       cl_mem kernel, std::size_t kernel_offset, cl_mem result, std::size_t result_offset,
                       cl_command_queue* queue, cl_event* event);

class ClblastConv : public ReferenceConv {
 public:
  ClblastConv(ConvgemmFn* s, ConvgemmFn* h, const Capabilities& caps)
      : s_(s), h_(h), fp16_(caps.fp16) {}

  std::string name() const override {
    const std::string version = probe_clblast().version;
    return "CLBlast " + (version.empty() ? std::string("(version unknown)") : version) +
           " convgemm as shipped (its own tuning database, not tuned here)";
  }

  std::string unsupported(const Conv2dDesc& d, DType t) const override {
    if (t != DType::F32 && t != DType::F16) return "CLBlast convgemm: f32 and f16 only";
    if (t == DType::F16 && !fp16_) return "CLBlast's Hconvgemm needs cl_khr_fp16, which the device lacks";
    if (t == DType::F16 && !h_) return "the library lacks CLBlastHconvgemm";
    if (d.input_layout != ConvLayout::NCHW || d.output_layout != ConvLayout::NCHW || d.groups != 1 ||
        d.pad_top != d.pad_bottom || d.pad_left != d.pad_right)
      return "CLBlast convgemm: NCHW, groups 1 and symmetric padding only";
    if (d.input_elements() > INT_MAX || d.output_elements() > INT_MAX || d.weight_elements() > INT_MAX)
      return "CLBlast convgemm indexes with 32-bit ints; this case has more elements";
    return "";
  }

  PreparedConv prepare(const Queue& q, const Conv2dDesc& d, DType t, const interop::NativeBuffer& in,
                       const interop::NativeBuffer& wt, const interop::NativeBuffer& out,
                       bool half_sums = false) override {
    (void)half_sums;
    if (std::string why = unsupported(d, t); !why.empty()) throw Error(Status::Unsupported, why);
    ConvgemmFn* fn = t == DType::F16 ? h_ : s_;
    const std::string what = t == DType::F16 ? "CLBlastHconvgemm" : "CLBlastSconvgemm";
    const std::size_t es = dtype_size(t);
    PreparedConv r;
    r.algorithm = "XconvgemmNormal";  // 1.5 and later: one kernel reading the patches from the image
    r.run = [q, d, fn, what, es, in, wt, out]() {
      const auto z = [](std::int64_t v) { return std::size_t(v); };
      const auto mem = [](const interop::NativeBuffer& x) { return static_cast<cl_mem>(x.cl_mem); };
      int status = 0;
      Event ev = interop::enqueue_native(q, [&](const interop::NativeQueue& nq) {
        cl_command_queue queue = static_cast<cl_command_queue>(nq.queue);
        cl_event done = nullptr;
        status = fn(kCrossCorrelation, z(d.in_channels), z(d.in_height), z(d.in_width), z(d.kernel_h), z(d.kernel_w),
                    z(d.pad_top), z(d.pad_left), z(d.stride_h), z(d.stride_w), z(d.dilation_h), z(d.dilation_w),
                    z(d.out_channels), z(d.batch), mem(in), in.offset_bytes / es, mem(wt), wt.offset_bytes / es,
                    mem(out), out.offset_bytes / es, &queue, &done);
        if (done) clReleaseEvent(done);  // the span's markers time the call
      });
      if (status != 0) throw Error(Status::DeviceError, what + " returned " + clblast_status_text(status));
      return ev;
    };
    return r;
  }

 private:
  ConvgemmFn* s_;
  ConvgemmFn* h_;  // optional: f16 rows go without a reference where it is missing
  bool fp16_;
};

}  // namespace

ReferenceConvOpen open_clblast_conv(const Queue& q) {
  ReferenceConvOpen r;
  // The GEMM adapter's checks: an OpenCL queue, the library loaded.
  if (ReferenceOpen blas = open_clblast(q); !blas.blas) {
    r.reason = blas.reason;
    return r;
  }
  auto* s = reinterpret_cast<ConvgemmFn*>(clblast_symbol("CLBlastSconvgemm"));
  auto* h = reinterpret_cast<ConvgemmFn*>(clblast_symbol("CLBlastHconvgemm"));
  if (!s) {
    r.reason = "not available: " + probe_clblast().path + " lacks CLBlastSconvgemm (CLBlast older than 1.5?)";
    return r;
  }
  r.conv = std::make_unique<ClblastConv>(s, h, q.device().caps());
  return r;
}

}  // namespace optune::tool
