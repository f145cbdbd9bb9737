// Zero-copy interchange: DLPack both ways (Debian's libdlpack-dev, DLPack
// 0.6: unversioned "dltensor" capsules), __cuda_array_interface__ both ways
// on CUDA, and the OpenCL handles (Tensor.cl_mem, optune.from_cl_buffer).
//
// Memory of another library is adopted (optune::interop::adopt), never
// copied: the optune tensor holds the producer's object until the last view
// goes, and the device's queue is drained before the producer may free it.
// Host memory (kDLCPU) is adopted in place on devices that share memory with
// the host (PoCL); optune tensors on such devices are exported as kDLCPU
// through a mapping that lasts as long as the consumer holds the capsule.
#include <dlpack/dlpack.h>

#include "optune/interop.hpp"
#include "tensor.hpp"

namespace optune::python {

namespace {

// ---- data types ----

DLDataType dl_type(DType t) {
  switch (t) {
    case DType::F32: return {kDLFloat, 32, 1};
    case DType::F16: return {kDLFloat, 16, 1};
    case DType::BF16: return {kDLBfloat, 16, 1};
    case DType::F64: return {kDLFloat, 64, 1};
    case DType::I32: return {kDLInt, 32, 1};
    case DType::I8: return {kDLInt, 8, 1};
    case DType::U8: return {kDLUInt, 8, 1};
    case DType::C32: return {kDLComplex, 64, 1};
    case DType::C64: return {kDLComplex, 128, 1};
  }
  throw Error(Status::InvalidType, "unknown data type");
}

DType from_dl_type(DLDataType t) {
  if (t.lanes == 1) {
    if (t.code == kDLFloat && t.bits == 32) return DType::F32;
    if (t.code == kDLFloat && t.bits == 16) return DType::F16;
    if (t.code == kDLBfloat && t.bits == 16) return DType::BF16;
    if (t.code == kDLFloat && t.bits == 64) return DType::F64;
    if (t.code == kDLInt && t.bits == 32) return DType::I32;
    if (t.code == kDLInt && t.bits == 8) return DType::I8;
    if (t.code == kDLUInt && t.bits == 8) return DType::U8;
    if (t.code == kDLComplex && t.bits == 64) return DType::C32;
    if (t.code == kDLComplex && t.bits == 128) return DType::C64;
  }
  throw Error(Status::InvalidType, "from_dlpack: DLPack type (code " + std::to_string(t.code) + ", " +
                                       std::to_string(t.bits) + " bits, " + std::to_string(t.lanes) +
                                       " lanes) has no optune type");
}

DType from_typestr(const std::string& s) {
  if (s.size() >= 3 && (s[0] == '<' || s[0] == '|' || s[0] == '=')) {
    const std::string k = s.substr(1);
    if (k == "f4") return DType::F32;
    if (k == "f2") return DType::F16;
    if (k == "f8") return DType::F64;
    if (k == "c8") return DType::C32;
    if (k == "c16") return DType::C64;
    if (k == "i4") return DType::I32;
    if (k == "i1") return DType::I8;
    if (k == "u1" || k == "b1") return DType::U8;
  }
  throw Error(Status::InvalidType, "__cuda_array_interface__: typestr '" + s + "' has no optune type");
}

std::string typestr(DType t) {
  // By DType's value; bf16 has no array-interface type string.
  static const char* names[] = {"<f4", "<f2", "<f8", "<i4", "|i1", "|u1", nullptr, "<c8", "<c16"};
  if (int(t) < 0 || int(t) > int(kLastDType) || !names[int(t)])
    throw Error(Status::InvalidType, "__cuda_array_interface__: no type string for " + std::string(dtype_name(t)));
  return names[int(t)];
}

// ---- the keeper of foreign memory ----

// Held by the adopted memory (MemImpl::keep): when the last optune view goes,
// the device's queue is drained (a kernel may still use the memory), then
// the producer is released under the GIL.
std::shared_ptr<void> keeper(const DevicePtr& dev, std::function<void()> release) {
  auto* r = new std::function<void()>(std::move(release));
  return std::shared_ptr<void>(r, [dev](void* p) {
    auto* fn = static_cast<std::function<void()>*>(p);
    try {
      if (PyGILState_Check()) {
        py::gil_scoped_release unlocked;
        dev->queue().finish();
      } else {
        dev->queue().finish();
      }
    } catch (...) {
      // A failed device cannot run the kernels either; release regardless.
    }
    if (Py_IsInitialized()) {
      py::gil_scoped_acquire locked;
      (*fn)();
    }
    delete fn;
  });
}

// Extent in elements of a view with non-negative strides (0 when empty).
std::int64_t extent_of(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides) {
  std::int64_t last = 0;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return 0;
    if (strides[i] < 0)
      throw Error(Status::InvalidArgument, "negative strides are not adopted; copy the array first");
    last += (shape[i] - 1) * strides[i];
  }
  return last + 1;
}

// A tensor over adopted memory. data_offset: bytes from the adopted start to
// the first element (OpenCL handles cannot be offset, so the view is).
TensorPtr adopted(const DevicePtr& dev, std::shared_ptr<detail::MemImpl> mem, DType t, std::size_t offset_elems,
                  std::vector<std::int64_t> shape, std::vector<std::int64_t> strides, bool host) {
  auto out = std::make_shared<Tensor>();
  out->dev = dev;
  out->mem = std::move(mem);
  out->offset = offset_elems;
  out->dtype = t;
  out->shape = std::move(shape);
  out->strides = std::move(strides);
  out->host = host;
  return out;
}

DevicePtr device_for(const py::object& device, Backend want, int index, const char* what) {
  if (!device.is_none()) {
    DevicePtr d = resolve_device(device);
    if (d->device.backend() != want)
      throw Error(Status::InvalidArgument, std::string(what) + ": the memory is " + std::string(backend_name(want)) +
                                               " memory, not memory of " + d->device.spec());
    return d;
  }
  if (want == Backend::CUDA) return device_state(select_device("cuda:" + std::to_string(index)));
  DevicePtr d = default_device_state();
  if (d->device.backend() != want)
    throw Error(Status::InvalidArgument, std::string(what) + ": pass device= (an OpenCL device of optune's)");
  return d;
}

std::uintptr_t stream_of(const DeviceState& d) {
  return reinterpret_cast<std::uintptr_t>(interop::native_queue(d.queue()).queue);
}

// DLPack and __cuda_array_interface__ streams: None and 1 are CUDA's legacy
// default stream, 2 the per-thread default, -1 "no synchronisation", any
// other value a CUstream.
void* cuda_stream_handle(std::intptr_t s) {
  if (s == 1) return nullptr;
  if (s == 2) return reinterpret_cast<void*>(std::uintptr_t(0x2));  // CU_STREAM_PER_THREAD
  return reinterpret_cast<void*>(s);
}

// ---- DLPack export ----

struct Exported {
  DLManagedTensor managed{};
  TensorPtr tensor;
  std::shared_ptr<void> mapping;  // kDLCPU on a shared-memory OpenCL device
  std::vector<std::int64_t> shape, strides;
};

void delete_exported(DLManagedTensor* m) { delete static_cast<Exported*>(m->manager_ctx); }

void capsule_destructor(PyObject* capsule) {
  // A consumer renames the capsule "used_dltensor" and calls the deleter itself.
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (m && m->deleter) m->deleter(m);
  } else {
    PyErr_Clear();
  }
}

std::pair<int, int> dlpack_device(const Tensor& t) {
  const Capabilities& c = t.dev->device.caps();
  if (c.backend == Backend::CUDA) return {kDLCUDA, std::stoi(c.spec.substr(5))};
  if (c.unified_memory) return {kDLCPU, 0};
  return {kDLOpenCL, std::stoi(c.spec.substr(c.spec.rfind(':') + 1))};
}

py::capsule to_dlpack(const TensorPtr& t, const py::object& stream) {
  auto ex = std::make_unique<Exported>();
  ex->tensor = t;
  ex->shape = t->shape;
  ex->strides = t->strides;
  const auto [type, id] = dlpack_device(*t);
  const std::size_t es = dtype_size(t->dtype);
  DLTensor& d = ex->managed.dl_tensor;
  d.device = {DLDeviceType(type), id};
  d.ndim = int(t->shape.size());
  d.dtype = dl_type(t->dtype);
  d.shape = ex->shape.data();
  d.strides = ex->strides.data();
  const std::intptr_t s = stream.is_none() ? 1 : stream.cast<std::intptr_t>();
  if (type == kDLCPU) {
    if (!stream.is_none() && s != -1)
      throw Error(Status::InvalidArgument, "__dlpack__: stream must be None for host (kDLCPU) tensors");
    Buffer<std::uint8_t> bytes(t->mem, t->offset * es, t->count() * es);
    py::gil_scoped_release unlocked;
    ex->mapping = interop::map_host(t->dev->queue(), bytes);  // waits for the queue
    d.data = ex->mapping.get();
  } else if (type == kDLCUDA) {
    d.data = reinterpret_cast<void*>(
        std::uintptr_t(interop::native_buffer(Buffer<std::uint8_t>(t->mem, t->offset * es, t->count() * es))
                           .device_pointer));
    if (s == 0) throw Error(Status::InvalidArgument, "__dlpack__: stream 0 is ambiguous on CUDA (use 1 or 2)");
    if (s != -1) interop::join(t->dev->queue(), cuda_stream_handle(s), interop::Join::NativeWaits);
  } else {
    const auto nb = interop::native_buffer(Buffer<std::uint8_t>(t->mem, 0, detail::mem_bytes(*t->mem)));
    d.data = nb.cl_mem;
    d.byte_offset = t->offset * es;
    // An OpenCL consumer passes its cl_command_queue; otherwise drain ours.
    if (!stream.is_none() && s != -1) {
      interop::join(t->dev->queue(), reinterpret_cast<void*>(s), interop::Join::NativeWaits);
    } else if (stream.is_none()) {
      py::gil_scoped_release unlocked;
      t->dev->queue().finish();
    }
  }
  ex->managed.manager_ctx = ex.get();
  ex->managed.deleter = delete_exported;
  DLManagedTensor* m = &ex.release()->managed;
  return py::capsule(m, "dltensor", capsule_destructor);
}

// ---- DLPack import ----

TensorPtr shared_dlpack(const py::object& x, const py::object& device, const py::object& copy);

// copy=True: a tensor of optune's own, copied on the device from the shared one.
TensorPtr from_dlpack(const py::object& x, const py::object& device, const py::object& copy) {
  const bool force_copy = !copy.is_none() && copy.cast<bool>();
  TensorPtr t = shared_dlpack(x, device, copy);
  if (!force_copy) return t;
  return py::module_::import("optune").attr("unary")("copy", t).cast<TensorPtr>();
}

TensorPtr shared_dlpack(const py::object& x, const py::object& device, const py::object& copy) {
  if (py::isinstance<Tensor>(x)) return x.cast<TensorPtr>();
  if (!py::hasattr(x, "__dlpack__"))
    throw Error(Status::InvalidType, "from_dlpack: the object has no __dlpack__ method");
  int dev_type = kDLCPU, dev_id = 0;
  if (py::hasattr(x, "__dlpack_device__")) {
    auto dev = x.attr("__dlpack_device__")().cast<py::tuple>();
    dev_type = dev[0].cast<int>();
    dev_id = dev[1].cast<int>();
  }
  const bool no_copy = !copy.is_none() && !copy.cast<bool>();
  DevicePtr dev;
  py::object capsule_obj;
  if (dev_type == kDLCPU) {
    dev = device.is_none() ? default_device_state() : resolve_device(device);
    if (!dev->device.caps().unified_memory || dev->device.backend() != Backend::OpenCL) {
      if (no_copy)
        throw Error(Status::InvalidArgument, "from_dlpack: host memory cannot be used in place on " +
                                                 dev->device.spec() + " (copy=False)");
      // A copy to the device: numpy reads the host capsule, asarray uploads it.
      py::object arr = py::module_::import("numpy").attr("from_dlpack")(x);
      return py::module_::import("optune").attr("asarray")(arr, dev).cast<TensorPtr>();
    }
    capsule_obj = x.attr("__dlpack__")();
  } else if (dev_type == kDLCUDA) {
    dev = device_for(device, Backend::CUDA, dev_id, "from_dlpack");
    capsule_obj = x.attr("__dlpack__")(py::arg("stream") = py::int_(stream_of(*dev)));
  } else if (dev_type == kDLOpenCL) {
    dev = device_for(device, Backend::OpenCL, dev_id, "from_dlpack");
    capsule_obj = x.attr("__dlpack__")();
  } else {
    throw Error(Status::InvalidArgument, "from_dlpack: DLPack device type " + std::to_string(dev_type) +
                                             " is not CPU, CUDA or OpenCL");
  }
  py::capsule capsule = capsule_obj.cast<py::capsule>();
  if (std::string(capsule.name() ? capsule.name() : "") != "dltensor")
    throw Error(Status::InvalidArgument, "from_dlpack: __dlpack__ returned a capsule that is not a 'dltensor' "
                                         "(already consumed?)");
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  const DLTensor& d = m->dl_tensor;
  // Own it now, so that every error below releases it.
  std::shared_ptr<void> owner = keeper(dev, [m] {
    if (m->deleter) m->deleter(m);
  });
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  const DType t = from_dl_type(d.dtype);
  const std::size_t es = dtype_size(t);
  std::vector<std::int64_t> shape(d.shape, d.shape + d.ndim);
  std::vector<std::int64_t> strides =
      d.strides ? std::vector<std::int64_t>(d.strides, d.strides + d.ndim) : row_major_strides(shape);
  const std::int64_t extent = extent_of(shape, strides);
  if (extent == 0) return allocate(dev, t, shape);  // nothing to share
  if (d.byte_offset % es) throw Error(Status::InvalidArgument, "from_dlpack: byte_offset is not a multiple of the element size");
  const std::size_t bytes = std::size_t(extent) * es;
  if (dev_type == kDLCPU) {
    auto* start = static_cast<std::uint8_t*>(d.data) + d.byte_offset;
    auto mem = interop::adopt_host(dev->context(), start, bytes, owner).mem();
    return adopted(dev, mem, t, 0, shape, strides, true);
  }
  if (dev_type == kDLCUDA) {
    interop::NativeBuffer nb;
    nb.device_pointer = reinterpret_cast<std::uintptr_t>(d.data) + d.byte_offset;
    return adopted(dev, interop::adopt<std::uint8_t>(dev->context(), nb, bytes, owner).mem(), t, 0, shape, strides,
                   false);
  }
  interop::NativeBuffer nb;
  nb.cl_mem = d.data;
  auto mem = interop::adopt<std::uint8_t>(dev->context(), nb, d.byte_offset + bytes, owner).mem();
  return adopted(dev, mem, t, d.byte_offset / es, shape, strides, false);
}

// ---- __cuda_array_interface__ ----

py::dict cuda_array_interface(const TensorPtr& t) {
  if (t->dev->device.backend() != Backend::CUDA)
    throw py::attribute_error("__cuda_array_interface__: the tensor is on " + t->dev->device.spec() + ", not CUDA");
  const std::size_t es = dtype_size(t->dtype);
  const auto nb = interop::native_buffer(Buffer<std::uint8_t>(t->mem, t->offset * es, t->count() * es));
  py::dict d;
  d["shape"] = py::tuple(py::cast(t->shape));
  d["typestr"] = typestr(t->dtype);
  d["data"] = py::make_tuple(py::int_(nb.device_pointer), false);
  d["version"] = 3;
  if (t->contiguous()) {
    d["strides"] = py::none();
  } else {
    std::vector<std::int64_t> b;
    for (auto s : t->strides) b.push_back(s * std::int64_t(es));
    d["strides"] = py::tuple(py::cast(b));
  }
  d["stream"] = py::int_(stream_of(*t->dev));  // the consumer orders its work after ours
  return d;
}

TensorPtr from_cuda_array_interface(const py::object& x, const py::object& device) {
  py::dict cai = x.attr("__cuda_array_interface__").cast<py::dict>();
  const DType t = from_typestr(cai["typestr"].cast<std::string>());
  const std::size_t es = dtype_size(t);
  std::vector<std::int64_t> shape = cai["shape"].cast<std::vector<std::int64_t>>();
  std::vector<std::int64_t> strides;
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    for (auto s : cai["strides"].cast<std::vector<std::int64_t>>()) {
      if (s % std::int64_t(es)) throw Error(Status::InvalidArgument, "__cuda_array_interface__: a stride is not a "
                                                                    "multiple of the element size");
      strides.push_back(s / std::int64_t(es));
    }
  } else {
    strides = row_major_strides(shape);
  }
  auto data = cai["data"].cast<py::tuple>();
  const auto ptr = data[0].cast<std::uintptr_t>();
  DevicePtr dev = device_for(device, Backend::CUDA, 0, "from_cuda_array_interface");
  const std::int64_t extent = extent_of(shape, strides);
  if (extent == 0 || ptr == 0) return allocate(dev, t, shape);
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    const auto s = cai["stream"].cast<std::intptr_t>();
    if (s == 0) throw Error(Status::InvalidArgument, "__cuda_array_interface__: stream 0 is not allowed");
    interop::join(dev->queue(), cuda_stream_handle(s), interop::Join::QueueWaits);
  }
  py::object keep = x;
  std::shared_ptr<void> owner = keeper(dev, [keep]() mutable { keep = py::object(); });
  interop::NativeBuffer nb;
  nb.device_pointer = ptr;
  auto mem = interop::adopt<std::uint8_t>(dev->context(), nb, std::size_t(extent) * es, owner).mem();
  return adopted(dev, mem, t, 0, shape, strides, false);
}

// ---- OpenCL handles ----

TensorPtr from_cl_buffer(std::uintptr_t handle, const py::object& shape_obj, const py::object& dtype,
                         const py::object& device, std::int64_t offset, const py::object& strides_obj,
                         const py::object& owner_obj) {
  DevicePtr dev = device_for(device, Backend::OpenCL, 0, "from_cl_buffer");
  const DType t = dtype.is_none() ? DType::F32 : dtype_from_python(dtype);
  const std::size_t es = dtype_size(t);
  std::vector<std::int64_t> shape;
  if (py::isinstance<py::int_>(shape_obj)) shape.push_back(shape_obj.cast<std::int64_t>());
  else shape = shape_obj.cast<std::vector<std::int64_t>>();
  std::vector<std::int64_t> strides =
      strides_obj.is_none() ? row_major_strides(shape) : strides_obj.cast<std::vector<std::int64_t>>();
  if (strides.size() != shape.size())
    throw Error(Status::InvalidShape, "from_cl_buffer: strides and shape have different lengths");
  if (offset < 0) throw Error(Status::InvalidArgument, "from_cl_buffer: offset must be >= 0");
  const std::int64_t extent = extent_of(shape, strides);
  py::object keep = owner_obj;
  std::shared_ptr<void> owner = keeper(dev, [keep]() mutable { keep = py::object(); });
  interop::NativeBuffer nb;
  nb.cl_mem = reinterpret_cast<void*>(handle);
  const std::size_t bytes = std::size_t(offset + std::max<std::int64_t>(extent, 1)) * es;
  auto mem = interop::adopt<std::uint8_t>(dev->context(), nb, bytes, owner).mem();
  return adopted(dev, mem, t, std::size_t(offset), shape, strides, false);
}

std::uintptr_t native_handle(const DeviceState& d, bool context) {
  const auto n = interop::native_queue(d.queue());
  return reinterpret_cast<std::uintptr_t>(context ? n.context : n.queue);
}

}  // namespace

void bind_interchange(py::module_& m) {
  using py::arg;
  auto tensor = py::reinterpret_borrow<py::class_<Tensor, TensorPtr>>(m.attr("Tensor"));
  tensor.def("__dlpack__", &to_dlpack, arg("stream") = py::none(),
             "A DLPack capsule of this tensor (no copy). stream: the consumer's CUDA stream (or "
             "cl_command_queue), which then waits for this tensor's pending work; -1 skips that.");
  tensor.def("__dlpack_device__", [](const Tensor& t) {
    const auto [type, id] = dlpack_device(t);
    return py::make_tuple(type, id);
  });
  tensor.def_property_readonly("__cuda_array_interface__", &cuda_array_interface);
  tensor.def_property_readonly("cl_mem", [](const Tensor& t) -> std::uintptr_t {
    if (t.dev->device.backend() != Backend::OpenCL)
      throw py::attribute_error("cl_mem: the tensor is on " + t.dev->device.spec() + ", not OpenCL");
    return reinterpret_cast<std::uintptr_t>(interop::native_buffer(Buffer<std::uint8_t>(t.mem, 0, 1)).cl_mem);
  }, "The cl_mem behind the tensor, as an integer (the view starts `offset` elements into it).");

  auto device = py::reinterpret_borrow<py::class_<DeviceState, DevicePtr>>(m.attr("Device"));
  device.def_property_readonly("native_queue", [](const DeviceState& d) { return native_handle(d, false); },
                               "The cl_command_queue or CUstream every call on the device uses, as an integer.");
  device.def("join", [](const DeviceState& d, std::uintptr_t native_queue, bool native_waits) {
    interop::join(d.queue(), reinterpret_cast<void*>(native_queue),
                  native_waits ? interop::Join::NativeWaits : interop::Join::QueueWaits);
  }, py::arg("native_queue"), py::arg("native_waits") = true,
     "Orders the device's queue with another library's (a CUstream, 0 the legacy default stream, or a "
     "cl_command_queue of the same context) without waiting: native_waits=True makes the native queue's later "
     "work wait for optune's work so far (torch.cuda.current_stream().cuda_stream after an optune call); False "
     "the reverse.");
  device.def_property_readonly("native_context", [](const DeviceState& d) { return native_handle(d, true); },
                               "The cl_context or CUcontext (primary) of the device, as an integer.");

  m.def("from_dlpack", &from_dlpack, arg("x"), py::kw_only(), arg("device") = py::none(), arg("copy") = py::none(),
        "A tensor sharing the memory of any object with __dlpack__: CUDA memory on the CUDA back end, "
        "host memory in place on devices that share it (PoCL; copied elsewhere unless copy=False), "
        "OpenCL buffers of optune's context. copy=True copies the data into a tensor of optune's own.");
  m.def("from_cuda_array_interface", &from_cuda_array_interface, arg("x"), py::kw_only(), arg("device") = py::none(),
        "A tensor sharing the CUDA memory of an object with __cuda_array_interface__ (CuPy, Numba, torch).");
  m.def("from_cl_buffer", &from_cl_buffer, arg("cl_mem"), arg("shape"), arg("dtype") = py::none(), py::kw_only(),
        arg("device") = py::none(), arg("offset") = 0, arg("strides") = py::none(), arg("owner") = py::none(),
        "A tensor over an OpenCL buffer (an integer cl_mem of the device's context, e.g. pyopencl's "
        "buf.int_ptr); offset and strides in elements; owner is kept alive as long as the tensor.");
}

}  // namespace optune::python
