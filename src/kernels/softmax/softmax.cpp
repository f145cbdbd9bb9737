#include "kernels/softmax/softmax.hpp"

#include "kernels/reduce/reduce_common.hpp"
#include "ops/reduce_ops.hpp"

namespace optune::detail {

using namespace reduction;

std::vector<Parameter> SoftmaxColsFamily::parameters(const Capabilities&) const {
  return {{"WGS", {32, 64, 128, 256, 512, 1024}, 256, "work-items (columns) per group"}};
}

std::string SoftmaxColsFamily::check(const Params& p, const Capabilities& caps, const Problem& pr) const {
  if (std::string why = KernelFamily::check(p, caps, pr); !why.empty()) return why;
  if (std::size_t(p.at("WGS")) > caps.max_work_group_size || std::size_t(p.at("WGS")) > caps.max_work_item_sizes[0])
    return "WGS exceeds the device's work-group limit";
  return "";
}

Params SoftmaxColsFamily::fit(const Params& tuned, const Capabilities& caps) const {
  Params p = complete(tuned, caps);
  while (p["WGS"] > 1 && (std::size_t(p["WGS"]) > caps.max_work_group_size ||
                          std::size_t(p["WGS"]) > caps.max_work_item_sizes[0]))
    p["WGS"] /= 2;
  return p;
}

Geometry SoftmaxColsFamily::geometry(const Params& p, const Capabilities&, const Problem& pr) const {
  Geometry g;
  g.local[0] = std::size_t(p.at("WGS"));
  g.global[0] = round_up(std::max<std::size_t>(std::size_t(pr.sizes.at(0) * pr.sizes.at(2)), 1), g.local[0]);
  return g;
}

Defines SoftmaxColsFamily::defines(const Params& p, const Problem& pr) const {
  return {{"LOG", std::to_string(pr.get("log"))},
          {"IN_T", c_type_name(pr.dtype)},
          {"IN_HALF", pr.dtype == DType::F16 ? "1" : "0"},
          {"ACC", c_type_name(acc_dtype(pr.dtype))},
          {"WGS", std::to_string(p.at("WGS"))}};
}

std::string SoftmaxColsFamily::bucket(const Problem& pr) const {
  const std::int64_t columns = pr.sizes.at(0) * pr.sizes.at(2);
  return columns <= 4096 ? "columns<=4096" : columns <= 65536 ? "columns<=65536" : "columns>65536";
}

std::vector<std::string> SoftmaxColsFamily::buckets() const {
  return {"columns<=4096", "columns<=65536", "columns>65536"};
}

Problem SoftmaxColsFamily::example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  const std::int64_t total = caps.type == DeviceType::CPU ? (1 << 22) : (1 << 26);
  const std::int64_t inner = bucket == "columns<=4096" ? 4096 : bucket == "columns<=65536" ? 65536 : 1 << 20;
  Problem pr;
  pr.dtype = dtype;
  pr.sizes = {1, std::max<std::int64_t>(total / inner, 2), inner};
  pr.extra = {{"log", 0}};
  return pr;
}

std::vector<DType> SoftmaxColsFamily::dtypes(const Capabilities& caps) const {
  std::vector<DType> out{DType::F32, DType::F16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

namespace {

class SoftmaxColsCase : public TuningCase {
 public:
  SoftmaxColsCase(const Queue& q, const Problem& pr) : q_(q), pr_(pr) {
    const std::vector<std::int64_t> shape{pr.sizes.at(0) * pr.sizes.at(1) * pr.sizes.at(2)};
    x_ = random_operand(q, pr.dtype, shape, -4, 4, 11);
    y_ = random_operand(q, pr.dtype, shape, 0, 0, 12);
  }
  Event run(const Params& p) override {
    SoftmaxColsCall c;
    c.log = pr_.get("log") != 0;
    c.outer = std::size_t(pr_.sizes.at(0));
    c.rows = std::size_t(pr_.sizes.at(1));
    c.inner = std::size_t(pr_.sizes.at(2));
    c.x = x_;
    c.y = y_;
    return run_softmax_cols(q_, c, {}, &p);
  }
  void poison() override { poison_operand(q_, y_); }
  std::vector<double> output() override { return read_operand(q_, y_); }
  double tolerance() const override { return pr_.dtype == DType::F16 ? 1e-2 : pr_.dtype == DType::F64 ? 1e-12 : 1e-5; }
  double work_bytes() const override {
    return 3.0 * double(pr_.sizes.at(0) * pr_.sizes.at(1) * pr_.sizes.at(2)) * double(dtype_size(pr_.dtype));
  }

 private:
  Queue q_;
  Problem pr_;
  Operand x_, y_;
};

}  // namespace

std::unique_ptr<TuningCase> SoftmaxColsFamily::make_case(const Queue& queue, const Problem& problem) const {
  return std::make_unique<SoftmaxColsCase>(queue, problem);
}

}  // namespace optune::detail
