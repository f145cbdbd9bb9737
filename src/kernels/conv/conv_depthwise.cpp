// The depthwise convolution families: conv_depthwise (buffers) and
// conv_depthwise_image (2-D images), kernels/conv/conv.hpp.
#include <algorithm>

#include "kernels/conv/conv.hpp"

namespace optune::detail {

using namespace conv_kernels;

namespace {

// conv_depthwise's work-items: RPT rows by WPT (NCHW) or PPT (NHWC) pixels
// of one channel (NCHW) or VW channels (NHWC) each.
std::int64_t depthwise_items(const Params& p, const ConvProblem& pr) {
  const std::int64_t rows = ceil_div(pr.oh, p.at("RPT"));
  return pr.in_nhwc ? pr.n * rows * ceil_div(pr.ow, p.at("PPT")) * (pr.c / p.at("VW"))
                    : pr.n * pr.c * rows * ceil_div(pr.ow, p.at("WPT"));
}

// conv_depthwise's windows (FAST): dilation 1 and strides of 1 or 2 (compiled
// in as SHC, SWC: a program per stride), each input row of a tile loaded once.
bool depthwise_fast(const ConvProblem& pr) {
  return pr.stride_h <= 2 && pr.stride_w <= 2 && pr.dil_h == 1 && pr.dil_w == 1;
}
// Stride 1 and dilation 1: the window's middle is the tile's own WPT inputs.
bool depthwise_unit(const ConvProblem& pr) {
  return pr.stride_h == 1 && pr.stride_w == 1 && pr.dil_h == 1 && pr.dil_w == 1;
}
// NCHW: the window's middle inputs as one pack where every input row starts on one.
bool depthwise_vin(const Params& p, const Capabilities& caps, const ConvProblem& pr) {
  const std::int64_t wpt = p.at("WPT");
  return !pr.in_nhwc && wpt > 1 && wpt <= max_lanes(caps) && depthwise_unit(pr) && pr.w % wpt == 0 &&
         pr.align % wpt == 0 && pr.pad_l >= 0 && pr.pad_l <= pr.s - 1;
}
// conv_depthwise's rolled rows (ROLL) change the program with the windows
// (FAST) and at least two rows per work-item.
bool depthwise_roll(const Params& p, const ConvProblem& pr) { return depthwise_fast(pr) && p.at("RPT") > 1; }
// conv_depthwise's half arithmetic (HALF) can serve the bucket: NHWC f16 on
// a device with half arithmetic, pairs of channels; it applies to a call
// whose caller lets the sums run in f16 as well (half_arith).
bool depthwise_half_bucket(const Params& p, const Capabilities& caps, const ConvProblem& pr) {
  return pr.in_nhwc && pr.dtype == DType::F16 && caps.fp16 && p.at("VW") % 2 == 0;
}
// conv_depthwise's rows staged in local memory (LOC; NCHW with VIN) apply
// where the window's edges fit in the neighbours' packs and the rows in half
// of what the device gives a group (a small footprint keeps the occupancy).
bool depthwise_loc(const Params& p, const Capabilities& caps, const ConvProblem& pr) {
  const std::int64_t wpt = p.at("WPT"), plc = pr.pad_l, es = 4;  // local memory holds f32
  return depthwise_vin(p, caps, pr) && plc <= wpt && pr.s - 1 - plc <= wpt &&
         (p.at("RPT") + pr.r - 1) * p.at("WGS") * wpt * es <= std::int64_t(local_limit(caps)) / 2;
}

}  // namespace

// ---- conv_depthwise ----

std::vector<Parameter> ConvDepthwiseFamily::parameters(const Capabilities& caps) const {
  std::vector<std::int64_t> lanes{1, 2, 4};
  if (max_lanes(caps) > 4) lanes.insert(lanes.end(), {8, 16});
  return {{"WGS", {32, 64, 128, 256}, 128, "work-items per group"},
          {"WPT", {1, 2, 4, 8}, 4, "NCHW: outputs along W per work-item (one pack where aligned)"},
          {"VW", lanes, 4, "NHWC: channels per work-item, loaded and stored as one pack"},
          {"PPT", {1, 2, 4, 8}, 1, "NHWC: output pixels along W per work-item"},
          {"RPT", {1, 2, 4, 8, 16}, 4,
           "output rows per work-item (with dilation 1 and strides up to 2, each input row loaded once for all)"},
          {"ROLL", {0, 1}, 0,
           "dilation 1, strides up to 2: 1 stores each output row once its last input row is in (FR rows of sums "
           "live, not RPT: tall tiles at the registers of short ones)"},
          {"HALF", {0, 1}, 0,
           "NHWC f16 on devices with half arithmetic (and Accumulate::Default): 1 sums in half2 pairs of channels "
           "(VW even)"},
          {"FILL", {0, 256, 512, 1024, 2048}, caps.type == DeviceType::CPU ? 0 : 1024,
           "work-items per compute unit that fit keeps by fewer rows (RPT), then pixels (PPT), per work-item "
           "(small layers; 0: the tuned sizes always)"},
          {"LOC", {0, 1}, 0,
           "NCHW, stride 1: 1 stages the window rows' middle packs in local memory, the edges read from the "
           "neighbours' (where it applies)"},
          {"IDX64", {0, 1}, 0,
           "1: 64-bit division of the work-item's index (fit sets it where the grid passes 2^32 work-items; "
           "0: 32-bit, a far shorter sequence)"},
          register_cap_parameter(caps)};
}

std::string ConvDepthwiseFamily::check(const Params& p, const Capabilities& caps, const ConvProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!group_fits(p.at("WGS"), caps)) return "WGS exceeds the device's work-group limit";
  if (!pr.depthwise()) return "not a depthwise convolution (groups == C == K)";
  if (pr.in_nhwc != pr.out_nhwc) return "input and output in different layouts";
  // A layout's unused parameters stay at their defaults (so the tuner runs
  // no program twice).
  const Params dflt = defaults(caps);
  // FILL away from its default only where it changes the work per item
  // (else a tuner's example, a large layer, keeps any value; fit resets it).
  if (const std::int64_t fill = p.at("FILL"); fill != dflt.at("FILL") &&
                                               depthwise_items(p, pr) >= std::int64_t(caps.compute_units) *
                                                                             std::max(fill, dflt.at("FILL")))
    return "FILL changes nothing for a layer this large (the default stands)";
  // LOC, ROLL and HALF are refused only where they could change nothing on
  // any layer of the bucket (the layout, the type, the device, the other
  // parameters): a stored entry serves every layer of its bucket, and fit
  // drops them on a layer they do not apply to (a stride, a window that is
  // not packs, f32 sums asked for), where the rest of the entry still holds.
  if (p.at("LOC") != dflt.at("LOC") && (pr.in_nhwc || p.at("WPT") < 2))
    return "LOC applies to NCHW with WPT 2 or more only (the default stands)";
  if (p.at("ROLL") && p.at("RPT") < 2) return "ROLL changes nothing with one row per work-item (the default stands)";
  if (p.at("HALF") && !depthwise_half_bucket(p, caps, pr))
    return "HALF needs NHWC f16, half arithmetic on the device and VW even";
  if (pr.in_nhwc) {
    if (p.at("WPT") != dflt.at("WPT") && p.at("WPT") != 1) return "WPT applies to NCHW only";
    // (fit narrows VW to what the layer's channels and offsets allow.)
    if (p.at("VW") > max_lanes(caps)) return "VW wider than the backend's vectors";
  } else {
    if ((p.at("VW") != dflt.at("VW") && p.at("VW") != 1) || (p.at("PPT") != dflt.at("PPT") && p.at("PPT") != 1))
      return "VW and PPT apply to NHWC only";
    if (p.at("WPT") > max_lanes(caps) && p.count("VEC") && p.at("VEC")) return "WPT wider than the backend's vectors";
  }
  return "";
}

Params ConvDepthwiseFamily::fit(const Params& tuned, const Capabilities& caps, const ConvProblem& pr) const {
  Params p = complete(tuned, caps);
  const bool fast = depthwise_fast(pr);
  while (p["WGS"] > 32 && !group_fits(p["WGS"], caps)) p["WGS"] /= 2;
  if (pr.in_nhwc) {
    p["WPT"] = 1;
    p["VW"] = std::min(p["VW"], max_lanes(caps));
    while (p["VW"] > 1 && (pr.c % p["VW"] || pr.align % p["VW"])) p["VW"] /= 2;
  } else {
    p["VW"] = p["PPT"] = 1;
  }
  // A layer too small to give FILL work-items per compute unit (the tuned
  // sizes are a large layer's): fewer rows, then pixels, per work-item.
  const std::int64_t fill = std::int64_t(caps.compute_units) * p["FILL"];
  while (depthwise_items(p, pr) < fill && (p["RPT"] > 1 || p["PPT"] > 1)) p[p["RPT"] > 1 ? "RPT" : "PPT"] /= 2;
  p["FILL"] = defaults(caps).at("FILL");  // used: the fitted set's sizes are final
  if (pr.in_nhwc) {
    p["VEC"] = p["VIN"] = p["PLC"] = 0;
    // The VW channels' weights as packs where their offset allows.
    p["WVEC"] = p["VW"] > 1 && pr.wt_align % p["VW"] == 0;
  } else {
    p["WVEC"] = 0;
    // The WPT outputs go out as one pack where every row starts on a pack.
    const std::int64_t wpt = p["WPT"];
    const bool packs = wpt > 1 && wpt <= max_lanes(caps);
    p["VEC"] = packs && pr.ow % wpt == 0 && pr.align % wpt == 0;
    p["VIN"] = depthwise_vin(p, caps, pr);
    p["PLC"] = p["VIN"] ? pr.pad_l : 0;
  }
  p["FAST"] = fast;
  p["SHC"] = fast ? pr.stride_h : 1;
  p["SWC"] = fast ? pr.stride_w : 1;
  // ROLL where it changes the program (a tuned set's, on a layer that takes
  // a stride or was given fewer rows above, goes).
  p["ROLL"] = p["ROLL"] && depthwise_roll(p, pr);
  // HALF where it applies (VW may have shrunk above; a caller asking for f32
  // sums, or a device without half arithmetic, runs f32).
  p["HALF"] = p["HALF"] && pr.half_arith && depthwise_half_bucket(p, caps, pr);
  // LOC asks for the kernel's STAGE, which applies where depthwise_loc says
  // (never on NHWC or with WPT 1); fitted, LOC is what runs (STAGE), so that
  // sets that run alike fit alike (the tuner times them once) and the result
  // passes check (0 where LOC cannot apply).
  p["STAGE"] = p["LOC"] && depthwise_loc(p, caps, pr);
  p["LOC"] = p["STAGE"];
  if (depthwise_items(p, pr) > std::int64_t(0xffffffff)) p["IDX64"] = 1;
  return p;
}

Geometry ConvDepthwiseFamily::geometry(const Params& p, const Capabilities&, const ConvProblem& pr) const {
  return one_dim(depthwise_items(p, pr), p.at("WGS"));
}

Defines ConvDepthwiseFamily::defines(const Params& p, const ConvProblem& pr) const {
  Params kernel = p;
  kernel.erase("FILL");  // host parameters (LOC: the derived STAGE goes)
  kernel.erase("LOC");
  kernel.erase("REGS");  // as OPTUNE_REG_CAP, and only where set
  Defines d = ConvFamilyBase::defines(kernel, pr);
  add_register_cap(d, p);
  d.emplace_back("FR", std::to_string(pr.r));
  d.emplace_back("FS", std::to_string(pr.s));
  return d;
}

ConvProblem ConvDepthwiseFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  return depthwise_example(dtype, bucket == "nhwc", caps);
}

// ---- conv_depthwise_image ----

std::vector<Parameter> ConvDepthwiseImageFamily::parameters(const Capabilities&) const {
  return {{"WGS", {32, 64, 128, 256}, 128, "work-items per group (both kernels)"},
          {"WPT", {1, 2, 4, 8}, 4, "outputs along W per work-item (4 channels each)"}};
}

std::vector<DType> ConvDepthwiseImageFamily::dtypes(const Capabilities& caps) const {
  return caps.images ? storage_types() : std::vector<DType>{};
}

std::string ConvDepthwiseImageFamily::check(const Params& p, const Capabilities& caps, const ConvProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!caps.images) return "the device has no images";
  if (!group_fits(p.at("WGS"), caps)) return "WGS exceeds the device's work-group limit";
  if (!pr.depthwise()) return "not a depthwise convolution (groups == C == K)";
  return "";
}

Params ConvDepthwiseImageFamily::fit(const Params& tuned, const Capabilities& caps, const ConvProblem&) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 32 && !group_fits(p["WGS"], caps)) p["WGS"] /= 2;
  return p;
}

Geometry ConvDepthwiseImageFamily::geometry(const Params& p, const Capabilities&, const ConvProblem& t) const {
  return one_dim(t.n * t.oh * ceil_div(t.ow, p.at("WPT")) * ceil_div(t.c, 4), p.at("WGS"));
}

Geometry ConvDepthwiseImageFamily::pack_geometry(const Params& p, const ConvProblem& t) const {
  return one_dim(t.n * t.h * t.w * ceil_div(t.c, 4), p.at("WGS"));
}

Defines ConvDepthwiseImageFamily::defines(const Params& p, const ConvProblem& pr) const {
  Defines d = ConvFamilyBase::defines(p, pr);
  d.emplace_back("FR", std::to_string(pr.r));
  d.emplace_back("FS", std::to_string(pr.s));
  return d;
}


ConvProblem ConvDepthwiseImageFamily::make_example(DType dtype, const std::string& bucket,
                                                   const Capabilities& caps) const {
  return depthwise_example(dtype, bucket == "nhwc", caps);
}

}  // namespace optune::detail
