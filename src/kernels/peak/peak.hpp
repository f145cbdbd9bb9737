// Descriptor of the peak family (peak/peak.cl): the arithmetic-rate ceiling.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// `items` work-items, each running `iters` rounds of its FMA chains.
struct PeakProblem {
  DType dtype = DType::F32;
  std::int64_t items = 0;
  std::int64_t iters = 256;
  std::vector<std::int64_t> sizes() const { return {items}; }
  std::map<std::string, std::int64_t> fields() const { return {{"iters", iters}}; }
};

class PeakFamily : public FamilyOf<PeakProblem> {
 public:
  static constexpr int kChains = 8;  // CHAINS in peak.cl
  std::string name() const override { return "peak"; }
  std::string source() const override { return "peak/peak.cl"; }
  std::string kernel_name() const override { return "peak"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const PeakProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const PeakProblem& problem) const override;
  Defines defines(const Params& p, const PeakProblem& problem) const override;
  std::string bucket(const PeakProblem&) const override { return "all"; }
  PeakProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override { return {"all"}; }
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  static double flops(const Params& p, const PeakProblem& problem);
  Event launch(const Queue& queue, const Params& p, const PeakProblem& problem, const MemImpl& out) const;
};

// The tensor cores' ceiling (peak/peak_mma.cl, CUDA only): `items`
// work-items (whole warps; whole warpgroups with wgmma), each warp
// (warpgroup) running `iters` rounds of products on operands that never
// leave registers (shared memory for wgmma).
struct PeakMmaProblem {
  DType dtype = DType::F16;  // f16, bf16, or f32 (run as tf32)
  bool wgmma = false;        // wgmma.mma_async (sm_90a) rather than mma.sync
  std::int64_t items = 0;
  std::int64_t iters = 128;
  std::vector<std::int64_t> sizes() const { return {items}; }
  std::map<std::string, std::int64_t> fields() const { return {{"iters", iters}, {"wgmma", wgmma}}; }
};

class PeakMmaFamily : public FamilyOf<PeakMmaProblem> {
 public:
  static constexpr int kChains = 8;  // CHAINS in peak_mma.cl (mma.sync products per warp and round)
  static constexpr int kUnroll = 4;  // UNROLL (wgmma products per warpgroup and round)
  std::string name() const override { return "peak_mma"; }
  std::string source() const override { return "peak/peak_mma.cl"; }
  std::string kernel_name() const override { return "peak_mma"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  // CUDA of compute capability 8.0 or newer (wgmma: 9.0 exactly); f16, bf16
  // or f32 (tf32).
  std::string check(const Params& p, const Capabilities& caps, const PeakMmaProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const PeakMmaProblem& problem) const override;
  // MMA_TYPE, WGMMA (with OPTUNE_NEED_SM90A), WGS, ITERS.
  Defines defines(const Params& p, const PeakMmaProblem& problem) const override;
  std::string bucket(const PeakMmaProblem&) const override { return "all"; }
  std::vector<std::string> buckets() const override { return {"all"}; }
  // Several full waves of the device: mma.sync 4096 work-items per
  // multiprocessor, wgmma 12 warpgroups per multiprocessor (whole waves at
  // 1, 2, 3, 4 or 6 resident), few enough rounds for a fraction of a second.
  PeakMmaProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  PeakMmaProblem ceiling_problem(DType dtype, bool wgmma, const Capabilities& caps) const;
  // {f16, bf16, f32} on CUDA devices of compute capability 8.0 or newer; else none.
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  static double flops(const Params& p, const PeakMmaProblem& problem);
  // The bits every element of A and B holds (2^-4: two copies for 16-bit
  // types), and each work-item's exact output for them.
  static std::uint32_t operand_bits(DType dtype);
  static double expected_output(const PeakMmaProblem& problem);
  // out: round_up(items, WGS) floats.
  Event launch(const Queue& queue, const Params& p, const PeakMmaProblem& problem, const MemImpl& out) const;
};

}  // namespace optune::detail
