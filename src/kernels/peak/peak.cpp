#include "kernels/peak/peak.hpp"


namespace optune::detail {

std::vector<Parameter> PeakFamily::parameters(const Capabilities&) const {
  return {
      {"VW", {1, 2, 4, 8, 16}, 4, "lanes per vector (8 and 16 on OpenCL only)"},
      {"WGS", {64, 128, 256}, 256, "work-items per group"},
  };
}

std::string PeakFamily::check(const Params& p, const Capabilities& caps, const PeakProblem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (std::size_t(p.at("WGS")) > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (problem.dtype == DType::F16 && !caps.fp16) return "device has no fp16 arithmetic";
  if (problem.dtype == DType::F64 && !caps.fp64) return "device has no fp64";
  if (p.at("VW") > 4 && caps.backend == Backend::CUDA) return "CUDA vectors hold at most 4 lanes";
  if (problem.dtype == DType::F16 && caps.backend == Backend::CUDA && p.at("VW") > 2)
    return "CUDA half vectors are half2";
  if (problem.dtype == DType::F64 && caps.backend == Backend::CUDA && p.at("VW") > 2)
    return "CUDA double vectors are double2";
  return "";
}

Geometry PeakFamily::geometry(const Params& p, const Capabilities&, const PeakProblem& problem) const {
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = round_up(std::size_t(problem.items), g.local[0]);
  return g;
}

Defines PeakFamily::defines(const Params& p, const PeakProblem& problem) const {
  return {{"TYPE", c_type_name(problem.dtype)},
          {"VW", std::to_string(p.at("VW"))},
          {"WGS", std::to_string(p.at("WGS"))},
          {"ITERS", std::to_string(problem.iters)}};
}

PeakProblem PeakFamily::make_example(DType dtype, const std::string&, const Capabilities& caps) const {
  PeakProblem pr;
  pr.dtype = dtype;
  const bool cpu = caps.type == DeviceType::CPU;
  // A few waves of the device, long enough per work-item to dwarf launch cost.
  const std::int64_t wave = std::int64_t(caps.compute_units ? caps.compute_units : 1) *
                            std::int64_t(cpu ? 1024 : resident_per_unit(caps));
  pr.items = wave * 4;
  pr.iters = cpu ? 128 : 1024;
  return pr;
}

std::vector<DType> PeakFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32};
  if (caps.fp16) out.push_back(DType::F16);
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

double PeakFamily::flops(const Params& p, const PeakProblem& problem) {
  return 2.0 * double(problem.iters) * kChains * double(p.at("VW")) *
         double(round_up(std::size_t(problem.items), std::size_t(p.at("WGS"))));
}

Event PeakFamily::launch(const Queue& queue, const Params& p, const PeakProblem& problem, const MemImpl& out) const {
  const Capabilities& caps = queue.device().caps();
  if (std::string why = check(p, caps, problem); !why.empty())
    throw Error(Status::InvalidArgument, "peak: " + why + " (" + params_to_json(p) + ")");
  const Geometry g = geometry(p, caps, problem);
  if (out.bytes() < g.global[0] * dtype_size(problem.dtype))
    throw Error(Status::BufferTooSmall, "peak: output buffer too small");
  KernelPtr k = kernel(queue, p, problem);
  // a slightly below 1 keeps the recurrence bounded: c -> b / (1 - a).
  std::vector<KernelArg> args{KernelArg::buffer(out), KernelArg::scalar(0.999f), KernelArg::scalar(0.001f)};
  return launch_kernel(queue, *k, args, g, {}, &p);
}

}  // namespace optune::detail
