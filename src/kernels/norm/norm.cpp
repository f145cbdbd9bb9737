#include "kernels/norm/norm.hpp"

#include "kernels/reduce/reduce_common.hpp"
#include "ops/reduce_ops.hpp"

namespace optune::detail {

using namespace reduction;

namespace {

const char* op_bucket_name(std::int64_t op) { return op == 2 ? "layer_norm" : op == 3 ? "rms_norm" : "softmax"; }

std::int64_t acc_bytes(const Problem& pr) { return std::int64_t(dtype_size(acc_dtype(pr.dtype))); }

std::uint64_t local_bytes(std::int64_t wgs, std::int64_t cache, const Problem& pr) {
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

std::string NormRowsFamily::check(const Params& p, const Capabilities& caps, const Problem& pr) const {
  if (std::string why = KernelFamily::check(p, caps, pr); !why.empty()) return why;
  if (!group_fits(p.at("WGS"), caps)) return "WGS exceeds the device's work-group limit";
  if (p.at("VW") > max_pack(caps, dtype_size(pr.dtype))) return "pack wider than 16 bytes or the backend's vectors";
  if (pr.sizes.at(1) % p.at("VW") || pr.get("align", 16) % p.at("VW")) return "rows or offsets not aligned to the pack";
  if (p.at("REG_TPR") > p.at("WGS")) return "REG_TPR exceeds WGS";
  if (local_bytes(p.at("WGS"), p.at("LOCAL_MAX"), pr) > local_limit(caps)) return "LOCAL_MAX exceeds local memory";
  return "";
}

Params NormRowsFamily::fit(const Params& tuned, const Capabilities& caps, const Problem& pr) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 1 && (!group_fits(p["WGS"], caps) || local_bytes(p["WGS"], 0, pr) > local_limit(caps)))
    p["WGS"] /= 2;
  const std::int64_t cols = pr.sizes.at(1);
  p["VW"] = common_pack(std::min(p["VW"], max_pack(caps, dtype_size(pr.dtype))), {cols, pr.get("align", 16)});
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

Geometry NormRowsFamily::geometry(const Params& params, const Capabilities& caps, const Problem& pr) const {
  const Params p = params.count("STRATEGY") ? params : fit(params, caps, pr);
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = std::size_t(std::max<std::int64_t>(ceil_div(pr.sizes.at(0), p.at("WGS") / p.at("TPR")), 1)) * g.local[0];
  return g;
}

Defines NormRowsFamily::defines(const Params& p, const Problem& pr) const {
  const DType stat = DType(pr.get("stat", int(DType::F32)));
  Defines d{{"OP", std::to_string(pr.get("op"))},
            {"IN_T", c_type_name(pr.dtype)},
            {"IN_HALF", pr.dtype == DType::F16 ? "1" : "0"},
            {"ACC", c_type_name(acc_dtype(pr.dtype))},
            {"HAS_GAMMA", std::to_string(pr.get("gamma"))},
            {"HAS_BETA", std::to_string(pr.get("beta"))},
            {"STATS", std::to_string(pr.get("stats"))}};
  if (pr.get("stats")) d.insert(d.end(), {{"STAT_T", c_type_name(stat)}, {"STAT_HALF", stat == DType::F16 ? "1" : "0"}});
  for (const char* k : {"WGS", "VW", "SG", "STRATEGY"}) d.emplace_back(k, std::to_string(p.at(k)));
  if (p.at("STRATEGY") == 0) d.emplace_back("NPACK", std::to_string(p.at("NPACK")));
  if (p.at("STRATEGY") == 1) d.emplace_back("CACHE", std::to_string(p.at("CACHE")));
  return d;
}

std::string NormRowsFamily::bucket(const Problem& pr) const {
  const std::int64_t c = pr.sizes.at(1);
  return std::string(op_bucket_name(pr.get("op"))) + ":" +
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

Problem NormRowsFamily::example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  const std::int64_t total = caps.type == DeviceType::CPU ? (1 << 22) : (1 << 26);
  const auto has = [&](const char* s) { return bucket.find(s) != std::string::npos; };
  const std::int64_t cols = has("cols<=256") ? 256 : has("cols<=1024") ? 1024 : has("cols<=4096") ? 4096
                            : has("cols<=16384") ? 16384 : 65536;
  const std::int64_t op = has("layer_norm") ? 2 : has("rms_norm") ? 3 : 0;
  Problem pr;
  pr.dtype = dtype;
  pr.sizes = {std::max<std::int64_t>(total / cols, 1), cols};
  pr.extra = {{"op", op}, {"align", 16}, {"gamma", op >= 2}, {"beta", op == 2}, {"stats", 0}};
  return pr;
}

std::vector<DType> NormRowsFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32, DType::F16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

namespace {

class NormCase : public TuningCase {
 public:
  NormCase(const Queue& q, const Problem& pr) : q_(q), pr_(pr) {
    const std::size_t rows = std::size_t(pr.sizes.at(0)), cols = std::size_t(pr.sizes.at(1));
    x_ = random_operand(q, pr.dtype, {std::int64_t(rows), std::int64_t(cols)}, -4, 4, 1);
    y_ = random_operand(q, pr.dtype, {std::int64_t(rows), std::int64_t(cols)}, 0, 0, 2);
    if (pr.get("gamma")) gamma_ = random_operand(q, pr.dtype, {std::int64_t(cols)}, 0.5, 1.5, 3);
    if (pr.get("beta")) beta_ = random_operand(q, pr.dtype, {std::int64_t(cols)}, -1, 1, 4);
  }
  Event run(const Params& p) override {
    NormCall c;
    c.op = NormOp(pr_.get("op"));
    c.rows = std::size_t(pr_.sizes.at(0));
    c.cols = std::size_t(pr_.sizes.at(1));
    c.x = x_;
    c.y = y_;
    c.gamma = gamma_;
    c.beta = beta_;
    c.eps = 1e-5;
    return run_norm_rows(q_, c, {}, &p);
  }
  void poison() override { poison_operand(q_, y_); }
  std::vector<double> output() override { return read_operand(q_, y_); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : pr_.dtype == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override {
    return 2.0 * double(pr_.sizes.at(0) * pr_.sizes.at(1)) * double(dtype_size(pr_.dtype));
  }

 private:
  Queue q_;
  Problem pr_;
  Operand x_, y_;
  std::optional<Operand> gamma_, beta_;
};

}  // namespace

std::unique_ptr<TuningCase> NormRowsFamily::make_case(const Queue& queue, const Problem& problem) const {
  return std::make_unique<NormCase>(queue, problem);
}

}  // namespace optune::detail
