// The H100's FP64 tensor-core rate per mma.sync shape (m8n8k4 from sm_80;
// m16n8k4, m16n8k8, m16n8k16 from sm_90), to choose the shape of the f64
// GEMM candidate. Each warp runs CHAINS independent products on register
// fragments; the output is checked against the known value.
// nvcc -O3 -arch=sm_90 scripts/gpu/dmma_peak.cu -o /tmp/dmma_peak && /tmp/dmma_peak
#include <cstdio>
#include <cuda_runtime.h>

constexpr int CHAINS = 8, ITERS = 2048;

template <int SHAPE>  // 0 m8n8k4, 1 m16n8k4, 2 m16n8k8, 3 m16n8k16
__global__ void peak(double* out, double x) {
  double d[CHAINS][4] = {};
  for (int i = 0; i < ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) {
      if constexpr (SHAPE == 0) {
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                     : "+d"(d[c][0]), "+d"(d[c][1]) : "d"(x), "d"(x));
      } else if constexpr (SHAPE == 1) {
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                     : "+d"(d[c][0]), "+d"(d[c][1]), "+d"(d[c][2]), "+d"(d[c][3]) : "d"(x), "d"(x), "d"(x));
      } else if constexpr (SHAPE == 2) {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+d"(d[c][0]), "+d"(d[c][1]), "+d"(d[c][2]), "+d"(d[c][3])
                     : "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x));
      } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
                     "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
                     : "+d"(d[c][0]), "+d"(d[c][1]), "+d"(d[c][2]), "+d"(d[c][3])
                     : "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x), "d"(x),
                       "d"(x));
      }
    }
  }
  double s = 0;
  for (int c = 0; c < CHAINS; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int SHAPE> void run(const char* name, int m, int n, int k, int warps) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int blocks = sms * 8, threads = 32 * warps;
  double* out;
  cudaMalloc(&out, sizeof(double) * blocks * threads);
  peak<SHAPE><<<blocks, threads>>>(out, 1.0);
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  cudaEventRecord(a);
  const int reps = 5;
  for (int r = 0; r < reps; ++r) peak<SHAPE><<<blocks, threads>>>(out, 1.0);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  const double flops = 2.0 * m * n * k * CHAINS * double(ITERS) * blocks * warps * reps;
  double host = 0;
  cudaMemcpy(&host, out, sizeof(double), cudaMemcpyDeviceToHost);
  const int regs = SHAPE == 0 ? 2 : 4;
  const double expect = double(CHAINS) * regs * k * ITERS;  // x = 1
  printf("%-10s warps/group %d: %7.2f TFLOP/s  check %s (%g vs %g) %s\n", name, warps, flops / (ms * 1e-3) / 1e12,
         host == expect ? "ok" : "BAD", host, expect, cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
}

int main() {
  for (int w : {4, 8}) {
    run<0>("m8n8k4", 8, 8, 4, w);
    run<1>("m16n8k4", 16, 8, 4, w);
    run<2>("m16n8k8", 16, 8, 8, w);
    run<3>("m16n8k16", 16, 8, 16, w);
  }
}
