#include "kernels/elementwise/elementwise.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "optune/elementwise.hpp"

namespace optune::detail {

namespace {
// CUDA has vectors of up to 4 lanes, and 8-lane packs of halves (prelude).
std::int64_t max_pack(const Capabilities& caps, const Problem& problem) {
  if (caps.backend != Backend::CUDA) return 16;
  const bool all_half = problem.get("max_elem_bytes", 4) == 2 && problem.get("min_elem_bytes", 4) == 2;
  return all_half ? 8 : 4;
}

// VW = 0 means a 16-byte pack of the widest operand (narrower where the
// backend or the offsets do not allow it): what a device wants unless tuned
// otherwise, whatever the element size. Other values are taken as they are.
std::int64_t pack_of(const Params& p, const Capabilities& caps, const Problem& problem) {
  std::int64_t vw = p.at("VW");
  if (vw != 0) return vw;
  if (problem.get("contiguous", 1) == 0) return 1;
  vw = std::min(16 / std::max<std::int64_t>(1, problem.get("max_elem_bytes", 4)), max_pack(caps, problem));
  while (vw > 1 && problem.get("align", 16) % vw) vw /= 2;
  return std::max<std::int64_t>(vw, 1);
}
}  // namespace

std::vector<Parameter> ElementwiseFamily::parameters(const Capabilities&) const {
  return {
      {"VW", {0, 1, 2, 4, 8, 16}, 0,
       "elements per work-item and access (packs of up to 16 bytes); 0: a 16-byte pack of the widest operand"},
      {"EPT", {1, 2, 4}, 1, "packs per work-item, all loaded before any is computed (bytes in flight)"},
      {"WGS", {64, 128, 256, 512, 1024}, 256, "work-items per group"},
      {"GRID_STRIDE", {0, 1}, 0, "0: one pack per work-item; 1: grid-stride loop over WAVES waves"},
      {"WAVES", {1, 2, 4, 8}, 4, "waves of the device in the grid-stride grid"},
  };
}

std::string ElementwiseFamily::check(const Params& p, const Capabilities& caps, const Problem& problem) const {
  if (std::string why = KernelFamily::check(p, caps, problem); !why.empty()) return why;
  const std::int64_t vw = pack_of(p, caps, problem), wgs = p.at("WGS");
  if (std::size_t(wgs) > caps.max_work_group_size || std::size_t(wgs) > caps.max_work_item_sizes[0])
    return "WGS exceeds the device's work-group limit";
  if (vw > max_pack(caps, problem)) return "pack wider than the backend's vectors";
  if (vw * problem.get("max_elem_bytes", std::int64_t(dtype_size(problem.dtype))) > 16)
    return "pack wider than 16 bytes";
  if (problem.get("contiguous", 1) == 0 && (vw != 1 || p.at("EPT") != 1))
    return "strided operands move one element at a time";
  if (problem.get("align", 16) % vw) return "offsets not aligned to the pack";
  if (p.at("GRID_STRIDE") == 0 && p.at("WAVES") != 4) return "WAVES only applies to the grid-stride grid";
  return "";
}

Params ElementwiseFamily::fit(const Params& tuned, const Capabilities& caps, const Problem& problem) const {
  Params p = complete(tuned, caps);
  p["VW"] = pack_of(p, caps, problem);  // the launch's defines need the actual width
  if (problem.get("contiguous", 1) == 0) p["EPT"] = 1;
  while (p["VW"] > 1 && !check(p, caps, problem).empty()) p["VW"] /= 2;
  if (p["VW"] == 1 && !check(p, caps, problem).empty()) p = defaults(caps), p["VW"] = 1;
  while (p["WGS"] > 64 && !check(p, caps, problem).empty()) p["WGS"] /= 2;
  return p;
}

Geometry ElementwiseFamily::geometry(const Params& p, const Capabilities& caps, const Problem& problem) const {
  const std::size_t n = std::size_t(problem.sizes.at(0));
  const std::size_t vw = std::size_t(pack_of(p, caps, problem)), wgs = std::size_t(p.at("WGS"));
  // Enough work-items for every pack (EPT each) and for the n mod VW tail elements.
  const std::size_t ept = std::size_t(p.at("EPT"));
  const std::size_t items = std::max({(n / vw + ept - 1) / ept, n % vw, std::size_t{1}});
  Geometry g;
  g.local[0] = wgs;
  g.global[0] = round_up(items, wgs);
  if (p.at("GRID_STRIDE")) {
    const std::size_t wave = std::size_t(caps.compute_units ? caps.compute_units : 1) * resident_per_unit(caps);
    g.global[0] = std::min(g.global[0], round_up(wave * std::size_t(p.at("WAVES")), wgs));
  }
  return g;
}

Defines ElementwiseFamily::defines(const Params& p, const Problem& problem) const {
  return {{"VW", std::to_string(p.at("VW"))},
          {"EPT", std::to_string(p.at("EPT"))},
          {"WGS", std::to_string(p.at("WGS"))},
          {"GRID_STRIDE", std::to_string(p.at("GRID_STRIDE"))}};
}

std::string ElementwiseFamily::bucket(const Problem& problem) const {
  const std::string shape = problem.get("contiguous", 1) ? "" : "strided,";
  const std::int64_t n = problem.sizes.at(0);
  return shape + (n <= (1 << 16) ? "n<=2^16" : n <= (1 << 20) ? "n<=2^20" : n <= (1 << 24) ? "n<=2^24" : "n>2^24");
}

std::vector<std::string> ElementwiseFamily::buckets() const { return {"n<=2^16", "n<=2^20", "n<=2^24", "n>2^24"}; }

Problem ElementwiseFamily::example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  Problem pr;
  pr.dtype = dtype;
  std::int64_t n = bucket == "n<=2^16" ? (1 << 16) : bucket == "n<=2^20" ? (1 << 20) : bucket == "n<=2^24" ? (1 << 24)
                                                                                                          : (1 << 26);
  const std::int64_t cap = std::int64_t(caps.max_alloc_bytes / 4 / dtype_size(dtype));
  if (caps.type == DeviceType::CPU) n = std::min<std::int64_t>(n, 1 << 24);
  pr.sizes = {std::min(n, cap)};
  const std::int64_t es = std::int64_t(dtype_size(dtype));
  pr.extra = {{"contiguous", 1}, {"max_elem_bytes", es}, {"min_elem_bytes", es}, {"align", 16}};
  return pr;
}

std::vector<DType> ElementwiseFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32, DType::F16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

Event launch_elementwise_tuning(const Queue& q, const Params& p, DType t, const Operand& x, const Operand& y);

namespace {

// Tuning runs gelu: memory-bound on most devices, but with enough arithmetic
// that the search also weighs keeping bytes in flight (EPT) against it, which
// relu alone would not show.
class ElementwiseCase : public TuningCase {
 public:
  ElementwiseCase(const Queue& q, const Problem& pr) : q_(q), pr_(pr) {
    const std::size_t n = std::size_t(pr.sizes.at(0)), es = dtype_size(pr.dtype);
    std::vector<std::uint8_t> host(n * es);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    for (std::size_t i = 0; i < n; ++i) {
      const float f = d(rng);
      if (pr.dtype == DType::F32) std::memcpy(&host[i * 4], &f, 4);
      if (pr.dtype == DType::F16) { const half h(f); std::memcpy(&host[i * 2], &h.bits, 2); }
      if (pr.dtype == DType::F64) { const double v = f; std::memcpy(&host[i * 8], &v, 8); }
    }
    x_ = q.context().alloc<std::uint8_t>(n * es);
    y_ = q.context().alloc<std::uint8_t>(n * es);
    q.upload(x_, std::span<const std::uint8_t>(host));
  }
  Event run(const Params& p) override { return launch_elementwise_tuning(q_, p, pr_.dtype, view(x_), view(y_)); }
  void poison() override { q_.fill(y_, std::uint8_t(0xff)).wait(); }
  std::vector<double> output() override {
    const auto bytes = q_.download(y_);
    const std::size_t n = std::size_t(pr_.sizes.at(0));
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (pr_.dtype == DType::F32) { float f; std::memcpy(&f, &bytes[i * 4], 4); out[i] = f; }
      if (pr_.dtype == DType::F16) { std::uint16_t h; std::memcpy(&h, &bytes[i * 2], 2); out[i] = half::to_float(h); }
      if (pr_.dtype == DType::F64) std::memcpy(&out[i], &bytes[i * 8], 8);
    }
    return out;
  }
  // The same function under another shape of code: compilers may fuse
  // multiply-adds differently, a last-bit difference (one f16 rounding step).
  double tolerance() const override {
    return pr_.dtype == DType::F16 ? 1e-3 : pr_.dtype == DType::F64 ? 1e-14 : 1e-6;
  }
  double work_bytes() const override { return 2.0 * double(pr_.sizes.at(0)) * double(dtype_size(pr_.dtype)); }

 private:
  Operand view(const Buffer<std::uint8_t>& b) const {
    Operand o;
    o.mem = b.mem();
    o.dtype = pr_.dtype;
    o.count = std::size_t(pr_.sizes.at(0));
    o.shape = {std::int64_t(o.count)};
    return o;
  }
  Queue q_;
  Problem pr_;
  Buffer<std::uint8_t> x_, y_;
};

}  // namespace

std::unique_ptr<TuningCase> ElementwiseFamily::make_case(const Queue& queue, const Problem& problem) const {
  return std::make_unique<ElementwiseCase>(queue, problem);
}

}  // namespace optune::detail
