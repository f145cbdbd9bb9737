// The public handles: thin forwarding to the backend objects, plus the
// checks that belong at the API boundary (same context, sizes).
#include <string>

#include "runtime/backend.hpp"

namespace optune {

std::string_view backend_name(Backend b) noexcept { return b == Backend::CUDA ? "cuda" : "opencl"; }

std::string_view device_type_name(DeviceType t) noexcept {
  switch (t) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::GPU: return "gpu";
    case DeviceType::Accelerator: return "accelerator";
    case DeviceType::Other: return "other";
  }
  return "other";
}

std::string Capabilities::identity() const {
  return std::string(backend_name(backend)) + "|" + vendor + "|" + name + "|" + architecture + "|" + driver_version;
}

Device::Device(std::shared_ptr<detail::DeviceImpl> impl) : impl_(std::move(impl)) {}

const Capabilities& Device::caps() const {
  if (!impl_) throw Error(Status::InvalidArgument, "Device: empty handle");
  return impl_->caps();
}

Context::Context(const Device& device) {
  if (!device.valid()) throw Error(Status::InvalidArgument, "Context: device is an empty handle");
  impl_ = device.impl()->create_context();
}

Device Context::device() const {
  if (!impl_) throw Error(Status::InvalidArgument, "Context: empty handle");
  return Device(impl_->device());
}

std::shared_ptr<detail::MemImpl> Context::alloc_bytes(std::size_t bytes) const {
  if (!impl_) throw Error(Status::InvalidArgument, "Context::alloc: empty context");
  const auto& caps = impl_->device()->caps();
  if (caps.max_alloc_bytes && bytes > caps.max_alloc_bytes)
    throw Error(Status::OutOfResources, "Context::alloc: " + std::to_string(bytes) +
                                            " bytes exceeds the device's largest allocation (" +
                                            std::to_string(caps.max_alloc_bytes) + ")");
  return impl_->alloc(bytes);
}

void Event::wait() const {
  if (impl_) impl_->wait();
}
bool Event::complete() const { return !impl_ || impl_->complete(); }
EventTimes Event::times() const {
  if (!impl_) throw Error(Status::InvalidArgument, "Event::times: empty event");
  return impl_->times();
}
double Event::seconds() const {
  const EventTimes t = times();
  return t.end > t.start ? double(t.end - t.start) * 1e-9 : 0.0;
}

Image2D::Image2D(const Context& ctx, std::size_t width, std::size_t height, ChannelType type) {
  if (!ctx.impl()) throw Error(Status::InvalidArgument, "Image2D: empty context");
  const auto& caps = ctx.device().caps();
  if (!caps.images) throw Error(Status::Unsupported, "Image2D: device '" + caps.name + "' has no image support");
  if (width == 0 || height == 0) throw Error(Status::InvalidShape, "Image2D: width and height must be positive");
  if (width > caps.image2d_max_width || height > caps.image2d_max_height)
    throw Error(Status::OutOfResources, "Image2D: " + std::to_string(width) + "x" + std::to_string(height) +
                                            " exceeds the device's limit " + std::to_string(caps.image2d_max_width) +
                                            "x" + std::to_string(caps.image2d_max_height));
  impl_ = ctx.impl()->create_image(width, height, type);
}
std::size_t Image2D::width() const { return impl_ ? impl_->width() : 0; }
std::size_t Image2D::height() const { return impl_ ? impl_->height() : 0; }
ChannelType Image2D::channel_type() const { return impl_ ? impl_->channel_type() : ChannelType::Float; }

Queue::Queue(const Context& ctx) : ctx_(ctx) {
  if (!ctx.impl()) throw Error(Status::InvalidArgument, "Queue: empty context");
  impl_ = ctx.impl()->create_queue();
}

void Queue::check_same_context(const detail::MemImpl& mem, const char* what) const {
  if (mem.context() != ctx_.impl().get())
    throw Error(Status::InvalidArgument, std::string(what) + ": buffer belongs to another context than the queue");
}

namespace {
void check_range(const char* what, const detail::MemImpl& mem, std::size_t offset, std::size_t bytes) {
  if (offset > mem.bytes() || bytes > mem.bytes() - offset)
    detail::throw_range_too_small(what, offset, bytes, mem.bytes());
}
}  // namespace

Event Queue::write_bytes(const detail::MemImpl& mem, std::size_t offset, std::size_t bytes, const void* src,
                         const WaitList& wait) const {
  check_same_context(mem, "Queue::write");
  check_range("Queue::write: dst (bytes)", mem, offset, bytes);
  if (bytes == 0) return Event();
  if (!src) throw Error(Status::InvalidArgument, "Queue::write: src is null");
  return Event(impl_->write(mem, offset, bytes, src, wait));
}

Event Queue::read_bytes(const detail::MemImpl& mem, std::size_t offset, std::size_t bytes, void* dst,
                        const WaitList& wait) const {
  check_same_context(mem, "Queue::read");
  check_range("Queue::read: src (bytes)", mem, offset, bytes);
  if (bytes == 0) return Event();
  if (!dst) throw Error(Status::InvalidArgument, "Queue::read: dst is null");
  return Event(impl_->read(mem, offset, bytes, dst, wait));
}

Event Queue::copy_bytes(const detail::MemImpl& src, std::size_t src_offset, const detail::MemImpl& dst,
                        std::size_t dst_offset, std::size_t bytes, const WaitList& wait) const {
  check_same_context(src, "Queue::copy: src");
  check_same_context(dst, "Queue::copy: dst");
  check_range("Queue::copy: src (bytes)", src, src_offset, bytes);
  check_range("Queue::copy: dst (bytes)", dst, dst_offset, bytes);
  if (&src == &dst && src_offset < dst_offset + bytes && dst_offset < src_offset + bytes)
    throw Error(Status::InvalidArgument, "Queue::copy: src and dst overlap");
  if (bytes == 0) return Event();
  return Event(impl_->copy(src, src_offset, dst, dst_offset, bytes, wait));
}

Event Queue::fill_bytes(const detail::MemImpl& mem, std::size_t offset, std::size_t bytes, const void* pattern,
                        std::size_t pattern_size, const WaitList& wait) const {
  check_same_context(mem, "Queue::fill");
  check_range("Queue::fill: dst (bytes)", mem, offset, bytes);
  if (bytes == 0) return Event();
  return Event(impl_->fill(mem, offset, bytes, pattern, pattern_size, wait));
}

Event Queue::write_image(const Image2D& dst, const void* src, std::size_t src_bytes, const WaitList& wait) const {
  if (!dst.impl()) throw Error(Status::InvalidArgument, "Queue::write_image: empty image");
  if (dst.impl()->context() != ctx_.impl().get())
    throw Error(Status::InvalidArgument, "Queue::write_image: image belongs to another context");
  const std::size_t need = dst.width() * dst.height() * dst.impl()->texel_bytes();
  if (src_bytes < need) detail::throw_buffer_too_small("Queue::write_image: src (bytes)", need, src_bytes);
  if (!src) throw Error(Status::InvalidArgument, "Queue::write_image: src is null");
  return Event(impl_->write_image(*dst.impl(), src, wait));
}

Event Queue::read_image(const Image2D& src, void* dst, std::size_t dst_bytes, const WaitList& wait) const {
  if (!src.impl()) throw Error(Status::InvalidArgument, "Queue::read_image: empty image");
  if (src.impl()->context() != ctx_.impl().get())
    throw Error(Status::InvalidArgument, "Queue::read_image: image belongs to another context");
  const std::size_t need = src.width() * src.height() * src.impl()->texel_bytes();
  if (dst_bytes < need) detail::throw_buffer_too_small("Queue::read_image: dst (bytes)", need, dst_bytes);
  if (!dst) throw Error(Status::InvalidArgument, "Queue::read_image: dst is null");
  return Event(impl_->read_image(*src.impl(), dst, wait));
}

void Queue::finish() const {
  if (impl_) impl_->finish();
}

namespace detail {
std::size_t mem_bytes(const MemImpl& mem) { return mem.bytes(); }
void throw_buffer_too_small(const char* what, std::size_t need, std::size_t have) {
  throw Error(Status::BufferTooSmall,
              std::string(what) + ": needs " + std::to_string(need) + " but holds " + std::to_string(have));
}
void throw_range_too_small(const char* what, std::size_t offset, std::size_t count, std::size_t have) {
  std::size_t need;
  const std::string range = std::string(what) + ": offset " + std::to_string(offset) + " + count " + std::to_string(count);
  if (__builtin_add_overflow(offset, count, &need))
    throw Error(Status::BufferTooSmall, range + " overflows (holds " + std::to_string(have) + ")");
  throw Error(Status::BufferTooSmall, range + " needs " + std::to_string(need) + " but holds " + std::to_string(have));
}
}  // namespace detail

}  // namespace optune
