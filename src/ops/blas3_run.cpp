// BLAS level 3, triangular and rank-k routines: the blocked algorithms over
// GEMM (ops/gemm_ops.hpp's run_gemm) and the blas3 family's small kernels.
//
// Every matrix is a strided view (element (i, j) at off + i rs + j cs), so
// the layouts, op(A) and the right side are only exchanges of strides:
// trmm and trsm on the right are the left-side routines on the transposes
// (X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T). A GEMM whose C view is
// column-major runs as C^T = Y^T X^T.
//
// - syrk / syr2k: C's triangle splits in halves at a multiple of NB; the
//   off-diagonal half-block is one GEMM (two for syr2k) and each half
//   recurses, down to the NB x NB diagonal blocks, which are computed in full
//   by one strided-batched GEMM into scratch (plus one for a smaller last
//   block) and written to C's triangle by blas3_tri_update (with beta).
//   Flops: n^2 k (syrk) + n NB k, about half of a full GEMM.
// - trmm / trsm (left): T = op(A) splits likewise; the NB x NB diagonal
//   blocks are first packed (trmm) or inverted (trsm) into scratch by
//   blas3_tri_pack, all in one launch. A leaf copies its rows of B into
//   scratch and writes them back as one GEMM by the packed block; an inner
//   node is one GEMM update between its halves (trsm: B2 = alpha B2 - T21 X1,
//   the lower solve, then the second half with alpha 1).
// Batched trsm runs the same sequence with every kernel and GEMM batched
// (strided), so its launch count does not grow with the batch.
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
#include "ops/gemm_complex.hpp"
#include "ops/blas3_ops.hpp"
#include "ops/blas_common.hpp"
#include "ops/params.hpp"
#include "runtime/event_span.hpp"
#include "runtime/scratch.hpp"

namespace optune::detail {

namespace {

using Z = std::complex<double>;

struct View {
  std::shared_ptr<MemImpl> mem;
  std::int64_t off = 0, rs = 1, cs = 1;
  bool conj = false;  // complex: the elements conjugated
  View at(std::int64_t i, std::int64_t j) const { return {mem, off + i * rs + j * cs, rs, cs, conj}; }
  View t() const { return {mem, off, cs, rs, conj}; }
  View h() const { return {mem, off, cs, rs, !conj}; }  // conjugate transpose
};

View stored_view(const GemmMatrix& m, Layout layout, std::int64_t ld) {
  return layout == Layout::RowMajor ? View{m.mem, std::int64_t(m.offset), ld, 1}
                                    : View{m.mem, std::int64_t(m.offset), 1, ld};
}

// A split of s > nb rows at a multiple of nb, about in half.
std::int64_t split(std::int64_t s, std::int64_t nb) {
  const std::int64_t blocks = (s + nb - 1) / nb;
  return nb * ((blocks + 1) / 2);
}

class Runner {
 public:
  Runner(const Queue& q, DType t, const Blas3Problem& pr, const Params& p, const WaitList& wait)
      : q_(q), t_(t), pr_(pr), p_(p), wait_(wait), fam_(families::blas3()) {}

  std::int64_t nb() const { return p_.at("NB"); }
  Event result() const { return span_.result(); }

  // C (m x n) = alpha X (m x k) Y (k x n) + beta C, batch times, the i-th
  // at each view's offset + i * its stride.
  void gemm(std::int64_t m, std::int64_t n, std::int64_t k, Z alpha, const View& x, const View& y, Z beta,
            const View& c, std::int64_t batch = 1, std::int64_t sx = 0, std::int64_t sy = 0, std::int64_t sc = 0) {
    if (!(c.cs == 1 && (c.rs >= n || m <= 1))) {
      gemm(n, m, k, alpha, y.t(), x.t(), beta, c.t(), batch, sy, sx, sc);
      return;
    }
    GemmCall call;
    call.dtype = call.c_dtype = t_;
    call.m = m;
    call.n = n;
    call.k = k;
    call.batch = batch;
    call.a = operand(x, m, k, sx, call.trans_a);
    call.b = operand(y, k, n, sy, call.trans_b);
    call.c = {c.mem, std::size_t(c.off), std::max(c.rs, n), sc};
    if (is_complex(t_)) {
      ComplexGemm z;
      z.call = call;
      z.conj_a = x.conj;
      z.conj_b = y.conj;
      z.alpha = alpha;
      z.beta = beta;
      span_.add(run_complex_gemm(q_, z, take_wait()));
      return;
    }
    call.alpha = alpha.real();
    call.beta = beta.real();
    span_.add(run_gemm(q_, call, take_wait()));
  }

  void scale(std::int64_t rows, std::int64_t cols, std::int64_t batch, Z alpha, const View& x,
             std::int64_t bs) {
    launch("blas3_scale", rows * cols * batch,
           {u(rows), u(cols), u(batch), typed(alpha), KernelArg::buffer(*x.mem), u(x.off), s(x.rs), s(x.cs), s(bs)});
  }

  void copy(std::int64_t rows, std::int64_t cols, std::int64_t batch, const View& x, std::int64_t xbs,
            const View& y, std::int64_t ybs) {
    launch("blas3_copy", rows * cols * batch,
           {u(rows), u(cols), u(batch), KernelArg::buffer(*x.mem), u(x.off), s(x.rs), s(x.cs), s(xbs),
            KernelArg::buffer(*y.mem), u(y.off), s(y.rs), s(y.cs), s(ybs)});
  }

  void tri_scale(std::int64_t n, bool upper, bool herm, Z beta, const View& c) {
    launch("blas3_tri_scale", n * n,
           {u(n), i32(upper), i32(herm), typed(beta), KernelArg::buffer(*c.mem), u(c.off), s(c.rs), s(c.cs)});
  }

  void tri_update(std::int64_t n, bool upper, bool herm, Z beta, const View& s_blocks, const View& c) {
    const std::int64_t blocks = (n + nb() - 1) / nb();
    launch("blas3_tri_update", blocks * nb() * nb(),
           {u(n), u(nb()), i32(upper), i32(herm), typed(beta), KernelArg::buffer(*s_blocks.mem), u(s_blocks.off),
            KernelArg::buffer(*c.mem), u(c.off), s(c.rs), s(c.cs)});
  }

  void tri_pack(std::int64_t n, std::int64_t batch, bool upper, bool unit, bool invert, const View& a,
                std::int64_t abs, const View& out) {
    const std::int64_t blocks = (n + nb() - 1) / nb();
    launch("blas3_tri_pack", batch * blocks * nb(),
           {u(n), u(nb()), u(batch), i32(upper), i32(unit), i32(invert), i32(a.conj), KernelArg::buffer(*a.mem), u(a.off),
            s(a.rs), s(a.cs), s(abs), KernelArg::buffer(*out.mem), u(out.off)});
  }

 private:
  static KernelArg u(std::int64_t v) { return KernelArg::scalar(std::uint64_t(v)); }
  static KernelArg s(std::int64_t v) { return KernelArg::scalar(std::int64_t(v)); }
  static KernelArg i32(bool v) { return KernelArg::scalar(std::int32_t(v ? 1 : 0)); }
  KernelArg typed(Z v) const { return blas_type_arg(t_, v); }

  static GemmOperand operand(const View& v, std::int64_t rows, std::int64_t cols, std::int64_t stride,
                             bool& trans) {
    if (v.cs == 1 && (v.rs >= cols || rows <= 1)) {
      trans = false;
      return {v.mem, std::size_t(v.off), std::max(v.rs, cols), stride};
    }
    trans = true;  // stored cols x rows, row-major
    return {v.mem, std::size_t(v.off), std::max(v.cs, rows), stride};
  }

  WaitList take_wait() {
    WaitList w;
    w.swap(wait_);
    return w;
  }

  void launch(const char* entry, std::int64_t items, const std::vector<KernelArg>& args) {
    KernelSource src = fam_.program(p_, pr_);
    src.entry = entry;
    KernelPtr k = compile_kernel(q_, src);
    span_.add(launch_kernel(q_, *k, args, fam_.grid(p_, std::size_t(items)), take_wait(), &p_));
  }

  Queue q_;
  DType t_;
  Blas3Problem pr_;
  Params p_;
  WaitList wait_;
  const Blas3Family& fam_;
  EventSpan span_;
};

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
  // The off-diagonal blocks, halving.
  const auto recurse = [&](auto&& self, std::int64_t o, std::int64_t s) -> void {
    if (s <= nb) return;
    const std::int64_t s1 = split(s, nb), s2 = s - s1;
    // Upper: C12 (s1 x s2) = alpha P1 Q2^T (+ alpha Q1 P2^T) + beta C12.
    // Lower: C21 (s2 x s1) = alpha P2 Q1^T (+ alpha Q2 P1^T) + beta C21.
    const std::int64_t r0 = upper ? o : o + s1, c0 = upper ? o + s1 : o;
    const std::int64_t rows = upper ? s1 : s2, cols = upper ? s2 : s1;
    r.gemm(rows, cols, k, alpha, p.at(r0, 0), tr(q.at(c0, 0)), beta, c.at(r0, c0));
    if (two) r.gemm(rows, cols, k, alpha2, q.at(r0, 0), tr(p.at(c0, 0)), 1.0, c.at(r0, c0));
    self(self, o, s1);
    self(self, o + s1, s2);
  };
  recurse(recurse, 0, n);
  // The diagonal blocks in full into scratch (nb x nb row-major each, one
  // after another), then their triangles into C.
  const View blocks{scratch, 0, nb, 1};
  const std::int64_t full = n / nb, rest = n - full * nb;
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
void triangular(Runner& r, bool solve, std::int64_t m, std::int64_t n, Z alpha, const View& t,
                std::int64_t st, bool upper, bool unit, const View& b, std::int64_t sb, std::int64_t batch,
                const std::shared_ptr<MemImpl>& scratch) {
  if (alpha == Z(0)) {
    r.scale(m, n, batch, 0.0, b, sb);
    return;
  }
  const std::int64_t nb = r.nb(), blocks = (m + nb - 1) / nb;
  const std::int64_t packed_stride = blocks * nb * nb, w_stride = nb * n;
  const View packed{scratch, 0, nb, 1};
  const View w{scratch, batch * packed_stride, n, 1};
  r.tri_pack(m, batch, upper, unit, solve, t, st, packed);
  const auto leaf = [&](std::int64_t o, std::int64_t s, Z a) {
    r.copy(s, n, batch, b.at(o, 0), sb, w, w_stride);
    r.gemm(s, n, s, a, packed.at(0, o * nb), w, 0.0, b.at(o, 0), batch, packed_stride, w_stride, sb);
  };
  const auto recurse = [&](auto&& self, std::int64_t o, std::int64_t s, Z a) -> void {
    if (s <= nb) {
      leaf(o, s, a);
      return;
    }
    const std::int64_t s1 = split(s, nb), s2 = s - s1;
    const View t12 = t.at(o, o + s1), t21 = t.at(o + s1, o);
    const View b1 = b.at(o, 0), b2 = b.at(o + s1, 0);
    if (!solve) {
      if (upper) {  // B1 = a T11 B1 + a T12 B2; B2 = a T22 B2
        self(self, o, s1, a);
        r.gemm(s1, n, s2, a, t12, b2, 1.0, b1, batch, st, sb, sb);
        self(self, o + s1, s2, a);
      } else {  // B2 = a T22 B2 + a T21 B1; B1 = a T11 B1
        self(self, o + s1, s2, a);
        r.gemm(s2, n, s1, a, t21, b1, 1.0, b2, batch, st, sb, sb);
        self(self, o, s1, a);
      }
    } else if (upper) {  // X2 = T22^-1 a B2; X1 = T11^-1 (a B1 - T12 X2)
      self(self, o + s1, s2, a);
      r.gemm(s1, n, s2, -1.0, t12, b2, a, b1, batch, st, sb, sb);
      self(self, o, s1, 1.0);
    } else {  // X1 = T11^-1 a B1; X2 = T22^-1 (a B2 - T21 X1)
      self(self, o, s1, a);
      r.gemm(s2, n, s1, -1.0, t21, b1, a, b2, batch, st, sb, sb);
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
  pr.dtype = real_dtype(t);  // the parameters are the part type's
  pr.routine = c.routine;
  pr.n = tri ? (c.side == Side::Left ? c.m : c.n) : c.n;
  pr.k = tri ? (c.side == Side::Left ? c.n : c.m) : c.k;
  const Params p = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
  pr.dtype = t;
  const std::int64_t nb = p.at("NB");
  Runner r(q, t, pr, p, wait);
  const std::size_t es = dtype_size(t);
  const bool trans = transposed(c.trans), cplx = is_complex(t);
  if (!tri) {
    const std::int64_t n = c.n;
    const std::size_t blocks = std::size_t((n + nb - 1) / nb);
    ScratchLease lease = lease_scratch(q, {0, 0, 0, 0, blocks * std::size_t(nb * nb) * es});
    const View pa = op(stored_view(c.a, c.layout, c.lda), c.trans, cplx);
    const bool two = blas3_is_two(c.routine);
    const View pb = two ? op(stored_view(c.b, c.layout, c.ldb), c.trans, cplx) : pa;
    rank_k(r, two, blas3_is_hermitian(c.routine), n, c.k, c.alpha, pa, pb, c.beta,
           stored_view(c.c, c.layout, c.ldc), c.uplo == Triangle::Upper, lease.slot[4]);
    return r.result();
  }
  // T = op(A); on the right, the left-side problem of the transposes.
  View tv = op(stored_view(c.a, c.layout, c.lda), c.trans, cplx);
  bool upper = c.uplo == Triangle::Upper;
  if (trans) upper = !upper;
  View bv = stored_view(c.b, c.layout, c.ldb);
  std::int64_t m = c.m, n = c.n;
  if (c.side == Side::Right) tv = tv.t(), upper = !upper, bv = bv.t(), std::swap(m, n);
  const std::int64_t batch = c.batched ? c.batch : 1;
  const std::size_t blocks = std::size_t((m + nb - 1) / nb);
  const std::size_t elements = std::size_t(batch) * (blocks * std::size_t(nb * nb) + std::size_t(nb * n));
  ScratchLease lease = lease_scratch(q, {0, 0, 0, 0, c.alpha == Z(0) ? 0 : elements * es});
  triangular(r, c.routine == Blas3Routine::Trsm, m, n, c.alpha, tv, c.stride_a, upper, c.diag == Diagonal::Unit, bv,
             c.stride_b, batch, lease.slot[4]);
  return r.result();
}

}  // namespace optune::detail
