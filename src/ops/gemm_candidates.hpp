// The kernels that can compute a GEMM, as candidates of one routine. Each
// says whether it applies to a problem (types, shape, back end, device
// features), what it needs besides its kernel (helper passes, scratch), and
// how it launches. run_gemm asks the database (gemm_routine's KERNEL and
// INDIRECT_MIN) or the tuner's forced choice which one runs. Adding a kernel
// adds a candidate here and a file that implements it; nothing else changes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/gemm_ops.hpp"
#include "runtime/event_span.hpp"

namespace optune::detail {

// One call on its way to the device: what every candidate's launch needs,
// and the argument list that every GEMM kernel shares.
struct GemmLaunch {
  const Queue& q;
  const GemmCall& call;
  const GemmProblem& problem;
  const MemImpl& table;  // list-batch table (C's memory when unused)
  const WaitList& wait;
  EventSpan& span;

  KernelArg real(double v) const;  // of the epilogue type
  // The operand block every kernel takes: (a, b, c each as buffer, offset,
  // ld, stride), bias, bias offset, table, batch, flags. `lists` says which
  // of A, B, C read their batch offsets from the table.
  std::vector<KernelArg> operand_args(const GemmOperand& a, const GemmOperand& b, const GemmOperand& c,
                                      const bool (&lists)[3]) const;
  std::vector<KernelArg> activation_args() const;  // act_p0, act_p1
  // Launches over the batch in chunks of at most 65535 groups in z (CUDA's
  // grid limit); `args` ends where z0 goes, `tail` follows it. `per_product`
  // groups in z per product (gemm_tiled's ranges of a split K): z0 and the
  // group's z then count products times per_product.
  Event batched(KernelImpl& k, std::vector<KernelArg> args, std::vector<KernelArg> tail, Geometry g,
                const WaitList& wait, std::int64_t per_product = 1) const;
  // Launches a kernel that reads the call's operands where they lie
  // (gemm_direct, gemm_mma): M, N, K, alpha, beta, the operand block (every
  // operand listed in list mode), z0, the activation's parameters, then
  // `after` (gemm_wgmma's tensor maps); after `wait`, in batch chunks.
  Event in_place(KernelImpl& k, const Geometry& g, const std::vector<KernelArg>& after = {}) const;
  // The same with A and B replaced (packed copies in scratch, dense
  // strided batches: not listed) and its own wait list.
  Event in_place(KernelImpl& k, const Geometry& g, const std::vector<KernelArg>& after, const GemmOperand& a,
                 const GemmOperand& b, const WaitList& wait_for) const;
  // Split K for a kernel that reads the call's operands in place
  // (gemm_mma, gemm_wgmma): one launch of splits groups in z per product, each range of
  // `kspan` rows of K writing its raw partial product (EPI, M x N dense, no
  // epilogue) into `raw`; then copy_back. Lists are never split. `more`
  // follows splits and kspan (gemm_wgmma's tensor maps).
  Event in_place_split(KernelImpl& k, const Geometry& g, const std::shared_ptr<MemImpl>& raw, std::int64_t splits,
                       std::int64_t kspan, const std::vector<KernelArg>& more = {}) const;
  // The same split as one launch whose groups write C themselves (gemm_mma's
  // MMA_FUSE): the raw partials go to `part`, each tile's last range adds
  // them, counting arrivals on `tickets` (zero before, zero after).
  Event in_place_fused(KernelImpl& k, const Geometry& g, const MemImpl& part, const MemImpl& tickets,
                       std::int64_t splits, std::int64_t kspan) const;
  // C = epilogue(the raw product in `raw`, rows x cols per matrix with ld
  // cols, or the sum of its `splits` partial products) through
  // gemm_helpers.cl's gemm_copy_back, after the launches before it.
  Event copy_back(const GemmOperand& raw, std::int64_t rows, std::int64_t cols, std::int64_t splits) const;
  // dst (rows_p x cols_p per product, dense, zero beyond rows x cols) = the
  // stored matrix of `src` (operand `which`: 0 A, 1 B, whose batch offsets
  // come from the table in list mode), transposed on the way when
  // `transpose` (dst(r, c) = src(c, r)), through gemm_helpers.cl's pads;
  // tf32_round rounds every value to tf32 (CUDA, f32).
  Event pack(const GemmOperand& src, int which, bool transpose, std::int64_t rows, std::int64_t cols,
             std::int64_t rows_p, std::int64_t cols_p, const MemImpl& dst, const WaitList& wait_for,
             bool tf32_round = false) const;
};

// Square groups of the helper passes: 16 x 16 where the device allows, else 8 x 8.
std::size_t gemm_helper_tile(const Capabilities& caps);

class GemmCandidate {
 public:
  virtual ~GemmCandidate() = default;
  virtual std::string name() const = 0;  // "direct", "tiled", "mma", "wgmma", "thin": GemmForce::candidate
  virtual int id() const = 0;            // its value of gemm_routine's KERNEL
  virtual const KernelFamily& family() const = 0;  // whose parameters the database holds
  // "" when the candidate can run the problem on this device; else why not.
  virtual std::string applies(const GemmProblem& problem, const Capabilities& caps) const = 0;
  // Whether the routine's parameters choose it when KERNEL = 0.
  virtual bool preferred(const GemmProblem& problem, const Params& routine) const = 0;
  // The parameters it runs with (tuned: stored or default; forced: the
  // tuner's), or nothing when it cannot run with them.
  virtual std::optional<Params> fit(const Params& tuned, bool forced, const Capabilities& caps,
                                    const GemmProblem& problem) const = 0;
  // Scratch bytes per slot and helper passes it runs for these parameters.
  struct Needs {
    std::size_t scratch[3] = {0, 0, 0};
    std::vector<std::string> passes;
  };
  virtual Needs needs(const Params& p, const Capabilities& caps, const GemmProblem& problem) const = 0;
  virtual Event run(const GemmLaunch& l, const Params& p) const = 0;
  // Compiles (into the caches) every program run() would use, launching
  // nothing (optune warm).
  virtual void prepare(const Queue& q, const GemmProblem& problem, const Params& p) const = 0;
};

// The candidate and parameters a problem runs with: the forced ones, else the
// database's choice (gemm_routine's KERNEL or INDIRECT_MIN). `product` is
// false when k = 0 or alpha = 0 everywhere (the direct kernel's epilogue).
struct GemmChoice {
  const GemmCandidate* candidate = nullptr;
  Params params;
};
GemmChoice choose_gemm(const Queue& q, const GemmProblem& problem, bool product, const GemmForce* force);

// In order of preference (the first that applies and is preferred runs):
// thin, wgmma, mma, the vendor matrix extensions' slot, tiled, direct.
const std::vector<const GemmCandidate*>& gemm_candidates();
// The slot for kernels on vendor matrix extensions
// (gemm_kernels::matrix_extensions(): cl_intel_subgroup_matrix_multiply_accumulate,
// cl_arm_matrix_multiply), after the CUDA tensor-core candidates and before
// tiled. A kernel for one enters here as a candidate whose applies() is ""
// only where gemm_kernels::reported_matrix_extensions(caps.extensions) names
// its extension, with an id among gemm_routine's KERNEL values. None is
// written yet: the slot is empty, so no device runs one.
const std::vector<const GemmCandidate*>& vendor_matrix_candidates();
// By name; Error(NotFound) listing the candidates.
const GemmCandidate& gemm_candidate(const std::string& name);

const GemmCandidate& direct_candidate();
const GemmCandidate& tiled_candidate();
const GemmCandidate& mma_candidate();
const GemmCandidate& wgmma_candidate();
const GemmCandidate& thin_candidate();

// The thin candidate's launch (gemm_thin.cl, then gemm_thin_reduce where K is
// split) for any row-major GemmCall whose M or N is at most 16 (a thin N
// through the swapped form), with parameters fitted by GemmThinFamily::fit
// to l.problem. Meant to be shared with the BLAS GEMV: y = alpha op(A) x +
// beta y is the row-major call C = op(A) B with N = 1, x as the K x 1 B
// (ldb = incx) and y as the M x 1 C (ldc = incy), which runs swapped (the
// kernel's thin A is x, its C is written transposed, element i at i incy).
Event run_thin(const GemmLaunch& l, const Params& p);

}  // namespace optune::detail
