// The tensor-core candidate: gemm_mma.cl (mma.sync, CUDA sm_80+) on f16 or
// bf16 operands, or f32 ones in tf32 when the call opts in
// (GemmCompute::FastTF32), else at f32's accuracy as three tf32 products
// each (MMA_X3: hi hi + hi lo + lo hi; taken only where gemm_routine's
// KERNEL names it: thin products, and on the H200 small and medium ones), or (sm_90+) f64 ones on the FP64 tensor cores
// (exact f64 products: no opt-in), as they lie, one launch, gemm_direct's
// arguments. It applies where A and B are 16-byte aligned (leading
// dimensions, offsets, batch strides and listed offsets multiples of 8
// halves, 4 floats or 2 doubles); C (f16, bf16, f32 or f64) has no condition.
// It accumulates in f32 whether or not the call asked for f16 arithmetic
// (comp_half), so f16 products on such devices accumulate in f32 when it
// runs. The routine prefers it where it would prefer the tiled kernel
// (INDIRECT_MIN), which it replaces. Split K (SPLITK, resolved here where
// it is 0, as the tiled candidate's): each product as ranges of K in one
// launch, raw partial products into scratch, summed in range order by each
// tile's last range to finish (FUSE 1: arrival tickets in the zero-kept
// scratch slot) or by gemm_copy_back, a second launch (FUSE 0). Before the
// split, TILE_FILL 1 halves tiles that leave compute units idle
// (GemmMmaFamily::fill_tiles).
#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

constexpr std::int64_t kX3MinK = 32;

// Whether p's tile suits the product: a tile one side of which is below 64
// (a thin tile) needs that side of the product to be the thinner one, within
// one tile and filling more than a quarter of it (thinner products, M = 1
// to 4 against 16, are the thin kernel's: H200, f32 1 x 4096 x 4096 NT 23.4
// us there, 37.8 through a 16-row tile; thicker ones keep the square tiles).
bool tile_suits(const Params& p, const GemmProblem& pr) {
  if (!GemmMmaFamily::thin_tile(p)) return true;
  const std::int64_t bm = p.at("BM"), bn = p.at("BN");
  if (bm < bn) return pr.m <= pr.n && 4 * pr.m > bm && pr.m <= bm;
  return pr.n <= pr.m && 4 * pr.n > bn && pr.n <= bn;
}

class MmaCandidate : public GemmCandidate {
 public:
  std::string name() const override { return "mma"; }
  int id() const override { return 3; }
  const KernelFamily& family() const override { return families::gemm_mma(); }
  std::string applies(const GemmProblem& pr, const Capabilities& caps) const override {
    if (caps.backend != Backend::CUDA || caps.compute_capability_major < 8) return "needs CUDA sm_80+ (mma.sync)";
    // Three tf32 products represent each input to 2^-22 of itself, not
    // exactly: over a short K that could exceed what f32's FMAs give.
    if (pr.dtype == DType::F32 && !pr.tf32 && pr.k < kX3MinK)
      return "f32 without FastTF32 runs as three tf32 products only where K >= " + std::to_string(kX3MinK);
    if (pr.dtype == DType::F64 && caps.compute_capability_major < 9)
      return "f64 needs CUDA sm_90+ (mma.sync m16n8k8 f64)";
    if (pr.dtype != DType::F16 && pr.dtype != DType::BF16 && pr.dtype != DType::F32 && pr.dtype != DType::F64)
      return "runs f16, bf16, tf32 and f64";
    const std::int64_t chunk = pr.dtype == DType::F64 ? 2 : pr.dtype == DType::F32 ? 4 : 8;  // elements of 16 bytes
    if (pr.align_a % chunk || pr.align_b % chunk)
      return "A and B need leading dimensions, offsets and batch strides that are multiples of 16 bytes";
    return "";
  }
  bool preferred(const GemmProblem& pr, const Params& routine) const override {
    // f32 without the opt-in runs as three tf32 products (MMA_X3), which pay
    // off where memory bounds the product (thin ones), not on the squares
    // the tiled kernel's FMAs serve: only gemm_routine's KERNEL 3 picks it.
    if (pr.dtype == DType::F32 && !pr.tf32) return false;
    return GemmRoutineFamily::use_tiled(routine, pr);
  }
  std::optional<Params> fit(const Params& tuned, bool forced, const Capabilities& caps,
                            const GemmProblem& pr) const override {
    std::optional<Params> p = families::gemm_mma().fit_or_none(tuned, caps, pr);
    // A thin tile (BM or BN below 64, from a skinny bucket's entry) serves
    // products thin on its side and not much thinner (tile_suits); others
    // in the bucket do not fit it, and the routine goes on to the default
    // order (the thin kernel for them). Forced parameters run as given.
    if (p && !forced && !tile_suits(*p, pr)) return std::nullopt;
    // f32's three tf32 products on a grid fuller than X3_FILL_MAX groups
    // per compute unit: the FFMA tiles' (the default order's) product.
    if (p && !forced && GemmMmaFamily::declines(*p, caps, pr)) return std::nullopt;
    // A tf32 batch that fills the device on tiles mostly of padding (4096 x
    // 64^3 on the default 128 x 128 tile: 328.6 us against the tiled
    // kernel's 73.5): the tiled kernel's exact FMAs, next in the routine's order.
    if (p && !forced && pr.dtype == DType::F32 && pr.tf32 &&
        gemm_kernels::mostly_padded_batch(pr, *p, caps, GemmMmaFamily::groups(*p, pr), p->at("BM"), p->at("BN")))
      return std::nullopt;
    // (The family's fit has halved tiles that left compute units idle,
    // TILE_FILL.) Then the automatic split over the tiles that remain.
    if (p) gemm_kernels::resolve_split(*p, caps, GemmMmaFamily::groups(*p, pr), pr.k, pr.list);
    return p;
  }
  Needs needs(const Params& p, const Capabilities&, const GemmProblem& pr) const override {
    Needs n;
    const gemm_kernels::KSplit sp = families::gemm_mma().split(p, pr);
    if (sp.splits <= 1) return n;
    n.scratch[2] = gemm_kernels::scratch_bytes(pr.m * sp.splits, pr.n, pr.dtype == DType::F64 ? 8 : 4, pr.batch,
                                               "split-K partial products");
    if (!GemmMmaFamily::fused(p)) n.passes.push_back(gemm_kernels::split_pass(sp));
    return n;
  }
  void prepare(const Queue& q, const GemmProblem& pr, const Params& p) const override {
    families::gemm_mma().kernel(q, p, pr);
    if (families::gemm_mma().split(p, pr).splits > 1 && !GemmMmaFamily::fused(p))
      compile_kernel(q, gemm_kernels::helper_program(pr, "gemm_copy_back", gemm_helper_tile(q.device().caps())));
  }

  Event run(const GemmLaunch& l, const Params& p) const override {
    const GemmMmaFamily& fam = families::gemm_mma();
    KernelPtr k = fam.kernel(l.q, p, l.problem);
    const Geometry g = fam.geometry(p, l.q.device().caps(), l.problem);
    const gemm_kernels::KSplit sp = fam.split(p, l.problem);
    if (sp.splits <= 1)
      return l.in_place(*k, g, {KernelArg::scalar(std::uint64_t(1)), KernelArg::scalar(std::uint64_t(l.call.k))});
    std::array<std::size_t, kScratchSlots> bytes{0, 0, needs(p, l.q.device().caps(), l.problem).scratch[2]};
    bytes[kTicketSlot] = fam.ticket_bytes(p, l.problem);
    ScratchLease s = lease_scratch(l.q, bytes);
    if (bytes[kTicketSlot]) return l.in_place_fused(*k, g, *s.slot[2], *s.slot[kTicketSlot], sp.splits, sp.kspan);
    return l.in_place_split(*k, g, s.slot[2], sp.splits, sp.kspan);
  }
};

}  // namespace

const GemmCandidate& mma_candidate() {
  static const MmaCandidate c;
  return c;
}

}  // namespace optune::detail
