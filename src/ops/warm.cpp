// optune::warm: every operator variant the library can be asked for, per
// data type and size bucket, taken through the same lookup, fit and compile
// as a call, launching nothing. Programs land in the context's map and in
// the cache file; the lookups settle the trust checks of the entries used.
#include "optune/warm.hpp"

#include <algorithm>
#include <chrono>

#include "database/database.hpp"
#include "kernels/families.hpp"
#include "ops/elementwise_ops.hpp"
#include "ops/elementwise_plan.hpp"
#include "ops/gemm_candidates.hpp"
#include "ops/params.hpp"
#include "ops/reduce_ops.hpp"
#include "runtime/log.hpp"

namespace optune {

using namespace detail;

namespace {

using Item = std::pair<std::string, std::function<void(const Queue&)>>;

Operand typed(DType t) {
  Operand o;
  o.dtype = t;
  return o;
}

// A dense, aligned call of n elements.
void compile_elementwise(const Queue& q, const ElementwiseCall& call, std::int64_t n) {
  ElementwisePlan plan;
  plan.n = std::size_t(n);
  plan.shape = {n};
  plan.strides.assign(call.inputs.size() + call.outputs.size(), std::vector<std::int64_t>{1});
  plan.contiguous = true;
  const ElementwiseFamily& fam = families::elementwise();
  const ElementwiseProblem pr = elementwise_problem(call, plan);
  fam.kernel(q, fam.fit(params_for(q, fam, pr), q.device().caps(), pr), pr);
}

void elementwise_items(const Capabilities& caps, std::vector<Item>& items) {
  const ElementwiseFamily& fam = families::elementwise();
  for (DType t : fam.dtypes(caps))
    for (const std::string& b : fam.buckets()) {
      const std::int64_t n = fam.make_example(t, b, caps).n;
      const std::string where = std::string(dtype_name(t)) + " " + b;
      items.emplace_back("elementwise unary " + where, [=](const Queue& q) {
        const Operand x = typed(t), y = typed(t);
        OpParams clamp;
        clamp.alpha = -1, clamp.beta = 1;
        for (int op = 0; op <= int(Unary::Clamp); ++op)
          compile_elementwise(q, unary_call(Unary(op), x, y, Unary(op) == Unary::Clamp ? clamp : OpParams{}), n);
      });
      items.emplace_back("elementwise binary " + where, [=](const Queue& q) {
        const Operand a = typed(t), y = typed(t), mask = typed(DType::U8);
        for (int op = 0; op <= int(Binary::Ge); ++op)
          compile_elementwise(q, binary_call(Binary(op), a, a, Binary(op) >= Binary::Eq ? mask : y), n);
      });
      if (t != DType::F32)
        items.emplace_back("elementwise cast " + where, [=](const Queue& q) {
          const Operand x = typed(t), y = typed(DType::F32);
          compile_elementwise(q, cast_call(x, y), n);
          compile_elementwise(q, cast_call(y, x), n);
        });
    }
}

void reduce_items(const Capabilities& caps, std::vector<Item>& items, bool rows) {
  const ReduceFamilyBase& fam = rows ? static_cast<const ReduceFamilyBase&>(families::reduce_rows())
                                     : static_cast<const ReduceFamilyBase&>(families::reduce_cols());
  for (DType t : fam.dtypes(caps))
    for (const std::string& b : fam.buckets())
      items.emplace_back(fam.name() + " " + std::string(dtype_name(t)) + " " + b, [=, &fam](const Queue& q) {
        const ReduceProblem ex = fam.make_example(t, b, caps);
        for (int op = 0; op <= int(ReduceOp::All); ++op) {
          ReduceCall c;
          c.op = ReduceOp(op);
          c.outer = std::size_t(ex.outer), c.reduced = std::size_t(ex.reduced), c.inner = std::size_t(ex.inner);
          c.x = typed(t);
          const bool arg = c.op == ReduceOp::ArgMax || c.op == ReduceOp::ArgMin;
          const bool logical = c.op == ReduceOp::Any || c.op == ReduceOp::All;
          c.y = typed(arg ? DType::I32 : logical ? DType::U8 : t);
          const auto tuned = [&](const KernelFamily& f, const Problem& pr) { return params_for(q, f, pr); };
          for (ReducePass pass : reduce_passes(c, caps, tuned)) {
            pass.problem.splits = pass.split.splits;  // as the launch sets it
            pass.family->kernel(q, pass.params, pass.problem);
          }
        }
      });
}

void norm_items(const Capabilities& caps, std::vector<Item>& items) {
  const NormRowsFamily& fam = families::norm_rows();
  for (DType t : fam.dtypes(caps))
    for (const std::string& b : fam.buckets())
      items.emplace_back("norm_rows " + std::string(dtype_name(t)) + " " + b, [=, &fam](const Queue& q) {
        NormProblem pr = fam.make_example(t, b, caps);
        std::vector<NormProblem> variants{pr};
        if (pr.op == NormOp::Softmax) variants.back().op = NormOp::LogSoftmax, variants.insert(variants.begin(), pr);
        for (const NormProblem& v : variants) fam.kernel(q, fam.fit(params_for(q, fam, v), caps, v), v);
      });
}

void softmax_cols_items(const Capabilities& caps, std::vector<Item>& items) {
  const SoftmaxColsFamily& fam = families::softmax_cols();
  for (DType t : fam.dtypes(caps))
    for (const std::string& b : fam.buckets())
      items.emplace_back("softmax_cols " + std::string(dtype_name(t)) + " " + b, [=, &fam](const Queue& q) {
        for (bool log : {false, true}) {
          SoftmaxColsProblem pr = fam.make_example(t, b, caps);
          pr.log = log;
          fam.kernel(q, fam.fit(params_for(q, fam, pr), caps, pr), pr);
        }
      });
}

void gemm_items(const Capabilities& caps, std::vector<Item>& items) {
  const GemmRoutineFamily& routine = families::gemm_routine();
  for (DType t : routine.dtypes(caps))
    for (const std::string& b : routine.buckets())
      items.emplace_back("gemm " + std::string(dtype_name(t)) + " " + b, [=, &routine](const Queue& q) {
        for (int trans = 0; trans < 4; ++trans) {
          GemmProblem pr = routine.make_example(t, b, caps);
          pr.trans_a = trans & 1, pr.trans_b = trans & 2;
          pr.lda = pr.trans_a ? pr.m : pr.k, pr.ldb = pr.trans_b ? pr.k : pr.n;
          const GemmChoice c = choose_gemm(q, pr, true, nullptr);
          c.candidate->prepare(q, pr, c.params);
        }
      });
  // Thin products (decode-time shapes) have buckets of their own: the thin
  // side and how B is read; the routine's choice for each example.
  const GemmThinFamily& thin = families::gemm_thin();
  for (DType t : thin.dtypes(caps))
    for (const std::string& b : thin.buckets())
      items.emplace_back("gemm " + std::string(dtype_name(t)) + " " + b, [=, &thin](const Queue& q) {
        const GemmProblem pr = thin.make_example(t, b, caps);
        const GemmChoice c = choose_gemm(q, pr, true, nullptr);
        c.candidate->prepare(q, pr, c.params);
      });
}

// BLAS level 1: per type, the program of each bucket's parameters (every
// routine's entry point is in it; a reduction's second pass too).
void blas1_items(const Capabilities& caps, std::vector<Item>& items) {
  const Blas1Family& fam = families::blas1();
  for (DType t : fam.dtypes(caps))
    for (const std::string& b : fam.buckets())
      items.emplace_back("blas1 " + std::string(dtype_name(t)) + " " + b, [&fam, t, b](const Queue& q) {
        const Blas1Problem pr = fam.make_example(t, b, q.device().caps());
        fam.kernel(q, fam.fit(params_for(q, fam, pr), q.device().caps(), pr), pr);
      });
}

}  // namespace

WarmReport warm(const Queue& q, const std::vector<std::string>& only,
                const std::function<void(std::size_t, std::size_t, const std::string&)>& progress) {
  if (!q.impl()) throw Error(Status::InvalidArgument, "warm: empty queue");
  const Capabilities& caps = q.device().caps();
  const std::vector<std::string> known{"elementwise", "reduce_rows", "reduce_cols", "norm_rows", "softmax_cols",
                                       "gemm", "blas1"};
  for (const std::string& f : only)
    if (std::find(known.begin(), known.end(), f) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw Error(Status::InvalidArgument, "warm: no family '" + f + "' to warm (" + list + ")");
    }
  const auto wanted = [&](const char* f) { return only.empty() || std::find(only.begin(), only.end(), f) != only.end(); };
  std::vector<Item> items;
  if (wanted("elementwise")) elementwise_items(caps, items);
  if (wanted("reduce_rows")) reduce_items(caps, items, true);
  if (wanted("reduce_cols")) reduce_items(caps, items, false);
  if (wanted("norm_rows")) norm_items(caps, items);
  if (wanted("softmax_cols")) softmax_cols_items(caps, items);
  if (wanted("gemm")) gemm_items(caps, items);
  if (wanted("blas1")) blas1_items(caps, items);

  const ProgramCounts p0 = program_counts();
  const TrustCounts t0 = trust_counts();
  const auto start = std::chrono::steady_clock::now();
  WarmReport r;
  for (const auto& [what, run] : items) {
    try {
      run(q);
    } catch (const Error& e) {
      ++r.failed;
      log_warn("warm: " + what + ": " + e.what());
    }
    ++r.items;
    if (progress) progress(r.items, items.size(), what);
  }
  const ProgramCounts p1 = program_counts();
  r.compiled = p1.compiled - p0.compiled;
  r.loaded = p1.from_disk - p0.from_disk;
  r.embedded = p1.from_embedded - p0.from_embedded;
  r.trust_checks = trust_counts().checked - t0.checked;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace optune
