// Descriptor of the tensor-core ceiling (peak/peak_mma.cl).
#include "kernels/peak/peak.hpp"

namespace optune::detail {

namespace {

// K of one product: m16n8k16 / m64n256k16 for 16-bit types, k8 for tf32.
double k_of(DType t) { return t == DType::F32 ? 8.0 : 16.0; }

bool sm90_exact(const Capabilities& caps) {
  return caps.compute_capability_major == 9 && caps.compute_capability_minor == 0;
}

}  // namespace

std::vector<Parameter> PeakMmaFamily::parameters(const Capabilities&) const {
  return {{"WGS", {128, 256}, 128, "work-items per group (whole warpgroups)"}};
}

std::string PeakMmaFamily::check(const Params& p, const Capabilities& caps, const PeakMmaProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (caps.backend != Backend::CUDA || caps.compute_capability_major < 8)
    return "tensor-core peak needs CUDA on compute capability 8.0 or newer (mma.sync)";
  if (pr.wgmma && !sm90_exact(caps)) return "wgmma needs compute capability 9.0 (sm_90a)";
  if (pr.dtype != DType::F16 && pr.dtype != DType::BF16 && pr.dtype != DType::F32)
    return "tensor-core peak runs f16, bf16 and f32 (tf32)";
  if (std::size_t(p.at("WGS")) > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (pr.items < 1 || pr.iters < 1) return "no work";
  return "";
}

Geometry PeakMmaFamily::geometry(const Params& p, const Capabilities&, const PeakMmaProblem& pr) const {
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = round_up(std::size_t(pr.items), g.local[0]);
  return g;
}

Defines PeakMmaFamily::defines(const Params& p, const PeakMmaProblem& pr) const {
  Defines d{{"MMA_TYPE", pr.dtype == DType::F16 ? "0" : pr.dtype == DType::BF16 ? "1" : "2"},
            {"WGMMA", pr.wgmma ? "1" : "0"},
            {"WGS", std::to_string(p.at("WGS"))},
            {"ITERS", std::to_string(pr.iters)}};
  if (pr.wgmma) d.emplace_back("OPTUNE_NEED_SM90A", "1");
  return d;
}

PeakMmaProblem PeakMmaFamily::ceiling_problem(DType dtype, bool wgmma, const Capabilities& caps) const {
  PeakMmaProblem pr;
  pr.dtype = dtype;
  pr.wgmma = wgmma;
  const std::int64_t units = std::int64_t(caps.compute_units ? caps.compute_units : 1);
  pr.items = units * (wgmma ? 12 * 128 : 4096);
  pr.iters = wgmma ? 64 : 128;
  return pr;
}

PeakMmaProblem PeakMmaFamily::make_example(DType dtype, const std::string&, const Capabilities& caps) const {
  return ceiling_problem(dtype, false, caps);
}

std::vector<DType> PeakMmaFamily::dtypes(const Capabilities& caps) const {
  if (caps.backend != Backend::CUDA || caps.compute_capability_major < 8) return {};
  return {DType::F16, DType::BF16, DType::F32};
}

double PeakMmaFamily::flops(const Params& p, const PeakMmaProblem& pr) {
  const double items = double(round_up(std::size_t(pr.items), std::size_t(p.at("WGS"))));
  const double k = k_of(pr.dtype);
  if (pr.wgmma) return items / 128.0 * double(pr.iters) * kUnroll * 2.0 * 64.0 * 256.0 * k;
  return items / 32.0 * double(pr.iters) * kChains * 2.0 * 16.0 * 8.0 * k;
}

std::uint32_t PeakMmaFamily::operand_bits(DType dtype) {
  if (dtype == DType::F32) return 0x3D800000u;  // 2^-4
  const std::uint32_t h = dtype == DType::BF16 ? 0x3D80u : 0x2C00u;
  return h | (h << 16);
}

// Each product adds K (2^-4)^2 = K / 256 to every accumulator: 4 CHAINS of
// them per mma.sync work-item, 128 per wgmma work-item, all exact in f32.
double PeakMmaFamily::expected_output(const PeakMmaProblem& pr) {
  const double per_product = k_of(pr.dtype) / 256.0;
  if (pr.wgmma) return 128.0 * double(pr.iters) * kUnroll * per_product;
  return 4.0 * kChains * double(pr.iters) * per_product;
}

Event PeakMmaFamily::launch(const Queue& queue, const Params& p, const PeakMmaProblem& pr, const MemImpl& out) const {
  const Capabilities& caps = queue.device().caps();
  if (std::string why = check(p, caps, pr); !why.empty())
    throw Error(Status::Unsupported, "peak_mma: " + why + " (" + params_to_json(p) + ")");
  const Geometry g = geometry(p, caps, pr);
  if (out.bytes() < g.global[0] * 4) throw Error(Status::BufferTooSmall, "peak_mma: output buffer too small");
  KernelPtr k = kernel(queue, p, pr);
  std::vector<KernelArg> args{KernelArg::buffer(out), KernelArg::scalar(operand_bits(pr.dtype))};
  return launch_kernel(queue, *k, args, g, {}, &p);
}

}  // namespace optune::detail
