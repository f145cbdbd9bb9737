// Using optune/cuda/elementwise.cuh in your own CUDA code: bias-free gelu
// over a device array, then a fused multiply-add of three arrays.
//   nvcc -std=c++17 -arch=sm_90 -I include examples/cuda_elementwise.cu -o cuda_elementwise
#include <cmath>
#include <cstdio>
#include <vector>

#include "optune/cuda/elementwise.cuh"

struct Gelu {
  __device__ float operator()(float x) const { return 0.5f * x * erfcf(-x * 0.70710678f); }
};
struct MulAdd {
  __device__ float operator()(float a, float b, float c) const { return fmaf(a, b, c); }
};

int main() {
  const int n = 1 << 20;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = float(i % 1000) / 250.0f - 2.0f;
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) {
    std::printf("no CUDA device: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaError_t err = optune::cuda::Unary(Gelu{}, n, y, x);
  if (err == cudaSuccess) err = optune::cuda::Ternary(MulAdd{}, n, y, y, x, x);  // in place: y = y * x + x
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  cudaMemcpy(host.data(), y, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%s; y[0] = %f\n", cudaGetErrorString(err), host[0]);
  cudaFree(x);
  cudaFree(y);
  return err == cudaSuccess ? 0 : 1;
}
