#include "reference/gemm_check.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "ops/elementwise_ops.hpp"
#include "reference/elementwise_ref.hpp"
#include "reference/gemm_ref.hpp"
#include "support/test_support.hpp"

namespace optune::ref {

namespace {

constexpr double kSentinel = -77.0;

const char* name(Layout l) { return l == Layout::RowMajor ? "row" : "col"; }
const char* name(Transpose t) { return t == Transpose::No ? "N" : "T"; }

// Rows and columns as stored, the leading dimension and the extent.
struct Stored {
  std::int64_t rows = 0, cols = 0, ld = 1;
  std::size_t extent = 0;
};

Stored stored(Layout layout, std::int64_t rows, std::int64_t cols, Transpose t, std::int64_t extra) {
  Stored s;
  s.rows = t == Transpose::No ? rows : cols;
  s.cols = t == Transpose::No ? cols : rows;
  const std::int64_t outer = layout == Layout::RowMajor ? s.rows : s.cols;
  const std::int64_t inner = layout == Layout::RowMajor ? s.cols : s.rows;
  s.ld = std::max<std::int64_t>(inner, 1) + extra;
  s.extent = outer == 0 || inner == 0 ? 0 : std::size_t((outer - 1) * s.ld + inner);
  return s;
}

// Where each product of an operand starts (relative to the view).
std::vector<std::size_t> product_offsets(const GemmCase& c, const Stored& s, bool shared, std::int64_t* stride) {
  const std::size_t align = std::max<std::size_t>(c.product_align, 1);
  const std::size_t span = (s.extent + 3 + align - 1) / align * align;  // a gap of poison between products
  std::vector<std::size_t> out(std::size_t(c.batch));
  *stride = shared ? 0 : std::int64_t(span);
  std::vector<std::size_t> order(out.size());
  std::iota(order.begin(), order.end(), 0);
  if (c.mode == GemmCase::Mode::List) std::shuffle(order.begin(), order.end(), test::rng());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = shared ? 0 : order[i] * span;
  return out;
}

// A buffer holding every product, NaN (or the sentinel) around the matrices.
struct Operand2 {
  Stored s;
  std::vector<std::size_t> offs;  // per product, relative to the view
  std::int64_t stride = 0;
  std::vector<double> host;       // the whole allocation
  std::size_t view_off = 0;
};

Operand2 make(const GemmCase& c, DType t, const Stored& s, std::size_t view_off, bool shared, double fill,
              bool values, double lo, double hi) {
  Operand2 o;
  o.s = s;
  o.view_off = view_off;
  o.offs = product_offsets(c, s, shared, &o.stride);
  std::size_t end = 0;
  for (std::size_t off : o.offs) end = std::max(end, off + s.extent);
  o.host.assign(view_off + end + 3, fill);
  if (values)
    for (std::size_t off : o.offs) {
      const auto v = random_values(t, std::size_t(s.rows * s.cols), lo, hi, false);
      for (std::int64_t i = 0; i < s.rows; ++i)
        for (std::int64_t j = 0; j < s.cols; ++j)
          o.host[gemm_index(c.layout, view_off + off, s.ld, i, j)] = v[std::size_t(i * s.cols + j)];
    }
  return o;
}

template <class T>
Buffer<T> view(const DeviceData& d, std::size_t off) {
  return Buffer<T>(d.bytes.mem(), off, d.count - off);
}

template <class T, class TC>
Event call(const Queue& q, const GemmCase& c, const Operand2& a, const DeviceData& da, const Operand2& b,
           const DeviceData& db, const Operand2& cc, const DeviceData& dc, const GemmOptions& opt) {
  const Buffer<T> A = view<T>(da, a.view_off), B = view<T>(db, b.view_off);
  const Buffer<TC> C = view<TC>(dc, cc.view_off);
  if (c.mode == GemmCase::Mode::Single)
    return gemm(q, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, A, a.s.ld, B, b.s.ld, c.beta, C, cc.s.ld,
                opt);
  if (c.mode == GemmCase::Mode::Strided)
    return gemm_strided_batched(q, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, A, a.s.ld, a.stride, B,
                                b.s.ld, b.stride, c.beta, C, cc.s.ld, cc.stride, c.batch, opt);
  std::vector<std::int64_t> ao(a.offs.begin(), a.offs.end()), bo(b.offs.begin(), b.offs.end()),
      co(cc.offs.begin(), cc.offs.end());
  const std::vector<double> alphas = c.alphas.empty() ? std::vector<double>(std::size_t(c.batch), c.alpha) : c.alphas;
  const std::vector<double> betas = c.betas.empty() ? std::vector<double>(std::size_t(c.batch), c.beta) : c.betas;
  return gemm_batched(q, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, std::span<const double>(alphas), A, a.s.ld,
                      std::span<const std::int64_t>(ao), B, b.s.ld, std::span<const std::int64_t>(bo),
                      std::span<const double>(betas), C, cc.s.ld, std::span<const std::int64_t>(co), opt);
}

DType c_type(const GemmCase& c) { return c.c_dtype.value_or(c.dtype); }

// The product's rounding, relative to scale: u (k + 4), or for f16
// arithmetic f16 rounding over half_terms terms and f32 over k.
double product_roundoff(const GemmCase& c) {
  const double k4 = double(c.k + 4);
  if (c.dtype == DType::F64) return std::ldexp(k4, -53);
  const bool half_arith = c.dtype == DType::F16 && c_type(c) == DType::F16 && c.accumulate == Accumulate::Default &&
                          test::device().caps().fp16;
  if (!half_arith) return std::ldexp(k4, -24);
  return std::ldexp(double(std::min(c.k, c.half_terms) + 4), -11) + std::ldexp(k4, -24);
}

// Runs the call with T for A and B, TC for C (the types the API offers).
Event dispatch(const Queue& q, const GemmCase& c, const Operand2& a, const DeviceData& da, const Operand2& b,
               const DeviceData& db, const Operand2& cc, const DeviceData& dc, const GemmOptions& opt) {
  const DType t = c.dtype, tc = c_type(c);
  const auto with_c = [&](auto tag) -> Event {
    using T = decltype(tag);
    switch (tc) {
      case DType::F16: return call<T, half>(q, c, a, da, b, db, cc, dc, opt);
      case DType::BF16: return call<T, bfloat16>(q, c, a, da, b, db, cc, dc, opt);
      default: return call<T, float>(q, c, a, da, b, db, cc, dc, opt);
    }
  };
  if (t == DType::F16) return with_c(half{});
  if (t == DType::BF16) return with_c(bfloat16{});
  if (tc != t) throw Error(Status::InvalidType, "the test has no call for this combination");
  if (t == DType::F64) return call<double, double>(q, c, a, da, b, db, cc, dc, opt);
  return call<float, float>(q, c, a, da, b, db, cc, dc, opt);
}

}  // namespace

std::string describe(const GemmCase& c) {
  std::ostringstream s;
  s << dtype_name(c.dtype) << (c.c_dtype ? "->" + std::string(dtype_name(*c.c_dtype)) : "")
    << (c.compute == GemmCompute::FastTF32 ? " tf32" : "") << " " << name(c.layout) << " " << name(c.trans_a) << name(c.trans_b) << " m=" << c.m
    << " n=" << c.n << " k=" << c.k << " ld+" << c.lda_extra << "/" << c.ldb_extra << "/" << c.ldc_extra << " off "
    << c.a_off << "/" << c.b_off << "/" << c.c_off << " alpha=" << c.alpha << " beta=" << c.beta;
  if (c.mode != GemmCase::Mode::Single)
    s << (c.mode == GemmCase::Mode::List ? " list" : " strided") << " batch=" << c.batch;
  if (c.bias_mode != BiasMode::None) s << (c.bias_mode == BiasMode::PerRow ? " bias/row" : " bias/col");
  if (c.activation != Unary::Copy) s << " " << unary_name(c.activation);
  return s.str();
}

::testing::AssertionResult check_gemm(const GemmCase& c, const detail::GemmForce* force) {
  const Queue& q = test::queue();
  const std::size_t nb = std::size_t(c.batch);
  std::vector<double> alphas = c.alphas.empty() ? std::vector<double>(nb, c.alpha) : c.alphas;
  std::vector<double> betas = c.betas.empty() ? std::vector<double>(nb, c.beta) : c.betas;
  const bool reads_ab = c.k > 0 && std::any_of(alphas.begin(), alphas.end(), [](double x) { return x != 0; });
  const Stored sa = stored(c.layout, c.m, c.k, c.trans_a, c.lda_extra);
  const Stored sb = stored(c.layout, c.k, c.n, c.trans_b, c.ldb_extra);
  const Stored sc = stored(c.layout, c.m, c.n, Transpose::No, c.ldc_extra);
  const bool shared_a = c.shared_a && c.mode == GemmCase::Mode::Strided;
  const DType tc = c_type(c);
  Operand2 a = make(c, c.dtype, sa, c.a_off, shared_a, NAN, reads_ab, -1, 1);
  Operand2 b = make(c, c.dtype, sb, c.b_off, false, NAN, reads_ab, -1, 1);
  Operand2 cc = make(c, tc, sc, c.c_off, false, kSentinel, true, -1, 1);
  // C's matrices: values where beta reads them, NaN where it must not.
  std::vector<bool> inside(cc.host.size(), false);
  for (std::size_t z = 0; z < nb; ++z)
    for (std::int64_t i = 0; i < c.m; ++i)
      for (std::int64_t j = 0; j < c.n; ++j) {
        const std::size_t at = gemm_index(c.layout, c.c_off + cc.offs[z], sc.ld, i, j);
        inside[at] = true;
        if (betas[z] == 0) cc.host[at] = NAN;
      }

  GemmOptions opt;
  opt.accumulate = c.accumulate;
  opt.compute = c.compute;
  opt.activation = c.activation;
  opt.activation_params = c.activation_params;
  opt.bias_mode = c.bias_mode;
  std::vector<double> bias;
  DeviceData dbias = upload(q, tc, {0});
  if (c.bias_mode != BiasMode::None) {
    const std::int64_t len = c.bias_mode == BiasMode::PerRow ? c.m : c.n;
    bias = random_values(tc, std::size_t(len), -1, 1, false);
    std::vector<double> stored_bias(bias);
    stored_bias.insert(stored_bias.begin(), NAN);  // at offset 1
    dbias = upload(q, tc, stored_bias);
    opt.bias = dbias.operand({len}, {}, 1);
  }
  const DeviceData da = upload(q, c.dtype, a.host), db = upload(q, c.dtype, b.host), dc = upload(q, tc, cc.host);
  try {
    std::optional<detail::GemmForceScope> scope;
    if (force) scope.emplace(*force);
    Event e = dispatch(q, c, a, da, b, db, cc, dc, opt);
    if (e.valid()) e.wait();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << describe(c) << ": " << e.what();
  }
  const std::vector<double> got = download(q, dc);

  std::vector<double> want = cc.host, scale(want.size(), 0.0);
  const std::vector<double> p = detail::unary_params(c.activation, c.activation_params);
  for (std::size_t z = 0; z < nb; ++z) {
    GemmRef r;
    r.layout = c.layout;
    r.trans_a = c.trans_a, r.trans_b = c.trans_b;
    r.m = c.m, r.n = c.n, r.k = c.k;
    r.alpha = alphas[z], r.beta = betas[z];
    r.a = &a.host, r.a_off = c.a_off + a.offs[z], r.lda = sa.ld;
    r.b = &b.host, r.b_off = c.b_off + b.offs[z], r.ldb = sb.ld;
    r.c_off = c.c_off + cc.offs[z], r.ldc = sc.ld;
    r.bias_mode = c.bias_mode, r.bias = &bias;
    r.activation = c.activation;
    r.act_p0 = p.size() > 0 ? p[0] : 0, r.act_p1 = p.size() > 1 ? p[1] : 0;
    gemm(r, want, &scale);
  }
  const double pu = product_roundoff(c), lip = c.activation == Unary::Copy ? 1.0 : 1.5;
  const double in_u = c.compute == GemmCompute::FastTF32 ? std::ldexp(1.0, -11) : 0.0;
  const double r_store = (tc == DType::F16 ? std::ldexp(1.0, -11) : tc == DType::BF16 ? std::ldexp(1.0, -8) : 0.0) +
                         (c.activation == Unary::Copy ? 0.0 : c.dtype == DType::F64 ? 1e-14 : 1e-6);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!inside[i]) {
      if (got[i] != want[i])
        return ::testing::AssertionFailure() << describe(c) << ": element " << i << " outside C changed to " << got[i];
      continue;
    }
    if (std::isnan(want[i]) != std::isnan(got[i]))
      return ::testing::AssertionFailure() << describe(c) << ": element " << i << " is " << got[i] << ", expected "
                                           << want[i];
    if (std::isnan(want[i])) continue;
    // f16 results also round by half the subnormal spacing (2^-25) below 2^-14.
    const double bound = (pu + 2 * in_u) * lip * scale[i] + r_store * std::fabs(want[i]) +
                         (tc == DType::F16 ? std::ldexp(1.0, -25) : 0.0) + 1e-30;
    if (!(std::fabs(got[i] - want[i]) <= bound))
      return ::testing::AssertionFailure() << describe(c) << ": element " << i << " is " << got[i] << ", expected "
                                           << want[i] << " (error " << std::fabs(got[i] - want[i]) << ", bound "
                                           << bound << ")";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace optune::ref
