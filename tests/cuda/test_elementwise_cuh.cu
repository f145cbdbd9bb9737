// optune/cuda/elementwise.cuh on a CUDA device (label gpu; skipped without
// one): every size from 1 past a few packs, misaligned pointers, mixed types
// and in place, against double-precision host references.
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "optune/cuda/elementwise.cuh"

namespace {

struct Gelu {
  __device__ float operator()(float x) const { return 0.5f * x * erfcf(-x * 0.70710678118654752f); }
};
struct AddD {
  __device__ double operator()(double a, double b) const { return a + b; }
};
struct ToHalf {
  __device__ __half operator()(float x) const { return __float2half_rn(x); }
};
struct WhereI8 {
  __device__ float operator()(std::int8_t c, float a, float b) const { return c ? a : b; }
};

bool have_device() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

template <class T>
T* device_copy(const std::vector<T>& h, std::size_t extra = 0) {
  T* d = nullptr;
  EXPECT_EQ(cudaMalloc(&d, (h.size() + extra) * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}

template <class T>
std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  EXPECT_EQ(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

std::vector<std::size_t> sizes() {
  std::vector<std::size_t> s;
  for (std::size_t n = 1; n <= 40; ++n) s.push_back(n);
  for (std::size_t n : {1023u, 1025u, (1u << 20) + 3u}) s.push_back(n);
  return s;
}

std::mt19937& rng() {
  static std::mt19937 g(std::random_device{}());
  return g;
}

}  // namespace

TEST(CudaElementwise, UnaryAllSizesAndMisalignment) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  std::uniform_real_distribution<float> d(-6.0f, 6.0f);
  for (std::size_t n : sizes())
    for (std::size_t shift : {0u, 1u}) {
      std::vector<float> x(n + shift);
      for (auto& v : x) v = d(rng());
      float* dx = device_copy(x);
      float* dy = nullptr;
      ASSERT_EQ(cudaMalloc(&dy, (n + 1) * sizeof(float)), cudaSuccess);
      ASSERT_EQ(cudaMemset(dy, 0xff, (n + 1) * sizeof(float)), cudaSuccess);  // NaN poison
      ASSERT_EQ(optune::cuda::Unary(Gelu{}, std::int64_t(n), dy + shift, dx + shift), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const auto y = host_copy(dy + shift, n);
      for (std::size_t i = 0; i < n; ++i) {
        const double v = x[i + shift];
        const double want = 0.5 * v * std::erfc(-v / std::sqrt(2.0));
        ASSERT_NEAR(y[i], want, 1e-5 * std::fabs(want) + 1e-30) << "n=" << n << " shift=" << shift << " i=" << i;
      }
      cudaFree(dx);
      cudaFree(dy);
    }
}

TEST(CudaElementwise, MixedTypesAndInPlace) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device";
  const std::size_t n = 4099;
  std::vector<double> a(n), b(n);
  std::vector<float> f(n), g(n);
  std::vector<std::int8_t> c(n);
  std::uniform_real_distribution<double> d(-100, 100);
  for (std::size_t i = 0; i < n; ++i) a[i] = d(rng()), b[i] = d(rng()), f[i] = float(d(rng())), g[i] = float(d(rng())), c[i] = std::int8_t(i % 3 == 0);
  double* da = device_copy(a);
  double* db = device_copy(b);
  ASSERT_EQ(optune::cuda::Binary(AddD{}, std::int64_t(n), da, da, db), cudaSuccess);  // in place
  float* df = device_copy(f);
  float* dg = device_copy(g);
  std::int8_t* dc = device_copy(c);
  float* dw = nullptr;
  __half* dh = nullptr;
  ASSERT_EQ(cudaMalloc(&dw, n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dh, n * sizeof(__half)), cudaSuccess);
  ASSERT_EQ(optune::cuda::Ternary(WhereI8{}, std::int64_t(n), dw, dc, df, dg), cudaSuccess);
  ASSERT_EQ(optune::cuda::Unary(ToHalf{}, std::int64_t(n), dh, df), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto sum = host_copy(da, n);
  const auto w = host_copy(dw, n);
  const auto h = host_copy(dh, n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(sum[i], a[i] + b[i]);
    ASSERT_EQ(w[i], c[i] ? f[i] : g[i]);
    ASSERT_EQ(__half2float(h[i]), __half2float(__float2half_rn(f[i])));
  }
  for (void* p : {(void*)da, (void*)db, (void*)df, (void*)dg, (void*)dc, (void*)dw, (void*)dh}) cudaFree(p);
}

TEST(CudaElementwise, BadArguments) {
  float* p = nullptr;
  EXPECT_EQ(optune::cuda::Unary(Gelu{}, 0, p, p), cudaSuccess);
  EXPECT_EQ(optune::cuda::Unary(Gelu{}, -1, p, p), cudaErrorInvalidValue);
  EXPECT_EQ(optune::cuda::Unary(Gelu{}, 5, p, p), cudaErrorInvalidValue);
  static_assert(optune::cuda::detail::pack_elements<float>() == 4);
  static_assert(optune::cuda::detail::pack_elements<float, double>() == 2);
  static_assert(optune::cuda::detail::pack_elements<std::int8_t>() == 16);
  static_assert(optune::cuda::detail::pack_elements<__half, float>() == 4);
}
