// optune::gemm's static check (ops/gemm_args.hpp): shapes, leading
// dimensions, strides and offsets against the buffers, types, options, and
// that no two products write one element of C nor C overlaps an input.
#include <algorithm>

#include "ops/elementwise_ops.hpp"
#include "ops/gemm_args.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/tensor.hpp"
#include "ops/validate.hpp"

namespace optune::detail {

namespace {

std::string fail(const GemmArgs& g, const std::string& msg) { return g.what + ": " + msg; }

// Rows and columns of an operand as stored.
std::pair<std::int64_t, std::int64_t> stored_shape(std::int64_t rows, std::int64_t cols, Transpose t) {
  return t == Transpose::No ? std::pair{rows, cols} : std::pair{cols, rows};
}

// Where an operand's products lie: its byte range in the allocation, and
// its lattice (outer lines of inner elements, ld apart) for the overlap of
// products in C.
struct MatrixReach {
  ByteRange range;
  std::int64_t outer = 0, inner = 0;
  std::size_t extent = 0;  // elements one product spans
};

// Checks one operand and its batch layout: the view lies in the allocation,
// and the elements its products reach lie in the view.
MatrixReach validate_matrix(const GemmArgs& g, const Queue& q, const MatrixArg& x, std::int64_t rows,
                            std::int64_t cols) {
  const std::string label = g.what + ": " + x.name;
  validate::on_queue(label.c_str(), x.mem, q);
  check_view(label, *x.mem, x.dtype, x.offset, x.count);
  const std::int64_t outer = g.layout == Layout::RowMajor ? rows : cols;
  const std::int64_t inner = g.layout == Layout::RowMajor ? cols : rows;
  if (x.ld < std::max<std::int64_t>(inner, 1))
    throw Error(Status::InvalidArgument,
                fail(g, std::string(x.ld_name) + " = " + std::to_string(x.ld) + " is smaller than " +
                            std::to_string(std::max<std::int64_t>(inner, 1)) + " (the stored " +
                            (g.layout == Layout::RowMajor ? "row" : "column") + " length of " + x.name + ")"));
  const std::size_t extent = validate::matrix_extent(label.c_str(), outer, inner, x.ld);
  std::size_t reach = 0;  // the farthest product's first element
  if (g.list) {
    for (std::size_t i = 0; i < x.offsets->size(); ++i) {
      const std::int64_t o = (*x.offsets)[i];
      if (o < 0)
        throw Error(Status::InvalidArgument, fail(g, std::string(x.name) + "_offsets[" + std::to_string(i) +
                                                         "] = " + std::to_string(o) + " is negative"));
      reach = std::max(reach, std::size_t(o));
    }
  } else if (g.strided) {
    const std::string sname = std::string("stride_") + x.name;
    if (x.stride < 0)
      throw Error(Status::InvalidArgument, fail(g, sname + " = " + std::to_string(x.stride) + " is negative"));
    if (x.name[0] == 'c' && x.stride == 0 && g.batch > 1)
      throw Error(Status::InvalidArgument, fail(g, "stride_c = 0 with batch > 1: the products would write the same C"));
    reach = validate::mul(label.c_str(), std::size_t(x.stride), std::size_t(g.batch - 1));
  }
  if (extent > 0) validate::fits(label.c_str(), x.count, reach, extent);
  const std::int64_t es = std::int64_t(dtype_size(x.dtype));
  const std::int64_t lo = std::int64_t(x.offset) * es;
  return {{x.mem.get(), lo, extent ? lo + std::int64_t(reach + extent) * es : lo}, outer, inner, extent};
}

// No two products write one element of C: strided products stride_c apart,
// listed ones at their offsets.
void validate_c_products(const GemmArgs& g, const MatrixReach& c) {
  if (c.extent == 0) return;
  const std::int64_t ld = g.c.ld, extent = std::int64_t(c.extent);
  if (g.strided && g.batch > 1) {
    for (std::int64_t k = 1; k < g.batch && k * g.c.stride < extent; ++k)
      if (lattices_overlap(k * g.c.stride, c.outer, c.inner, ld))
        throw Error(Status::InvalidArgument,
                    fail(g, "stride_c = " + std::to_string(g.c.stride) + " makes products " + std::to_string(k) +
                                " apart write the same elements of c"));
  }
  if (g.list) {
    std::vector<std::pair<std::int64_t, std::size_t>> offs;
    for (std::size_t i = 0; i < g.c.offsets->size(); ++i) offs.emplace_back((*g.c.offsets)[i], i);
    std::sort(offs.begin(), offs.end());
    for (std::size_t i = 0; i < offs.size(); ++i)
      for (std::size_t j = i + 1; j < offs.size() && offs[j].first - offs[i].first < extent; ++j)
        if (lattices_overlap(offs[j].first - offs[i].first, c.outer, c.inner, ld))
          throw Error(Status::InvalidArgument,
                      fail(g, "c_offsets[" + std::to_string(std::min(offs[i].second, offs[j].second)) + "] and c_offsets[" +
                                  std::to_string(std::max(offs[i].second, offs[j].second)) +
                                  "] make two products write the same elements of c"));
  }
}

// The element types: A and B alike; f32 and f64 products write their own
// type; f16 and bf16 products write f16, bf16 or f32.
void validate_types(const GemmArgs& g, const Queue& q) {
  for (const MatrixArg* x : {&g.a, &g.b, &g.c}) validate::dtype_known((g.what + ": " + x->name).c_str(), x->dtype);
  const DType t = g.a.dtype, tc = g.c.dtype;
  const std::string ta(dtype_name(t)), tcs(dtype_name(tc));
  if (g.b.dtype != t)
    throw Error(Status::InvalidType, fail(g, "a is " + ta + " but b is " + std::string(dtype_name(g.b.dtype)) +
                                                 " (a and b must have one type)"));
  if (!is_floating(t) && !is_complex(t))
    throw Error(Status::InvalidType, fail(g, ta + " matrices are not supported (f32, f64, f16, bf16, c32 or c64)"));
  const bool half_like = t == DType::F16 || t == DType::BF16;
  const bool c_ok = tc == t || (half_like && (tc == DType::F16 || tc == DType::BF16 || tc == DType::F32));
  if (!c_ok)
    throw Error(Status::InvalidType,
                fail(g, "c is " + tcs + " but a and b are " + ta +
                            (half_like ? " (f16 and bf16 products write f16, bf16 or f32)"
                                       : " (" + ta + " products write " + ta + ")")));
  if (is_complex(t))
    validate::dtype_held(g.what.c_str(), t, q.device().caps());
  else
    validate::dtype_supported(g.what.c_str(), t, q.device().caps());
}

void validate_options(const GemmArgs& g, const Queue& q) {
  const GemmOptions& o = *g.options;
  if (int(o.accumulate) < 0 || int(o.accumulate) > int(Accumulate::F32))
    throw Error(Status::InvalidArgument, fail(g, "unknown accumulate mode"));
  if (int(o.compute) < 0 || int(o.compute) > int(GemmCompute::FastTF32))
    throw Error(Status::InvalidArgument, fail(g, "unknown compute mode"));
  if (o.compute == GemmCompute::FastTF32 && g.a.dtype != DType::F32)
    throw Error(Status::InvalidArgument, fail(g, "GemmCompute::FastTF32 applies to f32 matrices, not " +
                                                     std::string(dtype_name(g.a.dtype))));
  if (int(o.activation) < 0 || int(o.activation) > int(Unary::Clamp))
    throw Error(Status::InvalidArgument, fail(g, "unknown activation"));
  try {
    unary_params(o.activation, o.activation_params);
  } catch (const Error& e) {
    throw Error(e.status(), fail(g, std::string("activation ") + e.what()));
  }
  if (is_complex(g.a.dtype) && (o.bias_mode != BiasMode::None || o.activation != Unary::Copy))
    throw Error(Status::InvalidArgument, fail(g, "complex products take no bias or activation"));
  if (o.bias_mode == BiasMode::None) return;
  if (o.bias_mode != BiasMode::PerRow && o.bias_mode != BiasMode::PerColumn)
    throw Error(Status::InvalidArgument, fail(g, "unknown bias mode"));
  const std::string label = g.what + ": bias";
  validate::on_queue(label.c_str(), o.bias.mem, q);
  validate::dtype_known(label.c_str(), o.bias.dtype);
  check_view(label, *o.bias.mem, o.bias.dtype, o.bias.offset, o.bias.count);
  if (o.bias.dtype != g.c.dtype)
    throw Error(Status::InvalidType, fail(g, "bias is " + std::string(dtype_name(o.bias.dtype)) + " but c is " +
                                                 std::string(dtype_name(g.c.dtype)) + " (the bias has c's type)"));
  const std::int64_t need = o.bias_mode == BiasMode::PerRow ? g.m : g.n;
  const std::string dim = o.bias_mode == BiasMode::PerRow ? "m = " : "n = ";
  std::int64_t elements = 1, long_dims = 0;
  for (std::size_t d = 0; d < o.bias.shape.size(); ++d) {
    // The one dimension other than 1 is the count (two or more: not a vector,
    // below; their product could overflow).
    if (o.bias.shape[d] != 1 && long_dims++ == 0) elements = o.bias.shape[d];
    if (d < o.bias.strides.size() && o.bias.shape[d] != 1 && o.bias.strides[d] != 1)
      throw Error(Status::InvalidArgument, fail(g, "bias must be contiguous"));
  }
  if (long_dims > 1) throw Error(Status::InvalidArgument, fail(g, "bias must be a vector"));
  if (elements != need)
    throw Error(Status::InvalidArgument, fail(g, "bias has " + std::to_string(elements) + " elements but " + dim +
                                                     std::to_string(need)));
  validate::fits(label.c_str(), o.bias.count, 0, std::size_t(need));
}

}  // namespace

void validate_gemm(const GemmArgs& g, const Queue& q) {
  if (!q.impl()) throw Error(Status::InvalidArgument, fail(g, "empty queue"));
  validate::non_negative((g.what + ": m").c_str(), g.m);
  validate::non_negative((g.what + ": n").c_str(), g.n);
  validate::non_negative((g.what + ": k").c_str(), g.k);
  if (g.list) {
    const std::size_t len = g.alphas.size();
    if (len == 0) throw Error(Status::InvalidArgument, fail(g, "empty batch (no alphas)"));
    const std::pair<const char*, std::size_t> spans[] = {{"betas", g.betas.size()},
                                                         {"a_offsets", g.a.offsets->size()},
                                                         {"b_offsets", g.b.offsets->size()},
                                                         {"c_offsets", g.c.offsets->size()}};
    for (const auto& [name, size] : spans)
      if (size != len)
        throw Error(Status::InvalidArgument, fail(g, std::string(name) + " has " + std::to_string(size) +
                                                         " elements but alphas has " + std::to_string(len)));
  } else if (g.batch < 1) {
    throw Error(Status::InvalidArgument, fail(g, "empty batch (batch = " + std::to_string(g.batch) + ")"));
  }
  if (int(g.layout) < 0 || int(g.layout) > 1 || int(g.trans_a) < 0 || int(g.trans_a) > 2 || int(g.trans_b) < 0 ||
      int(g.trans_b) > 2)
    throw Error(Status::InvalidArgument, fail(g, "unknown layout or transposition"));
  validate_types(g, q);
  const auto [ar, ac] = stored_shape(g.m, g.k, g.trans_a);
  const auto [br, bc] = stored_shape(g.k, g.n, g.trans_b);
  const MatrixReach a = validate_matrix(g, q, g.a, ar, ac);
  const MatrixReach b = validate_matrix(g, q, g.b, br, bc);
  const MatrixReach c = validate_matrix(g, q, g.c, g.m, g.n);
  validate_options(g, q);
  // C is written while A, B and the bias are read: none may share an element
  // with it, and no two products may write one element.
  validate_c_products(g, c);
  if (c.range.overlaps(a.range)) throw Error(Status::InvalidArgument, fail(g, "c overlaps a"));
  if (c.range.overlaps(b.range)) throw Error(Status::InvalidArgument, fail(g, "c overlaps b"));
  const GemmOptions& o = *g.options;
  if (o.bias_mode != BiasMode::None) {
    const std::int64_t es = std::int64_t(dtype_size(g.c.dtype));
    const std::int64_t lo = std::int64_t(o.bias.offset) * es;
    const ByteRange bias{o.bias.mem.get(), lo, lo + (o.bias_mode == BiasMode::PerRow ? g.m : g.n) * es};
    if (c.range.overlaps(bias)) throw Error(Status::InvalidArgument, fail(g, "the bias overlaps c"));
  }
  // Work-item counts and batch products stay in 64 bits.
  validate::mul((g.what + ": m * n").c_str(), std::size_t(g.m), std::size_t(g.n));
  validate::mul((g.what + ": m * n * batch").c_str(), std::size_t(g.m) * std::size_t(g.n), std::size_t(g.batch));
}

}  // namespace optune::detail
