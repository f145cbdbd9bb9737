// CLBlast's extra BLAS routines on the device, in s, d, c, z and h
// (optune::half; had, omatcopy and axpy_batched compute in f32 and round
// once): had (xHAD), omatcopy (xOMATCOPY) and axpy_batched (AxpyBatched);
// im2col (xIM2COL) and col2im (xCOL2IM).
//
// Vectors are Buffer<T> views with a nonzero increment of either sign, as
// level 1's (optune/blas.hpp); matrices are views starting at element
// (0, 0) with a leading dimension.
//
// - had: z = alpha x .* y + beta z (element-wise product). beta == 0 (both
//   parts for complex) writes z without reading it, so NaN in z does not
//   propagate. x or y may be z itself (same offset and increment); other
//   overlaps of z with x or y are InvalidArgument.
// - omatcopy: B = alpha op(A), A m x n in `layout` (lda >= m for ColMajor,
//   >= n for RowMajor), B m x n (No) or n x m (Yes, Conjugate), ldb >= its
//   rows (ColMajor) or columns (RowMajor). A and B must not overlap.
// - axpy_batched: y_b = alphas[b] x_b + y_b for b < alphas.size(), x_b the
//   vector at x_offsets[b] elements from x's view (y_b likewise), all with
//   n, incx, incy. The spans of the y_b must be disjoint from each other and
//   from every x_c (c != b); x_b may be y_b. The per-batch arrays are
//   uploaded before the kernel: the call waits for the queue's earlier work
//   and that upload (a few bytes per batch).
// - im2col: col = the patch matrix of one image im of channels x height x
//   width (row-major, im[(c height + y) width + x]), as CLBlast's xIM2COL
//   writes it: (channels kernel_h kernel_w) rows of OH x OW columns,
//   row-major, element ((c kernel_h + kh) kernel_w + kw, oy OW + ox) =
//   im(c, oy stride_h - pad_h + kh dilation_h, ox stride_w - pad_w + kw
//   dilation_w), 0 where that falls in the padding. OH =
//   im2col_output_size(height, kernel_h, pad_h, stride_h, dilation_h) (OW
//   likewise): CLBlast's (height + 2 pad - (dilation (kernel - 1) + 1)) /
//   stride + 1, or 1 when the dilated kernel is taller than the padded
//   image. KernelMode::Convolution flips the kernel: row (c, kh, kw) holds
//   what cross-correlation puts in row (c, kernel_h - 1 - kh, kernel_w - 1 -
//   kw). Elements are copied as their bits.
// - col2im: the adjoint, as CLBlast's xCOL2IM: im += the sum, over the
//   matrix elements that im2col with the same arguments would fill from an
//   image element, of those elements. It ADDS to im (zero im first for
//   the plain sum). Deterministic: each image element is one work-item's,
//   summed in a fixed order (f16 in f32, rounded once).
//   im and col must not overlap (either routine). Pads may be 0, strides
//   and dilations at least 1; validation errors name CLBlast's argument
//   positions (kernel_mode 1, channels 2, ..., dilation_w 12); every size
//   argument is at most 2^31 - 1 (Overflow beyond).
//
// n = 0 (m or n = 0 for omatcopy, an empty batch; any of channels, height,
// width, kernel_h, kernel_w = 0 for im2col and col2im) returns at once, after
// the checks. Errors (optune::Error naming the routine and argument):
// InvalidArgument (n, m < 0, a zero increment, a leading dimension too
// small, offsets arrays of other sizes than alphas, negative offsets,
// overlaps, empty buffers or buffers of another context), BufferTooSmall
// (views shorter than what the arguments address), Overflow, InvalidType
// (bf16 for had, omatcopy, axpy_batched; bf16 and integers for im2col
// and col2im; through the C API), Unsupported (f64 and c64 without fp64).
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "optune/blas_types.hpp"
#include "optune/gemm.hpp"
#include "optune/runtime.hpp"

namespace optune {

template <class T>
Event had(const Queue& q, std::int64_t n, std::type_identity_t<T> alpha, const Buffer<T>& x, std::int64_t incx,
          const Buffer<T>& y, std::int64_t incy, std::type_identity_t<T> beta, const Buffer<T>& z, std::int64_t incz,
          const WaitList& wait = {});

template <class T>
Event omatcopy(const Queue& q, Layout layout, BlasTranspose trans, std::int64_t m, std::int64_t n,
               std::type_identity_t<T> alpha, const Buffer<T>& a, std::int64_t lda, const Buffer<T>& b,
               std::int64_t ldb, const WaitList& wait = {});

// im2col / col2im's kernel_mode: CLBlast's cross-correlation (patches in
// the kernel's order) or convolution (the kernel flipped in both axes).
enum class KernelMode { CrossCorrelation, Convolution };

template <class T>
Event im2col(const Queue& q, KernelMode kernel_mode, std::int64_t channels, std::int64_t height, std::int64_t width,
             std::int64_t kernel_h, std::int64_t kernel_w, std::int64_t pad_h, std::int64_t pad_w,
             std::int64_t stride_h, std::int64_t stride_w, std::int64_t dilation_h, std::int64_t dilation_w,
             const Buffer<T>& im, const Buffer<T>& col, const WaitList& wait = {});

template <class T>
Event col2im(const Queue& q, KernelMode kernel_mode, std::int64_t channels, std::int64_t height, std::int64_t width,
             std::int64_t kernel_h, std::int64_t kernel_w, std::int64_t pad_h, std::int64_t pad_w,
             std::int64_t stride_h, std::int64_t stride_w, std::int64_t dilation_h, std::int64_t dilation_w,
             const Buffer<T>& col, const Buffer<T>& im, const WaitList& wait = {});

// The patch grid's rows (or columns) as CLBlast computes them:
// (size + 2 pad - (dilation (kernel - 1) + 1)) / stride + 1 when the padded
// size holds one dilated kernel, else 1. InvalidArgument for a negative size
// or pad, a kernel, stride or dilation below 1; Overflow past 2^31 - 1.
std::int64_t im2col_output_size(std::int64_t size, std::int64_t kernel, std::int64_t pad, std::int64_t stride,
                                std::int64_t dilation);

template <class T>
Event axpy_batched(const Queue& q, std::int64_t n, std::span<const T> alphas, const Buffer<T>& x,
                   std::span<const std::int64_t> x_offsets, std::int64_t incx, const Buffer<T>& y,
                   std::span<const std::int64_t> y_offsets, std::int64_t incy, const WaitList& wait = {});

}  // namespace optune
