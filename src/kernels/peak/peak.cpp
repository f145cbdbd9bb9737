#include "kernels/peak/peak.hpp"

#include <cmath>
#include <cstring>

namespace optune::detail {

std::vector<Parameter> PeakFamily::parameters(const Capabilities&) const {
  return {
      {"VW", {1, 2, 4, 8, 16}, 4, "lanes per vector (8 and 16 on OpenCL only)"},
      {"WGS", {64, 128, 256}, 256, "work-items per group"},
  };
}

std::string PeakFamily::check(const Params& p, const Capabilities& caps, const Problem& problem) const {
  if (std::string why = KernelFamily::check(p, caps, problem); !why.empty()) return why;
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

Geometry PeakFamily::geometry(const Params& p, const Capabilities&, const Problem& problem) const {
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = round_up(std::size_t(problem.sizes.at(0)), g.local[0]);
  return g;
}

Defines PeakFamily::defines(const Params& p, const Problem& problem) const {
  return {{"TYPE", c_type_name(problem.dtype)},
          {"VW", std::to_string(p.at("VW"))},
          {"WGS", std::to_string(p.at("WGS"))},
          {"ITERS", std::to_string(problem.get("iters", 256))}};
}

Problem PeakFamily::example(DType dtype, const std::string&, const Capabilities& caps) const {
  Problem pr;
  pr.dtype = dtype;
  const bool cpu = caps.type == DeviceType::CPU;
  // A few waves of the device, long enough per work-item to dwarf launch cost.
  const std::int64_t wave = std::int64_t(caps.compute_units ? caps.compute_units : 1) *
                            std::int64_t(cpu ? 1024 : resident_per_unit(caps));
  pr.sizes = {cpu ? wave * 4 : wave * 4};
  pr.extra["iters"] = cpu ? 128 : 1024;
  return pr;
}

std::vector<DType> PeakFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32};
  if (caps.fp16) out.push_back(DType::F16);
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

double PeakFamily::flops(const Params& p, const Problem& problem) {
  return 2.0 * double(problem.get("iters", 256)) * kChains * double(p.at("VW")) *
         double(round_up(std::size_t(problem.sizes.at(0)), std::size_t(p.at("WGS"))));
}

Event PeakFamily::launch(const Queue& queue, const Params& p, const Problem& problem, const MemImpl& out) const {
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

namespace {

class PeakCase : public TuningCase {
 public:
  PeakCase(const PeakFamily& fam, const Queue& q, const Problem& pr) : fam_(fam), q_(q), pr_(pr) {
    out_ = q.context().alloc<std::uint8_t>(round_up(std::size_t(pr.sizes.at(0)), 1024) * dtype_size(pr.dtype));
  }
  Event run(const Params& p) override {
    last_ = p;
    return fam_.launch(q_, p, pr_, *out_.mem());
  }
  void poison() override { q_.fill(out_, std::uint8_t(0xff)).wait(); }
  std::vector<double> output() override {
    // Results depend on VW (lanes are summed), so only finiteness is checked:
    // report a single 1 when every float is finite and 0 otherwise.
    if (pr_.dtype != DType::F32) return {1.0};
    auto bytes = q_.download(out_);
    const std::size_t n = std::size_t(pr_.sizes.at(0));
    for (std::size_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, bytes.data() + 4 * i, 4);
      if (!std::isfinite(f)) return {0.0};
    }
    return {1.0};
  }
  double tolerance() const override { return 0; }
  double work_flops() const override { return PeakFamily::flops(last_, pr_); }

 private:
  const PeakFamily& fam_;
  Queue q_;
  Problem pr_;
  Params last_;
  Buffer<std::uint8_t> out_;
};

}  // namespace

std::unique_ptr<TuningCase> PeakFamily::make_case(const Queue& queue, const Problem& problem) const {
  return std::make_unique<PeakCase>(*this, queue, problem);
}

}  // namespace optune::detail
