#include "kernels/norm/norm.hpp"

#include "kernels/reduce/reduce_common.hpp"

namespace optune::detail {

using namespace reduction;

namespace {

const char* op_bucket_name(NormOp op) {
  return op == NormOp::LayerNorm ? "layer_norm" : op == NormOp::RmsNorm ? "rms_norm" : "softmax";
}

std::int64_t acc_bytes(const NormProblem& pr) { return std::int64_t(dtype_size(acc_dtype(pr.dtype))); }

std::uint64_t local_bytes(std::int64_t wgs, std::int64_t cache, const NormProblem& pr) {
  return std::uint64_t(wgs + cache) * std::uint64_t(acc_bytes(pr));
}

bool group_fits(std::int64_t wgs, const Capabilities& caps) {
  return std::size_t(wgs) <= caps.max_work_group_size && std::size_t(wgs) <= caps.max_work_item_sizes[0];
}

}  // namespace

std::vector<Parameter> NormRowsFamily::parameters(const Capabilities& caps) const {
  const bool sg = subgroup_size(caps) > 0;
  return {
      {"WGS", {64, 128, 256, 512, 1024}, 256, "work-items per group"},
      {"VW", {1, 2, 4, 8, 16}, default_pack(caps),
       "elements per load and store (bounded by alignment, 16 bytes on GPUs and 64 on CPUs, 4 lanes on CUDA)"},
      {"REG_TPR", powers_of_two(1, 1024), 32, "most lanes per row in the register strategy (a warp by default)"},
      {"SG", sg ? std::vector<std::int64_t>{0, 1} : std::vector<std::int64_t>{0}, sg ? 1 : 0,
       "1: combine lanes with subgroup reductions where the subgroup size divides TPR"},
      {"REG_MAX", {1, 2, 4, 8, 16, 32}, 8, "rows of up to REG_TPR * REG_MAX packs stay in registers"},
      {"LOCAL_MAX", {0, 1024, 2048, 4096, 8192, 16384}, 8192,
       "longer rows of up to this many elements are cached in local memory; longer ones take two passes"},
  };
}

std::string NormRowsFamily::check(const Params& p, const Capabilities& caps, const NormProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (!group_fits(p.at("WGS"), caps)) return "WGS exceeds the device's work-group limit";
  if (p.at("VW") > max_pack(caps, dtype_size(pr.dtype))) return "pack wider than 16 bytes or the backend's vectors";
  if (pr.cols % p.at("VW") || pr.align % p.at("VW")) return "rows or offsets not aligned to the pack";
  if (p.at("REG_TPR") > p.at("WGS")) return "REG_TPR exceeds WGS";
  if (local_bytes(p.at("WGS"), p.at("LOCAL_MAX"), pr) > local_limit(caps)) return "LOCAL_MAX exceeds local memory";
  return "";
}

Params NormRowsFamily::fit(const Params& tuned, const Capabilities& caps, const NormProblem& pr) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 1 && (!group_fits(p["WGS"], caps) || local_bytes(p["WGS"], 0, pr) > local_limit(caps)))
    p["WGS"] /= 2;
  const std::int64_t cols = pr.cols;
  p["VW"] = common_pack(std::min(p["VW"], max_pack(caps, dtype_size(pr.dtype))), {cols, pr.align});
  if (subgroup_size(caps) == 0) p["SG"] = 0;
  const std::int64_t packs = cols / p["VW"], reg = std::max<std::int64_t>(p["REG_MAX"], 1);
  const std::int64_t tpr = std::min({pow2_ceil(ceil_div(packs, reg)), p["REG_TPR"], p["WGS"]});
  const std::int64_t npack = ceil_div(packs, tpr);
  std::int64_t cache = pow2_ceil(std::max<std::int64_t>(cols, 1));
  if (local_bytes(p["WGS"], cache, pr) > local_limit(caps)) cache = ceil_div(cols, 1024) * 1024;
  if (npack <= reg) {
    p["STRATEGY"] = 0;
    p["TPR"] = tpr;
    p["NPACK"] = pow2_ceil(std::max<std::int64_t>(npack, 1));
  } else if (cols <= p["LOCAL_MAX"] && local_bytes(p["WGS"], cache, pr) <= local_limit(caps)) {
    p["STRATEGY"] = 1;
    p["TPR"] = p["WGS"];
    p["CACHE"] = cache;
  } else {
    p["STRATEGY"] = 2;
    p["TPR"] = p["WGS"];
  }
  return p;
}

Geometry NormRowsFamily::geometry(const Params& params, const Capabilities& caps, const NormProblem& pr) const {
  const Params p = params.count("STRATEGY") ? params : fit(params, caps, pr);
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = std::size_t(std::max<std::int64_t>(ceil_div(pr.rows, p.at("WGS") / p.at("TPR")), 1)) * g.local[0];
  return g;
}

Defines NormRowsFamily::defines(const Params& p, const NormProblem& pr) const {
  const DType stat = pr.stat;
  Defines d{{"OP", std::to_string(int(pr.op))},
            {"IN_T", c_type_name(pr.dtype)},
            {"IN_HALF", pr.dtype == DType::F16 ? "1" : "0"},
            {"IN_BF16", pr.dtype == DType::BF16 ? "1" : "0"},
            {"ACC", c_type_name(acc_dtype(pr.dtype))},
            {"HAS_GAMMA", std::to_string(int(pr.gamma))},
            {"HAS_BETA", std::to_string(int(pr.beta))},
            {"STATS", std::to_string(int(pr.stats))}};
  if (pr.stats) d.insert(d.end(), {{"STAT_T", c_type_name(stat)}, {"STAT_HALF", stat == DType::F16 ? "1" : "0"},
                                   {"STAT_BF16", stat == DType::BF16 ? "1" : "0"}});
  for (const char* k : {"WGS", "VW", "SG", "STRATEGY"}) d.emplace_back(k, std::to_string(p.at(k)));
  if (p.at("STRATEGY") == 0) d.emplace_back("NPACK", std::to_string(p.at("NPACK")));
  if (p.at("STRATEGY") == 1) d.emplace_back("CACHE", std::to_string(p.at("CACHE")));
  return d;
}

std::string NormRowsFamily::bucket(const NormProblem& pr) const {
  const std::int64_t c = pr.cols;
  return std::string(op_bucket_name(pr.op)) + ":" +
         (c <= 256 ? "cols<=256" : c <= 1024 ? "cols<=1024" : c <= 4096 ? "cols<=4096" : c <= 16384 ? "cols<=16384"
                                                                                                      : "cols>16384");
}

std::vector<std::string> NormRowsFamily::buckets() const {
  std::vector<std::string> out;
  for (const char* op : {"softmax", "layer_norm", "rms_norm"})
    for (const char* c : {"cols<=256", "cols<=1024", "cols<=4096", "cols<=16384", "cols>16384"})
      out.push_back(std::string(op) + ":" + c);
  return out;
}

NormProblem NormRowsFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  const std::int64_t total = caps.type == DeviceType::CPU ? (1 << 22) : (1 << 26);
  const auto has = [&](const char* s) { return bucket.find(s) != std::string::npos; };
  const std::int64_t cols = has("cols<=256") ? 256 : has("cols<=1024") ? 1024 : has("cols<=4096") ? 4096
                            : has("cols<=16384") ? 16384 : 65536;
  NormProblem pr;
  pr.dtype = dtype;
  pr.rows = std::max<std::int64_t>(total / cols, 1), pr.cols = cols;
  pr.op = has("layer_norm") ? NormOp::LayerNorm : has("rms_norm") ? NormOp::RmsNorm : NormOp::Softmax;
  pr.gamma = pr.op == NormOp::LayerNorm || pr.op == NormOp::RmsNorm;
  pr.beta = pr.op == NormOp::LayerNorm;
  return pr;
}

std::vector<DType> NormRowsFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32, DType::F16, DType::BF16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

}  // namespace optune::detail
