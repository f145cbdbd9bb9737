// blas2: the BLAS level-2 routines (general and symmetric / Hermitian) on
// real and complex matrices, every entry point in one program per type and
// group size (PoCL pays seconds per program).
//
// Every routine works on the logical matrix M (rows x cols) of its
// definition, and each storage scheme is an address map of M's indices:
//   - dense and band storage, either layout, either transpose: element
//     (r, c) of the stored matrix lies at ab + r si + c sj (band storage is
//     affine too: column-major A(r, c) at ku + r + c (lda - 1));
//   - packed triangles: pk(r, c) = p + q (q + 1) / 2 (form 0) or
//     p + q (2 np - q - 1) / 2 (form 1), (p, q) = (r, c) or (c, r) (SWAP).
// The host turns (layout, transpose, triangle) into these numbers, so no
// routine transposes or conjugates a copy of anything.
//
// Matrix-vector products (gemv, gbmv, symv, hemv, sbmv, hbmv, spmv, hpmv):
//   y_i = alpha sum_j M(i, j) x_j + beta y_i   (beta 0: y is not read)
// A group of WGS work-items owns RPG = WGS / TJ rows; TJ work-items share
// each row, work-item t summing j = j0 + t, j0 + t + TJ, ... in order, then
// a fixed tree over the TJ. JMAJOR (M's rows contiguous: si... sj == 1)
// puts a row's TJ work-items side by side, so a warp reads a row's
// consecutive elements; otherwise a row's work-items are RPG apart and
// neighbouring work-items own neighbouring rows, which are then contiguous
// (the "axpy along columns" order). Either way each element of A is read
// once and coalesced. The groups' second grid dimension splits the j range
// into slices of `chunk`: with one slice the group writes y itself, with
// several it writes its partial sums to part[slice rows + i] and
// blas2_mv_final adds them in a fixed order (deterministic) and writes y.
// Symmetric and Hermitian matrices read the stored triangle: M(i, j) outside
// it is the stored M(j, i) (conjugated for Hermitian ones, whose diagonal's
// imaginary part is taken as 0, as the reference does). This generic order
// reads a dense triangle twice; symv and hemv in dense storage go through
// blas2_symv_blocks below instead, which reads it once.
//
// Rank updates (ger, geru, gerc, syr, spr, syr2, spr2, her, hpr, her2,
// hpr2): one work-item per stored element (i, j), the first grid dimension
// along the contiguous direction:
//   M(i, j) += c1(u_i) (a1 c2(v_j)) [+ c1(v_i) (a2 c2(u_j)) for rank 2]
// with c1, c2 conjugation flags, skipped (as the reference's column loop
// skips) where v_j is 0 (rank 1) or both u_j and v_j are 0 (rank 2); the
// diagonal of a Hermitian matrix is always made real.
//
// The parts: blas2_defs.cl (parameters, flags, address maps, the generic
// product's macro), blas2_dense.cl (dense gemv by packs), blas2_ger.cl
// (dense ger by packs) and blas2_strips.cl (symv / hemv by column strips),
// put before this text.
//
// check-prepend: blas/blas_storage.cl blas/blas2_defs.cl blas/blas2_dense.cl blas/blas2_ger.cl blas/blas2_strips.cl
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=float -DREAL=float -DCOMPLEX=0 -DWGS=64 -DSB=64
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DWGS=128 -DSB=16
// check-variant: -DTYPE=double -DREAL=double -DVW=2 -DF64=1
// check-variant: -DTYPE=float -DREAL=float -DVW=4
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DWGS=64 -DSB=16
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DSB=16
// check-variant: -DHALF=1
// check-variant: -DHALF=1 -DSB=16 -DWGS=64


MV_KERNEL(blas2_mv_ge, FETCH_GE)
MV_KERNEL(blas2_mv_sy, FETCH_SY)
MV_KERNEL(blas2_mv_sp, FETCH_SP)

// The second pass of a split product: y_i from the slices' sums. A group
// takes FINAL_ROWS rows (a warp's loads of one slice are contiguous) and
// WGS / FINAL_ROWS lanes: lane l adds slices l, l + lanes, ... in order, 8
// loads at a time (a group of lanes per row keeps the many slices of symv's
// walks and blocks from leaving most of the device idle: one work-item per
// row, summing n / SB slices one after the other, took 9.5 us of symv's 55
// at n = 8192 on the H200), then the lanes' sums are added in lane order
// (deterministic).
#define FINAL_ROWS 32
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_mv_final(const ulong rows, const uint slices, __global const TYPE* part, __global ST* y, const ulong yb,
                    const long incy, const TYPE alpha, const TYPE beta, const int flags) {
  __local TYPE red[WGS];
  const uint lid = get_local_id(0), rl = lid % FINAL_ROWS, lane = lid / FINAL_ROWS, lanes = WGS / FINAL_ROWS;
  const long i = (long)get_group_id(0) * FINAL_ROWS + rl, n = (long)rows;
  TYPE sum = ZERO;
  if (i < n) {
    uint s = lane;
    for (; s + 7 * lanes < slices; s += 8 * lanes) {
      TYPE v[8];
#pragma unroll
      for (uint k = 0; k < 8; ++k) v[k] = part[(long)(s + k * lanes) * n + i];
#pragma unroll
      for (uint k = 0; k < 8; ++k) sum += v[k];
    }
    for (; s < slices; s += lanes) sum += part[(long)s * n + i];
  }
  red[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lane == 0 && i < n) {
    TYPE all = red[rl];
    for (uint l = 1; l < lanes; ++l) all += red[l * FINAL_ROWS + rl];
    const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i);
    PUT(y, yb, incy, i, blas2_finish(all, alpha, beta, yold, flags));
  }
}

// symv / hemv in dense storage, each stored element read once: a group per
// SB x SB block (I, J) of the stored triangle (upper: I <= J) loads the
// block's stored elements into local memory (coalesced along the contiguous
// direction; 0 elsewhere) and writes the block's two products: rows of I
// against x over J into part[J n + i], and (I != J) the mirrored block's rows
// of J against x over I into part[I n + j]. Every slot (K, i) is written by
// exactly one block, and blas2_mv_final adds the n / SB slots of each y_i in
// order (deterministic). The caller runs alpha == 0 through blas2_mv_sy.
#if SYMV_FAST
// out[f] for f < SB: the sum over t < lines of tl[t SB + f], in order.
OPTUNE_FUNC void blas2_symv_sums(OPTUNE_LOCAL_PTR const TYPE* tl, const uint lines, __global TYPE* out,
                                 const uint lid) {
  for (uint f = lid; f < SB; f += WGS) {
    TYPE sum = ZERO;
    for (uint t = 0; t < lines; ++t) sum += tl[t * SB + f];
    out[f] = sum;
  }
}
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_symv_blocks(const ulong n, __global const ST* a, const ulong ab, const long si, const long sj,
                       __global const ST* x, const ulong xb, const long incx, const int flags,
                       __global TYPE* part) {
  __local TYPE tile[SB][SB + 1];
  __local TYPE red[WGS];
  const uint lid = get_local_id(0);
  const long p = (long)get_group_id(0);
  // The p-th block of the upper triangle in column order: p = J (J + 1) / 2 + I.
  long bj = (long)((sqrt((float)(8 * p + 1)) - 1.0f) * 0.5f);
  while (bj * (bj + 1) / 2 > p) --bj;
  while ((bj + 1) * (bj + 2) / 2 <= p) ++bj;
  long bi = p - bj * (bj + 1) / 2;
  if (!(flags & F_UPPER)) {
    const long t = bi;
    bi = bj;
    bj = t;
  }
  const long r0 = bi * SB, c0 = bj * SB;
  const bool rfast = si == 1, diag = bi == bj;
  const uint q = lid % SB, ph = lid / SB, nph = WGS / SB;
  // Both paths below meet the same barriers (a group takes one path or the
  // other, but every barrier stays outside the branches).
#if SYMV_FAST
  // A whole block off the diagonal: each work-item holds a 4 x SYMV_NS
  // piece of it in registers (4 fast indices SYMV_TX apart, so a warp's
  // loads are contiguous; SYMV_NS slow indices SYMV_TY apart) and forms both
  // products' partial sums there; the group adds them over the other
  // direction in local memory (the tile's space). No triangle tests, no local
  // copy of the block.
  const bool fast = !diag && r0 + SB <= (long)n && c0 + SB <= (long)n;
  OPTUNE_LOCAL_PTR TYPE* tl = &tile[0][0];
  const uint tx = lid % SYMV_TX, ty = lid / SYMV_TX;
  const long f0 = rfast ? r0 : c0, s0 = rfast ? c0 : r0;  // the fast and slow directions' first indices
  TYPE pf[4], ps[SYMV_NS];
  // With F_VEC (real f32 / f64 / f16: the fast direction contiguous, the base
  // and the other stride multiples of 4) a work-item's 4 fast indices are
  // neighbours, loaded as one pack; else they are SYMV_TX apart.
#if !COMPLEX
  const bool vec = (flags & F_VEC) != 0;
#else
  const bool vec = false;
#endif
  const uint fu = vec ? 4 * tx : tx, fstep = vec ? 1 : SYMV_TX;  // fast index u: fu + u fstep
  if (fast) {
    const long fs = rfast ? si : sj, ss = rfast ? sj : si;  // and their strides
    const long base = (long)ab + r0 * si + c0 * sj;
    TYPE xf[4], xs[SYMV_NS];
#pragma unroll
    for (int u = 0; u < 4; ++u) xf[u] = GET(x, xb, incx, f0 + fu + u * fstep), pf[u] = ZERO;
#pragma unroll
    for (int k = 0; k < SYMV_NS; ++k) xs[k] = GET(x, xb, incx, s0 + ty + k * SYMV_TY), ps[k] = ZERO;
#pragma unroll
    for (int k = 0; k < SYMV_NS; ++k) {
      const long line = base + (long)(ty + k * SYMV_TY) * ss + (long)fu * fs;
      TYPE v[4];
      blas2_symv_line(a, line, fs, vec, v);
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        // Element (r, c): the rows' products take it as it is, the mirrored
        // columns' its conjugate (Hermitian).
#if COMPLEX
        const TYPE vc = (flags & F_HERM) ? CONJ(v[u]) : v[u];
        const TYPE vf = rfast ? v[u] : vc, vs = rfast ? vc : v[u];
#else
        const TYPE vf = v[u], vs = v[u];
#endif
        pf[u] += MUL(vf, xs[k]);
        ps[k] += MUL(vs, xf[u]);
      }
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) tl[ty * SB + fu + u * fstep] = pf[u];
  } else
#else
  const bool fast = false;
#endif
  {
    // The block's stored elements into local memory (0 outside the matrix
    // and the triangle).
    for (uint e = lid; e < SB * SB; e += WGS) {
      const uint u = e % SB, v = e / SB;
      const uint r = rfast ? u : v, c = rfast ? v : u;
      const long gr = r0 + r, gc = c0 + c;
      TYPE val = ZERO;
      if (gr < (long)n && gc < (long)n && blas2_in_triangle(gr, gc, flags)) val = LDE(a, (long)ab + gr * si + gc * sj);
      tile[r][c] = val;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (fast) {
#if SYMV_FAST
    // The fast outputs (rows if rfast, else columns): the SYMV_TY slow
    // groups' sums in order.
    blas2_symv_sums(tl, SYMV_TY, part + (rfast ? bj : bi) * (long)n + f0, lid);
#endif
  } else {
    // Rows r0 + q against x over the block's columns.
    TYPE acc = ZERO;
    for (uint c = ph; c < SB && c0 + c < (long)n; c += nph) {
      TYPE v;
      if (!diag || blas2_in_triangle(q, c, flags)) {
        v = tile[q][c];
      } else {
        v = tile[c][q];
#if COMPLEX
        if (flags & F_HERM) v = CONJ(v);
#endif
      }
#if COMPLEX
      if (diag && q == c && (flags & F_HERM)) v.y = (REAL)0;
#endif
      acc += MUL(v, GET(x, xb, incx, c0 + c));
    }
    red[lid] = acc;
  }
  for (uint s = nph / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!fast && ph < s) red[lid] = red[lid] + red[lid + s * SB];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (fast) {
#if SYMV_FAST
#pragma unroll
    for (int k = 0; k < SYMV_NS; ++k) tl[tx * SB + ty + k * SYMV_TY] = ps[k];
#endif
  } else if (ph == 0 && r0 + q < (long)n) {
    part[bj * (long)n + r0 + q] = red[lid];
  }
  // The mirrored block: rows c0 + q against x over the rows of (bi, bj) (a
  // diagonal block writes nothing).
  barrier(CLK_LOCAL_MEM_FENCE);
  if (fast) {
#if SYMV_FAST
    // The slow outputs: the SYMV_TX fast groups' sums in order.
    blas2_symv_sums(tl, SYMV_TX, part + (rfast ? bi : bj) * (long)n + s0, lid);
#endif
  } else {
    TYPE acc = ZERO;
    for (uint r = ph; r < SB && r0 + r < (long)n; r += nph) {
      TYPE v = tile[r][q];
#if COMPLEX
      if (flags & F_HERM) v = CONJ(v);
#endif
      acc += MUL(v, GET(x, xb, incx, r0 + r));
    }
    red[lid] = acc;
  }
  for (uint s = nph / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!fast && ph < s) red[lid] = red[lid] + red[lid + s * SB];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!fast && !diag && ph == 0 && c0 + q < (long)n) part[bi * (long)n + c0 + q] = red[lid];
}



// Rank-1 and rank-2 updates of M (rows x cols; square for the triangles).
// Element (e, f) of the grid is (i, j) = (e, f), or (f, e) with F_SWAPIJ;
// the second dimension strides over f.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_rank(const ulong rows, const ulong cols, __global ST* a, const ulong ab, const long si, const long sj,
                const long np, __global const ST* u, const ulong ub, const long incu, __global const ST* v,
                const ulong vb, const long incv, const TYPE a1, const TYPE a2, const int flags) {
  const bool swap = (flags & F_SWAPIJ) != 0;
  const long e = (long)get_global_id(0), ne = swap ? (long)cols : (long)rows, nf = swap ? (long)rows : (long)cols;
  if (e >= ne) return;
  for (long f = (long)get_global_id(1); f < nf; f += (long)get_global_size(1)) {
    const long i = swap ? f : e, j = swap ? e : f;
    if ((flags & F_TRI) && !blas2_in_triangle(i, j, flags)) continue;
    const long at = (long)ab + ((flags & F_PACKED) ? blas2_packed(i, j, np, flags) : i * si + j * sj);
    // u has rows elements: u_j exists (and is needed) only in the rank-2
    // updates, which are square.
    const TYPE uj = (flags & F_RANK2) ? GET(u, ub, incu, j) : ZERO, vj = GET(v, vb, incv, j);
    const bool skip = (flags & F_RANK2) ? (ISZERO(uj) && ISZERO(vj)) : ISZERO(vj);
    TYPE m = LDE(a, at);
    if (!skip) {
      const TYPE ui = GET(u, ub, incu, i);
#if COMPLEX
      const bool c1 = (flags & F_C1) != 0, c2 = (flags & F_C2) != 0;
      m = m + MUL(c1 ? CONJ(ui) : ui, MUL(a1, c2 ? CONJ(vj) : vj));
      if (flags & F_RANK2) {
        const TYPE vi = GET(v, vb, incv, i);
        m = m + MUL(c1 ? CONJ(vi) : vi, MUL(a2, c2 ? CONJ(uj) : uj));
      }
#else
      m = m + ui * (a1 * vj);
      if (flags & F_RANK2) m = m + GET(v, vb, incv, i) * (a2 * uj);
#endif
    }
#if COMPLEX
    if ((flags & F_HERM) && i == j) m.y = (REAL)0;
    else if (skip) continue;
#else
    if (skip) continue;
#endif
    STE(a, at, m);
  }
}
