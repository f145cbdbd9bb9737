// CLBlast's extra BLAS routines on the device, in s, d, c and z: had
// (xHAD), omatcopy (xOMATCOPY) and axpy_batched (AxpyBatched). (im2col and
// col2im are not written yet.)
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
//
// n = 0 (m or n = 0 for omatcopy, an empty batch) returns at once, after
// the checks. Errors (optune::Error naming the routine and argument):
// InvalidArgument (n, m < 0, a zero increment, a leading dimension too
// small, offsets arrays of other sizes than alphas, negative offsets,
// overlaps, empty buffers or buffers of another context), BufferTooSmall
// (views shorter than what the arguments address), Overflow, InvalidType
// (f16 / bf16, through the C API), Unsupported (f64 and c64 without fp64).
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

template <class T>
Event axpy_batched(const Queue& q, std::int64_t n, std::span<const T> alphas, const Buffer<T>& x,
                   std::span<const std::int64_t> x_offsets, std::int64_t incx, const Buffer<T>& y,
                   std::span<const std::int64_t> y_offsets, std::int64_t incy, const WaitList& wait = {});

}  // namespace optune
