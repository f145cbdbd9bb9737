#include "kernels/softmax/softmax.hpp"

#include "kernels/reduce/reduce_common.hpp"

namespace optune::detail {

using namespace reduction;

std::vector<Parameter> SoftmaxColsFamily::parameters(const Capabilities&) const {
  return {{"WGS", {32, 64, 128, 256, 512, 1024}, 256, "work-items (columns) per group"}};
}

std::string SoftmaxColsFamily::check(const Params& p, const Capabilities& caps, const SoftmaxColsProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  if (std::size_t(p.at("WGS")) > caps.max_work_group_size || std::size_t(p.at("WGS")) > caps.max_work_item_sizes[0])
    return "WGS exceeds the device's work-group limit";
  return "";
}

Params SoftmaxColsFamily::fit(const Params& tuned, const Capabilities& caps, const SoftmaxColsProblem&) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 1 && (std::size_t(p["WGS"]) > caps.max_work_group_size ||
                          std::size_t(p["WGS"]) > caps.max_work_item_sizes[0]))
    p["WGS"] /= 2;
  return p;
}

Geometry SoftmaxColsFamily::geometry(const Params& p, const Capabilities&, const SoftmaxColsProblem& pr) const {
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = round_up(std::max<std::size_t>(std::size_t(pr.outer * pr.inner), 1), g.local[0]);
  return g;
}

Defines SoftmaxColsFamily::defines(const Params& p, const SoftmaxColsProblem& pr) const {
  return {{"LOG", std::to_string(int(pr.log))},
          {"IN_T", c_type_name(pr.dtype)},
          {"IN_HALF", pr.dtype == DType::F16 ? "1" : "0"},
          {"IN_BF16", pr.dtype == DType::BF16 ? "1" : "0"},
          {"ACC", c_type_name(acc_dtype(pr.dtype))},
          {"WGS", std::to_string(p.at("WGS"))}};
}

std::string SoftmaxColsFamily::bucket(const SoftmaxColsProblem& pr) const {
  const std::int64_t columns = pr.outer * pr.inner;
  return columns <= 4096 ? "columns<=4096" : columns <= 65536 ? "columns<=65536" : "columns>65536";
}

std::vector<std::string> SoftmaxColsFamily::buckets() const {
  return {"columns<=4096", "columns<=65536", "columns>65536"};
}

SoftmaxColsProblem SoftmaxColsFamily::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  const std::int64_t total = caps.type == DeviceType::CPU ? (1 << 22) : (1 << 26);
  const std::int64_t inner = bucket == "columns<=4096" ? 4096 : bucket == "columns<=65536" ? 65536 : 1 << 20;
  SoftmaxColsProblem pr;
  pr.dtype = dtype;
  pr.rows = std::max<std::int64_t>(total / inner, 2), pr.inner = inner;
  return pr;
}

std::vector<DType> SoftmaxColsFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32, DType::F16, DType::BF16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

}  // namespace optune::detail
