// Launch of a dense (outer, reduced, inner) reduction: the family by layout,
// its parameters, and the split of a long reduced axis over groups with a
// second pass over the partial states.
#include "kernels/families.hpp"
#include "kernels/reduce/reduce_common.hpp"
#include "ops/params.hpp"
#include "ops/reduce_ops.hpp"
#include "ops/reduce_plan.hpp"
#include "runtime/backend.hpp"

namespace optune::detail {

namespace {

bool is_arg(ReduceOp op) { return op == ReduceOp::ArgMax || op == ReduceOp::ArgMin; }

struct Stage {
  const MemImpl* x;
  std::size_t x_off;
  const MemImpl* xi;
  const MemImpl* y;
  std::size_t y_off;
  const MemImpl* yi;
};

Event launch(const Queue& q, const ReduceFamilyBase& fam, const Params& p, const ReduceProblem& pr,
             const ReduceFamilyBase::Split& s, const Stage& st, std::size_t count, const WaitList& wait) {
  const Capabilities& caps = q.device().caps();
  ReduceProblem with_splits = pr;
  with_splits.splits = s.splits;
  KernelPtr k = fam.kernel(q, p, with_splits);
  std::vector<KernelArg> args;
  for (std::int64_t v : pr.sizes()) args.push_back(KernelArg::scalar(std::uint64_t(v)));
  args.push_back(KernelArg::scalar(std::uint64_t(s.chunk)));
  args.push_back(KernelArg::scalar(std::uint64_t(s.splits)));
  // Lanes per row (reduce_rows) or along the reduced axis (reduce_cols).
  const bool rows = pr.rows;
  args.push_back(KernelArg::scalar(std::uint32_t(rows ? p.at("TPR") : p.at("WGS") / p.at("TX"))));
  args.push_back(KernelArg::buffer(*st.x));
  args.push_back(KernelArg::scalar(std::uint64_t(st.x_off)));
  args.push_back(KernelArg::buffer(*st.xi));
  args.push_back(KernelArg::buffer(*st.y));
  args.push_back(KernelArg::scalar(std::uint64_t(st.y_off)));
  args.push_back(KernelArg::buffer(*st.yi));
  const ReduceRule rule = reduce_rule(pr.op);
  args.push_back(KernelArg::scalar(std::int32_t(rule.map)));
  args.push_back(KernelArg::scalar(std::int32_t(rule.fin)));
  for (double v : {rule.sign, rule.init, double(count)}) {
    if (pr.dtype == DType::F64) args.push_back(KernelArg::scalar(v));
    else args.push_back(KernelArg::scalar(float(v)));
  }
  const Geometry g = fam.geometry(p, caps, with_splits);
  return launch_kernel(q, *k, args, g, wait, &p);
}

}  // namespace

std::vector<ReducePass> reduce_passes(const ReduceCall& c, const Capabilities& caps, const TunedParams& tuned) {
  const bool rows = c.inner == 1;
  const ReduceFamilyBase& fam = rows ? static_cast<const ReduceFamilyBase&>(families::reduce_rows())
                                     : static_cast<const ReduceFamilyBase&>(families::reduce_cols());
  ReduceProblem pr;
  pr.dtype = c.x.dtype;
  pr.rows = rows;
  pr.outer = std::int64_t(c.outer), pr.reduced = std::int64_t(c.reduced), pr.inner = std::int64_t(c.inner);
  pr.op = int(c.op);
  pr.out = c.y.dtype;
  pr.align = offset_alignment({c.x.offset});
  const Params p = fam.fit(tuned(fam, pr), caps, pr);
  const ReduceFamilyBase::Split s = fam.split(p, caps, pr);
  if (s.splits == 1) return {{&fam, p, pr, s}};

  // Two passes: partial states [outer][splits][inner], then their reduction.
  ReduceProblem first = pr;
  first.out_partial = true;
  ReduceProblem second = pr;
  second.reduced = s.splits;
  second.in_partial = true;
  second.align = 16;
  const Params p2 = fam.fit(tuned(fam, second), caps, second);
  return {{&fam, p, first, s}, {&fam, p2, second, {1, s.splits}}};
}

Event run_reduce(const Queue& q, const ReduceCall& c, const WaitList& wait, const Params* forced) {
  const std::vector<ReducePass> passes = reduce_passes(c, q.device().caps(), [&](const KernelFamily& f, const Problem& pr) {
    return forced ? *forced : params_for(q, f, pr);
  });
  const ReducePass& one = passes[0];
  if (passes.size() == 1)
    return launch(q, *one.family, one.params, one.problem, one.split,
                  {c.x.mem.get(), c.x.offset, c.x.mem.get(), c.y.mem.get(), c.y.offset, c.x.mem.get()}, c.reduced, wait);

  const DType acc = reduction::acc_dtype(c.x.dtype);
  const Scratch scratch = queue_scratch(q, acc, c.outer * std::size_t(one.split.splits) * c.inner, is_arg(c.op));
  const Operand& values = scratch.values;
  const Operand& indices = is_arg(c.op) ? scratch.indices : values;
  EventSpan span;
  span.add(launch(q, *one.family, one.params, one.problem, one.split,
                  {c.x.mem.get(), c.x.offset, c.x.mem.get(), values.mem.get(), 0, indices.mem.get()}, c.reduced, wait));
  const ReducePass& two = passes[1];
  span.add(launch(q, *two.family, two.params, two.problem, two.split,
                  {values.mem.get(), 0, indices.mem.get(), c.y.mem.get(), c.y.offset, c.x.mem.get()}, c.reduced, {}));
  return span.result();
}

}  // namespace optune::detail
