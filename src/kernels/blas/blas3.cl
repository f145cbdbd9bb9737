// blas3: the small kernels of the BLAS level-3 triangular and rank-k
// routines (src/ops/blas3.cpp); the products themselves run as GEMMs.
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
//                   or k = 0); beta == 0 writes zeros without reading C.
//   blas3_tri_update C = S + beta C over one triangle of each nb x nb
//                   diagonal block (S: the blocks' full products, nb x nb
//                   row-major each, one after another); beta == 0 does not
//                   read C.
//   blas3_tri_pack  the diagonal nb x nb blocks of a triangular matrix T
//                   into contiguous nb x nb row-major blocks: T's triangle
//                   with zeros elsewhere (unit: ones on the diagonal, which
//                   is never read), or (invert) its inverse, one work-item
//                   per column: column j of inv(T) by substitution.
//
// check-variant: -DTYPE=float
// check-variant: -DTYPE=double -DWGS=64

#ifndef TYPE
#define TYPE float  // element type: float or double
#endif
#ifndef WGS
#define WGS 256  // work-items per group
#endif

#define AT(p, base, i, j, rs, cs) (p)[(long)(base) + (long)(i) * (rs) + (long)(j) * (cs)]

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_scale(const ulong rows, const ulong cols, const ulong batch, const TYPE alpha, __global TYPE* x,
                 const ulong xb, const long rs, const long cs, const long bs) {
  const ulong gid = get_global_id(0);
  const ulong per = rows * cols;
  if (gid >= per * batch) return;
  const ulong bi = gid / per, e = gid - bi * per, i = e / cols, j = e - i * cols;
  const long base = (long)xb + (long)bi * bs;
  AT(x, base, i, j, rs, cs) = alpha == (TYPE)0 ? (TYPE)0 : alpha * AT(x, base, i, j, rs, cs);
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_copy(const ulong rows, const ulong cols, const ulong batch, __global const TYPE* x, const ulong xb,
                const long xrs, const long xcs, const long xbs, __global TYPE* y, const ulong yb, const long yrs,
                const long ycs, const long ybs) {
  const ulong gid = get_global_id(0);
  const ulong per = rows * cols;
  if (gid >= per * batch) return;
  const ulong bi = gid / per, e = gid - bi * per, i = e / cols, j = e - i * cols;
  AT(y, (long)yb + (long)bi * ybs, i, j, yrs, ycs) = AT(x, (long)xb + (long)bi * xbs, i, j, xrs, xcs);
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_tri_scale(const ulong n, const int upper, const TYPE beta, __global TYPE* c, const ulong cb,
                     const long rs, const long cs) {
  const ulong gid = get_global_id(0);
  if (gid >= n * n) return;
  const ulong i = gid / n, j = gid - i * n;
  if (upper ? j < i : j > i) return;
  AT(c, cb, i, j, rs, cs) = beta == (TYPE)0 ? (TYPE)0 : beta * AT(c, cb, i, j, rs, cs);
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas3_tri_update(const ulong n, const ulong nb, const int upper, const TYPE beta, __global const TYPE* s,
                      const ulong sb, __global TYPE* c, const ulong cb, const long rs, const long cs) {
  const ulong gid = get_global_id(0);
  const ulong blocks = (n + nb - 1) / nb;
  if (gid >= blocks * nb * nb) return;
  const ulong b = gid / (nb * nb), e = gid - b * nb * nb, r = e / nb, q = e - r * nb;
  const ulong i = b * nb + r, j = b * nb + q;
  if (i >= n || j >= n || (upper ? q < r : q > r)) return;
  const TYPE v = s[sb + gid];
  AT(c, cb, i, j, rs, cs) = beta == (TYPE)0 ? v : v + beta * AT(c, cb, i, j, rs, cs);
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
                    const int unit, const int invert, __global const TYPE* a, const ulong ab, const long rs,
                    const long cs, const long bs, __global TYPE* out, const ulong ob) {
  const ulong gid = get_global_id(0);
  const ulong blocks = (n + nb - 1) / nb;
  if (gid >= batch * blocks * nb) return;
  const ulong blk = gid / nb, j = gid - blk * nb, bi = blk / blocks, b = blk - bi * blocks;
  const ulong order = n - b * nb < nb ? n - b * nb : nb;
  if (j >= order) return;
  const long base = (long)ab + (long)bi * bs + (long)(b * nb) * (rs + cs);
  __global TYPE* o = out + ob + blk * nb * nb;
  // T(i, k) of the block, i != k, inside the triangle.
#define T(i, k) AT(a, base, i, k, rs, cs)
  if (!invert) {
    for (ulong i = 0; i < order; ++i) {
      const bool in = upper ? i <= j : i >= j;
      o[i * nb + j] = !in ? (TYPE)0 : (i == j && unit) ? (TYPE)1 : T(i, j);
    }
    return;
  }
  // j's sub-block [q0, q0 + sub): outside it, column j is T's (zeros
  // outside the triangle).
  const ulong sub = order < nb ? order : ib, q0 = j / sub * sub;
  for (ulong i = 0; i < order; ++i)
    if (i < q0 || i >= q0 + sub) o[i * nb + j] = (upper ? i <= j : i >= j) ? T(i, j) : (TYPE)0;
  // Column j of the sub-block's inverse by substitution. Every work-item
  // walks the same rows i and terms k in the same order, so a warp reads
  // one T(i, k) (a broadcast) and consecutive o(k, j): x_k = 0 on the far
  // side of the diagonal (k < j lower, k > j upper) makes the terms before
  // the column's own start vanish. Only T's strict triangle and (non-unit)
  // its diagonal are read.
  for (ulong step = 0; step < sub; ++step) {
    const ulong i = upper ? q0 + sub - 1 - step : q0 + step;
    TYPE sum = (TYPE)0;
    if (upper) {
      for (ulong k = i + 1; k < q0 + sub; ++k) sum += T(i, k) * o[k * nb + j];
    } else {
      for (ulong k = q0; k < i; ++k) sum += T(i, k) * o[k * nb + j];
    }
    const TYPE d = unit ? (TYPE)1 : T(i, i);
    o[i * nb + j] = (upper ? i > j : i < j) ? (TYPE)0 : i == j ? (TYPE)1 / d : -sum / d;
  }
#undef T
}
