// Launch of an element-wise call through the elementwise family: the
// family's problem for the call, its parameters, and the by-value arguments.
#include <cmath>
#include <cstring>

#include "kernels/families.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/elementwise_plan.hpp"
#include "ops/launch_plan.hpp"
#include "ops/params.hpp"
#include "runtime/backend.hpp"
#include "runtime/log.hpp"

namespace optune::detail {

namespace {

// Largest pack (in elements, up to 16) that every operand's offset allows.
std::int64_t alignment(const std::vector<const Operand*>& ops) {
  std::vector<std::int64_t> offsets;
  for (const Operand* o : ops) offsets.push_back(std::int64_t(o->offset));
  return offset_alignment(offsets);
}

}  // namespace

ElementwiseProblem elementwise_problem(const ElementwiseCall& call, const ElementwisePlan& plan) {
  std::vector<const Operand*> all(call.inputs);
  all.insert(all.end(), call.outputs.begin(), call.outputs.end());
  std::int64_t widest = 1, narrowest = 8;
  DType widest_type = call.outputs[0]->dtype;
  for (const Operand* o : all) {
    const std::int64_t size = std::int64_t(dtype_size(o->dtype));
    if (size > widest) widest = size, widest_type = o->dtype;
    narrowest = std::min(narrowest, size);
  }
  ElementwiseProblem pr;
  pr.dtype = widest_type;
  pr.n = std::int64_t(plan.n);
  pr.contiguous = plan.contiguous;
  pr.max_elem_bytes = widest;
  pr.min_elem_bytes = narrowest;
  pr.align = alignment(all);
  pr.body = call.body;
  for (const Operand* o : call.inputs) pr.inputs.push_back(o->dtype);
  for (const Operand* o : call.outputs) pr.outputs.push_back(o->dtype);
  pr.compute = call.compute;
  pr.ndim = int(plan.shape.size());
  pr.n_scalars = int(call.scalars.size());
  pr.aliased = plan.aliased;
  return pr;
}

Event run_elementwise(const Queue& q, const ElementwiseCall& call, const WaitList& wait, const Params* forced) {
  if (call.inputs.size() > 4 || call.outputs.empty() || call.outputs.size() > 2)
    throw Error(Status::InvalidArgument, call.what + ": 0..4 inputs and 1..2 outputs are supported");
  // The scalars are packed below as the kernel's 32-bit int: 2^32 + 5 must
  // not become INT_MIN.
  if (call.compute == ComputeType::Int)
    for (std::size_t k = 0; k < call.scalars.size(); ++k) {
      const double s = call.scalars[k];
      if (!(s == std::floor(s)) || s < -2147483648.0 || s > 2147483647.0)
        throw Error(Status::InvalidArgument,
                    call.what + ": scalar " +
                        (k < call.scalar_names.size() ? call.scalar_names[k] + " = " + number_text(s)
                                                      : std::to_string(s)) +
                        " is not a 32-bit integer, as integer tensors need");
    }
  const ElementwisePlan plan = plan_elementwise(call.what.c_str(), q, call.inputs, call.outputs);
  if (plan.n == 0) return Event();
  const ElementwiseFamily& fam = families::elementwise();
  const ElementwiseProblem pr = elementwise_problem(call, plan);
  const std::shared_ptr<const LaunchPlan> lp = family_plan(q, fam, pr, forced);

  std::vector<KernelArg> args{KernelArg::scalar(std::uint64_t(plan.n))};
  std::vector<const Operand*> all(call.inputs);
  all.insert(all.end(), call.outputs.begin(), call.outputs.end());
  for (const Operand* o : all) {
    args.push_back(KernelArg::buffer(*o->mem));
    args.push_back(KernelArg::scalar(std::uint64_t(o->offset)));
  }
  // EwScalars: N_SCALARS slots (at least one) of the compute type.
  unsigned char sc[KernelArg::kMaxValueBytes] = {};
  const std::size_t slots = std::max<std::size_t>(call.scalars.size(), 1);
  const std::size_t width = call.compute == ComputeType::Double ? 8 : 4;
  if (slots * width > sizeof sc) throw Error(Status::InvalidArgument, call.what + ": too many scalars");
  for (std::size_t k = 0; k < call.scalars.size(); ++k) {
    if (call.compute == ComputeType::Double) {
      std::memcpy(sc + 8 * k, &call.scalars[k], 8);
    } else if (call.compute == ComputeType::Float) {
      const float f = float(call.scalars[k]);
      std::memcpy(sc + 4 * k, &f, 4);
    } else {
      const std::int32_t i = std::int32_t(call.scalars[k]);
      std::memcpy(sc + 4 * k, &i, 4);
    }
  }
  args.push_back(KernelArg::bytes(sc, slots * width));
  // EwMeta: shape[NDIM] then stride[N_OPS][NDIM], all 8-byte fields.
  std::vector<std::int64_t> meta(plan.shape.begin(), plan.shape.end());
  for (const auto& s : plan.strides) meta.insert(meta.end(), s.begin(), s.end());
  args.push_back(KernelArg::bytes(meta.data(), meta.size() * 8));

  return launch_kernel(q, *lp->kernel, args, lp->geometry, wait, &lp->params);
}

}  // namespace optune::detail
