// The Python binding's C++ side: devices with their context and queue, the
// Tensor (a strided view of device memory), and the helpers every binding
// file shares. Operators live in ops.cpp, interchange in interchange.cpp.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "optune/optune.hpp"

namespace optune::python {

namespace py = pybind11;

// One per device for the life of the process: the context and the in-order
// queue every call on the device uses, made on first use (listing devices
// initialises none). Never destroyed: releasing driver objects at
// interpreter exit races the driver's own teardown.
class DeviceState {
 public:
  explicit DeviceState(Device d) : device(std::move(d)) {}
  const Device device;
  const Context& context() const { return ready().context; }
  const Queue& queue() const { return ready().queue; }

 private:
  struct Handles {
    Context context;
    Queue queue;
  };
  Handles& ready() const {
    std::call_once(once_, [this] {
      handles_.context = Context(device);
      handles_.queue = Queue(handles_.context);
    });
    return handles_;
  }
  mutable std::once_flag once_;
  mutable Handles handles_;
};
using DevicePtr = std::shared_ptr<DeviceState>;

DevicePtr device_state(const Device& device);
DevicePtr default_device_state();
// None -> the default device; a Device; or a spec string ("cpu", "cuda:0").
DevicePtr resolve_device(const py::object& device);

struct Tensor {
  DevicePtr dev;
  std::shared_ptr<detail::MemImpl> mem;
  std::size_t offset = 0;  // elements, the view's first element
  DType dtype = DType::F32;
  std::vector<std::int64_t> shape, strides;  // strides in elements
  // Host memory adopted in place (a numpy array on PoCL): every call that
  // uses the tensor waits for its commands before returning, so the host
  // never sees it half-written.
  bool host = false;

  std::int64_t numel() const;
  bool contiguous() const;  // row-major, dense
  // Elements of the allocation from offset on (the view's extent bound).
  std::size_t count() const;
  Operand operand() const;
  template <class T>
  Buffer<T> buffer() const {
    return Buffer<T>(mem, offset, count());
  }
};
using TensorPtr = std::shared_ptr<Tensor>;

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape);
// A new dense tensor (allocates at least one element, so empty shapes work).
TensorPtr allocate(const DevicePtr& dev, DType dtype, const std::vector<std::int64_t>& shape);
DType dtype_from_python(const py::handle& dtype);  // "f32", numpy dtypes, optune names
py::dtype numpy_dtype(DType t);

// Waits for e with the GIL released when any tensor is adopted host memory.
void finish_call(const Event& e, std::initializer_list<const Tensor*> tensors);
void finish_call(const Event& e, const std::vector<const Tensor*>& tensors);

void bind_tensor(py::module_& m);
void bind_ops(py::module_& m);
void bind_interchange(py::module_& m);

}  // namespace optune::python
