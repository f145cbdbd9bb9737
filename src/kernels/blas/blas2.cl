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
// blas2_mv_final adds them in slice order (deterministic) and writes y.
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
// check-prepend: blas/blas_storage.cl
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=float -DREAL=float -DCOMPLEX=0 -DWGS=64 -DSB=64
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DWGS=128 -DSB=16
// check-variant: -DTYPE=double -DREAL=double -DVW=2 -DSVW=2
// check-variant: -DTYPE=float -DREAL=float -DVW=4
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DWGS=64 -DSB=16
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DSB=16
// check-variant: -DHALF=1
// check-variant: -DHALF=1 -DSB=16 -DWGS=64

#ifndef TYPE
#define TYPE float       // element type: float, double, float2 (c32), double2 (c64)
#endif
#ifndef REAL
#define REAL float       // its part type
#endif
#ifndef COMPLEX
#define COMPLEX 0        // 1 for float2 / double2
#endif
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
#ifndef SVW
#define SVW 4            // symv / hemv blocks with F_VEC: elements per load (16 bytes: 4 f32, 2 f64)
#endif
#ifndef VW
#define VW 1             // dense gemv and ger: elements per access along the contiguous direction (real types)
#endif

#if COMPLEX
#define MUL(a, b) OPTUNE_CAT(optune_cmul_, REAL)(a, b)
#define CONJ(a) OPTUNE_CAT(optune_conj_, REAL)(a)
#define ISZERO(a) ((a).x == (REAL)0 && (a).y == (REAL)0)
#define ZERO OPTUNE_SPLAT(REAL, 2, 0)
#else
#define MUL(a, b) ((a) * (b))
#define CONJ(a) (a)
#define ISZERO(a) ((a) == (REAL)0)
#define ZERO ((REAL)0)
#endif

#define AT(p, b, inc, i) (p)[(long)(b) + (long)(i) * (inc)]
// Storage (blas_storage.cl): with HALF 1 only the generic kernels are
// compiled (the dense gemv / ger packs and the symv strips are f32's and f64's).

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
    if (t == 0 && i < (long)rows) {                                                                                \
      if (get_num_groups(1) == 1) {                                                                                \
        const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i);                                      \
        PUT(y, yb, incy, i, blas2_finish(red[lid], alpha, beta, yold, flags));                                     \
      } else {                                                                                                     \
        part[(long)get_group_id(1) * (long)rows + i] = red[lid];                                                   \
      }                                                                                                            \
    }                                                                                                              \
  }

MV_KERNEL(blas2_mv_ge, FETCH_GE)
MV_KERNEL(blas2_mv_sy, FETCH_SY)
MV_KERNEL(blas2_mv_sp, FETCH_SP)

// The second pass of a split product: y_i from the slices' sums, in order.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_mv_final(const ulong rows, const uint slices, __global const TYPE* part, __global ST* y, const ulong yb,
                    const long incy, const TYPE alpha, const TYPE beta, const int flags) {
  const long i = (long)get_global_id(0);
  if (i >= (long)rows) return;
  TYPE sum = part[i];
  for (uint s = 1; s < slices; ++s) sum += part[(long)s * (long)rows + i];
  const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i);
  PUT(y, yb, incy, i, blas2_finish(sum, alpha, beta, yold, flags));
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
  // With F_VEC (real f32 / f64: the fast direction contiguous, the base and
  // the other stride multiples of 4) a work-item's 4 fast indices are
  // neighbours, loaded as one pack; else they are SYMV_TX apart.
#if !HALF && !COMPLEX
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
#if !HALF && !COMPLEX
      if (vec) {
#pragma unroll
        for (int h = 0; h < 4 / SVW; ++h) {
          const OPTUNE_VEC(TYPE, SVW) vp = OPTUNE_VLOAD(SVW, line / SVW + h, a);
          OPTUNE_VUNPACK(SVW, vp, v + h * SVW);
        }
      } else
#endif
      {
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = LDE(a, line + (long)(u * SYMV_TX) * fs);
      }
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

#if !HALF
// ---- dense gemv and ger: packs of VW elements, several loads in flight ----
//
// A pack is VW consecutive elements along A's contiguous direction: one
// aligned access where the host allows it (F_VEC: A's base and leading
// dimension multiples of VW, and the pack wholly inside the matrix), else
// its lanes one by one (lanes past the matrix are 0 and never written).
// Complex types run VW 1 (an element is already a pair).
#define VT OPTUNE_VEC(TYPE, VW)
#if VW == 1
#define VZERO ZERO
#else
#define VZERO OPTUNE_SPLAT(TYPE, VW, (TYPE)0)
#endif
#if VW == 1
#define PLOAD(p, at) ((p)[at])
#define PSTORE(v, p, at) ((p)[at] = (v))
#else
#define PLOAD(p, at) (*(__global const VT*)((p) + (at)))
#define PSTORE(v, p, at) (*(__global VT*)((p) + (at)) = (v))
#endif

// The pack whose lane 0 is a[at], lanes ls apart, nl of them inside M.
OPTUNE_FUNC VT blas2_pack(__global const TYPE* a, const long at, const long ls, const int nl, const bool vec) {
#if VW == 1
  return a[at];
#else
  if (vec && nl == VW) return PLOAD(a, at);
  TYPE l[VW];
  for (int k = 0; k < VW; ++k) l[k] = k < nl ? a[at + k * ls] : (TYPE)0;
  return OPTUNE_VPACK(TYPE, VW, l);
#endif
}

// Lane k of a pack.
OPTUNE_FUNC TYPE blas2_lane(const VT v, const int k) {
#if VW == 1
  return v;
#elif VW == 2
  return k == 0 ? v.x : v.y;
#else
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
#endif
}

// x's elements j .. j + nl - 1 as a pack (0 past nl).
OPTUNE_FUNC VT blas2_xpack(__global const TYPE* x, const ulong xb, const long incx, const long j, const int nl) {
#if VW == 1
  return AT(x, xb, incx, j);
#else
  TYPE l[VW];
  for (int k = 0; k < VW; ++k) l[k] = k < nl ? AT(x, xb, incx, j + k) : (TYPE)0;
  return OPTUNE_VPACK(TYPE, VW, l);
#endif
}

// Part k of the split sums, read past the caches (another group wrote it).
OPTUNE_FUNC TYPE blas2_read_part(__global TYPE* part, const long k) {
  volatile __global REAL* p = (volatile __global REAL*)part;
#if COMPLEX
  TYPE v;
  v.x = p[2 * k];
  v.y = p[2 * k + 1];
  return v;
#else
  return p[k];
#endif
}

// y_i for rows first .. first + nrows - 1 from the slices' sums, in slice order.
OPTUNE_FUNC void blas2_add_slices(const long first, const long nrows, const ulong rows, const uint slices,
                                  __global TYPE* part, __global TYPE* y, const ulong yb, const long incy,
                                  const TYPE alpha, const TYPE beta, const int flags, const uint lid) {
  // (A counted loop with a test inside: PoCL 3 ran `for (k = lid; k <
  // nrows; k += WGS)` here past nrows.)
  const long iters = (nrows + WGS - 1) / WGS;
  for (long it = 0; it < iters; ++it) {
    const long k = it * WGS + lid;
    if (k >= nrows) break;
    const long i = first + k;
    // Four reads in flight (volatile reads are issued in order, and a sum
    // waits for its operand), added in slice order.
    TYPE sum = blas2_read_part(part, i);
    uint s = 1;
    for (; s + 3 < slices; s += 4) {
      const TYPE v0 = blas2_read_part(part, (long)s * (long)rows + i);
      const TYPE v1 = blas2_read_part(part, (long)(s + 1) * (long)rows + i);
      const TYPE v2 = blas2_read_part(part, (long)(s + 2) * (long)rows + i);
      const TYPE v3 = blas2_read_part(part, (long)(s + 3) * (long)rows + i);
      sum += v0;
      sum += v1;
      sum += v2;
      sum += v3;
    }
    for (; s < slices; ++s) sum += blas2_read_part(part, (long)s * (long)rows + i);
    const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : AT(y, yb, incy, i);
    AT(y, yb, incy, i) = blas2_finish(sum, alpha, beta, yold, flags);
  }
}

// The fused second pass: every group of a row block has written its slice's
// sums; the one that arrives last (the counter, after a global fence) adds
// them in slice order, so the result does not depend on the arrival order
// (`ticket`: a __local uint of the kernel).
#define FUSED_FINAL(counter, arrivals, first, nrows)                                            \
  {                                                                                             \
    mem_fence(CLK_GLOBAL_MEM_FENCE);                                                            \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                        \
    if (lid == 0) ticket = atomic_inc(counter);                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    if (ticket == (arrivals) - 1) {                                                            \
      mem_fence(CLK_GLOBAL_MEM_FENCE);                                                          \
      blas2_add_slices(first, nrows, rows, slices, part, y, yb, incy, alpha, beta, flags, lid); \
    }                                                                                           \
  }

#if COMPLEX
#define CONJ_IF(v, f) ((f) ? CONJ(v) : (v))
#else
#define CONJ_IF(v, f) (v)
#endif

// The dense gemv kernels' arguments (count: the row blocks' arrival counters).
#define GEMV_ARGS                                                                                                \
  const ulong rows, const ulong cols, __global const TYPE *a, const ulong ab, const long si, const long sj,      \
      __global const TYPE *x, const ulong xb, const long incx, __global TYPE *y, const ulong yb, const long incy, \
      const TYPE alpha, const TYPE beta, const int flags, const uint tj, const ulong chunk, __global TYPE *part,  \
      __global uint *count

// gemv with M's columns contiguous (column-major N, row-major T / C): a
// work-item owns a pack of VW neighbouring rows, tj work-items per pack (WGS
// / tj packs apart) walk the slice's columns, four packs in flight, each
// added in column order. Then the tj sums of each row go through a fixed
// tree; with one slice the group writes y, with several each row's sum goes
// to part[slice rows + i] and (F_FUSE) the row block's last group adds them
// (else blas2_mv_final does).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_c(GEMV_ARGS) {
  __local VT red[WGS];
  __local uint ticket;
  const uint lid = get_local_id(0), rpg = WGS / tj;
  const uint r = lid % rpg, t = lid / rpg;
  const long i0 = ((long)get_group_id(0) * rpg + r) * VW;
  const int nl = i0 < (long)rows ? ((long)rows - i0 < VW ? (int)((long)rows - i0) : VW) : 0;
  const bool vec = (flags & F_VEC) != 0, cj = (flags & F_CONJ) != 0;
  const uint slices = get_num_groups(1);
  VT acc = VZERO;
  if (nl > 0) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i0 * si, step = tj;
    long j = s0 + t;
    for (; j + 3 * step < s1; j += 4 * step) {
      const VT p0 = blas2_pack(a, base + j * sj, si, nl, vec);
      const VT p1 = blas2_pack(a, base + (j + step) * sj, si, nl, vec);
      const VT p2 = blas2_pack(a, base + (j + 2 * step) * sj, si, nl, vec);
      const VT p3 = blas2_pack(a, base + (j + 3 * step) * sj, si, nl, vec);
      acc += MUL(CONJ_IF(p0, cj), AT(x, xb, incx, j));
      acc += MUL(CONJ_IF(p1, cj), AT(x, xb, incx, j + step));
      acc += MUL(CONJ_IF(p2, cj), AT(x, xb, incx, j + 2 * step));
      acc += MUL(CONJ_IF(p3, cj), AT(x, xb, incx, j + 3 * step));
    }
    for (; j < s1; j += step) acc += MUL(CONJ_IF(blas2_pack(a, base + j * sj, si, nl, vec), cj), AT(x, xb, incx, j));
  }
  red[lid] = acc;
  for (uint s = tj / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < s) red[lid] = red[lid] + red[lid + s * rpg];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0 && nl > 0) {
    const VT sums = red[lid];
    for (int k = 0; k < nl; ++k) {
      if (slices == 1) {
        const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : AT(y, yb, incy, i0 + k);
        AT(y, yb, incy, i0 + k) = blas2_finish(blas2_lane(sums, k), alpha, beta, yold, flags);
      } else {
        part[(long)get_group_id(1) * (long)rows + i0 + k] = blas2_lane(sums, k);
      }
    }
  }
  if (slices > 1 && (flags & F_FUSE)) {
    const long first = (long)get_group_id(0) * rpg * VW;
    const long nrows = (long)rows - first < (long)rpg * VW ? (long)rows - first : (long)rpg * VW;
    FUSED_FINAL(&count[get_group_id(0)], slices, first, nrows)
  }
}

// gemv with M's rows contiguous (row-major N, column-major T / C): tj
// work-items side by side per row, each summing packs of VW columns (tj VW
// apart, four in flight; x by packs too where F_XVEC), the lanes added at
// the end, then a fixed tree over the tj; the slices as in blas2_gemv_c.
// The host makes chunk a multiple of VW, so packs start aligned.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_r(GEMV_ARGS) {
  __local TYPE red[WGS];
  __local uint ticket;
  const uint lid = get_local_id(0), rpg = WGS / tj;
  const uint r = lid / tj, t = lid % tj;
  const long i = (long)get_group_id(0) * rpg + r;
  const bool vec = (flags & F_VEC) != 0, xvec = (flags & F_XVEC) != 0, cj = (flags & F_CONJ) != 0;
  const uint slices = get_num_groups(1);
  VT acc = VZERO;
  if (i < (long)rows) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i * si, step = (long)tj * VW;
#define XPACK(j, nl) (xvec && (nl) == VW ? PLOAD(x, (long)xb + (j)) : blas2_xpack(x, xb, incx, j, nl))
    long j = s0 + (long)t * VW;
    for (; j + 3 * step + VW <= s1; j += 4 * step) {
      const VT p0 = blas2_pack(a, base + j * sj, sj, VW, vec);
      const VT p1 = blas2_pack(a, base + (j + step) * sj, sj, VW, vec);
      const VT p2 = blas2_pack(a, base + (j + 2 * step) * sj, sj, VW, vec);
      const VT p3 = blas2_pack(a, base + (j + 3 * step) * sj, sj, VW, vec);
      acc += MUL(CONJ_IF(p0, cj), XPACK(j, VW));
      acc += MUL(CONJ_IF(p1, cj), XPACK(j + step, VW));
      acc += MUL(CONJ_IF(p2, cj), XPACK(j + 2 * step, VW));
      acc += MUL(CONJ_IF(p3, cj), XPACK(j + 3 * step, VW));
    }
    for (; j < s1; j += step) {
      const int nl = s1 - j < VW ? (int)(s1 - j) : VW;
      acc += MUL(CONJ_IF(blas2_pack(a, base + j * sj, sj, nl, vec), cj), XPACK(j, nl));
    }
#undef XPACK
  }
  red[lid] = OPTUNE_VSUM(VW, acc);
  for (uint s = tj / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < s) red[lid] = red[lid] + red[lid + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0 && i < (long)rows) {
    if (slices == 1) {
      const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : AT(y, yb, incy, i);
      AT(y, yb, incy, i) = blas2_finish(red[lid], alpha, beta, yold, flags);
    } else {
      part[(long)get_group_id(1) * (long)rows + i] = red[lid];
    }
  }
  if (slices > 1 && (flags & F_FUSE)) {
    const long first = (long)get_group_id(0) * rpg;
    const long nrows = (long)rows - first < (long)rpg ? (long)rows - first : (long)rpg;
    FUSED_FINAL(&count[get_group_id(0)], slices, first, nrows)
  }
}

// ger, geru, gerc in dense storage: a work-item owns a pack of VW elements
// along the contiguous direction e and walks rc columns f of its group's
// stripe (groups of the second dimension rc apart), the e side's factor held
// in registers: c1(u_i) when e = i (column-major), a1 c2(v_j) and its skip
// test when e = j (F_SWAPIJ). A(i, j) += c1(u_i) (a1 c2(v_j)) as blas2_rank
// computes it, skipped (not written) where v_j = 0.
// One loaded pack of column fc updated and stored (not where v_j = 0).
#define GER_PACK(pk, fc)                                                                 \
  {                                                                                      \
    const TYPE vj_ = swap ? ZERO : AT(v, vb, incv, fc);                                  \
    if (swap || !ISZERO(vj_)) {                                                          \
      const TYPE ff_ = swap ? CONJ_IF(AT(u, ub, incu, fc), c1) : MUL(a1, CONJ_IF(vj_, c2)); \
      TYPE l_[VW];                                                                       \
      OPTUNE_VUNPACK(VW, pk, l_);                                                        \
      for (int k = 0; k < VW; ++k)                                                       \
        if (!skip[k]) l_[k] = swap ? l_[k] + MUL(ff_, fe[k]) : l_[k] + MUL(fe[k], ff_);  \
      PSTORE(OPTUNE_VPACK(TYPE, VW, l_), a, (long)ab + e0 * se + (fc) * sf);             \
    }                                                                                    \
  }

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_ger(const ulong rows, const ulong cols, __global TYPE* a, const ulong ab, const long si, const long sj,
               __global const TYPE* u, const ulong ub, const long incu, __global const TYPE* v, const ulong vb,
               const long incv, const TYPE a1, const int flags, const uint rc) {
  const bool swap = (flags & F_SWAPIJ) != 0, vec = (flags & F_VEC) != 0;
  const bool c1 = (flags & F_C1) != 0, c2 = (flags & F_C2) != 0;
  const long ne = swap ? (long)cols : (long)rows, nf = swap ? (long)rows : (long)cols;
  const long se = swap ? sj : si, sf = swap ? si : sj;
  const long e0 = (long)get_global_id(0) * VW;
  if (e0 >= ne) return;
  const int nl = ne - e0 < VW ? (int)(ne - e0) : VW;
  TYPE fe[VW];
  bool skip[VW];
  for (int k = 0; k < VW; ++k) {
    skip[k] = k >= nl;
    fe[k] = ZERO;
    if (k >= nl) continue;
    if (swap) {
      const TYPE vj = AT(v, vb, incv, e0 + k);
      skip[k] = ISZERO(vj);
      fe[k] = MUL(a1, CONJ_IF(vj, c2));
    } else {
      fe[k] = CONJ_IF(AT(u, ub, incu, e0 + k), c1);
    }
  }
  (void)c1;
  (void)c2;
  const long stride = (long)get_num_groups(1) * (long)rc;
  // Whole packs, one access each.
  const bool whole = vec && nl == VW;
  for (long f0 = (long)get_group_id(1) * (long)rc; f0 < nf; f0 += stride) {
    const long f1 = f0 + (long)rc < nf ? f0 + (long)rc : nf;
    long f = f0;
    // Whole packs four columns at a time: the four loads issued before the
    // stores (A is read and written through one pointer, so the compiler
    // would not move a load above an earlier store). A skipped column's pack
    // is read, never written.
#if VW > 1  // (PoCL 3's LLVM 15 crashed in LICM on the complex, VW 1 form of this loop)
    if (whole) {
      for (; f + 3 < f1; f += 4) {
        const VT p0 = PLOAD(a, (long)ab + e0 * se + f * sf);
        const VT p1 = PLOAD(a, (long)ab + e0 * se + (f + 1) * sf);
        const VT p2 = PLOAD(a, (long)ab + e0 * se + (f + 2) * sf);
        const VT p3 = PLOAD(a, (long)ab + e0 * se + (f + 3) * sf);
        GER_PACK(p0, f)
        GER_PACK(p1, f + 1)
        GER_PACK(p2, f + 2)
        GER_PACK(p3, f + 3)
      }
    }
#endif
    for (; f < f1; ++f) {
      TYPE ff;
      if (swap) {
        ff = CONJ_IF(AT(u, ub, incu, f), c1);
      } else {
        const TYPE vj = AT(v, vb, incv, f);
        if (ISZERO(vj)) continue;
        ff = MUL(a1, CONJ_IF(vj, c2));
      }
      const long at = (long)ab + e0 * se + f * sf;
      for (int k = 0; k < nl; ++k)
        if (!skip[k]) a[at + k * se] = a[at + k * se] + (swap ? MUL(ff, fe[k]) : MUL(fe[k], ff));
    }
  }
}

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
    const TYPE uj = GET(u, ub, incu, j), vj = GET(v, vb, incv, j);
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
