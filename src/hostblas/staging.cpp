// Staged host <-> device copies through page-locked slots (staging.hpp).
#include "hostblas/staging.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <span>

#include "runtime/backend.hpp"

namespace optune::hostblas {

Stager::Stager(const Context& ctx, std::size_t threads, std::size_t chunk) : chunk_(std::max<std::size_t>(chunk, 1)) {
  constexpr std::size_t kPage = 4096;
  const std::size_t bytes = (2 * chunk_ + kPage - 1) / kPage * kPage;
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i) {
    auto w = std::make_unique<Worker>();
    w->queue = Queue(ctx);
    auto* mem = static_cast<std::uint8_t*>(std::aligned_alloc(kPage, bytes));
    if (!mem) throw Error(Status::OutOfResources, "host BLAS: no host memory for the staging slots");
    w->slot[0] = mem;
    w->slot[1] = mem + chunk_;
    // Plain memory where the back end cannot lock it (OpenCL): still
    // correct, only as fast as the driver's own copies.
    w->pin = ctx.impl()->pin_host(mem, bytes);
    workers_.push_back(std::move(w));
  }
  for (auto& w : workers_) std::thread([this, p = w.get()] { serve(*p); }).detach();
}

Buffer<std::uint8_t> Stager::piece(const Job& job, std::size_t c) const {
  const std::size_t off = c * chunk_;
  return Buffer<std::uint8_t>(job.dev.mem(), job.dev.offset() + off, std::min(chunk_, job.dev.size() - off));
}

void Stager::upload_chunks(Worker& w, const Job& job) {
  Event ev[2];
  int use = 0;
  for (std::size_t c; (c = next_.fetch_add(1)) < chunks(job); use ^= 1) {
    const Buffer<std::uint8_t> dst = piece(job, c);
    if (ev[use].valid()) ev[use].wait();  // the slot's previous DMA has read it
    std::memcpy(w.slot[use], job.host + c * chunk_, dst.size());
    ev[use] = w.queue.write(dst, std::span<const std::uint8_t>(w.slot[use], dst.size()));
  }
  for (Event& e : ev)
    if (e.valid()) e.wait();
}

void Stager::download_chunks(Worker& w, const Job& job) {
  const std::size_t count = chunks(job);
  // The DMA of chunk c into slot s (nothing past the last chunk).
  const auto fetch = [&](std::size_t c, int s) {
    if (c >= count) return Event();
    const Buffer<std::uint8_t> src = piece(job, c);
    return w.queue.read(src, std::span<std::uint8_t>(w.slot[s], src.size()));
  };
  int use = 0;
  std::size_t c = next_.fetch_add(1);
  Event ev = fetch(c, use);
  while (c < count) {
    // The next chunk's DMA runs while this one is copied out.
    const std::size_t c2 = next_.fetch_add(1);
    Event ev2 = fetch(c2, use ^ 1);
    ev.wait();
    std::memcpy(job.host + c * chunk_, w.slot[use], piece(job, c).size());
    c = c2;
    ev = ev2;
    use ^= 1;
  }
}

void Stager::serve(Worker& w) {
  std::uint64_t seen = 0;
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(m_);
      start_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      job = job_;
    }
    try {
      if (job.up)
        upload_chunks(w, job);
      else
        download_chunks(w, job);
    } catch (...) {
      // No DMA of this worker may still touch its slots or the caller's
      // memory once the transfer reports.
      try {
        w.queue.finish();
      } catch (...) {
      }
      std::lock_guard<std::mutex> lock(m_);
      if (!error_) error_ = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(m_);
    if (--running_ == 0) done_.notify_all();
  }
}

void Stager::transfer(const Job& job) {
  if (chunks(job) == 0) return;
  std::lock_guard<std::mutex> turn(turn_);
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(m_);
    job_ = job;
    next_.store(0);
    running_ = workers_.size();
    error_ = nullptr;
    ++generation_;
    start_.notify_all();
    done_.wait(lock, [&] { return running_ == 0; });
    error = error_;
    job_ = Job{};  // the device buffer is not held past the call
  }
  if (error) std::rethrow_exception(error);
}

void Stager::upload(const Buffer<std::uint8_t>& dst, const void* src) {
  transfer({true, dst, static_cast<std::uint8_t*>(const_cast<void*>(src))});
}

void Stager::download(const Buffer<std::uint8_t>& src, void* dst) {
  transfer({false, src, static_cast<std::uint8_t*>(dst)});
}

}  // namespace optune::hostblas
