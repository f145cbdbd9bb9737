// Enumeration across backends and OPTUNE_DEVICE selection.
#include <sstream>
#include <string>

#include "runtime/backend.hpp"
#include "runtime/log.hpp"

namespace optune {

namespace {

std::vector<detail::BackendImpl*> all_backends() {
  std::vector<detail::BackendImpl*> list{&detail::opencl_backend()};
  if (auto* cuda = detail::cuda_backend()) list.push_back(cuda);
  return list;
}

std::string listing() {
  std::ostringstream os;
  os << "devices that exist:";
  bool any = false;
  for (const Device& d : devices()) {
    os << "\n  " << d.spec() << "  " << device_type_name(d.caps().type) << "  " << d.name() << " (" << d.caps().platform
       << ")";
    any = true;
  }
  if (!any) os << " none";
  for (const BackendStatus& b : backends())
    if (!b.available) os << "\n  (" << backend_name(b.backend) << " unavailable: " << b.reason << ")";
  return os.str();
}

}  // namespace

std::vector<BackendStatus> backends() {
  std::vector<BackendStatus> out;
  for (auto* b : all_backends()) {
    BackendStatus s;
    s.backend = b->kind();
    s.available = b->available(&s.reason);
    out.push_back(s);
  }
  if (!detail::cuda_backend()) out.push_back({Backend::CUDA, false, "optune was built without the CUDA toolkit"});
  return out;
}

std::vector<Device> devices() {
  std::vector<Device> out;
  for (auto* b : all_backends()) {
    std::string reason;
    if (!b->available(&reason)) continue;
    for (const auto& d : b->devices()) out.emplace_back(d);
  }
  return out;
}

Device select_device(std::string_view spec_in) {
  std::string spec(spec_in);
  const std::vector<Device> all = devices();
  auto first_of = [&](DeviceType t) -> Device {
    for (const Device& d : all)
      if (d.caps().type == t) return d;
    return Device();
  };
  Device found;
  if (spec == "gpu") {
    found = first_of(DeviceType::GPU);
  } else if (spec == "cpu") {
    found = first_of(DeviceType::CPU);
  } else {
    for (const Device& d : all)
      if (d.spec() == spec) found = d;
  }
  if (!found.valid())
    throw Error(Status::DeviceNotFound, "no device matches '" + spec +
                                            "' (expected opencl:P:D, cuda:N, gpu or cpu); " + listing());
  return found;
}

Device default_device() {
  const std::string env = detail::env_or("OPTUNE_DEVICE", "");
  if (!env.empty()) {
    Device d = select_device(env);
    detail::log_debug("device " + d.spec() + " (" + d.name() + ") chosen by OPTUNE_DEVICE");
    return d;
  }
  const std::vector<Device> all = devices();
  for (const Device& d : all)
    if (d.caps().type == DeviceType::GPU) return d;
  for (const Device& d : all)
    if (d.caps().type == DeviceType::CPU) return d;
  if (!all.empty()) return all.front();
  throw Error(Status::DeviceNotFound, "no OpenCL or CUDA device found; " + listing() +
                                          "\n(install pocl-opencl-icd for the CPU device)");
}

}  // namespace optune
