// Host side of conv2d: the validated call, the candidates that can compute
// it (direct, depthwise, pointwise as GEMM, ...) and the routine that chooses
// one, shared by the public entry point and the tuning cases.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/conv/conv.hpp"
#include "ops/force.hpp"
#include "optune/conv.hpp"
#include "runtime/event_span.hpp"

namespace optune::detail {

// A dense tensor's memory and first element.
struct ConvTensor {
  std::shared_ptr<MemImpl> mem;
  std::size_t offset = 0;
};

// One validated call: the problem (sizes, layouts, epilogue), the tensors
// (bias and residual where the problem says so) and the activation's
// parameters (P0, P1 of the unary expression).
struct ConvCall {
  ConvProblem problem;
  ConvTensor in, wt, out, bias, res;
  std::vector<double> activation_params;
};

// conv2d's forced candidate ("direct", "depthwise", "depthwise_image",
// "pointwise", "im2col", "winograd", "implicit") and parameters by family
// ("conv_direct", "conv_depthwise", "conv_depthwise_image", "conv_im2col",
// "conv_winograd", "conv_implicit", "conv_routine"; ops/force.hpp).
using ConvForce = CandidateForce;
struct ConvForceTag;
// While alive, the conv2d calls of this thread that pass no ConvForce use it.
using ConvForceScope = ForceScope<ConvForceTag>;

// Tests: while alive, the depthwise_image candidate of this thread takes
// images of at most width x height texels (and the device's limits), so the
// tiling past the limits runs on small inputs.
class ConvImageLimitScope {
 public:
  ConvImageLimitScope(std::size_t width, std::size_t height) : previous_(current_) { current_ = {width, height}; }
  ~ConvImageLimitScope() { current_ = previous_; }
  ConvImageLimitScope(const ConvImageLimitScope&) = delete;
  ConvImageLimitScope& operator=(const ConvImageLimitScope&) = delete;
  // The device's limits, lowered by the innermost scope of this thread.
  static std::array<std::size_t, 2> limits(const Capabilities& caps) {
    return {std::min(caps.image2d_max_width, current_[0]), std::min(caps.image2d_max_height, current_[1])};
  }

 private:
  static inline thread_local std::array<std::size_t, 2> current_{SIZE_MAX, SIZE_MAX};
  std::array<std::size_t, 2> previous_;
};

class ConvCandidate {
 public:
  virtual ~ConvCandidate() = default;
  virtual std::string name() const = 0;  // ConvForce::candidate
  virtual int id() const = 0;            // its value of conv_routine's KERNEL
  // The family whose parameters it runs with; nullptr when it runs another
  // routine's (pointwise: GEMM's).
  virtual const FamilyOf<ConvProblem>* family() const = 0;
  // "" when it can run the problem on this device; else why not.
  virtual std::string applies(const ConvProblem& problem, const Capabilities& caps) const = 0;
  // "" when the routine's default order (conv_routine KERNEL = 0) may take
  // it for the problem; else why it passes it over (a shape it applies to
  // but is known to run badly on this kind of device, e.g. GEMM's thin
  // kernel on pixel-major operands). A tuned or forced KERNEL still runs it.
  virtual std::string passed_over(const ConvProblem&, const Capabilities&) const { return ""; }
  // Enqueues the call with these (fitted) parameters, adding its events to span.
  virtual void run(const Queue& q, const ConvCall& call, const Params& p, const WaitList& wait,
                   EventSpan& span) const = 0;
};

// In order of preference: pointwise, depthwise, depthwise_image, winograd,
// implicit, im2col, direct (which applies to every problem).
const std::vector<const ConvCandidate*>& conv_candidates();
// By name; Error(NotFound) listing the candidates.
const ConvCandidate& conv_candidate(const std::string& name);

struct ConvChoice {
  const ConvCandidate* candidate = nullptr;
  Params params;  // fitted to the problem (empty for pointwise)
};
// The forced candidate (Error(Unsupported) when it does not apply), else
// conv_routine's KERNEL where that candidate applies, else the first that
// applies and is not passed over (direct at the end applies always).
ConvChoice choose_conv(const Queue& q, const ConvProblem& problem, const ConvForce* force);

// The kernel problem of a validated call: its sizes, layouts, type, epilogue
// and accumulation; align and wt_align the largest packs that the input's,
// output's and residual's offsets and the weight's offset allow.
ConvProblem conv_problem(const Conv2dDesc& d, DType t, const Conv2dOptions& o, std::int64_t align,
                         std::int64_t wt_align);

// Enqueues a validated call.
Event run_conv(const Queue& q, const ConvCall& call, const WaitList& wait, const ConvForce* force = nullptr);

}  // namespace optune::detail
