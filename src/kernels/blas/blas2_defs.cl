// blas2_defs: the blas2 program's parameters (defines and defaults), type
// helpers, flags, address maps and the generic matrix-vector kernel's macro
// (blas2.cl describes the routines); the host puts this text first, after
// blas_storage.cl.
//
// check-prepend: blas/blas_storage.cl
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DHALF=1

#ifndef WGS
#define WGS 256          // work-items per group (a power of two)
#endif
#ifndef SB
#define SB 32            // symv / hemv: the blocks' side (a power of two, at most WGS)
#endif
// symv / hemv's off-diagonal blocks in registers: SB / 4 work-items along
// the block's fast direction, the rest along the slow one, each taking
// SYMV_NS slow indices (needs WGS <= SB * SB / 4).
#define SYMV_TX (SB / 4)
#define SYMV_TY (WGS / SYMV_TX)
#define SYMV_NS (SB / SYMV_TY)
#define SYMV_FAST (WGS * 4 <= SB * SB)
#ifndef F64
#define F64 0            // 1: TYPE is double (real f64)
#endif
#ifndef SVW              // symv / hemv blocks with F_VEC: elements per load (16 bytes: 4 f32, 2 f64; 8: 4 f16)
#if F64
#define SVW 2
#else
#define SVW 4
#endif
#endif
#ifndef VW
#define VW 1             // dense gemv and ger: elements per access along the contiguous direction (real types)
#endif

// One line of a symv register piece (blas2_symv_blocks' whole blocks and
// blas2_symv_walk's tiles): the 4 elements from `line` along the fast
// stride fs, as packs of SVW where vec (real f32 / f64 / f16: F_VEC; f16's
// packs are SVW halves), else SYMV_TX apart.
OPTUNE_FUNC void blas2_symv_line(__global const ST* a, const long line, const long fs, const bool vec, TYPE* v) {
#if !COMPLEX
  if (vec) {
#pragma unroll
    for (int h = 0; h < 4 / SVW; ++h) {
#if HALF
      const OPTUNE_VEC(TYPE, SVW) vp = OPTUNE_CAT(optune_vload_half, SVW)(line / SVW + h, a);
#else
      const OPTUNE_VEC(TYPE, SVW) vp = OPTUNE_GLOAD(ST, SVW, line / SVW + h, a);
#endif
      OPTUNE_VUNPACK(SVW, vp, (v + h * SVW));
    }
    return;
  }
#endif
#pragma unroll
  for (int u = 0; u < 4; ++u) v[u] = LDE(a, line + (long)(u * SYMV_TX) * fs);
}

#define AT(p, b, inc, i) (p)[(long)(b) + (long)(i) * (inc)]
// Storage (blas_storage.cl): with HALF 1 every kernel but the symv strips is
// compiled, the dense packs and symv's whole-block lines as packs of halves.

// flags of the matrix-vector entries
#define F_JMAJOR 1       // a row's work-items side by side
#define F_CONJ 2         // gemv / gbmv: conjugate M (conjugate transpose)
#define F_ALPHA_ZERO 4   // alpha == 0: A and x are not read
#define F_BETA_ZERO 8    // beta == 0: y is not read
#define F_UPPER 16       // symmetric / Hermitian / packed: the stored triangle is r <= c
#define F_HERM 32        // Hermitian
#define F_PACK1 64       // packed: form 1
#define F_PACKSWAP 128   // packed: (p, q) = (c, r)
// flags of the rank updates (with F_UPPER, F_HERM, F_PACK1, F_PACKSWAP)
#define F_TRI 256        // only the stored triangle
#define F_PACKED 512     // packed storage
#define F_RANK2 1024
#define F_C1 2048        // conjugate the first factor
#define F_C2 4096        // conjugate the second factor
#define F_SWAPIJ 8192    // the first grid dimension walks j (M's rows contiguous)
// flags of the dense fast paths (blas2_gemv_c, blas2_gemv_r, blas2_ger)
#define F_VEC 16384      // A by packs of VW (the host checked base, leading dimension and slices)
#define F_XVEC 32768     // blas2_gemv_r: x by packs of VW too (incx 1, base a multiple of VW)
#define F_FUSE 65536     // split products: the last group of a row block adds the slices (no second pass)

OPTUNE_FUNC long blas2_packed(const long r, const long c, const long np, const int flags) {
  const long p = (flags & F_PACKSWAP) ? c : r, q = (flags & F_PACKSWAP) ? r : c;
  return (flags & F_PACK1) ? p + q * (2 * np - q - 1) / 2 : p + q * (q + 1) / 2;
}

OPTUNE_FUNC bool blas2_in_triangle(const long i, const long j, const int flags) {
  return (flags & F_UPPER) ? i <= j : i >= j;
}

// M(i, j) of a symmetric / Hermitian matrix from its stored triangle.
#if COMPLEX
#define HERM_FIX(v, in, i, j)                  \
  if (flags & F_HERM) {                        \
    if (!(in)) v = CONJ(v);                    \
    if ((i) == (j)) v.y = (REAL)0;             \
  }
#else
#define HERM_FIX(v, in, i, j)
#endif

#if COMPLEX
#define FETCH_GE(v, i, j)                               \
  v = LDE(a, (long)ab + (i) * si + (j) * sj);           \
  if (flags & F_CONJ) v = CONJ(v);
#else
#define FETCH_GE(v, i, j) v = LDE(a, (long)ab + (i) * si + (j) * sj);
#endif
#define FETCH_SY(v, i, j)                                                              \
  {                                                                                    \
    const bool in_ = blas2_in_triangle(i, j, flags);                                   \
    v = LDE(a, in_ ? (long)ab + (i) * si + (j) * sj : (long)ab + (j) * si + (i) * sj); \
    HERM_FIX(v, in_, i, j)                                                             \
  }
#define FETCH_SP(v, i, j)                                                                    \
  {                                                                                          \
    const bool in_ = blas2_in_triangle(i, j, flags);                                         \
    v = LDE(a, (long)ab + (in_ ? blas2_packed(i, j, np, flags) : blas2_packed(j, i, np, flags))); \
    HERM_FIX(v, in_, i, j)                                                                   \
  }

// y_i from the row's sum: alpha sum + beta y_i (beta 0: y unread).
OPTUNE_FUNC TYPE blas2_finish(const TYPE sum, const TYPE alpha, const TYPE beta, const TYPE yold, const int flags) {
  const TYPE acc = (flags & F_ALPHA_ZERO) ? ZERO : MUL(alpha, sum);
  return (flags & F_BETA_ZERO) ? acc : acc + MUL(beta, yold);
}

// Row i's sum (alpha, beta and y applied) into y where one slice covers the
// rows (the grid's second dimension 1), else into the slice's part.
OPTUNE_FUNC void blas2_row_result(const TYPE sum, const long i, const ulong rows, __global ST* y, const ulong yb,
                                  const long incy, const TYPE alpha, const TYPE beta, const int flags,
                                  __global TYPE* part) {
  if (get_num_groups(1) == 1) {
    const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i);
    PUT(y, yb, incy, i, blas2_finish(sum, alpha, beta, yold, flags));
  } else {
    part[(long)get_group_id(1) * (long)rows + i] = sum;
  }
}

#define MV_KERNEL(NAME, FETCH)                                                                                     \
  __kernel OPTUNE_WG_SIZE(WGS, 1, 1) void NAME(                                                                    \
      const ulong rows, const ulong cols, const long lo, const long hi, __global const ST* a, const ulong ab,      \
      const long si, const long sj, const long np, __global const ST* x, const ulong xb, const long incx,         \
      __global ST* y, const ulong yb, const long incy, const TYPE alpha, const TYPE beta, const int flags,         \
      const uint tj, const ulong chunk, __global TYPE* part) {                                                     \
    __local TYPE red[WGS];                                                                                         \
    const uint lid = get_local_id(0);                                                                              \
    const uint rpg = WGS / tj;                                                                                     \
    const bool jm = (flags & F_JMAJOR) != 0;                                                                       \
    const uint r = jm ? lid / tj : lid % rpg, t = jm ? lid % tj : lid / rpg;                                       \
    const long i = (long)get_group_id(0) * rpg + r;                                                                \
    TYPE acc = ZERO;                                                                                               \
    if (i < (long)rows && !(flags & F_ALPHA_ZERO)) {                                                               \
      const long s0 = (long)get_group_id(1) * (long)chunk;                                                         \
      const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;                              \
      const long jlo = i - lo > s0 ? i - lo : s0;                                                                  \
      const long jhi = i + hi + 1 < s1 ? i + hi + 1 : s1;                                                          \
      for (long j = jlo + t; j < jhi; j += tj) {                                                                   \
        TYPE v;                                                                                                    \
        FETCH(v, i, j)                                                                                             \
        acc += MUL(v, GET(x, xb, incx, j));                                                                        \
      }                                                                                                            \
    }                                                                                                              \
    red[lid] = acc;                                                                                                \
    const uint stride = jm ? 1 : rpg;                                                                              \
    for (uint s = tj / 2; s > 0; s >>= 1) {                                                                        \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                                \
      if (t < s) red[lid] = red[lid] + red[lid + s * stride];                                                      \
    }                                                                                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                                  \
    if (t == 0 && i < (long)rows) blas2_row_result(red[lid], i, rows, y, yb, incy, alpha, beta, flags, part);    \
  }
