#include "bench_conv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ops/conv_ops.hpp"
#include "optune/conv.hpp"
#include "reference/reference_conv.hpp"

namespace optune::tool {

namespace {

struct Case {
  std::string name;  // "dw3x3 nchw f32"
  Conv2dDesc d;
  DType dtype = DType::F32;
  bool compute_bound = false;  // report TFLOP/s against the FMA ceiling (else GB/s against the copy ceiling)
};

// One layer of a network: C x HW x HW -> K, R x R (pad R / 2), stride, groups.
struct Layer {
  const char* name;
  std::int64_t c, hw, k, r, stride, groups;
};

// MobileNetV2 (224 x 224): the stem, then each distinct expansion (1x1),
// depthwise (3x3) and projection (1x1) layer of the inverted residual blocks,
// and the last 1x1.
const Layer kMobileNetV2[] = {
    {"stem3x3s2 3-32", 3, 224, 32, 3, 2, 1},       {"dw 32 112", 32, 112, 32, 3, 1, 32},
    {"pw 32-16 112", 32, 112, 16, 1, 1, 1},        {"pw 16-96 112", 16, 112, 96, 1, 1, 1},
    {"dw 96 112s2", 96, 112, 96, 3, 2, 96},        {"pw 96-24 56", 96, 56, 24, 1, 1, 1},
    {"pw 24-144 56", 24, 56, 144, 1, 1, 1},        {"dw 144 56", 144, 56, 144, 3, 1, 144},
    {"pw 144-24 56", 144, 56, 24, 1, 1, 1},        {"dw 144 56s2", 144, 56, 144, 3, 2, 144},
    {"pw 144-32 28", 144, 28, 32, 1, 1, 1},        {"pw 32-192 28", 32, 28, 192, 1, 1, 1},
    {"dw 192 28", 192, 28, 192, 3, 1, 192},        {"pw 192-32 28", 192, 28, 32, 1, 1, 1},
    {"dw 192 28s2", 192, 28, 192, 3, 2, 192},      {"pw 192-64 14", 192, 14, 64, 1, 1, 1},
    {"pw 64-384 14", 64, 14, 384, 1, 1, 1},        {"dw 384 14", 384, 14, 384, 3, 1, 384},
    {"pw 384-64 14", 384, 14, 64, 1, 1, 1},        {"pw 384-96 14", 384, 14, 96, 1, 1, 1},
    {"pw 96-576 14", 96, 14, 576, 1, 1, 1},        {"dw 576 14", 576, 14, 576, 3, 1, 576},
    {"pw 576-96 14", 576, 14, 96, 1, 1, 1},        {"dw 576 14s2", 576, 14, 576, 3, 2, 576},
    {"pw 576-160 7", 576, 7, 160, 1, 1, 1},        {"pw 160-960 7", 160, 7, 960, 1, 1, 1},
    {"dw 960 7", 960, 7, 960, 3, 1, 960},          {"pw 960-160 7", 960, 7, 160, 1, 1, 1},
    {"pw 960-320 7", 960, 7, 320, 1, 1, 1},        {"pw 320-1280 7", 320, 7, 1280, 1, 1, 1},
};

// ResNet-50 (224 x 224, torchvision v1.5: the stride on the 3x3): each
// distinct convolution.
const Layer kResNet50[] = {
    {"conv1 7x7s2 3-64", 3, 224, 64, 7, 2, 1},     {"1x1 64-64 56", 64, 56, 64, 1, 1, 1},
    {"3x3 64-64 56", 64, 56, 64, 3, 1, 1},         {"1x1 64-256 56", 64, 56, 256, 1, 1, 1},
    {"1x1 256-64 56", 256, 56, 64, 1, 1, 1},       {"1x1 256-128 56", 256, 56, 128, 1, 1, 1},
    {"3x3 128 56s2", 128, 56, 128, 3, 2, 1},       {"1x1 128-512 28", 128, 28, 512, 1, 1, 1},
    {"1x1s2 256-512 56", 256, 56, 512, 1, 2, 1},   {"1x1 512-128 28", 512, 28, 128, 1, 1, 1},
    {"3x3 128-128 28", 128, 28, 128, 3, 1, 1},     {"1x1 512-256 28", 512, 28, 256, 1, 1, 1},
    {"3x3 256 28s2", 256, 28, 256, 3, 2, 1},       {"1x1 256-1024 14", 256, 14, 1024, 1, 1, 1},
    {"1x1s2 512-1024 28", 512, 28, 1024, 1, 2, 1}, {"1x1 1024-256 14", 1024, 14, 256, 1, 1, 1},
    {"3x3 256-256 14", 256, 14, 256, 3, 1, 1},     {"1x1 1024-512 14", 1024, 14, 512, 1, 1, 1},
    {"3x3 512 14s2", 512, 14, 512, 3, 2, 1},       {"1x1 512-2048 7", 512, 7, 2048, 1, 1, 1},
    {"1x1s2 1024-2048 14", 1024, 14, 2048, 1, 2, 1}, {"1x1 2048-512 7", 2048, 7, 512, 1, 1, 1},
    {"3x3 512-512 7", 512, 7, 512, 3, 1, 1},
};

bool group_wanted(const ConvBenchOptions& o, const std::string& g) {
  if (o.groups.empty()) return g == "issue";
  return std::find(o.groups.begin(), o.groups.end(), g) != o.groups.end();
}

std::vector<Case> make_cases(const Capabilities& caps, const ConvBenchOptions& o) {
  const bool cpu = caps.type == DeviceType::CPU;
  const auto desc = [](std::int64_t n, std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t r,
                       std::int64_t groups, ConvLayout l, std::int64_t stride = 1) {
    Conv2dDesc d;
    d.batch = n, d.in_channels = c, d.in_height = d.in_width = hw, d.out_channels = k;
    d.kernel_h = d.kernel_w = r;
    d.stride_h = d.stride_w = stride;
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
      if (group_wanted(o, "issue")) {
        out.push_back({"dw3x3" + suffix, cpu ? desc(1, 64, 56, 64, 3, 64, l) : desc(8, 256, 112, 256, 3, 256, l), t,
                       false});
        out.push_back({"conv3x3" + suffix, cpu ? desc(1, 64, 28, 64, 3, 1, l) : desc(32, 64, 56, 64, 3, 1, l), t,
                       true});
        out.push_back({"conv1x1" + suffix, cpu ? desc(1, 256, 28, 64, 1, 1, l) : desc(32, 256, 56, 64, 1, 1, l), t,
                       true});
      }
      const auto layers = [&](const char* net, const Layer* begin, const Layer* end,
                              std::initializer_list<std::int64_t> batches) {
        for (std::int64_t n : batches)
          for (const Layer* y = begin; y != end; ++y)
            out.push_back({std::string(net) + " b" + std::to_string(n) + " " + y->name + suffix,
                           desc(n, y->c, y->hw, y->k, y->r, y->groups, l, y->stride), t, y->groups == 1});
      };
      if (group_wanted(o, "mobilenet"))
        layers("mobilenetv2", std::begin(kMobileNetV2), std::end(kMobileNetV2),
               cpu ? std::initializer_list<std::int64_t>{1} : std::initializer_list<std::int64_t>{1, 8});
      if (group_wanted(o, "resnet"))
        layers("resnet50", std::begin(kResNet50), std::end(kResNet50),
               cpu ? std::initializer_list<std::int64_t>{1} : std::initializer_list<std::int64_t>{32});
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

// The largest |got - want| / (sum |x w|) over 512 sampled outputs of `out`,
// want computed in double from in and wt (read K x C/groups x R x S, or K x R
// x S x C/groups with weights_krsc: a reference library's channels-last
// filters). With `other`, also the largest |out - other| / (sum |x w|) at the
// same outputs into *vs_other.
double sampled_error(const Conv2dDesc& d, const std::vector<float>& in, const std::vector<float>& wt,
                     const std::vector<float>& out, bool weights_krsc = false,
                     const std::vector<float>* other = nullptr, double* vs_other = nullptr) {
  const std::int64_t OH = d.out_height(), OW = d.out_width(), Cg = d.in_channels / d.groups,
                     Kg = d.out_channels / d.groups;
  double worst = 0, worst_other = 0;
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
          const std::int64_t w = weights_krsc ? ((k * d.kernel_h + r) * d.kernel_w + t) * Cg + c
                                              : ((k * Cg + c) * d.kernel_h + r) * d.kernel_w + t;
          const double v = double(in[index(d.input_layout, n, k / Kg * Cg + c, iy, ix, d.in_channels, d.in_height,
                                            d.in_width)]) *
                           double(wt[std::size_t(w)]);
          sum += v;
          scale += std::fabs(v);
        }
    const std::size_t at = index(d.output_layout, n, k, oy, ox, d.out_channels, OH, OW);
    worst = std::max(worst, std::fabs(out[at] - sum) / scale);
    if (other) worst_other = std::max(worst_other, std::fabs(double(out[at]) - double((*other)[at])) / scale);
  }
  if (vs_other) *vs_other = worst_other;
  return worst;
}

// The reference library's time for the case on the same buffers (its
// output into its own buffer, checked as optune's is: against double at the
// sampled outputs, and against optune's output there where both read the
// weights in the same order), or why there is none.
template <class T>
nlohmann::json reference_row(const Queue& q, ReferenceConv* ref, const std::string& reason, const Case& k,
                             const std::vector<float>& in, const std::vector<float>& wt, const Buffer<T>& bin,
                             const Buffer<T>& bwt, const std::vector<float>& ours, double our_s, int runs,
                             bool half_sums) {
  std::string why = ref ? ref->unsupported(k.d, k.dtype) : reason;
  if (ref && why.empty()) {
    try {
      const Buffer<T> out = q.context().alloc<T>(std::size_t(k.d.output_elements()));
      const PreparedConv prepared = ref->prepare(q, k.d, k.dtype, interop::native_buffer(bin),
                                                 interop::native_buffer(bwt), interop::native_buffer(out),
                                                 half_sums);
      const Timing t = time_events(prepared.run, 2, runs);
      // NHWC references read the weights channels-last (reference_conv.hpp),
      // optune K x C/groups x R x S: their outputs differ there.
      const bool krsc = k.d.input_layout == ConvLayout::NHWC;
      double vs_optune = 0;
      const double err = sampled_error(k.d, in, wt, download(q, out), krsc, krsc ? nullptr : &ours, &vs_optune);
      nlohmann::json row = {{"available", true},
                            {"library", ref->name()},
                            {"median_us", t.median_s * 1e6},
                            {"min_us", t.min_s * 1e6},
                            {"algorithm", prepared.algorithm},
                            {"sums", half_sums && k.dtype == DType::F16 ? "f16" : "f32"},
                            {"speed_ratio", t.median_s / our_s},
                            {"max_sampled_error", err}};
      row["max_relative_difference"] = krsc ? nlohmann::json(nullptr) : nlohmann::json(vs_optune);
      return row;
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
  }
  return {{"available", false}, {"reason", why}};
}

template <class T>
nlohmann::json run_case(const Queue& q, const Ceilings& c, const Case& k, int runs, bool quiet, int width,
                        ReferenceConv* ref, const std::string& ref_reason) {
  const Conv2dDesc& d = k.d;
  const std::vector<float> in = values(std::size_t(d.input_elements()), 1, k.dtype);
  const std::vector<float> wt = values(std::size_t(d.weight_elements()), 2, k.dtype);
  const Buffer<T> bin = upload<T>(q, in), bwt = upload<T>(q, wt);
  const Buffer<T> bout = q.context().alloc<T>(std::size_t(d.output_elements()));
  detail::ConvProblem pr = detail::conv_kernels::make(k.dtype, d.batch, d.in_channels, d.in_height, d.in_width,
                                                      d.out_channels, d.kernel_h, d.kernel_w, d.stride_h, d.pad_top,
                                                      d.groups, d.input_layout == ConvLayout::NHWC);
  const detail::ConvChoice choice = detail::choose_conv(q, pr, nullptr);
  const Timing t = time_events([&] { return conv2d(q, d, bin, bwt, bout); }, 2, runs);
  const std::vector<float> ours = download(q, bout);
  const double err = sampled_error(d, in, wt, ours);
  const double flops = pr.flops(), bytes = pr.bytes();
  const double gbs = bytes / t.median_s * 1e-9, tflops = flops / t.median_s * 1e-12;
  // f16 storage sums in f32: the f32 FMA rate bounds it.
  const double fma = c.fma_gflops[0] * 1e-3;
  const double frac = k.compute_bound ? (fma > 0 ? tflops / fma : 0) : (c.copy_gbs > 0 ? gbs / c.copy_gbs : 0);
  const bool cached = fits_in_cache(c, bytes);
  // Sums in f16 (conv.hpp: f16 depthwise under Accumulate::Default where the
  // tuned HALF says so): up to about (R S + 1) 2^-11 of sum |x w|. The
  // reference still sums in f32 (the more accurate result, and cuDNN's
  // faster one: its f16-sum algorithms took 2-25x longer on the H200); its
  // f16-sum time is reported beside, reference_f16_sums.
  const bool half_sums = k.dtype == DType::F16 && choice.params.count("HALF") && choice.params.at("HALF") != 0;
  const double tol = half_sums ? double(d.kernel_h * d.kernel_w + 2) * std::ldexp(1.0, -11)
                                  : k.dtype == DType::F16 ? 2e-3 : 1e-5;
  const nlohmann::json reference =
      reference_row(q, ref, ref_reason, k, in, wt, bin, bwt, ours, t.median_s, runs, false);
  const nlohmann::json reference_f16_sums =
      half_sums ? reference_row(q, ref, ref_reason, k, in, wt, bin, bwt, ours, t.median_s, runs, true)
                : nlohmann::json(nullptr);
  if (!quiet) {
    char vs[32] = "-";
    std::string ref_line;
    if (reference["available"].get<bool>()) {
      std::snprintf(vs, sizeof vs, "%.2fx", reference["speed_ratio"].get<double>());
      char diff[48] = "", buf[160];
      if (!reference["max_relative_difference"].is_null())
        std::snprintf(diff, sizeof diff, ", vs optune %.1e", reference["max_relative_difference"].get<double>());
      std::snprintf(buf, sizeof buf, "reference %.1f us (%s, error %.1e%s); ", reference["median_us"].get<double>(),
                    reference["algorithm"].get<std::string>().c_str(), reference["max_sampled_error"].get<double>(),
                    diff);
      ref_line = buf;
      if (!reference_f16_sums.is_null() && reference_f16_sums["available"].get<bool>()) {
        std::snprintf(buf, sizeof buf, "with f16 sums %.1f us (%s); ", reference_f16_sums["median_us"].get<double>(),
                      reference_f16_sums["algorithm"].get<std::string>().c_str());
        ref_line += buf;
      }
    } else if (ref) {
      ref_line = "reference: " + reference["reason"].get<std::string>() + "; ";
    }
    std::printf("%-*s %10.1f %9.1f %8.2f %7.1f%%%s %-15s %8.1e%s %7s\n      %s%s\n", width, k.name.c_str(),
                t.median_s * 1e6, gbs, tflops, 100 * frac, cached ? "*" : " ", choice.candidate->name().c_str(), err,
                err <= tol ? "" : " WRONG", vs, ref_line.c_str(), t.parameters_text.c_str());
  }
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
          {"sums", half_sums ? "f16" : "f32"},
          {"max_sampled_error", err},
          {"correct", err <= tol},
          {"reference", reference},
          {"reference_f16_sums", reference_f16_sums},
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
  std::vector<Case> cases;
  int width = 4;
  for (Case& k : make_cases(caps, o))
    if (selected(k.name, o.only)) width = std::max(width, int(k.name.size())), cases.push_back(std::move(k));
  ReferenceConvOpen ref;
  if (o.reference)
    ref = open_reference_conv(q);
  else
    ref.reason = "not run (--no-reference)";
  const std::string reference = ref.conv ? ref.conv->name() : ref.reason;
  if (!o.quiet) {
    std::printf("\nconv (%s; depthwise against the copy ceiling, the others against the f32 FMA ceiling;\n"
                "error: the largest |optune - double| / sum |x w| over 512 sampled outputs; vs ref: the reference's\n"
                "time over optune's (above 1: optune faster); below each: the reference's time, its error and\n"
                "|reference - optune| / sum |x w| there, and optune's parameters)\nreference: %s\n",
                cpu ? "CPU: batch 1, the issue's cases at 28 x 28 or 56 x 56" : "the issue's shapes",
                reference.c_str());
    std::printf("%-*s %10s %9s %8s %8s %-15s %8s %7s\n", width, "case", "time us", "GB/s", "TFLOP/s", "ceiling",
                "candidate", "error", "vs ref");
  }
  for (const Case& k : cases) {
    rows.push_back(k.dtype == DType::F16
                       ? run_case<half>(q, c, k, runs, o.quiet, width, ref.conv.get(), ref.reason)
                       : run_case<float>(q, c, k, runs, o.quiet, width, ref.conv.get(), ref.reason));
    std::fflush(stdout);
  }
  return rows;
}

}  // namespace optune::tool
