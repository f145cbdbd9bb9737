// Scratch memory that the operators' passes use (padded GEMM operands, the
// partial states of split reductions), kept per queue in numbered slots.
// The queue runs in order, so one call's kernels start only after an earlier
// call's have finished with the memory, and no allocation (which
// synchronises on CUDA) sits in the steady state. The lease's lock is held
// while the call enqueues, so calls from several threads do not interleave.
//
// Memory is released: with its queue; by Queue::release_scratch(); and by
// trimming, when a slot has served kTrimAfter leases in a row that each
// needed under a quarter of it (a large product once, small ones since), the
// slot is given back and the next lease allocates what it needs.
//
// Slots 0 to 2 serve the passes of one kernel family (GEMM's helpers, split
// reductions); slot 3 holds an operator's own intermediate (conv2d's im2col
// matrix) across calls to another operator, whose lease, nested in the same
// thread, takes the (recursive) lock again and leaves slot 3 alone. Complex
// GEMM is such an operator (its packed operands in slot 3 around a real
// GEMM), so slot 4 is the next level's: a BLAS level-3 routine's own operand
// around a GEMM of any type (symm's and hemm's expanded matrix). Slot 5 is the
// real GEMM's list-batch table and slot 6 complex GEMM's (its passes read it
// around the real GEMM, which writes its own into slot 5), each written by a
// non-blocking upload (ops/gemm_launch.cpp, upload_list_table). Slot 7
// (kTicketSlot) holds arrival counters that a kernel's groups count on and
// that the last one sets back to 0 (the fused splits of the thin GEMM, the
// mma tile and dense gemv): it is filled with zeros when allocated, and
// every kernel that uses it leaves it zero, so no call pays for a fill.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <mutex>

#include "runtime/backend.hpp"

namespace optune::detail {

constexpr std::size_t kScratchSlots = 8;
constexpr std::size_t kTicketSlot = 7;
constexpr int kTrimAfter = 16;

struct ScratchLease {
  std::unique_lock<std::recursive_mutex> lock;
  std::array<std::shared_ptr<MemImpl>, kScratchSlots> slot;  // null where 0 bytes were asked
};

// Slots of at least bytes[i] (slot i is left empty where bytes[i] is 0).
ScratchLease lease_scratch(const Queue& q, const std::array<std::size_t, kScratchSlots>& bytes);
// Waits for the queue, then frees its scratch (Queue::release_scratch).
void release_queue_scratch(const Queue& q);
// Bytes the queue's scratch holds now (tests).
std::size_t scratch_bytes(const Queue& q);

}  // namespace optune::detail
