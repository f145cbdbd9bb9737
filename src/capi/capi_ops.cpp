// C API: element-wise operators, custom expressions, reductions, softmax and
// the norms. Each converts its arguments and calls the C++ operator, which
// validates them.
#include <set>

#include "capi/capi.hpp"

using namespace optune;
using namespace optune::capi;

namespace {

Unary unary_op(optune_unary_op op, const char* fn) {
  return need_enum<Unary>(int(op), int(Unary::Clamp), (std::string(fn) + ": operator").c_str());
}
Binary binary_op(optune_binary_op op, const char* fn) {
  return need_enum<Binary>(int(op), int(Binary::Ge), (std::string(fn) + ": operator").c_str());
}

// names[count] as strings; NULL names means the defaults (an empty list).
std::vector<std::string> names(const char* const* list, std::size_t count, const char* what) {
  std::vector<std::string> out;
  if (!list) return out;
  for (std::size_t i = 0; i < count; ++i) {
    if (!list[i]) invalid(std::string(what) + "[" + std::to_string(i) + "] is NULL");
    out.emplace_back(list[i]);
  }
  return out;
}

std::vector<Operand> operands(const optune_tensor* list, std::size_t count, const std::string& what) {
  if (count && !list) invalid(what + " is NULL with a count of " + std::to_string(count));
  std::vector<Operand> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(elementwise_operand(&list[i], what + "[" + std::to_string(i) + "]"));
  return out;
}

}  // namespace

extern "C" {

optune_status optune_unary(optune_queue queue, optune_unary_op op, const optune_tensor* x, const optune_tensor* y,
                           const optune_op_params* params, const optune_event* wait, size_t wait_count,
                           optune_event* event) {
  static const char* fn = "optune_unary";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    const Unary u = unary_op(op, fn);
    out.set(unary(q, u, elementwise_operand(x, "optune_unary: x"), elementwise_operand(y, "optune_unary: y"), op_params(params),
                  wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_binary(optune_queue queue, optune_binary_op op, const optune_tensor* a, const optune_tensor* b,
                            const optune_tensor* y, const optune_event* wait, size_t wait_count,
                            optune_event* event) {
  static const char* fn = "optune_binary";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    const Binary o = binary_op(op, fn);
    out.set(binary(q, o, elementwise_operand(a, "optune_binary: a"), elementwise_operand(b, "optune_binary: b"),
                   elementwise_operand(y, "optune_binary: y"), wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_binary_tensor_scalar(optune_queue queue, optune_binary_op op, const optune_tensor* a, double s,
                                          const optune_tensor* y, const optune_event* wait, size_t wait_count,
                                          optune_event* event) {
  static const char* fn = "optune_binary_tensor_scalar";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    const Binary o = binary_op(op, fn);
    out.set(binary(q, o, elementwise_operand(a, "optune_binary_tensor_scalar: a"), s, elementwise_operand(y, "optune_binary_tensor_scalar: y"),
                   wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_binary_scalar_tensor(optune_queue queue, optune_binary_op op, double s, const optune_tensor* b,
                                          const optune_tensor* y, const optune_event* wait, size_t wait_count,
                                          optune_event* event) {
  static const char* fn = "optune_binary_scalar_tensor";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    const Binary o = binary_op(op, fn);
    out.set(binary(q, o, s, elementwise_operand(b, "optune_binary_scalar_tensor: b"), elementwise_operand(y, "optune_binary_scalar_tensor: y"),
                   wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_ternary(optune_queue queue, optune_ternary_op op, const optune_tensor* a, const optune_tensor* b,
                             const optune_tensor* c, const optune_tensor* y, const optune_op_params* params,
                             const optune_event* wait, size_t wait_count, optune_event* event) {
  static const char* fn = "optune_ternary";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    const Ternary t = need_enum<Ternary>(int(op), int(Ternary::Clamp), "optune_ternary: operator");
    out.set(ternary(q, t, elementwise_operand(a, "optune_ternary: a"), elementwise_operand(b, "optune_ternary: b"),
                    elementwise_operand(c, "optune_ternary: c"), elementwise_operand(y, "optune_ternary: y"), op_params(params),
                    wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_cast(optune_queue queue, const optune_tensor* x, const optune_tensor* y,
                          const optune_event* wait, size_t wait_count, optune_event* event) {
  static const char* fn = "optune_cast";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    out.set(cast(q, elementwise_operand(x, "optune_cast: x"), elementwise_operand(y, "optune_cast: y"), wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_elementwise(optune_queue queue, const char* code, const optune_tensor* inputs,
                                 size_t input_count, const char* const* input_names, const optune_tensor* outputs,
                                 size_t output_count, const char* const* output_names,
                                 const char* const* scalar_names, const double* scalar_values, size_t scalar_count,
                                 const optune_event* wait, size_t wait_count, optune_event* event) {
  static const char* fn = "optune_elementwise";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    if (!code) invalid("optune_elementwise: code is NULL");
    Expression e{code, names(input_names, input_count, "optune_elementwise: input_names"),
                 names(output_names, output_count, "optune_elementwise: output_names")};
    if (scalar_count && (!scalar_names || !scalar_values))
      invalid("optune_elementwise: scalar_names or scalar_values is NULL with scalar_count " +
              std::to_string(scalar_count));
    std::map<std::string, double> scalars;
    for (std::size_t i = 0; i < scalar_count; ++i) {
      if (!scalar_names[i]) invalid("optune_elementwise: scalar_names[" + std::to_string(i) + "] is NULL");
      if (!scalars.emplace(scalar_names[i], scalar_values[i]).second)
        invalid("optune_elementwise: scalar name '" + std::string(scalar_names[i]) + "' repeats");
    }
    out.set(elementwise(q, e, operands(inputs, input_count, "optune_elementwise: inputs"),
                        operands(outputs, output_count, "optune_elementwise: outputs"), scalars,
                        wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_reduce(optune_queue queue, optune_reduce_op op, const optune_tensor* x, const int* axes,
                            size_t axis_count, int keepdims, const optune_tensor* y, const optune_event* wait,
                            size_t wait_count, optune_event* event) {
  static const char* fn = "optune_reduce";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    const ReduceOp r = need_enum<ReduceOp>(int(op), int(ReduceOp::All), "optune_reduce: operator");
    if (axis_count && !axes) invalid("optune_reduce: axes is NULL with axis_count " + std::to_string(axis_count));
    std::vector<int> ax(axes, axes + axis_count);
    out.set(reduce(q, r, operand(x, "optune_reduce: x"), std::move(ax), keepdims != 0, operand(y, "optune_reduce: y"),
                   wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_softmax(optune_queue queue, const optune_tensor* x, int axis, const optune_tensor* y,
                             const optune_event* wait, size_t wait_count, optune_event* event) {
  static const char* fn = "optune_softmax";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    out.set(softmax(q, operand(x, "optune_softmax: x"), axis, operand(y, "optune_softmax: y"),
                    wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_log_softmax(optune_queue queue, const optune_tensor* x, int axis, const optune_tensor* y,
                                 const optune_event* wait, size_t wait_count, optune_event* event) {
  static const char* fn = "optune_log_softmax";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    out.set(log_softmax(q, operand(x, "optune_log_softmax: x"), axis, operand(y, "optune_log_softmax: y"),
                        wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_layer_norm(optune_queue queue, const optune_tensor* x, const optune_tensor* gamma,
                                const optune_tensor* beta, double eps, const optune_tensor* y,
                                const optune_tensor* mean_out, const optune_tensor* rstd_out,
                                const optune_event* wait, size_t wait_count, optune_event* event) {
  static const char* fn = "optune_layer_norm";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    out.set(layer_norm(q, operand(x, "optune_layer_norm: x"), optional_operand(gamma, "optune_layer_norm: gamma"),
                       optional_operand(beta, "optune_layer_norm: beta"), eps, operand(y, "optune_layer_norm: y"),
                       optional_operand(mean_out, "optune_layer_norm: mean_out"),
                       optional_operand(rstd_out, "optune_layer_norm: rstd_out"), wait_list(wait, wait_count, fn)));
  });
}

optune_status optune_rms_norm(optune_queue queue, const optune_tensor* x, const optune_tensor* gamma, double eps,
                              const optune_tensor* y, const optune_event* wait, size_t wait_count,
                              optune_event* event) {
  static const char* fn = "optune_rms_norm";
  return guard([&] {
    EventOut out(event);
    const Queue& q = need_queue(queue, fn);
    out.set(rms_norm(q, operand(x, "optune_rms_norm: x"), optional_operand(gamma, "optune_rms_norm: gamma"), eps,
                     operand(y, "optune_rms_norm: y"), wait_list(wait, wait_count, fn)));
  });
}

}  // extern "C"
