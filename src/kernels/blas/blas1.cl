// blas1: the BLAS level-1 routines on strided vectors of real or complex
// numbers, every entry point in one program per type and group size (PoCL
// pays seconds per program).
//
// Vectors: element i of x is x[xb + i * incx] (xb and incx in elements,
// incx of either sign or 0). The host turns BLAS's (offset, inc) into the
// base of element 0: offset for inc >= 0, offset + (n - 1) |inc| for
// inc < 0, so a negative increment walks backwards as the reference does.
//
// Element-wise entries (swap, scal, copy, axpy, rot, rotm) loop
//   for (i = gid; i < n; i += step)
// over the first `step` work-items: step is the grid's size, or 1 when an
// output has increment 0, so that one work-item runs the reference's loop in
// its order (the last write wins, axpy accumulates in order).
//
// Reductions (dot, dotu, dotc, sum, asum, nrm2, iamax, iamin) run in two
// passes: each group folds a grid-stride slice per work-item (in index
// order) and a fixed tree over the group, then writes its partial state to
// `part`; blas1_final_* (one group) folds the partials in group order, the
// same tree, and writes the result. With one group the first pass writes
// the result itself. The grid depends only on n and the parameters, so
// results are deterministic. Partial states: the sum (TYPE, or REAL for
// asum), Blue's three sums of squares for nrm2 (the reference's dnrm2 of
// LAPACK 3.10), the key and index for iamax/iamin.
//
// check-prepend: blas/blas_storage.cl blas/blas1_defs.cl
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1
// check-variant: -DTYPE=float -DREAL=float -DCOMPLEX=0 -DWGS=64
// check-variant: -DTYPE=float -DREAL=float -DVW=4
// check-variant: -DTYPE=double -DREAL=double -DREAL_DOUBLE=1 -DVW=2
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DVW=4
// check-variant: -DTYPE=float2 -DREAL=float -DCOMPLEX=1 -DVW=2
// check-variant: -DTYPE=double2 -DREAL=double -DREAL_DOUBLE=1 -DCOMPLEX=1 -DVW=2
// check-variant: -DTYPE=double -DREAL=double -DREAL_DOUBLE=1
// check-variant: -DTYPE=double2 -DREAL=double -DREAL_DOUBLE=1 -DCOMPLEX=1
// check-variant: -DHALF=1 -DVW=4
// check-variant: -DHALF=1 -DVW=1
// check-variant-opencl: -DTYPE=float -DREAL=float -DVW=8
// check-variant-opencl: -DTYPE=double -DREAL=double -DREAL_DOUBLE=1 -DVW=4
// check-variant-opencl: -DHALF=1 -DVW=8
// check-variant-opencl: -DTYPE=float -DREAL=float -DVW=8 -DNRM2V=1
// check-variant-opencl: -DTYPE=double -DREAL=double -DREAL_DOUBLE=1 -DVW=2 -DNRM2V=1
// check-variant-opencl: -DHALF=1 -DVW=4 -DNRM2V=1

// The parameters, nrm2's constants and the packs: blas1_defs.cl.

// ---- element-wise ----

#define EW_BEGIN                                 \
  const ulong gid = get_global_id(0);            \
  if (gid >= step) return;                       \
  ulong first = 0;
#define EW_LOOP for (ulong i = first + gid; i < n; i += step)
#define PACKS(gs) for (ulong p = gid; p < n / VW; p += (gs))

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_swap(const ulong n, const ulong step, __global ST* x, const ulong xb, const long incx,
                __global ST* y, const ulong yb, const long incy) {
  EW_BEGIN
#if PACKED
  if (CONTIG(xb, incx, yb, incy)) {
    PACKS(step) {
      const VT t = LOADV(p, x, xb);
      STOREV(LOADV(p, y, yb), p, x, xb);
      STOREV(t, p, y, yb);
    }
    first = n / VW * VW;
  }
#endif
  EW_LOOP {
    const TYPE t = GET(x, xb, incx, i);
    PUT(x, xb, incx, i, GET(y, yb, incy, i));
    PUT(y, yb, incy, i, t);
  }
}

// x = alpha x; real_alpha (complex x only): alpha.x times each part, as
// csscal/zdscal (not a complex product with a zero imaginary part).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_scal(const ulong n, const ulong step, const TYPE alpha, const int real_alpha, __global ST* x,
                const ulong xb, const long incx) {
  EW_BEGIN
#if PACKED
  if (CONTIG(xb, incx, xb, incx)) {
    PACKS(step) {
      const VT v = LOADV(p, x, xb);
#if COMPLEX
      STOREV(real_alpha ? alpha.x * v : VMUL(alpha, v), p, x, xb);
#else
      STOREV(VMUL(alpha, v), p, x, xb);
#endif
    }
    first = n / VW * VW;
  }
#endif
  EW_LOOP {
    const TYPE v = GET(x, xb, incx, i);
#if COMPLEX
    PUT(x, xb, incx, i, real_alpha ? alpha.x * v : MUL(alpha, v));
#else
    PUT(x, xb, incx, i, alpha * v);
#endif
  }
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_copy(const ulong n, const ulong step, __global const ST* x, const ulong xb, const long incx,
                __global ST* y, const ulong yb, const long incy) {
  EW_BEGIN
#if PACKED
  if (CONTIG(xb, incx, yb, incy)) {
    PACKS(step) { STOREV(LOADV(p, x, xb), p, y, yb); }
    first = n / VW * VW;
  }
#endif
  EW_LOOP { PUT(y, yb, incy, i, GET(x, xb, incx, i)); }
}

// y = y + alpha x
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_axpy(const ulong n, const ulong step, const TYPE alpha, __global const ST* x, const ulong xb,
                const long incx, __global ST* y, const ulong yb, const long incy) {
  EW_BEGIN
#if PACKED
  if (CONTIG(xb, incx, yb, incy)) {
    PACKS(step) { STOREV(LOADV(p, y, yb) + VMUL(alpha, LOADV(p, x, xb)), p, y, yb); }
    first = n / VW * VW;
  }
#endif
  EW_LOOP { PUT(y, yb, incy, i, GET(y, yb, incy, i) + MUL(alpha, GET(x, xb, incx, i))); }
}

// x = c x + s y, y = c y - s x (real c and s, as srot, csrot, zdrot).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_rot(const ulong n, const ulong step, __global ST* x, const ulong xb, const long incx, __global ST* y,
               const ulong yb, const long incy, const REAL c, const REAL s) {
  EW_BEGIN
#if PACKED
  if (CONTIG(xb, incx, yb, incy)) {
    PACKS(step) {
      const VT w = LOADV(p, x, xb), z = LOADV(p, y, yb);
      STOREV(c * w + s * z, p, x, xb);
      STOREV(c * z - s * w, p, y, yb);
    }
    first = n / VW * VW;
  }
#endif
  EW_LOOP {
    const TYPE w = GET(x, xb, incx, i), z = GET(y, yb, incy, i);
    PUT(x, xb, incx, i, c * w + s * z);
    PUT(y, yb, incy, i, c * z - s * w);
  }
}

// (x, y) = H (x, y) with the modified Givens matrix of flag (-1: every entry
// given; 0: unit diagonal; 1: h12 = 1, h21 = -1), written as the reference
// writes each case. The host returns at once for flag -2 (H = I).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_rotm(const ulong n, const ulong step, __global ST* x, const ulong xb, const long incx, __global ST* y,
                const ulong yb, const long incy, const int flag, const REAL h11, const REAL h21, const REAL h12,
                const REAL h22) {
  EW_BEGIN
  EW_LOOP {
    const TYPE w = GET(x, xb, incx, i), z = GET(y, yb, incy, i);
    if (flag < 0) {
      PUT(x, xb, incx, i, w * h11 + z * h12);
      PUT(y, yb, incy, i, w * h21 + z * h22);
    } else if (flag == 0) {
      PUT(x, xb, incx, i, w + z * h12);
      PUT(y, yb, incy, i, w * h21 + z);
    } else {
      PUT(x, xb, incx, i, w * h11 + z);
      PUT(y, yb, incy, i, -w + h22 * z);
    }
  }
}

// ---- reductions ----

// The work-item's grid-stride slice, then a fixed tree over the group into
// red[0] (every work-item reaches the barriers).
#define TREE(red, lid, COMBINE)                                   \
  for (uint s_ = WGS / 2; s_ > 0; s_ >>= 1) {                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                 \
    if ((lid) < s_) red[lid] = COMBINE(red[lid], red[(lid) + s_]); \
  }                                                               \
  barrier(CLK_LOCAL_MEM_FENCE);

#define ADD(a, b) ((a) + (b))

// The end of a first pass: with one group, the result (VALUE of red[0],
// stored by STORE: SET for ST / RST results, SETI for iamax's int); else the
// group's partial state.
#define SETI(p, k, v) ((p)[k] = (v))
#define FIRST_PASS_OUT(STORE, VALUE)                          \
  if (lid == 0) {                                             \
    if (get_num_groups(0) == 1) STORE(out, out_offset, VALUE); \
    else part[get_group_id(0)] = red[0];                      \
  }

// The second pass of a sum over partials of type T into a result of type OT.
#define FINAL_SUM(NAME, T, OT, ZERO_T)                                                               \
  __kernel OPTUNE_WG_SIZE(WGS, 1, 1)                                                                 \
  void NAME(const uint groups, __global const T* part, __global OT* out, const ulong out_offset) {   \
    __local T red[WGS];                                                                              \
    const uint lid = get_local_id(0);                                                                \
    T acc = ZERO_T;                                                                                  \
    for (uint g = lid; g < groups; g += WGS) acc += part[g];                                         \
    red[lid] = acc;                                                                                  \
    TREE(red, lid, ADD)                                                                              \
    if (lid == 0) SET(out, out_offset, red[0]);                                                      \
  }

// dot (conj 0: x . y, as sdot, ddot, cdotu, zdotu; conj 1: conj(x) . y, as
// cdotc, zdotc) and sum (y absent: sum of x, CLBlast's xSUM).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_dot(const ulong n, const int kind, __global const ST* x, const ulong xb, const long incx,
               __global const ST* y, const ulong yb, const long incy, __global TYPE* part,
               __global ST* out, const ulong out_offset) {
  __local TYPE red[WGS];
  const uint lid = get_local_id(0);
  TYPE acc = ZERO;
  const ulong gid = get_global_id(0), gs = get_global_size(0);
  ulong first = 0;
#if VEC
  if (CONTIG(xb, incx, yb, incy)) {
    PACKS(gs) {
      const VT v = LOADV(p, x, xb);
      acc += kind == 2 ? OPTUNE_VSUM(VW, v) : OPTUNE_VSUM(VW, v * LOADV(p, y, yb));
    }
    first = n / VW * VW;
  }
#endif
  for (ulong i = first + gid; i < n; i += gs) {
    const TYPE v = GET(x, xb, incx, i);
    if (kind == 2) acc += v;
    else if (kind == 1) acc += MULC(v, GET(y, yb, incy, i));
    else acc += MUL(v, GET(y, yb, incy, i));
  }
  red[lid] = acc;
  TREE(red, lid, ADD)
  FIRST_PASS_OUT(SET, red[0])
}

FINAL_SUM(blas1_final_dot, TYPE, ST, ZERO)

// asum: sum of |x| (|re| + |im| for complex, as scasum and dzasum).
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_asum(const ulong n, __global const ST* x, const ulong xb, const long incx, __global REAL* part,
                __global RST* out, const ulong out_offset) {
  __local REAL red[WGS];
  const uint lid = get_local_id(0);
  REAL acc = (REAL)0;
  const ulong gid = get_global_id(0), gs = get_global_size(0);
  ulong first = 0;
#if VEC
  if (CONTIG(xb, incx, xb, incx)) {
    PACKS(gs) { acc += OPTUNE_VSUM(VW, fabs(LOADV(p, x, xb))); }
    first = n / VW * VW;
  }
#endif
  for (ulong i = first + gid; i < n; i += gs) acc += ABS1(GET(x, xb, incx, i));
  red[lid] = acc;
  TREE(red, lid, ADD)
  FIRST_PASS_OUT(SET, red[0])
}

FINAL_SUM(blas1_final_asum, REAL, RST, (REAL)0)

// nrm2: Blue's sums of squares of the small, medium and big parts.
typedef struct {
  REAL s, m, b;
} Nrm2;

OPTUNE_FUNC Nrm2 nrm2_zero(void) {
  Nrm2 a;
  a.s = (REAL)0;
  a.m = (REAL)0;
  a.b = (REAL)0;
  return a;
}

OPTUNE_FUNC Nrm2 nrm2_add(Nrm2 a, const REAL v) {
  const REAL ax = fabs(v);
  if (ax > TBIG) {
    const REAL t = ax * SBIG;
    a.b += t * t;
  } else if (ax < TSML) {
    const REAL t = ax * SSML;
    a.s += t * t;
  } else {
    a.m += ax * ax;
  }
  return a;
}

OPTUNE_FUNC Nrm2 nrm2_combine(Nrm2 a, const Nrm2 b) {
  a.s += b.s;
  a.m += b.m;
  a.b += b.b;
  return a;
}

// The reference's combination of the three sums (dnrm2.f90).
OPTUNE_FUNC REAL nrm2_result(const Nrm2 a) {
  REAL amed = a.m, asml = a.s, abig = a.b;
  if (abig > (REAL)0) {
    if (amed > (REAL)0 || amed != amed) abig += (amed * SBIG) * SBIG;
    return sqrt(abig) / SBIG;
  }
  if (asml > (REAL)0) {
    if (amed > (REAL)0 || amed != amed) {
      amed = sqrt(amed);
      asml = sqrt(asml) / SSML;
      const REAL ymin = asml > amed ? amed : asml, ymax = asml > amed ? asml : amed;
      const REAL q = ymin / ymax;
      return sqrt(ymax * ymax * ((REAL)1 + q * q));
    }
    return sqrt(asml) / SSML;
  }
  return sqrt(amed);
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_nrm2(const ulong n, __global const ST* x, const ulong xb, const long incx, __global Nrm2* part,
                __global RST* out, const ulong out_offset) {
  __local Nrm2 red[WGS];
  const uint lid = get_local_id(0);
  Nrm2 acc = nrm2_zero();
  const ulong gid = get_global_id(0), gs = get_global_size(0);
  ulong first = 0;
#if VEC && NRM2V && !OPTUNE_BACKEND_CUDA
  // NRM2V (the blas1 parameter): a pack whose parts all lie in Blue's middle range (or are 0, which adds 0
  // to any sum) adds its squares to a vector of middle sums, no branch per
  // part; a pack with a part outside goes part by part. On PoCL the branches
  // per part kept the loop scalar (f32: 2.9 GB/s of a 63 GB/s copy ceiling).
  // (CUDA's prelude vectors have no arithmetic: it takes the parts' loop.)
  VT mid = OPTUNE_SPLAT(TYPE, VW, (TYPE)0);
  if (CONTIG(xb, incx, xb, incx)) {
    PACKS(gs) {
      const VT v = LOADV(p, x, xb);
      const VT ax = fabs(v);
      if (any(isgreater(ax, OPTUNE_SPLAT(TYPE, VW, (TYPE)TBIG)) |
              (isless(ax, OPTUNE_SPLAT(TYPE, VW, (TYPE)TSML)) & isnotequal(ax, OPTUNE_SPLAT(TYPE, VW, (TYPE)0))))) {
        TYPE lanes[VW];
        OPTUNE_VUNPACK(VW, v, lanes);
        for (int k = 0; k < VW; ++k) acc = nrm2_add(acc, lanes[k]);
      } else {
        mid += ax * ax;
      }
    }
    first = n / VW * VW;
  }
  TYPE mids[VW];
  OPTUNE_VUNPACK(VW, mid, mids);
  for (int k = 0; k < VW; ++k) acc.m += mids[k];
#elif VEC
  if (CONTIG(xb, incx, xb, incx)) {
    PACKS(gs) {
      const VT v = LOADV(p, x, xb);
      TYPE lanes[VW];
      OPTUNE_VUNPACK(VW, v, lanes);
      for (int k = 0; k < VW; ++k) acc = nrm2_add(acc, lanes[k]);
    }
    first = n / VW * VW;
  }
#endif
  for (ulong i = first + gid; i < n; i += gs) {
    const TYPE v = GET(x, xb, incx, i);
#if COMPLEX
    acc = nrm2_add(nrm2_add(acc, v.x), v.y);
#else
    acc = nrm2_add(acc, v);
#endif
  }
  red[lid] = acc;
  TREE(red, lid, nrm2_combine)
  FIRST_PASS_OUT(SET, nrm2_result(red[0]))
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_final_nrm2(const uint groups, __global const Nrm2* part, __global RST* out, const ulong out_offset) {
  __local Nrm2 red[WGS];
  const uint lid = get_local_id(0);
  Nrm2 acc = nrm2_zero();
  for (uint g = lid; g < groups; g += WGS) acc = nrm2_combine(acc, part[g]);
  red[lid] = acc;
  TREE(red, lid, nrm2_combine)
  if (lid == 0) SET(out, out_offset, nrm2_result(red[0]));
}

// iamax / iamin (is_min): the first index of the largest (smallest) |x|
// (|re| + |im| for complex). As the reference's loop, which starts from
// element 0 and takes an element only when strictly beyond the best so far,
// a NaN at index 0 wins (keyed +inf for max, 0 for min: ties go to the lower
// index) and a NaN elsewhere never does (keyed -1 for max, +inf for min).
typedef struct {
  REAL v;
  uint i;
} Best;

OPTUNE_FUNC Best best_pick(const Best a, const Best b, const int is_min) {
  const int b_wins = is_min ? (b.v < a.v || (b.v == a.v && b.i < a.i)) : (b.v > a.v || (b.v == a.v && b.i < a.i));
  return b_wins ? b : a;
}
#define BEST(a, b) best_pick(a, b, is_min)

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_iamax(const ulong n, const int is_min, __global const ST* x, const ulong xb, const long incx,
                 __global Best* part, __global int* out, const ulong out_offset) {
  __local Best red[WGS];
  const uint lid = get_local_id(0);
  Best acc;
  acc.v = is_min ? (REAL)INFINITY : (REAL)-1;
  acc.i = 0xffffffffu;
  for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
    REAL a = ABS1(GET(x, xb, incx, i));
    if (a != a) a = i == 0 ? (is_min ? (REAL)0 : (REAL)INFINITY) : (is_min ? (REAL)INFINITY : (REAL)-1);
    Best c;
    c.v = a;
    c.i = (uint)i;
    acc = best_pick(acc, c, is_min);
  }
  red[lid] = acc;
  TREE(red, lid, BEST)
  FIRST_PASS_OUT(SETI, (int)red[0].i)
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void blas1_final_iamax(const uint groups, const int is_min, __global const Best* part, __global int* out,
                       const ulong out_offset) {
  __local Best red[WGS];
  const uint lid = get_local_id(0);
  Best acc;
  acc.v = is_min ? (REAL)INFINITY : (REAL)-1;
  acc.i = 0xffffffffu;
  for (uint g = lid; g < groups; g += WGS) acc = best_pick(acc, part[g], is_min);
  red[lid] = acc;
  TREE(red, lid, BEST)
  if (lid == 0) out[out_offset] = (int)red[0].i;
}
