#include "bench_conv.hpp"

#include <cmath>
#include <cstdio>

#include "ops/conv_ops.hpp"
#include "optune/conv.hpp"

namespace optune::tool {

namespace {

struct Case {
  std::string name;  // "dw3x3 nchw f32"
  Conv2dDesc d;
  DType dtype = DType::F32;
  bool compute_bound = false;  // report TFLOP/s against the FMA ceiling (else GB/s against the copy ceiling)
};

std::vector<Case> make_cases(const Capabilities& caps, const ConvBenchOptions& o) {
  const bool cpu = caps.type == DeviceType::CPU;
  const auto desc = [](std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t r,
                       std::int64_t groups, ConvLayout l) {
    Conv2dDesc d;
    d.batch = n, d.in_channels = c, d.in_height = d.in_width = hw, d.out_channels = k;
    d.kernel_h = d.kernel_w = r;
    d.pad_top = d.pad_bottom = d.pad_left = d.pad_right = r / 2;
    d.groups = groups;
    d.input_layout = d.output_layout = l;
    return d;
  };
  std::vector<DType> types{DType::F32};
  if (!o.quick && caps.fp16) types.push_back(DType::F16);
  std::vector<Case> out;
  for (DType t : types)
    for (ConvLayout l : {ConvLayout::NCHW, ConvLayout::NHWC}) {
      const std::string suffix = std::string(l == ConvLayout::NHWC ? " nhwc " : " nchw ") + std::string(dtype_name(t));
      out.push_back({"dw3x3" + suffix, cpu ? desc(1, 64, 56, 64, 3, 64, l) : desc(8, 256, 112, 256, 3, 256, l), t, false});
      out.push_back({"conv3x3" + suffix, cpu ? desc(1, 64, 28, 64, 3, 1, l) : desc(32, 64, 56, 64, 3, 1, l), t, true});
      out.push_back({"conv1x1" + suffix, cpu ? desc(1, 256, 28, 64, 1, 1, l) : desc(32, 256, 56, 64, 1, 1, l), t, true});
    }
  return out;
}

// Deterministic values in [-1, 1) (a 64-bit LCG), as the device stores them.
std::vector<float> values(std::size_t n, std::uint64_t seed, DType t) {
  std::vector<float> v(n);
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = float(std::int32_t(s >> 32)) * (1.0f / 2147483648.0f);
    if (t == DType::F16) x = float(half(x));
  }
  return v;
}

template <class T>
Buffer<T> upload(const Queue& q, const std::vector<float>& v) {
  std::vector<T> host(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) host[i] = T(v[i]);
  Buffer<T> b = q.context().alloc<T>(v.size());
  q.upload(b, std::span<const T>(host));
  return b;
}

template <class T>
std::vector<float> download(const Queue& q, const Buffer<T>& b) {
  const std::vector<T> host = q.download(b);
  std::vector<float> out(host.size());
  for (std::size_t i = 0; i < host.size(); ++i) out[i] = float(host[i]);
  return out;
}

std::size_t index(ConvLayout l, std::int64_t n, std::int64_t c, std::int64_t y, std::int64_t x, std::int64_t C,
                  std::int64_t H, std::int64_t W) {
  return std::size_t(l == ConvLayout::NHWC ? ((n * H + y) * W + x) * C + c : ((n * C + c) * H + y) * W + x);
}

// The largest |got - want| / (sum |x w|) over 512 sampled outputs.
double sampled_error(const Conv2dDesc& d, const std::vector<float>& in, const std::vector<float>& wt,
                     const std::vector<float>& out) {
  const std::int64_t OH = d.out_height(), OW = d.out_width(), Cg = d.in_channels / d.groups,
                     Kg = d.out_channels / d.groups;
  double worst = 0;
  std::uint64_t s = 12345;
  for (int i = 0; i < 512; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t pick = (s >> 11) % std::uint64_t(d.output_elements());
    const std::int64_t ox = std::int64_t(pick % std::uint64_t(OW)), oy = std::int64_t(pick / OW % OH);
    const std::int64_t k = std::int64_t(pick / (OW * OH) % std::uint64_t(d.out_channels));
    const std::int64_t n = std::int64_t(pick / (OW * OH * d.out_channels));
    double sum = 0, scale = 1e-30;
    for (std::int64_t c = 0; c < Cg; ++c)
      for (std::int64_t r = 0; r < d.kernel_h; ++r)
        for (std::int64_t t = 0; t < d.kernel_w; ++t) {
          const std::int64_t iy = oy * d.stride_h - d.pad_top + r * d.dilation_h;
          const std::int64_t ix = ox * d.stride_w - d.pad_left + t * d.dilation_w;
          if (iy < 0 || iy >= d.in_height || ix < 0 || ix >= d.in_width) continue;
          const double v = double(in[index(d.input_layout, n, k / Kg * Cg + c, iy, ix, d.in_channels, d.in_height,
                                            d.in_width)]) *
                           double(wt[std::size_t(((k * Cg + c) * d.kernel_h + r) * d.kernel_w + t)]);
          sum += v;
          scale += std::fabs(v);
        }
    const double got = out[index(d.output_layout, n, k, oy, ox, d.out_channels, OH, OW)];
    worst = std::max(worst, std::fabs(got - sum) / scale);
  }
  return worst;
}

template <class T>
nlohmann::json run_case(const Queue& q, const Ceilings& c, const Case& k, int runs, bool quiet) {
  const Conv2dDesc& d = k.d;
  const std::vector<float> in = values(std::size_t(d.input_elements()), 1, k.dtype);
  const std::vector<float> wt = values(std::size_t(d.weight_elements()), 2, k.dtype);
  const Buffer<T> bin = upload<T>(q, in), bwt = upload<T>(q, wt);
  const Buffer<T> bout = q.context().alloc<T>(std::size_t(d.output_elements()));
  detail::ConvProblem pr = detail::conv_kernels::make(k.dtype, d.batch, d.in_channels, d.in_height, d.in_width,
                                                      d.out_channels, d.kernel_h, d.kernel_w, 1, d.pad_top, d.groups,
                                                      d.input_layout == ConvLayout::NHWC);
  const detail::ConvChoice choice = detail::choose_conv(q, pr, nullptr);
  const Timing t = time_events([&] { return conv2d(q, d, bin, bwt, bout); }, 2, runs);
  const double err = sampled_error(d, in, wt, download(q, bout));
  const double flops = pr.flops(), bytes = pr.bytes();
  const double gbs = bytes / t.median_s * 1e-9, tflops = flops / t.median_s * 1e-12;
  // f16 storage sums in f32: the f32 FMA rate bounds it.
  const double fma = c.fma_gflops[0] * 1e-3;
  const double frac = k.compute_bound ? (fma > 0 ? tflops / fma : 0) : (c.copy_gbs > 0 ? gbs / c.copy_gbs : 0);
  const bool cached = fits_in_cache(c, bytes);
  const double tol = k.dtype == DType::F16 ? 2e-3 : 1e-5;
  if (!quiet)
    std::printf("%-20s %12.1f %10.1f %9.2f %7.1f%%%s %-9s %8.1e%s %s\n", k.name.c_str(), t.median_s * 1e6, gbs, tflops,
                100 * frac, cached ? "*" : " ", choice.candidate->name().c_str(), err, err <= tol ? "" : " WRONG",
                t.parameters_text.c_str());
  return {{"case", k.name},
          {"dtype", std::string(dtype_name(k.dtype))},
          {"nchw_in", {d.batch, d.in_channels, d.in_height, d.in_width}},
          {"out_channels", d.out_channels},
          {"kernel", {d.kernel_h, d.kernel_w}},
          {"groups", d.groups},
          {"layout", d.input_layout == ConvLayout::NHWC ? "nhwc" : "nchw"},
          {"median_us", t.median_s * 1e6},
          {"min_us", t.min_s * 1e6},
          {"gbs", gbs},
          {"tflops", tflops},
          {"bytes", bytes},
          {"flops", flops},
          {k.compute_bound ? "fraction_of_fma_ceiling" : "fraction_of_copy_ceiling", frac},
          {"fits_in_cache", cached},
          {"candidate", choice.candidate->name()},
          {"max_sampled_error", err},
          {"correct", err <= tol},
          {"parameters", t.parameters}};
}

}  // namespace

std::vector<std::string> conv_case_names(const Capabilities& caps, const ConvBenchOptions& o) {
  std::vector<std::string> names;
  for (const Case& k : make_cases(caps, o)) names.push_back(k.name);
  return names;
}

nlohmann::json bench_conv(const Queue& q, const Ceilings& c, const ConvBenchOptions& o) {
  const Capabilities& caps = q.device().caps();
  const bool cpu = caps.type == DeviceType::CPU;
  const int runs = o.runs > 0 ? o.runs : (cpu ? 5 : 20);
  nlohmann::json rows = nlohmann::json::array();
  if (!o.quiet) {
    std::printf("\nconv (%s; dw3x3 against the copy ceiling, conv3x3 and conv1x1 against the f32 FMA ceiling;\n"
                "error: the largest |optune - double| / sum |x w| over 512 sampled outputs)\n",
                cpu ? "CPU: batch 1, 28 x 28 or 56 x 56" : "the issue's shapes");
    std::printf("%-20s %12s %10s %9s %8s %-9s %8s %s\n", "case", "time us", "GB/s", "TFLOP/s", "ceiling", "candidate",
                "error", "parameters");
  }
  for (const Case& k : make_cases(caps, o)) {
    if (!selected(k.name, o.only)) continue;
    rows.push_back(k.dtype == DType::F16 ? run_case<half>(q, c, k, runs, o.quiet)
                                         : run_case<float>(q, c, k, runs, o.quiet));
    std::fflush(stdout);
  }
  return rows;
}

}  // namespace optune::tool
