#include "kernels/copy/copy.hpp"

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

std::string CopyFamily::check(const Params& p, const Capabilities& caps, const CopyProblem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::int64_t vw = p.at("VW"), wgs = p.at("WGS");
  if (std::size_t(wgs) > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (std::size_t(wgs) > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  if (vw * std::int64_t(dtype_size(problem.dtype)) > 16) return "pack wider than 16 bytes";
  if (problem.x_offset % vw || problem.y_offset % vw) return "offsets not aligned to the pack";
  if (p.at("GRID_STRIDE") == 0 && p.at("WAVES") != 4) return "WAVES only applies to the grid-stride grid";
  return "";
}

Geometry CopyFamily::geometry(const Params& p, const Capabilities& caps, const CopyProblem& problem) const {
  const std::size_t n = std::size_t(problem.n);
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

Defines CopyFamily::defines(const Params& p, const CopyProblem& problem) const {
  return {{"TYPE", bits_type(problem.dtype)},
          {"VW", std::to_string(p.at("VW"))},
          {"WGS", std::to_string(p.at("WGS"))},
          {"GRID_STRIDE", std::to_string(p.at("GRID_STRIDE"))}};
}

std::string CopyFamily::bucket(const CopyProblem& problem) const {
  const std::int64_t n = problem.n;
  if (n <= (1 << 16)) return "n<=2^16";
  if (n <= (1 << 20)) return "n<=2^20";
  if (n <= (1 << 24)) return "n<=2^24";
  return "n>2^24";
}

std::vector<std::string> CopyFamily::buckets() const { return {"n<=2^16", "n<=2^20", "n<=2^24", "n>2^24"}; }

CopyProblem CopyFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  CopyProblem pr;
  pr.dtype = dtype;
  std::int64_t n = bucket == "n<=2^16" ? (1 << 16) : bucket == "n<=2^20" ? (1 << 20) : bucket == "n<=2^24" ? (1 << 24)
                                                                                                          : (1 << 26);
  // Keep the large bucket within a quarter of the device's largest allocation.
  const std::int64_t cap = std::int64_t(caps.max_alloc_bytes / 4 / dtype_size(dtype));
  if (cap > 0 && n > cap) n = cap;
  pr.n = n;
  return pr;
}

std::vector<DType> CopyFamily::dtypes(const Capabilities&) const { return {DType::F32, DType::F16}; }

Event CopyFamily::launch(const Queue& queue, const Params& p, const CopyProblem& problem, const MemImpl& x,
                         const MemImpl& y, const WaitList& wait) const {
  const Capabilities& caps = queue.device().caps();
  if (std::string why = check(p, caps, problem); !why.empty())
    throw Error(Status::InvalidArgument, "copy: " + why + " (" + params_to_json(p) + ")");
  const std::size_t es = dtype_size(problem.dtype);
  const std::uint64_t n = std::uint64_t(problem.n);
  const std::uint64_t xo = std::uint64_t(problem.x_offset), yo = std::uint64_t(problem.y_offset);
  if ((xo + n) * es > x.bytes() || (yo + n) * es > y.bytes())
    throw Error(Status::BufferTooSmall, "copy: buffers too small for offset + n");
  KernelPtr k = kernel(queue, p, problem);
  std::vector<KernelArg> args{KernelArg::scalar(n), KernelArg::buffer(x), KernelArg::scalar(xo),
                              KernelArg::buffer(y), KernelArg::scalar(yo)};
  const Geometry g = geometry(p, caps, problem);
  return launch_kernel(queue, *k, args, g, wait, &p);
}

}  // namespace optune::detail
