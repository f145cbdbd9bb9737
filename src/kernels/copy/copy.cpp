#include "kernels/copy/copy.hpp"

#include <random>

namespace optune::detail {

namespace {

std::string bits_type(DType t) {
  switch (dtype_size(t)) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 8: return "ulong";
    default: return "uint";
  }
}

}  // namespace

std::vector<Parameter> CopyFamily::parameters(const Capabilities& caps) const {
  return {
      {"VW", {1, 2, 4}, 4, "elements per access (packs of up to 16 bytes)"},
      {"WGS", {64, 128, 256, 512, 1024}, 256, "work-items per group"},
      {"GRID_STRIDE", {0, 1}, 0, "0: a pack per work-item; 1: grid-stride loop over WAVES waves"},
      {"WAVES", {1, 2, 4, 8}, 4, "waves of the device in the grid-stride grid"},
  };
}

std::string CopyFamily::check(const Params& p, const Capabilities& caps, const Problem& problem) const {
  if (std::string why = KernelFamily::check(p, caps, problem); !why.empty()) return why;
  const std::int64_t vw = p.at("VW"), wgs = p.at("WGS");
  if (std::size_t(wgs) > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (std::size_t(wgs) > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  if (vw * std::int64_t(dtype_size(problem.dtype)) > 16) return "pack wider than 16 bytes";
  if (problem.get("x_offset") % vw || problem.get("y_offset") % vw) return "offsets not aligned to the pack";
  if (p.at("GRID_STRIDE") == 0 && p.at("WAVES") != 4) return "WAVES only applies to the grid-stride grid";
  return "";
}

Geometry CopyFamily::geometry(const Params& p, const Capabilities& caps, const Problem& problem) const {
  const std::size_t n = std::size_t(problem.sizes.at(0));
  const std::size_t vw = std::size_t(p.at("VW")), wgs = std::size_t(p.at("WGS"));
  const std::size_t packs = std::max<std::size_t>(n / vw, 1);
  Geometry g;
  g.local[0] = wgs;
  g.global[0] = round_up(packs, wgs);
  if (p.at("GRID_STRIDE")) {
    const std::size_t wave = std::size_t(caps.compute_units ? caps.compute_units : 1) * resident_per_unit(caps);
    g.global[0] = std::min(g.global[0], round_up(wave * std::size_t(p.at("WAVES")), wgs));
  }
  return g;
}

Defines CopyFamily::defines(const Params& p, const Problem& problem) const {
  return {{"TYPE", bits_type(problem.dtype)},
          {"VW", std::to_string(p.at("VW"))},
          {"WGS", std::to_string(p.at("WGS"))},
          {"GRID_STRIDE", std::to_string(p.at("GRID_STRIDE"))}};
}

std::string CopyFamily::bucket(const Problem& problem) const {
  const std::int64_t n = problem.sizes.at(0);
  if (n <= (1 << 16)) return "n<=2^16";
  if (n <= (1 << 20)) return "n<=2^20";
  if (n <= (1 << 24)) return "n<=2^24";
  return "n>2^24";
}

std::vector<std::string> CopyFamily::buckets() const { return {"n<=2^16", "n<=2^20", "n<=2^24", "n>2^24"}; }

Problem CopyFamily::example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  Problem pr;
  pr.dtype = dtype;
  std::int64_t n = bucket == "n<=2^16" ? (1 << 16) : bucket == "n<=2^20" ? (1 << 20) : bucket == "n<=2^24" ? (1 << 24)
                                                                                                          : (1 << 26);
  // Keep the large bucket within a quarter of the device's largest allocation.
  const std::int64_t cap = std::int64_t(caps.max_alloc_bytes / 4 / dtype_size(dtype));
  if (cap > 0 && n > cap) n = cap;
  pr.sizes = {n};
  return pr;
}

std::vector<DType> CopyFamily::dtypes(const Capabilities&) const { return {DType::F32, DType::F16}; }

Event CopyFamily::launch(const Queue& queue, const Params& p, const Problem& problem, const MemImpl& x,
                         const MemImpl& y, const WaitList& wait) const {
  const Capabilities& caps = queue.device().caps();
  if (std::string why = check(p, caps, problem); !why.empty())
    throw Error(Status::InvalidArgument, "copy: " + why + " (" + params_to_json(p) + ")");
  const std::size_t es = dtype_size(problem.dtype);
  const std::uint64_t n = std::uint64_t(problem.sizes.at(0));
  const std::uint64_t xo = std::uint64_t(problem.get("x_offset")), yo = std::uint64_t(problem.get("y_offset"));
  if ((xo + n) * es > x.bytes() || (yo + n) * es > y.bytes())
    throw Error(Status::BufferTooSmall, "copy: buffers too small for offset + n");
  KernelPtr k = kernel(queue, p, problem);
  std::vector<KernelArg> args{KernelArg::scalar(n), KernelArg::buffer(x), KernelArg::scalar(xo),
                              KernelArg::buffer(y), KernelArg::scalar(yo)};
  const Geometry g = geometry(p, caps, problem);
  return launch_kernel(queue, *k, args, g, wait, &p);
}

namespace {

class CopyCase : public TuningCase {
 public:
  CopyCase(const CopyFamily& fam, const Queue& q, const Problem& pr) : fam_(fam), q_(q), pr_(pr) {
    const std::size_t words = std::size_t(pr.sizes.at(0)) * dtype_size(pr.dtype) / 4 + 1;
    std::vector<std::uint32_t> host(words);
    std::mt19937 rng(std::random_device{}());
    for (auto& v : host) v = rng();
    x_ = q.context().alloc<std::uint32_t>(words);
    y_ = q.context().alloc<std::uint32_t>(words);
    q.upload(x_, std::span<const std::uint32_t>(host));
  }
  Event run(const Params& p) override { return fam_.launch(q_, p, pr_, *x_.mem(), *y_.mem()); }
  void poison() override { q_.fill(y_, 0xDEADBEEFu).wait(); }
  std::vector<double> output() override {
    const auto words = q_.download(y_);
    const std::size_t bytes = std::size_t(pr_.sizes.at(0)) * dtype_size(pr_.dtype);
    std::vector<double> out(bytes / 2 + 1);
    const auto* b = reinterpret_cast<const std::uint8_t*>(words.data());
    for (std::size_t i = 0; i < bytes; ++i) out[i / 2] = out[i / 2] * 256 + b[i];
    return out;
  }
  double tolerance() const override { return 0; }
  double work_bytes() const override { return 2.0 * double(pr_.sizes.at(0)) * double(dtype_size(pr_.dtype)); }

 private:
  const CopyFamily& fam_;
  Queue q_;
  Problem pr_;
  Buffer<std::uint32_t> x_, y_;
};

}  // namespace

std::unique_ptr<TuningCase> CopyFamily::make_case(const Queue& queue, const Problem& problem) const {
  return std::make_unique<CopyCase>(*this, queue, problem);
}

}  // namespace optune::detail
