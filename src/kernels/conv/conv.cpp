// The convolution families: conv_direct, conv_depthwise,
// conv_depthwise_image, conv_winograd, conv_im2col and conv_routine
// (kernels/conv/conv.hpp; conv_implicit is in conv_implicit.cpp,
// conv_winograd_fused in conv_wino_fused.cpp).
#include "kernels/conv/conv.hpp"

#include <algorithm>

#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

namespace {

std::string flag(bool b) { return b ? "1" : "0"; }

bool group_fits(std::int64_t wgs, const Capabilities& caps) {
  return std::size_t(wgs) <= caps.max_work_group_size && std::size_t(wgs) <= caps.max_work_item_sizes[0];
}

// Packs of more than 4 lanes exist on OpenCL only.
std::int64_t max_lanes(const Capabilities& caps) { return caps.backend == Backend::CUDA ? 4 : 16; }

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

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
// conv_depthwise's half arithmetic (HALF): NHWC f16 on a device with half
// arithmetic, the caller's accumulation allowing it, pairs of channels.
bool depthwise_half(const Params& p, const Capabilities& caps, const ConvProblem& pr) {
  return pr.in_nhwc && pr.half_arith && pr.dtype == DType::F16 && caps.fp16 && p.at("VW") % 2 == 0;
}
// conv_depthwise's rows staged in local memory (LOC; NCHW with VIN) apply
// where the window's edges fit in the neighbours' packs and the rows in half
// of what the device gives a group (a small footprint keeps the occupancy).
bool depthwise_loc(const Params& p, const Capabilities& caps, const ConvProblem& pr) {
  const std::int64_t wpt = p.at("WPT"), plc = pr.pad_l, es = 4;  // local memory holds f32
  return depthwise_vin(p, caps, pr) && plc <= wpt && pr.s - 1 - plc <= wpt &&
         (p.at("RPT") + pr.r - 1) * p.at("WGS") * wpt * es <= std::int64_t(local_limit(caps)) / 2;
}

Geometry one_dim(std::int64_t items, std::int64_t wgs) {
  Geometry g;
  g.local[0] = std::size_t(wgs);
  g.global[0] = round_up(std::size_t(std::max<std::int64_t>(items, 1)), std::size_t(wgs));
  return g;
}

std::vector<DType> storage_types() { return {DType::F32, DType::F16, DType::BF16}; }

using conv_kernels::general_example;

// The depthwise case (smaller on CPUs): depthwise 3x3 8 x 256 x 112 x 112.
ConvProblem depthwise_example(DType dtype, bool nhwc, const Capabilities& caps) {
  return caps.type == DeviceType::CPU ? conv_kernels::make(dtype, 1, 64, 56, 56, 64, 3, 3, 1, 1, 64, nhwc)
                                      : conv_kernels::make(dtype, 8, 256, 112, 112, 256, 3, 3, 1, 1, 256, nhwc);
}

}  // namespace

namespace conv_kernels {

std::int64_t out_size(std::int64_t in, std::int64_t pad_lo, std::int64_t pad_hi, std::int64_t dil, std::int64_t k,
                      std::int64_t stride) {
  const std::int64_t span = in + pad_lo + pad_hi - dil * (k - 1) - 1;
  return span < 0 ? 0 : span / stride + 1;
}

ConvProblem make(DType dtype, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t k,
                 std::int64_t r, std::int64_t s, std::int64_t stride, std::int64_t pad, std::int64_t groups,
                 bool nhwc) {
  ConvProblem pr;
  pr.dtype = dtype;
  pr.n = n, pr.c = c, pr.h = h, pr.w = w, pr.k = k, pr.r = r, pr.s = s;
  pr.stride_h = pr.stride_w = stride;
  pr.pad_t = pr.pad_b = pr.pad_l = pr.pad_r = pad;
  pr.groups = groups;
  pr.oh = out_size(h, pad, pad, 1, r, stride);
  pr.ow = out_size(w, pad, pad, 1, s, stride);
  pr.in_nhwc = pr.out_nhwc = nhwc;
  pr.half_arith = dtype == DType::F16;  // Accumulate::Default
  return pr;
}

ConvProblem general_example(DType dtype, bool nhwc, const Capabilities& caps) {
  return caps.type == DeviceType::CPU ? make(dtype, 1, 32, 28, 28, 32, 3, 3, 1, 1, 1, nhwc)
                                      : make(dtype, 32, 64, 56, 56, 64, 3, 3, 1, 1, 1, nhwc);
}

}  // namespace conv_kernels

double ConvProblem::flops() const {
  return 2.0 * double(n) * double(k) * double(oh) * double(ow) * double(c / groups) * double(r) * double(s);
}

double ConvProblem::bytes() const {
  const double e = double(dtype_size(dtype));
  const double out = double(n) * double(k) * double(oh) * double(ow);
  return e * (double(n) * double(c) * double(h) * double(w) + double(k) * double(c / groups) * double(r) * double(s) +
              out * (residual ? 2 : 1));
}

std::string ConvFamilyBase::bucket(const ConvProblem& pr) const { return pr.in_nhwc ? "nhwc" : "nchw"; }

std::vector<DType> ConvFamilyBase::dtypes(const Capabilities&) const { return storage_types(); }

KernelSource ConvFamilyBase::program(const Params& p, const ConvProblem& pr) const {
  return {source(), gemm_kernels::program_text(source(), pr.activation), defines(p, pr), kernel_name()};
}

Defines ConvFamilyBase::defines(const Params& p, const ConvProblem& pr) const {
  Defines d{{"TYPE", c_type_name(pr.dtype)},
            {"EPI", "float"},
            {"HALF_STORAGE", flag(pr.dtype == DType::F16)},
            {"BF16_STORAGE", flag(pr.dtype == DType::BF16)},
            {"IN_NHWC", flag(pr.in_nhwc)},
            {"OUT_NHWC", flag(pr.out_nhwc)}};
  for (const auto& [k, v] : p) d.emplace_back(k, std::to_string(v));
  return d;
}

KernelSource ConvFamilyBase::entry_program(const Params& p, const ConvProblem& pr, const std::string& entry) const {
  KernelSource s = program(p, pr);
  s.entry = entry;
  return s;
}

// ---- conv_direct ----

std::vector<Parameter> ConvDirectFamily::parameters(const Capabilities& caps) const {
  return {{"WGS", {32, 64, 128, 256}, caps.type == DeviceType::CPU ? 64 : 128, "work-items per group (pixels)"},
          {"KPT", {1, 2, 4, 8, 16}, caps.type == DeviceType::CPU ? 8 : 4,
           "output channels per work-item (each input value loaded once for all of them)"}};
}

std::string ConvDirectFamily::check(const Params& p, const Capabilities& caps, const ConvProblem&) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!group_fits(p.at("WGS"), caps)) return "WGS exceeds the device's work-group limit";
  return "";
}

Params ConvDirectFamily::fit(const Params& tuned, const Capabilities& caps, const ConvProblem& pr) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 32 && !group_fits(p["WGS"], caps)) p["WGS"] /= 2;
  // No more channels per work-item than a group has.
  while (p["KPT"] > 1 && p["KPT"] / 2 >= pr.k / pr.groups) p["KPT"] /= 2;
  return p;
}

Geometry ConvDirectFamily::geometry(const Params& p, const Capabilities&, const ConvProblem& pr) const {
  // One dimension: the channel block is the slow index, so a group's
  // work-items share their weights. CUDA's grid y/z limits never apply.
  const std::int64_t wgs = p.at("WGS"), kg = pr.k / pr.groups;
  const std::int64_t pixels = round_up(std::size_t(pr.n * pr.oh * pr.ow), std::size_t(wgs));
  return one_dim(pixels * pr.groups * ceil_div(kg, p.at("KPT")), wgs);
}

ConvProblem ConvDirectFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  return general_example(dtype, bucket == "nhwc", caps);
}

// ---- conv_depthwise ----

std::vector<Parameter> ConvDepthwiseFamily::parameters(const Capabilities& caps) const {
  std::vector<std::int64_t> lanes{1, 2, 4};
  if (max_lanes(caps) > 4) lanes.insert(lanes.end(), {8, 16});
  return {{"WGS", {32, 64, 128, 256}, 128, "work-items per group"},
          {"WPT", {1, 2, 4, 8}, 4, "NCHW: outputs along W per work-item (one pack where aligned)"},
          {"VW", lanes, 4, "NHWC: channels per work-item, loaded and stored as one pack"},
          {"PPT", {1, 2, 4, 8}, 1, "NHWC: output pixels along W per work-item"},
          {"RPT", {1, 2, 4, 8, 16}, 4,
           "output rows per work-item (with stride and dilation 1, each input row loaded once for all)"},
          {"ROLL", {0, 1}, 0,
           "stride and dilation 1: 1 stores each output row once its last input row is in (FR rows of sums live, "
           "not RPT: tall tiles at the registers of short ones)"},
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
  if (p.at("HALF") && !(pr.in_nhwc && pr.dtype == DType::F16 && caps.fp16 && p.at("VW") % 2 == 0))
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
  p["HALF"] = p["HALF"] && depthwise_half(p, caps, pr);
  // LOC stays as given where check accepts it (NCHW, WPT 2 or more; the
  // kernel's STAGE is what applies), and goes to its default elsewhere.
  if (pr.in_nhwc || p["WPT"] < 2) p["LOC"] = defaults(caps).at("LOC");
  p["STAGE"] = p["LOC"] && depthwise_loc(p, caps, pr);
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

// ---- conv_winograd ----

std::vector<Parameter> ConvWinogradFamily::parameters(const Capabilities&) const {
  return {{"WGS", {64, 128, 256, 512}, 256, "work-items per group (the three transforms)"},
          {"CHUNK_KIB", {1, 4096, 65536, 262144}, 262144,
           "the transformed input and product of a chunk of images in KiB (at least one image): the batch runs in "
           "chunks of it (host only, no define)"},
          {"WT", {2, 4}, 2,
           "output tile side: 2, F(2x2, 3x3) (a batch of 16 GEMMs, 4 products an output per channel); 4, F(4x4, "
           "3x3) (36 GEMMs over 2.25 times fewer tiles, 2.25 products, larger rounding errors)"}};
}

std::int64_t ConvWinogradFamily::positions(const Params& p) {
  const std::int64_t side = p.at("WT") + 2;
  return side * side;
}

std::size_t ConvWinogradFamily::weight_bytes(const Params& p, const ConvProblem& pr) {
  return std::size_t(positions(p) * pr.k * pr.c) * sizeof(float);
}

std::int64_t ConvWinogradFamily::tiles(const Params& p, const ConvProblem& pr) {
  const std::int64_t wt = p.at("WT");
  return pr.n * ceil_div(pr.oh, wt) * ceil_div(pr.ow, wt);
}

std::size_t ConvWinogradFamily::image_bytes(const Params& p, const ConvProblem& pr) {
  return std::size_t(positions(p) * (pr.c + pr.k) * (tiles(p, pr) / pr.n)) * sizeof(float);
}

std::string ConvWinogradFamily::check(const Params& p, const Capabilities& caps, const ConvProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!group_fits(p.at("WGS"), caps)) return "WGS exceeds the device's work-group limit";
  if (!applies(pr)) return "not a 3x3, stride 1, dilation 1 convolution of one group";
  return "";
}

Params ConvWinogradFamily::fit(const Params& tuned, const Capabilities& caps, const ConvProblem& pr) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 64 && !group_fits(p["WGS"], caps)) p["WGS"] /= 2;
  // F(4x4)'s 36 planes (weights and one image's tiles) within the largest
  // allocation, else F(2x2)'s (the candidate's applies() checks those); and
  // F(2x2) where F(4x4) would leave its 36 GEMMs fewer than kWt4MinTiles
  // columns (PoCL, batch 1: 14 x 14 and 7 x 7, 16 and 4 tiles, ran 1.2-2x
  // slower with WT 4; 28 x 28 and 56 x 56, 49 and 196 tiles, 0.8-0.5x).
  if (p["WT"] == 4 && (weight_bytes(p, pr) + image_bytes(p, pr) > caps.max_alloc_bytes ||
                       tiles(p, pr) < kWt4MinTiles))
    p["WT"] = 2;
  return p;
}

Geometry ConvWinogradFamily::items_geometry(const Params& p, std::int64_t items) const {
  return one_dim(items, p.at("WGS"));
}

Geometry ConvWinogradFamily::geometry(const Params& p, const Capabilities&, const ConvProblem& pr) const {
  // The output transform over the whole batch (the candidate launches chunks).
  return items_geometry(p, tiles(p, pr) * pr.k);
}

Defines ConvWinogradFamily::defines(const Params& p, const ConvProblem& pr) const {
  Params kernel = p;
  kernel.erase("CHUNK_KIB");  // the host's, not the program's
  return ConvFamilyBase::defines(kernel, pr);
}

ConvProblem ConvWinogradFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  return general_example(dtype, bucket == "nhwc", caps);
}

// ---- conv_im2col ----

std::vector<Parameter> ConvIm2colFamily::parameters(const Capabilities&) const {
  return {{"WGS", {64, 128, 256, 512}, 256, "work-items per group (one matrix element each)"},
          {"CHUNK_KIB", {1, 4096, 65536, 262144}, 262144,
           "the patch matrix's size in KiB, in whole images (at least one): the batch runs in chunks of it "
           "(host only, no define)"}};
}

std::string ConvIm2colFamily::check(const Params& p, const Capabilities& caps, const ConvProblem&) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!group_fits(p.at("WGS"), caps)) return "WGS exceeds the device's work-group limit";
  return "";
}

Params ConvIm2colFamily::fit(const Params& tuned, const Capabilities& caps, const ConvProblem&) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 64 && !group_fits(p["WGS"], caps)) p["WGS"] /= 2;
  return p;
}

Geometry ConvIm2colFamily::geometry(const Params& p, const Capabilities&, const ConvProblem& pr) const {
  return one_dim(pr.n * pr.oh * pr.ow * (pr.c / pr.groups) * pr.r * pr.s, p.at("WGS"));
}

Defines ConvIm2colFamily::defines(const Params& p, const ConvProblem& pr) const {
  // Bits only: no element type, so the shared source's col2im keeps its float default.
  return {{"ELEM", dtype_size(pr.dtype) == 4 ? "uint" : "ushort"},
          {"TAPS_FASTEST", "1"},
          {"WGS", std::to_string(p.at("WGS"))}};
}

KernelSource ConvIm2colFamily::program(const Params& p, const ConvProblem& pr) const {
  return {source(), embedded_kernel_text(source()), defines(p, pr), kernel_name()};
}

ConvProblem ConvIm2colFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  return general_example(dtype, bucket == "nhwc", caps);
}

// ---- conv_routine ----

std::vector<Parameter> ConvRoutineFamily::parameters(const Capabilities&) const {
  return {{"KERNEL", {0, 1, 2, 3, 4, 5, 6, 7, 8}, 0,
           "0: the first candidate that applies and is not passed over (pointwise, depthwise, depthwise_image, "
           "winograd_fused, winograd, implicit, im2col, direct); 1 direct; 2 depthwise; 3 pointwise; 4 im2col; "
           "5 depthwise_image; 6 winograd; 7 implicit; 8 winograd_fused"}};
}

Geometry ConvRoutineFamily::geometry(const Params&, const Capabilities&, const ConvProblem&) const {
  return Geometry{};
}

std::string ConvRoutineFamily::bucket(const ConvProblem& pr) const {
  if (pr.pointwise()) return pr.k / pr.groups <= GemmThinFamily::kMaxThinAlongK ? "pointwise_thin" : "pointwise";
  if (ConvWinogradFamily::applies(pr) && pr.c >= kDeepChannels && pr.k >= kDeepChannels) return "winograd_deep";
  return pr.depthwise() ? "depthwise" : "general";
}

std::vector<std::string> ConvRoutineFamily::bucket_chain(const ConvProblem& pr) const {
  const std::string b = bucket(pr);
  if (b == "winograd_deep") return {b, "general"};
  return {b};
}

std::vector<DType> ConvRoutineFamily::dtypes(const Capabilities&) const { return storage_types(); }

ConvProblem ConvRoutineFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  const bool cpu = caps.type == DeviceType::CPU;
  // MobileNetV2's 1 x 1 32 -> 16 at 112 x 112 (CPU: 56 x 56).
  if (bucket == "pointwise_thin")
    return conv_kernels::make(dtype, 1, 32, cpu ? 56 : 112, cpu ? 56 : 112, 16, 1, 1, 1, 0, 1, true);
  if (bucket == "pointwise")
    return cpu ? conv_kernels::make(dtype, 1, 64, 28, 28, 64, 1, 1, 1, 0, 1, true)
               : conv_kernels::make(dtype, 32, 256, 56, 56, 64, 1, 1, 1, 0, 1, true);
  if (bucket == "depthwise") return depthwise_example(dtype, true, caps);
  // ResNet-50's 3 x 3 256 -> 256 at 14 x 14 (batch 32; CPU: 1).
  if (bucket == "winograd_deep")
    return conv_kernels::make(dtype, cpu ? 1 : 32, 256, 14, 14, 256, 3, 3, 1, 1, 1, true);
  return general_example(dtype, true, caps);
}

}  // namespace optune::detail
