// Staged host <-> device copies of one 64 MiB pageable operand, the way the
// host BLAS interface could move it: T threads, each owning every T-th chunk
// of C bytes and two pinned slots, copy a chunk into a slot with memcpy and
// queue its DMA on the thread's own stream while filling the other slot
// (download: the DMA into a slot, then memcpy out, the next chunk's DMA
// already queued). Prints GB/s per (T, C), and the plain memcpy rate of T
// threads between pageable buffers for comparison.
// Build: nvcc -O2 -o h2d_stage h2d_stage.cu
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

struct Worker {
  cudaStream_t s{};
  char* slot[2]{};
  cudaEvent_t ev[2]{};
};

static void run(bool up, char* host, char* dev, size_t bytes, size_t chunk, std::vector<Worker>& w) {
  const int T = int(w.size());
  const size_t chunks = (bytes + chunk - 1) / chunk;
  std::vector<std::thread> ts;
  for (int t = 0; t < T; ++t)
    ts.emplace_back([&, t] {
      Worker& k = w[t];
      int use = 0;
      if (up) {
        for (size_t c = t; c < chunks; c += T, use ^= 1) {
          const size_t off = c * chunk, n = std::min(chunk, bytes - off);
          cudaEventSynchronize(k.ev[use]);
          memcpy(k.slot[use], host + off, n);
          cudaMemcpyAsync(dev + off, k.slot[use], n, cudaMemcpyHostToDevice, k.s);
          cudaEventRecord(k.ev[use], k.s);
        }
      } else {
        size_t c = t;
        if (c < chunks) {
          cudaMemcpyAsync(k.slot[0], dev + c * chunk, std::min(chunk, bytes - c * chunk), cudaMemcpyDeviceToHost, k.s);
          cudaEventRecord(k.ev[0], k.s);
        }
        for (; c < chunks; c += T, use ^= 1) {
          const size_t off = c * chunk, n = std::min(chunk, bytes - off);
          const size_t next = c + T;
          if (next < chunks) {
            cudaMemcpyAsync(k.slot[use ^ 1], dev + next * chunk, std::min(chunk, bytes - next * chunk),
                            cudaMemcpyDeviceToHost, k.s);
            cudaEventRecord(k.ev[use ^ 1], k.s);
          }
          cudaEventSynchronize(k.ev[use]);
          memcpy(host + off, k.slot[use], n);
        }
      }
      cudaStreamSynchronize(k.s);
    });
  for (auto& th : ts) th.join();
}

int main() {
  const size_t bytes = size_t(64) << 20;
  char* host = static_cast<char*>(aligned_alloc(4096, bytes));
  char* other = static_cast<char*>(aligned_alloc(4096, bytes));
  memset(host, 1, bytes);
  memset(other, 2, bytes);
  char* dev = nullptr;
  cudaMalloc(&dev, bytes);
  for (int T : {1, 2, 4, 8, 12, 16}) {
    // plain threaded memcpy between pageable buffers
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      std::vector<std::thread> ts;
      for (int t = 0; t < T; ++t)
        ts.emplace_back([&, t] { memcpy(other + bytes / T * t, host + bytes / T * t, bytes / T); });
      for (auto& th : ts) th.join();
      best = std::min(best, secs(t0));
    }
    printf("memcpy          T=%2d             %7.2f ms %6.1f GB/s\n", T, best * 1e3, bytes / best / 1e9);
    for (size_t chunk : {size_t(1) << 20, size_t(2) << 20, size_t(4) << 20, size_t(8) << 20}) {
      std::vector<Worker> w(T);
      for (auto& k : w) {
        cudaStreamCreateWithFlags(&k.s, cudaStreamNonBlocking);
        for (int i = 0; i < 2; ++i) {
          cudaMallocHost(&k.slot[i], chunk);
          cudaEventCreateWithFlags(&k.ev[i], cudaEventDisableTiming);
          cudaEventRecord(k.ev[i], k.s);
        }
      }
      for (int dir = 0; dir < 2; ++dir) {
        double b = 1e9;
        for (int rep = 0; rep < 3; ++rep) {
          auto t0 = std::chrono::steady_clock::now();
          run(dir == 0, host, dev, bytes, chunk, w);
          b = std::min(b, secs(t0));
        }
        printf("staged %s T=%2d chunk=%2zu MiB %7.2f ms %6.1f GB/s\n", dir == 0 ? "H2D" : "D2H", T, chunk >> 20, b * 1e3,
               bytes / b / 1e9);
      }
      for (auto& k : w) {
        for (int i = 0; i < 2; ++i) {
          cudaFreeHost(k.slot[i]);
          cudaEventDestroy(k.ev[i]);
        }
        cudaStreamDestroy(k.s);
      }
    }
  }
  return 0;
}
