#include "kernels/reduce/reduce.hpp"

#include <limits>

#include "kernels/reduce/reduce_common.hpp"
#include "optune/reduce.hpp"

namespace optune::detail {

using namespace reduction;

namespace {

// Packs per lane of the automatic TPR. On the H100 through CUDA, 4 (64 lanes
// for a row of 1024 floats) measured best for the 512 x 768 row-mean and
// equal for 262144 x 1024; through NVIDIA's OpenCL, 8 (a warp per row) kept
// the large row-sum at 97% of the copy ceiling where 4 gave 92%.
std::int64_t default_ppl(const Capabilities& caps) { return caps.backend == Backend::CUDA ? 4 : 8; }

std::int64_t in_bytes(const ReduceProblem& pr) {
  return std::int64_t(dtype_size(pr.in_partial ? acc_dtype(pr.dtype) : pr.dtype));
}

std::int64_t acc_bytes(const ReduceProblem& pr) { return std::int64_t(dtype_size(acc_dtype(pr.dtype))); }

std::string fits_group(std::int64_t wgs, const Capabilities& caps) {
  if (std::size_t(wgs) > caps.max_work_group_size || std::size_t(wgs) > caps.max_work_item_sizes[0])
    return "WGS exceeds the device's work-group limit";
  return "";
}

// The splits of an axis of `length` elements over which `lanes` lanes of each
// of `groups` groups stride, so that at least target groups run and each
// lane keeps `min_steps` steps of `step` elements per chunk.
ReduceFamilyBase::Split split_axis(std::int64_t length, std::int64_t step, std::int64_t lanes, std::int64_t groups,
                                   std::int64_t target, std::int64_t min_steps) {
  ReduceFamilyBase::Split s{1, length};
  if (groups >= target || length <= 0) return s;
  const std::int64_t by_length = length / step / std::max<std::int64_t>(lanes * min_steps, 1);
  const std::int64_t want = std::min(ceil_div(target, std::max<std::int64_t>(groups, 1)), by_length);
  if (want <= 1) return s;
  s.chunk = ceil_div(ceil_div(length, step), want) * step;
  s.splits = ceil_div(length, s.chunk);
  return s;
}

}  // namespace

ReduceRule reduce_rule(int op) {
  const double inf = std::numeric_limits<double>::infinity();
  switch (ReduceOp(op)) {
    case ReduceOp::Sum: return {0, 0, 0, 1, 0};
    case ReduceOp::Mean: return {0, 0, 1, 1, 0};
    case ReduceOp::SumSquares: return {0, 1, 0, 1, 0};
    case ReduceOp::L1: return {0, 2, 0, 1, 0};
    case ReduceOp::L2: return {0, 1, 2, 1, 0};
    case ReduceOp::Prod: return {1, 0, 0, 1, 1};
    case ReduceOp::Max: return {2, 0, 0, 1, -inf};
    case ReduceOp::Min: return {2, 0, 0, -1, inf};
    case ReduceOp::Any: return {2, 3, 0, 1, 0};
    case ReduceOp::All: return {2, 3, 0, -1, 1};
    case ReduceOp::ArgMax: return {3, 0, 0, 1, 0};
    case ReduceOp::ArgMin: return {3, 0, 0, -1, 0};
  }
  throw Error(Status::InvalidArgument, "unknown reduction operator " + std::to_string(op));
}

std::vector<DType> ReduceFamilyBase::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32, DType::F16, DType::BF16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

std::string ReduceFamilyBase::check_common(const Params& p, const Capabilities& caps, const ReduceProblem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (std::string why = fits_group(p.at("WGS"), caps); !why.empty()) return why;
  if (p.at("VW") > max_pack(caps, std::size_t(in_bytes(problem)))) return "pack wider than 16 bytes or the backend's vectors";
  if (problem.align % p.at("VW")) return "x's offset is not aligned to the pack";
  return "";
}

Defines ReduceFamilyBase::common_defines(const Params& p, const ReduceProblem& pr) const {
  const DType acc = acc_dtype(pr.dtype), out = pr.out;
  const bool in_partial = pr.in_partial, out_partial = pr.out_partial;
  return {{"KIND", std::to_string(reduce_rule(pr.op).kind)},
          {"ACC", c_type_name(acc)},
          {"IN_T", c_type_name(in_partial ? acc : pr.dtype)},
          {"IN_HALF", !in_partial && pr.dtype == DType::F16 ? "1" : "0"},
          {"IN_BF16", !in_partial && pr.dtype == DType::BF16 ? "1" : "0"},
          {"OUT_T", c_type_name(out_partial ? acc : out)},
          {"OUT_HALF", !out_partial && out == DType::F16 ? "1" : "0"},
          {"OUT_BF16", !out_partial && out == DType::BF16 ? "1" : "0"},
          {"IN_PARTIAL", in_partial ? "1" : "0"},
          {"OUT_PARTIAL", out_partial ? "1" : "0"},
          {"WGS", std::to_string(p.at("WGS"))},
          {"VW", std::to_string(p.at("VW"))}};
}

// ---- reduce_rows ----

std::vector<Parameter> ReduceRowsFamily::parameters(const Capabilities& caps) const {
  const bool sg = subgroup_size(caps) > 0;
  std::vector<std::int64_t> tpr{0};
  for (std::int64_t t : powers_of_two(1, 1024)) tpr.push_back(t);
  return {
      {"WGS", {64, 128, 256, 512, 1024}, 256, "work-items per group"},
      {"VW", {1, 2, 4, 8, 16}, default_pack(caps),
       "elements per load (bounded by alignment, 16 bytes on GPUs and 64 on CPUs, 4 lanes on CUDA)"},
      {"TPR", tpr, caps.type == DeviceType::CPU ? 1 : 0,
       "lanes per row; 0 picks the power of two giving each lane about PPL packs"},
      {"PPL", {1, 2, 4, 8, 16, 32}, default_ppl(caps), "packs per lane the automatic TPR aims at"},
      {"SG", sg ? std::vector<std::int64_t>{0, 1} : std::vector<std::int64_t>{0}, sg ? 1 : 0,
       "1: combine lanes with subgroup reductions where the subgroup size divides TPR"},
      {"WAVES", {1, 2, 4, 8}, 2, "device fills of groups to aim at when splitting long rows over groups"},
      {"CHUNK", {4, 8, 16, 32, 64}, 16, "fewest packs per lane in a split chunk"},
  };
}

std::string ReduceRowsFamily::check(const Params& p, const Capabilities& caps, const ReduceProblem& pr) const {
  if (std::string why = check_common(p, caps, pr); !why.empty()) return why;
  if (pr.reduced % p.at("VW")) return "the row length is not a multiple of the pack";
  if (p.at("TPR") > p.at("WGS")) return "TPR exceeds WGS";
  if (p.at("TPR") != 0 && p.at("PPL") != default_ppl(caps)) return "PPL only applies to TPR=0";
  if (std::uint64_t(p.at("WGS")) * std::uint64_t(acc_bytes(pr) + 4) > local_limit(caps))
    return "local memory exceeds the device's";
  return "";
}

Params ReduceRowsFamily::fit(const Params& tuned, const Capabilities& caps, const ReduceProblem& pr) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 1 && (!fits_group(p["WGS"], caps).empty() ||
                          std::uint64_t(p["WGS"]) * std::uint64_t(acc_bytes(pr) + 4) > local_limit(caps)))
    p["WGS"] /= 2;
  const std::int64_t cols = pr.reduced;
  p["VW"] = common_pack(std::min(p["VW"], max_pack(caps, std::size_t(in_bytes(pr)))), {cols, pr.align});
  if (subgroup_size(caps) == 0) p["SG"] = 0;
  if (p["TPR"] == 0) p["TPR"] = pow2_ceil(ceil_div(cols / p["VW"], std::max<std::int64_t>(p["PPL"], 1)));
  p["TPR"] = std::min(p["TPR"], p["WGS"]);
  return p;
}

ReduceFamilyBase::Split ReduceRowsFamily::split(const Params& p, const Capabilities& caps, const ReduceProblem& pr) const {
  const std::int64_t rows = pr.outer, cols = pr.reduced;
  if (pr.in_partial) return {1, cols};
  const std::int64_t groups = ceil_div(rows, p.at("WGS") / p.at("TPR"));
  return split_axis(cols, p.at("VW"), p.at("TPR"), groups, target_groups(caps, p.at("WGS"), p.at("WAVES")),
                    p.at("CHUNK"));
}

Geometry ReduceRowsFamily::geometry(const Params& p, const Capabilities& caps, const ReduceProblem& pr) const {
  const std::int64_t rpg = p.at("WGS") / std::max<std::int64_t>(p.at("TPR"), 1);
  const std::int64_t groups = std::max<std::int64_t>(ceil_div(pr.outer, rpg), 1) * pr.splits;
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = std::size_t(groups) * g.local[0];
  return g;
}

Defines ReduceRowsFamily::defines(const Params& p, const ReduceProblem& pr) const {
  Defines d = common_defines(p, pr);
  d.insert(d.end(), {{"SG", std::to_string(p.at("SG"))}, {"ENTRY", "1"}});
  return d;
}

std::string ReduceRowsFamily::bucket(const ReduceProblem& pr) const {
  const std::int64_t c = pr.reduced;
  return c <= 16 ? "cols<=16" : c <= 256 ? "cols<=256" : c <= 4096 ? "cols<=4096" : c <= 65536 ? "cols<=65536"
                                                                                                : "cols>65536";
}

std::vector<std::string> ReduceRowsFamily::buckets() const {
  return {"cols<=16", "cols<=256", "cols<=4096", "cols<=65536", "cols>65536"};
}

ReduceProblem ReduceRowsFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  const std::int64_t total = caps.type == DeviceType::CPU ? (1 << 22) : (1 << 26);
  const std::int64_t cols = bucket == "cols<=16" ? 16 : bucket == "cols<=256" ? 256 : bucket == "cols<=4096" ? 1024
                            : bucket == "cols<=65536" ? 32768 : total / 4;
  ReduceProblem pr;
  pr.dtype = pr.out = dtype;
  pr.outer = total / cols, pr.reduced = cols;
  pr.op = int(ReduceOp::Sum);
  return pr;
}

// ---- reduce_cols ----

std::vector<Parameter> ReduceColsFamily::parameters(const Capabilities& caps) const {
  std::vector<std::int64_t> tx{0};
  for (std::int64_t t : powers_of_two(1, 1024)) tx.push_back(t);
  return {
      {"WGS", {64, 128, 256, 512, 1024}, caps.type == DeviceType::CPU ? 64 : 256, "work-items per group"},
      {"VW", {1, 2, 4, 8, 16}, default_pack(caps), "adjacent columns per lane, loaded together"},
      {"TX", tx, 0, "column packs per group (TY = WGS / TX lanes share the reduced axis); 0: automatic"},
      {"TX_AUTO", {8, 16, 32, 64, 128, 256}, 64, "the automatic TX: this, or fewer when the columns are fewer"},
      {"WAVES", {1, 2, 4, 8}, 2, "device fills of groups to aim at when splitting the reduced axis over groups"},
      {"CHUNK", {4, 8, 16, 32, 64}, 16, "fewest rows per lane in a split chunk"},
  };
}

namespace {
std::uint64_t cols_local_bytes(const Params& p, const ReduceProblem& pr) {
  return std::uint64_t(p.at("WGS") * p.at("VW") * (acc_bytes(pr) + 4));
}
}  // namespace

std::string ReduceColsFamily::check(const Params& p, const Capabilities& caps, const ReduceProblem& pr) const {
  if (std::string why = check_common(p, caps, pr); !why.empty()) return why;
  if (pr.inner % p.at("VW")) return "the inner dimension is not a multiple of the pack";
  if (p.at("TX") > p.at("WGS")) return "TX exceeds WGS";
  if (p.at("TX") != 0 && p.at("TX_AUTO") != 64) return "TX_AUTO only applies to TX=0";
  if (cols_local_bytes(p, pr) > local_limit(caps)) return "local memory exceeds the device's";
  return "";
}

Params ReduceColsFamily::fit(const Params& tuned, const Capabilities& caps, const ReduceProblem& pr) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 1 && !fits_group(p["WGS"], caps).empty()) p["WGS"] /= 2;
  const std::int64_t inner = pr.inner;
  p["VW"] = common_pack(std::min(p["VW"], max_pack(caps, std::size_t(in_bytes(pr)))), {inner, pr.align});
  while (cols_local_bytes(p, pr) > local_limit(caps) && p["VW"] > 1) p["VW"] /= 2;
  while (cols_local_bytes(p, pr) > local_limit(caps) && p["WGS"] > 1) p["WGS"] /= 2;
  const std::int64_t packs = inner / p["VW"];
  if (p["TX"] == 0) p["TX"] = std::min(pow2_ceil(packs), p["TX_AUTO"]);
  p["TX"] = std::min(p["TX"], p["WGS"]);
  return p;
}

ReduceFamilyBase::Split ReduceColsFamily::split(const Params& p, const Capabilities& caps, const ReduceProblem& pr) const {
  const std::int64_t outer = pr.outer, rows = pr.reduced, inner = pr.inner;
  if (pr.in_partial) return {1, rows};
  const std::int64_t groups = outer * ceil_div(inner / p.at("VW"), p.at("TX"));
  return split_axis(rows, 1, p.at("WGS") / p.at("TX"), groups, target_groups(caps, p.at("WGS"), p.at("WAVES")),
                    p.at("CHUNK"));
}

Geometry ReduceColsFamily::geometry(const Params& p, const Capabilities& caps, const ReduceProblem& pr) const {
  const std::int64_t tx = std::max<std::int64_t>(p.at("TX"), 1);
  const std::int64_t blocks = ceil_div(pr.inner / p.at("VW"), tx);
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = std::size_t(std::max<std::int64_t>(pr.outer * blocks * pr.splits, 1)) * g.local[0];
  return g;
}

Defines ReduceColsFamily::defines(const Params& p, const ReduceProblem& pr) const {
  Defines d = common_defines(p, pr);
  d.emplace_back("ENTRY", "2");
  return d;
}

std::string ReduceColsFamily::bucket(const ReduceProblem& pr) const {
  const std::int64_t i = pr.inner;
  return i <= 4 ? "inner<=4" : i <= 64 ? "inner<=64" : i <= 1024 ? "inner<=1024" : "inner>1024";
}

std::vector<std::string> ReduceColsFamily::buckets() const { return {"inner<=4", "inner<=64", "inner<=1024", "inner>1024"}; }

ReduceProblem ReduceColsFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  const std::int64_t total = caps.type == DeviceType::CPU ? (1 << 22) : (1 << 26);
  const std::int64_t inner = bucket == "inner<=4" ? 4 : bucket == "inner<=64" ? 64 : bucket == "inner<=1024" ? 1024
                                                                                                            : 65536;
  // Wide inner dimensions are tuned on a long reduced axis (the column sums
  // of a tall matrix): tuned on 256 rows, the H100's entry was 12% slower
  // than the defaults on 1024 x 262144.
  const std::int64_t outer = inner > 1024 ? 1 : 4;
  ReduceProblem pr;
  pr.dtype = pr.out = dtype;
  pr.rows = false;
  pr.outer = outer, pr.reduced = total / inner / outer, pr.inner = inner;
  pr.op = int(ReduceOp::Sum);
  return pr;
}

}  // namespace optune::detail
