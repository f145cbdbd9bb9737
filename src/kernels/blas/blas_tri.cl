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
//
// Both routines go by panels of NB rows, one work-group each: WGS
// work-items as NB rows times L = WGS / NB lanes along the columns (rows
// vary fastest between neighbouring work-items where M's rows are B's
// rows, ROWS_FAST: column-major B read down its columns, coalesced; else
// lanes vary fastest, along B's columns). Each lane sums its columns in
// order, then row r's L lane sums are added in lane order (deterministic).
//
// tri_mv (trmv, tbmv, tpmv): x = M xs, xs a contiguous copy of x in solve
// order (tri_gather); group g computes rows g NB .. g NB + NB - 1 over
// their whole row, so A's triangle is read once. Unit diagonals are not
// read.
//
// tri_sv (trsv, tbsv, tpsv): one launch of ceil(n / NB) groups, left
// looking. A group takes a ticket (an atomic counter: tickets follow the
// groups' start, so every group it waits for has started and will finish,
// whatever order the device runs them in) and solves panel t = ticket:
// for each earlier column block b (within the band), it waits for flag[b],
// then subtracts M(rows, block b) xs(block b); then it solves the NB x NB
// diagonal block in local memory (a column sweep, NB barriers), writes the
// panel's x (to x and to xs, the solved values that later panels read),
// fences, and raises flag[t]. xs and the flags are scratch zeroed by the
// host before the launch (flags[0] is the ticket counter). A is read once;
// the critical path is the n / NB diagonal solves. With panel >= 0 (the
// host's PERSIST = 0: CPUs) the launch is one group solving that panel,
// after the launches of the earlier ones: no ticket, flag or wait.
//
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=float -DREAL=float -DNB=16 -DWGS=64
// check-variant: -DTYPE=double -DREAL=double
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DNB=16

#ifndef TYPE
#define TYPE float
#endif
#ifndef REAL
#define REAL float
#endif
#ifndef COMPLEX
#define COMPLEX 0
#endif
#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef NB
#define NB 32            // rows per panel (divides WGS)
#endif

#define L (WGS / NB)     // lanes per row

#if COMPLEX
#define MUL(a, b) OPTUNE_CAT(optune_cmul_, REAL)(a, b)
#define CONJ(a) OPTUNE_CAT(optune_conj_, REAL)(a)
#define ZERO OPTUNE_SPLAT(REAL, 2, 0)
// a / b, scaled by the larger part of b (Smith's algorithm).
OPTUNE_FUNC TYPE tri_div(const TYPE a, const TYPE b) {
  if (fabs(b.x) >= fabs(b.y)) {
    const REAL r = b.y / b.x, d = b.x + r * b.y;
    TYPE q;
    q.x = (a.x + a.y * r) / d;
    q.y = (a.y - a.x * r) / d;
    return q;
  }
  const REAL r = b.x / b.y, d = b.y + r * b.x;
  TYPE q;
  q.x = (a.x * r + a.y) / d;
  q.y = (a.y * r - a.x) / d;
  return q;
}
#define DIV(a, b) tri_div(a, b)
#else
#define MUL(a, b) ((a) * (b))
#define CONJ(a) (a)
#define ZERO ((TYPE)0)
#define DIV(a, b) ((a) / (b))
#endif

// The problem, as the host reduced it.
typedef struct {
  ulong n, k;        // order; diagonals beside the main one (n - 1: full, packed)
  ulong ab;          // B's first element in a
  ulong lda;         // full and band
  int form;          // 0 full, 1 band, 2 packed
  int upper;         // B's stored triangle
  int trans;         // M = B^T
  int conj;          // M conjugated
  int unit;          // unit diagonal (not read)
  int rev;           // solve order reverses the indices (M upper)
} tri_problem;

// Index of element (r, c) of B in a (inside its stored triangle).
OPTUNE_FUNC ulong tri_at(const tri_problem* p, const ulong r, const ulong c) {
  if (p->form == 0) return p->ab + r + c * p->lda;
  if (p->form == 1) return p->ab + (p->upper ? p->k + r - c : r - c) + c * p->lda;
  return p->ab + (p->upper ? r + c * (c + 1) / 2 : r + c * (2 * p->n - c - 1) / 2);
}

// M(i, j) in solve order (j <= i, within the band).
OPTUNE_FUNC TYPE tri_m(const __global TYPE* a, const tri_problem* p, const ulong i, const ulong j) {
  const ulong r = p->rev ? p->n - 1 - i : i, c = p->rev ? p->n - 1 - j : j;
  const TYPE v = p->trans ? a[tri_at(p, c, r)] : a[tri_at(p, r, c)];
  return p->conj ? CONJ(v) : v;
}

// Element i (solve order) of x: its view index.
OPTUNE_FUNC long tri_x(const tri_problem* p, const ulong xb, const long incx, const ulong i) {
  const ulong e = p->rev ? p->n - 1 - i : i;
  return (long)xb + (long)e * incx;
}

// Solved values of other groups: loads that skip the (incoherent) L1 cache.
#if OPTUNE_BACKEND_CUDA
#define SOLVED(j) __ldcg(&xs[j])
#else
#define SOLVED(j) ((const volatile __global TYPE*)xs)[j]
#endif

#define PROBLEM                                                                                        \
  tri_problem pr;                                                                                      \
  pr.n = n; pr.k = k; pr.ab = ab; pr.lda = lda; pr.form = form; pr.upper = upper; pr.trans = trans;    \
  pr.conj = conj; pr.unit = unit; pr.rev = rev;                                                        \
  const int rows_fast = !trans;                                                                        \
  const int lid = (int)get_local_id(0);                                                                \
  const int row = rows_fast ? lid % NB : lid / L;                                                      \
  const int lane = rows_fast ? lid / NB : lid % L;

#define PROBLEM_ARGS                                                                                   \
  const ulong n, const ulong k, __global const TYPE* a, const ulong ab, const ulong lda, const int form, \
      const int upper, const int trans, const int conj, const int unit, const int rev

// xs[i] = x(i) in solve order.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void tri_gather(const ulong n, const int rev, __global const TYPE* x, const ulong xb, const long incx,
                __global TYPE* xs) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  const ulong e = rev ? n - 1 - i : i;
  xs[i] = x[(long)xb + (long)e * incx];
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

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void tri_mv(PROBLEM_ARGS, __global TYPE* x, const ulong xb, const long incx, __global const TYPE* xs) {
  PROBLEM
  __local TYPE red[WGS];
  const ulong i = (ulong)get_group_id(0) * NB + row;
  TYPE acc = ZERO;
  if (i < n) {
    const ulong lo = i > k ? i - k : 0;
    for (ulong j = lo + lane; j < i; j += L) acc += MUL(tri_m(a, &pr, i, j), xs[j]);
    if (lane == 0) acc += unit ? xs[i] : MUL(tri_m(a, &pr, i, i), xs[i]);
  }
  const TYPE s = tri_lane_sum(red, row, lane, acc);
  if (i < n && lane == 0) x[tri_x(&pr, xb, incx, i)] = s;
}

// flags: [0] the ticket counter, [1 + b] block b solved. xs: solved values
// in solve order.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void tri_sv(PROBLEM_ARGS, __global TYPE* x, const ulong xb, const long incx, __global TYPE* xs,
            __global uint* flags, const long panel) {
  PROBLEM
  __local TYPE red[WGS];
  __local TYPE diag[NB * NB];
  __local TYPE rhs[NB];
  __local uint ticket;
  if (lid == 0) ticket = panel >= 0 ? (uint)panel : atomic_inc(&flags[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const ulong t = ticket;
  const ulong i0 = t * NB;
  const int nb = (int)min((ulong)NB, n - i0);
  const ulong i = i0 + row;
  TYPE acc = ZERO;
  // The band's first column of the panel's rows: block `first` on.
  const ulong lo0 = i0 > k ? i0 - k : 0;
  for (ulong b = lo0 / NB; b < t; ++b) {
    if (lid == 0 && panel < 0) {
      while (atomic_or(&flags[1 + b], 0u) == 0u) {
      }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (row < nb) {
      const ulong lo = i > k ? i - k : 0;
      const ulong j1 = b * NB + NB;
      ulong j = b * NB + lane;
      if (j < lo) j += (lo - j + L - 1) / L * L;
      for (; j < j1; j += L) acc += MUL(tri_m(a, &pr, i, j), SOLVED(j));
    }
  }
  const TYPE s = tri_lane_sum(red, row, lane, acc);
  // The diagonal block and the right-hand side, less the panel's sums.
  for (int e = lid; e < nb * nb; e += WGS) {
    const int r = e % nb, c = e / nb;
    const ulong ii = i0 + r, jj = i0 + c;
    diag[r + c * NB] = ((c < r || (c == r && !unit)) && jj + k >= ii) ? tri_m(a, &pr, ii, jj) : ZERO;
  }
  if (lane == 0 && row < nb) rhs[row] = x[tri_x(&pr, xb, incx, i)] - s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = 0; c < nb; ++c) {
    const TYPE v = unit ? rhs[c] : DIV(rhs[c], diag[c + c * NB]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == c) rhs[c] = v;
    if (lid > c && lid < nb) rhs[lid] -= MUL(diag[lid + c * NB], v);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid < nb) {
    xs[i0 + lid] = rhs[lid];
    x[tri_x(&pr, xb, incx, i0 + lid)] = rhs[lid];
  }
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lid == 0 && panel < 0) atomic_xchg(&flags[1 + t], 1u);
}
