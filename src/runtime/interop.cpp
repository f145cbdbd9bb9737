// include/optune/interop.hpp: forwarding to the backend objects.
#include "optune/interop.hpp"

#include "runtime/backend.hpp"

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

}  // namespace optune::interop

namespace optune::detail {

interop::NativeBuffer native_buffer_of(const MemImpl& mem, std::size_t offset_bytes) {
  return mem.native(offset_bytes);
}

}  // namespace optune::detail
