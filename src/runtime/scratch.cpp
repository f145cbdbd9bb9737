#include "runtime/scratch.hpp"

#include <algorithm>
#include <map>

namespace optune::detail {

namespace {

struct Slot {
  std::shared_ptr<MemImpl> mem;
  int small_in_a_row = 0;  // leases since the last that needed over a quarter of it
};

struct QueueScratch {
  std::weak_ptr<QueueImpl> owner;
  std::shared_ptr<std::recursive_mutex> mutex = std::make_shared<std::recursive_mutex>();
  std::array<Slot, kScratchSlots> slots{};
};

std::mutex registry_mutex;
std::map<const QueueImpl*, QueueScratch>& registry() {
  static std::map<const QueueImpl*, QueueScratch> r;
  return r;
}

// The queue's entry, created on first use; entries of queues gone (or whose
// address was reused) are dropped on the way. Called with registry_mutex held.
QueueScratch& entry_of(const Queue& q) {
  auto& r = registry();
  for (auto it = r.begin(); it != r.end();) it = it->second.owner.expired() ? r.erase(it) : std::next(it);
  QueueScratch& e = r[q.impl().get()];
  if (e.owner.expired()) e = QueueScratch{q.impl()};
  return e;
}

}  // namespace

ScratchLease lease_scratch(const Queue& q, const std::array<std::size_t, kScratchSlots>& bytes) {
  std::shared_ptr<std::recursive_mutex> m;
  QueueScratch* e = nullptr;
  {
    std::lock_guard lock(registry_mutex);
    e = &entry_of(q);
    m = e->mutex;
  }
  ScratchLease lease{std::unique_lock<std::recursive_mutex>(*m), {}};
  for (std::size_t i = 0; i < kScratchSlots; ++i) {
    if (bytes[i] == 0) continue;
    Slot& s = e->slots[i];
    if (s.mem && mem_bytes(*s.mem) / 4 > bytes[i]) {
      if (++s.small_in_a_row >= kTrimAfter) s.mem.reset(), s.small_in_a_row = 0;
    } else {
      s.small_in_a_row = 0;
    }
    if (!s.mem || mem_bytes(*s.mem) < bytes[i]) {
      s.mem.reset();  // free the old one first
      s.mem = q.context().alloc<std::uint8_t>(std::max<std::size_t>(bytes[i], 256)).mem();
      // The counters start at zero (in queue order: before any kernel that reads them).
      if (i == kTicketSlot) q.fill(Buffer<std::uint32_t>(s.mem, 0, mem_bytes(*s.mem) / 4), std::uint32_t(0));
    }
    lease.slot[i] = s.mem;
  }
  return lease;
}

std::size_t scratch_bytes(const Queue& q) {
  std::lock_guard lock(registry_mutex);
  auto it = registry().find(q.impl().get());
  if (it == registry().end() || it->second.owner.expired()) return 0;
  std::lock_guard slots(*it->second.mutex);
  std::size_t total = 0;
  for (const Slot& s : it->second.slots) total += s.mem ? mem_bytes(*s.mem) : 0;
  return total;
}

void release_queue_scratch(const Queue& q) {
  std::shared_ptr<std::recursive_mutex> m;
  {
    std::lock_guard lock(registry_mutex);
    auto it = registry().find(q.impl().get());
    if (it == registry().end()) return;
    m = it->second.mutex;
  }
  std::lock_guard slots(*m);
  q.finish();  // the queue's kernels may still use it
  std::lock_guard lock(registry_mutex);
  auto it = registry().find(q.impl().get());
  if (it != registry().end())
    for (Slot& s : it->second.slots) s.mem.reset(), s.small_in_a_row = 0;
}

}  // namespace optune::detail

namespace optune {

void Queue::release_scratch() const { detail::release_queue_scratch(*this); }

}  // namespace optune
