// include/optune/interop.hpp: forwarding to the backend objects.
#include "optune/interop.hpp"

#include "runtime/backend.hpp"
#include "runtime/log.hpp"

namespace optune::interop {

namespace {
detail::QueueImpl& queue_impl(const Queue& q, const char* what) {
  if (!q.impl()) throw Error(Status::InvalidArgument, std::string("interop::") + what + ": empty queue");
  return *q.impl();
}
}  // namespace

NativeQueue native_queue(const Queue& q) { return queue_impl(q, "native_queue").native(); }

void with_native(const Queue& q, const std::function<void(const NativeQueue&)>& fn) {
  queue_impl(q, "with_native").with_native(fn);
}

Event enqueue_native(const Queue& q, const std::function<void(const NativeQueue&)>& enqueue, const WaitList& wait) {
  return Event(queue_impl(q, "enqueue_native").enqueue_native(enqueue, wait));
}

void join(const Queue& q, void* native_queue, Join who_waits) {
  if (who_waits != Join::NativeWaits && who_waits != Join::QueueWaits)
    throw Error(Status::InvalidArgument, "interop::join: who_waits is not a Join value");
  queue_impl(q, "join").join(native_queue, who_waits == Join::NativeWaits);
}

}  // namespace optune::interop

namespace optune::detail {

interop::NativeBuffer native_buffer_of(const MemImpl& mem, std::size_t offset_bytes) {
  return mem.native(offset_bytes);
}

namespace {
ContextImpl& context_impl(const Context& ctx, const char* what) {
  if (!ctx.impl()) throw Error(Status::InvalidArgument, std::string("interop::") + what + ": empty context");
  return *ctx.impl();
}
}  // namespace

std::shared_ptr<MemImpl> adopt_bytes(const Context& ctx, const interop::NativeBuffer& native, std::size_t bytes,
                                     std::shared_ptr<void> owner) {
  auto mem = context_impl(ctx, "adopt").adopt(native, bytes);
  mem->keep(std::move(owner));
  return mem;
}

std::shared_ptr<MemImpl> adopt_host_bytes(const Context& ctx, void* data, std::size_t bytes,
                                          std::shared_ptr<void> owner) {
  ContextImpl& impl = context_impl(ctx, "adopt_host");
  // The arguments are checked before what the back end can do, so every
  // back end names the same mistake.
  if (!data) throw Error(Status::InvalidArgument, "interop::adopt_host: data is null");
  auto mem = impl.adopt_host(data, bytes);
  mem->keep(std::move(owner));
  return mem;
}

std::shared_ptr<void> map_host_bytes(const Queue& q, const std::shared_ptr<MemImpl>& mem, std::size_t offset,
                                     std::size_t bytes) {
  if (!q.impl()) throw Error(Status::InvalidArgument, "interop::map_host: empty queue");
  if (mem->context() != q.context().impl().get())
    throw Error(Status::InvalidArgument, "interop::map_host: the buffer belongs to another context than the queue");
  std::shared_ptr<QueueImpl> queue = q.impl();
  void* host = queue->map(*mem, offset, bytes);
  // The mapping keeps the queue and the memory alive; unmapping cannot throw
  // out of a deleter, so a failure is only logged.
  return std::shared_ptr<void>(host, [queue, mem](void* p) {
    try {
      queue->unmap(*mem, p);
    } catch (const std::exception& e) {
      log_warn(std::string("interop::map_host: unmap failed: ") + e.what());
    }
  });
}

}  // namespace optune::detail
