// What conv2d's candidate files share (ops/conv_launch.cpp,
// ops/conv_gemm_candidates.cpp): kernel arguments, the tensor block every
// conv kernel takes, the thin-GEMM pass-over rule, and the GEMM-based
// candidates for the default order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/conv_ops.hpp"
#include "optune/runtime.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

inline KernelArg int_arg(std::int64_t v) { return KernelArg::scalar(std::int32_t(v)); }
inline KernelArg ulong_arg(std::size_t v) { return KernelArg::scalar(std::uint64_t(v)); }

// The tensor block every conv kernel takes after its sizes: input, weight,
// bias, residual, output (buffer and offset each), flags, act_p0, act_p1.
std::vector<KernelArg> tensor_args(const ConvCall& c);

// Why a GEMM-based candidate passes this shape over: at most the thin
// kernel's columns per group over pixel-major pixels ("" otherwise).
std::string thin_pixel_major(const ConvProblem& pr, bool pixel_major);

const ConvCandidate& pointwise_candidate();
const ConvCandidate& im2col_candidate();
const ConvCandidate& winograd_candidate();
const ConvCandidate& winograd_fused_candidate();

}  // namespace optune::detail
