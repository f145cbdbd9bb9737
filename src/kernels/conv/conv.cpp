// The convolution families: conv_direct, conv_winograd, conv_im2col and
// conv_routine, and what the families share (kernels/conv/conv.hpp;
// conv_depthwise and conv_depthwise_image are in conv_depthwise.cpp,
// conv_implicit in conv_implicit.cpp, conv_winograd_fused in
// conv_wino_fused.cpp).
#include "kernels/conv/conv.hpp"

#include <algorithm>

#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

namespace {

std::string flag(bool b) { return b ? "1" : "0"; }


}  // namespace

namespace conv_kernels {

bool group_fits(std::int64_t wgs, const Capabilities& caps) {
  return std::size_t(wgs) <= caps.max_work_group_size && std::size_t(wgs) <= caps.max_work_item_sizes[0];
}

std::int64_t max_lanes(const Capabilities& caps) { return caps.backend == Backend::CUDA ? 4 : 16; }

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

Geometry one_dim(std::int64_t items, std::int64_t wgs) {
  Geometry g;
  g.local[0] = std::size_t(wgs);
  g.global[0] = round_up(std::size_t(std::max<std::int64_t>(items, 1)), std::size_t(wgs));
  return g;
}

std::vector<DType> storage_types() { return {DType::F32, DType::F16, DType::BF16}; }

ConvProblem depthwise_example(DType dtype, bool nhwc, const Capabilities& caps) {
  return caps.type == DeviceType::CPU ? make(dtype, 1, 64, 56, 56, 64, 3, 3, 1, 1, 64, nhwc)
                                      : make(dtype, 8, 256, 112, 112, 256, 3, 3, 1, 1, 256, nhwc);
}

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

using namespace conv_kernels;

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
