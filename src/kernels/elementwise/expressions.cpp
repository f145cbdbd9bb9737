// Each element-wise operator as an expression over its operands. Floating
// forms propagate NaN (relu, max, min, clamp included) and avoid cancellation
// in tails (gelu through erfc, gelu_tanh as x * sigmoid(2u)).
#include <cctype>

#include "kernels/elementwise/expressions.hpp"

namespace optune::detail {

const char* unary_expression(Unary op, bool integer) {
  if (integer) {
    switch (op) {
      case Unary::Copy: return "A";
      case Unary::Neg: return "(-A)";
      case Unary::Abs: return "(A < 0 ? -A : A)";
      case Unary::Relu: return "(A > 0 ? A : 0)";
      case Unary::Relu6: return "(A < 0 ? 0 : A > 6 ? 6 : A)";
      case Unary::Square: return "(A * A)";
      case Unary::Sign: return "(A > 0 ? 1 : A < 0 ? -1 : 0)";
      case Unary::Clamp: return "(A < P0 ? P0 : A > P1 ? P1 : A)";
      default: return nullptr;
    }
  }
  switch (op) {
    case Unary::Copy: return "A";
    case Unary::Neg: return "(-A)";
    case Unary::Abs: return "fabs(A)";
    case Unary::Relu: return "(A > (real)0 || A != A ? A : (real)0)";
    case Unary::LeakyRelu: return "(A > (real)0 || A != A ? A : P0 * A)";
    case Unary::Relu6: return "(A != A ? A : fmin(fmax(A, (real)0), (real)6))";
    case Unary::Elu: return "(A > (real)0 ? A : P0 * expm1(A))";
    case Unary::Selu: return "((real)1.0507009873554805 * (A > (real)0 ? A : (real)1.6732632423543772 * expm1(A)))";
    case Unary::Gelu: return "((real)0.5 * A * ew_erfc(-A * (real)0.70710678118654752))";
    case Unary::GeluTanh:
      return "(A / ((real)1 + exp((real)-1.5957691216057308 * (A + (real)0.044715 * A * A * A))))";
    case Unary::Silu: return "(A / ((real)1 + exp(-A)))";
    case Unary::Mish: return "(A * tanh(A > (real)20 ? A : log1p(exp(A))))";
    case Unary::Sigmoid: return "((real)1 / ((real)1 + exp(-A)))";
    case Unary::HardSigmoid: return "(A != A ? A : fmin(fmax((A + (real)3) / (real)6, (real)0), (real)1))";
    case Unary::HardSwish: return "(A * (A != A ? A : fmin(fmax((A + (real)3) / (real)6, (real)0), (real)1)))";
    case Unary::Tanh: return "tanh(A)";
    case Unary::Softplus: return "(A > (real)20 ? A : log1p(exp(A)))";
    case Unary::Exp: return "exp(A)";
    case Unary::Log: return "log(A)";
    case Unary::Sqrt: return "sqrt(A)";
    case Unary::Rsqrt: return "rsqrt(A)";
    case Unary::Reciprocal: return "((real)1 / A)";
    case Unary::Square: return "(A * A)";
    case Unary::Sin: return "sin(A)";
    case Unary::Cos: return "cos(A)";
    case Unary::Floor: return "floor(A)";
    case Unary::Ceil: return "ceil(A)";
    case Unary::Round: return "rint(A)";
    case Unary::Sign: return "(A > (real)0 ? (real)1 : A < (real)0 ? (real)-1 : A)";
    case Unary::Clamp: return "(A != A ? A : fmin(fmax(A, P0), P1))";
  }
  return nullptr;
}

const char* binary_expression(Binary op, bool integer) {
  switch (op) {
    case Binary::Add: return "(A + B)";
    case Binary::Sub: return "(A - B)";
    case Binary::Mul: return "(A * B)";
    case Binary::Div: return integer ? nullptr : "(A / B)";
    case Binary::Max: return integer ? "(A > B ? A : B)" : "(A > B || A != A ? A : B)";
    case Binary::Min: return integer ? "(A < B ? A : B)" : "(A < B || A != A ? A : B)";
    case Binary::Pow: return integer ? nullptr : "pow(A, B)";
    case Binary::Atan2: return integer ? nullptr : "atan2(A, B)";
    case Binary::Prelu: return integer ? "(A > 0 ? A : B * A)" : "(A > (real)0 || A != A ? A : B * A)";
    case Binary::Eq: return "(A == B ? (real)1 : (real)0)";
    case Binary::Ne: return "(A != B ? (real)1 : (real)0)";
    case Binary::Lt: return "(A < B ? (real)1 : (real)0)";
    case Binary::Le: return "(A <= B ? (real)1 : (real)0)";
    case Binary::Gt: return "(A > B ? (real)1 : (real)0)";
    case Binary::Ge: return "(A >= B ? (real)1 : (real)0)";
  }
  return nullptr;
}

const char* ternary_expression(Ternary op, bool integer) {
  switch (op) {
    case Ternary::Where: return "(A != (real)0 ? B : C)";
    case Ternary::Fma: return integer ? "(A * B + C)" : "fma(A, B, C)";
    case Ternary::Addcmul: return "(A + P0 * B * C)";
    // min(max(a, b), c): c wherever b > c, as for floats.
    case Ternary::Clamp: return integer ? "(A < B ? (B < C ? B : C) : A < C ? A : C)" : "(A != A ? A : fmin(fmax(A, B), C))";
  }
  return nullptr;
}

std::string substitute(const std::string& tmpl, const std::vector<std::string>& operands,
                       const std::vector<std::string>& params) {
  std::string out;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < tmpl.size();) {
    if (!ident(tmpl[i])) {
      out += tmpl[i++];
      continue;
    }
    std::size_t j = i;
    while (j < tmpl.size() && ident(tmpl[j])) ++j;
    const std::string tok = tmpl.substr(i, j - i);
    if (tok.size() == 1 && tok[0] >= 'A' && tok[0] <= 'C' && std::size_t(tok[0] - 'A') < operands.size())
      out += "(" + operands[std::size_t(tok[0] - 'A')] + ")";
    else if (tok.size() == 2 && tok[0] == 'P' && std::isdigit(static_cast<unsigned char>(tok[1])) &&
             std::size_t(tok[1] - '0') < params.size())
      out += "(" + params[std::size_t(tok[1] - '0')] + ")";
    else
      out += tok;
    i = j;
  }
  return out;
}

std::string gelu_body() { return substitute(unary_expression(Unary::Gelu, false), {"i0"}, {}); }

}  // namespace optune::detail
