// Staged copies of large host operands (docs/DESIGN.md "Host BLAS
// interface"): a copy between the caller's pageable memory and a device
// buffer, cut into chunks that a pool of host threads moves through their own
// page-locked slots. Each worker copies a chunk into one of its two slots with
// memcpy and queues that slot's DMA on its own queue while it fills the other
// (downloads: the next chunk's DMA is queued before the current one is copied
// out), so the link runs at its page-locked rate while several cores do the
// pageable side. On the H100 machine (16 cores, PCIe 5) 8 workers of 2 MiB
// chunks moved 64 MiB at 35 GB/s each way, where the driver's own pageable
// copies reach 8.6 GB/s up and 13 down (scripts/gpu/h2d_stage.cu).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "optune/runtime.hpp"

namespace optune::hostblas {

class Stager {
 public:
  // `threads` workers, each with its own queue on ctx and two slots of
  // `chunk` bytes, page-locked where the back end can (Context::pin_host).
  Stager(const Context& ctx, std::size_t threads, std::size_t chunk);
  Stager(const Stager&) = delete;
  Stager& operator=(const Stager&) = delete;
  // Blocking: return when the bytes are in place (on the device for an
  // upload, in host memory for a download). One transfer runs at a time;
  // concurrent callers wait their turn. A failure of the device is rethrown
  // here once every worker has stopped.
  void upload(const Buffer<std::uint8_t>& dst, const void* src);
  void download(const Buffer<std::uint8_t>& src, void* dst);
  // Never destroyed (the engine lives until exit, and its workers with it).
  ~Stager() = delete;

 private:
  struct Job {
    bool up = true;
    Buffer<std::uint8_t> dev;
    std::uint8_t* host = nullptr;
  };
  struct Worker {
    Queue queue;
    std::uint8_t* slot[2] = {nullptr, nullptr};
    std::shared_ptr<void> pin;
  };
  void transfer(const Job& job);
  void serve(Worker& w);
  void upload_chunks(Worker& w, const Job& job);
  void download_chunks(Worker& w, const Job& job);
  std::size_t chunks(const Job& job) const { return (job.dev.size() + chunk_ - 1) / chunk_; }
  Buffer<std::uint8_t> piece(const Job& job, std::size_t c) const;

  std::size_t chunk_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::mutex turn_;  // one transfer at a time
  std::mutex m_;     // guards job_, generation_, running_, error_
  std::condition_variable start_, done_;
  Job job_;
  std::uint64_t generation_ = 0;
  std::size_t running_ = 0;
  std::exception_ptr error_;
  std::atomic<std::size_t> next_{0};
};

}  // namespace optune::hostblas
