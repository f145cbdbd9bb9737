// blas_tri_defs: the blas_tri program's parameters (defines and defaults),
// its division (the rest of the arithmetic is blas_storage.cl's), the
// triangle's address maps (tri_at, tri_m: every storage form) and the row
// sums the kernels share (blas_tri.cl describes the routines); the host puts
// it after blas_storage.cl.
//
// check-prepend: blas/blas_storage.cl
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DHALF=1

#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef NB
#define NB 32            // rows per panel (divides WGS)
#endif
// A and x through blas_storage.cl's LDE / STE (HALF: half storage); xs,
// the sums and the scratch are TYPE.

#define TRI_UNROLL 8                // tri_row: loads in flight per work-item
#define L (WGS / NB)                // lanes per row
#define PER ((NB + L - 1) / L)      // a lane's columns of an NB x NB block
#define QN (NB / 4)                 // tri_mv4: quads of rows per panel
#define LQ (WGS / QN)               // tri_mv4: lanes per quad

#if COMPLEX
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
OPTUNE_FUNC TYPE tri_one(void) {
  TYPE q;
  q.x = (REAL)1;
  q.y = (REAL)0;
  return q;
}
#define DIV(a, b) tri_div(a, b)
#else
#define DIV(a, b) ((a) / (b))
OPTUNE_FUNC TYPE tri_one(void) { return (TYPE)1; }
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
  int affine;        // M(i, j)'s address is affine in j: all but packed, not transposed
  long step;         // then its increment per column
} tri_problem;

// Index of element (r, c) of B in a (inside its stored triangle).
OPTUNE_FUNC ulong tri_at(const tri_problem* p, const ulong r, const ulong c) {
  if (p->form == 0) return p->ab + r + c * p->lda;
  if (p->form == 1) return p->ab + (p->upper ? p->k + r - c : r - c) + c * p->lda;
  return p->ab + (p->upper ? r + c * (c + 1) / 2 : r + c * (2 * p->n - c - 1) / 2);
}

// Index in a of M(i, j) in solve order (j <= i, within the band).
OPTUNE_FUNC ulong tri_idx(const tri_problem* p, const ulong i, const ulong j) {
  const ulong r = p->rev ? p->n - 1 - i : i, c = p->rev ? p->n - 1 - j : j;
  return p->trans ? tri_at(p, c, r) : tri_at(p, r, c);
}

// M(i, j) in solve order (j <= i, within the band).
OPTUNE_FUNC TYPE tri_m(const __global ST* a, const tri_problem* p, const ulong i, const ulong j) {
  const TYPE v = LDE(a, tri_idx(p, i, j));
  return p->conj ? CONJ(v) : v;
}

// Element i (solve order) of x: its view index.
OPTUNE_FUNC long tri_x(const tri_problem* p, const ulong xb, const long incx, const ulong i) {
  const ulong e = p->rev ? p->n - 1 - i : i;
  return (long)xb + (long)e * incx;
}

// Values other groups wrote during this launch: loads that skip the
// (incoherent) L1 cache.
OPTUNE_FUNC TYPE tri_fresh(const __global TYPE* v, const ulong j) {
#if OPTUNE_BACKEND_CUDA
  return __ldcg(&v[j]);
#else
  return ((const volatile __global TYPE*)v)[j];
#endif
}

// The first column of the form from + lane + m ls (m >= 0) at or after lo
// (ls: the lanes along a row).
OPTUNE_FUNC ulong tri_first(const ulong from, const int lane, const ulong lo, const int ls) {
  const ulong j = from + (ulong)lane;
  return j >= lo ? j : j + (lo - j + ls - 1) / ls * ls;
}

// acc plus M(i, j) v(j) for j = j, j + ls, ... below j1 (off the diagonal,
// within the band), in order; fresh: v is read past the L1 cache.
OPTUNE_FUNC TYPE tri_row(const __global ST* a, const tri_problem* p, const ulong i, ulong j, const ulong j1,
                         const __global TYPE* v, const int fresh, TYPE acc, const int ls) {
  if (j >= j1) return acc;
  if (p->affine) {
    long at = (long)tri_idx(p, i, j);
    const long st = p->step * ls;
    // TRI_UNROLL loads of A and of v in flight: a solve's group streams its
    // panel's long rows alone.
    for (; j + (TRI_UNROLL - 1) * ls < j1; j += TRI_UNROLL * ls, at += TRI_UNROLL * st) {
      TYPE m[TRI_UNROLL], w[TRI_UNROLL];
      for (int u = 0; u < TRI_UNROLL; ++u) {
        m[u] = LDE(a, at + u * st);
        w[u] = fresh ? tri_fresh(v, j + (ulong)(u * ls)) : v[j + (ulong)(u * ls)];
      }
      for (int u = 0; u < TRI_UNROLL; ++u) acc += MUL(p->conj ? CONJ(m[u]) : m[u], w[u]);
    }
    for (; j < j1; j += ls, at += st) {
      const TYPE m = LDE(a, at);
      acc += MUL(p->conj ? CONJ(m) : m, fresh ? tri_fresh(v, j) : v[j]);
    }
    return acc;
  }
  for (; j < j1; j += ls) acc += MUL(tri_m(a, p, i, j), fresh ? tri_fresh(v, j) : v[j]);
  return acc;
}

#define PROBLEM                                                                                        \
  tri_problem pr;                                                                                      \
  pr.n = n; pr.k = k; pr.ab = ab; pr.lda = lda; pr.form = form; pr.upper = upper; pr.trans = trans;    \
  pr.conj = conj; pr.unit = unit; pr.rev = rev;                                                        \
  pr.affine = form != 2 || trans;                                                                      \
  pr.step = (rev ? -1 : 1) * (trans ? 1 : form == 0 ? (long)lda : (long)lda - 1);                      \
  const int rows_fast = !trans;                                                                        \
  const int lid = (int)get_local_id(0);                                                                \
  const int row = rows_fast ? lid % NB : lid / L;                                                      \
  const int lane = rows_fast ? lid / NB : lid % L;

#define PROBLEM_ARGS                                                                                   \
  const ulong n, const ulong k, __global const ST* a, const ulong ab, const ulong lda, const int form,   \
      const int upper, const int trans, const int conj, const int unit, const int rev
