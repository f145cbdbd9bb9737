// gemm_complex: the passes that turn a complex GEMM (interleaved (re, im)
// pairs, row-major) into one real GEMM of twice the size, which the real
// GEMM candidates run with their tuned parameters:
//
//   C (m x n complex) is the real m x 2n matrix C'; op(A) stored plainly
//   (m x k, neither transposed nor conjugated) is the real m x 2k matrix A';
//   B'' is alpha op(B) expanded to a real 2k x 2n matrix whose 2 x 2 block
//   for b = br + i bi is
//        [  br  bi ]
//        [ -bi  br ]
//   so that row i of A' times column pair j of B'' is (Re, Im) of
//   sum_p a(i, p) b(p, j), and C' = A' B'' + beta C' is
//   C = alpha op(A) op(B) + beta C for a real beta.
//
// cgemm_pack_a:  dst (rows x cols complex, dense per product) = op(X)
// cgemm_pack_b:  dst (2 rows x 2 cols real from element dst_off, dense per
//                product) = the
//                expansion of alpha op(X) (alpha = 0 writes zeros)
// cgemm_scale_c: C = beta C for complex beta; C = 0 where beta = 0 (C is
//                not read, so NaN in C does not survive)
//
// op(X)(r, c) is X(r, c) (element r * ld + c), or X(c, r) when transposed,
// conjugated on the way where asked (flags). Transposed operands go through
// a TILE x TILE local tile so that reads and writes are both coalesced.
// The batch is the grid's third dimension (product z0 + group z). In list
// mode (CGEMM_LIST) each product's offsets (column `which` of 3 ulongs per
// product: 0 A, 1 B, 2 C, added to the base offset) and scalars (4 REAL per
// product after the offsets: alpha re, im, beta re, im) come from the table;
// else the product's offset is base + z * stride and the scalars are
// arguments. Offsets, leading dimensions and strides count complex elements.
//
// check-variant: -DREAL=float -DTILE=8
// check-variant: -DREAL=double -DREAL_DOUBLE=1

#ifndef REAL
#define REAL float       // the part type: float (c32) or double (c64)
#endif
#ifndef REAL_DOUBLE
#define REAL_DOUBLE 0    // 1 when REAL is double
#endif
#ifndef TILE
#define TILE 16          // side of a group's tile (work-items TILE x TILE)
#endif

#if REAL_DOUBLE
#define CPLX double2
#define MAKE_CPLX(re, im) make_double2(re, im)
#define CMUL(a, b) optune_cmul_double(a, b)
#else
#define CPLX float2
#define MAKE_CPLX(re, im) make_float2(re, im)
#define CMUL(a, b) optune_cmul_float(a, b)
#endif

#define CGEMM_TRANS 1u
#define CGEMM_CONJ 2u
#define CGEMM_LIST 4u

// The product's base element and scalar k (0..3) of the product.
#define CGEMM_BASE(flags, off, stride, table, z, which) \
  ((off) + (((flags) & CGEMM_LIST) ? (table)[(z) * 3 + (which)] : (z) * (stride)))
#define CGEMM_SCALAR(table, batch, z, k) (((const __global REAL*)((table) + 3 * (batch)))[(z) * 4 + (k)])

// op(X)(r0 + ly, c0 + lx), the work-item's element of its group's tile, zero
// outside rows x cols. Every work-item of the group runs it (barrier).
#define CGEMM_LOAD_OP(v, x, ld, rows, cols, flags, tre, tim)                              \
  do {                                                                                    \
    const ulong lx_ = get_local_id(0), ly_ = get_local_id(1);                             \
    const ulong r0_ = (ulong)get_group_id(1) * TILE, c0_ = (ulong)get_group_id(0) * TILE; \
    v = MAKE_CPLX((REAL)0, (REAL)0);                                                      \
    if ((flags) & CGEMM_TRANS) {                                                          \
      /* this item reads op(X)(r0 + lx, c0 + ly) = X(c0 + ly, r0 + lx): along a row */   \
      REAL re_ = 0, im_ = 0;                                                              \
      if (r0_ + lx_ < (rows) && c0_ + ly_ < (cols)) {                                     \
        const ulong e_ = 2 * ((c0_ + ly_) * (ld) + r0_ + lx_);                            \
        re_ = (x)[e_];                                                                    \
        im_ = (x)[e_ + 1];                                                                \
      }                                                                                   \
      tre[ly_ * (TILE + 1) + lx_] = re_;                                                  \
      tim[ly_ * (TILE + 1) + lx_] = im_;                                                  \
      barrier(CLK_LOCAL_MEM_FENCE);                                                       \
      v = MAKE_CPLX(tre[lx_ * (TILE + 1) + ly_], tim[lx_ * (TILE + 1) + ly_]);            \
    } else if (r0_ + ly_ < (rows) && c0_ + lx_ < (cols)) {                                \
      const ulong e_ = 2 * ((r0_ + ly_) * (ld) + c0_ + lx_);                              \
      v = MAKE_CPLX((x)[e_], (x)[e_ + 1]);                                                \
    }                                                                                     \
    if ((flags) & CGEMM_CONJ) v.y = -v.y;                                                 \
  } while (0)

__kernel OPTUNE_WG_SIZE(TILE, TILE, 1)
void cgemm_pack_a(const ulong rows, const ulong cols, __global const REAL* restrict src, const ulong src_off,
                  const ulong ld, const ulong stride, __global REAL* restrict dst, const uint flags,
                  __global const ulong* restrict table, const ulong z0) {
  __local REAL tre[TILE * (TILE + 1)];
  __local REAL tim[TILE * (TILE + 1)];
  const ulong z = z0 + get_group_id(2);
  const __global REAL* x = src + 2 * CGEMM_BASE(flags, src_off, stride, table, z, 0);
  CPLX v;
  CGEMM_LOAD_OP(v, x, ld, rows, cols, flags, tre, tim);
  const ulong r = get_global_id(1), c = get_global_id(0);
  if (r >= rows || c >= cols) return;
  const ulong e = 2 * (z * rows * cols + r * cols + c);
  dst[e] = v.x;
  dst[e + 1] = v.y;
}

__kernel OPTUNE_WG_SIZE(TILE, TILE, 1)
void cgemm_pack_b(const ulong rows, const ulong cols, __global const REAL* restrict src, const ulong src_off,
                  const ulong ld, const ulong stride, __global REAL* restrict dst, const ulong dst_off,
                  const uint flags, __global const ulong* restrict table, const ulong batch, const REAL alpha_re,
                  const REAL alpha_im, const ulong z0) {
  __local REAL tre[TILE * (TILE + 1)];
  __local REAL tim[TILE * (TILE + 1)];
  const ulong z = z0 + get_group_id(2);
  const __global REAL* x = src + 2 * CGEMM_BASE(flags, src_off, stride, table, z, 1);
  const CPLX alpha = (flags & CGEMM_LIST)
                         ? MAKE_CPLX(CGEMM_SCALAR(table, batch, z, 0), CGEMM_SCALAR(table, batch, z, 1))
                         : MAKE_CPLX(alpha_re, alpha_im);
  CPLX v;
  CGEMM_LOAD_OP(v, x, ld, rows, cols, flags, tre, tim);
  const ulong r = get_global_id(1), c = get_global_id(0);
  if (r >= rows || c >= cols) return;
  // alpha = 0 reads nothing into the product (BLAS: B is not referenced).
  v = (alpha.x == 0 && alpha.y == 0) ? MAKE_CPLX((REAL)0, (REAL)0) : CMUL(alpha, v);
  const ulong ld2 = 2 * cols;
  const ulong e = dst_off + z * 4 * rows * cols + 2 * r * ld2 + 2 * c;
  dst[e] = v.x;
  dst[e + 1] = v.y;
  dst[e + ld2] = -v.y;
  dst[e + ld2 + 1] = v.x;
}

__kernel OPTUNE_WG_SIZE(TILE, TILE, 1)
void cgemm_scale_c(const ulong rows, const ulong cols, __global REAL* restrict c, const ulong c_off,
                   const ulong ld, const ulong stride, const uint flags, __global const ulong* restrict table,
                   const ulong batch, const REAL beta_re, const REAL beta_im, const ulong z0) {
  const ulong z = z0 + get_group_id(2);
  const ulong i = get_global_id(1), j = get_global_id(0);
  if (i >= rows || j >= cols) return;
  const CPLX beta = (flags & CGEMM_LIST)
                        ? MAKE_CPLX(CGEMM_SCALAR(table, batch, z, 2), CGEMM_SCALAR(table, batch, z, 3))
                        : MAKE_CPLX(beta_re, beta_im);
  __global REAL* y = c + 2 * (CGEMM_BASE(flags, c_off, stride, table, z, 2) + i * ld + j);
  const CPLX v = (beta.x == 0 && beta.y == 0) ? MAKE_CPLX((REAL)0, (REAL)0) : CMUL(beta, MAKE_CPLX(y[0], y[1]));
  y[0] = v.x;
  y[1] = v.y;
}
