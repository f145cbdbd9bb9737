// blas_tri: BLAS level-2 triangular routines (trmv, tbmv, tpmv, trsv, tbsv,
// tpsv) in s, d, c and z, one program per type and parameters.
//
// The host reduces every call to one form (src/ops/blas_tri.cpp):
// - the stored matrix B is column-major (a row-major A is B = A^T with the
//   triangle flipped and the transposition toggled), in one of three
//   storage forms: full (B(r, c) at r + c lda), band (k diagonals beside the
//   main one, netlib's band storage: upper B(r, c) at k + r - c + c lda,
//   lower at r - c + c lda) or packed (upper r + c (c + 1) / 2, lower
//   r + c (2n - c - 1) / 2);
// - M = op(B) (B, B^T, or either conjugated) is the matrix applied; the
//   kernel works in "solve order": when M is upper, index i stands for
//   n - 1 - i (REV), so that M is lower in those indices, and row i's
//   entries lie in columns max(0, i - k) .. i (k = n - 1 for full and
//   packed).
// Along a row, M(i, j)'s address is affine in j (step +-lda, +-(lda - 1) or
// +-1) in every form but packed storage not transposed: rows are walked by
// address increments, eight loads in flight per work-item (tri_row).
//
// Both routines go by panels of NB rows: WGS work-items as NB rows times
// L = WGS / NB lanes along the columns (rows vary fastest between
// neighbouring work-items where M's rows are B's rows, ROWS_FAST:
// column-major B read down its columns, coalesced; else lanes vary
// fastest, along B's columns). Each lane sums its columns in order, then
// row r's L lane sums are added in lane order (deterministic).
//
// tri_mv (trmv, tbmv, tpmv): x = M xs, xs a contiguous copy of x in solve
// order (tri_gather, which also zeroes the panels' counters). The grid is
// panels x slices: group (t, s) sums panel t's rows over columns
// lo0 + s sw .. lo0 + (s + 1) sw - 1 of the panel's span lo0 .. i0 + NB - 1
// (sw, the family's SW, is an argument, not a define; 0: one slice), so that A's triangle streams through
// many groups; groups past their panel's span return at once. With one
// slice the group writes x; with several, each writes its sums to
// part[s n + i], fences and counts itself on the panel's counter; the
// group that counts last adds the slices (lane l slices l, l + L, ..., the
// lanes then in order: a fixed order, deterministic) and writes x. A's triangle is read once; unit diagonals are not read.
//
// tri_sv (trsv, tbsv, tpsv): one launch of ceil(n / NB) groups, left
// looking. A group takes a ticket (an atomic counter: tickets follow the
// groups' start, so every group it waits for has started and will finish,
// whatever order the device runs them in) and solves panel t = ticket.
// Before waiting on anything it loads its diagonal block into local memory
// and inverts it in place (a column sweep, 3 NB barriers), keeps its row of
// the inverse and of the block (t, t - 1) in registers, and reads its
// right-hand side. Then it streams the blocks (t, b), b < t - 1 (within the
// band), as the chain solves them: lid 0 reads the count of solved panels
// (flags[1]), the group subtracts M(rows, solved columns) xs(columns), and
// waits again until block t - 2 is in. Only then does it wait for panel
// t - 1, and the chain's step is short: x_t = inv(D_t) (d - M(t, t - 1)
// x_{t-1}), two NB x NB products from registers, then the panel's x is
// written (to x and to xs, the solved values that later panels read),
// fenced, and flags[1] = t + 1. With helpers (the family's HELP > 0) the
// panel's rows are streamed by HELP more groups instead: tickets
// t (HELP + 1) + h, helpers h < HELP first (each waits only on earlier
// tickets), helper h taking blocks lo0 / NB + h, + HELP, ..., writing its
// sums to part and counting itself on flags[2 + t]; the solving group
// subtracts their sums in helper order. xs and the flags are scratch; the
// host zeroes the flags before the launch (flags[0] is the ticket
// counter). A is read once; the critical path is n / NB steps. With panel
// >= 0 (the host's PERSIST = 0: CPUs) the launch is one group solving that
// panel, after the launches of the earlier ones: no ticket, count, helper
// or wait. Barriers stay outside role-dependent blocks where they can
// (PoCL computed wrong results with the roles' whole bodies in an if/else).
//
// The parameters, the arithmetic, the problem's address maps and the row
// sums are in blas_tri_defs.cl, put before this text.
//
// check-prepend: blas/blas_storage.cl blas/blas_tri_defs.cl
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=float -DREAL=float -DNB=16 -DWGS=64
// check-variant: -DTYPE=double -DREAL=double -DNB=64
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DNB=16
// check-variant: -DTYPE=float -DREAL=float -DNB=8 -DWGS=256
// check-variant: -DHALF=1 -DNB=16 -DWGS=64
// check-variant: -DHALF=1

// xs[i] = x(i) in solve order; count[0 .. panels - 1] = 0 (tri_mv's).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void tri_gather(const ulong n, const int rev, __global const ST* x, const ulong xb, const long incx,
                __global TYPE* xs, __global uint* count, const ulong panels) {
  const ulong i = get_global_id(0);
  if (i < panels) count[i] = 0u;
  if (i >= n) return;
  const ulong e = rev ? n - 1 - i : i;
  xs[i] = LDE(x, (long)xb + (long)e * incx);
}

// Adds row r's lane sums (in lane order) into red[r * L]; returns it for
// work-items with lane 0 (others: garbage). Leaves a barrier behind.
OPTUNE_FUNC TYPE tri_lane_sum(OPTUNE_LOCAL_PTR TYPE* red, const int row, const int lane, const TYPE acc) {
  red[row * L + lane] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  TYPE s = red[row * L];
  for (int q = 1; q < L; ++q) s += red[row * L + q];
  barrier(CLK_LOCAL_MEM_FENCE);
  return s;
}

// The products' end, every work-item: row i's sum (lane 0's, in the
// (row, lane) order of PROBLEM) goes to x (xi: its index) with one slice;
// with several, to part[s n + i], and the panel's group that counts last
// on count[t] adds the slices: lane l of row i adds slices l, l + L, ...,
// four loads in flight, then the lanes are added in order (a fixed order).
OPTUNE_FUNC void tri_mv_end(OPTUNE_LOCAL_PTR TYPE* red, OPTUNE_LOCAL_PTR uint* last, const TYPE sum,
                            __global ST* x, const long xi, __global TYPE* part, __global uint* count, const ulong t,
                            const ulong s, const ulong slices, const int active, const ulong n, const ulong i,
                            const int row, const int lane, const int lid) {
  const int writes = active && i < n && lane == 0;
  if (writes && slices == 1) STE(x, xi, sum);
  if (writes && slices > 1) part[s * n + i] = sum;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lid == 0) *last = active && slices > 1 && atomic_inc(&count[t]) == (uint)(slices - 1) ? 1u : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int fin = *last != 0u;
  if (fin) mem_fence(CLK_GLOBAL_MEM_FENCE);
  TYPE own = ZERO;
  if (fin && active && i < n) {
    ulong q = (ulong)lane;
    for (; q + 3 * L < slices; q += 4 * L) {
      const TYPE p0 = tri_fresh(part, q * n + i), p1 = tri_fresh(part, (q + L) * n + i);
      const TYPE p2 = tri_fresh(part, (q + 2 * L) * n + i), p3 = tri_fresh(part, (q + 3 * L) * n + i);
      own += p0;
      own += p1;
      own += p2;
      own += p3;
    }
    for (; q < slices; q += L) own += tri_fresh(part, q * n + i);
  }
  const TYPE total = tri_lane_sum(red, row, lane, own);
  if (fin && writes) STE(x, xi, total);
}

// The products' slice: group (t, s) of the grid; sets the panel's columns
// ja .. jb - 1 of slice s, the number of slices, and whether s is one.
#define SLICE                                                                                          \
  const ulong t = get_group_id(0), s = get_group_id(1);                                                \
  const ulong i0 = t * NB;                                                                             \
  const ulong lo0 = i0 > k ? i0 - k : 0, hi0 = min(n, i0 + NB);                                        \
  const ulong width = sw > 0 ? sw : hi0 - lo0;                                                         \
  const ulong slices = (hi0 - lo0 + width - 1) / width;                                                \
  /* Groups past the panel's span do nothing, but reach every barrier      \
     (PoCL loses the rest of a kernel after a return before a barrier). */ \
  const int active = s < slices;                                                                       \
  const ulong ja = lo0 + s * width, jb = min(hi0, ja + width);

// part: the slices' sums (slice s of row i at s n + i); count: the panels'
// counters, zeroed by tri_gather; sw: columns per slice (0: the span).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void tri_mv(PROBLEM_ARGS, __global ST* x, const ulong xb, const long incx, __global const TYPE* xs,
            __global TYPE* part, __global uint* count, const ulong sw) {
  PROBLEM
  SLICE
  __local TYPE red[WGS];
  __local uint last;
  const ulong i = i0 + row;
  TYPE acc = ZERO;
  if (active && i < n) {
    const ulong lo = i > k ? i - k : 0;
    acc = tri_row(a, &pr, i, tri_first(ja, lane, lo, L), min(jb, i), xs, 0, acc, L);
    if (lane == 0 && ja <= i && i < jb) acc += unit ? xs[i] : MUL(tri_m(a, &pr, i, i), xs[i]);
  }
  const TYPE sum = tri_lane_sum(red, row, lane, acc);
  tri_mv_end(red, &last, sum, x, tri_x(&pr, xb, incx, i), part, count, t, s, slices, active, n, i, row, lane, lid);
}

// Row r's columns of the slice (ja .. jb - 1) outside the quad's common
// range cs .. ce - 1 (all of them when that is empty), and its diagonal.
OPTUNE_FUNC TYPE tri_edges(const __global ST* a, const tri_problem* p, const ulong r, const ulong ja, const ulong jb,
                           const ulong cs, const ulong ce, const int qlane, const __global TYPE* xs, TYPE acc) {
  const ulong ar = max(ja, r > p->k ? r - p->k : 0), br = min(jb, r);
  const ulong left = cs < ce ? min(cs, br) : br, right = cs < ce ? max(ce, ar) : br;
  acc = tri_row(a, p, r, tri_first(ja, qlane, ar, LQ), left, xs, 0, acc, LQ);
  acc = tri_row(a, p, r, tri_first(ja, qlane, right, LQ), br, xs, 0, acc, LQ);
  if (qlane == 0 && ja <= r && r < jb) acc += p->unit ? xs[r] : MUL(tri_m(a, p, r, r), xs[r]);
  return acc;
}

#if COMPLEX || HALF
#define TRI_QUAD_VEC 0   // (the host sets vec for f32 and f64 only)
#else
#define TRI_QUAD_VEC 1
#define VEC4 OPTUNE_CAT(TYPE, 4)
// The quad's four terms of column j: m holds rows i .. i + 3 in address
// order (descending rows when rev).
#define TRI_QUAD_ADD(m, v)                                                                             \
  if (rev) {                                                                                           \
    acc0 += (m).w * (v); acc1 += (m).z * (v); acc2 += (m).y * (v); acc3 += (m).x * (v);                \
  } else {                                                                                             \
    acc0 += (m).x * (v); acc1 += (m).y * (v); acc2 += (m).z * (v); acc3 += (m).w * (v);                \
  }
#endif

// tri_mv with four rows per work-item (the family's RV = 4): QN quads of
// rows times LQ lanes. Where the host finds the quads' four elements of a
// column consecutive and aligned (vec: real types, full or band storage
// not transposed, offsets and lda (band: lda - 1) multiples of 4, and with
// rev (ab + n) too), the columns every row of the quad has are read as one
// 4-wide load; elsewhere, and at each row's edges (band start, diagonal),
// element by element.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void tri_mv4(PROBLEM_ARGS, __global ST* x, const ulong xb, const long incx, __global const TYPE* xs,
             __global TYPE* part, __global uint* count, const ulong sw, const int vec) {
  PROBLEM
  SLICE
  __local TYPE red[4 * WGS];
  __local uint last;
  const int quad = rows_fast ? lid % QN : lid / LQ;
  const int qlane = rows_fast ? lid / QN : lid % LQ;
  const ulong iq = i0 + 4 * (ulong)quad;
  TYPE acc0 = ZERO, acc1 = ZERO, acc2 = ZERO, acc3 = ZERO;
  if (active && iq < n) {
    const int rows = (int)min((ulong)4, n - iq);
    const ulong il = iq + (ulong)rows - 1;
    // Columns every row of the quad has in this slice.
    const ulong cs = max(ja, il > k ? il - k : 0), ce = min(jb, iq);
    if (cs < ce) {
      const ulong j0 = tri_first(ja, qlane, cs, LQ);
#if TRI_QUAD_VEC
      if (vec && rows == 4) {
        ulong j = j0;
        const long st = pr.step * LQ;
        long at = (long)tri_idx(&pr, iq, j) - (rev ? 3 : 0);
        for (; j + LQ < ce; j += 2 * LQ, at += 2 * st) {
          const VEC4 m0 = *(const __global VEC4*)(a + at), m1 = *(const __global VEC4*)(a + at + st);
          const TYPE v0 = xs[j], v1 = xs[j + LQ];
          TRI_QUAD_ADD(m0, v0)
          TRI_QUAD_ADD(m1, v1)
        }
        if (j < ce) {
          const VEC4 m0 = *(const __global VEC4*)(a + at);
          const TYPE v0 = xs[j];
          TRI_QUAD_ADD(m0, v0)
        }
      } else
#endif
      {
        acc0 = tri_row(a, &pr, iq, j0, ce, xs, 0, acc0, LQ);
        if (rows > 1) acc1 = tri_row(a, &pr, iq + 1, j0, ce, xs, 0, acc1, LQ);
        if (rows > 2) acc2 = tri_row(a, &pr, iq + 2, j0, ce, xs, 0, acc2, LQ);
        if (rows > 3) acc3 = tri_row(a, &pr, iq + 3, j0, ce, xs, 0, acc3, LQ);
      }
    }
    acc0 = tri_edges(a, &pr, iq, ja, jb, cs, ce, qlane, xs, acc0);
    if (rows > 1) acc1 = tri_edges(a, &pr, iq + 1, ja, jb, cs, ce, qlane, xs, acc1);
    if (rows > 2) acc2 = tri_edges(a, &pr, iq + 2, ja, jb, cs, ce, qlane, xs, acc2);
    if (rows > 3) acc3 = tri_edges(a, &pr, iq + 3, ja, jb, cs, ce, qlane, xs, acc3);
  }
  // Row r's LQ lane sums at red[r LQ ...], added in lane order by the
  // (row, lane 0) work-item of PROBLEM's order.
  red[(4 * quad) * LQ + qlane] = acc0;
  red[(4 * quad + 1) * LQ + qlane] = acc1;
  red[(4 * quad + 2) * LQ + qlane] = acc2;
  red[(4 * quad + 3) * LQ + qlane] = acc3;
  barrier(CLK_LOCAL_MEM_FENCE);
  TYPE sum = ZERO;
  if (lane == 0) {
    sum = red[row * LQ];
    for (int q = 1; q < LQ; ++q) sum += red[row * LQ + q];
  }
  const ulong i = i0 + row;
  tri_mv_end(red, &last, sum, x, tri_x(&pr, xb, incx, i), part, count, t, s, slices, active, n, i, row, lane, lid);
}

// Inverts the lower nb x nb block d ((r, c) at r + c NB, zero above the
// diagonal) in place: the column sweep of D X = I, X overwriting D column
// by column (col: the column being eliminated). Unit: D's diagonal is 1
// and not read. Every work-item calls it.
OPTUNE_FUNC void tri_invert(OPTUNE_LOCAL_PTR TYPE* d, OPTUNE_LOCAL_PTR TYPE* col, const int nb, const int lid,
                            const int unit) {
  for (int c = 0; c < nb; ++c) {
    for (int r = c + 1 + lid; r < nb; r += WGS) col[r] = d[r + c * NB];
    const TYPE pivot = d[c + c * NB];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Row c of X: X(c, q) / D(c, c) for q <= c (X(c, c) is still 1).
    for (int q = lid; q <= c; q += WGS) {
      const TYPE v = q == c ? tri_one() : d[c + q * NB];
      d[c + q * NB] = unit ? v : DIV(v, pivot);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Rows below: X(r, q) -= D(r, c) X(c, q), q <= c (X(r, c) was 0).
    const int below = nb - c - 1;
    for (int e = lid; e < below * (c + 1); e += WGS) {
      const int r = c + 1 + e % below, q = e / below;
      const TYPE old = q == c ? ZERO : d[r + q * NB];
      d[r + q * NB] = old - MUL(col[r], d[c + q * NB]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// flags: [0] the ticket counter, [1] the number of solved panels (they are
// solved in order), [2 + t] panel t's helpers done. xs: solved values in
// solve order. helpers: groups per panel that stream its rows for the
// solving group (0: it streams them itself; the host passes 0 with panel
// >= 0); part: their sums, helper h of panel t at (t helpers + h) NB.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void tri_sv(PROBLEM_ARGS, __global ST* x, const ulong xb, const long incx, __global TYPE* xs,
            __global uint* flags, const long panel, const uint helpers, __global TYPE* part) {
  PROBLEM
  __local TYPE red[WGS];
  __local TYPE dinv[NB * NB];  // the diagonal block, then its inverse: (r, c) at r + c NB
  __local TYPE vec[NB];
  __local TYPE col[NB];
  __local uint shared;
  if (lid == 0) shared = panel >= 0 ? (uint)panel : atomic_inc(&flags[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  // Tickets t (helpers + 1) + h: panel t's helpers h < helpers, then its
  // solving group (h = helpers), so that each waits only on earlier tickets.
  const uint ticket = shared;
  const ulong t = ticket / (helpers + 1u);
  const uint role = ticket % (helpers + 1u);
  const ulong i0 = t * NB;
  const int nb = (int)min((ulong)NB, n - i0);
  const ulong i = i0 + row;
  const int live = row < nb;
  const ulong lo0 = i0 > k ? i0 - k : 0, lo = i > k ? i - k : 0;
  const ulong before = t > 0 ? t - 1 : 0;
  const int solves = role == helpers;
  TYPE acc = ZERO;
  // Private arrays and values at the kernel's scope, and barriers outside
  // role-dependent blocks where they can be (PoCL).
  TYPE mprev[PER], drow[PER];
  TYPE b = ZERO;
  if (!solves) {
    // A helper: blocks lo0 / NB + role, + helpers, ... below t - 1, each
    // once the chain has solved it; then its sums to part, and a count.
    for (ulong blk = lo0 / NB + role; blk < before; blk += helpers) {
      if (lid == 0) {
        while (atomic_or(&flags[1], 0u) <= blk) {
        }
      }
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      if (live) acc = tri_row(a, &pr, i, tri_first(blk * NB, lane, lo, L), blk * NB + NB, xs, 1, acc, L);
    }
  }
  const TYPE hsum = tri_lane_sum(red, row, lane, acc);
  if (!solves) {
    if (lane == 0) part[(t * helpers + role) * NB + row] = hsum;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
  }
  // The solving group. Nothing here waits: the diagonal block (zero outside
  // the panel and the band), the block (t, t - 1) and the right-hand side.
  for (int e = lid; e < NB * NB; e += WGS) {
    const int r = e % NB, c = e / NB;
    const ulong ii = i0 + r, jj = i0 + c;
    TYPE v = ZERO;
    if (solves && r < nb && c < nb && c <= r && jj + k >= ii) v = c == r && unit ? tri_one() : tri_m(a, &pr, ii, jj);
    dinv[e] = v;
  }
  for (int m = 0; m < PER; ++m) {
    const int c = lane + m * L;
    const ulong jj = i0 - NB + (ulong)c;
    mprev[m] = solves && t > 0 && live && c < NB && jj + k >= i ? tri_m(a, &pr, i, jj) : ZERO;
  }
  if (solves && live && lane == 0) b = LDE(x, tri_x(&pr, xb, incx, i));
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (!solves && lid == 0) atomic_inc(&flags[2 + t]);
  tri_invert(dinv, col, solves ? nb : 0, lid, unit);
  for (int m = 0; m < PER; ++m) {
    const int c = lane + m * L;
    drow[m] = c < NB ? dinv[row + c * NB] : ZERO;
  }
  // Without helpers, the blocks (t, b), b < t - 1 within the band, as the
  // chain solves them.
  acc = ZERO;
  for (ulong blk = lo0 / NB; helpers == 0u && blk < before;) {
    barrier(CLK_LOCAL_MEM_FENCE);  // every work-item has read `shared`
    if (lid == 0) {
      uint done = panel >= 0 ? (uint)t : atomic_or(&flags[1], 0u);
      while (done <= blk) done = atomic_or(&flags[1], 0u);
      shared = done;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    const ulong upto = min((ulong)shared, before);
    if (live) acc = tri_row(a, &pr, i, tri_first(blk * NB, lane, lo, L), upto * NB, xs, 1, acc, L);
    blk = upto;
  }
  TYPE d = b - tri_lane_sum(red, row, lane, acc);  // lane 0's
  if (solves && helpers > 0u) {
    // The helpers' sums, in helper order.
    if (lid == 0) {
      while (atomic_or(&flags[2 + t], 0u) < helpers) {
      }
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  if (solves && lane == 0)
    for (uint h = 0; h < helpers; ++h) d -= tri_fresh(part, (t * helpers + h) * NB + (ulong)row);
  // The chain's step: wait for panel t - 1, z = d - M(t, t - 1) x_{t-1},
  // x_t = inv(D) z.
  TYPE z = d;
  if (solves && t > 0 && lid == 0 && panel < 0) {
    while (atomic_or(&flags[1], 0u) < (uint)t) {
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  if (lid < NB) vec[lid] = solves && t > 0 ? tri_fresh(xs, i0 - NB + (ulong)lid) : ZERO;
  barrier(CLK_LOCAL_MEM_FENCE);
  TYPE u = ZERO;
  for (int m = 0; m < PER; ++m)
    if (lane + m * L < NB) u += MUL(mprev[m], vec[lane + m * L]);
  z = d - tri_lane_sum(red, row, lane, u);
  if (lane == 0) col[row] = live ? z : ZERO;
  barrier(CLK_LOCAL_MEM_FENCE);
  u = ZERO;
  for (int m = 0; m < PER; ++m)
    if (lane + m * L < NB) u += MUL(drow[m], col[lane + m * L]);
  const TYPE xt = tri_lane_sum(red, row, lane, u);
  if (solves && live && lane == 0) {
    xs[i] = xt;
    STE(x, tri_x(&pr, xb, incx, i), xt);
  }
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (solves && lid == 0 && panel < 0) atomic_xchg(&flags[1], (uint)(t + 1));
}
