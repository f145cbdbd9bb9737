// BLAS level 3, triangular and rank-k routines: the blocked algorithms over
// GEMM (ops/gemm_ops.hpp's run_gemm) and the blas3 family's small kernels.
//
// Every matrix is a strided view (element (i, j) at off + i rs + j cs), so
// the layouts, op(A) and the right side are only exchanges of strides:
// trmm and trsm on the right are the left-side routines on the transposes
// (X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T). A GEMM whose C view is
// column-major runs as C^T = Y^T X^T.
//
// - syrk / syr2k: C's triangle is cut into NB x NB blocks. The off-diagonal
//   blocks of the full block rows are independent products: one listed
//   GEMM (two for syr2k) computes them all, and one more GEMM the partial
//   last block row (lower) or column (upper). The diagonal blocks are
//   computed in full by one strided-batched GEMM into scratch (plus one for
//   a smaller last block) and written to C's triangle by blas3_tri_update
//   (with beta). Flops: n^2 k (syrk) + n NB k, about half of a full GEMM,
//   in a handful of launches whatever n is.
// - trmm / trsm (left): the NB x NB diagonal blocks of T = op(A) are first
//   packed (trmm) or inverted (trsm) into scratch by blas3_tri_pack, all in
//   one launch, and B is copied into scratch W. trmm: every product reads
//   only T and W, so B_i = alpha P_ii W_i for all diagonal blocks is one
//   (batched) GEMM, then T splits in halves at multiples of NB and each
//   level of the halving adds its off-diagonal halves (B1 += alpha T12 W2,
//   upper) as one listed GEMM per shape: about log2(m / NB) launches.
//   trsm's packed blocks are inverses: blas3_tri_pack inverts their IB x IB
//   diagonal sub-blocks, listed GEMMs double those up to NB x NB.
//   trsm is ordered: a leaf solves X_o = P_oo W_o into B as one GEMM, an
//   inner node updates the right-hand sides of its second half in W (W2 =
//   alpha W2 - T21 X1, lower) between its halves' solves.
// Batched trsm runs the same sequence with every kernel and GEMM batched
// (strided, or listed where a level has several nodes), so its launch count
// does not grow with the batch.
//
// The views and the Runner that turns each step into a launch are in
// ops/blas3_runner.hpp.
//
// Complex types (c32, c64) take the same sequence: a view carries a
// conjugation flag beside its strides (op(A) = A^H is the transposed view,
// conjugated), the GEMMs run as complex GEMMs (ops/gemm_complex.hpp, with
// their conj_a / conj_b), and the small kernels are compiled for float2 or
// double2. herk and her2k are syrk and syr2k with Q^H for Q^T (her2k's
// second product by conj(alpha)) whose diagonal keeps only real parts
// (blas3_tri_update's and blas3_tri_scale's herm). Their parameters are the
// part type's (the family is tuned in f32 and f64). The routine's scratch
// is slot 4: complex GEMM's passes use slot 3.
#include <algorithm>
#include <complex>

#include "kernels/families.hpp"
#include "ops/blas3_ops.hpp"
#include "ops/blas3_runner.hpp"
#include "ops/blas_common.hpp"
#include "ops/gemm_complex.hpp"
#include "ops/params.hpp"
#include "runtime/event_span.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

using blas3_runner::Runner;
using blas3_runner::split;
using blas3_runner::stored_view;
using blas3_runner::View;
using blas3_runner::Z;

// syrk (two = false, q the same view as p) and syr2k on C's `upper` or lower
// triangle: C = alpha P Q^T (+ alpha Q P^T) + beta C, P and Q n x k; herm
// (herk, her2k): C = alpha P Q^H (+ conj(alpha) Q P^H) + beta C, the
// diagonal real.
void rank_k(Runner& r, bool two, bool herm, std::int64_t n, std::int64_t k, Z alpha, const View& p, const View& q,
            Z beta, const View& c, bool upper, const std::shared_ptr<MemImpl>& scratch) {
  if (alpha == Z(0) || k == 0) {
    if (beta != Z(1)) r.tri_scale(n, upper, herm, beta, c);
    return;
  }
  const Z alpha2 = herm ? std::conj(alpha) : alpha;
  const auto tr = [herm](const View& v) { return herm ? v.h() : v.t(); };
  const std::int64_t nb = r.nb();
  const std::int64_t full = n / nb, rest = n - full * nb;
  // The off-diagonal nb x nb blocks of the full block rows and columns,
  // every one an independent product: one listed GEMM (two for syr2k).
  // Upper: C_ij (i < j) = alpha P_i Q_j^T (+ alpha Q_i P_j^T) + beta C_ij;
  // lower: the same for i > j.
  std::vector<std::int64_t> rows_of, cols_of;  // the blocks' first row and column
  for (std::int64_t i = 0; i < full; ++i)
    for (std::int64_t j = upper ? i + 1 : 0; j < (upper ? full : i); ++j) {
      rows_of.push_back(i * nb);
      cols_of.push_back(j * nb);
    }
  const auto offsets = [](const std::vector<std::int64_t>& at, std::int64_t stride) {
    std::vector<std::int64_t> o;
    for (std::int64_t v : at) o.push_back(v * stride);
    return o;
  };
  std::vector<std::int64_t> dc;
  for (std::size_t e = 0; e < rows_of.size(); ++e) dc.push_back(rows_of[e] * c.rs + cols_of[e] * c.cs);
  r.gemm_list(nb, nb, k, alpha, p, tr(q), beta, c, offsets(rows_of, p.rs), offsets(cols_of, q.rs), dc);
  if (two) r.gemm_list(nb, nb, k, alpha2, q, tr(p), 1.0, c, offsets(rows_of, q.rs), offsets(cols_of, p.rs), dc);
  // The last, partial block row (lower) or column (upper) beside the full
  // blocks: one GEMM of rest x full nb (full nb x rest).
  if (rest > 0 && full > 0) {
    const std::int64_t e = full * nb;
    const std::int64_t rows = upper ? e : rest, cols = upper ? rest : e;
    const std::int64_t r0 = upper ? 0 : e, c0 = upper ? e : 0;
    r.gemm(rows, cols, k, alpha, p.at(r0, 0), tr(q.at(c0, 0)), beta, c.at(r0, c0));
    if (two) r.gemm(rows, cols, k, alpha2, q.at(r0, 0), tr(p.at(c0, 0)), 1.0, c.at(r0, c0));
  }
  // The diagonal blocks in full into scratch (nb x nb row-major each, one
  // after another), then their triangles into C.
  const View blocks{scratch, 0, nb, 1};
  const auto diagonal = [&](std::int64_t o, std::int64_t s, std::int64_t count) {
    const View out = blocks.at(0, o * nb);  // block o / nb starts at (o / nb) nb^2 = o nb
    r.gemm(s, s, k, alpha, p.at(o, 0), tr(q.at(o, 0)), 0.0, out, count, nb * p.rs, nb * q.rs, nb * nb);
    if (two) r.gemm(s, s, k, alpha2, q.at(o, 0), tr(p.at(o, 0)), 1.0, out, count, nb * q.rs, nb * p.rs, nb * nb);
  };
  if (full > 0) diagonal(0, nb, full);
  if (rest > 0) diagonal(full * nb, rest, 1);
  r.tri_update(n, upper, herm, beta, blocks, c);
}

// trmm (solve = false: B = alpha T B) and trsm (T X = alpha B) with T m x m
// on the left, B m x n; batch of them, T's at t + i * st, B's at b + i * sb.
// W (scratch) first takes a copy of every B, oriented as B is.
void triangular(Runner& r, bool solve, std::int64_t m, std::int64_t n, Z alpha, const View& t,
                std::int64_t st, bool upper, bool unit, const View& b, std::int64_t sb, std::int64_t batch,
                const std::shared_ptr<MemImpl>& scratch) {
  if (alpha == Z(0)) {
    r.scale(m, n, batch, 0.0, b, sb);
    return;
  }
  const std::int64_t nb = r.nb(), blocks = (m + nb - 1) / nb, full = m / nb, rest = m - full * nb;
  const std::int64_t packed_stride = blocks * nb * nb, w_stride = m * n;
  const View packed{scratch, 0, nb, 1};
  const std::int64_t w0 = batch * packed_stride;
  const View w = b.rs == 1 ? View{scratch, w0, 1, m} : View{scratch, w0, n, 1};
  r.tri_pack(m, batch, upper, unit, solve, t, st, packed);
  if (solve) {
    // The full blocks' inverted IB sub-blocks doubled up to NB: at order s,
    // each pair of inverted neighbours A, B and the block C between them
    // (lower [A 0; C B], upper [A C; 0 B]) becomes the pair's inverse, C =
    // -B^-1 C A^-1 (upper -A^-1 C B^-1), as two listed GEMMs over every
    // pair of every block through a temporary Y (s x s per pair).
    const std::int64_t temp0 = w0 + batch * w_stride;
    for (std::int64_t s = r.ib(); s < nb && full > 0; s *= 2) {
      const View temp{scratch, temp0, s, 1};
      std::vector<std::int64_t> first, second, c_at, y_at;  // A (lower) / B (upper), the other, C, Y
      for (std::int64_t sys = 0; sys < batch; ++sys)
        for (std::int64_t blk = 0; blk < full; ++blk)
          for (std::int64_t o = 0; o < nb; o += 2 * s) {
            const std::int64_t base = sys * packed_stride + blk * nb * nb;
            first.push_back(base + o * nb + o);
            second.push_back(base + (o + s) * nb + (o + s));
            c_at.push_back(upper ? base + o * nb + (o + s) : base + (o + s) * nb + o);
            y_at.push_back(std::int64_t(y_at.size()) * s * s);
          }
      if (upper) {
        r.gemm_list(s, s, s, 1.0, packed, packed, 0.0, temp, c_at, second, y_at);     // Y = C B^-1
        r.gemm_list(s, s, s, -1.0, packed, temp, 0.0, packed, first, y_at, c_at);     // C = -A^-1 Y
      } else {
        r.gemm_list(s, s, s, 1.0, packed, packed, 0.0, temp, c_at, first, y_at);      // Y = C A^-1
        r.gemm_list(s, s, s, -1.0, packed, temp, 0.0, packed, second, y_at, c_at);    // C = -B^-1 Y
      }
    }
  }
  r.copy(m, n, batch, b, sb, w, w_stride);
  // B_o (s rows from o) = a P_o W_o, P_o the packed (trsm: inverted)
  // diagonal block.
  const auto leaf = [&](std::int64_t o, std::int64_t s, Z a) {
    r.gemm(s, n, s, a, packed.at(0, o * nb), w.at(o, 0), 0.0, b.at(o, 0), batch, packed_stride, w_stride, sb);
  };
  if (!solve) {
    // trmm: B_i = a sum over j of T_ij W_j (j >= i upper, j <= i lower).
    // Every product reads only T and W, so the diagonal blocks go first, all
    // at once, then the off-diagonal halves of each level of the halving,
    // each level one listed GEMM per shape (its nodes write disjoint rows).
    if (full > 0) {
      if (batch == 1) {
        r.gemm(nb, n, nb, alpha, packed, w, 0.0, b, full, nb * nb, nb * w.rs, nb * b.rs);
      } else {
        std::vector<std::int64_t> dx, dy, dc;
        for (std::int64_t sys = 0; sys < batch; ++sys)
          for (std::int64_t i = 0; i < full; ++i) {
            dx.push_back(sys * packed_stride + i * nb * nb);
            dy.push_back(sys * w_stride + i * nb * w.rs);
            dc.push_back(sys * sb + i * nb * b.rs);
          }
        r.gemm_list(nb, n, nb, alpha, packed, w, 0.0, b, dx, dy, dc);
      }
    }
    if (rest > 0) leaf(full * nb, rest, alpha);
    // The halving's nodes (o, s1, s2) by depth.
    struct Node {
      std::int64_t o, s1, s2;
    };
    std::vector<std::vector<Node>> levels;
    const auto collect = [&](auto&& self, std::int64_t o, std::int64_t s, std::size_t depth) -> void {
      if (s <= nb) return;
      const std::int64_t s1 = split(s, nb), s2 = s - s1;
      if (levels.size() <= depth) levels.resize(depth + 1);
      levels[depth].push_back({o, s1, s2});
      self(self, o, s1, depth + 1);
      self(self, o + s1, s2, depth + 1);
    };
    collect(collect, 0, m, 0);
    for (const std::vector<Node>& level : levels) {
      std::vector<Node> todo = level;
      while (!todo.empty()) {
        const std::int64_t s1 = todo.front().s1, s2 = todo.front().s2;
        // Upper: B1 += a T12 W2 (s1 x n x s2); lower: B2 += a T21 W1.
        const std::int64_t rows = upper ? s1 : s2, inner = upper ? s2 : s1;
        std::vector<std::int64_t> dx, dy, dc;
        std::vector<Node> later;
        for (const Node& nd : todo) {
          if (nd.s1 != s1 || nd.s2 != s2) {
            later.push_back(nd);
            continue;
          }
          const std::int64_t out = upper ? nd.o : nd.o + s1, in = upper ? nd.o + s1 : nd.o;
          for (std::int64_t sys = 0; sys < batch; ++sys) {
            dx.push_back(sys * st + out * t.rs + in * t.cs);
            dy.push_back(sys * w_stride + in * w.rs);
            dc.push_back(sys * sb + out * b.rs);
          }
        }
        r.gemm_list(rows, n, inner, alpha, t, w, 1.0, b, dx, dy, dc);
        todo.swap(later);
      }
    }
    return;
  }
  // trsm: X (in B) solves level by level in order; W carries the updated
  // right-hand sides. Lower: X1 = T11^-1 a W1; W2 = a W2 - T21 X1; X2 =
  // T22^-1 W2 (upper: the mirror, from the bottom).
  const auto recurse = [&](auto&& self, std::int64_t o, std::int64_t s, Z a) -> void {
    if (s <= nb) {
      leaf(o, s, a);
      return;
    }
    const std::int64_t s1 = split(s, nb), s2 = s - s1;
    if (upper) {
      self(self, o + s1, s2, a);
      r.gemm(s1, n, s2, -1.0, t.at(o, o + s1), b.at(o + s1, 0), a, w.at(o, 0), batch, st, sb, w_stride);
      self(self, o, s1, 1.0);
    } else {
      self(self, o, s1, a);
      r.gemm(s2, n, s1, -1.0, t.at(o + s1, o), b.at(o, 0), a, w.at(o + s1, 0), batch, st, sb, w_stride);
      self(self, o + s1, s2, 1.0);
    }
  };
  recurse(recurse, 0, m, alpha);
}

bool transposed(BlasTranspose t) { return t != BlasTranspose::No; }

// op(X) of a stored view: X, X^T, or (complex) X^H.
View op(View v, BlasTranspose t, bool complex) {
  if (t == BlasTranspose::No) return v;
  return t == BlasTranspose::Conjugate && complex ? v.h() : v.t();
}

}  // namespace

Event run_blas3(const Queue& q, const Blas3Call& c, const WaitList& wait, const Params* forced) {
  const Blas3Family& fam = families::blas3();
  const Capabilities& caps = q.device().caps();
  const DType t = c.a.dtype;
  const bool tri = blas3_is_triangular(c.routine);
  Blas3Problem pr;
  pr.dtype = t;
  pr.routine = c.routine;
  pr.n = tri ? (c.side == Side::Left ? c.m : c.n) : c.n;
  pr.k = tri ? (c.side == Side::Left ? c.n : c.m) : c.k;
  // A complex type's own entry where the database has one (c32 syrk's listed
  // blocks want larger NB than f32's: each is a real NB x 2NB x 2k product),
  // else the part type's.
  Params looked;
  if (!forced) {
    looked = params_for(q, fam, pr);
    const LookupRecord own = last_lookup();
    if (is_complex(t) && own.lookup.level == Level::Generic && own.lookup.source != "OPTUNE_PARAMS") {
      Blas3Problem part = pr;
      part.dtype = real_dtype(t);
      looked = params_for(q, fam, part);
    }
  }
  const Params p = fam.fit(forced ? *forced : looked, caps, pr);
  const std::int64_t nb = p.at("NB");
  // f16 runs the f32 sequence on widened copies of the operands (scratch
  // after the routine's own), and the output is narrowed back, rounded once.
  const bool half = t == DType::F16;
  Blas3Problem run_pr = pr;
  if (half) run_pr.dtype = DType::F32;
  const DType rt = run_pr.dtype;
  Runner r(q, rt, run_pr, p, wait);
  const std::size_t es = dtype_size(rt);
  const bool trans = transposed(c.trans), cplx = is_complex(t);
  // The f32 copy of a stored rows x cols matrix (batch of them, `stride`
  // apart; 0: one shared) at element `at` of the scratch, oriented as stored.
  const auto widened = [&](const std::shared_ptr<MemImpl>& scratch, std::int64_t at, const View& stored,
                           std::int64_t rows, std::int64_t cols, std::int64_t batch, std::int64_t stride) {
    const View w = stored.rs == 1 ? View{scratch, at, 1, rows} : View{scratch, at, cols, 1};
    r.widen(rows, cols, stride == 0 ? 1 : batch, stored, stride, w, rows * cols);
    return w;
  };
  if (!tri) {
    const std::int64_t n = c.n;
    const std::size_t blocks = std::size_t((n + nb - 1) / nb);
    const std::int64_t own = std::int64_t(blocks) * nb * nb;
    const bool two = blas3_is_two(c.routine);
    const std::int64_t ra = trans ? c.k : n, ca = trans ? n : c.k;  // A's (and B's) stored shape
    const std::int64_t copies = half ? (two ? 2 : 1) * ra * ca + n * n : 0;
    ScratchLease lease = lease_scratch(q, {0, 0, 0, 0, std::size_t(own + copies) * es});
    View sa = stored_view(c.a, c.layout, c.lda), sc = stored_view(c.c, c.layout, c.ldc);
    View sb = two ? stored_view(c.b, c.layout, c.ldb) : sa;
    const View user_c = sc;
    if (half) {
      sa = widened(lease.slot[4], own, sa, ra, ca, 1, 0);
      if (two) sb = widened(lease.slot[4], own + ra * ca, sb, ra, ca, 1, 0);
      sc = widened(lease.slot[4], own + (two ? 2 : 1) * ra * ca, sc, n, n, 1, 0);
    }
    const View pa = op(sa, c.trans, cplx);
    const View pb = two ? op(sb, c.trans, cplx) : pa;
    const bool upper = c.uplo == Triangle::Upper;
    rank_k(r, two, blas3_is_hermitian(c.routine), n, c.k, c.alpha, pa, pb, c.beta, sc, upper, lease.slot[4]);
    if (half) r.narrow(n, n, 1, upper ? 1 : 2, sc, 0, user_c, 0);
    return r.result();
  }
  const std::int64_t batch = c.batched ? c.batch : 1;
  const std::int64_t ka = c.side == Side::Left ? c.m : c.n;
  View sa = stored_view(c.a, c.layout, c.lda), sb = stored_view(c.b, c.layout, c.ldb);
  const View user_b = sb;
  std::int64_t stride_a = c.stride_a, stride_b = c.stride_b;
  // T = op(A); on the right, the left-side problem of the transposes.
  bool upper = c.uplo == Triangle::Upper;
  if (trans) upper = !upper;
  std::int64_t m = c.m, n = c.n;
  if (c.side == Side::Right) upper = !upper, std::swap(m, n);
  const std::size_t blocks = std::size_t((m + nb - 1) / nb);
  // Packed blocks, W, and (trsm) the doubling's temporary: at most half a
  // block per full block.
  const std::size_t elements = std::size_t(batch) * (blocks * std::size_t(nb * nb) + std::size_t(m) * std::size_t(n) +
                                                      blocks * std::size_t(nb * nb) / 2);
  const std::int64_t own = c.alpha == Z(0) ? 0 : std::int64_t(elements);
  const std::int64_t ta = (c.stride_a == 0 ? 1 : batch) * ka * ka;
  const std::int64_t copies = half ? ta + batch * c.m * c.n : 0;
  ScratchLease lease = lease_scratch(q, {0, 0, 0, 0, std::size_t(own + copies) * es});
  if (half) {
    sa = widened(lease.slot[4], own, sa, ka, ka, batch, c.stride_a);
    sb = widened(lease.slot[4], own + ta, sb, c.m, c.n, batch, c.stride_b);
    stride_a = c.stride_a == 0 ? 0 : ka * ka;
    stride_b = c.m * c.n;
  }
  View tv = op(sa, c.trans, cplx), bv = sb;
  if (c.side == Side::Right) tv = tv.t(), bv = bv.t();
  triangular(r, c.routine == Blas3Routine::Trsm, m, n, c.alpha, tv, stride_a, upper, c.diag == Diagonal::Unit, bv,
             stride_b, batch, lease.slot[4]);
  if (half) r.narrow(c.m, c.n, batch, 0, sb, stride_b, user_b, c.stride_b);
  return r.result();
}

}  // namespace optune::detail
