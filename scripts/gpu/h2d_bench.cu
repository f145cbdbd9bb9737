// Host <-> device copy rates of one 64 MiB operand, as the host BLAS
// interface moves it: from pageable memory, from pageable memory registered
// for the call (cuMemHostRegister before, unregister after, both timed),
// and from pinned memory; and a pageable upload split over 4 threads and
// streams. Prints GB/s per way. Build: nvcc -O2 -o h2d h2d_bench.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

static double secs(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

int main() {
  const size_t bytes = size_t(64) << 20;
  char* host = static_cast<char*>(aligned_alloc(4096, bytes));
  memset(host, 1, bytes);
  char* pinned = nullptr;
  cudaMallocHost(&pinned, bytes);
  memset(pinned, 1, bytes);
  char* dev = nullptr;
  cudaMalloc(&dev, bytes);
  cudaFree(0);
  const auto report = [&](const char* what, double s) { printf("%-44s %8.2f ms %8.1f GB/s\n", what, s * 1e3, bytes / s / 1e9); };
  for (int rep = 0; rep < 2; ++rep) {
    auto t = std::chrono::steady_clock::now();
    cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice);
    report("pageable H2D", secs(t));
    t = std::chrono::steady_clock::now();
    cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
    report("pageable D2H", secs(t));
    t = std::chrono::steady_clock::now();
    cudaHostRegister(host, bytes, cudaHostRegisterDefault);
    const double reg = secs(t);
    auto t2 = std::chrono::steady_clock::now();
    cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice);
    const double cp = secs(t2);
    t2 = std::chrono::steady_clock::now();
    cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
    const double cpb = secs(t2);
    t2 = std::chrono::steady_clock::now();
    cudaHostUnregister(host);
    const double unreg = secs(t2);
    report("register", reg);
    report("registered H2D", cp);
    report("registered D2H", cpb);
    report("unregister", unreg);
    report("register + H2D + D2H + unregister (2 ops)", (reg + cp + cpb + unreg) / 2);
    t = std::chrono::steady_clock::now();
    cudaMemcpy(dev, pinned, bytes, cudaMemcpyHostToDevice);
    report("pinned H2D", secs(t));
    t = std::chrono::steady_clock::now();
    cudaMemcpy(pinned, dev, bytes, cudaMemcpyDeviceToHost);
    report("pinned D2H", secs(t));
    for (int threads : {2, 4, 8}) {
      t = std::chrono::steady_clock::now();
      std::vector<std::thread> ts;
      for (int i = 0; i < threads; ++i)
        ts.emplace_back([&, i] {
          cudaStream_t s;
          cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
          const size_t part = bytes / threads;
          cudaMemcpyAsync(dev + i * part, host + i * part, part, cudaMemcpyHostToDevice, s);
          cudaStreamSynchronize(s);
          cudaStreamDestroy(s);
        });
      for (auto& th : ts) th.join();
      char name[64];
      snprintf(name, sizeof name, "pageable H2D, %d threads and streams", threads);
      report(name, secs(t));
    }
  }
  return 0;
}
