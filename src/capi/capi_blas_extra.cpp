// C API: CLBlast's extras over the library's untyped entry
// (detail::blas_extra_untyped), so every dtype reaches the templates' checks.
#include "capi/capi.hpp"
#include "capi/capi_blas_vector.hpp"
#include "ops/blas_extra_ops.hpp"

using namespace optune;
using namespace optune::capi;
using detail::BlasExtraCall;
using detail::BlasExtraRoutine;

namespace {

std::complex<double> scalar(const detail::BlasVector& first, optune_complex a, const std::string& what) {
  if (!is_complex(first.dtype) && a.im != 0)
    invalid(what + " has an imaginary part (" + std::to_string(a.im) + ") for real data");
  return {a.re, a.im};
}

template <class F>
optune_status run(const char* fn, optune_queue queue, const optune_event* wait, size_t wait_count, optune_event* event,
                  F&& fill) {
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    BlasExtraCall c;
    fill(c, std::string(fn));
    const WaitList w = wait_list(wait, wait_count, fn);
    out.set(detail::blas_extra_untyped(q, c, w));
  });
}

// im2col and col2im's scalar arguments, CLBlast's 1 to 12.
struct PatchArgs {
  int32_t mode;
  int64_t v[11];  // channels, height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w
};

void fill_patches(BlasExtraCall& c, BlasExtraRoutine r, const PatchArgs& a, optune_buffer im, optune_buffer col,
                  const std::string& f) {
  c.routine = r;
  c.kernel_mode = KernelMode(a.mode);
  std::int64_t* fields[11] = {&c.channels, &c.height,   &c.width,    &c.kernel_h,   &c.kernel_w,  &c.pad_h,
                              &c.pad_w,    &c.stride_h, &c.stride_w, &c.dilation_h, &c.dilation_w};
  for (int i = 0; i < 11; ++i) *fields[i] = a.v[i];
  c.x = blas_vector(im, f + ": im");
  c.y = blas_vector(col, f + ": col");
}

}  // namespace

extern "C" {

optune_status optune_blas_had(optune_queue queue, int64_t n, optune_complex alpha, optune_buffer x, int64_t incx,
                              optune_buffer y, int64_t incy, optune_complex beta, optune_buffer z, int64_t incz,
                              const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_had", queue, wait, wait_count, event, [&](BlasExtraCall& c, const std::string& f) {
    c.routine = BlasExtraRoutine::Had;
    c.n = n;
    c.x = blas_vector(x, f + ": x");
    c.y = blas_vector(y, f + ": y");
    c.z = blas_vector(z, f + ": z");
    c.alpha = scalar(c.x, alpha, f + ": alpha");
    c.beta = scalar(c.x, beta, f + ": beta");
    c.incx = incx;
    c.incy = incy;
    c.incz = incz;
  });
}

optune_status optune_blas_omatcopy(optune_queue queue, optune_layout layout, int32_t trans, int64_t m, int64_t n,
                                   optune_complex alpha, optune_buffer a, int64_t lda, optune_buffer b, int64_t ldb,
                                   const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_omatcopy", queue, wait, wait_count, event, [&](BlasExtraCall& c, const std::string& f) {
    c.routine = BlasExtraRoutine::Omatcopy;
    c.layout = Layout(int(layout));
    c.trans = BlasTranspose(trans);
    c.m = m;
    c.n = n;
    c.x = blas_vector(a, f + ": a");
    c.y = blas_vector(b, f + ": b");
    c.alpha = scalar(c.x, alpha, f + ": alpha");
    c.lda = lda;
    c.ldb = ldb;
  });
}

optune_status optune_blas_axpy_batched(optune_queue queue, int64_t n, const optune_complex* alphas, optune_buffer x,
                                       const int64_t* x_offsets, int64_t incx, optune_buffer y,
                                       const int64_t* y_offsets, int64_t incy, size_t batch,
                                       const optune_event* wait, size_t wait_count, optune_event* event) {
  return run("optune_blas_axpy_batched", queue, wait, wait_count, event, [&](BlasExtraCall& c, const std::string& f) {
    c.routine = BlasExtraRoutine::AxpyBatched;
    c.n = n;
    c.x = blas_vector(x, f + ": x");
    c.y = blas_vector(y, f + ": y");
    if (batch > 0) {
      need(alphas, (f + ": alphas").c_str());
      need(x_offsets, (f + ": x_offsets").c_str());
      need(y_offsets, (f + ": y_offsets").c_str());
    }
    for (size_t b = 0; b < batch; ++b) {
      c.alphas.push_back(scalar(c.x, alphas[b], f + ": alphas[" + std::to_string(b) + "]"));
      c.x_offsets.push_back(x_offsets[b]);
      c.y_offsets.push_back(y_offsets[b]);
    }
    c.incx = incx;
    c.incy = incy;
  });
}

optune_status optune_blas_im2col(optune_queue queue, int32_t kernel_mode, int64_t channels, int64_t height,
                                 int64_t width, int64_t kernel_h, int64_t kernel_w, int64_t pad_h, int64_t pad_w,
                                 int64_t stride_h, int64_t stride_w, int64_t dilation_h, int64_t dilation_w,
                                 optune_buffer im, optune_buffer col, const optune_event* wait, size_t wait_count,
                                 optune_event* event) {
  const PatchArgs a{kernel_mode, {channels, height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w,
                                  dilation_h, dilation_w}};
  return run("optune_blas_im2col", queue, wait, wait_count, event, [&](BlasExtraCall& c, const std::string& f) {
    fill_patches(c, BlasExtraRoutine::Im2col, a, im, col, f);
  });
}

optune_status optune_blas_col2im(optune_queue queue, int32_t kernel_mode, int64_t channels, int64_t height,
                                 int64_t width, int64_t kernel_h, int64_t kernel_w, int64_t pad_h, int64_t pad_w,
                                 int64_t stride_h, int64_t stride_w, int64_t dilation_h, int64_t dilation_w,
                                 optune_buffer col, optune_buffer im, const optune_event* wait, size_t wait_count,
                                 optune_event* event) {
  const PatchArgs a{kernel_mode, {channels, height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w,
                                  dilation_h, dilation_w}};
  return run("optune_blas_col2im", queue, wait, wait_count, event, [&](BlasExtraCall& c, const std::string& f) {
    fill_patches(c, BlasExtraRoutine::Col2im, a, im, col, f);
  });
}

}  // extern "C"
