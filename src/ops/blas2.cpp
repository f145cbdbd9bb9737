// BLAS level 2 (general and symmetric / Hermitian routines): the address
// maps of every storage scheme (kernels/blas/blas2.cl) and the launch of the
// blas2 family's kernels (products: one pass, or two when the j range is
// split; rank updates: one pass; dense real gemv optionally as a GEMM). The
// argument checks are in blas2_validate.cpp, the routines' descriptions in
// blas2_routines.hpp, the public entry points in blas2_api.cpp.
#include <cmath>
#include <limits>

#include "kernels/families.hpp"
#include "kernels/blas/blas_types.hpp"
#include "ops/blas2_ops.hpp"
#include "ops/blas2_routines.hpp"
#include "ops/blas_common.hpp"
#include "ops/gemm_ops.hpp"
#include "ops/params.hpp"
#include "ops/validate.hpp"
#include "runtime/event_span.hpp"
#include "runtime/scratch.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {

using namespace blas2_routines;

// The kernel's flags (blas2.cl).
enum : std::int32_t {
  kJMajor = 1, kConj = 2, kAlphaZero = 4, kBetaZero = 8, kUpper = 16, kHerm = 32, kPack1 = 64, kPackSwap = 128,
  kTri = 256, kPacked = 512, kRank2 = 1024, kC1 = 2048, kC2 = 4096, kSwapIJ = 8192,
  kVec = 16384, kXVec = 32768, kFuse = 65536
};

// The storage's address map: stored element (r, c) at base + r si + c sj
// (dense and band), or the packed form's flags.
struct AddressMap {
  std::int64_t base = 0, si = 0, sj = 0;
  std::int32_t flags = 0;
};

AddressMap address_map(const Blas2Call& c) {
  const R r = c.routine;
  const bool col = c.layout == Layout::ColMajor;
  const bool upper = c.uplo == Triangle::Upper;
  AddressMap m;
  m.base = std::int64_t(c.a.offset);
  if (is_packed(r)) {
    // Column-major upper p + q (q + 1) / 2 with (p, q) = (r, c); lower form 1;
    // row-major: the other form on (c, r).
    m.flags = (upper != col ? kPack1 : 0) | (col ? 0 : kPackSwap);
    return m;
  }
  if (r == R::Gbmv) {
    m.base += col ? c.ku : c.kl;
    m.si = col ? 1 : c.lda - 1;
    m.sj = col ? c.lda - 1 : 1;
  } else if (r == R::Sbmv || r == R::Hbmv) {
    // Column-major upper: k + r - c + c lda; lower r - c + c lda; row-major
    // upper c - r + r lda; lower k + c - r + r lda.
    m.base += (upper == col) ? c.kl : 0;
    m.si = col ? 1 : c.lda - 1;
    m.sj = col ? c.lda - 1 : 1;
  } else {
    m.si = col ? 1 : c.lda;
    m.sj = col ? c.lda : 1;
  }
  return m;
}

// Whether a dense gemv's or ger's packs of VW can be single aligned accesses:
// the elements along `lane` contiguous, A's base and the stride `across`
// between packs' lines multiples of VW. Where they cannot (an odd leading
// dimension, say), the host runs the program of VW 1 instead: a pack read
// lane by lane makes each work-item's accesses VW elements apart, which the
// lanes of a warp do not coalesce (the H200 read f16 ger of n = 11585 at
// 0.14 of the copy ceiling by such packs; blas2_rank, one element per
// work-item, had read it at 0.19).
bool packs_align(std::int64_t vw, std::int64_t base, std::int64_t lane, std::int64_t across) {
  return vw == 1 || (lane == 1 && base % vw == 0 && across % vw == 0);
}

}  // namespace

// Dense real gemv as a GEMM whose N is 1 (the blas2 parameter GEMM): y =
// alpha M x + beta y with M (rows x cols) at base + i si + j sj is the
// row-major product C (rows x 1) = alpha op(A) B + beta C, op(A) stored
// rows x cols (sj 1, leading dimension si) or cols x rows (si 1, leading
// dimension sj), B = x stored cols x 1 with leading dimension incx (incx 1:
// stored 1 x cols, trans_b, so that its packs need only x's offset aligned), C = y with
// incy. GEMM then runs it through its own candidates and entries (the thin
// kernel where that side is 1); beta 0 does not read y there either. False
// (nothing enqueued) where that form does not hold: an increment that is not
// positive, or neither of M's strides 1 with a leading dimension that covers
// the stored rows.
bool gemv_as_gemm(const Queue& q, const Blas2Call& c, std::int64_t base, std::int64_t si, std::int64_t sj,
                  std::int64_t rows, std::int64_t cols, const WaitList& wait, Event& done) {
  if (c.incx <= 0 || c.incy <= 0) return false;
  GemmCall g;
  g.dtype = g.c_dtype = c.a.dtype;
  g.m = rows;
  g.n = 1;
  g.k = cols;
  if (sj == 1 && si >= cols) {
    g.a.ld = si;
  } else if (si == 1 && sj >= rows) {
    g.trans_a = true;
    g.a.ld = sj;
  } else {
    return false;
  }
  g.a.mem = c.a.mem;
  g.a.offset = std::size_t(base);
  g.b.mem = c.x.mem;
  g.b.offset = c.x.offset;
  if (c.incx == 1) {
    // x contiguous: B stored 1 x K (N x K), one row whose elements the thin
    // kernel reads in packs along K (its leading dimension addresses nothing
    // and does not bound the packs' alignment).
    g.trans_b = true;
    g.b.ld = cols;
  } else {
    g.b.ld = c.incx;
  }
  g.c.mem = c.y.mem;
  g.c.offset = c.y.offset;
  g.c.ld = c.incy;
  g.alpha = c.alpha.real();
  g.beta = c.beta.real();
  done = run_gemm(q, g, wait);
  return true;
}

Event run_blas2(const Queue& q, const Blas2Call& c, const WaitList& wait, const Params* forced) {
  const Capabilities& caps = q.device().caps();
  const Blas2Family& fam = families::blas2();
  const R r = c.routine;
  const DType t = c.a.dtype;
  const bool cplx = is_complex(t);
  const AddressMap am = address_map(c);
  std::int32_t flags = am.flags | (c.uplo == Triangle::Upper ? kUpper : 0) | (is_hermitian(r) ? kHerm : 0);
  const std::int64_t rows = rows_of(c), cols = cols_of(c);
  Blas2Problem pr;
  pr.dtype = t;
  pr.routine = r;
  pr.rows = rows;
  pr.cols = cols;
  const auto vec = [&](std::vector<KernelArg>& a, const BlasVector& v, std::int64_t n, std::int64_t inc) {
    a.push_back(KernelArg::buffer(*v.mem));
    a.push_back(KernelArg::scalar(blas_base_of(v, n, inc)));
    a.push_back(KernelArg::scalar(std::int64_t(inc)));
  };
  if (blas2_is_product(r)) {
    std::int64_t si = am.si, sj = am.sj, lo = std::int64_t(1) << 60, hi = lo;
    if (r == R::Gemv || r == R::Gbmv) {
      if (c.trans != BlasTranspose::No) std::swap(si, sj);
      if (c.trans == BlasTranspose::Conjugate && cplx) flags |= kConj;
      if (r == R::Gbmv) {
        lo = c.trans == BlasTranspose::No ? c.kl : c.ku;
        hi = c.trans == BlasTranspose::No ? c.ku : c.kl;
      }
    }
    if (r == R::Sbmv || r == R::Hbmv) lo = hi = c.kl;
    const bool alpha_zero = is_zero(c.alpha);
    if (alpha_zero) flags |= kAlphaZero;
    if (is_zero(c.beta)) flags |= kBetaZero;
    // Packed matrices: the address formulas keep neighbouring rows' elements
    // of one column apart by a column, so the column order serves both.
    pr.row_major = !is_packed(r) && sj == 1 && si != 1;
    if (pr.row_major) flags |= kJMajor;
    if (alpha_zero) pr.cols = 1;  // nothing to sum: one slice
    // symv / hemv in dense storage read the triangle once (blas2_symv_blocks),
    // always through the second pass; alpha 0 reads no A and takes the
    // generic kernel.
    pr.blocked = (r == R::Symv || r == R::Hemv) && !alpha_zero;
    // gemv in dense storage: packs of VW along the contiguous direction
    // (blas2_gemv_c / blas2_gemv_r), the split's sums added by the last
    // group of each row block (FUSE) or by blas2_mv_final.
    // (f16 too: its packs are VW halves, the sums float.)
    pr.dense = r == R::Gemv && !alpha_zero;
    Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
    if (pr.dense && !packs_align(p.at("VW"), am.base, pr.row_major ? sj : si, pr.row_major ? si : sj)) p["VW"] = 1;
    if (Blas2Family::as_gemm(p, pr)) {
      Event done;
      if (gemv_as_gemm(q, c, am.base, si, sj, rows, cols, wait, done)) return done;
    }
    const Geometry g = fam.geometry(p, caps, pr);
    const std::size_t slices = fam.slices(p, caps, pr);
    const std::size_t vw = fam.vector_width(p, pr);
    // symv / hemv by column strips: the row blocks' last arrivals add the slots.
    const bool strips = pr.blocked && p.at("STRIP") > 0;
    const bool fuse = (pr.dense && slices > 1 && p.at("FUSE") != 0) || strips;
    const bool split = slices > 1 || pr.blocked, two_pass = split && !fuse;
    const std::size_t tj = fam.threads_per_row(p, pr);
    std::size_t chunk = (std::size_t(cols) + slices - 1) / slices;
    if (pr.dense && pr.row_major) chunk = round_up(chunk, vw);  // packs start aligned in every slice
    const std::size_t row_blocks = strips ? g.global[1] : g.global[0] / g.local[0];
    // Dense gemv's fused split counts on the zero-kept ticket slot (its last
    // group sets each counter back to 0), so it needs no fill; symv's strips
    // count on slot 1, filled with zeros before the kernel.
    const std::size_t counters = fuse ? row_blocks * sizeof(std::uint32_t) : 0;
    std::array<std::size_t, kScratchSlots> bytes{};
    bytes[0] = split ? slices * std::size_t(rows) * dtype_size(blas_compute_dtype(t)) : 0;
    bytes[pr.dense ? kTicketSlot : 1] = counters;
    ScratchLease lease = lease_scratch(q, bytes);
    const MemImpl& part = split ? *lease.slot[0] : *c.y.mem;
    KernelSource src = fam.program(p, pr);
    std::vector<KernelArg> args;
    // The arguments after A's address map, shared by blas2_mv_* and blas2_gemv_*.
    const auto product_tail = [&](std::vector<KernelArg>& a) {
      vec(a, c.x, cols, c.incx);
      vec(a, c.y, rows, c.incy);
      a.push_back(blas_type_arg(t, c.alpha));
      a.push_back(blas_type_arg(t, c.beta));
      a.push_back(KernelArg::scalar(flags));
      a.push_back(KernelArg::scalar(std::uint32_t(tj)));
      a.push_back(KernelArg::scalar(std::uint64_t(chunk)));
      a.push_back(KernelArg::buffer(part));
    };
    EventSpan span;
    WaitList first_wait = wait;
    if (fuse && !pr.dense) {
      // The strips' arrival counters start at 0.
      span.add(q.fill(Buffer<std::uint32_t>(lease.slot[1], 0, row_blocks), std::uint32_t(0), wait));
      first_wait = {};
    }
    if (pr.dense) {
      // Whole packs are aligned accesses where A's base and the stride
      // between packs are multiples of VW (lanes contiguous); else lane by lane.
      // Complex elements read as pairs of reals (CPAIRS, blas2_gemv_r_pairs,
      // blas2_gemv_c_pairs) take whole packs of one element too.
      const bool pairs = cplx && p.at("CPAIRS") > 0;
      const std::int64_t lane = pr.row_major ? sj : si, across = pr.row_major ? si : sj;
      const bool packs = vw > 1 || pairs;
      if (packs && lane == 1 && am.base % std::int64_t(vw) == 0 && across % std::int64_t(vw) == 0) flags |= kVec;
      if (packs && pr.row_major && c.incx == 1 && blas_base_of(c.x, cols, c.incx) % vw == 0) flags |= kXVec;
      if (fuse) flags |= kFuse;
      src.entry = std::string(pr.row_major ? "blas2_gemv_r" : "blas2_gemv_c") + (pairs ? "_pairs" : "");
      args = {KernelArg::scalar(std::uint64_t(rows)), KernelArg::scalar(std::uint64_t(cols)),
              KernelArg::buffer(*c.a.mem), KernelArg::scalar(std::uint64_t(am.base)), KernelArg::scalar(si),
              KernelArg::scalar(sj)};
      product_tail(args);
      args.push_back(KernelArg::buffer(fuse ? *lease.slot[kTicketSlot] : part));
    } else if (strips) {
      // The view whose stored columns are contiguous: a row-major matrix is
      // its transpose (the other triangle; conjugated if Hermitian).
      const bool col = si == 1;
      std::int32_t sf = flags & (kBetaZero | kHerm);
      if ((c.uplo == Triangle::Upper) == col) sf |= kUpper;
      if (!col && is_hermitian(r)) sf |= kConj;
      src.entry = "blas2_symv_strips";
      args = {KernelArg::scalar(std::uint64_t(rows)), KernelArg::buffer(*c.a.mem),
              KernelArg::scalar(std::uint64_t(am.base)), KernelArg::scalar(col ? sj : si)};
      vec(args, c.x, cols, c.incx);
      vec(args, c.y, rows, c.incy);
      args.push_back(blas_type_arg(t, c.alpha));
      args.push_back(blas_type_arg(t, c.beta));
      args.push_back(KernelArg::scalar(sf));
      args.push_back(KernelArg::scalar(std::uint64_t(p.at("STRIP"))));
      args.push_back(KernelArg::buffer(part));
      args.push_back(KernelArg::buffer(*lease.slot[1]));
    } else if (pr.blocked) {
      // One group per block (blas2_symv_blocks), or per chunk of a block
      // column's walk (blas2_symv_walk, WALK tiles).
      const bool walk = Blas2Family::walks(p, pr);
      src.entry = walk ? "blas2_symv_walk" : "blas2_symv_blocks";
      // Whole blocks read their fast direction in packs of 4 (f32, f64, f16):
      // that direction contiguous, the base and the other stride multiples of 4.
      const std::int64_t slow = si == 1 ? sj : si;
      if (!cplx && std::min(si, sj) == 1 && am.base % 4 == 0 && slow % 4 == 0)
        flags |= kVec;
      args = {KernelArg::scalar(std::uint64_t(rows)), KernelArg::buffer(*c.a.mem),
              KernelArg::scalar(std::uint64_t(am.base)), KernelArg::scalar(si), KernelArg::scalar(sj)};
      vec(args, c.x, cols, c.incx);
      args.push_back(KernelArg::scalar(flags));
      if (walk) args.push_back(KernelArg::scalar(std::uint32_t(p.at("WALK"))));
      args.push_back(KernelArg::buffer(part));
    } else {
      args = {KernelArg::scalar(std::uint64_t(rows)), KernelArg::scalar(std::uint64_t(cols)),
              KernelArg::scalar(lo), KernelArg::scalar(hi), KernelArg::buffer(*c.a.mem),
              KernelArg::scalar(std::uint64_t(am.base)), KernelArg::scalar(si),
              KernelArg::scalar(sj), KernelArg::scalar(std::int64_t(c.n))};
      product_tail(args);
    }
    KernelPtr k = compile_kernel(q, src);
    span.add(launch_kernel(q, *k, args, g, first_wait, &p));
    if (two_pass) {
      src.entry = "blas2_mv_final";
      KernelPtr fk = compile_kernel(q, src);
      std::vector<KernelArg> fargs{KernelArg::scalar(std::uint64_t(rows)), KernelArg::scalar(std::uint32_t(slices)),
                                   KernelArg::buffer(part)};
      vec(fargs, c.y, rows, c.incy);
      fargs.push_back(blas_type_arg(t, c.alpha));
      fargs.push_back(blas_type_arg(t, c.beta));
      fargs.push_back(KernelArg::scalar(flags));
      // FINAL_ROWS (32) rows per group, its work-items in lanes over the slices.
      Geometry fg;
      fg.local[0] = std::size_t(p.at("WGS"));
      fg.global[0] = (std::size_t(rows) + 31) / 32 * fg.local[0];
      span.add(launch_kernel(q, *fk, fargs, fg, {}, &p));
    }
    return span.result();
  }
  // Rank updates: u indexed by i (x), v by j (y; x again for syr / her).
  const bool rank2 = r == R::Syr2 || r == R::Spr2 || r == R::Her2 || r == R::Hpr2;
  const bool tri = !is_general(r);
  if (tri) flags |= kTri;
  if (is_packed(r)) flags |= kPacked;
  if (rank2) flags |= kRank2;
  if (r == R::Gerc || r == R::Her || r == R::Hpr || r == R::Her2 || r == R::Hpr2) flags |= kC2;
  pr.row_major = !is_packed(r) && am.sj == 1 && am.si != 1;
  if (is_packed(r)) pr.row_major = c.layout == Layout::RowMajor;  // row-major packed rows are contiguous
  if (pr.row_major) flags |= kSwapIJ;
  // ger in dense storage: packs of VW along the contiguous direction, RC
  // columns per work-item (blas2_ger; f16 as packs of halves). Complex geru /
  // gerc on CUDA too, one element a pack and GER_LOADS columns loaded before
  // any update (H200, c32 5792^2: 180 -> 131 us, 0.70 -> 0.96 of the copy
  // ceiling, against blas2_rank's one element a work-item); on OpenCL they
  // keep blas2_rank (blas2_ger.cl says why) unless CPAIRS reads them as
  // pairs of reals (blas2_ger_pairs).
  pr.dense = is_general(r);
  Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
  const bool pairs = pr.dense && is_complex(t) && p.at("CPAIRS") > 0;
  if (pr.dense && is_complex(t) && caps.backend != Backend::CUDA && !pairs) pr.dense = false;
  const std::int64_t lane = pr.row_major ? am.sj : am.si, across = pr.row_major ? am.si : am.sj;
  if (pr.dense && !packs_align(std::int64_t(fam.vector_width(p, pr)), am.base, lane, across)) {
    if (pairs) {
      pr.dense = false;  // blas2_rank: packs of one element were slower than it (PoCL)
    } else {
      p["VW"] = 1;
      p["RC"] = ger_columns_vw1(p.at("RC"), caps);  // as fit sets it for VW 1
    }
  }
  const Geometry g = fam.geometry(p, caps, pr);
  KernelSource src = fam.program(p, pr);
  const BlasVector& v = has_y(r) ? c.y : c.x;
  const std::int64_t incv = has_y(r) ? c.incy : c.incx;
  if (pr.dense) {
    const std::int64_t vw = std::int64_t(fam.vector_width(p, pr));
    if (lane == 1 && packs_align(vw, am.base, lane, across) && (vw > 1 || pairs)) flags |= kVec;
    src.entry = pairs ? "blas2_ger_pairs" : "blas2_ger";
    KernelPtr k = compile_kernel(q, src);
    std::vector<KernelArg> args{KernelArg::scalar(std::uint64_t(rows)), KernelArg::scalar(std::uint64_t(cols)),
                                KernelArg::buffer(*c.a.mem), KernelArg::scalar(std::uint64_t(am.base)),
                                KernelArg::scalar(am.si), KernelArg::scalar(am.sj)};
    vec(args, c.x, rows, c.incx);
    vec(args, v, cols, incv);
    args.push_back(blas_type_arg(t, c.alpha));
    args.push_back(KernelArg::scalar(flags));
    args.push_back(KernelArg::scalar(std::uint32_t(p.at("RC"))));
    return launch_kernel(q, *k, args, g, wait, &p);
  }
  KernelPtr k = compile_kernel(q, src);
  std::vector<KernelArg> args{KernelArg::scalar(std::uint64_t(rows)), KernelArg::scalar(std::uint64_t(cols)),
                              KernelArg::buffer(*c.a.mem), KernelArg::scalar(std::uint64_t(am.base)),
                              KernelArg::scalar(am.si), KernelArg::scalar(am.sj),
                              KernelArg::scalar(std::int64_t(c.n))};
  vec(args, c.x, rows, c.incx);
  vec(args, v, cols, incv);
  args.push_back(blas_type_arg(t, c.alpha));
  args.push_back(blas_type_arg(t, std::conj(c.alpha)));
  args.push_back(KernelArg::scalar(flags));
  return launch_kernel(q, *k, args, g, wait, &p);
}

Event blas2_untyped(const Queue& q, const Blas2Call& c, const WaitList& wait) {
  trace::Span traced(std::string("blas ") + blas2_routine_name(c.routine));
  if (traced) {
    traced.text("dtype", dtype_name(c.a.dtype));
    traced.number("m", double(c.m));
    traced.number("n", double(c.n));
  }
  validate_blas2_call(q, c);
  if (!acts(c)) return Event();
  return run_blas2(q, c, wait, nullptr);
}

}  // namespace optune::detail
