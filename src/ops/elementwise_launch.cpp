// Launch of an element-wise call through the elementwise family: operand
// kinds, the kernel's defines and by-value arguments, and the parameters.
#include <cstring>

#include "kernels/elementwise/elementwise.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/elementwise_plan.hpp"
#include "ops/params.hpp"
#include "runtime/backend.hpp"
#include "runtime/embedded.hpp"

namespace optune::detail {

namespace {

bool is_integer(DType t) { return t == DType::I32 || t == DType::I8 || t == DType::U8; }

std::string storage_name(DType t) {
  switch (t) {
    case DType::F32: return "float";
    case DType::F16: return "half";
    case DType::F64: return "double";
    case DType::I32: return "int";
    case DType::I8: return "char";
    case DType::U8: return "uchar";
  }
  return "float";
}

// Kind 0 plain, 1 half storage, 2 saturating store from a floating compute type.
int operand_kind(DType t, ComputeType ct, bool output) {
  if (t == DType::F16) return 1;
  if (output && is_integer(t) && ct != ComputeType::Int) return 2;
  return 0;
}

std::pair<std::string, std::string> integer_limits(DType t) {
  switch (t) {
    case DType::I32: return {"(-2147483647-1)", "2147483647"};
    case DType::I8: return {"(-128)", "127"};
    case DType::U8: return {"0", "255"};
    default: return {"0", "0"};
  }
}

// Largest pack (in elements, up to 16) that every operand's offset allows.
std::int64_t alignment(const std::vector<const Operand*>& ops) {
  for (std::int64_t a = 16; a > 1; a /= 2) {
    bool ok = true;
    for (const Operand* o : ops) ok = ok && o->offset % std::size_t(a) == 0;
    if (ok) return a;
  }
  return 1;
}

}  // namespace

ComputeType compute_type_of(const std::vector<DType>& types) {
  bool any_float = false, any_double = false;
  for (DType t : types) {
    any_double |= t == DType::F64;
    any_float |= t == DType::F32 || t == DType::F16;
  }
  return any_double ? ComputeType::Double : any_float ? ComputeType::Float : ComputeType::Int;
}

Problem elementwise_problem(const ElementwiseCall& call, const ElementwisePlan& plan) {
  std::vector<const Operand*> all(call.inputs);
  all.insert(all.end(), call.outputs.begin(), call.outputs.end());
  std::int64_t widest = 1, narrowest = 8;
  DType widest_type = call.outputs[0]->dtype;
  for (const Operand* o : all) {
    const std::int64_t size = std::int64_t(dtype_size(o->dtype));
    if (size > widest) widest = size, widest_type = o->dtype;
    narrowest = std::min(narrowest, size);
  }
  Problem pr;
  pr.dtype = widest_type;
  pr.sizes = {std::int64_t(plan.n)};
  pr.extra = {{"contiguous", plan.contiguous ? 1 : 0},
              {"max_elem_bytes", widest},
              {"min_elem_bytes", narrowest},
              {"align", alignment(all)}};
  return pr;
}

ElementwiseSource elementwise_source(const ElementwiseCall& call, const ElementwisePlan& plan, const Params& p,
                                     const Problem& pr) {
  const ElementwiseFamily& fam = static_cast<const ElementwiseFamily&>(find_family("elementwise"));
  bool floats_all_half = call.compute == ComputeType::Float;
  for (const auto* list : {&call.inputs, &call.outputs})
    for (const Operand* o : *list) floats_all_half &= o->dtype != DType::F32;
  Defines d = fam.defines(p, pr);
  const char* ct = call.compute == ComputeType::Double ? "double" : call.compute == ComputeType::Int ? "int" : "float";
  d.insert(d.end(), {{"CT", ct},
                     {"EW_DOUBLE", call.compute == ComputeType::Double ? "1" : "0"},
                     {"N_IN", std::to_string(call.inputs.size())},
                     {"N_OUT", std::to_string(call.outputs.size())},
                     {"CONTIGUOUS", plan.contiguous ? "1" : "0"},
                     {"NDIM", std::to_string(plan.shape.size())},
                     {"N_SCALARS", std::to_string(call.scalars.size())},
                     {"ALIASED", plan.aliased ? "1" : "0"},
                     {"EW_APPROX", floats_all_half ? "1" : "0"}});
  for (std::size_t k = 0; k < call.inputs.size(); ++k) {
    d.emplace_back("IN" + std::to_string(k) + "_T", storage_name(call.inputs[k]->dtype));
    d.emplace_back("IN" + std::to_string(k) + "_KIND", std::to_string(operand_kind(call.inputs[k]->dtype, call.compute, false)));
  }
  for (std::size_t k = 0; k < call.outputs.size(); ++k) {
    const std::string o = "OUT" + std::to_string(k);
    const DType t = call.outputs[k]->dtype;
    d.emplace_back(o + "_T", storage_name(t));
    const int kind = operand_kind(t, call.compute, true);
    d.emplace_back(o + "_KIND", std::to_string(kind));
    if (kind == 2) {
      auto [lo, hi] = integer_limits(t);
      d.emplace_back(o + "_LO", lo);
      d.emplace_back(o + "_HI", hi);
    }
  }
  const std::string label = "elementwise/elementwise.cl";
  const std::string text = "#define EW_BODY " + call.body + "\n#line 1 \"" + label + "\"\n" +
                           std::string(kernel_source(label));
  return {label, text, d};
}

Event run_elementwise(const Queue& q, const ElementwiseCall& call, const WaitList& wait, const Params* forced) {
  if (call.inputs.size() > 4 || call.outputs.empty() || call.outputs.size() > 2)
    throw Error(Status::InvalidArgument, call.what + ": 0..4 inputs and 1..2 outputs are supported");
  const ElementwisePlan plan = plan_elementwise(call.what.c_str(), q, call.inputs, call.outputs);
  if (plan.n == 0) return Event();
  const Capabilities& caps = q.device().caps();
  const ElementwiseFamily& fam = static_cast<const ElementwiseFamily&>(find_family("elementwise"));
  const Problem pr = elementwise_problem(call, plan);
  const Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
  const ElementwiseSource src = elementwise_source(call, plan, p, pr);
  ProgramPtr prog = get_program_from_text(*q.context().impl(), src.label, src.text, src.defines);
  KernelPtr kernel = prog->kernel("elementwise");

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

  const Geometry g = fam.geometry(p, caps, pr);
  return launch_kernel(q, *kernel, args, g, wait, &p);
}

}  // namespace optune::detail

namespace optune::detail {

// The tuner's workload for the elementwise family: gelu with given parameters.
Event launch_elementwise_tuning(const Queue& q, const Params& p, DType t, const Operand& x, const Operand& y) {
  ElementwiseCall call{"gelu", "o0 = " + substitute(unary_expression(Unary::Gelu, false), {"i0"}, {}) + ";",
                       {&x}, {&y}, {}, compute_type_of({t})};
  return run_elementwise(q, call, {}, &p);
}

}  // namespace optune::detail
