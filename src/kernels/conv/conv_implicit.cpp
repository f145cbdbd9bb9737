// The implicit-GEMM convolution family (conv_implicit, kernels/conv/conv.hpp;
// the kernel is conv/conv_implicit.cl): its parameters, the constraints that
// keep its loaders and local tiles within the device, and the shrinking of
// the tiles towards small problems.
#include <algorithm>

#include "kernels/conv/conv.hpp"

namespace optune::detail {

namespace {

// Most accumulators per work-item (beyond them registers spill).
constexpr std::int64_t kMaxAccumulators = 64;

// mma.sync m16n8k16 with f16 or bf16 operands: CUDA, compute capability 8.0+.
bool mma_device(const Capabilities& caps, const ConvProblem& pr) {
  return caps.backend == Backend::CUDA && caps.compute_capability_major >= 8 &&
         (pr.dtype == DType::F16 || pr.dtype == DType::BF16);
}

// Why the MMA variant's warp tiling (conv_implicit.cl: warp tiles of
// min(NWG, 32) columns, of 16-row fragments) cannot take these tiles; "" when it can.
std::string mma_tiling(const Params& p) {
  const std::int64_t wgs = p.at("MDIMC") * p.at("NDIMC"), nwg = p.at("NWG"), mwg = p.at("MWG");
  if (p.at("KWG") % 16) return "MMA: KWG not a multiple of 16";
  if (wgs % 32 || nwg < 8) return "MMA: a work-group of whole warps and NWG of at least 8";
  const std::int64_t warps = wgs / 32, warps_n = nwg / std::min<std::int64_t>(nwg, 32);
  if (warps % warps_n || (mwg / (warps / warps_n)) % 16 || mwg < 16 * (warps / warps_n))
    return "MMA: the warps do not split the tile into 16-row fragments";
  return "";
}

using conv_kernels::ceil_div;

std::int64_t pixels(const ConvProblem& pr) { return pr.n * pr.oh * pr.ow; }

// The work-groups of the one-dimensional grid: row tiles by column tiles by groups.
std::int64_t tiles(const Params& p, const ConvProblem& pr) {
  return ceil_div(pixels(pr), p.at("MWG")) * ceil_div(pr.k / pr.groups, p.at("NWG")) * pr.groups;
}

}  // namespace

std::vector<Parameter> ConvImplicitFamily::parameters(const Capabilities& caps) const {
  const bool cpu = caps.type == DeviceType::CPU;
  return {{"MWG", {16, 32, 64, 128, 256}, cpu ? 64 : 128, "output pixels (rows of the product) per work-group"},
          {"NWG", {4, 8, 16, 32, 64, 128}, cpu ? 32 : 64, "output channels (columns) per work-group"},
          {"KWG", {4, 8, 16, 32}, 16, "channels of one tap per local tile (the depth runs tap by tap)"},
          {"MDIMC", {8, 16, 32}, cpu ? 8 : 16, "work-items along the pixels (MWG / MDIMC rows each)"},
          {"NDIMC", {4, 8, 16, 32}, cpu ? 8 : 16, "work-items along the channels (NWG / NDIMC columns each)"},
          {"MMA", {0, 1}, 0, "1: the product on tensor cores (mma.sync m16n8k16; CUDA sm_80+, f16 and bf16)"},
          {"VWM", {1, 2, 4}, 1, "SIMT: a work-item's rows read from the local tile as packs of VWM"},
          {"VWN", {1, 2, 4}, 1, "SIMT: a work-item's columns read from the local tile as packs of VWN"},
          {"FLAT", {0, 1, 2}, 2,
           "1: the depth in chunks of KWG over channels and taps together (few channels per group: a tap's "
           "chunk would be mostly zeros); 2: automatic, 1 where a group's channels fill at most a quarter of "
           "KWG and the filter has more than one tap"},
          {"TAPS_INNER", {0, 1}, 0,
           "1: the steps run the taps within each chunk of channels (cache reuse of its input rows and weights); "
           "0: the chunks within each tap"},
          {"SPLITK", {0, 1, 2, 4, 8, 16}, cpu ? 1 : 0,
           "slices of the depth per tile: raw sums to scratch, then conv_implicit_sum adds them in order and "
           "applies the epilogue (1: the epilogue in the product's store; 0: automatic, see SK_FILL, SK_MINK)"},
          {"SK_FILL", {256, 512, 768, 1024, 2048}, 512,
           "SPLITK 0: slices until the grid holds this many work-items per compute unit"},
          {"SK_MINK", {0, 128, 256, 512, 1024, 2048}, 0,
           "SPLITK 0: the least depth (channels times taps) of a slice; 0: 1024 on tensor cores, 128 SIMT"}};
}

// SPLITK 0: the least of 2, 4, 8, 16 slices that brings the grid's
// work-items to SK_FILL per compute unit, halved while a slice would hold
// less than SK_MINK of the depth; 1 where the tiles alone reach it. (H200,
// ResNet-50 b32: the 7 x 7 and 14 x 14 layers of 13 to 49 pixel tiles take
// 2 to 8 slices, 0.8x their time; wider layers none. The SIMT slices' least
// depth of 128 rather than 256 splits MobileNetV2's 1 x 1 convolutions of 384
// to 960 channels at 14 x 14 and 7 x 7 too, 0.65-0.75x their time.)
std::int64_t ConvImplicitFamily::auto_split(const Params& p, const Capabilities& caps, const ConvProblem& pr) {
  const std::int64_t items = tiles(p, pr) * p.at("MDIMC") * p.at("NDIMC");
  const std::int64_t target = std::max<std::int64_t>(caps.compute_units, 1) * p.at("SK_FILL");
  if (items >= target) return 1;
  const std::int64_t mink = p.at("SK_MINK") ? p.at("SK_MINK") : p.at("MMA") ? 1024 : 128;
  const std::int64_t depth = pr.c / pr.groups * pr.r * pr.s;
  std::int64_t s = 2;
  while (s < 16 && items * s < target) s *= 2;
  while (s > 1 && depth < s * mink) s /= 2;
  return s;
}

// FLAT 2's choice: the flat depth where a group's channels fill at most a
// quarter of a tap's chunk (KWG) and the filter has more than one tap.
std::int64_t ConvImplicitFamily::auto_flat(const Params& p, const ConvProblem& pr) {
  return pr.r * pr.s > 1 && 4 * (pr.c / pr.groups) <= p.at("KWG");
}

Defines ConvImplicitFamily::defines(const Params& p, const ConvProblem& pr) const {
  Params kernel = p;
  kernel.erase("SK_FILL");  // host parameters: one program for every rule
  kernel.erase("SK_MINK");
  // fit resolves the automatic values; parameters compiled unfitted (the
  // NVRTC checks) take what they would resolve to without the grid.
  if (kernel.count("SPLITK") && kernel["SPLITK"] == 0) kernel["SPLITK"] = 1;
  if (kernel.count("FLAT") && kernel["FLAT"] == 2) kernel["FLAT"] = auto_flat(kernel, pr);
  return ConvFamilyBase::defines(kernel, pr);
}

std::string ConvImplicitFamily::check(const Params& p, const Capabilities& caps, const ConvProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::int64_t mwg = p.at("MWG"), nwg = p.at("NWG"), kwg = p.at("KWG"), mdimc = p.at("MDIMC"),
                     ndimc = p.at("NDIMC"), wgs = mdimc * ndimc;
  if (mwg % mdimc || nwg % ndimc) return "MWG or NWG not a multiple of MDIMC or NDIMC";
  const std::int64_t vwm = p.at("VWM"), vwn = p.at("VWN");
  if ((mwg / mdimc) % vwm || (nwg / ndimc) % vwn) return "MWG / MDIMC or NWG / NDIMC not a multiple of VWM or VWN";
  const std::int64_t av = p.count("AV") ? p.at("AV") : 1;
  if (kwg % av || (kwg / av) * mwg < wgs) return "AV: the A tile's packs fewer than the work-items";
  if (av > 1 && p.at("FLAT")) return "FLAT loads element by element (AV 1)";
  if ((mwg / mdimc) * (nwg / ndimc) > kMaxAccumulators)
    return "more than " + std::to_string(kMaxAccumulators) + " accumulators per work-item";
  if (kwg * mwg < wgs || kwg * nwg < wgs) return "a local tile (KWG MWG or KWG NWG) smaller than the work-group";
  if (std::size_t(wgs) > caps.max_work_group_size || std::size_t(mdimc) > caps.max_work_item_sizes[0] ||
      std::size_t(ndimc) > caps.max_work_item_sizes[1])
    return "MDIMC x NDIMC exceeds the device's work-group limits";
  // CUDA declares the local tiles as static shared memory (local_limit: 48 KiB there).
  const std::uint64_t limit = local_limit(caps);
  if (p.at("MMA")) {
    if (!mma_device(caps, pr)) return "MMA needs CUDA compute capability 8.0 or newer and f16 or bf16 storage";
    if (std::string why = mma_tiling(p); !why.empty()) return why;
    if (vwm > 1 || vwn > 1) return "MMA reads fragments, not packs (VWM and VWN 1)";
  }
  if (std::uint64_t(local_bytes(p)) > limit) return "the two stages of local tiles exceed the local memory";
  const std::int64_t splitk = p.at("SPLITK");
  if (tiles(p, pr) * splitk > (std::int64_t(1) << 31) / mdimc) return "more work-groups than a grid dimension holds";
  if (splitk > 1 && std::uint64_t(splitk * pr.outputs()) * sizeof(float) > caps.max_alloc_bytes)
    return "SPLITK: the slices' sums exceed the device's largest allocation";
  if (splitk > 1 && caps.max_work_group_size < 256) return "SPLITK: conv_implicit_sum takes groups of 256";
  // The automatic split's rule away from its defaults only where it chooses
  // otherwise (so that a tuner keeps the defaults where the example cannot
  // tell; fit resets them once it has used them).
  const Params dflt = defaults(caps);
  if (p.at("SK_FILL") != dflt.at("SK_FILL") || p.at("SK_MINK") != dflt.at("SK_MINK")) {
    if (splitk != 0) return "SK_FILL and SK_MINK set the automatic split's rule (SPLITK 0) only";
    Params d = p;
    d["SK_FILL"] = dflt.at("SK_FILL");
    d["SK_MINK"] = dflt.at("SK_MINK");
    if (auto_split(p, caps, pr) == auto_split(d, caps, pr))
      return "SK_FILL and SK_MINK split this problem as their defaults do (the defaults stand)";
  }
  return "";
}

std::int64_t ConvImplicitFamily::local_bytes(const Params& p) {
  if (p.count("MMA") && p.at("MMA")) return 2 * (p.at("MWG") + p.at("NWG")) * (p.at("KWG") + 8) * 2;
  const bool packs = (p.count("VWM") && p.at("VWM") > 1) || (p.count("VWN") && p.at("VWN") > 1);
  const std::int64_t pad = packs ? 4 : 1;
  return 2 * p.at("KWG") * (p.at("MWG") + pad + p.at("NWG") + pad) * std::int64_t(sizeof(float));
}

Params ConvImplicitFamily::fit(const Params& tuned, const Capabilities& caps, const ConvProblem& pr) const {
  Params p = complete(tuned, caps);
  if (p["FLAT"] == 2) p["FLAT"] = auto_flat(p, pr);
  // The automatic split's rule, used below and then back at its defaults
  // (the fitted set's SPLITK is a count).
  Params rule;
  for (const char* k : {"SK_FILL", "SK_MINK"}) {
    rule[k] = p[k];
    p[k] = defaults(caps).at(k);
  }
  // The tensor cores where the device and type have them (a tuned f16
  // entry's MMA = 1 runs SIMT on another device).
  if (p["MMA"] && !mma_device(caps, pr)) p["MMA"] = 0;
  if (p["MMA"]) p["VWM"] = p["VWN"] = 1;
  // Too large a work-group for the device: fewer work-items, tiles alike.
  for (const char* dim : {"NDIMC", "MDIMC"}) {
    const std::string tile = std::string(dim) == "NDIMC" ? "NWG" : "MWG";
    while (p[dim] > 4 && (std::size_t(p["MDIMC"] * p["NDIMC"]) > caps.max_work_group_size)) {
      p[dim] /= 2;
      p[tile] /= 2;
    }
  }
  // Halves a tile while it still covers the problem's extent and the
  // result can run (columns first: few output channels per group is the
  // common small side; then pixels, then a tap's channels, where a partial
  // chunk loads zeros). A tile of one row of
  // work-items halves its work-items along too (columns only).
  const auto shrink = [&](const std::string& tile, const std::string& dim, std::int64_t extent) {
    while (p[tile] / 2 >= extent) {
      Params q = p;
      q[tile] /= 2;
      if (!dim.empty() && q[tile] < q[dim]) q[dim] /= 2;
      if (!check(q, caps, pr).empty()) break;
      p = q;
    }
  };
  shrink("NWG", "NDIMC", pr.k / pr.groups);
  shrink("MWG", "", pixels(pr));
  // The depth that KWG chunks: a tap's channels, or with FLAT all of them.
  const std::int64_t depth = pr.c / pr.groups * (p["FLAT"] ? pr.r * pr.s : 1);
  shrink("KWG", "", depth);
  // No more slices than the depth has steps (taps times channel chunks), nor
  // than scratch and the grid hold.
  const std::int64_t steps = p["FLAT"] ? ceil_div(depth, p["KWG"]) : pr.r * pr.s * ceil_div(depth, p["KWG"]);
  if (p["SPLITK"] == 0) {
    Params q = p;
    for (const auto& [k, v] : rule) q[k] = v;
    p["SPLITK"] = auto_split(q, caps, pr);
  }
  while (p["SPLITK"] > 1 && (p["SPLITK"] > steps || !check(p, caps, pr).empty())) p["SPLITK"] /= 2;
  // NHWC: a loader's channels as one pack (16 bytes at most) where the
  // group's channels, the pixel stride and the input's offset keep every
  // pack aligned and whole.
  p["AV"] = 1;
  if (pr.in_nhwc && !p["FLAT"]) {
    const std::int64_t cg = pr.c / pr.groups, widest = p["MMA"] ? 8 : 4;
    for (std::int64_t av = widest; av > 1; av /= 2) {
      Params q = p;
      q["AV"] = av;
      if (cg % av == 0 && pr.c % av == 0 && pr.align % av == 0 && check(q, caps, pr).empty()) {
        p = q;
        break;
      }
    }
  }
  return p;
}

Geometry ConvImplicitFamily::geometry(const Params& p, const Capabilities&, const ConvProblem& pr) const {
  Geometry g;
  g.dims = 2;
  g.local[0] = std::size_t(p.at("MDIMC"));
  g.local[1] = std::size_t(p.at("NDIMC"));
  g.global[0] = std::size_t(tiles(p, pr) * p.at("SPLITK")) * g.local[0];
  g.global[1] = g.local[1];
  return g;
}

ConvProblem ConvImplicitFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  return conv_kernels::general_example(dtype, bucket == "nhwc", caps);
}

}  // namespace optune::detail
