// The fused Winograd family (conv_winograd_fused, kernels/conv/conv.hpp; the
// kernel is conv/conv_wino_fused.cl): its block and work-item sizes, the
// limits they meet (work-group size, local memory) and their shrinking
// towards few output channels.
#include <algorithm>

#include "kernels/conv/conv.hpp"

namespace optune::detail {

using conv_kernels::ceil_div;

std::vector<Parameter> ConvWinoFusedFamily::parameters(const Capabilities& caps) const {
  const bool cpu = caps.type == DeviceType::CPU;
  return {{"BK", {16, 32, 64}, cpu ? 16 : 32, "output channels per work-group"},
          {"BT", {16, 32, 64}, cpu ? 16 : 32, "2 x 2 output tiles per work-group"},
          {"BC", {4, 8, 16}, 8, "input channels per step (transformed into local memory together)"},
          {"KPT", {4, 8}, cpu ? 4 : 8, "output channels per work-item (of one position)"},
          {"TPT", {4, 8}, cpu ? 4 : 8, "tiles per work-item"},
          {"PREFETCH", {0, 1}, 1,
           "1: the next step's input patches and weights loaded into registers before the product (more "
           "registers, the loads behind the arithmetic)"},
          {"CU", {0, 1, 2, 4}, 0,
           "the product's loop over a step's channels unrolled CU times (0: wholly; fewer: fewer local reads "
           "in flight, fewer registers)"},
          {"WT", {2, 4}, 2,
           "output tile side: 2, F(2x2, 3x3) (16 positions, 4 products an output per channel); 4, F(4x4, 3x3) "
           "(36 positions, 2.25 products, larger rounding errors)"},
          {"OE", {1, 2, 4}, 4,
           "output channels of each pack of 4 a work-item writes out per output pass (fewer: smaller local "
           "planes of sums, more passes)"}};
}

std::int64_t ConvWinoFusedFamily::work_items(const Params& p) {
  return ConvWinogradFamily::positions(p) * (p.at("BK") / p.at("KPT")) * (p.at("BT") / p.at("TPT"));
}

std::int64_t ConvWinoFusedFamily::local_bytes(const Params& p) {
  const std::int64_t bk = p.at("BK"), bt = p.at("BT"), bc = p.at("BC");
  // conv_wino_fused.cl's WF_UPL and WF_VPL: each plane padded to 16 words past a multiple of 32.
  const auto half = [](std::int64_t n) { return n + (48 - n % 32) % 32; };
  const std::int64_t np = ConvWinogradFamily::positions(p);
  const std::int64_t main = np * (half(bc * bk) + half(bc * (bt + 4)));
  const std::int64_t out = np * (bk / p.at("KPT")) * p.at("OE") * (bt + 1);
  return std::max(main, out) * std::int64_t(sizeof(float));
}

std::string ConvWinoFusedFamily::check(const Params& p, const Capabilities& caps, const ConvProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!ConvWinogradFamily::applies(pr)) return "not a 3x3, stride 1, dilation 1 convolution of one group";
  const std::int64_t wgs = work_items(p);
  if (std::size_t(wgs) > caps.max_work_group_size || std::size_t(wgs) > caps.max_work_item_sizes[0])
    return "(WT + 2)^2 (BK / KPT) (BT / TPT) work-items exceed the device's work-group limit";
  // CUDA declares the local tiles as static shared memory (local_limit: 48 KiB there).
  if (std::uint64_t(local_bytes(p)) > local_limit(caps)) return "the local tiles exceed the device's local memory";
  if (p.count("UVEC") && p.at("UVEC") && pr.k % 4) return "UVEC needs K a multiple of 4";
  return "";
}

Params ConvWinoFusedFamily::fit(const Params& tuned, const Capabilities& caps, const ConvProblem& pr) const {
  Params p = complete(tuned, caps);
  // F(4x4)'s 36 planes of transformed weights within the largest allocation.
  if (p["WT"] == 4 && ConvWinogradFamily::weight_bytes(p, pr) > caps.max_alloc_bytes) p["WT"] = 2;
  // No wider channel block than the output has (at least 16).
  while (p["BK"] > 16 && p["BK"] / 2 >= pr.k) p["BK"] /= 2;
  // Within the device: smaller output passes; fewer tiles, then channels
  // per step, then output channels, per work-group; then more tiles and
  // channels per work-item (fewer work-items: 64 at the least).
  for (std::string why = check(p, caps, pr); why.find("exceed") != std::string::npos; why = check(p, caps, pr)) {
    Params fewer = p;
    fewer["OE"] = std::max<std::int64_t>(1, p["OE"] / 2);
    if (why.find("local") != std::string::npos && local_bytes(fewer) < local_bytes(p))
      p = fewer;
    else if (p["BT"] > 16 || p["BC"] > 4 || p["BK"] > 16)
      p[p["BT"] > 16 ? "BT" : p["BC"] > 4 ? "BC" : "BK"] /= 2;
    else if (p["TPT"] < 8 || p["KPT"] < 8)
      p[p["TPT"] < 8 ? "TPT" : "KPT"] *= 2;
    else
      break;
  }
  p["UVEC"] = pr.k % 4 == 0;
  return p;
}

Geometry ConvWinoFusedFamily::geometry(const Params& p, const Capabilities&, const ConvProblem& pr) const {
  const std::int64_t tiles = ConvWinogradFamily::tiles(p, pr);
  const std::int64_t wgs = work_items(p);
  Geometry g;
  g.local[0] = std::size_t(wgs);
  g.global[0] = std::size_t(ceil_div(tiles, p.at("BT")) * ceil_div(pr.k, p.at("BK")) * wgs);
  return g;
}

ConvProblem ConvWinoFusedFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  return conv_kernels::general_example(dtype, bucket == "nhwc", caps);
}

}  // namespace optune::detail
