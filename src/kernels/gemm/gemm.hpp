// Descriptors of the GEMM kernels (gemm/*.cl) and of the routine that
// chooses among them:
//   gemm_direct   the direct kernel, for small and odd problems;
//   gemm_tiled    the tiled, register-blocked kernel on operands in its
//                 layout (helper kernels pad and transpose the others);
//   gemm_mma      the tensor-core kernel (CUDA sm_80+, mma.sync) on f16
//                 operands as they lie, 16-byte aligned;
//   gemm_wgmma    Hopper's (sm_90a: wgmma, copies by the tensor-memory
//                 accelerator, producer and consumer warpgroups);
//   gemm_thin     thin products (M or N at most 16): the wide operand
//                 streamed once with many loads in flight and no barrier,
//                 split along K where the grid is small;
//   gemm_routine  routine-level parameters: the size from which the tiled
//                 kernel replaces the direct one, or a fixed choice.
// Every family is tuned per size bucket (small, medium, large, skinny,
// batched) by timing the whole routine with its parameters forced. The
// descriptors own the kernels' whole set-up (program text with the fused
// activation, type defines, the tiled kernel's layout plan); the candidates
// that run them are in the ops layer (gemm_candidates.hpp there).
#pragma once

#include <algorithm>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/gemm_flags.cl"
#include "optune/elementwise.hpp"

namespace optune::detail {

// C = act(alpha op(A) op(B) + beta C + bias) for `batch` products of the
// row-major problem (a column-major call is the transposed product). A is
// m x k (trans_a: stored k x m), B is k x n (trans_b: stored n x k).
struct GemmProblem {
  DType dtype = DType::F32;     // storage type of A and B (keys the database)
  DType c_dtype = DType::F32;   // storage type of C and the bias (dtype, or f32/f16/bf16 for f16/bf16 A and B)
  bool comp_half = false;       // f16 arithmetic (else f32 for f16 storage)
  bool tf32 = false;            // f32 A and B may be rounded to tf32 (tensor cores; GemmOptions::compute)
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  bool list = false;            // offset-list batch (else strided)
  Unary activation = Unary::Copy;
  // The operands' layout, for the kernels that read them in place: the
  // largest power of two up to 16 dividing each operand's offset, leading
  // dimension and batch stride (and listed offsets), and the leading
  // dimensions themselves.
  std::int64_t align_a = 16, align_b = 16, align_c = 16;
  std::int64_t lda = 0, ldb = 0;
  // batch > 1 with a batch stride of 0: one A (or B) for every product.
  bool shared_a = false, shared_b = false;

  std::vector<std::int64_t> sizes() const { return {m, n, k, batch}; }
  std::map<std::string, std::int64_t> fields() const {
    return {{"trans_a", trans_a}, {"trans_b", trans_b}, {"comp_half", comp_half}, {"list", list},
            {"activation", int(activation)}, {"c_dtype", int(c_dtype)}, {"tf32", tf32}};
  }
};

namespace gemm_kernels {

// CUDA grids have at most 65535 groups in z: GEMM launches longer batches
// (products times ranges of K) in chunks of this many (z0 is the chunk's first).
constexpr std::int64_t kMaxGridZ = 65535;

// The size bucket of a problem (shared by the families but gemm_thin):
// small, medium, large, skinny or batched, refined by the transpose pair
// where it is not NN ("large/nt", "skinny/tt"; row-major A then B). The
// chain is the refined bucket, then its size bucket (database fallback).
std::string size_bucket(const GemmProblem& problem);
std::string bucket(const GemmProblem& problem);
std::vector<std::string> bucket_chain(const GemmProblem& problem);
// The size buckets (what the tuner covers unless told a refined one).
std::vector<std::string> buckets();
// A bucket's size bucket and pair ("" for NN), or nullopt for a name that
// is neither a size bucket nor one refined by nt, tn or tt.
std::optional<std::pair<std::string, std::string>> split_bucket(const std::string& bucket);
// A representative row-major problem of a bucket for this device, with the
// refined bucket's transposes.
GemmProblem example(DType dtype, const std::string& bucket, const Capabilities& caps);
std::vector<DType> dtypes(const Capabilities& caps);
double volume(const GemmProblem& problem);
// The arithmetic type's size in bytes and whether the vector type of `vw`
// lanes exists for it on the device's backend.
std::size_t comp_bytes(const GemmProblem& problem);
bool vector_ok(const Capabilities& caps, const GemmProblem& problem, std::int64_t vw);
// "" when the work-group fits the device.
std::string fits_group(const Capabilities& caps, std::int64_t x, std::int64_t y);
// The element-type defines of every GEMM kernel (TYPE, COMP, EPI, ...).
Defines type_defines(const GemmProblem& problem);
// The program text of a GEMM source: the activation macro, then the parts
// its "check-prepend:" line names (gemm_flags.cl, gemm_common.cl, and for the
// tensor-core kernels gemm_tc_common.cl), then the source, under #line
// directives.
std::string program_text(const std::string& source, Unary activation);
// A helper kernel of gemm_helpers.cl (gemm_pad, gemm_pad_transpose,
// gemm_copy_back) with square TILE x TILE groups; tf32_round: the pads
// round to tf32 (PAD_TF32, CUDA f32).
KernelSource helper_program(const GemmProblem& problem, const std::string& entry, std::size_t tile,
                            bool tf32_round = false);
// The tiles of `t` that cover `x` (at least one: an empty side still launches one).
inline std::int64_t tiles(std::int64_t x, std::int64_t t) { return (std::max<std::int64_t>(x, 1) + t - 1) / t; }
// elem x rows x cols x batch bytes of a scratch operand, Error(Overflow)
// naming `what` beyond the address space.
std::size_t scratch_bytes(std::int64_t rows, std::int64_t cols, std::size_t elem, std::int64_t batch,
                          const char* what);

// Split K, shared by the tiled and mma candidates: their parameters SPLITK
// (0 automatic, 1 never, 2 to 16 forced; default 0 on GPUs, 1 on CPUs),
// SK_FILL and SK_MINK, which are the host's (strip_split drops them from a
// program's defines, so one program serves every count).
std::vector<Parameter> split_parameters(const Capabilities& caps);
void strip_split(Defines& d);
// SK_FILL groups per compute unit: the groups that fill the device, for the
// automatic split and for gemm_mma's TILE_FILL.
std::int64_t fill_target(const Params& p, const Capabilities& caps);
// Whether the product is a batch (batch > 1) whose `groups` fill the device
// (fill_target) and less than half of whose bm x bn tiles is the product:
// tf32's tensor-core tiles decline such batches (unless their parameters are
// forced) for the tiled kernel's exact f32 FMAs (a batch of 64^3 on 128-row
// tiles ran 4-5x slower than those). Single products and short grids keep
// their tiles: memory or latency bounds them, not the padded multiply-adds.
bool mostly_padded_batch(const GemmProblem& pr, const Params& p, const Capabilities& caps, std::int64_t groups,
                         std::int64_t bm, std::int64_t bn);
// The automatic count: 1 where `groups` (tiles x products) reach SK_FILL per
// compute unit or the call is listed; else the least of 2, 4, 8, 16 that
// reaches them, halved while a range of `k` would be shorter than SK_MINK.
std::int64_t auto_split(const Params& p, const Capabilities& caps, std::int64_t groups, std::int64_t k, bool list);
// Fits resolve SPLITK = 0 to auto_split's count where that is more than 1.
void resolve_split(Params& p, const Capabilities& caps, std::int64_t groups, std::int64_t k, bool list);
// SPLITK as fit left it (0 and 1: none; lists: none) cut into ranges of
// whole `step`s of k (every range non-empty), halved while `splits` partial
// products of `product_bytes` each (per product, times batch) would pass
// kMaxSplitScratch.
constexpr std::uint64_t kMaxSplitScratch = std::uint64_t(256) << 20;
struct KSplit {
  std::int64_t splits = 1, kspan = 0;  // kspan = k rounded up to `step` without a split
};
KSplit split_k(const Params& p, std::int64_t k, std::int64_t step, std::uint64_t product_bytes, std::int64_t batch,
               bool list);
// `steps` steps of `step` cut into at most `s` ranges of whole steps (every
// range non-empty; s <= steps), s halved first while s partial sums of
// `split_bytes` each would pass kMaxSplitScratch. split_k's and gemm_thin's
// split both end here.
KSplit split_ranges(std::int64_t steps, std::int64_t step, std::int64_t s, std::uint64_t split_bytes);
// The pass a split adds, as the candidates' needs() name it.
std::string split_pass(const KSplit& sp);

// Vendor matrix extensions: the OpenCL extensions that give kernels a
// device's matrix units (Intel's sub-group matrix multiply-accumulate, Arm's
// matrix multiply). The GEMM family keeps a candidate slot for their kernels
// (ops/gemm_launch.cpp, vendor_matrix_candidates), each to run only where the
// device reports its extension; none is written yet.
struct MatrixExtension {
  std::string name;    // as CL_DEVICE_EXTENSIONS spells it
  std::string vendor;
};
const std::vector<MatrixExtension>& matrix_extensions();
// The known matrix extensions an extension string reports (whole names
// separated by white space), in matrix_extensions()'s order.
std::vector<std::string> reported_matrix_extensions(const std::string& extensions);

}  // namespace gemm_kernels

class GemmFamilyBase : public FamilyOf<GemmProblem> {
 public:
  std::string bucket(const GemmProblem& problem) const override { return gemm_kernels::bucket(problem); }
  using FamilyOf<GemmProblem>::bucket_chain;  // the type-erased form too
  std::vector<std::string> bucket_chain(const GemmProblem& problem) const override {
    return gemm_kernels::bucket_chain(problem);
  }
  std::vector<std::string> buckets() const override { return gemm_kernels::buckets(); }
  bool knows_bucket(const std::string& b) const override { return gemm_kernels::split_bucket(b).has_value(); }
  // The small bucket with the pair of `b`: an entry of "large/nt" is checked
  // on a small NT product, which takes the same loads.
  std::string trust_bucket(const std::string& b) const override {
    const auto parts = gemm_kernels::split_bucket(b);
    return parts && !parts->second.empty() ? "small/" + parts->second : "small";
  }
  GemmProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override {
    return gemm_kernels::example(dtype, bucket, caps);
  }
  std::vector<DType> dtypes(const Capabilities& caps) const override { return gemm_kernels::dtypes(caps); }
  Defines defines(const Params& p, const GemmProblem& problem) const override;
  KernelSource program(const Params& p, const GemmProblem& problem) const override;
};

class GemmDirectFamily : public GemmFamilyBase {
 public:
  std::string name() const override { return "gemm_direct"; }
  std::string source() const override { return "gemm/gemm_direct.cl"; }
  std::string kernel_name() const override { return "gemm_direct"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // The type defines, the parameters and COMP_HALF (half FMAs within a K step).
  Defines defines(const Params& p, const GemmProblem& problem) const override;
  // Stored or default values that fit the device: as given when they pass
  // check(), else the defaults with the tile halved until it fits;
  // Error(Unsupported) when nothing does.
  Params fit(const Params& tuned, const Capabilities& caps, const GemmProblem& problem) const override;
  // For a product that fits in half a tile: WGD halved while M and N still
  // fit in half of it, the work-items along M, N and the K unroll halved as
  // the tile needs, so small products (batched 32^3 under a 64 x 64 tile, say)
  // do not spend most of each group on padding. Forced parameters (tuner,
  // tests) run as given.
  Params shrink(Params p, const Capabilities& caps, const GemmProblem& problem) const;
};

// How the tiled kernel meets a problem under given parameters: the padded
// sizes, which operands it reads (or writes) in place and which go through a
// helper pass, and whether it loads A or B along K.
struct TiledPlan {
  std::int64_t mp = 0, np = 0, kp = 0;   // m, n, k rounded up to the tiles
  bool a_fits = false, b_fits = false, c_fits = false;
  bool a_kcontig = false, b_kcontig = false;
  // Split K: `splits` ranges of `kspan` rows of K (a multiple of KWG; the
  // last ends at kp), each a raw partial product in scratch that
  // gemm_copy_back sums; 1 and kp without a split. A split never writes C
  // directly (c_fits is false).
  std::int64_t splits = 1, kspan = 0;
  // Scratch bytes per helper operand (padded A, padded B, raw product or
  // partial products): 0 when the operand is used in place.
  std::size_t scratch[3] = {0, 0, 0};
};

class GemmTiledFamily : public GemmFamilyBase {
 public:
  std::string name() const override { return "gemm_tiled"; }
  std::string source() const override { return "gemm/gemm_tiled.cl"; }
  std::string kernel_name() const override { return "gemm_tiled"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // The grid over the padded problem (m, n rounded up to the tiles).
  Geometry geometry(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // The plan's layout choices (C_DIRECT, COMP_HALF, A_KCONTIG, B_KCONTIG).
  Defines defines(const Params& p, const GemmProblem& problem) const override;
  // The tuned values adjusted to this call: vector widths the backend has
  // for the type; then, while they cannot run, two cp.async stages instead
  // of three, no cp.async (ASYNC is for some types and devices only, and
  // OPTUNE_PARAMS applies to every type), one stage instead of two. Empty
  // when the tiled kernel cannot run the call (fit_or_none).
  std::optional<Params> fit_or_none(const Params& tuned, const Capabilities& caps, const GemmProblem& problem) const;
  // fit_or_none also resolves SPLITK = 0 (automatic) to auto_split's count
  // where that is more than 1.
  Params fit(const Params& tuned, const Capabilities& caps, const GemmProblem& problem) const override;
  // The plan's split is gemm_kernels::split_k of SPLITK as fit left it, in
  // KWG steps.
  TiledPlan plan(const Params& p, const GemmProblem& problem) const;
  // gemm_kernels::auto_split over this problem's tiles.
  std::int64_t auto_split(const Params& p, const Capabilities& caps, const GemmProblem& problem) const;
};

// The tensor-core kernels' common fit: the tuned values when they pass
// check(), else the fallback (the defaults, adjusted by the family to the
// problem); empty when neither does (fit_or_none), Error(Unsupported)
// naming the kernel from fit.
class GemmTensorCoreFamily : public GemmFamilyBase {
 public:
  std::optional<Params> fit_or_none(const Params& tuned, const Capabilities& caps, const GemmProblem& problem) const;
  Params fit(const Params& tuned, const Capabilities& caps, const GemmProblem& problem) const override;

 protected:
  virtual Params fallback(const Capabilities& caps, const GemmProblem&) const { return defaults(caps); }
  // Values that stand for a choice by problem, made concrete (p has passed check).
  virtual void settle(Params&, const Capabilities&, const GemmProblem&) const {}
};

// The tensor-core kernel (gemm_mma.cl): f16 or bf16 A and B, or f32 ones
// rounded to tf32 when the call opts in (GemmProblem::tf32); 16-byte aligned
// rows, offsets and strides (the candidate checks GemmProblem's align_a,
// align_b); f32 accumulation whatever comp_half says; C and the bias of
// c_dtype (f16, bf16 or f32; f32 only for tf32). Only tiles whose stages fit
// static shared memory (48 KiB): this family does not ask for dynamic shared
// memory (gemm_wgmma does).
class GemmMmaFamily : public GemmTensorCoreFamily {
 public:
  std::string name() const override { return "gemm_mma"; }
  std::string source() const override { return "gemm/gemm_mma.cl"; }
  std::string kernel_name() const override { return "gemm_mma"; }
  // {F16, BF16, F32} on CUDA devices of compute capability 8.0 or newer
  // (its f32 entries are tf32: the only f32 it runs); else none.
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // 1-D groups of 32 (BM / WM) (BN / WN) work-items; grid (N tiles, M
  // tiles, batch).
  Geometry geometry(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // The type defines with f32 accumulation (COMP = float), MMA_TF32 for f32,
  // C's type, the transposes, the parameters.
  Defines defines(const Params& p, const GemmProblem& problem) const override;
  // Shared memory of the stages, in bytes, for A and B elements of `elem` bytes.
  static std::uint64_t smem_bytes(const Params& p, std::size_t elem = 2);
  // Split K (SPLITK as the candidate's fit resolved it through
  // resolve_split): ranges of whole BK stages; with more than one, the
  // kernel writes raw partial products that each tile's last range adds in
  // the same launch (FUSE 1, MMA_FUSE) or gemm_copy_back sums (FUSE 0, MMA_RAW).
  gemm_kernels::KSplit split(const Params& p, const GemmProblem& problem) const;
  // FUSE (0 where absent).
  static bool fused(const Params& p);
  // Bytes of arrival tickets a fused split needs (one uint per tile and
  // product), else 0.
  std::size_t ticket_bytes(const Params& p, const GemmProblem& problem) const;
  // Tiles times products, the automatic split's measure.
  static std::int64_t groups(const Params& p, const GemmProblem& problem);
  // TILE_FILL 1 (a host parameter, like SPLITK): while the groups stay
  // below SK_FILL per compute unit, BM, BN, WM and WN are halved (the warp
  // grid, and so the work-items, unchanged) as long as the warp tiles stay
  // 16 or more, the halved tile is not a thin one (thin_tile), and it
  // passes check(). The family's fit
  // (settle) applies it before the candidate's automatic split, which then
  // sees the smaller tiles.
  void fill_tiles(Params& p, const Capabilities& caps, const GemmProblem& problem) const;
  // A thin tile: one side below 64 and below the other (BM 16 x BN 128, the
  // skinny entries'), which the candidate runs for products thin on that side only.
  static bool thin_tile(const Params& p);
  // X3_FILL_MAX (a host parameter): an f32 product without the tf32 opt-in
  // (three tf32 products a term) whose groups exceed X3_FILL_MAX per compute
  // unit is declined by the candidate's fit, so the routine's default order
  // (the FFMA tiles) runs it; 0 never declines.
  static bool declines(const Params& p, const Capabilities& caps, const GemmProblem& problem);

 protected:
  // The defaults; for tf32 the kernel's own (BK 16, WN 32: 48 KiB, registers).
  Params fallback(const Capabilities& caps, const GemmProblem& problem) const override;
  // FULL_TILES 2: 1 for f64, 0 otherwise; TILE_FILL 1: fill_tiles, then 0
  // (the tiles it leaves are the parameters that run, so a tuned set that
  // fills the device anyway fits to the same run with TILE_FILL 0 or 1);
  // X3_FILL_MAX 0 where it does not decline the product.
  void settle(Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
};

// The Hopper tensor-core kernel (gemm_wgmma.cl, compute capability 9.0,
// compiled for sm_90a): f16 or bf16 A and B read by the copy engine through
// tensor maps (16-byte aligned bases, leading dimensions and batch strides),
// f32 accumulation, C and bias of c_dtype; dynamic shared memory (up to
// 227 KiB).
class GemmWgmmaFamily : public GemmTensorCoreFamily {
 public:
  std::string name() const override { return "gemm_wgmma"; }
  std::string source() const override { return "gemm/gemm_wgmma.cl"; }
  std::string kernel_name() const override { return "gemm_wgmma"; }
  static constexpr std::int64_t kTileRows = 128;  // rows of C per group (two consumer warpgroups)
  static bool device_ok(const Capabilities& caps);
  // {F16, BF16, F32} on CUDA devices of compute capability 9.0 (f32 as
  // tf32: the only f32 it runs); else none.
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // Groups of 384 work-items (3 warpgroups); grid (N tiles, M tiles,
  // batch); the stages as dynamic shared memory.
  Geometry geometry(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // The type defines (C's of c_dtype) with f32 accumulation, the
  // transposes, OPTUNE_NEED_SM90A, the parameters but the split's and
  // STORE, WG_RAW, and WG_STORE (store_by_copy).
  Defines defines(const Params& p, const GemmProblem& problem) const override;
  // Shared memory of the stages plus the 1024-byte alignment, in bytes,
  // and C's four chunk buffers of 8 KiB where the copy engine stores C.
  static std::uint64_t smem_bytes(const Params& p, const GemmProblem& problem);
  // Whether C leaves through the copy engine (WG_STORE): STORE 1, no split
  // of K, and C's offset, leading dimension, batch stride and N (rows end on
  // a 16-byte unit: the engine writes whole units) 16-byte multiples.
  static bool store_by_copy(const Params& p, const GemmProblem& problem);
  // Tiles of 128 x BN times products, and the split of K that SPLITK (once
  // resolved) gives: ranges of whole stages, f32 partials.
  static std::int64_t groups(const Params& p, const GemmProblem& problem);
  static gemm_kernels::KSplit split(const Params& p, const GemmProblem& problem);
};

// The thin-product kernel (gemm_thin.cl) as it sees a call: the thin
// operand is its A (M rows); a call whose N is the thinner dimension runs as
// C^T = B^T A^T (swapped), with the operands' roles and transposes exchanged.
struct ThinView {
  bool swapped = false;
  std::int64_t m = 0, n = 0, k = 0;
  bool trans_a = false, trans_b = false;  // trans_b: B stored N x K (read along K)
  std::int64_t align_a = 16, align_b = 16;  // of the kernel's A and B
};

// How a thin product is cut along K: `splits` ranges of `kspan` (a multiple
// of a group's K step) each; splits > 1 writes partial sums to scratch and runs
// gemm_thin_reduce.
using ThinSplit = gemm_kernels::KSplit;

// gemm_thin's own buckets: the thin dimension (1, up to 4, 16 or 32) and how
// the kernel reads B ("kn": along N; "nk": along K, B stored N x K), the two
// code paths, each with its own best shape.
class GemmThinFamily : public GemmFamilyBase {
 public:
  static constexpr std::int64_t kMaxThin = 32;  // the candidate applies up to this M (or N)
  // Beyond 16 rows only where B is read along N (stored K x N): along K a
  // row of work-items per column of C reduces across its lanes, which pays
  // off for long products only, and convolutions' pixel-major operands take
  // that path with a depth of tens (see conv_launch.cpp).
  static constexpr std::int64_t kMaxThinAlongK = 16;
  // The thin kernel applies to the problem (its thin side and B's storage).
  static bool fits_thin(const GemmProblem& problem);

  std::string name() const override { return "gemm_thin"; }
  std::string source() const override { return "gemm/gemm_thin.cl"; }
  std::string kernel_name() const override { return "gemm_thin"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // Grid (column blocks, row blocks x splits, batch) of WGX x WGY groups.
  Geometry geometry(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // The second pass's grid: one work-item per element of C.
  Geometry reduce_geometry(const Capabilities& caps, const GemmProblem& problem) const;
  // Type defines (f32 arithmetic for f16 storage), the kernel's macros, the
  // path (B_KCONTIG), A's storage (A_KCONTIG) and the reduction's rows per
  // round (RR); SPLIT and FILL are the host's.
  Defines defines(const Params& p, const GemmProblem& problem) const override;
  // The stored values adjusted to the call: MT down to the thin dimension's
  // power of two, VW down to what the backend and B's alignment allow, AV
  // down to what A's alignment and the lane's span (MT, VW or KU) allow, AL
  // halved until A's chunk fits in local memory, SG off without sub-groups
  // of WGX lanes; else the defaults so
  // adjusted; empty when neither runs (fit_or_none).
  std::optional<Params> fit_or_none(const Params& tuned, const Capabilities& caps, const GemmProblem& problem) const;
  Params fit(const Params& tuned, const Capabilities& caps, const GemmProblem& problem) const override;
  std::string bucket(const GemmProblem& problem) const override;
  std::vector<std::string> buckets() const override;
  // Its buckets are its own (the GEMM size buckets' chain does not apply):
  // a "/km" bucket (B read along K, A stored K x M) refines its "/nk" one; an
  // entry is checked on one row with the bucket's reading of A and B.
  std::vector<std::string> bucket_chain(const GemmProblem& problem) const override;
  bool knows_bucket(const std::string& b) const override { return KernelFamily::knows_bucket(b); }
  std::string trust_bucket(const std::string& b) const override;
  GemmProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;

  static ThinView view(const GemmProblem& problem);
  static ThinView oriented(const GemmProblem& problem, bool swap);  // swapped or not, as asked
  static bool within_limits(const ThinView& v);
  // SPLIT, else enough splits for FILL sixteenths of a device fill, at most
  // one per K step, fewer where the partial sums would pass 256 MiB.
  ThinSplit split(const Params& p, const Capabilities& caps, const GemmProblem& problem) const;
  // Scratch bytes of the partial sums (0 without a split).
  std::size_t scratch_bytes(const Params& p, const Capabilities& caps, const GemmProblem& problem) const;
  // Bytes of the tiles' arrival tickets where the split's partials are added
  // by each tile's last group (FUSE 1; scratch slot kTicketSlot), else 0.
  std::size_t ticket_bytes(const Params& p, const Capabilities& caps, const GemmProblem& problem) const;
  // The program's second entry point, gemm_thin_reduce (the same program).
  KernelSource reduce_program(const Params& p, const GemmProblem& problem) const;
};

// Routine-level parameters; no kernel of its own.
class GemmRoutineFamily : public GemmFamilyBase {
 public:
  std::string name() const override { return "gemm_routine"; }
  std::string source() const override { return "gemm/gemm_tiled.cl"; }
  std::string kernel_name() const override { return "gemm_tiled"; }
  // Its values choose other families' kernels: nothing to compile ahead.
  std::optional<KernelSource> program_for(const Params&, const Capabilities&, const Problem&) const override {
    return std::nullopt;
  }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const GemmProblem& problem) const override;
  // Whether a problem's volume reaches the tiled threshold INDIRECT_MIN^3.
  static bool use_tiled(const Params& p, const GemmProblem& problem);
  // Whether a thin product (M or N at most THIN_MAX, itself at most 16) has
  // a wide operand of at least THIN_MIN^2 elements (max(M, N) K).
  static bool use_thin(const Params& p, const GemmProblem& problem);
};

}  // namespace optune::detail
