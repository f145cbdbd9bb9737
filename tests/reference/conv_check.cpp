#include "reference/conv_check.hpp"

#include <array>
#include <cmath>
#include <sstream>

#include "ops/conv_ops.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/tensor.hpp"
#include "reference/elementwise_ref.hpp"
#include "support/test_support.hpp"

namespace optune::ref {

namespace {

constexpr double kSentinel = -77.0;

const char* name(ConvLayout l) { return l == ConvLayout::NHWC ? "NHWC" : "NCHW"; }

std::size_t at(ConvLayout l, std::int64_t n, std::int64_t c, std::int64_t y, std::int64_t x, std::int64_t C,
               std::int64_t H, std::int64_t W) {
  return std::size_t(l == ConvLayout::NHWC ? ((n * H + y) * W + x) * C + c : ((n * C + c) * H + y) * W + x);
}

std::vector<std::int64_t> shape4(ConvLayout l, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
  return l == ConvLayout::NHWC ? std::vector<std::int64_t>{n, h, w, c} : std::vector<std::int64_t>{n, c, h, w};
}

// `values` placed at `offset` in an allocation with NaN (or `fill`) before
// and three elements after.
std::vector<double> placed(const std::vector<double>& values, std::size_t offset, double fill) {
  std::vector<double> out(offset, fill);
  out.insert(out.end(), values.begin(), values.end());
  out.insert(out.end(), 3, fill);
  return out;
}

double poison_value(DType t) { return t == DType::F16 ? -38048.0 : std::ldexp(-1.0, 127); }

}  // namespace

Conv2dDesc conv_desc(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k, std::int64_t r,
                     std::int64_t s, std::int64_t stride, std::int64_t pad, std::int64_t groups, ConvLayout in,
                     ConvLayout out) {
  Conv2dDesc d;
  d.batch = n, d.in_channels = c, d.in_height = h, d.in_width = w, d.out_channels = k;
  d.kernel_h = r, d.kernel_w = s, d.stride_h = d.stride_w = stride;
  d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = pad;
  d.groups = groups;
  d.input_layout = in, d.output_layout = out;
  return d;
}

std::string describe(const ConvCase& c) {
  const Conv2dDesc& d = c.desc;
  std::ostringstream s;
  s << dtype_name(c.dtype) << " " << d.batch << "x" << d.in_channels << "x" << d.in_height << "x" << d.in_width
    << " -> " << d.out_channels << " " << d.kernel_h << "x" << d.kernel_w << " stride " << d.stride_h << ","
    << d.stride_w
    << " dil " << d.dilation_h << "," << d.dilation_w << " pad " << d.pad_top << "," << d.pad_bottom << ","
    << d.pad_left << "," << d.pad_right << " groups " << d.groups << " " << name(d.input_layout) << "->"
    << name(d.output_layout) << " off " << c.offset << (c.rank4 ? " rank4" : "");
  if (c.bias) s << " bias";
  if (c.residual) s << (c.residual_in_place ? " residual(in place)" : " residual");
  if (c.accumulate == Accumulate::F32) s << " accumulate f32";
  if (c.activation != Unary::Copy) s << " " << unary_name(c.activation);
  return s.str();
}

::testing::AssertionResult check_conv(const ConvCase& c, const detail::ConvForce* force) {
  const Queue& q = test::queue();
  const Conv2dDesc& d = c.desc;
  const std::int64_t N = d.batch, C = d.in_channels, H = d.in_height, W = d.in_width, K = d.out_channels;
  const std::int64_t R = d.kernel_h, S = d.kernel_w, G = d.groups, Cg = C / G, Kg = K / G;
  const std::int64_t OH = d.out_height(), OW = d.out_width();
  const std::size_t off = c.offset;
  const DType t = c.dtype;

  const std::vector<double> x = random_values(t, std::size_t(d.input_elements()), -1, 1, false);
  const std::vector<double> w = random_values(t, std::size_t(d.weight_elements()), -1, 1, false);
  const std::vector<double> b = random_values(t, std::size_t(K), -1, 1, false);
  const std::vector<double> res = random_values(t, std::size_t(d.output_elements()), -1, 1, false);
  const DeviceData dx = upload(q, t, placed(x, off, NAN)), dw = upload(q, t, placed(w, off, NAN));
  const DeviceData db = upload(q, t, placed(b, off, NAN)), dr = upload(q, t, placed(res, off, NAN));
  std::vector<double> out0(std::size_t(d.output_elements()), poison_value(t));
  if (c.residual && c.residual_in_place) out0 = res;
  const DeviceData dout = upload(q, t, placed(out0, off, kSentinel));

  const auto tensor = [&](const DeviceData& dd, std::vector<std::int64_t> shape) {
    std::int64_t count = 1;
    for (std::int64_t v : shape) count *= v;
    return dd.operand(c.rank4 ? shape : std::vector<std::int64_t>{count}, {}, off);
  };
  const std::vector<std::int64_t> out_shape = shape4(d.output_layout, N, K, OH, OW);
  Conv2dOptions opt;
  opt.activation = c.activation;
  opt.activation_params = c.activation_params;
  opt.accumulate = c.accumulate;
  if (c.bias) opt.bias = db.operand({K}, {}, off);
  if (c.residual) opt.residual = tensor(c.residual_in_place ? dout : dr, out_shape);
  try {
    std::optional<detail::ConvForceScope> scope;
    if (force) scope.emplace(*force);
    Event e = conv2d(q, d, tensor(dx, shape4(d.input_layout, N, C, H, W)), tensor(dw, {K, Cg, R, S}),
                     tensor(dout, out_shape), opt);
    if (e.valid()) e.wait();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << describe(c) << ": " << e.what();
  }
  const std::vector<double> got = download(q, dout);

  const std::vector<double> p = detail::unary_params(c.activation, c.activation_params);
  const bool act = c.activation != Unary::Copy;
  // f16 sums where the call ran them: the depthwise kernel with HALF, which
  // conv.hpp allows only for f16 depthwise NHWC with Default accumulation on
  // a device with half arithmetic (the choice, remade here as the call made
  // it; the f32 bound holds for every other run).
  const bool half_sums = [&] {
    if (t != DType::F16 || c.accumulate != Accumulate::Default || !q.device().caps().fp16 || G != C || K != C ||
        d.input_layout != ConvLayout::NHWC)
      return false;
    // Every view starts at off.
    const std::int64_t align = detail::offset_alignment({off});
    const detail::ConvChoice ch = detail::choose_conv(q, detail::conv_problem(d, t, opt, align, align), force);
    return ch.candidate && ch.candidate->name() == "depthwise" && ch.params.count("HALF") && ch.params.at("HALF");
  }();
  const double u = std::ldexp(1.0, half_sums ? -11 : -24), L = act ? 1.5 : 1.0;
  const double r = (t == DType::F16 ? std::ldexp(1.0, -11) : t == DType::BF16 ? std::ldexp(1.0, -8) : 0.0) +
                   (act ? std::ldexp(1.0, -21) : 0.0);
  const double taps = double(Cg * R * S);
  for (std::size_t i = 0; i < off; ++i)
    if (got[i] != kSentinel)
      return ::testing::AssertionFailure() << describe(c) << ": element " << i << " before the output's view was written";
  for (std::size_t i = 0; i < 3; ++i)
    if (got[off + out0.size() + i] != kSentinel)
      return ::testing::AssertionFailure() << describe(c) << ": an element after the output was written";
  // Winograd's scale: sum_c (sum |x| over the 4 x 4 input tile of output
  // (oy, ox)'s 2 x 2 block) (sum |w| of channel c's taps for output k).
  const auto tile_scale = [&](std::int64_t n, std::int64_t k, std::int64_t oy, std::int64_t ox) {
    double t = 0;
    for (std::int64_t ci = 0; ci < C; ++ci) {
      double xs = 0, ws = 0;
      for (std::int64_t i = 0; i < 4; ++i)
        for (std::int64_t j = 0; j < 4; ++j) {
          const std::int64_t iy = oy / 2 * 2 - d.pad_top + i, ix = ox / 2 * 2 - d.pad_left + j;
          if (iy >= 0 && iy < H && ix >= 0 && ix < W) xs += std::fabs(x[at(d.input_layout, n, ci, iy, ix, C, H, W)]);
        }
      for (std::int64_t tap = 0; tap < 9; ++tap) ws += std::fabs(w[std::size_t((k * C + ci) * 9 + tap)]);
      t += xs * ws;
    }
    return t;
  };
  // F(4x4, 3x3)'s scale: the same sums, each input-tap product weighted by
  // how much the transforms can amplify its rounding into output (i, j) of
  // the 4 x 4 block: kappa(i, r, p) kappa(j, s, q), kappa(i, r, p) =
  // sum_a |A^T[i][a]| |G[a][r]| |B^T[a][p]| over the 6 positions a (at most
  // 32/3: a bound 57 times F(2x2)'s at its worst position).
  static const std::array<std::array<std::array<double, 6>, 3>, 4> kappa = [] {
    const double at[4][6] = {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};
    const double g[6][3] = {{0.25, 0, 0},           {-1 / 6., -1 / 6., -1 / 6.}, {-1 / 6., 1 / 6., -1 / 6.},
                            {1 / 24., 1 / 12., 1 / 6.}, {1 / 24., -1 / 12., 1 / 6.}, {0, 0, 1}};
    const double bt[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                             {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
    std::array<std::array<std::array<double, 6>, 3>, 4> k{};
    for (int i = 0; i < 4; ++i)
      for (int r = 0; r < 3; ++r)
        for (int p = 0; p < 6; ++p)
          for (int a = 0; a < 6; ++a) k[i][r][p] += std::fabs(at[i][a] * g[a][r] * bt[a][p]);
    return k;
  }();
  const auto tile4_scale = [&](std::int64_t n, std::int64_t k, std::int64_t oy, std::int64_t ox) {
    const std::int64_t i = oy % 4, j = ox % 4, y0 = oy / 4 * 4 - d.pad_top, x0 = ox / 4 * 4 - d.pad_left;
    double t = 0;
    for (std::int64_t ci = 0; ci < C; ++ci) {
      double xs[6][6] = {};
      for (std::int64_t p = 0; p < 6; ++p)
        for (std::int64_t q = 0; q < 6; ++q)
          if (y0 + p >= 0 && y0 + p < H && x0 + q >= 0 && x0 + q < W)
            xs[p][q] = std::fabs(x[at(d.input_layout, n, ci, y0 + p, x0 + q, C, H, W)]);
      for (int r = 0; r < 3; ++r)
        for (int s = 0; s < 3; ++s) {
          double sum = 0;
          for (int p = 0; p < 6; ++p)
            for (int q = 0; q < 6; ++q) sum += kappa[i][r][p] * kappa[j][s][q] * xs[p][q];
          t += sum * std::fabs(w[std::size_t((k * C + ci) * 9 + r * 3 + s)]);
        }
    }
    return t;
  };
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t k = 0; k < K; ++k)
      for (std::int64_t oy = 0; oy < OH; ++oy)
        for (std::int64_t ox = 0; ox < OW; ++ox) {
          const std::int64_t g = k / Kg;
          double sum = 0, scale = 0;
          for (std::int64_t ci = 0; ci < Cg; ++ci)
            for (std::int64_t ry = 0; ry < R; ++ry) {
              const std::int64_t iy = oy * d.stride_h - d.pad_top + ry * d.dilation_h;
              if (iy < 0 || iy >= H) continue;
              for (std::int64_t sx = 0; sx < S; ++sx) {
                const std::int64_t ix = ox * d.stride_w - d.pad_left + sx * d.dilation_w;
                if (ix < 0 || ix >= W) continue;
                const double v = x[at(d.input_layout, n, g * Cg + ci, iy, ix, C, H, W)] *
                                 w[std::size_t(((k * Cg + ci) * R + ry) * S + sx)];
                sum += v;
                scale += std::fabs(v);
              }
            }
          const std::size_t o = at(d.output_layout, n, k, oy, ox, K, OH, OW);
          if (c.bias) sum += b[std::size_t(k)], scale += std::fabs(b[std::size_t(k)]);
          if (c.residual) sum += res[o], scale += std::fabs(res[o]);
          const double want = unary(c.activation, sum, p.empty() ? 0 : p[0], p.size() < 2 ? 0 : p[1]);
          const double tol = u * (taps + 4) * L * scale + r * std::fabs(want) +
                             (act ? std::ldexp(1.0, -21) * scale : 0) +
                             (c.winograd && c.winograd_tile == 2 ? u * double(C + 16) * 2 * L * tile_scale(n, k, oy, ox)
                                                                 : 0) +
                             (c.winograd && c.winograd_tile == 4 ? u * double(C + 36) * 2 * L * tile4_scale(n, k, oy, ox)
                                                                 : 0) +
                             1e-30;
          const double have = got[off + o];
          if (!(std::fabs(have - want) <= tol)) {
            if (bad++ == 0)
              first << " first at n=" << n << " k=" << k << " y=" << oy << " x=" << ox << ": got " << have << ", want "
                    << want << " (tolerance " << tol << ")";
          }
        }
  if (bad) return ::testing::AssertionFailure() << describe(c) << ": " << bad << " wrong elements;" << first.str();
  return ::testing::AssertionSuccess();
}

detail::ConvForce conv_force(const std::string& candidate, const std::string& family, detail::Params p) {
  detail::ConvForce f;
  f.candidate = candidate;
  if (!family.empty()) f.params[family] = std::move(p);
  return f;
}

std::vector<Conv2dDesc> general_descs(ConvLayout in, ConvLayout out) {
  std::vector<Conv2dDesc> v;
  v.push_back(conv_desc(2, 3, 7, 9, 5, 3, 3, 1, 1, 1, in, out));     // odd sizes, pad 1
  v.push_back(conv_desc(1, 4, 8, 6, 6, 3, 3, 2, 0, 2, in, out));     // stride 2, groups 2
  v.push_back(conv_desc(1, 6, 9, 7, 6, 3, 1, 1, 0, 6, in, out));     // depthwise-shaped 3x1 through direct
  Conv2dDesc d = conv_desc(2, 4, 11, 10, 8, 3, 2, 1, 0, 2, in, out);  // dilation 2, asymmetric pads and strides
  d.dilation_h = 2, d.dilation_w = 1;
  d.pad_top = 2, d.pad_bottom = 0, d.pad_left = 1, d.pad_right = 3;
  d.stride_h = 2, d.stride_w = 1;
  v.push_back(d);
  Conv2dDesc e = conv_desc(1, 3, 5, 5, 7, 5, 5, 1, 0, 1, in, out);   // filter as large as the input
  e.dilation_w = 1;
  v.push_back(e);
  return v;
}

detail::ConvProblem problem_of(const Conv2dDesc& d) {
  detail::ConvProblem pr = detail::conv_kernels::make(DType::F32, d.batch, d.in_channels, d.in_height, d.in_width,
                                                      d.out_channels, d.kernel_h, d.kernel_w, d.stride_h, d.pad_top,
                                                      d.groups, d.input_layout == ConvLayout::NHWC);
  pr.out_nhwc = d.output_layout == ConvLayout::NHWC;
  return pr;
}

}  // namespace optune::ref
