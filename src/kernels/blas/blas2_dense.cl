// blas2_dense: the blas2 program's dense gemv kernels by packs of VW (real
// types, f16 storage included; complex ones with VW 1) and the pack macros
// blas2_ger.cl shares, after blas2_defs.cl (blas2.cl describes the routines
// and their flags).
//
// check-prepend: blas/blas_storage.cl blas/blas2_defs.cl
// check-variant: -DTYPE=float -DREAL=float -DVW=4
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1
// check-variant: -DHALF=1 -DVW=4
// check-variant: -DHALF=1 -DVW=2
// check-variant: -DHALF=1 -DVW=1
// check-variant: -DTYPE=float -DREAL=float -DVW=4 -DGEMV_C_LOADS=1 -DGEMV_R_LOADS=1
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DGEMV_C_LOADS=1 -DGEMV_R_LOADS=0
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DCPW=2
// check-variant: -DTYPE=double2 -DREAL=double -DCOMPLEX=1 -DCPW=1
// check-variant-opencl: -DTYPE=double -DREAL=double -DF64=1 -DVW=4
// check-variant-opencl: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DCPW=4

// ---- dense gemv and ger's packs: VW elements, several loads in flight ----
//
// A pack is VW consecutive elements along A's contiguous direction: one
// aligned access where the host allows it (F_VEC: A's base and leading
// dimension multiples of VW, and the pack wholly inside the matrix), else
// its lanes one by one (lanes past the matrix are 0 and never written).
// Complex types run VW 1 (an element is already a pair). With HALF the
// matrix and vectors are stored as half (ST) and a pack is VW halves read
// into (and written from) a float pack, the arithmetic in float.
#define VT OPTUNE_VEC(TYPE, VW)
// Packs of A each f16 dense gemv work-item loads before it uses them: 8,
// twice the four named loads of the other loops, since f16's packs hold half
// the bytes of f32's. Which other types take these loops: GEMV_R_LOADS and
// GEMV_C_LOADS below, as measured on the H200.
#define GEMV_LOADS 8
// blas2_gemv_r takes the same loop (GEMV_LOADS packs in an array, loaded
// before any is used) for complex types and f64 everywhere and for every
// type on CUDA. On the H200 (CUDA, 256 MiB gemv_t) it took c32 from 118 to
// 88 us, f32 from 68.2 to 65.5 and f64 from 77.8 to 75.7; on NVIDIA's OpenCL
// c32 moved within the spread (78.4 against 80.6 us), f64 went from 90.8 to
// 78.4 and f32 from 71.8 to 72.9 (within the spread), so f32 keeps four
// named loads there. Defined outside for the comparison
// (OPTUNE_BUILD_OPTIONS=-DGEMV_R_LOADS=0 or 1).
#ifndef GEMV_R_LOADS
#define GEMV_R_LOADS (HALF || COMPLEX || F64 || OPTUNE_BACKEND_CUDA)
#endif
// blas2_gemv_c's loop of GEMV_LOADS is f16's and f64's: on the H200 (gemv,
// 256 MiB) f64 went from 78.5 to 75.4 us on CUDA and from 74.5 to 72.4 on
// NVIDIA's OpenCL, f32 from 70.7 to 73.0 on CUDA (71.8 to 71.4 on OpenCL),
// and c32 fell from 76.2 to 151.0 (CUDA) and from 84.7 to 165.9 (OpenCL).
// (OPTUNE_BUILD_OPTIONS=-DGEMV_C_LOADS=0 or 1 forces it for the comparison.)
#ifndef GEMV_C_LOADS
#define GEMV_C_LOADS (HALF || F64)
#endif
#if VW == 1
#define VZERO ZERO
#else
#define VZERO OPTUNE_SPLAT(TYPE, VW, (TYPE)0)
#endif
#if HALF
#define PLOAD(p, at) OPTUNE_CAT(optune_vload_half, VW)((size_t)(at) / VW, p)
#define PSTORE(v, p, at) OPTUNE_CAT(optune_vstore_half, VW)(v, (size_t)(at) / VW, p)
#elif VW == 1
#define PLOAD(p, at) ((p)[at])
#define PSTORE(v, p, at) ((p)[at] = (v))
#else
#define PLOAD(p, at) (*(__global const VT*)((p) + (at)))
#define PSTORE(v, p, at) (*(__global VT*)((p) + (at)) = (v))
#endif

// The pack whose lane 0 is a[at], lanes ls apart, nl of them inside M.
OPTUNE_FUNC VT blas2_pack(__global const ST* a, const long at, const long ls, const int nl, const bool vec) {
#if VW == 1
  return LDE(a, at);
#else
  if (vec && nl == VW) return PLOAD(a, at);
  TYPE l[VW];
  for (int k = 0; k < VW; ++k) l[k] = k < nl ? LDE(a, at + k * ls) : (TYPE)0;
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
OPTUNE_FUNC VT blas2_xpack(__global const ST* x, const ulong xb, const long incx, const long j, const int nl) {
#if VW == 1
  return GET(x, xb, incx, j);
#else
  TYPE l[VW];
  for (int k = 0; k < VW; ++k) l[k] = k < nl ? GET(x, xb, incx, j + k) : (TYPE)0;
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
                                  __global TYPE* part, __global ST* y, const ulong yb, const long incy,
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
    const TYPE yold = (flags & F_BETA_ZERO) ? ZERO : GET(y, yb, incy, i);
    PUT(y, yb, incy, i, blas2_finish(sum, alpha, beta, yold, flags));
  }
}

// The fused second pass: every group of a row block has written its slice's
// sums; the one that arrives last (the counter, after a global fence) adds
// them in slice order, so the result does not depend on the arrival order
// (`ticket`: a __local uint of the kernel), and sets the counter back to 0:
// the counters live in the queue's zero-kept ticket slot, so no call fills
// them first.
#define FUSED_FINAL(counter, arrivals, first, nrows)                                            \
  {                                                                                             \
    mem_fence(CLK_GLOBAL_MEM_FENCE);                                                            \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                        \
    if (lid == 0) ticket = atomic_inc(counter);                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    if (ticket == (arrivals) - 1) {                                                            \
      mem_fence(CLK_GLOBAL_MEM_FENCE);                                                          \
      blas2_add_slices(first, nrows, rows, slices, part, y, yb, incy, alpha, beta, flags, lid); \
      if (lid == 0) atomic_xchg(counter, 0u); /* an atomic: the others counted on it */         \
    }                                                                                           \
  }

#if COMPLEX
#define CONJ_IF(v, f) ((f) ? CONJ(v) : (v))
#else
#define CONJ_IF(v, f) (v)
#endif

// The dense gemv kernels' arguments (count: the row blocks' arrival counters).
#define GEMV_ARGS                                                                                                \
  const ulong rows, const ulong cols, __global const ST *a, const ulong ab, const long si, const long sj,        \
      __global const ST *x, const ulong xb, const long incx, __global ST *y, const ulong yb, const long incy,     \
      const TYPE alpha, const TYPE beta, const int flags, const uint tj, const ulong chunk, __global TYPE *part,  \
      __global uint *count

// gemv with M's columns contiguous (column-major N, row-major T / C): a
// work-item owns a pack of VW neighbouring rows, tj work-items per pack (WGS
// / tj packs apart) walk the slice's columns, four packs in flight (f16:
// GEMV_LOADS), each added in column order. Then the tj sums of each row go
// through a fixed tree; with one slice the group writes y, with several each
// row's sum goes to part[slice rows + i] and (F_FUSE) the row block's last
// group adds them (else blas2_mv_final does).
// The start of a column-contiguous gemv: the partial sums' local array (of
// RT), rows i0 .. i0 + nl - 1 of a pack of W, work-item t of the pack's tj.
#define GEMV_C_HEAD(RT, W)                                                                     \
  __local RT red[WGS];                                                                         \
  __local uint ticket;                                                                         \
  const uint lid = get_local_id(0), rpg = WGS / tj;                                            \
  const uint r = lid % rpg, t = lid / rpg;                                                     \
  const long i0 = ((long)get_group_id(0) * rpg + r) * (W);                                     \
  const int nl = i0 < (long)rows ? ((long)rows - i0 < (W) ? (int)((long)rows - i0) : (W)) : 0; \
  const bool cj = (flags & F_CONJ) != 0;                                                       \
  const uint slices = get_num_groups(1);
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_c(GEMV_ARGS) {
  GEMV_C_HEAD(VT, VW)
  const bool vec = (flags & F_VEC) != 0;
  VT acc = VZERO;
  if (nl > 0) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i0 * si, step = tj;
    long j = s0 + t;
#if GEMV_C_LOADS
    // GEMV_LOADS packs and their x loaded before any is used, whole packs by
    // a loop of their own: with the test on nl inside blas2_pack, NVRTC put
    // each f16 pack's conversion to float in its branch, right after its load,
    // so a warp waited for each load before it issued the next (its PTX).
#define GEMV_C_STEPS(LOAD)                                                                      \
  for (; j + (GEMV_LOADS - 1) * step < s1; j += GEMV_LOADS * step) {                           \
    VT pk[GEMV_LOADS];                                                                          \
    TYPE xv[GEMV_LOADS];                                                                        \
    _Pragma("unroll") for (int u = 0; u < GEMV_LOADS; ++u) pk[u] = LOAD(base + (j + u * step) * sj); \
    _Pragma("unroll") for (int u = 0; u < GEMV_LOADS; ++u) xv[u] = GET(x, xb, incx, j + u * step); \
    _Pragma("unroll") for (int u = 0; u < GEMV_LOADS; ++u) acc += MUL(CONJ_IF(pk[u], cj), xv[u]);   \
  }
#define GEMV_C_WHOLE(at) PLOAD(a, at)
#define GEMV_C_LANES(at) blas2_pack(a, at, si, nl, vec)
    if (vec && nl == VW) {
      GEMV_C_STEPS(GEMV_C_WHOLE)
    } else {
      GEMV_C_STEPS(GEMV_C_LANES)
    }
#undef GEMV_C_STEPS
#undef GEMV_C_WHOLE
#undef GEMV_C_LANES
#else
    for (; j + 3 * step < s1; j += 4 * step) {
      const VT p0 = blas2_pack(a, base + j * sj, si, nl, vec);
      const VT p1 = blas2_pack(a, base + (j + step) * sj, si, nl, vec);
      const VT p2 = blas2_pack(a, base + (j + 2 * step) * sj, si, nl, vec);
      const VT p3 = blas2_pack(a, base + (j + 3 * step) * sj, si, nl, vec);
      acc += MUL(CONJ_IF(p0, cj), GET(x, xb, incx, j));
      acc += MUL(CONJ_IF(p1, cj), GET(x, xb, incx, j + step));
      acc += MUL(CONJ_IF(p2, cj), GET(x, xb, incx, j + 2 * step));
      acc += MUL(CONJ_IF(p3, cj), GET(x, xb, incx, j + 3 * step));
    }
#endif
    for (; j < s1; j += step) acc += MUL(CONJ_IF(blas2_pack(a, base + j * sj, si, nl, vec), cj), GET(x, xb, incx, j));
  }
  red[lid] = acc;
  for (uint s = tj / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < s) red[lid] = red[lid] + red[lid + s * rpg];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0 && nl > 0) {
    const VT sums = red[lid];
    for (int k = 0; k < nl; ++k) blas2_row_result(blas2_lane(sums, k), i0 + k, rows, y, yb, incy, alpha, beta, flags, part);
  }
  if (slices > 1 && (flags & F_FUSE)) {
    const long first = (long)get_group_id(0) * rpg * VW;
    const long nrows = (long)rows - first < (long)rpg * VW ? (long)rows - first : (long)rpg * VW;
    FUSED_FINAL(&count[get_group_id(0)], slices, first, nrows)
  }
}

// The start of a row-contiguous gemv: row i of the group's rpg, work-item t
// of the row's tj, the flags, the slices.
#define GEMV_R_HEAD                                                                                   \
  __local TYPE red[WGS];                                                                              \
  __local uint ticket;                                                                                \
  const uint lid = get_local_id(0), rpg = WGS / tj;                                                   \
  const uint r = lid / tj, t = lid % tj;                                                              \
  const long i = (long)get_group_id(0) * rpg + r;                                                     \
  const bool vec = (flags & F_VEC) != 0, xvec = (flags & F_XVEC) != 0, cj = (flags & F_CONJ) != 0; \
  const uint slices = get_num_groups(1);
// The end of a row-contiguous gemv (blas2_gemv_r, blas2_gemv_r_pairs): each
// work-item's sum, then a fixed tree over the row's tj; with one slice the
// row's first work-item writes y, with several the slice's sum goes to part
// and (F_FUSE) the row block's last group adds them.
#define GEMV_R_END(sum)                                                                 \
  red[lid] = (sum);                                                                     \
  for (uint s = tj / 2; s > 0; s >>= 1) {                                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                       \
    if (t < s) red[lid] = red[lid] + red[lid + s];                                      \
  }                                                                                     \
  barrier(CLK_LOCAL_MEM_FENCE);                                                         \
  if (t == 0 && i < (long)rows) blas2_row_result(red[lid], i, rows, y, yb, incy, alpha, beta, flags, part); \
  if (slices > 1 && (flags & F_FUSE)) {                                                 \
    const long first = (long)get_group_id(0) * rpg;                                     \
    const long nrows = (long)rows - first < (long)rpg ? (long)rows - first : (long)rpg; \
    FUSED_FINAL(&count[get_group_id(0)], slices, first, nrows)                          \
  }

// gemv with M's rows contiguous (row-major N, column-major T / C): tj
// work-items side by side per row, each summing packs of VW columns (tj VW
// apart, four in flight, or GEMV_LOADS where GEMV_R_LOADS; x by packs too where F_XVEC), the
// lanes added at the end, then a fixed tree over the tj; the slices as in blas2_gemv_c.
// The host makes chunk a multiple of VW, so packs start aligned.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_r(GEMV_ARGS) {
  GEMV_R_HEAD
  VT acc = VZERO;
  if (i < (long)rows) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i * si, step = (long)tj * VW;
#define XPACK(j, nl) (xvec && (nl) == VW ? PLOAD(x, (long)xb + (j)) : blas2_xpack(x, xb, incx, j, nl))
    long j = s0 + (long)t * VW;
#if GEMV_R_LOADS
    for (; j + (GEMV_LOADS - 1) * step + VW <= s1; j += GEMV_LOADS * step) {
      VT pk[GEMV_LOADS];
#pragma unroll
      for (int u = 0; u < GEMV_LOADS; ++u) pk[u] = blas2_pack(a, base + (j + u * step) * sj, sj, VW, vec);
#pragma unroll
      for (int u = 0; u < GEMV_LOADS; ++u) acc += MUL(CONJ_IF(pk[u], cj), XPACK(j + u * step, VW));
    }
#else
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
#endif
    for (; j < s1; j += step) {
      const int nl = s1 - j < VW ? (int)(s1 - j) : VW;
      acc += MUL(CONJ_IF(blas2_pack(a, base + j * sj, sj, nl, vec), cj), XPACK(j, nl));
    }
#undef XPACK
  }
  GEMV_R_END(OPTUNE_VSUM(VW, acc))
}

// ---- complex elements as pairs of reals (OpenCL, blas2 CPAIRS) ----
//
// Complex dense gemv (rows contiguous) and ger (blas2_ger.cl) can read A and
// the vectors as REAL arrays, CPW elements (2 CPW reals) a pack: vector loads
// and real arithmetic where the complex element types' loops vectorize badly
// or not at all (PoCL; blas2_ger.cl says what crashed). Only compiled where
// the host chose it (CPW > 0: blas2 CPAIRS), and not on CUDA, where fit keeps
// CPAIRS 0 and the prelude's double4 has no arithmetic.
#ifndef CPW
#define CPW 0
#endif
#if COMPLEX && CPW > 0 && !OPTUNE_BACKEND_CUDA
#if CPW == 1
#define RW 2
#define PAIRS_SWAP(v) ((v).yx)
#define PAIRS_EVEN(v) ((v).x)
#define PAIRS_ODD(v) ((v).y)
#elif CPW == 2
#define RW 4
#define PAIRS_SWAP(v) ((v).yxwz)
#define PAIRS_EVEN(v) ((v).x + (v).z)
#define PAIRS_ODD(v) ((v).y + (v).w)
#else
#define RW 8
#define PAIRS_SWAP(v) ((v).s10325476)
#define PAIRS_EVEN(v) ((v).s0 + (v).s2 + (v).s4 + (v).s6)
#define PAIRS_ODD(v) ((v).s1 + (v).s3 + (v).s5 + (v).s7)
#endif
#define RVT OPTUNE_VEC(REAL, RW)
// Element i of a complex vector read as reals (base b and increment inc in
// elements), conjugated where conj: *re, *im.
OPTUNE_FUNC void pairs_element(__global const REAL* p, const long b, const long inc, const long i, const bool conj,
                               REAL* re, REAL* im) {
  const long q = 2 * (b + i * inc);
  *re = p[q];
  *im = conj ? -p[q + 1] : p[q + 1];
}
// The pack of elements e0, e0 + inc, ... (nl of them, 0 past nl) as reals:
// one aligned load where whole (inc 1, e0 a multiple of CPW, nl = CPW).
OPTUNE_FUNC RVT pairs_pack(__global const REAL* p, const long e0, const long inc, const int nl, const bool whole) {
  if (whole) return OPTUNE_GLOAD(REAL, RW, e0 / CPW, p);
  REAL l[RW];
  for (int k = 0; k < CPW; ++k) {
    l[2 * k] = (REAL)0, l[2 * k + 1] = (REAL)0;
    if (k < nl) pairs_element(p, e0, inc, k, false, &l[2 * k], &l[2 * k + 1]);
  }
  return OPTUNE_VPACK(REAL, RW, l);
}

// blas2_gemv_r with complex elements as pairs of reals: the tj work-items of
// a row sum packs of CPW elements tj packs apart, four in flight, A's packs
// whole where F_VEC (the host checked base and leading dimension), x's where
// F_XVEC. With a pack a = (r0, i0, r1, i1, ...) and x's (u0, v0, ...), p += a x
// and q += a swap(x) (x's parts exchanged) lane by lane; then a x's real part
// is p's even lanes less its odd ones and the imaginary part all of q
// (conj(a) x, F_CONJ: all of p, and q's even lanes less its odd ones).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_r_pairs(GEMV_ARGS) {
  GEMV_R_HEAD
  __global const REAL* ar = (__global const REAL*)a;
  __global const REAL* xr = (__global const REAL*)x;
  RVT pp = OPTUNE_SPLAT(REAL, RW, (REAL)0), qq = pp;
  if (i < (long)rows) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i * si, step = (long)tj * CPW;
#define APACK(j, nl) pairs_pack(ar, base + (j), 1, nl, vec && (nl) == CPW)
#define XPACK(j, nl) pairs_pack(xr, (long)xb + (j) * incx, incx, nl, xvec && (nl) == CPW)
#define PAIRS_DOT(av, xv) \
  {                       \
    const RVT x_ = (xv);  \
    pp += (av) * x_;      \
    qq += (av) * PAIRS_SWAP(x_); \
  }
    long j = s0 + (long)t * CPW;
    for (; j + 3 * step + CPW <= s1; j += 4 * step) {
      const RVT a0 = APACK(j, CPW), a1 = APACK(j + step, CPW);
      const RVT a2 = APACK(j + 2 * step, CPW), a3 = APACK(j + 3 * step, CPW);
      PAIRS_DOT(a0, XPACK(j, CPW))
      PAIRS_DOT(a1, XPACK(j + step, CPW))
      PAIRS_DOT(a2, XPACK(j + 2 * step, CPW))
      PAIRS_DOT(a3, XPACK(j + 3 * step, CPW))
    }
    for (; j < s1; j += step) {
      const int nl = s1 - j < CPW ? (int)(s1 - j) : CPW;
      PAIRS_DOT(APACK(j, nl), XPACK(j, nl))
    }
#undef PAIRS_DOT
#undef XPACK
#undef APACK
  }
  TYPE sum;
  sum.x = cj ? PAIRS_EVEN(pp) + PAIRS_ODD(pp) : PAIRS_EVEN(pp) - PAIRS_ODD(pp);
  sum.y = cj ? PAIRS_EVEN(qq) - PAIRS_ODD(qq) : PAIRS_EVEN(qq) + PAIRS_ODD(qq);
  GEMV_R_END(sum)
}

// blas2_gemv_c with complex elements as pairs of reals: a work-item owns CPW
// neighbouring rows (2 CPW reals of each column, one load where F_VEC) and
// walks the slice's columns tj apart, four in flight; with x_j = (u, v),
// p += a u and q += a v lane by lane, so row k's sum is (p's lane 2k less
// q's 2k + 1, p's 2k + 1 plus q's 2k), conjugated (F_CONJ): (p's 2k plus q's
// 2k + 1, q's 2k less p's 2k + 1). The tj sums of a pack then go through
// gemv_c's tree as reals.
#if CPW == 1
#define PAIRS_SIGN ((RVT)((REAL)-1, (REAL)1))
#elif CPW == 2
#define PAIRS_SIGN ((RVT)((REAL)-1, (REAL)1, (REAL)-1, (REAL)1))
#else
#define PAIRS_SIGN ((RVT)((REAL)-1, (REAL)1, (REAL)-1, (REAL)1, (REAL)-1, (REAL)1, (REAL)-1, (REAL)1))
#endif
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas2_gemv_c_pairs(GEMV_ARGS) {
  GEMV_C_HEAD(RVT, CPW)
  const bool whole = (flags & F_VEC) != 0 && nl == CPW;
  __global const REAL* ar = (__global const REAL*)a;
  RVT pp = OPTUNE_SPLAT(REAL, RW, (REAL)0), qq = pp;
  if (nl > 0) {
    const long s0 = (long)get_group_id(1) * (long)chunk;
    const long s1 = s0 + (long)chunk < (long)cols ? s0 + (long)chunk : (long)cols;
    const long base = (long)ab + i0 * si, step = tj;
#define PAIRS_AXPY(j)                                          \
  {                                                            \
    const RVT a_ = pairs_pack(ar, base + (j) * sj, si, nl, whole); \
    const TYPE x_ = GET(x, xb, incx, j);                       \
    pp += a_ * x_.x;                                           \
    qq += a_ * x_.y;                                           \
  }
    long j = s0 + t;
    for (; j + 3 * step < s1; j += 4 * step) {
      PAIRS_AXPY(j)
      PAIRS_AXPY(j + step)
      PAIRS_AXPY(j + 2 * step)
      PAIRS_AXPY(j + 3 * step)
    }
    for (; j < s1; j += step) PAIRS_AXPY(j)
#undef PAIRS_AXPY
  }
  red[lid] = cj ? PAIRS_SWAP(qq) - pp * PAIRS_SIGN : pp + PAIRS_SWAP(qq) * PAIRS_SIGN;
  for (uint s = tj / 2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < s) red[lid] = red[lid] + red[lid + s * rpg];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0 && nl > 0) {
    REAL l[RW];
    OPTUNE_VUNPACK(RW, red[lid], l);
    for (int k = 0; k < nl; ++k) {
      TYPE v;
      v.x = l[2 * k], v.y = l[2 * k + 1];
      blas2_row_result(v, i0 + k, rows, y, yb, incy, alpha, beta, flags, part);
    }
  }
  if (slices > 1 && (flags & F_FUSE)) {
    const long first = (long)get_group_id(0) * rpg * CPW;
    const long nrows = (long)rows - first < (long)rpg * CPW ? (long)rows - first : (long)rpg * CPW;
    FUSED_FINAL(&count[get_group_id(0)], slices, first, nrows)
  }
}
#endif
