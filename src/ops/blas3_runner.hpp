// What ops/blas3_run.cpp's blocked algorithms are written in: strided views
// of matrices (element (i, j) at off + i rs + j cs, a conjugation flag for
// complex types) and the Runner, which turns each step into a GEMM
// (ops/gemm_ops.hpp's run_gemm, or a complex GEMM) or one of the blas3
// family's small kernels, chaining them in order on the queue.
#pragma once

#include <algorithm>
#include <complex>
#include <optional>

#include "kernels/families.hpp"
#include "ops/blas3_ops.hpp"
#include "ops/blas_common.hpp"
#include "ops/gemm_complex.hpp"
#include "ops/params.hpp"
#include "runtime/event_span.hpp"

namespace optune::detail::blas3_runner {

using Z = std::complex<double>;

struct View {
  std::shared_ptr<MemImpl> mem;
  std::int64_t off = 0, rs = 1, cs = 1;
  bool conj = false;  // complex: the elements conjugated
  View at(std::int64_t i, std::int64_t j) const { return {mem, off + i * rs + j * cs, rs, cs, conj}; }
  View t() const { return {mem, off, cs, rs, conj}; }
  View h() const { return {mem, off, cs, rs, !conj}; }  // conjugate transpose
  View plus(std::int64_t elements) const { return {mem, off + elements, rs, cs, conj}; }
};

inline View stored_view(const GemmMatrix& m, Layout layout, std::int64_t ld) {
  return layout == Layout::RowMajor ? View{m.mem, std::int64_t(m.offset), ld, 1}
                                    : View{m.mem, std::int64_t(m.offset), 1, ld};
}

// A split of s > nb rows at a multiple of nb, about in half.
inline std::int64_t split(std::int64_t s, std::int64_t nb) {
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
    run(call_of(m, n, k, x, y, c, batch, sx, sy, sc), alpha, beta, x.conj, y.conj, 0);
  }

  // One listed GEMM: product i is C at c + dc[i] (m x n) = alpha X at x +
  // dx[i] (m x k) Y at y + dy[i] (k x n) + beta C, offsets in elements from
  // the views' starts. The products' C blocks must not overlap. One product
  // runs as a plain GEMM (no table).
  void gemm_list(std::int64_t m, std::int64_t n, std::int64_t k, Z alpha, const View& x, const View& y, Z beta,
                 const View& c, const std::vector<std::int64_t>& dx, const std::vector<std::int64_t>& dy,
                 const std::vector<std::int64_t>& dc) {
    if (dc.empty()) return;
    if (dc.size() == 1) return gemm(m, n, k, alpha, x.plus(dx[0]), y.plus(dy[0]), beta, c.plus(dc[0]));
    if (!(c.cs == 1 && (c.rs >= n || m <= 1))) {
      gemm_list(n, m, k, alpha, y.t(), x.t(), beta, c.t(), dy, dx, dc);
      return;
    }
    GemmCall call = call_of(m, n, k, x, y, c, std::int64_t(dc.size()), 0, 0, 0);
    call.list = true;
    call.a_offsets = dx;
    call.b_offsets = dy;
    call.c_offsets = dc;
    run(std::move(call), alpha, beta, x.conj, y.conj, dc.size());
  }

  void scale(std::int64_t rows, std::int64_t cols, std::int64_t batch, Z alpha, const View& x,
             std::int64_t bs) {
    launch("blas3_scale", rows * cols * batch,
           {u(rows), u(cols), u(batch), typed(alpha), KernelArg::buffer(*x.mem), u(x.off), s(x.rs), s(x.cs), s(bs)});
  }

  void copy(std::int64_t rows, std::int64_t cols, std::int64_t batch, const View& x, std::int64_t xbs,
            const View& y, std::int64_t ybs) {
    // The kernel walks columns fastest: where both matrices run down their
    // columns, copy the transposes so the unit stride is the fast one.
    if (x.rs == 1 && y.rs == 1 && cols > 1) {
      copy(cols, rows, batch, x.t(), xbs, y.t(), ybs);
      return;
    }
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

  // f16 operands run in f32: Y (TYPE) = X (half) over rows x cols (batch
  // of them), and back, X (TYPE) to Y (half) rounded, over the whole matrix
  // (tri 0) or its upper (1) or lower (2) triangle.
  void widen(std::int64_t rows, std::int64_t cols, std::int64_t batch, const View& x, std::int64_t xbs,
             const View& y, std::int64_t ybs) {
    convert("blas3_widen", -1, rows, cols, batch, x, xbs, y, ybs);
  }
  void narrow(std::int64_t rows, std::int64_t cols, std::int64_t batch, int tri, const View& x, std::int64_t xbs,
              const View& y, std::int64_t ybs) {
    convert("blas3_narrow", tri, rows, cols, batch, x, xbs, y, ybs);
  }

  // trsm's inverted sub-blocks: IB, at most NB.
  std::int64_t ib() const { return std::min(p_.at("IB"), nb()); }

  void tri_pack(std::int64_t n, std::int64_t batch, bool upper, bool unit, bool invert, const View& a,
                std::int64_t abs, const View& out) {
    const std::int64_t blocks = (n + nb() - 1) / nb();
    launch("blas3_tri_pack", batch * blocks * nb(),
           {u(n), u(nb()), u(ib()), u(batch), i32(upper), i32(unit), i32(invert), i32(a.conj),
            KernelArg::buffer(*a.mem), u(a.off), s(a.rs), s(a.cs), s(abs), KernelArg::buffer(*out.mem), u(out.off)});
  }

 private:
  // blas3_widen (tri < 0) or blas3_narrow, columns fastest as copy's.
  void convert(const char* entry, int tri, std::int64_t rows, std::int64_t cols, std::int64_t batch, const View& x,
               std::int64_t xbs, const View& y, std::int64_t ybs) {
    if (x.rs == 1 && y.rs == 1 && cols > 1) {  // the transposes: a triangle's mirror
      convert(entry, tri > 0 ? 3 - tri : tri, cols, rows, batch, x.t(), xbs, y.t(), ybs);
      return;
    }
    std::vector<KernelArg> args{u(rows), u(cols), u(batch)};
    if (tri >= 0) args.push_back(KernelArg::scalar(std::int32_t(tri)));
    for (const KernelArg& a : {KernelArg::buffer(*x.mem), u(x.off), s(x.rs), s(x.cs), s(xbs), KernelArg::buffer(*y.mem),
                               u(y.off), s(y.rs), s(y.cs), s(ybs)})
      args.push_back(a);
    launch(entry, rows * cols * batch, args);
  }

  static KernelArg u(std::int64_t v) { return KernelArg::scalar(std::uint64_t(v)); }
  static KernelArg s(std::int64_t v) { return KernelArg::scalar(std::int64_t(v)); }
  static KernelArg i32(bool v) { return KernelArg::scalar(std::int32_t(v ? 1 : 0)); }
  KernelArg typed(Z v) const { return blas_type_arg(t_, v); }

  // The GEMM of gemm() over C's row-major view, its scalars unset.
  GemmCall call_of(std::int64_t m, std::int64_t n, std::int64_t k, const View& x, const View& y, const View& c,
                   std::int64_t batch, std::int64_t sx, std::int64_t sy, std::int64_t sc) const {
    GemmCall call;
    call.dtype = call.c_dtype = t_;
    call.m = m;
    call.n = n;
    call.k = k;
    call.batch = batch;
    call.a = operand(x, m, k, sx, call.trans_a);
    call.b = operand(y, k, n, sy, call.trans_b);
    call.c = {c.mem, std::size_t(c.off), std::max(c.rs, n), sc};
    return call;
  }

  // Runs it with alpha and beta (for each of `listed` products, when
  // listed): a complex GEMM with the views' conjugations, else a real one.
  void run(GemmCall call, Z alpha, Z beta, bool conj_x, bool conj_y, std::size_t listed) {
    // GEMM != 0: the products' kernel (gemm_routine's KERNEL) over this
    // thread's force, if any.
    CandidateForce force;
    std::optional<GemmForceScope> scope;
    if (const std::int64_t kernel = p_.at("GEMM"); kernel != 0) {
      if (const CandidateForce* outer = GemmForceScope::current()) force = *outer;
      force.overlay["gemm_routine"]["KERNEL"] = kernel;
      scope.emplace(force);
    }
    if (is_complex(t_)) {
      ComplexGemm z;
      z.conj_a = conj_x;
      z.conj_b = conj_y;
      z.alpha = alpha;
      z.beta = beta;
      if (listed) z.alphas.assign(listed, alpha), z.betas.assign(listed, beta);
      z.call = std::move(call);
      span_.add(run_complex_gemm(q_, z, take_wait()));
      return;
    }
    call.alpha = alpha.real();
    call.beta = beta.real();
    if (listed) call.alphas.assign(listed, alpha.real()), call.betas.assign(listed, beta.real());
    span_.add(run_gemm(q_, call, take_wait()));
  }

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

}  // namespace optune::detail::blas3_runner
