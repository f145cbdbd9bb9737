// CLBlast's im2col and col2im (optune/blas_extra.hpp): validation, the
// patch grid's size, and the launches of blas/im2col.cl through the
// blas_extra family (its WGS and WAVES, buckets "im2col/..." and
// "col2im/...").
#include <algorithm>
#include <climits>
#include <complex>
#include <string>

#include "ops/blas_extra_ops.hpp"
#include "ops/params.hpp"
#include "ops/validate.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {

using R = BlasExtraRoutine;

constexpr std::int64_t kIntMax = INT32_MAX;

// The patch grid and the two operands' sizes of a validated call.
struct Patches {
  std::int64_t oh = 0, ow = 0;
  std::size_t im = 0, col = 0;  // elements
  bool empty = true;            // a zero size: nothing to read or write
};

// An argument as CLBlast's C API numbers it (kernel_mode 1 ... dilation_w 12).
std::string argn(const char* name, int position) {
  return std::string(name) + " (argument " + std::to_string(position) + ")";
}

// `least` <= v <= 2^31 - 1 (the kernels' int), else InvalidArgument / Overflow.
void check_range(const std::string& routine, const char* name, int position, std::int64_t v, std::int64_t least) {
  if (v < least)
    throw Error(Status::InvalidArgument, routine + ": " + argn(name, position) + " is " + std::to_string(v) +
                                             "; at least " + std::to_string(least) + " expected");
  if (v > kIntMax)
    throw Error(Status::Overflow, routine + ": " + argn(name, position) + " is " + std::to_string(v) +
                                      "; at most 2^31 - 1 expected");
}

// CLBlast's output size, arguments already in range; Overflow when the padded
// size passes 2^31 - 1.
std::int64_t output_size(const std::string& routine, const char* axis, std::int64_t size, std::int64_t kernel,
                         std::int64_t pad, std::int64_t stride, std::int64_t dilation) {
  const std::int64_t padded = size + 2 * pad, span = dilation * (kernel - 1) + 1;  // < 2^63: each < 2^31
  if (padded > kIntMax)
    throw Error(Status::Overflow, routine + ": the padded " + axis + " (" + std::to_string(padded) +
                                      ") exceeds 2^31 - 1");
  return padded >= span ? (padded - span) / stride + 1 : 1;
}

Patches validate_patches(const Queue& q, const BlasExtraCall& c) {
  const bool to_col = c.routine == R::Im2col;
  const std::string name = to_col ? "im2col" : "col2im";
  const auto fail = [&](Status st, const std::string& msg) { throw Error(st, name + ": " + msg); };
  if (c.kernel_mode != KernelMode::CrossCorrelation && c.kernel_mode != KernelMode::Convolution)
    fail(Status::InvalidArgument, argn("kernel_mode", 1) + " is " + std::to_string(int(c.kernel_mode)) +
                                      "; CrossCorrelation or Convolution expected");
  check_range(name, "channels", 2, c.channels, 0);
  check_range(name, "height", 3, c.height, 0);
  check_range(name, "width", 4, c.width, 0);
  check_range(name, "kernel_h", 5, c.kernel_h, 0);
  check_range(name, "kernel_w", 6, c.kernel_w, 0);
  check_range(name, "pad_h", 7, c.pad_h, 0);
  check_range(name, "pad_w", 8, c.pad_w, 0);
  check_range(name, "stride_h", 9, c.stride_h, 1);
  check_range(name, "stride_w", 10, c.stride_w, 1);
  check_range(name, "dilation_h", 11, c.dilation_h, 1);
  check_range(name, "dilation_w", 12, c.dilation_w, 1);
  // Types and buffers: the source operand first (im for im2col, col for col2im).
  const BlasVector& src = to_col ? c.x : c.y;
  const BlasVector& dst = to_col ? c.y : c.x;
  const char* src_name = to_col ? "im" : "col";
  const char* dst_name = to_col ? "col" : "im";
  const auto arg = [&](const char* what) { return name + ": " + what; };
  validate::dtype_known(arg(src_name).c_str(), src.dtype);
  validate::on_queue(arg(src_name).c_str(), src.mem, q);
  validate::dtype_known(arg(dst_name).c_str(), dst.dtype);
  validate::on_queue(arg(dst_name).c_str(), dst.mem, q);
  const DType t = src.dtype;
  const auto tn = [](DType d) { return std::string(dtype_name(d)); };
  if (t != DType::F16 && t != DType::F32 && t != DType::F64 && t != DType::C32 && t != DType::C64)
    fail(Status::InvalidType, std::string(src_name) + " is " + tn(t) + "; f16, f32, f64, c32 or c64 expected");
  if (dst.dtype != t)
    fail(Status::InvalidType, std::string(dst_name) + " is " + tn(dst.dtype) + " but " + src_name + " is " + tn(t));
  validate::dtype_held(arg(src_name).c_str(), t, q.device().caps());
  check_view(arg(src_name), src);
  check_view(arg(dst_name), dst);
  Patches p;
  if (c.channels == 0 || c.height == 0 || c.width == 0 || c.kernel_h == 0 || c.kernel_w == 0) return p;
  p.oh = output_size(name, "height", c.height, c.kernel_h, c.pad_h, c.stride_h, c.dilation_h);
  p.ow = output_size(name, "width", c.width, c.kernel_w, c.pad_w, c.stride_w, c.dilation_w);
  const std::string im_what = name + ": im (channels x height x width)";
  const std::string col_what = name + ": col (channels x kernel_h x kernel_w x output height x width)";
  p.im = validate::mul(im_what.c_str(), validate::mul(im_what.c_str(), std::size_t(c.channels), std::size_t(c.height)),
                       std::size_t(c.width));
  std::size_t col = std::size_t(c.channels);
  for (std::int64_t f : {c.kernel_h, c.kernel_w, p.oh, p.ow}) col = validate::mul(col_what.c_str(), col, std::size_t(f));
  p.col = col;
  validate::fits(arg("im").c_str(), c.x.count, 0, p.im);
  validate::fits(arg("col").c_str(), c.y.count, 0, p.col);
  if (c.x.mem == c.y.mem && c.x.offset < c.y.offset + p.col && c.y.offset < c.x.offset + p.im)
    fail(Status::InvalidArgument, "im and col overlap in one allocation");
  p.empty = false;
  return p;
}

KernelArg i32(std::int64_t v) { return KernelArg::scalar(std::int32_t(v)); }
KernelArg u64(std::uint64_t v) { return KernelArg::scalar(v); }

}  // namespace

Event run_blas_patches(const Queue& q, const BlasExtraCall& c, const WaitList& wait, const Params* forced) {
  const Patches shape = validate_patches(q, c);
  if (shape.empty) return Event();
  const Capabilities& caps = q.device().caps();
  const BlasExtraFamily& fam = families::blas_extra();
  BlasExtraProblem pr;
  pr.dtype = c.x.dtype;
  pr.routine = c.routine;
  pr.elements = std::int64_t(shape.col);
  pr.indices = std::int64_t(std::max(shape.col, shape.im));
  const Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
  // The pack: col2im's PV elements of an image row as the entry says;
  // im2col's packs of pixels at most 16 bytes, one word an element (not c64),
  // and only where every pack is aligned and lies in one matrix row.
  const std::int64_t pixels = shape.oh * shape.ow;
  pr.pack = p.at("PV");
  if (c.routine == R::Im2col) {
    pr.pack = std::min<std::int64_t>(pr.pack, std::int64_t(16 / dtype_size(pr.dtype)));  // c64: 1
    while (pr.pack > 1 && (pixels % pr.pack != 0 || c.y.offset % std::size_t(pr.pack) != 0)) pr.pack /= 2;
  }
  // The work-items: im2col's are (channel, pack of patches) pairs, col2im's
  // packs of an image row.
  BlasExtraProblem grid = pr;
  grid.elements = c.routine == R::Col2im ? c.channels * c.height * ((c.width + pr.pack - 1) / pr.pack)
                                         : c.channels * pixels / pr.pack;
  const Geometry g = fam.geometry(p, caps, grid);
  KernelPtr k = compile_kernel(q, fam.program(p, pr));
  std::vector<KernelArg> args;
  const std::int64_t flip = c.kernel_mode == KernelMode::Convolution;
  for (std::int64_t v : {c.channels, c.height, c.width, shape.oh, shape.ow, c.kernel_h, c.kernel_w, c.stride_h,
                         c.stride_w, c.dilation_h, c.dilation_w, c.pad_h, c.pad_w, flip})
    args.push_back(i32(v));
  if (c.routine == R::Im2col) {
    // One image: strides of (n, c, y, x) in CHW order.
    const std::uint64_t hw = std::uint64_t(c.height) * std::uint64_t(c.width);
    for (std::uint64_t v : {std::uint64_t(1), hw * std::uint64_t(c.channels), hw, std::uint64_t(c.width),
                            std::uint64_t(1)})
      args.push_back(u64(v));
    args.insert(args.end(), {KernelArg::buffer(*c.x.mem), u64(c.x.offset), KernelArg::buffer(*c.y.mem), u64(c.y.offset)});
  } else {
    args.insert(args.end(), {KernelArg::buffer(*c.y.mem), u64(c.y.offset), KernelArg::buffer(*c.x.mem), u64(c.x.offset)});
  }
  return launch_kernel(q, *k, args, g, wait, &p);
}

Event blas_patches_untyped(const Queue& q, const BlasExtraCall& c, const WaitList& wait) {
  trace::Span traced(std::string("blas ") + (c.routine == R::Im2col ? "im2col" : "col2im"));
  if (traced) {
    traced.text("dtype", dtype_name(c.x.dtype));
    traced.number("channels", double(c.channels));
    traced.number("height", double(c.height));
    traced.number("width", double(c.width));
  }
  return run_blas_patches(q, c, wait, nullptr);
}

}  // namespace optune::detail

namespace optune {

std::int64_t im2col_output_size(std::int64_t size, std::int64_t kernel, std::int64_t pad, std::int64_t stride,
                                std::int64_t dilation) {
  const std::string name = "im2col_output_size";
  detail::check_range(name, "size", 1, size, 0);
  detail::check_range(name, "kernel", 2, kernel, 1);
  detail::check_range(name, "pad", 3, pad, 0);
  detail::check_range(name, "stride", 4, stride, 1);
  detail::check_range(name, "dilation", 5, dilation, 1);
  return detail::output_size(name, "size", size, kernel, pad, stride, dilation);
}

namespace {

template <class T>
detail::BlasExtraCall patches_call(detail::BlasExtraRoutine routine, KernelMode mode, std::int64_t channels,
                                   std::int64_t height, std::int64_t width, std::int64_t kernel_h,
                                   std::int64_t kernel_w, std::int64_t pad_h, std::int64_t pad_w, std::int64_t stride_h,
                                   std::int64_t stride_w, std::int64_t dilation_h, std::int64_t dilation_w,
                                   const Buffer<T>& im, const Buffer<T>& col) {
  detail::BlasExtraCall c;
  c.routine = routine;
  c.kernel_mode = mode;
  c.channels = channels, c.height = height, c.width = width;
  c.kernel_h = kernel_h, c.kernel_w = kernel_w, c.pad_h = pad_h, c.pad_w = pad_w;
  c.stride_h = stride_h, c.stride_w = stride_w, c.dilation_h = dilation_h, c.dilation_w = dilation_w;
  c.x = detail::blas_vector(im);
  c.y = detail::blas_vector(col);
  return c;
}

}  // namespace

template <class T>
Event im2col(const Queue& q, KernelMode kernel_mode, std::int64_t channels, std::int64_t height, std::int64_t width,
             std::int64_t kernel_h, std::int64_t kernel_w, std::int64_t pad_h, std::int64_t pad_w,
             std::int64_t stride_h, std::int64_t stride_w, std::int64_t dilation_h, std::int64_t dilation_w,
             const Buffer<T>& im, const Buffer<T>& col, const WaitList& wait) {
  const detail::BlasExtraCall c = patches_call(detail::BlasExtraRoutine::Im2col, kernel_mode, channels, height, width,
                                               kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w, dilation_h,
                                               dilation_w, im, col);
  return detail::blas_patches_untyped(q, c, wait);
}

// col2im: im2col's arguments, col read and im added to.
template <class T>
Event col2im(const Queue& q, KernelMode kernel_mode, std::int64_t channels, std::int64_t height, std::int64_t width,
             std::int64_t kernel_h, std::int64_t kernel_w, std::int64_t pad_h, std::int64_t pad_w,
             std::int64_t stride_h, std::int64_t stride_w, std::int64_t dilation_h, std::int64_t dilation_w,
             const Buffer<T>& col, const Buffer<T>& im, const WaitList& wait) {
  detail::BlasExtraCall c = patches_call(detail::BlasExtraRoutine::Im2col, kernel_mode, channels, height, width,
                                         kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w,
                                         im, col);
  c.routine = detail::BlasExtraRoutine::Col2im;
  return detail::blas_patches_untyped(q, c, wait);
}

#define OPTUNE_BLAS_PATCHES(T)                                                                                   \
  template Event im2col<T>(const Queue&, KernelMode, std::int64_t, std::int64_t, std::int64_t, std::int64_t,     \
                           std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,   \
                           std::int64_t, const Buffer<T>&, const Buffer<T>&, const WaitList&);                   \
  template Event col2im<T>(const Queue&, KernelMode, std::int64_t, std::int64_t, std::int64_t, std::int64_t,     \
                           std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,   \
                           std::int64_t, const Buffer<T>&, const Buffer<T>&, const WaitList&);
OPTUNE_BLAS_PATCHES(half)
OPTUNE_BLAS_PATCHES(float)
OPTUNE_BLAS_PATCHES(double)
OPTUNE_BLAS_PATCHES(std::complex<float>)
OPTUNE_BLAS_PATCHES(std::complex<double>)

}  // namespace optune
