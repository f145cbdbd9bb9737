// Descriptor of norm_rows (norm/norm.cl): softmax, log_softmax, layer_norm and
// rms_norm along the last axis, with a strategy per row length (registers,
// local-memory cache, multi-pass) whose thresholds are tunable.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Row-wise softmax (op 0), log_softmax (1), layer_norm (2) or rms_norm (3).
enum class NormOp { Softmax = 0, LogSoftmax = 1, LayerNorm = 2, RmsNorm = 3 };

// The operator over dense [rows][cols] operands. Tuning runs the problem's
// operator (log_softmax tunes as softmax).
struct NormProblem {
  DType dtype = DType::F32;   // x's data type
  std::int64_t rows = 0, cols = 0;
  NormOp op = NormOp::Softmax;
  std::int64_t align = 16;    // the largest pack, in elements, that every operand's offset allows
  bool gamma = false, beta = false, stats = false;  // optional operands present
  DType stat = DType::F32;    // data type of mean and rstd
  std::vector<std::int64_t> sizes() const { return {rows, cols}; }
  std::map<std::string, std::int64_t> fields() const {
    return {{"op", int(op)}, {"align", align}, {"gamma", gamma}, {"beta", beta}, {"stats", stats}, {"stat", int(stat)}};
  }
  // Every field, as bytes (launch plans, ops/launch_plan.hpp).
  std::string key() const {
    return plan_key({std::int64_t(dtype), rows, cols, std::int64_t(op), align, gamma, beta, stats, std::int64_t(stat)});
  }
};

class NormRowsFamily : public FamilyOf<NormProblem> {
 public:
  std::string name() const override { return "norm_rows"; }
  std::string source() const override { return "norm/norm.cl"; }
  std::string kernel_name() const override { return "norm_rows"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const NormProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const NormProblem& problem) const override;
  Defines defines(const Params& p, const NormProblem& problem) const override;
  std::string bucket(const NormProblem& problem) const override;
  NormProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  // Tuned values fitted to the device and problem, with the derived
  // STRATEGY (0 registers, 1 local cache, 2 multi-pass), NPACK, CACHE and
  // the resolved TPR added.
  Params fit(const Params& tuned, const Capabilities& caps, const NormProblem& problem) const override;
};

}  // namespace optune::detail
