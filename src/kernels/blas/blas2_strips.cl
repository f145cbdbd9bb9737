// blas2_strips: the blas2 program's symv / hemv by column strips (STRIP > 0;
// measured slower than the blocks of blas2.cl and off by default; not
// compiled with HALF) and real symv by walks of tiles (WALK > 0; f16 storage
// too), after blas2_dense.cl.
//
// check-prepend: blas/blas_storage.cl blas/blas2_defs.cl blas/blas2_dense.cl
// check-variant: -DTYPE=double -DREAL=double -DVW=2 -DF64=1
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DHALF=1 -DWGS=128 -DSB=64

#if !HALF
// symv / hemv in dense storage by column strips (STRIP > 0), each stored
// element read once, in the view where the stored triangle's columns are
// contiguous (B(r, c) at ab + r + c lda; the host flips the triangle of a
// row-major matrix, and F_CONJ conjugates every element read of a row-major
// Hermitian one, whose transpose is its conjugate). Group (c, J) owns the SB
// columns of strip J with x over them in registers, and chunk c of the
// strip's rows outside its diagonal block (STRIP rows, a multiple of SB):
// lower: rows past the diagonal block, upper: rows above it. A work-item per
// row r sums that row against the strip (p1: y_r += M(r, strip) x_strip,
// written to part[J n + r]) and adds the row into the strip's column sums
// (p2: M(strip, r) x_r, in registers). Chunk 0 also computes the diagonal
// block's rows in full (both triangles; slot J). The column sums of the
// group's work-items go through local memory, and land in slot nb + c of the
// strip's rows. Every (slot, row) is written once; each row block of SB rows
// counts its arrivals (one per slot, the diagonal's two at once), and the
// group that brings the last adds the row block's slots in slot order and
// writes y (deterministic).
OPTUNE_FUNC long blas2_strip_rows(const long n, const long nb, const long j, const int flags) {
  // Rows of strip j outside its diagonal block.
  if (flags & F_UPPER) return j * SB;
  const long past = (j + 1) * SB;
  return past < n ? n - past : 0;
}
OPTUNE_FUNC long blas2_strip_chunks(const long n, const long nb, const long j, const long rch, const int flags) {
  const long rows = blas2_strip_rows(n, nb, j, flags);
  return rows > 0 ? (rows + rch - 1) / rch : 1;
}
// Arrivals at row block rb: p1 from every strip that holds it (the
// diagonal's included), p2 from each chunk of its own strip.
OPTUNE_FUNC uint blas2_strip_arrivals(const long n, const long nb, const long rb, const long rch, const int flags) {
  const long p1 = (flags & F_UPPER) ? nb - rb : rb + 1;
  return (uint)(p1 + blas2_strip_chunks(n, nb, rb, rch, flags));
}

// Slot of the e-th term of a row block's sum: p1's np1 strips from s0, then
// p2's chunks from nb.
OPTUNE_FUNC long blas2_strip_slot(const long e, const long s0, const long np1, const long nb) {
  return e < np1 ? s0 + e : nb + (e - np1);
}

#if COMPLEX
#define HCONJ(v) ((flags & F_HERM) ? CONJ(v) : (v))
#else
#define HCONJ(v) (v)
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_symv_strips(const ulong un, __global const TYPE* a, const ulong ab, const long lda,
                       __global const TYPE* x, const ulong xb, const long incx, __global TYPE* y, const ulong yb,
                       const long incy, const TYPE alpha, const TYPE beta, const int flags, const ulong rch,
                       __global TYPE* part, __global uint* count) {
  __local TYPE cs[SB][WGS / 2 + 1];
  __local uint last[WGS];
  const uint lid = get_local_id(0);
  const long n = (long)un, nb = (n + SB - 1) / SB;
  const long j = (long)get_group_id(1), c = (long)get_group_id(0);
  const long c0 = j * SB, cw = n - c0 < SB ? n - c0 : SB;
  const bool active = c < blas2_strip_chunks(n, nb, j, (long)rch, flags);
  const bool upper = (flags & F_UPPER) != 0, cj = (flags & F_CONJ) != 0;
  // This chunk's rows outside the diagonal block: [r0, r1).
  const long first = upper ? 0 : c0 + SB;
  const long all = blas2_strip_rows(n, nb, j, flags);
  const long r0 = first + c * (long)rch;
  const long r1 = !active ? r0 : (c + 1) * (long)rch < all ? r0 + (long)rch : first + all;
  TYPE xs[SB], acc[SB];
  for (int k = 0; k < SB; ++k) {
    xs[k] = k < cw ? AT(x, xb, incx, c0 + k) : ZERO;
    acc[k] = ZERO;
  }
  for (long r = r0 + lid; r < r1; r += WGS) {
    const TYPE xr = AT(x, xb, incx, r);
    __global const TYPE* row = a + (long)ab + r + c0 * lda;
    TYPE s = ZERO;
    for (int k = 0; k < SB; ++k) {
      if (k < cw) {
        const TYPE v = CONJ_IF(row[k * lda], cj);
        s += MUL(v, xs[k]);
        acc[k] += MUL(HCONJ(v), xr);
      }
    }
    part[j * n + r] = s;
  }
  // The diagonal block's rows, in full (chunk 0).
  if (active && c == 0 && lid < cw) {
    const long r = c0 + lid;
    TYPE s = ZERO;
    for (int k = 0; k < SB; ++k) {
      if (k < cw) {
        const long cc = c0 + k;
        const bool in = upper ? r <= cc : r >= cc;
        TYPE v = in ? CONJ_IF(a[(long)ab + r + cc * lda], cj) : HCONJ(CONJ_IF(a[(long)ab + cc + r * lda], cj));
#if COMPLEX
        if ((flags & F_HERM) && r == cc) v.y = (REAL)0;
#endif
        s += MUL(v, xs[k]);
      }
    }
    part[j * n + r] = s;
  }
  // The column sums: each work-item's (the second half of the group adding
  // into the first half's, so the group needs SB (WGS / 2 + 1) elements of
  // local memory), then each column's WGS / 2 by WGS / SB parts.
  const uint hw = WGS / 2;
  if (lid < hw)
    for (int k = 0; k < SB; ++k) cs[k][lid] = acc[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid >= hw)
    for (int k = 0; k < SB; ++k) cs[k][lid - hw] += acc[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint col = lid % SB, parts = WGS / SB, q = lid / SB, per = hw / parts;
  TYPE t = ZERO;
  for (uint e = q * per; e < (q + 1) * per; ++e) t += cs[col][e];
  barrier(CLK_LOCAL_MEM_FENCE);
  cs[col][q] = t;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (active && lid < cw) {
    TYPE u = cs[lid][0];
    for (uint e = 1; e < parts; ++e) u += cs[lid][e];
    part[(nb + c) * n + c0 + lid] = u;
  }
  // Arrivals: the row blocks of [r0, r1), then strip j's own (the diagonal's
  // p1 with chunk 0's p2: two).
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const long b0 = r0 / SB, touched = active ? (r1 - r0 + SB - 1) / SB + 1 : 0;
  for (long base = 0; base < touched; base += WGS) {
    const long e = base + lid;
    if (e < touched) {
      const long rb = e == touched - 1 ? j : b0 + e;
      const uint inc = e == touched - 1 && c == 0 ? 2u : 1u;
      const uint old = atomic_add(&count[rb], inc);
      last[lid] = old + inc == blas2_strip_arrivals(n, nb, rb, (long)rch, flags) ? 1u : 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    const long m = touched - base < WGS ? touched - base : WGS;
    for (long f = 0; f < m; ++f) {
      if (!last[f]) continue;
      const long rb = base + f == touched - 1 ? j : b0 + base + f;
      // Row rb SB + col; its slots in order (p1: upper strips rb .. nb - 1,
      // lower 0 .. rb; then p2's chunks) split into `parts` fixed ranges, one
      // per work-item, whose sums are added in range order.
      const long i = rb * SB + col;
      const long s0 = upper ? rb : 0, np1 = (upper ? nb : rb + 1) - s0;
      const long total = np1 + blas2_strip_chunks(n, nb, rb, (long)rch, flags);
      const long per2 = (total + parts - 1) / parts, e0 = q * per2, e1 = e0 + per2 < total ? e0 + per2 : total;
      TYPE sum = ZERO;
      if (i < n) {
        long g = e0;
        for (; g + 3 < e1; g += 4) {
          const TYPE v0 = blas2_read_part(part, blas2_strip_slot(g, s0, np1, nb) * n + i);
          const TYPE v1 = blas2_read_part(part, blas2_strip_slot(g + 1, s0, np1, nb) * n + i);
          const TYPE v2 = blas2_read_part(part, blas2_strip_slot(g + 2, s0, np1, nb) * n + i);
          const TYPE v3 = blas2_read_part(part, blas2_strip_slot(g + 3, s0, np1, nb) * n + i);
          sum += v0;
          sum += v1;
          sum += v2;
          sum += v3;
        }
        for (; g < e1; ++g) sum += blas2_read_part(part, blas2_strip_slot(g, s0, np1, nb) * n + i);
      }
      cs[col][q] = sum;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (q == 0 && i < n) {
        TYPE all_ = cs[col][0];
        for (uint g = 1; g < parts; ++g) all_ += cs[col][g];
        const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : AT(y, yb, incy, i);
        AT(y, yb, incy, i) = blas2_finish(all_, alpha, beta, yold, flags);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif  // !HALF

#if SYMV_FAST && !COMPLEX
// symv in dense storage, real types (f16 storage too), by walks (WALK > 0): group (c, S) owns
// the SB columns of the stored triangle's block column S (in the view
// (f, s), f the contiguous direction) with x over them in registers, and
// walks chunk c of its SB x SB tiles along f (`ch` tiles; lower in that
// view: F = S ... nb - 1, upper: 0 ... S). Each work-item holds a 4 x
// SYMV_NS piece of a tile as blas2_symv_blocks does and forms both products:
// the tile's rows against x over S (reduced over the group through local
// memory once per tile, double-buffered so one barrier does) into slot S of
// those rows, part[S n + f]; its columns against x over the tile's rows
// (M(s, f) = M(f, s)), kept in registers for the whole walk. At the end the
// column sums (plus the diagonal tile's row sums, whose slot is the same)
// land in one slot of the chunk's tiles and zeros in the others, so every
// slot (K, i) is written once and blas2_mv_final adds the nb slots of y_i in
// order, as after blas2_symv_blocks. The tiles on the diagonal or past n take
// the stored elements one by one with the triangle's test (the diagonal's
// element once, in the row sums). The column sums' x loads and the rows'
// reduction are paid once per tile of SB x SB instead of once per group.
#define WALK_RED (2 * SYMV_TY * SB > SYMV_TX * (SB + 1) ? 2 * SYMV_TY * SB : SYMV_TX * (SB + 1))
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_symv_walk(const ulong n, __global const ST* a, const ulong ab, const long si, const long sj,
                     __global const ST* x, const ulong xb, const long incx, const int flags, const uint ch,
                     __global TYPE* part) {
  __local TYPE red[WALK_RED];
  const uint lid = get_local_id(0), tx = lid % SYMV_TX, ty = lid / SYMV_TX;
  const long nb = ((long)n + SB - 1) / SB, S = (long)get_group_id(1), c = (long)get_group_id(0);
  const bool rfast = si == 1;
  const bool lowf = rfast != ((flags & F_UPPER) != 0);  // stored: f >= s
  const long count = lowf ? nb - S : S + 1;
  // A group past its column's chunks walks nothing and writes nothing (it
  // meets the barriers: PoCL's regions want every work-item at each).
  const bool active = c * (long)ch < count;
  const long F0 = (lowf ? S : 0) + c * (long)ch, F1 = active ? min(F0 + (long)ch, lowf ? nb : S + 1) : F0;
  const long fs = rfast ? si : sj, ss = rfast ? sj : si, s0 = S * SB;
  const bool vec = (flags & F_VEC) != 0;
  const uint fu = vec ? 4 * tx : tx, fstep = vec ? 1 : SYMV_TX;  // fast index u: fu + u fstep
  TYPE xs[SYMV_NS], ps[SYMV_NS];
#pragma unroll
  for (int k = 0; k < SYMV_NS; ++k) {
    const long sk = s0 + ty + k * SYMV_TY;
    xs[k] = sk < (long)n ? GET(x, xb, incx, sk) : ZERO;
    ps[k] = ZERO;
  }
  TYPE dg = ZERO;  // the diagonal tile's row sum of row s0 + lid
  uint buf = 0;
  for (long F = F0; F < F1; ++F) {
    const long f0 = F * SB;
    const bool full = F != S && f0 + SB <= (long)n && s0 + SB <= (long)n;
    TYPE xf[4], pf[4], v[SYMV_NS][4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const long f = f0 + fu + u * fstep;
      xf[u] = f < (long)n ? GET(x, xb, incx, f) : ZERO;
      pf[u] = ZERO;
    }
    if (full) {
      const long base = (long)ab + f0 * fs + s0 * ss;
#pragma unroll
      for (int k = 0; k < SYMV_NS; ++k)
        blas2_symv_line(a, base + (long)(ty + k * SYMV_TY) * ss + (long)fu * fs, fs, vec, v[k]);
#pragma unroll
      for (int k = 0; k < SYMV_NS; ++k)
#pragma unroll
        for (int u = 0; u < 4; ++u) {
          pf[u] += v[k][u] * xs[k];
          ps[k] += v[k][u] * xf[u];
        }
    } else {
#pragma unroll
      for (int k = 0; k < SYMV_NS; ++k)
#pragma unroll
        for (int u = 0; u < 4; ++u) {
          const long f = f0 + fu + u * fstep, sk = s0 + ty + k * SYMV_TY;
          const bool in = f < (long)n && sk < (long)n && (lowf ? f >= sk : f <= sk);
          const TYPE e = in ? LDE(a, (long)ab + f * fs + sk * ss) : ZERO;
          pf[u] += e * xs[k];
          if (f != sk) ps[k] += e * xf[u];  // the diagonal's element once, in the rows
        }
    }
    // The tile's row sums over the group's SYMV_TY slow lines, in order.
    OPTUNE_LOCAL_PTR TYPE* rb = red + buf * (SYMV_TY * SB);
#pragma unroll
    for (int u = 0; u < 4; ++u) rb[ty * SB + fu + u * fstep] = pf[u];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < SB) {
      TYPE sum = ZERO;
      for (uint t = 0; t < SYMV_TY; ++t) sum += rb[t * SB + lid];
      if (F == S) dg = sum;
      else if (f0 + (long)lid < (long)n) part[S * (long)n + f0 + lid] = sum;
    }
    buf ^= 1u;
  }
  // The column sums over the group's SYMV_TX fast lines, in order (the
  // buffers' last readers are past this barrier).
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int k = 0; k < SYMV_NS; ++k) red[tx * (SB + 1) + ty + k * SYMV_TY] = ps[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  const long sl = s0 + lid;
  if (active && lid < SB && sl < (long)n) {
    TYPE sum = dg;
    for (uint t = 0; t < SYMV_TX; ++t) sum += red[t * (SB + 1) + lid];
    const long d = S >= F0 && S < F1 ? S : F0;  // the diagonal's slot where the chunk has it
    for (long F = F0; F < F1; ++F) part[F * (long)n + sl] = F == d ? sum : ZERO;
  }
}
#endif
