// Descriptors of the reduction kernels (reduce/reduce.cl): reduce_rows for a
// contiguous reduced axis (inner == 1) and reduce_cols for a reduced axis
// with a contiguous inner dimension. Both may split the reduced axis over
// several groups and finish with a second launch over the partial states.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// A reduction over a dense x of [outer][reduced][inner] (reduce_rows: inner
// == 1, the reduced axis contiguous) into y of [outer][inner]. Tuning runs a
// whole sum (both passes when it splits) over f32 data.
struct ReduceProblem {
  DType dtype = DType::F32;        // x's data type
  bool rows = true;                // reduce_rows (else reduce_cols)
  std::int64_t outer = 1, reduced = 1, inner = 1;
  int op = 0;                      // optune::ReduceOp as an integer
  DType out = DType::F32;          // y's data type
  bool in_partial = false;         // x holds a first pass's partial states (ACC values)
  bool out_partial = false;        // y receives partial states
  std::int64_t align = 16;         // the largest pack, in elements, that x's offset allows
  std::int64_t splits = 1;         // chunks per reduced axis, set by the host for geometry()

  // reduce_rows: {rows, cols}; reduce_cols: {outer, rows, inner}.
  std::vector<std::int64_t> sizes() const {
    return rows ? std::vector<std::int64_t>{outer, reduced} : std::vector<std::int64_t>{outer, reduced, inner};
  }
  std::map<std::string, std::int64_t> fields() const {
    return {{"op", op}, {"out", int(out)}, {"in_partial", in_partial}, {"out_partial", out_partial},
            {"align", align}, {"splits", splits}};
  }
};

// How reduce.cl computes an operator: the compiled-in combining rule (kind)
// and the run-time map, final step, direction and identity.
struct ReduceRule {
  int kind = 0;   // 0 sum-like, 1 prod, 2 max/min/any/all, 3 argmax/argmin
  int map = 0;    // 0 x, 1 x*x, 2 |x|, 3 x != 0
  int fin = 0;    // 0 r, 1 r / count, 2 sqrt(r)
  double sign = 1;  // +1 max-like, -1 min-like
  double init = 0;  // identity
};
ReduceRule reduce_rule(int op);  // op: optune::ReduceOp as an integer

class ReduceFamilyBase : public FamilyOf<ReduceProblem> {
 public:
  std::string source() const override { return "reduce/reduce.cl"; }
  std::string kernel_name() const override { return name(); }
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  // How the reduced axis is cut: `splits` chunks of `chunk` elements.
  struct Split {
    std::int64_t splits = 1, chunk = 0;
  };
  // The parameters this call runs with: tuned values bounded by what the
  // device and the problem allow, automatic choices (0) resolved.
  virtual Split split(const Params& fitted, const Capabilities& caps, const ReduceProblem& problem) const = 0;

 protected:
  std::string check_common(const Params& p, const Capabilities& caps, const ReduceProblem& problem) const;
  Defines common_defines(const Params& p, const ReduceProblem& problem) const;
};

class ReduceRowsFamily : public ReduceFamilyBase {
 public:
  std::string name() const override { return "reduce_rows"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ReduceProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ReduceProblem& problem) const override;
  Defines defines(const Params& p, const ReduceProblem& problem) const override;
  std::string bucket(const ReduceProblem& problem) const override;
  ReduceProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  Params fit(const Params& tuned, const Capabilities& caps, const ReduceProblem& problem) const override;
  Split split(const Params& fitted, const Capabilities& caps, const ReduceProblem& problem) const override;
};

class ReduceColsFamily : public ReduceFamilyBase {
 public:
  std::string name() const override { return "reduce_cols"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const ReduceProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const ReduceProblem& problem) const override;
  Defines defines(const Params& p, const ReduceProblem& problem) const override;
  std::string bucket(const ReduceProblem& problem) const override;
  ReduceProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  Params fit(const Params& tuned, const Capabilities& caps, const ReduceProblem& problem) const override;
  Split split(const Params& fitted, const Capabilities& caps, const ReduceProblem& problem) const override;
};

}  // namespace optune::detail
