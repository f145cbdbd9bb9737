// The operators, with the C++ API's names and options (include/optune/
// elementwise.hpp, reduce.hpp, gemm.hpp, conv.hpp). Each returns a new tensor, or
// writes into out= and returns it. Arguments are checked by the library
// before any device work; the GIL is released while a call enqueues (a first
// call may compile) and while it waits.
#include <algorithm>
#include <chrono>
#include <map>

#include "tensor.hpp"

namespace optune::python {

namespace {

template <class E, class NameFn>
std::map<std::string, E> names_of(E last, NameFn name) {
  std::map<std::string, E> m;
  for (int i = 0; i <= int(last); ++i) m.emplace(std::string(name(E(i))), E(i));
  return m;
}

template <class E>
E lookup(const std::map<std::string, E>& table, const std::string& name, const char* what) {
  auto it = table.find(name);
  if (it != table.end()) return it->second;
  std::string known;
  for (const auto& [k, v] : table) known += (known.empty() ? "" : ", ") + k;
  throw Error(Status::InvalidArgument, std::string(what) + ": unknown operator '" + name + "' (one of " + known + ")");
}

const std::map<std::string, Unary>& unary_ops() {
  static const auto m = names_of(Unary::Clamp, unary_name);
  return m;
}
const std::map<std::string, Binary>& binary_ops() {
  static const auto m = names_of(Binary::Ge, binary_name);
  return m;
}
const std::map<std::string, Ternary>& ternary_ops() {
  static const auto m = names_of(Ternary::Clamp, ternary_name);
  return m;
}
const std::map<std::string, ReduceOp>& reduce_ops() {
  static const auto m = names_of(ReduceOp::All, reduce_op_name);
  return m;
}

template <class E>
std::vector<std::string> keys_of(const std::map<std::string, E>& table) {
  std::vector<std::string> v;
  for (const auto& [k, e] : table) v.push_back(k);
  return v;
}

TensorPtr as_tensor(const py::handle& h, const char* what) {
  if (!py::isinstance<Tensor>(h))
    throw Error(Status::InvalidType, std::string(what) + " must be an optune.Tensor, not " +
                                         std::string(py::str(py::type::of(h).attr("__name__"))));
  return h.cast<TensorPtr>();
}

std::optional<TensorPtr> optional_tensor(const py::object& h, const char* what) {
  if (h.is_none()) return std::nullopt;
  return as_tensor(h, what);
}

void same_device(const DevicePtr& dev, const Tensor& t, const char* what) {
  if (t.dev != dev)
    throw Error(Status::InvalidArgument, std::string(what) + " is on " + t.dev->device.spec() +
                                             ", the call's other operands on " + dev->device.spec());
}

std::vector<std::int64_t> broadcast(const std::vector<std::vector<std::int64_t>>& shapes) {
  std::size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<std::int64_t> out(rank, 1);
  for (const auto& s : shapes) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      auto& o = out[rank - s.size() + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o != 1) {
        std::string text;
        for (const auto& t : shapes) {
          text += text.empty() ? "(" : " and (";
          for (std::size_t j = 0; j < t.size(); ++j) text += (j ? ", " : "") + std::to_string(t[j]);
          text += ")";
        }
        throw Error(Status::InvalidShape, "shapes " + text + " do not broadcast");
      }
      o = s[i];
    }
  }
  return out;
}

// out= if given (on the call's device), else a new tensor.
TensorPtr output(const py::object& out, const DevicePtr& dev, DType dtype, const std::vector<std::int64_t>& shape) {
  if (out.is_none()) return allocate(dev, dtype, shape);
  TensorPtr t = as_tensor(out, "out");
  same_device(dev, *t, "out");
  return t;
}

// Runs fn (which enqueues) with the GIL released, then waits where a tensor
// is host memory.
template <class Fn>
void run(const std::vector<const Tensor*>& tensors, Fn&& fn) {
  Event e;
  {
    py::gil_scoped_release release;
    e = fn();
  }
  finish_call(e, tensors);
}

OpParams params(const py::object& alpha, const py::object& beta) {
  OpParams p;
  if (!alpha.is_none()) p.alpha = alpha.cast<double>();
  if (!beta.is_none()) p.beta = beta.cast<double>();
  return p;
}

bool is_scalar(const py::handle& h) {
  return py::isinstance<py::float_>(h) || py::isinstance<py::int_>(h) || py::isinstance<py::bool_>(h);
}

TensorPtr py_unary(const std::string& name, const py::object& x_obj, const py::object& out, const py::object& alpha,
                   const py::object& beta) {
  const Unary op = lookup(unary_ops(), name, "unary");
  TensorPtr x = as_tensor(x_obj, "x");
  TensorPtr y = output(out, x->dev, x->dtype, x->shape);
  const OpParams p = params(alpha, beta);
  run({x.get(), y.get()}, [&] { return optune::unary(x->dev->queue(), op, x->operand(), y->operand(), p); });
  return y;
}

TensorPtr py_binary(const std::string& name, const py::object& a_obj, const py::object& b_obj, const py::object& out) {
  const Binary op = lookup(binary_ops(), name, "binary");
  const bool comparison = op >= Binary::Eq;
  const bool a_scalar = is_scalar(a_obj), b_scalar = is_scalar(b_obj);
  if (a_scalar && b_scalar) throw Error(Status::InvalidType, name + ": at least one operand must be a tensor");
  if (a_scalar || b_scalar) {
    TensorPtr t = as_tensor(a_scalar ? b_obj : a_obj, a_scalar ? "b" : "a");
    const double s = (a_scalar ? a_obj : b_obj).cast<double>();
    TensorPtr y = output(out, t->dev, comparison ? DType::U8 : t->dtype, t->shape);
    run({t.get(), y.get()}, [&] {
      return a_scalar ? optune::binary(t->dev->queue(), op, s, t->operand(), y->operand())
                      : optune::binary(t->dev->queue(), op, t->operand(), s, y->operand());
    });
    return y;
  }
  TensorPtr a = as_tensor(a_obj, "a"), b = as_tensor(b_obj, "b");
  same_device(a->dev, *b, "b");
  TensorPtr y = output(out, a->dev, comparison ? DType::U8 : a->dtype, broadcast({a->shape, b->shape}));
  run({a.get(), b.get(), y.get()},
      [&] { return optune::binary(a->dev->queue(), op, a->operand(), b->operand(), y->operand()); });
  return y;
}

TensorPtr py_ternary(const std::string& name, const py::object& a_obj, const py::object& b_obj,
                     const py::object& c_obj, const py::object& out, const py::object& alpha) {
  const Ternary op = lookup(ternary_ops(), name, "ternary");
  TensorPtr a = as_tensor(a_obj, "a"), b = as_tensor(b_obj, "b"), c = as_tensor(c_obj, "c");
  same_device(a->dev, *b, "b");
  same_device(a->dev, *c, "c");
  TensorPtr y = output(out, a->dev, b->dtype, broadcast({a->shape, b->shape, c->shape}));
  const OpParams p = params(alpha, py::none());
  run({a.get(), b.get(), c.get(), y.get()}, [&] {
    return optune::ternary(a->dev->queue(), op, a->operand(), b->operand(), c->operand(), y->operand(), p);
  });
  return y;
}

TensorPtr py_cast(const py::object& x_obj, const py::object& dtype, const py::object& out) {
  TensorPtr x = as_tensor(x_obj, "x");
  if (dtype.is_none() && out.is_none()) throw Error(Status::InvalidArgument, "cast: give dtype or out");
  TensorPtr y = output(out, x->dev, dtype.is_none() ? x->dtype : dtype_from_python(dtype), x->shape);
  run({x.get(), y.get()}, [&] { return optune::cast(x->dev->queue(), x->operand(), y->operand()); });
  return y;
}

std::vector<TensorPtr> tensor_list(const py::object& seq, const char* what) {
  std::vector<TensorPtr> v;
  for (auto h : seq) v.push_back(as_tensor(h, what));
  return v;
}

py::object py_elementwise(const std::string& code, const py::object& inputs_obj, const py::object& out,
                          const py::object& scalars_obj, const py::object& input_names,
                          const py::object& output_names, int outputs_count, const py::object& dtype) {
  std::vector<TensorPtr> inputs = tensor_list(inputs_obj, "inputs");
  if (inputs.empty()) throw Error(Status::InvalidArgument, "elementwise: at least one input tensor");
  const DevicePtr dev = inputs[0]->dev;
  std::vector<std::vector<std::int64_t>> shapes;
  for (const auto& t : inputs) {
    same_device(dev, *t, "inputs");
    shapes.push_back(t->shape);
  }
  std::vector<TensorPtr> outputs;
  const bool single_out = !out.is_none() && py::isinstance<Tensor>(out);
  if (out.is_none()) {
    if (outputs_count < 1) throw Error(Status::InvalidArgument, "elementwise: outputs must be at least 1");
    const auto shape = broadcast(shapes);
    const DType t = dtype.is_none() ? inputs[0]->dtype : dtype_from_python(dtype);
    for (int i = 0; i < outputs_count; ++i) outputs.push_back(allocate(dev, t, shape));
  } else if (single_out) {
    outputs.push_back(as_tensor(out, "out"));
  } else {
    outputs = tensor_list(out, "out");
  }
  for (const auto& t : outputs) same_device(dev, *t, "out");
  Expression expr;
  expr.code = code;
  if (!input_names.is_none()) expr.input_names = input_names.cast<std::vector<std::string>>();
  if (!output_names.is_none()) expr.output_names = output_names.cast<std::vector<std::string>>();
  std::map<std::string, double> scalars;
  if (!scalars_obj.is_none()) scalars = scalars_obj.cast<std::map<std::string, double>>();
  std::vector<Operand> in_ops, out_ops;
  std::vector<const Tensor*> all;
  for (const auto& t : inputs) in_ops.push_back(t->operand()), all.push_back(t.get());
  for (const auto& t : outputs) out_ops.push_back(t->operand()), all.push_back(t.get());
  run(all, [&] { return optune::elementwise(dev->queue(), expr, in_ops, out_ops, scalars); });
  if (outputs.size() == 1) return py::cast(outputs[0]);
  return py::tuple(py::cast(outputs));
}

Step step_from_python(const py::handle& h) {
  if (py::isinstance<py::str>(h)) {
    const auto name = h.cast<std::string>();
    if (unary_ops().count(name)) return Step(unary_ops().at(name));
    return Step(lookup(binary_ops(), name, "fused"));
  }
  auto t = h.cast<py::tuple>();
  if (t.size() < 2) throw Error(Status::InvalidArgument, "fused: a step is a name or (name, value[, value])");
  const auto name = t[0].cast<std::string>();
  if (unary_ops().count(name)) {
    OpParams p;
    p.alpha = t[1].cast<double>();
    if (t.size() > 2) p.beta = t[2].cast<double>();
    return Step(unary_ops().at(name), p);
  }
  return Step(lookup(binary_ops(), name, "fused"), t[1].cast<double>());
}

TensorPtr py_fused(const py::object& chain_obj, const py::object& inputs_obj, const py::object& out) {
  std::vector<Step> chain;
  for (auto h : chain_obj) chain.push_back(step_from_python(h));
  std::vector<TensorPtr> inputs = tensor_list(inputs_obj, "inputs");
  if (inputs.empty()) throw Error(Status::InvalidArgument, "fused: at least one input tensor");
  std::vector<std::vector<std::int64_t>> shapes;
  for (const auto& t : inputs) same_device(inputs[0]->dev, *t, "inputs"), shapes.push_back(t->shape);
  TensorPtr y = output(out, inputs[0]->dev, inputs[0]->dtype, broadcast(shapes));
  std::vector<Operand> ops;
  std::vector<const Tensor*> all{y.get()};
  for (const auto& t : inputs) ops.push_back(t->operand()), all.push_back(t.get());
  run(all, [&] { return optune::fused(y->dev->queue(), chain, ops, y->operand()); });
  return y;
}

TensorPtr py_reduce(const std::string& name, const py::object& x_obj, const py::object& axis, bool keepdims,
                    const py::object& out) {
  const ReduceOp op = lookup(reduce_ops(), name, "reduce");
  TensorPtr x = as_tensor(x_obj, "x");
  std::vector<int> axes;
  if (py::isinstance<py::int_>(axis)) axes.push_back(axis.cast<int>());
  else if (!axis.is_none()) axes = axis.cast<std::vector<int>>();
  // The output's shape (the library checks axes and repeats itself).
  const int rank = int(std::max<std::size_t>(x->shape.size(), 1));
  std::vector<bool> reduced(rank, axes.empty());
  for (int a : axes) {
    const int n = a < 0 ? a + rank : a;
    if (n >= 0 && n < rank) reduced[n] = true;
  }
  std::vector<std::int64_t> shape;
  for (int i = 0; i < int(x->shape.size()); ++i) {
    if (!reduced[i]) shape.push_back(x->shape[i]);
    else if (keepdims) shape.push_back(1);
  }
  const DType t = op == ReduceOp::ArgMax || op == ReduceOp::ArgMin ? DType::I32
                  : op == ReduceOp::Any || op == ReduceOp::All     ? DType::U8
                                                                   : x->dtype;
  TensorPtr y = output(out, x->dev, t, shape);
  run({x.get(), y.get()}, [&] { return optune::reduce(x->dev->queue(), op, x->operand(), axes, keepdims, y->operand()); });
  return y;
}

TensorPtr py_softmax(const py::object& x_obj, int axis, const py::object& out, bool log) {
  TensorPtr x = as_tensor(x_obj, "x");
  TensorPtr y = output(out, x->dev, x->dtype, x->shape);
  run({x.get(), y.get()}, [&] {
    return log ? optune::log_softmax(x->dev->queue(), x->operand(), axis, y->operand())
               : optune::softmax(x->dev->queue(), x->operand(), axis, y->operand());
  });
  return y;
}

std::optional<Operand> optional_operand(const std::optional<TensorPtr>& t, const DevicePtr& dev, const char* what) {
  if (!t) return std::nullopt;
  same_device(dev, **t, what);
  return (*t)->operand();
}

TensorPtr py_layer_norm(const py::object& x_obj, const py::object& gamma, const py::object& beta, double eps,
                        const py::object& out, const py::object& mean_out, const py::object& rstd_out) {
  TensorPtr x = as_tensor(x_obj, "x");
  auto g = optional_tensor(gamma, "gamma"), b = optional_tensor(beta, "beta");
  auto mo = optional_tensor(mean_out, "mean_out"), ro = optional_tensor(rstd_out, "rstd_out");
  TensorPtr y = output(out, x->dev, x->dtype, x->shape);
  auto go = optional_operand(g, x->dev, "gamma"), bo = optional_operand(b, x->dev, "beta");
  auto moo = optional_operand(mo, x->dev, "mean_out"), roo = optional_operand(ro, x->dev, "rstd_out");
  std::vector<const Tensor*> all{x.get(), y.get()};
  for (const auto* t : {&g, &b, &mo, &ro})
    if (*t) all.push_back(t->value().get());
  run(all, [&] { return optune::layer_norm(x->dev->queue(), x->operand(), go, bo, eps, y->operand(), moo, roo); });
  return y;
}

TensorPtr py_rms_norm(const py::object& x_obj, const py::object& gamma, double eps, const py::object& out) {
  TensorPtr x = as_tensor(x_obj, "x");
  auto g = optional_tensor(gamma, "gamma");
  TensorPtr y = output(out, x->dev, x->dtype, x->shape);
  auto go = optional_operand(g, x->dev, "gamma");
  run({x.get(), y.get(), g ? g->get() : nullptr},
      [&] { return optune::rms_norm(x->dev->queue(), x->operand(), go, eps, y->operand()); });
  return y;
}

// ---- conv2d ----

// An int, or a sequence of `n` ints (or of `n_alt`: padding takes 2 or 4).
std::vector<std::int64_t> ints(const py::object& o, std::size_t n, std::size_t n_alt, const char* what) {
  if (py::isinstance<py::int_>(o)) return std::vector<std::int64_t>(n, o.cast<std::int64_t>());
  std::vector<std::int64_t> v;
  try {
    v = o.cast<std::vector<std::int64_t>>();
  } catch (const py::cast_error&) {
    throw Error(Status::InvalidArgument, std::string("conv2d: ") + what + " must be an int or a sequence of ints");
  }
  if (v.size() != n && v.size() != n_alt)
    throw Error(Status::InvalidArgument, std::string("conv2d: ") + what + " takes " + std::to_string(n) +
                                             (n_alt != n ? " or " + std::to_string(n_alt) : "") + " values, not " +
                                             std::to_string(v.size()));
  return v;
}

ConvLayout conv_layout(const std::string& s, const char* what) {
  if (s == "nchw" || s == "NCHW") return ConvLayout::NCHW;
  if (s == "nhwc" || s == "NHWC") return ConvLayout::NHWC;
  throw Error(Status::InvalidArgument, std::string("conv2d: ") + what + " must be 'nchw' or 'nhwc', not '" + s + "'");
}

TensorPtr py_conv2d(const py::object& x_obj, const py::object& w_obj, const py::object& bias_obj,
                    const py::object& residual_obj, const py::object& stride, const py::object& padding,
                    const py::object& dilation, std::int64_t groups, const std::string& layout,
                    const py::object& out_layout, const std::string& activation, const py::object& act_alpha,
                    const py::object& act_beta, const py::object& out, const std::string& accumulate) {
  TensorPtr x = as_tensor(x_obj, "x"), w = as_tensor(w_obj, "weight");
  same_device(x->dev, *w, "weight");
  if (x->shape.size() != 4)
    throw Error(Status::InvalidShape, "conv2d: x must be 4-d ((N, C, H, W) or (N, H, W, C)), not " +
                                          std::to_string(x->shape.size()) + "-d");
  if (w->shape.size() != 4)
    throw Error(Status::InvalidShape, "conv2d: weight must be 4-d (K, C / groups, R, S), not " +
                                          std::to_string(w->shape.size()) + "-d");
  Conv2dDesc d;
  d.input_layout = conv_layout(layout, "layout");
  d.output_layout = out_layout.is_none() ? d.input_layout : conv_layout(out_layout.cast<std::string>(), "out_layout");
  const bool nhwc = d.input_layout == ConvLayout::NHWC;
  d.batch = x->shape[0];
  d.in_channels = x->shape[nhwc ? 3 : 1];
  d.in_height = x->shape[nhwc ? 1 : 2];
  d.in_width = x->shape[nhwc ? 2 : 3];
  d.out_channels = w->shape[0];
  d.kernel_h = w->shape[2], d.kernel_w = w->shape[3];
  const auto st = ints(stride, 2, 2, "stride"), di = ints(dilation, 2, 2, "dilation");
  const auto pa = ints(padding, 2, 4, "padding");  // (h, w) or (top, bottom, left, right)
  d.stride_h = st[0], d.stride_w = st[1], d.dilation_h = di[0], d.dilation_w = di[1];
  if (pa.size() == 2) d.pad_top = d.pad_bottom = pa[0], d.pad_left = d.pad_right = pa[1];
  else d.pad_top = pa[0], d.pad_bottom = pa[1], d.pad_left = pa[2], d.pad_right = pa[3];
  d.groups = groups;
  d.validate();
  const std::int64_t oh = d.out_height(), ow = d.out_width();
  const std::vector<std::int64_t> y_shape = d.output_layout == ConvLayout::NHWC
                                                ? std::vector<std::int64_t>{d.batch, oh, ow, d.out_channels}
                                                : std::vector<std::int64_t>{d.batch, d.out_channels, oh, ow};
  TensorPtr y = output(out, x->dev, x->dtype, y_shape);
  auto b = optional_tensor(bias_obj, "bias"), r = optional_tensor(residual_obj, "residual");
  Conv2dOptions o;
  o.bias = optional_operand(b, x->dev, "bias");
  o.residual = optional_operand(r, x->dev, "residual");
  o.activation = lookup(unary_ops(), activation, "conv2d activation");
  o.activation_params = params(act_alpha, act_beta);
  if (accumulate == "f32") o.accumulate = Accumulate::F32;
  else if (accumulate != "default")
    throw Error(Status::InvalidArgument, "conv2d: accumulate must be 'default' or 'f32', not '" + accumulate + "'");
  std::vector<const Tensor*> all{x.get(), w.get(), y.get()};
  for (const auto* t : {&b, &r})
    if (*t) all.push_back(t->value().get());
  run(all, [&] { return optune::conv2d(x->dev->queue(), d, x->operand(), w->operand(), y->operand(), o); });
  return y;
}

// ---- GEMM ----

// A matrix operand (the last two axes of a tensor) as the row-major storage
// the C++ API takes: its leading dimension, whether it is stored transposed
// (a column-major view), and the stride between batch entries.
struct Matrix {
  std::int64_t rows = 0, cols = 0, ld = 1, batch = 1, batch_stride = 0;
  bool transposed = false;
};

Matrix matrix_of(const Tensor& t, const char* what) {
  const std::size_t r = t.shape.size();
  if (r != 2 && r != 3)
    throw Error(Status::InvalidShape, std::string("gemm: ") + what + " must be 2-d or 3-d (a batch), not " +
                                          std::to_string(r) + "-d");
  Matrix mx;
  mx.rows = t.shape[r - 2];
  mx.cols = t.shape[r - 1];
  const std::int64_t s0 = t.strides[r - 2], s1 = t.strides[r - 1];
  if (s1 == 1 || mx.cols == 1) {
    mx.ld = std::max<std::int64_t>({s0, mx.cols, 1});
    if (mx.rows == 1) mx.ld = std::max<std::int64_t>(mx.cols, 1);
  } else if (s0 == 1 || mx.rows == 1) {
    mx.transposed = true;
    mx.ld = std::max<std::int64_t>({s1, mx.rows, 1});
  } else {
    throw Error(Status::InvalidShape, std::string("gemm: ") + what +
                                          " must have unit stride along one of its last two axes");
  }
  if (r == 3) {
    mx.batch = t.shape[0];
    mx.batch_stride = t.strides[0];
  }
  return mx;
}

template <class T>
Event run_gemm_typed(const DevicePtr& dev, const Tensor& a, const Matrix& ma, bool ta, const Tensor& b,
                     const Matrix& mb, bool tb, const Tensor& c, const Matrix& mc, std::int64_t m, std::int64_t n,
                     std::int64_t k, double alpha, double beta, std::int64_t batch, const GemmOptions& opt) {
  const auto tr = [](bool t) { return t ? Transpose::Yes : Transpose::No; };
  if (batch == 1 && a.shape.size() == 2 && b.shape.size() == 2 && c.shape.size() == 2)
    return gemm<T>(dev->queue(), Layout::RowMajor, tr(ta), tr(tb), m, n, k, alpha, a.buffer<T>(), ma.ld,
                   b.buffer<T>(), mb.ld, beta, c.buffer<T>(), mc.ld, opt);
  return gemm_strided_batched<T>(dev->queue(), Layout::RowMajor, tr(ta), tr(tb), m, n, k, alpha, a.buffer<T>(), ma.ld,
                                 ma.batch_stride, b.buffer<T>(), mb.ld, mb.batch_stride, beta, c.buffer<T>(), mc.ld,
                                 mc.batch_stride, batch, opt);
}

TensorPtr py_gemm(const py::object& a_obj, const py::object& b_obj, const py::object& out, double alpha, double beta,
                  bool trans_a, bool trans_b, const py::object& bias_obj, const std::string& bias_mode,
                  const std::string& activation, const py::object& act_alpha, const py::object& act_beta,
                  const std::string& accumulate) {
  TensorPtr a = as_tensor(a_obj, "a"), b = as_tensor(b_obj, "b");
  same_device(a->dev, *b, "b");
  const Matrix ma = matrix_of(*a, "a"), mb = matrix_of(*b, "b");
  // op(A) is m x k and op(B) k x n, as the caller sees the tensors.
  const std::int64_t m = trans_a ? ma.cols : ma.rows, k = trans_a ? ma.rows : ma.cols;
  const std::int64_t kb = trans_b ? mb.cols : mb.rows, n = trans_b ? mb.rows : mb.cols;
  if (k != kb)
    throw Error(Status::InvalidShape, "gemm: op(a) is " + std::to_string(m) + " x " + std::to_string(k) +
                                          " but op(b) is " + std::to_string(kb) + " x " + std::to_string(n));
  const bool batched = a->shape.size() == 3 || b->shape.size() == 3;
  std::int64_t batch = 1;
  if (batched) {
    const std::int64_t ba = a->shape.size() == 3 ? ma.batch : 1, bb = b->shape.size() == 3 ? mb.batch : 1;
    if (ba != bb && ba != 1 && bb != 1)
      throw Error(Status::InvalidShape, "gemm: batches of " + std::to_string(ba) + " and " + std::to_string(bb) +
                                            " do not broadcast");
    batch = std::max(ba, bb);
  }
  std::vector<std::int64_t> c_shape = batched ? std::vector<std::int64_t>{batch, m, n} : std::vector<std::int64_t>{m, n};
  if (out.is_none() && beta != 0)
    throw Error(Status::InvalidArgument, "gemm: beta != 0 reads C: pass it as out=");
  TensorPtr c = output(out, a->dev, a->dtype, c_shape);
  if (c->shape != c_shape)
    throw Error(Status::InvalidShape, "gemm: out must have shape (" +
                                          std::string(batched ? std::to_string(batch) + ", " : "") +
                                          std::to_string(m) + ", " + std::to_string(n) + ")");
  const Matrix mc = matrix_of(*c, "out");
  if (mc.transposed && !(mc.rows == 1 || mc.cols == 1))
    throw Error(Status::InvalidShape, "gemm: out must be row-major (unit stride along its last axis)");
  Matrix ma2 = ma, mb2 = mb;
  if (a->shape.size() != 3 || ma.batch == 1) ma2.batch_stride = 0;
  if (b->shape.size() != 3 || mb.batch == 1) mb2.batch_stride = 0;
  GemmOptions opt;
  opt.activation = lookup(unary_ops(), activation, "gemm activation");
  opt.activation_params = params(act_alpha, act_beta);
  if (accumulate == "f32") opt.accumulate = Accumulate::F32;
  else if (accumulate != "default")
    throw Error(Status::InvalidArgument, "gemm: accumulate must be 'default' or 'f32', not '" + accumulate + "'");
  auto bias = optional_tensor(bias_obj, "bias");
  if (bias) {
    same_device(a->dev, **bias, "bias");
    if (bias_mode == "per_column") opt.bias_mode = BiasMode::PerColumn;
    else if (bias_mode == "per_row") opt.bias_mode = BiasMode::PerRow;
    else throw Error(Status::InvalidArgument, "gemm: bias_mode must be 'per_column' or 'per_row', not '" + bias_mode + "'");
    opt.bias = (*bias)->operand();
  }
  const bool ta = trans_a != ma.transposed, tb = trans_b != mb.transposed;
  std::vector<const Tensor*> all{a.get(), b.get(), c.get()};
  if (bias) all.push_back(bias->get());
  run(all, [&]() -> Event {
    switch (a->dtype) {
      case DType::F32: return run_gemm_typed<float>(a->dev, *a, ma2, ta, *b, mb2, tb, *c, mc, m, n, k, alpha, beta, batch, opt);
      case DType::F64: return run_gemm_typed<double>(a->dev, *a, ma2, ta, *b, mb2, tb, *c, mc, m, n, k, alpha, beta, batch, opt);
      case DType::F16: return run_gemm_typed<half>(a->dev, *a, ma2, ta, *b, mb2, tb, *c, mc, m, n, k, alpha, beta, batch, opt);
      default: throw Error(Status::InvalidType, "gemm: data type " + std::string(dtype_name(a->dtype)) +
                                                    " (f32, f64 and f16 only)");
    }
  });
  return c;
}

}  // namespace

void bind_ops(py::module_& m) {
  using py::arg;
  const auto none = py::none();
  m.def("unary", &py_unary, arg("op"), arg("x"), py::kw_only(), arg("out") = none, arg("alpha") = none,
        arg("beta") = none, "y = op(x): optune::unary. alpha/beta: leaky_relu slope, elu alpha, clamp bounds.");
  m.def("binary", &py_binary, arg("op"), arg("a"), arg("b"), py::kw_only(), arg("out") = none,
        "y = a op b with broadcasting; either side may be a Python number. Comparisons give uint8.");
  m.def("ternary", &py_ternary, arg("op"), arg("a"), arg("b"), arg("c"), py::kw_only(), arg("out") = none,
        arg("alpha") = none, "where, fma, addcmul (alpha), clamp, with broadcasting.");
  m.def("cast", &py_cast, arg("x"), arg("dtype") = none, py::kw_only(), arg("out") = none);
  m.def("elementwise", &py_elementwise, arg("code"), arg("inputs"), py::kw_only(), arg("out") = none,
        arg("scalars") = none, arg("input_names") = none, arg("output_names") = none, arg("outputs") = 1,
        arg("dtype") = none, "A custom element-wise kernel from OpenCL C statements (optune::elementwise).");
  m.def("fused", &py_fused, arg("chain"), arg("inputs"), py::kw_only(), arg("out") = none,
        "A chain of steps in one kernel: names of unary or binary operators, (binary, scalar) or (unary, alpha[, beta]).");
  m.def("reduce", &py_reduce, arg("op"), arg("x"), arg("axis") = none, arg("keepdims") = false, py::kw_only(),
        arg("out") = none);
  m.def("softmax", [](const py::object& x, int axis, const py::object& out) { return py_softmax(x, axis, out, false); },
        arg("x"), arg("axis") = -1, py::kw_only(), arg("out") = none);
  m.def("log_softmax", [](const py::object& x, int axis, const py::object& out) { return py_softmax(x, axis, out, true); },
        arg("x"), arg("axis") = -1, py::kw_only(), arg("out") = none);
  m.def("layer_norm", &py_layer_norm, arg("x"), arg("gamma") = none, arg("beta") = none, arg("eps") = 1e-5,
        py::kw_only(), arg("out") = none, arg("mean_out") = none, arg("rstd_out") = none);
  m.def("rms_norm", &py_rms_norm, arg("x"), arg("gamma") = none, arg("eps") = 1e-6, py::kw_only(), arg("out") = none);
  m.def("gemm", &py_gemm, arg("a"), arg("b"), py::kw_only(), arg("out") = none, arg("alpha") = 1.0,
        arg("beta") = 0.0, arg("trans_a") = false, arg("trans_b") = false, arg("bias") = none,
        arg("bias_mode") = "per_column", arg("activation") = "copy", arg("activation_alpha") = none,
        arg("activation_beta") = none, arg("accumulate") = "default",
        "out = activation(alpha op(a) op(b) + beta out + bias); 3-d operands run a strided batch "
        "(a 2-d operand is shared by every product).");
  m.def("conv2d", &py_conv2d, arg("x"), arg("weight"), py::kw_only(), arg("bias") = none, arg("residual") = none,
        arg("stride") = 1, arg("padding") = 0, arg("dilation") = 1, arg("groups") = 1, arg("layout") = "nchw",
        arg("out_layout") = none, arg("activation") = "copy", arg("activation_alpha") = none,
        arg("activation_beta") = none, arg("out") = none, arg("accumulate") = "default",
        "out = activation(conv2d(x, weight) + bias + residual); x (N, C, H, W) or (N, H, W, C) as layout says, "
        "weight (K, C / groups, R, S); padding (h, w) or (top, bottom, left, right); out_layout defaults to layout; "
        "accumulate 'f32' keeps f16 sums in f32 ('default' lets f16 depthwise sum in f16 where tuned).");
  m.def("_cpp_unary_loop", [](const std::string& name, const TensorPtr& x, const TensorPtr& y, int iterations) {
    // The same call as optune.unary(name, x, out=y), `iterations` times from
    // C++: the host time of the enqueues (the queue is drained before and
    // after, outside the time), which bench/python_overhead.py subtracts
    // from the same loop in Python to get the binding's cost per call.
    const Unary op = lookup(unary_ops(), name, "unary");
    const Operand xo = x->operand(), yo = y->operand();
    py::gil_scoped_release release;
    x->dev->queue().finish();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) optune::unary(x->dev->queue(), op, xo, yo);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    x->dev->queue().finish();
    return seconds;
  }, arg("op"), arg("x"), arg("y"), arg("iterations"), "Bench hook: host seconds of `iterations` enqueues from C++.");
  m.attr("UNARY_OPS") = keys_of(unary_ops());
  m.attr("BINARY_OPS") = keys_of(binary_ops());
  m.attr("TERNARY_OPS") = keys_of(ternary_ops());
  m.attr("REDUCE_OPS") = keys_of(reduce_ops());
}

}  // namespace optune::python
