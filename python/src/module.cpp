// The `optune._optune` extension: module set-up, errors, devices, Tensor and
// its creation and read-back (README "Python"; operators in ops.cpp, DLPack
// and the native handles in interchange.cpp).
#include <pybind11/numpy.h>

#include <map>
#include <mutex>
#include <numeric>
#include <type_traits>

#include "optune/dispatch.hpp"
#include "tensor.hpp"

namespace optune::python {

namespace {

PyObject* g_error_type = nullptr;  // optune.Error, created at import

// Validation statuses become the exceptions Python code expects; failures of
// the device, the driver or the compiler become optune.Error with .status.
void translate(const Error& e) {
  switch (e.status()) {
    case Status::InvalidArgument:
    case Status::InvalidShape:
    case Status::BufferTooSmall:
    case Status::Overflow:
    case Status::DeviceNotFound:
    case Status::NotFound:
      PyErr_SetString(PyExc_ValueError, e.what());
      return;
    case Status::InvalidType:
      PyErr_SetString(PyExc_TypeError, e.what());
      return;
    default: {
      py::object inst = py::reinterpret_borrow<py::object>(g_error_type)(e.what());
      inst.attr("status") = std::string(status_name(e.status()));
      PyErr_SetObject(g_error_type, inst.ptr());
    }
  }
}

std::mutex g_states_mutex;
std::map<detail::DeviceImpl*, DevicePtr>* g_states = new std::map<detail::DeviceImpl*, DevicePtr>;  // never freed

std::vector<std::int64_t> shape_from_python(const py::handle& shape) {
  std::vector<std::int64_t> s;
  if (py::isinstance<py::int_>(shape)) {
    s.push_back(shape.cast<std::int64_t>());
  } else {
    for (auto d : shape) s.push_back(d.cast<std::int64_t>());
  }
  for (auto d : s)
    if (d < 0) throw Error(Status::InvalidShape, "shape: negative extent " + std::to_string(d));
  return s;
}

// Bytes of the tensor's memory as a u8 buffer (reads and writes of any type).
Buffer<std::uint8_t> bytes_of(const Tensor& t) {
  const std::size_t es = dtype_size(t.dtype);
  return Buffer<std::uint8_t>(t.mem, t.offset * es, std::size_t(t.numel()) * es);
}

TensorPtr dense_copy(const TensorPtr& t) {
  if (t->contiguous()) return t;
  TensorPtr y = allocate(t->dev, t->dtype, t->shape);
  Event e;
  {
    py::gil_scoped_release release;
    e = unary(t->dev->queue(), Unary::Copy, t->operand(), y->operand());
  }
  finish_call(e, {t.get(), y.get()});
  return y;
}

py::array to_numpy(const TensorPtr& t0) {
  TensorPtr t = dense_copy(t0);
  // Strides given in bytes from optune's own element size: pybind11 2.10
  // (Debian 12's) reads numpy's item size from numpy 1.x's struct layout and
  // gets it wrong under numpy 2 (zero strides: every element reads the
  // first), as the H100 machine's Python 3.12 with numpy 2 showed.
  std::vector<py::ssize_t> strides(t->shape.size());
  py::ssize_t stride = py::ssize_t(dtype_size(t->dtype));
  for (std::size_t d = t->shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= py::ssize_t(std::max<std::int64_t>(t->shape[d], 1));
  }
  py::array out(numpy_dtype(t->dtype), t->shape, strides);
  if (t->numel() == 0) return out;
  void* data = out.mutable_data();
  const std::size_t bytes = std::size_t(t->numel()) * dtype_size(t->dtype);
  {
    py::gil_scoped_release release;
    t->dev->queue().read(bytes_of(*t), std::span<std::uint8_t>(static_cast<std::uint8_t*>(data), bytes)).wait();
  }
  return out;
}

TensorPtr from_numpy(const py::array& a0, const DevicePtr& dev, const py::object& dtype) {
  py::module_ np = py::module_::import("numpy");
  py::array a(dtype.is_none() ? py::object(a0) : np.attr("asarray")(a0, numpy_dtype(dtype_from_python(dtype))));
  a = py::array(np.attr("asarray")(a, py::arg("order") = "C"));  // ascontiguousarray would make 0-d 1-d
  const DType t = dtype_from_python(a.dtype());
  std::vector<std::int64_t> shape(a.shape(), a.shape() + a.ndim());
  TensorPtr out = allocate(dev, t, shape);
  if (out->numel() == 0) return out;
  const std::size_t bytes = std::size_t(out->numel()) * dtype_size(t);
  const auto* src = static_cast<const std::uint8_t*>(a.data());
  {
    py::gil_scoped_release release;
    dev->queue().write(bytes_of(*out), std::span<const std::uint8_t>(src, bytes)).wait();
  }
  return out;
}

TensorPtr full_tensor(const py::object& shape, const py::object& value, const py::object& dtype,
                      const py::object& device) {
  const DType t = dtype.is_none() ? DType::F32 : dtype_from_python(dtype);
  TensorPtr out = allocate(resolve_device(device), t, shape_from_python(shape));
  if (value.is_none() || out->numel() == 0) return out;
  const double v = value.cast<double>();
  Event e;
  with_dtype(t, [&](auto zero) {
    using T = decltype(zero);
    T x;
    if constexpr (std::is_same_v<T, half>) x = half(float(v));
    else x = T(v);
    Buffer<T> b(out->mem, 0, std::size_t(out->numel()));
    py::gil_scoped_release release;
    e = out->dev->queue().fill(b, x);
  });
  return out;
}

TensorPtr transposed(const TensorPtr& t, int d0, int d1) {
  const int n = int(t->shape.size());
  if (d0 < 0) d0 += n;
  if (d1 < 0) d1 += n;
  if (d0 < 0 || d0 >= n || d1 < 0 || d1 >= n)
    throw Error(Status::InvalidArgument, "transpose: axis out of range for a tensor of rank " + std::to_string(n));
  auto v = std::make_shared<Tensor>(*t);
  std::swap(v->shape[d0], v->shape[d1]);
  std::swap(v->strides[d0], v->strides[d1]);
  return v;
}

TensorPtr reshaped(const TensorPtr& t0, const py::object& shape_obj) {
  std::vector<std::int64_t> shape;
  int infer = -1;
  std::int64_t known = 1;
  for (auto d : (py::isinstance<py::int_>(shape_obj) ? py::make_tuple(shape_obj) : py::tuple(shape_obj))) {
    const auto v = d.cast<std::int64_t>();
    if (v == -1) {
      if (infer >= 0) throw Error(Status::InvalidShape, "reshape: only one extent may be -1");
      infer = int(shape.size());
      shape.push_back(1);
    } else {
      if (v < 0) throw Error(Status::InvalidShape, "reshape: negative extent " + std::to_string(v));
      shape.push_back(v);
      known *= v;
    }
  }
  if (infer >= 0) shape[infer] = known == 0 ? 0 : t0->numel() / known;
  const std::int64_t n = std::accumulate(shape.begin(), shape.end(), std::int64_t(1), std::multiplies<>());
  if (n != t0->numel())
    throw Error(Status::InvalidShape, "reshape: " + std::to_string(t0->numel()) + " elements cannot take a shape of " +
                                          std::to_string(n));
  TensorPtr t = dense_copy(t0);
  auto v = std::make_shared<Tensor>(*t);
  v->shape = shape;
  v->strides = row_major_strides(shape);
  return v;
}

// t[i], t[a:b:s], t[..., i], t[i, a:b]: a view (no copy) with positive steps.
TensorPtr indexed(const TensorPtr& t, const py::object& key) {
  py::tuple items = py::isinstance<py::tuple>(key) ? py::tuple(key) : py::make_tuple(key);
  std::size_t explicit_axes = 0;
  bool ellipsis = false;
  for (auto it : items) {
    if (it.is(py::ellipsis())) {
      if (ellipsis) throw Error(Status::InvalidArgument, "index: only one ... is allowed");
      ellipsis = true;
    } else {
      ++explicit_axes;
    }
  }
  if (explicit_axes > t->shape.size())
    throw Error(Status::InvalidArgument, "index: " + std::to_string(explicit_axes) + " indices for a tensor of rank " +
                                             std::to_string(t->shape.size()));
  auto v = std::make_shared<Tensor>(*t);
  v->shape.clear();
  v->strides.clear();
  std::int64_t offset = std::int64_t(t->offset);
  std::size_t axis = 0;
  for (auto it : items) {
    if (it.is(py::ellipsis())) {
      for (std::size_t n = t->shape.size() - explicit_axes; n > 0; --n, ++axis) {
        v->shape.push_back(t->shape[axis]);
        v->strides.push_back(t->strides[axis]);
      }
      continue;
    }
    const std::int64_t len = t->shape[axis], stride = t->strides[axis];
    if (py::isinstance<py::slice>(it)) {
      Py_ssize_t start = 0, stop = 0, step = 0, count = 0;
      if (!py::reinterpret_borrow<py::slice>(it).compute(len, &start, &stop, &step, &count))
        throw py::error_already_set();
      if (step <= 0) throw Error(Status::InvalidArgument, "index: steps must be positive (views are not reversed)");
      offset += start * stride;
      v->shape.push_back(count);
      v->strides.push_back(count > 1 ? stride * step : stride);
    } else {
      std::int64_t i = it.cast<std::int64_t>();
      if (i < 0) i += len;
      if (i < 0 || i >= len)
        throw Error(Status::InvalidArgument, "index " + std::to_string(it.cast<std::int64_t>()) +
                                                 " is out of range for axis " + std::to_string(axis) + " of length " +
                                                 std::to_string(len));
      offset += i * stride;
    }
    ++axis;
  }
  for (; axis < t->shape.size(); ++axis) {
    v->shape.push_back(t->shape[axis]);
    v->strides.push_back(t->strides[axis]);
  }
  v->offset = std::size_t(offset);
  return v;
}

std::string repr(const Tensor& t) {
  std::string s = "optune.Tensor(shape=(";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
  if (t.shape.size() == 1) s += ",";
  return s + "), dtype=" + std::string(dtype_name(t.dtype)) + ", device='" + t.dev->device.spec() + "')";
}

}  // namespace

// ---- shared helpers (tensor.hpp) ----

DevicePtr device_state(const Device& device) {
  std::lock_guard lock(g_states_mutex);
  auto& s = (*g_states)[device.impl().get()];
  if (!s) s = std::make_shared<DeviceState>(device);
  return s;
}

DevicePtr default_device_state() { return device_state(default_device()); }

DevicePtr resolve_device(const py::object& device) {
  if (device.is_none()) return default_device_state();
  if (py::isinstance<DeviceState>(device)) return device.cast<DevicePtr>();
  if (py::isinstance<py::str>(device)) return device_state(select_device(device.cast<std::string>()));
  throw Error(Status::InvalidType, "device must be an optune.Device, a spec string or None, not " +
                                       std::string(py::str(py::type::of(device).attr("__name__"))));
}

std::int64_t Tensor::numel() const {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t(1), std::multiplies<>());
}

bool Tensor::contiguous() const {
  std::int64_t expect = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

std::size_t Tensor::count() const { return detail::mem_bytes(*mem) / dtype_size(dtype) - offset; }

Operand Tensor::operand() const {
  Operand o;
  o.mem = mem;
  o.offset = offset;
  o.count = count();
  o.dtype = dtype;
  o.shape = shape.empty() ? std::vector<std::int64_t>{1} : shape;
  o.strides = shape.empty() ? std::vector<std::int64_t>{1} : strides;
  return o;
}

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size());
  std::int64_t step = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= std::max<std::int64_t>(shape[i], 1);
  }
  return s;
}

TensorPtr allocate(const DevicePtr& dev, DType dtype, const std::vector<std::int64_t>& shape) {
  auto t = std::make_shared<Tensor>();
  t->dev = dev;
  t->dtype = dtype;
  t->shape = shape;
  t->strides = row_major_strides(shape);
  const std::size_t n = std::max<std::int64_t>(t->numel(), 1);
  with_dtype(dtype, [&](auto zero) { t->mem = dev->context().alloc<decltype(zero)>(n).mem(); });
  return t;
}

DType dtype_from_python(const py::handle& dtype) {
  // numpy's names first ("float32", numpy.float32, a numpy dtype), then optune's ("f32", "half").
  static const std::pair<const char*, DType> numpy_names[] = {
      {"float32", DType::F32}, {"float16", DType::F16}, {"float64", DType::F64}, {"int32", DType::I32},
      {"int8", DType::I8},     {"uint8", DType::U8},    {"bool", DType::U8},     {"complex64", DType::C32},
      {"complex128", DType::C64}};
  std::string name;
  if (py::isinstance<py::str>(dtype)) {
    name = dtype.cast<std::string>();
  } else {
    name = py::str(py::module_::import("numpy").attr("dtype")(dtype).attr("name")).cast<std::string>();
  }
  for (const auto& [n, t] : numpy_names)
    if (name == n) return t;
  if (py::isinstance<py::str>(dtype)) return parse_dtype(name);
  throw Error(Status::InvalidType, "numpy dtype " + name + " has no optune type (float32, float16, float64, int32, "
                                   "int8, uint8, complex64, complex128)");
}

py::dtype numpy_dtype(DType t) {
  // By DType's value; numpy has no bfloat16.
  static const char* names[] = {"float32", "float16", "float64", "int32", "int8", "uint8", nullptr, "complex64",
                                "complex128"};
  if (int(t) < 0 || int(t) > int(kLastDType) || !names[int(t)])
    throw Error(Status::InvalidType, "numpy has no type for " + std::string(dtype_name(t)));
  return py::dtype::from_args(py::str(names[int(t)]));
}

void finish_call(const Event& e, const std::vector<const Tensor*>& tensors) {
  bool host = false;
  for (const Tensor* t : tensors) host = host || (t && t->host);
  if (!host || !e.valid()) return;
  py::gil_scoped_release release;
  e.wait();
}

void finish_call(const Event& e, std::initializer_list<const Tensor*> tensors) {
  finish_call(e, std::vector<const Tensor*>(tensors));
}

void bind_tensor(py::module_& m) {
  py::class_<DeviceState, DevicePtr>(m, "Device", "A device with its context and in-order queue.")
      .def(py::init([](const std::string& spec) { return device_state(select_device(spec)); }), py::arg("spec"))
      .def_property_readonly("name", [](const DeviceState& d) { return d.device.name(); })
      .def_property_readonly("spec", [](const DeviceState& d) { return d.device.spec(); })
      .def_property_readonly("backend", [](const DeviceState& d) { return std::string(backend_name(d.device.backend())); })
      .def_property_readonly("type", [](const DeviceState& d) { return std::string(device_type_name(d.device.caps().type)); })
      .def_property_readonly("vendor", [](const DeviceState& d) { return d.device.caps().vendor; })
      .def_property_readonly("fp64", [](const DeviceState& d) { return d.device.caps().fp64; })
      .def_property_readonly("fp16", [](const DeviceState& d) { return d.device.caps().fp16; })
      .def_property_readonly("unified_memory", [](const DeviceState& d) { return d.device.caps().unified_memory; })
      .def("synchronize", [](const DeviceState& d) {
        py::gil_scoped_release release;
        d.queue().finish();
      }, "Waits for every command enqueued on the device's queue.")
      .def("__eq__", [](const DeviceState& a, const py::object& b) {
        return py::isinstance<DeviceState>(b) && &a == b.cast<DeviceState*>();
      })
      .def("__hash__", [](const DeviceState& d) { return std::hash<const void*>()(&d); })
      .def("__repr__", [](const DeviceState& d) { return "optune.Device('" + d.device.spec() + "', '" + d.device.name() + "')"; });

  m.def("devices", [] {
    std::vector<DevicePtr> out;
    for (const Device& d : devices()) out.push_back(device_state(d));
    return out;
  }, "Every device of every available back end, OpenCL first.");
  m.def("default_device", &default_device_state,
        "OPTUNE_DEVICE if set, else the first GPU, else the first CPU.");

  py::class_<Tensor, TensorPtr>(m, "Tensor", "A strided array in device memory.")
      .def_property_readonly("shape", [](const Tensor& t) { return py::tuple(py::cast(t.shape)); })
      .def_property_readonly("strides", [](const Tensor& t) { return py::tuple(py::cast(t.strides)); },
                             "Strides in elements (as DLPack and the C++ API), not bytes.")
      .def_property_readonly("dtype", [](const Tensor& t) { return numpy_dtype(t.dtype); })
      .def_property_readonly("device", [](const Tensor& t) { return t.dev; })
      .def_property_readonly("ndim", [](const Tensor& t) { return t.shape.size(); })
      .def_property_readonly("size", &Tensor::numel)
      .def_property_readonly("offset", [](const Tensor& t) { return t.offset; },
                             "The view's first element in its allocation.")
      .def("is_contiguous", &Tensor::contiguous)
      .def("numpy", &to_numpy, "Copies the tensor to a new numpy array (waits for the device).")
      .def("__array__", [](const TensorPtr& t, const py::object& dtype) {
        py::array a = to_numpy(t);
        return dtype.is_none() ? py::object(a) : py::object(a.attr("astype")(dtype));
      }, py::arg("dtype") = py::none())
      .def("__len__", [](const Tensor& t) {
        if (t.shape.empty()) throw py::type_error("len() of a 0-d tensor");
        return t.shape[0];
      })
      .def("transpose", &transposed, py::arg("axis0") = -2, py::arg("axis1") = -1,
           "A view with two axes swapped (no copy).")
      .def_property_readonly("T", [](const TensorPtr& t) {
        if (t->shape.size() != 2) throw Error(Status::InvalidShape, "T: the tensor is not 2-d");
        return transposed(t, 0, 1);
      })
      .def("__getitem__", &indexed, "t[i], t[a:b:s], t[..., i]: a view of the same memory (positive steps).")
      .def("reshape", &reshaped, py::arg("shape"), "A view of a dense tensor (a dense copy first otherwise).")
      .def("contiguous", &dense_copy, "This tensor if dense, else a dense copy.")
      .def("__repr__", &repr);

  m.def("asarray", [](const py::object& obj, const py::object& device, const py::object& dtype) -> TensorPtr {
    if (py::isinstance<Tensor>(obj)) {
      auto t = obj.cast<TensorPtr>();
      const bool same_dev = device.is_none() || resolve_device(device) == t->dev;
      if (same_dev && (dtype.is_none() || dtype_from_python(dtype) == t->dtype)) return t;
      return from_numpy(to_numpy(t), device.is_none() ? t->dev : resolve_device(device), dtype);
    }
    py::array a(py::module_::import("numpy").attr("asarray")(obj));
    return from_numpy(a, resolve_device(device), dtype);
  }, py::arg("obj"), py::arg("device") = py::none(), py::arg("dtype") = py::none(),
     "A tensor on the device holding a copy of a numpy array (or anything numpy.asarray takes).");
  m.def("empty", [](const py::object& shape, const py::object& dtype, const py::object& device) {
    return full_tensor(shape, py::none(), dtype, device);
  }, py::arg("shape"), py::arg("dtype") = py::none(), py::arg("device") = py::none());
  m.def("zeros", [](const py::object& shape, const py::object& dtype, const py::object& device) {
    return full_tensor(shape, py::float_(0.0), dtype, device);
  }, py::arg("shape"), py::arg("dtype") = py::none(), py::arg("device") = py::none());
  m.def("full", &full_tensor, py::arg("shape"), py::arg("value"), py::arg("dtype") = py::none(),
        py::arg("device") = py::none());
}

}  // namespace optune::python

PYBIND11_MODULE(_optune, m) {
  namespace py = pybind11;
  namespace op = optune::python;
  m.doc() = "optune: tuned GPU operators on every OpenCL device and on CUDA";
  op::g_error_type = PyErr_NewExceptionWithDoc(
      "optune.Error", "A device, driver or compiler failure; .status names optune's status.", PyExc_RuntimeError,
      nullptr);
  m.attr("Error") = py::handle(op::g_error_type);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const optune::Error& e) {
      op::translate(e);
    }
  });
  op::bind_tensor(m);
  op::bind_ops(m);
  op::bind_interchange(m);
}
