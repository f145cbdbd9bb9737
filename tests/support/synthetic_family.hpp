// A family with a planted landscape, for the tuner and database tests: time
// per work-item grows with (|P - 4| + |Q - 2|) * k iterations of a dependent
// recurrence (the optimum P = 4, Q = 2), P = 6 does not compile, Q = 3
// computes a wrong result, and (P = 5, Q = 0) is refused by check().
#pragma once

#include <cmath>
#include <cstdlib>

#include <atomic>
#include <optional>

#include "kernels/descriptor.hpp"
#include "support/test_support.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::test {

inline const char* kSyntheticSource = R"CL(
#ifdef COMPILE_ERROR
#error "planted compile error (P=6)"
#endif
__kernel void synthetic(__global const float* x, __global float* y, const uint n, const uint loops) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  float acc = x[i];
  for (uint k = 0; k < loops; ++k) acc = acc * 0.999f + 0.001f;
  float v = 2.0f * x[i] + (acc > 1e30f ? 1.0f : 0.0f);
#ifdef WRONG_RESULT
  v += 1.0f;
#endif
  y[i] = v;
}
)CL";

struct SyntheticProblem {
  DType dtype = DType::F32;
  std::int64_t n = 256;
  std::int64_t max_wgs = 0;  // a call-specific limit on WGS (0: none), for check()
  std::vector<std::int64_t> sizes() const { return {n}; }
  std::map<std::string, std::int64_t> fields() const { return {}; }
};

class SyntheticFamily : public detail::FamilyOf<SyntheticProblem> {
 public:
  // wgs_cap > 0: fit() lowers WGS to it (two values of WGS, one run: the
  // tuner's duplicates), and the case runs what fit() gives.
  explicit SyntheticFamily(std::int64_t k, std::int64_t wgs_cap = 0) : k_(k), wgs_cap_(wgs_cap) {
    detail::register_case(*this, [this](const Queue& q, const detail::Problem& pr) -> std::unique_ptr<detail::TuningCase> {
      return std::make_unique<Case>(*this, q, pr.as<SyntheticProblem>());
    });
  }
  std::string name() const override { return "synthetic"; }
  std::string source() const override { return "synthetic.cl"; }
  std::string kernel_name() const override { return "synthetic"; }
  std::vector<detail::Parameter> parameters(const Capabilities&) const override {
    return {{"P", {0, 1, 2, 3, 4, 5, 6}, 0, "planted optimum 4; 6 does not compile"},
            {"Q", {0, 1, 2, 3}, 0, "planted optimum 2; 3 computes wrongly"},
            {"WGS", {16, 32, 64}, 32, "work-items per group"}};
  }
  std::string check(const detail::Params& p, const Capabilities& caps, const SyntheticProblem&) const override {
    if (std::string why = check_candidates(p, caps); !why.empty()) return why;
    if (p.at("P") == 5 && p.at("Q") == 0) return "planted refusal (P=5, Q=0)";
    return "";
  }
  detail::Geometry geometry(const detail::Params& p, const Capabilities&, const SyntheticProblem& pr) const override {
    detail::Geometry g;
    g.local[0] = std::size_t(p.at("WGS"));
    g.global[0] = detail::round_up(std::size_t(pr.n), g.local[0]);
    return g;
  }
  detail::Params fit(const detail::Params& tuned, const Capabilities& caps, const SyntheticProblem&) const override {
    detail::Params p = complete(tuned, caps);
    if (wgs_cap_ > 0 && p.at("WGS") > wgs_cap_) p["WGS"] = wgs_cap_;
    return p;
  }
  std::string bucket(const SyntheticProblem& pr) const override { return pr.n <= 256 ? "small" : "large"; }
  SyntheticProblem make_example(DType dtype, const std::string& bucket, const Capabilities&) const override {
    return {dtype, bucket == "small" ? 256 : 1024, 0};
  }
  std::vector<std::string> buckets() const override { return {"small", "large"}; }
  std::vector<DType> dtypes(const Capabilities&) const override { return {DType::F32}; }
  std::int64_t loops(const detail::Params& p) const {
    return (std::llabs(p.at("P") - 4) + std::llabs(p.at("Q") - 2)) * k_;
  }
  // The planted failures, as defines of the one program.
  static detail::Defines planted(const detail::Params& p) {
    detail::Defines d;
    if (p.at("P") == 6) d.emplace_back("COMPILE_ERROR", "1");
    if (p.at("Q") == 3) d.emplace_back("WRONG_RESULT", "1");
    return d;
  }
  // What the case's run builds, so that the tuner's compiles ahead are real;
  // `programs_given` counts the calls.
  std::optional<detail::KernelSource> program_for(const detail::Params& p, const Capabilities&,
                                                  const detail::Problem&) const override {
    ++programs_given;
    return detail::KernelSource{"synthetic.cl", kSyntheticSource, planted(p), "synthetic"};
  }
  mutable std::atomic<std::uint64_t> programs_given{0};

 private:
  class Case : public detail::TuningCase {
   public:
    Case(const SyntheticFamily& f, const Queue& q, const SyntheticProblem& pr) : f_(f), q_(q), pr_(pr) {
      const auto host = random_floats(std::size_t(pr.n));
      x_ = q.context().alloc<float>(host.size());
      y_ = q.context().alloc<float>(host.size());
      q.upload(x_, std::span<const float>(host));
    }
    Event run(const detail::Params& given) override {
      const detail::Params p = f_.fit(given, q_.device().caps(), pr_);
      detail::KernelPtr k =
          detail::get_program_from_text(*q_.context().impl(), "synthetic.cl", kSyntheticSource, planted(p))
              ->kernel("synthetic");
      const detail::Geometry g = f_.geometry(p, q_.device().caps(), pr_);
      detail::check_geometry(q_.device().caps(), g);
      return detail::Launch(q_, k).buf(x_).buf(y_).arg(std::uint32_t(pr_.n)).arg(std::uint32_t(f_.loops(p))).run(g);
    }
    void poison() override { q_.fill(y_, std::nanf("")).wait(); }
    std::vector<double> output() override {
      const auto y = q_.download(y_);
      return std::vector<double>(y.begin(), y.end());
    }
    double tolerance() const override { return 1e-6; }

   private:
    const SyntheticFamily& f_;
    Queue q_;
    SyntheticProblem pr_;
    Buffer<float> x_, y_;
  };
  std::int64_t k_, wgs_cap_;
};

}  // namespace optune::test
