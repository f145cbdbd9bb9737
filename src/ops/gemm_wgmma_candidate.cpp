// The Hopper tensor-core candidate: gemm_wgmma.cl (wgmma fed by the
// tensor-memory accelerator, CUDA compute capability 9.0) on f16 operands as
// they lie (bf16 too), one launch, gemm_mma's arguments plus a tensor map per operand
// (C's blank unless the kernel stores C through the copy engine, STORE 1).
// f32 with tf32 (GemmCompute::FastTF32): wgmma reads tf32 K-major only, so
// two passes first pack A (M x K) and B (N x K) into scratch, rounded to
// tf32 (the precision contract of gemm.hpp) and with K padded to a multiple
// of 4 (16-byte rows for the copy engine); then the same kernel runs on them.
// It applies where the copy engine can read A and B: 16-byte aligned bases,
// leading dimensions and batch strides (multiples of 8 halves), strided
// batches with a nonzero stride (no lists, no operand shared by every
// product), and a driver that encodes tensor maps. C has no condition (STORE
// 1 falls back to the consumers' own stores where C's offset, leading
// dimension, batch stride or N is not a 16-byte multiple, or K is split). It
// accumulates in f32, like the mma candidate, which it precedes: the routine
// prefers it where it would prefer the tiled kernel (INDIRECT_MIN). Split K
// (SPLITK, resolved here where it is 0; 1, none, unless an entry or a forced
// setting says otherwise): each product as ranges of K in one launch, raw
// f32 partials into scratch slot 2, summed in range order by gemm_copy_back.
// tf32 batches that fill the device with tiles mostly of padding are
// declined unless their parameters are forced, and the routine does not
// prefer it for thin tf32 products (m n / (m + n) < 128, whose packing
// passes outweigh the product): the mma or the tiled kernel runs them.
#include <algorithm>

#include "kernels/families.hpp"
#include "ops/gemm_candidates.hpp"
#include "runtime/scratch.hpp"
#include "runtime/tensor_map.hpp"

namespace optune::detail {

namespace {

// A tensor map of a stored matrix of type t (rows of `ld` elements, `inner`
// of them inside it, `outer` rows) for every product, boxes of 128 bytes
// (64 halves, 32 floats) of the contiguous dimension by `box_rows` rows.
KernelArg matrix_map(DType t, std::int64_t batch, const GemmOperand& o, std::int64_t inner, std::int64_t outer,
                     std::uint32_t box_rows, const char* what) {
  const std::uint64_t esize = dtype_size(t);
  TensorMapSpec s;
  s.dtype = t;
  s.mem = o.mem.get();
  s.offset_bytes = std::uint64_t(o.offset) * esize;
  s.rank = 3;
  s.dims[0] = std::uint64_t(inner);
  s.dims[1] = std::uint64_t(outer);
  s.dims[2] = std::uint64_t(batch);
  // One row (a 1 x K operand, whose leading dimension the alignment that
  // let this candidate apply ignores) or one product: the stride is never
  // used; any multiple of 16 will do.
  s.strides[0] = outer > 1 ? std::uint64_t(o.ld) * esize : (std::uint64_t(o.ld) * esize + 15) / 16 * 16;
  const std::uint64_t whole = (std::uint64_t(o.ld) * std::uint64_t(outer) * esize + 15) / 16 * 16;
  s.strides[1] = batch > 1 ? std::uint64_t(o.stride) * esize : whole;
  s.box[0] = std::uint32_t(128 / esize);
  s.box[1] = box_rows;
  s.box[2] = 1;
  TensorMap map;
  if (std::string why = encode_tensor_map(s, &map); !why.empty())
    throw Error(Status::Unsupported, std::string("gemm (wgmma candidate), ") + what + ": " + why);
  return KernelArg::bytes(map.bytes, sizeof map.bytes);
}

// A's or B's map.
KernelArg operand_map(const GemmCall& call, const GemmOperand& o, std::int64_t inner, std::int64_t outer,
                      std::uint32_t box_rows) {
  return matrix_map(call.dtype, call.batch, o, inner, outer, box_rows, "operand");
}

// C's map where the copy engine stores C (GemmWgmmaFamily::store_by_copy):
// boxes of 64 rows by 128 bytes (the kernel's chunks); elsewhere an unused
// blank of the same size.
KernelArg c_map(const GemmCall& call, bool by_copy) {
  if (by_copy) return matrix_map(call.c_dtype, call.batch, call.c, call.n, call.m, 64, "C");
  const TensorMap blank;
  return KernelArg::bytes(blank.bytes, sizeof blank.bytes);
}

bool tf32(const GemmProblem& pr) { return pr.dtype == DType::F32; }

// m n / (m + n) < 128, without overflow: the packed bytes per flop of a tf32
// product above the tensor cores' balance (see preferred).
bool thin_tf32(const GemmProblem& pr) {
  const double m = double(std::max<std::int64_t>(pr.m, 1)), n = double(std::max<std::int64_t>(pr.n, 1));
  return m * n < 128.0 * (m + n);
}

// The tf32 path packs A as M x K and B as N x K: operand `which` (0 A, 1 B)
// is transposed on the way when it is stored the other way round.
bool pack_transposes(int which, const GemmProblem& pr) { return which == 0 ? pr.trans_a : !pr.trans_b; }
const char* pack_entry(int which, const GemmProblem& pr) {
  return pack_transposes(which, pr) ? "gemm_pad_transpose" : "gemm_pad";
}

// The tf32 path's packed operands: K padded to a multiple of 4 floats.
struct Packed {
  std::int64_t kp = 0;
  std::size_t a_bytes = 0, b_bytes = 0;
};
Packed packed(const GemmProblem& pr) {
  Packed k;
  k.kp = (std::max<std::int64_t>(pr.k, 1) + 3) / 4 * 4;
  k.a_bytes = gemm_kernels::scratch_bytes(std::max<std::int64_t>(pr.m, 1), k.kp, 4, pr.batch, "packed tf32 A");
  k.b_bytes = gemm_kernels::scratch_bytes(std::max<std::int64_t>(pr.n, 1), k.kp, 4, pr.batch, "packed tf32 B");
  return k;
}

class WgmmaCandidate : public GemmCandidate {
 public:
  std::string name() const override { return "wgmma"; }
  int id() const override { return 5; }
  const KernelFamily& family() const override { return families::gemm_wgmma(); }
  std::string applies(const GemmProblem& pr, const Capabilities& caps) const override {
    if (!GemmWgmmaFamily::device_ok(caps)) return "needs CUDA compute capability 9.0 (wgmma)";
    if (pr.list) return "the copy engine reads strided batches, not offset lists";
    if (pr.dtype == DType::F32 && pr.tf32) {
      if (pr.c_dtype != DType::F32) return "tf32 products write f32";
      // A and B are packed (any layout, stride 0 included).
      return tensor_maps_available() ? "" : "the CUDA driver cannot encode tensor maps";
    }
    if (pr.dtype != DType::F16 && pr.dtype != DType::BF16) return "runs f16, bf16 and f32 as tf32 only";
    if (pr.shared_a || pr.shared_b) return "a batch stride of 0 (one operand for every product)";
    if (pr.align_a % 8 || pr.align_b % 8)
      return "A and B need leading dimensions, offsets and batch strides that are multiples of 8 elements";
    if (!tensor_maps_available()) return "the CUDA driver cannot encode tensor maps";
    return "";
  }
  // Where the routine prefers the tiled kernel, except a thin tf32 product
  // (m n / (m + n) below 128: one side of at most about 128 rows): its two
  // packing passes move 8 (m + n) k bytes for 2 m n k flops, more time than
  // the product on the tensor cores (H200, 128 x 4096 x 4096: 148 us here,
  // 87 on the mma tile, which reads A and B in place; 4096 x 128 x 4096:
  // 116-147 against 89). Forcing the candidate, or naming it (the routine's
  // KERNEL 5), still runs it there.
  bool preferred(const GemmProblem& pr, const Params& routine) const override {
    return GemmRoutineFamily::use_tiled(routine, pr) && !(tf32(pr) && thin_tf32(pr));
  }
  // Stored or default values; where 128 x 256 tiles would leave most
  // multiprocessors idle (fewer tiles than multiprocessors: 128 x 4096 x
  // 4096 has 16), 128 x 128 ones, twice as many (forced values keep their
  // BN). Then the split's automatic count where SPLITK is 0.
  std::optional<Params> fit(const Params& tuned, bool forced, const Capabilities& caps,
                            const GemmProblem& pr) const override {
    const GemmWgmmaFamily& fam = families::gemm_wgmma();
    std::optional<Params> p = fam.fit_or_none(tuned, caps, pr);
    if (!p) return p;
    if (!forced && p->at("BN") == 256) {
      Params narrow = *p;
      narrow["BN"] = 128;
      if (GemmWgmmaFamily::groups(*p, pr) < std::int64_t(caps.compute_units) && fam.check(narrow, caps, pr).empty())
        p = narrow;
    }
    // A tf32 batch that fills the device on tiles mostly of padding (e.g.
    // 4096 x 64^3: a quarter) is declined unless its parameters are forced:
    // with the two packing passes it ran 5x slower than the tiled kernel's
    // exact f32 FMAs (the mma tile, next in the routine's order where it
    // applies, declines it on the same rule where its tile is too big).
    if (!forced && tf32(pr) &&
        gemm_kernels::mostly_padded_batch(pr, *p, caps, GemmWgmmaFamily::groups(*p, pr), GemmWgmmaFamily::kTileRows,
                                          p->at("BN")))
      return std::nullopt;
    gemm_kernels::resolve_split(*p, caps, GemmWgmmaFamily::groups(*p, pr), pr.k, pr.list);
    return p;
  }
  Needs needs(const Params& p, const Capabilities&, const GemmProblem& pr) const override {
    Needs n;
    if (tf32(pr)) {
      const Packed k = packed(pr);
      n.scratch[0] = k.a_bytes, n.scratch[1] = k.b_bytes;
      n.passes = {std::string(pack_entry(0, pr)) + " (A, tf32)", std::string(pack_entry(1, pr)) + " (B, tf32)"};
    }
    const gemm_kernels::KSplit sp = GemmWgmmaFamily::split(p, pr);
    if (sp.splits > 1) {
      n.scratch[2] = gemm_kernels::scratch_bytes(pr.m * sp.splits, pr.n, 4, pr.batch, "split-K partial products");
      n.passes.push_back(gemm_kernels::split_pass(sp));
    }
    return n;
  }
  void prepare(const Queue& q, const GemmProblem& pr, const Params& p) const override {
    const std::size_t tile = gemm_helper_tile(q.device().caps());
    if (tf32(pr))
      for (int which : {0, 1}) compile_kernel(q, gemm_kernels::helper_program(pr, pack_entry(which, pr), tile, true));
    families::gemm_wgmma().kernel(q, p, pr);
    if (GemmWgmmaFamily::split(p, pr).splits > 1)
      compile_kernel(q, gemm_kernels::helper_program(pr, "gemm_copy_back", tile));
  }

  Event run(const GemmLaunch& l, const Params& p) const override {
    const GemmWgmmaFamily& fam = families::gemm_wgmma();
    KernelPtr k = fam.kernel(l.q, p, l.problem);
    const GemmCall& c = l.call;
    const std::uint32_t bn = std::uint32_t(p.at("BN"));
    const Geometry g = fam.geometry(p, l.q.device().caps(), l.problem);
    const gemm_kernels::KSplit sp = GemmWgmmaFamily::split(p, l.problem);
    const std::size_t raw_bytes = needs(p, l.q.device().caps(), l.problem).scratch[2];
    if (tf32(l.problem)) {
      // A -> M x Kp, B -> N x Kp in scratch, rounded to tf32; then the
      // kernel reads both K-major (TRANS_A 0, TRANS_B 1).
      const Packed pk = packed(l.problem);
      ScratchLease s = lease_scratch(l.q, {pk.a_bytes, pk.b_bytes, raw_bytes});
      l.pack(c.a, 0, pack_transposes(0, l.problem), c.m, c.k, c.m, pk.kp, *s.slot[0], l.wait, true);
      l.pack(c.b, 1, pack_transposes(1, l.problem), c.n, c.k, c.n, pk.kp, *s.slot[1], {}, true);
      const GemmOperand a{s.slot[0], 0, pk.kp, c.m * pk.kp}, b{s.slot[1], 0, pk.kp, c.n * pk.kp};
      const std::vector<KernelArg> maps = {operand_map(c, a, pk.kp, c.m, 128), operand_map(c, b, pk.kp, c.n, bn),
                                           c_map(c, GemmWgmmaFamily::store_by_copy(p, l.problem))};
      if (sp.splits > 1) return l.in_place_split(*k, g, s.slot[2], sp.splits, sp.kspan, maps);
      return l.in_place(*k, g, with_split(1, c.k, maps), a, b, {});
    }
    // Boxes as the kernel reads them: K-major tiles of 64 K by all their
    // rows (A: 128, B: BN); MN-major ones of 64 columns by 64 K rows.
    const std::vector<KernelArg> maps = {
        c.trans_a ? operand_map(c, c.a, c.m, c.k, 64) : operand_map(c, c.a, c.k, c.m, 128),
        c.trans_b ? operand_map(c, c.b, c.k, c.n, bn) : operand_map(c, c.b, c.n, c.k, 64),
        c_map(c, GemmWgmmaFamily::store_by_copy(p, l.problem))};
    if (sp.splits > 1) {
      ScratchLease s = lease_scratch(l.q, {0, 0, raw_bytes});
      return l.in_place_split(*k, g, s.slot[2], sp.splits, sp.kspan, maps);
    }
    return l.in_place(*k, g, with_split(1, c.k, maps));
  }

 private:
  // The kernel's nsplit and kspan, then the tensor maps.
  static std::vector<KernelArg> with_split(std::int64_t splits, std::int64_t kspan, const std::vector<KernelArg>& maps) {
    std::vector<KernelArg> args{KernelArg::scalar(std::uint64_t(splits)), KernelArg::scalar(std::uint64_t(kspan))};
    args.insert(args.end(), maps.begin(), maps.end());
    return args;
  }
};

}  // namespace

const GemmCandidate& wgmma_candidate() {
  static const WgmmaCandidate c;
  return c;
}

}  // namespace optune::detail
