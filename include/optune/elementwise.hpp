// Element-wise operators: unary, binary (tensor or scalar operands), ternary,
// casts, and custom expressions compiled at run time. NumPy broadcasting up
// to 8 dimensions, strided views, and in-place outputs.
//
// Semantics shared by every operator:
// - Floating-point results follow IEEE: NaN inputs give NaN (relu, max and min
//   included), except where noted (comparisons give 0 for NaN, != gives 1).
// - f16 is stored as 16 bits and computed in f32; f64 needs a device with fp64.
// - Integer types (i32, i8, u8) compute in 32-bit integers and wrap when stored;
//   casts from floating point to an integer type saturate, and NaN becomes 0.
#pragma once

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "optune/runtime.hpp"

namespace optune {

// A tensor operand: a buffer view with a shape and strides in elements.
// Empty strides mean contiguous row-major; a stride may be 0 (broadcast) or
// negative. Elements reached must lie before offset + count (inside the view)
// and, going backwards through negative strides, at or after the start of the
// allocation: a reversed view puts offset at its last element.
struct Operand {
  std::shared_ptr<detail::MemImpl> mem;
  std::size_t offset = 0;  // the view's first element in the allocation
  std::size_t count = 0;   // elements the view holds
  DType dtype = DType::F32;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;

  Operand() = default;
  template <class T>
  Operand(const Buffer<T>& b)  // NOLINT: a buffer is a 1-d tensor of its size
      : mem(b.mem()), offset(b.offset()), count(b.size()), dtype(dtype_of_v<T>),
        shape{std::int64_t(b.size())} {}
  template <class T>
  Operand(const Buffer<T>& b, std::vector<std::int64_t> shp, std::vector<std::int64_t> str = {})
      : mem(b.mem()), offset(b.offset()), count(b.size()), dtype(dtype_of_v<T>), shape(std::move(shp)),
        strides(std::move(str)) {}
};

enum class Unary {
  Copy, Neg, Abs, Relu, LeakyRelu, Relu6, Elu, Selu, Gelu, GeluTanh, Silu, Mish, Sigmoid, HardSigmoid,
  HardSwish, Tanh, Softplus, Exp, Log, Sqrt, Rsqrt, Reciprocal, Square, Sin, Cos, Floor, Ceil, Round,
  Sign, Clamp
};
enum class Binary { Add, Sub, Mul, Div, Max, Min, Pow, Atan2, Prelu, Eq, Ne, Lt, Le, Gt, Ge };
// Where: y = a != 0 ? b : c.  Fma: y = a * b + c.  Addcmul: y = a + alpha * b * c.
// Clamp: y = min(max(a, b), c).
enum class Ternary { Where, Fma, Addcmul, Clamp };

std::string_view unary_name(Unary op) noexcept;
std::string_view binary_name(Binary op) noexcept;
std::string_view ternary_name(Ternary op) noexcept;

// alpha: leaky_relu slope (default 0.01), elu alpha (default 1), clamp low,
// addcmul alpha; beta: clamp high. NaN means "the operator's default".
struct OpParams {
  double alpha = std::numeric_limits<double>::quiet_NaN();
  double beta = std::numeric_limits<double>::quiet_NaN();
};

Event unary(const Queue& q, Unary op, const Operand& x, const Operand& y, OpParams p = {}, const WaitList& wait = {});
Event binary(const Queue& q, Binary op, const Operand& a, const Operand& b, const Operand& y,
             const WaitList& wait = {});
// A scalar operand on either side (y = a op s, or y = s op b).
Event binary(const Queue& q, Binary op, const Operand& a, double s, const Operand& y, const WaitList& wait = {});
Event binary(const Queue& q, Binary op, double s, const Operand& b, const Operand& y, const WaitList& wait = {});
Event ternary(const Queue& q, Ternary op, const Operand& a, const Operand& b, const Operand& c, const Operand& y,
              OpParams p = {}, const WaitList& wait = {});
// y = x converted to y's data type.
Event cast(const Queue& q, const Operand& x, const Operand& y, const WaitList& wait = {});

// A custom element-wise kernel from OpenCL C statements over the compute type
// `real` (float; double when an operand is f64), for example
//   "y = x > 0 ? x : a * x"   or   "real t = x + b; y = t * t"
// Inputs are named by input_names (default x, b, c, d for 1..4 inputs),
// outputs by output_names (default y, z; at most 2), scalars by the map's
// keys. Temporaries are declared with type `real`. A bad expression raises
// Error(BuildFailure) carrying the compiler's message.
struct Expression {
  std::string code;
  std::vector<std::string> input_names;
  std::vector<std::string> output_names;
};
Event elementwise(const Queue& q, const Expression& expr, const std::vector<Operand>& inputs,
                  const std::vector<Operand>& outputs, const std::map<std::string, double>& scalars = {},
                  const WaitList& wait = {});
Event elementwise(const Queue& q, const std::string& code, const std::vector<Operand>& inputs,
                  const std::vector<Operand>& outputs, const std::map<std::string, double>& scalars = {},
                  const WaitList& wait = {});

// Fusion of a chain: each step applies one operator to the running value
// (named v) and, for binary steps, the next extra input; one kernel, one pass.
// Example: bias add then gelu = {{Binary::Add}, {Unary::Gelu}} with inputs {x, bias}.
struct Step {
  enum class Kind { Unary, Binary, Scalar } kind;
  Unary unary = Unary::Copy;
  Binary binary = Binary::Add;
  double scalar = 0;  // Kind::Scalar: v = v op scalar
  OpParams params;
  Step(Unary u, OpParams p = {}) : kind(Kind::Unary), unary(u), params(p) {}     // NOLINT
  Step(Binary b) : kind(Kind::Binary), binary(b) {}                              // NOLINT
  Step(Binary b, double s) : kind(Kind::Scalar), binary(b), scalar(s) {}
};
Event fused(const Queue& q, const std::vector<Step>& chain, const std::vector<Operand>& inputs, const Operand& y,
            const WaitList& wait = {});

}  // namespace optune
