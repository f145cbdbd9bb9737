// optune/cuda/elementwise.cuh: element-wise kernels for your own CUDA code,
// header-only. A functor says what to compute; these templates say how data
// moves: packs of up to 16 bytes per access when every pointer allows it
// (checked at launch, else one element per access), one pack per thread over
// the whole array (a grid-stride loop only past the grid's size limit), and
// the last n mod N elements done by the first threads.
//
//   struct Gelu { __device__ float operator()(float x) const { ... } };
//   optune::cuda::Unary(Gelu{}, n, y, x, stream);
//   optune::cuda::Binary(Add{}, n, y, a, b, stream);
//   optune::cuda::Ternary(Where{}, n, y, cond, a, b, stream);
//
// Each returns the launch's cudaError_t (cudaSuccess for n == 0, and
// cudaErrorInvalidValue for n < 0 or a null pointer). The output may alias
// an input element for element (in place).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace optune::cuda {

constexpr int kMaxPackBytes = 16;
constexpr int kBlockSize = 256;

template <class T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

namespace detail {

// Elements per pack: 16 bytes of the widest operand.
template <class... T>
constexpr int pack_elements() {
  int n = kMaxPackBytes;
  ((n = kMaxPackBytes / int(sizeof(T)) < n ? kMaxPackBytes / int(sizeof(T)) : n), ...);
  return n < 1 ? 1 : n;
}

template <int N, class T>
__device__ __forceinline__ Pack<T, N> load(const T* p, std::int64_t i) {
  return reinterpret_cast<const Pack<T, N>*>(p)[i];
}

template <int N, class F, class R, class A>
__global__ void __launch_bounds__(kBlockSize) unary_kernel(F f, std::int64_t n, R* y, const A* a) {
  const std::int64_t packs = n / N, first = std::int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  for (std::int64_t p = first; p < packs; p += std::int64_t(gridDim.x) * kBlockSize) {
    const Pack<A, N> x = load<N>(a, p);
    Pack<R, N> r;
#pragma unroll
    for (int k = 0; k < N; ++k) r.v[k] = f(x.v[k]);
    reinterpret_cast<Pack<R, N>*>(y)[p] = r;
  }
  if (packs * N + first < n) y[packs * N + first] = f(a[packs * N + first]);
}

template <int N, class F, class R, class A, class B>
__global__ void __launch_bounds__(kBlockSize) binary_kernel(F f, std::int64_t n, R* y, const A* a, const B* b) {
  const std::int64_t packs = n / N, first = std::int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  for (std::int64_t p = first; p < packs; p += std::int64_t(gridDim.x) * kBlockSize) {
    const Pack<A, N> x = load<N>(a, p);
    const Pack<B, N> z = load<N>(b, p);
    Pack<R, N> r;
#pragma unroll
    for (int k = 0; k < N; ++k) r.v[k] = f(x.v[k], z.v[k]);
    reinterpret_cast<Pack<R, N>*>(y)[p] = r;
  }
  const std::int64_t t = packs * N + first;
  if (t < n) y[t] = f(a[t], b[t]);
}

template <int N, class F, class R, class A, class B, class C>
__global__ void __launch_bounds__(kBlockSize)
    ternary_kernel(F f, std::int64_t n, R* y, const A* a, const B* b, const C* c) {
  const std::int64_t packs = n / N, first = std::int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  for (std::int64_t p = first; p < packs; p += std::int64_t(gridDim.x) * kBlockSize) {
    const Pack<A, N> x = load<N>(a, p);
    const Pack<B, N> z = load<N>(b, p);
    const Pack<C, N> w = load<N>(c, p);
    Pack<R, N> r;
#pragma unroll
    for (int k = 0; k < N; ++k) r.v[k] = f(x.v[k], z.v[k], w.v[k]);
    reinterpret_cast<Pack<R, N>*>(y)[p] = r;
  }
  const std::int64_t t = packs * N + first;
  if (t < n) y[t] = f(a[t], b[t], c[t]);
}

inline bool aligned(const void* p, int bytes) { return reinterpret_cast<std::uintptr_t>(p) % unsigned(bytes) == 0; }

// Blocks for one pack per thread, capped at the grid's x limit (the kernels
// then loop); at least one block so the tail is covered.
inline unsigned blocks_for(std::int64_t n, int pack) {
  std::int64_t items = n / pack > n % pack ? n / pack : n % pack;
  std::int64_t blocks = (items + kBlockSize - 1) / kBlockSize;
  if (blocks < 1) blocks = 1;
  if (blocks > 0x7fffffff) blocks = 0x7fffffff;
  return unsigned(blocks);
}

}  // namespace detail

template <class F, class R, class A>
cudaError_t Unary(F f, std::int64_t n, R* y, const A* a, cudaStream_t stream = nullptr) {
  if (n < 0 || (n > 0 && (!y || !a))) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  constexpr int N = detail::pack_elements<R, A>();
  if (detail::aligned(y, sizeof(R) * N) && detail::aligned(a, sizeof(A) * N))
    detail::unary_kernel<N><<<detail::blocks_for(n, N), kBlockSize, 0, stream>>>(f, n, y, a);
  else
    detail::unary_kernel<1><<<detail::blocks_for(n, 1), kBlockSize, 0, stream>>>(f, n, y, a);
  return cudaPeekAtLastError();
}

template <class F, class R, class A, class B>
cudaError_t Binary(F f, std::int64_t n, R* y, const A* a, const B* b, cudaStream_t stream = nullptr) {
  if (n < 0 || (n > 0 && (!y || !a || !b))) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  constexpr int N = detail::pack_elements<R, A, B>();
  if (detail::aligned(y, sizeof(R) * N) && detail::aligned(a, sizeof(A) * N) && detail::aligned(b, sizeof(B) * N))
    detail::binary_kernel<N><<<detail::blocks_for(n, N), kBlockSize, 0, stream>>>(f, n, y, a, b);
  else
    detail::binary_kernel<1><<<detail::blocks_for(n, 1), kBlockSize, 0, stream>>>(f, n, y, a, b);
  return cudaPeekAtLastError();
}

template <class F, class R, class A, class B, class C>
cudaError_t Ternary(F f, std::int64_t n, R* y, const A* a, const B* b, const C* c, cudaStream_t stream = nullptr) {
  if (n < 0 || (n > 0 && (!y || !a || !b || !c))) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  constexpr int N = detail::pack_elements<R, A, B, C>();
  if (detail::aligned(y, sizeof(R) * N) && detail::aligned(a, sizeof(A) * N) && detail::aligned(b, sizeof(B) * N) &&
      detail::aligned(c, sizeof(C) * N))
    detail::ternary_kernel<N><<<detail::blocks_for(n, N), kBlockSize, 0, stream>>>(f, n, y, a, b, c);
  else
    detail::ternary_kernel<1><<<detail::blocks_for(n, 1), kBlockSize, 0, stream>>>(f, n, y, a, b, c);
  return cudaPeekAtLastError();
}

}  // namespace optune::cuda
