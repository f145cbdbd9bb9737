// blas3: the small kernels of the BLAS level-3 triangular and rank-k
// routines (src/ops/blas3_run.cpp); the products themselves run as GEMMs.
// Real (TYPE float, double) and complex (COMPLEX 1: TYPE float2, double2,
// REAL its part type) elements.
//
// Matrices are strided views: element (i, j) of matrix number `bi` of a
// batch sits at base + bi * bstride + i * rs + j * cs (in elements; rs, cs
// and bstride signed), so one kernel serves row- and column-major storage,
// transposed operands and either side. Every grid is 1-D over the elements
// (or columns) of the whole batch, rounded up to whole groups.
//
// Entry points:
//   blas3_scale     X = alpha X over rows x cols; alpha == 0 writes zeros
//                   without reading X (trmm's and trsm's alpha = 0).
//   blas3_copy      Y = X (a panel of B into contiguous scratch).
//   blas3_tri_scale C = beta C over one triangle of n x n (syrk's alpha = 0
//                   or k = 0); beta == 0 writes zeros without reading C;
//                   herm (herk, her2k): the diagonal is beta Re(C(i, i)),
//                   its imaginary part 0, as the reference.
//   blas3_tri_update C = S + beta C over one triangle of each nb x nb
//                   diagonal block (S: the blocks' full products, nb x nb
//                   row-major each, one after another); beta == 0 does not
//                   read C; herm: the diagonal's imaginary part is 0 (and
//                   only C's real part is read there).
//   blas3_tri_pack  the diagonal nb x nb blocks of a triangular matrix T
//                   into contiguous nb x nb row-major blocks: T's triangle
//                   with zeros elsewhere (unit: ones on the diagonal, which
//                   is never read), or (invert) its inverse, one work-item
//                   per column: column j of inv(T) by substitution; conj:
//                   of conj(T).
//   blas3_widen     Y (TYPE) = X (half), as blas3_copy: f16 calls run in f32
//                   on widened copies of their operands (real TYPE only).
//   blas3_narrow    Y (half) = X (TYPE), rounded to nearest even, over the
//                   whole matrix (tri 0) or one triangle of it (tri 1 upper,
//                   2 lower; square): the f16 result, rounded once.
//
// check-variant: -DTYPE=float
// check-variant: -DTYPE=double -DWGS=64
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DWGS=64

#ifndef TYPE
#define TYPE float  // element type: float or double (complex: float2, double2)
#endif
#ifndef REAL
#define REAL TYPE
#endif
#ifndef COMPLEX
#define COMPLEX 0
#endif
#ifndef WGS
#define WGS 256  // work-items per group
#endif

#if COMPLEX
#define MUL(a, b) OPTUNE_CAT(optune_cmul_, REAL)(a, b)
#define CPLX(re, im) OPTUNE_CAT(OPTUNE_CAT(make_, REAL), 2)(re, im)
#define ZERO CPLX((REAL)0, (REAL)0)
#define ONE CPLX((REAL)1, (REAL)0)
#define IS_ZERO(a) ((a).x == (REAL)0 && (a).y == (REAL)0)
#define MAYBE_CONJ(a, c) ((c) ? OPTUNE_CAT(optune_conj_, REAL)(a) : (a))
#define REAL_PART(a) CPLX((a).x, (REAL)0)
// a / b, scaled by the larger part of b (Smith's algorithm).
OPTUNE_FUNC TYPE blas3_div(const TYPE a, const TYPE b) {
  if (fabs(b.x) >= fabs(b.y)) {
    const REAL r = b.y / b.x, d = b.x + r * b.y;
    return CPLX((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  const REAL r = b.x / b.y, d = b.y + r * b.x;
  return CPLX((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}
#define DIV(a, b) blas3_div(a, b)
#else
#define MUL(a, b) ((a) * (b))
#define ZERO ((TYPE)0)
#define ONE ((TYPE)1)
#define IS_ZERO(a) ((a) == (TYPE)0)
#define MAYBE_CONJ(a, c) (a)
#define REAL_PART(a) (a)
#define DIV(a, b) ((a) / (b))
#endif

#define AT(p, base, i, j, rs, cs) (p)[(long)(base) + (long)(i) * (rs) + (long)(j) * (cs)]

// The work-item's element (i, j) of matrix bi of a batch of rows x cols
// matrices (work-items past the batch return).
#define BATCH_ITEM                                                                   \
  const ulong gid = get_global_id(0);                                                \
  const ulong per = rows * cols;                                                     \
  if (gid >= per * batch) return;                                                    \
  const ulong bi = gid / per, e = gid - bi * per, i = e / cols, j = e - i * cols;

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_scale(const ulong rows, const ulong cols, const ulong batch, const TYPE alpha, __global TYPE* x,
                 const ulong xb, const long rs, const long cs, const long bs) {
  BATCH_ITEM
  const long base = (long)xb + (long)bi * bs;
  AT(x, base, i, j, rs, cs) = IS_ZERO(alpha) ? ZERO : MUL(alpha, AT(x, base, i, j, rs, cs));
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_copy(const ulong rows, const ulong cols, const ulong batch, __global const TYPE* x, const ulong xb,
                const long xrs, const long xcs, const long xbs, __global TYPE* y, const ulong yb, const long yrs,
                const long ycs, const long ybs) {
  BATCH_ITEM
  AT(y, (long)yb + (long)bi * ybs, i, j, yrs, ycs) = AT(x, (long)xb + (long)bi * xbs, i, j, xrs, xcs);
}

#if !COMPLEX
#define HIDX(base, i, j, rs, cs) ((size_t)((long)(base) + (long)(i) * (rs) + (long)(j) * (cs)))

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_widen(const ulong rows, const ulong cols, const ulong batch, __global const half* x, const ulong xb,
                 const long xrs, const long xcs, const long xbs, __global TYPE* y, const ulong yb, const long yrs,
                 const long ycs, const long ybs) {
  BATCH_ITEM
  AT(y, (long)yb + (long)bi * ybs, i, j, yrs, ycs) =
      (TYPE)vload_half(HIDX((long)xb + (long)bi * xbs, i, j, xrs, xcs), x);
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_narrow(const ulong rows, const ulong cols, const ulong batch, const int tri, __global const TYPE* x,
                  const ulong xb, const long xrs, const long xcs, const long xbs, __global half* y, const ulong yb,
                  const long yrs, const long ycs, const long ybs) {
  BATCH_ITEM
  if ((tri == 1 && j < i) || (tri == 2 && j > i)) return;
  vstore_half(AT(x, (long)xb + (long)bi * xbs, i, j, xrs, xcs), HIDX((long)yb + (long)bi * ybs, i, j, yrs, ycs), y);
}
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_tri_scale(const ulong n, const int upper, const int herm, const TYPE beta, __global TYPE* c,
                     const ulong cb, const long rs, const long cs) {
  const ulong gid = get_global_id(0);
  if (gid >= n * n) return;
  const ulong i = gid / n, j = gid - i * n;
  if (upper ? j < i : j > i) return;
  if (IS_ZERO(beta)) {
    AT(c, cb, i, j, rs, cs) = ZERO;
    return;
  }
  const TYPE old = AT(c, cb, i, j, rs, cs);
  AT(c, cb, i, j, rs, cs) = MUL(beta, herm && i == j ? REAL_PART(old) : old);
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_tri_update(const ulong n, const ulong nb, const int upper, const int herm, const TYPE beta,
                      __global const TYPE* s,
                      const ulong sb, __global TYPE* c, const ulong cb, const long rs, const long cs) {
  const ulong gid = get_global_id(0);
  const ulong blocks = (n + nb - 1) / nb;
  if (gid >= blocks * nb * nb) return;
  const ulong b = gid / (nb * nb), e = gid - b * nb * nb, r = e / nb, q = e - r * nb;
  const ulong i = b * nb + r, j = b * nb + q;
  if (i >= n || j >= n || (upper ? q < r : q > r)) return;
  const bool diag = herm && i == j;
  TYPE v = diag ? REAL_PART(s[sb + gid]) : s[sb + gid];
  if (!IS_ZERO(beta)) {
    const TYPE old = AT(c, cb, i, j, rs, cs);
    v += MUL(beta, diag ? REAL_PART(old) : old);
  }
  AT(c, cb, i, j, rs, cs) = v;
}

// One work-item per column j of diagonal block b of matrix bi: n is T's
// order, the last block may be smaller. Block (bi, b) is written at
// out + ((bi * blocks) + b) * nb * nb, row-major with leading dimension nb;
// its rows and columns beyond the block's order are left alone. Packing
// (invert 0): the block's triangle, zeros elsewhere, ones on a unit
// diagonal. Inverting: the block's triangle with its diagonal sub-blocks of
// order ib (a last, smaller block: the whole block) replaced by their
// inverses; the host's listed GEMMs then double the inverted sub-blocks up
// to the whole block.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_tri_pack(const ulong n, const ulong nb, const ulong ib, const ulong batch, const int upper,
                    const int unit, const int invert, const int conj, __global const TYPE* a, const ulong ab,
                    const long rs, const long cs, const long bs, __global TYPE* out, const ulong ob) {
  const ulong gid = get_global_id(0);
  const ulong blocks = (n + nb - 1) / nb;
  if (gid >= batch * blocks * nb) return;
  const ulong blk = gid / nb, j = gid - blk * nb, bi = blk / blocks, b = blk - bi * blocks;
  const ulong order = n - b * nb < nb ? n - b * nb : nb;
  if (j >= order) return;
  const long base = (long)ab + (long)bi * bs + (long)(b * nb) * (rs + cs);
  __global TYPE* o = out + ob + blk * nb * nb;
  // T(i, k) of the block, i != k, inside the triangle.
#define T(i, k) MAYBE_CONJ(AT(a, base, i, k, rs, cs), conj)
  if (!invert) {
    for (ulong i = 0; i < order; ++i) {
      const bool in = upper ? i <= j : i >= j;
      o[i * nb + j] = !in ? ZERO : (i == j && unit) ? ONE : T(i, j);
    }
    return;
  }
  // j's sub-block [q0, q0 + sub): outside it, column j is T's (zeros
  // outside the triangle).
  const ulong sub = order < nb ? order : ib, q0 = j / sub * sub;
  for (ulong i = 0; i < order; ++i)
    if (i < q0 || i >= q0 + sub) o[i * nb + j] = (upper ? i <= j : i >= j) ? T(i, j) : ZERO;
  // Column j of the sub-block's inverse by substitution. Every work-item
  // walks the same rows i and terms k in the same order, so a warp reads
  // one T(i, k) (a broadcast) and consecutive o(k, j): x_k = 0 on the far
  // side of the diagonal (k < j lower, k > j upper) makes the terms before
  // the column's own start vanish. Only T's strict triangle and (non-unit)
  // its diagonal are read.
  for (ulong step = 0; step < sub; ++step) {
    const ulong i = upper ? q0 + sub - 1 - step : q0 + step;
    TYPE sum = ZERO;
    if (upper) {
      for (ulong k = i + 1; k < q0 + sub; ++k) sum += MUL(T(i, k), o[k * nb + j]);
    } else {
      for (ulong k = q0; k < i; ++k) sum += MUL(T(i, k), o[k * nb + j]);
    }
    const TYPE d = unit ? ONE : T(i, i);
    o[i * nb + j] = (upper ? i > j : i < j) ? ZERO : i == j ? DIV(ONE, d) : DIV(-sum, d);
  }
#undef T
}
