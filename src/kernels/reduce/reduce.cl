// reduce: y[o, i] = FINAL(COMBINE over r of MAP(x[o, r, i])) for the reduction
// operators of optune::reduce, after the host has turned the axes into an
// (outer, reduced, inner) problem over a dense tensor.
//
// The combining rule is compiled in (KIND); the element map, the final step,
// the direction and the identity are arguments, so one program serves a
// whole class of operators:
//   KIND 0 sum   sum, mean, sum_squares, l1, l2 (Kahan-compensated per lane)
//   KIND 1 prod  prod
//   KIND 2 best  max, min (NaN sticks); any, all (of x != 0)
//   KIND 3 arg   argmax, argmin (NaN wins; ties go to the lower index)
//   map:  0 x, 1 x*x, 2 |x|, 3 x != 0          fin: 0 r, 1 r / count, 2 sqrt(r)
//   sign: +1 max-like, -1 min-like (KIND 2, 3)  init: the identity (KIND 0..2)
//
// reduce_rows (inner == 1): each row of `cols` contiguous elements is reduced
// by tpr lanes (a power of two); a group of WGS work-items holds WGS / tpr rows.
//
//   row r:  | pack 0 | pack 1 | ... | pack tpr-1 | pack tpr | ...   (VW elements each)
//             lane 0   lane 1         lane tpr-1   lane 0
//
// Lanes fold their packs, then a row's lanes combine through sub_group_reduce_*
// (SG = 1, subgroup size known and dividing tpr) or a local-memory tree. With
// splits > 1 a row is cut into chunks of `chunk` elements, one row slot per
// chunk, writing partial states (ACC values and, for KIND 3, int indices) that
// a second launch with IN_PARTIAL = 1 folds.
//
// reduce_cols (inner > 1): [outer][rows][inner]; a group is tx x ty lanes
// (tx = WGS / ty). Lane (tx, ty) owns VW adjacent columns of its column block
// and the rows ty, ty + ty_count, ... of its chunk, so each row the group
// reads is one coalesced run of tx * VW elements; the ty partial states of a
// column meet in a local-memory tree.
//
//        inner ->  | lane 0 | lane 1 | ... | lane tx-1 |
//   rows  ty = 0   |   a    |   b    |     |           |
//    |    ty = 1   |   a    |   b    |     |           |
//    v    ty = 0   |   a    |   b    |     |           |   (row ty_count)
//
// Offsets and lengths are in elements; the host picks VW > 1 only when every
// pack is aligned (x_off, cols or inner, and chunk multiples of VW).
//
// check-variant: -DKIND=3 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=16 -DIN_T=half -DIN_HALF=1 -DOUT_T=int
// check-variant: -DKIND=2 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=32 -DIN_PARTIAL=1 -DOUT_PARTIAL=1
// check-variant: -DKIND=0 -DACC=double -DIN_T=double -DOUT_T=double -DVW=2
// check-variant: -DKIND=2 -DIN_T=uchar -DOUT_T=uchar -DVW=16
// check-variant: -DKIND=1 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=32 -DOUT_HALF=1 -DOUT_T=half
// check-variant: -DKIND=0 -DIN_T=bf16 -DIN_BF16=1 -DOUT_T=bf16 -DOUT_BF16=1 -DVW=8
// check-variant: -DKIND=3 -DIN_T=bf16 -DIN_BF16=1 -DOUT_T=int -DVW=2

#ifndef KIND
#define KIND 0           // combining rule, see above
#endif
#ifndef IN_T
#define IN_T float       // storage type of x (ACC when IN_PARTIAL)
#endif
#ifndef IN_HALF
#define IN_HALF 0        // 1: x is half storage, read with vload_half
#endif
#ifndef IN_BF16
#define IN_BF16 0        // 1: x is bf16 storage, read with vload_bf16
#endif
#ifndef OUT_BF16
#define OUT_BF16 0       // 1: y is bf16 storage, written with vstore_bf16
#endif
#ifndef OUT_T
#define OUT_T float      // storage type of y (ACC when OUT_PARTIAL; int for KIND 3)
#endif
#ifndef OUT_HALF
#define OUT_HALF 0       // 1: y is half storage, written with vstore_half
#endif
#ifndef ACC
#define ACC float        // accumulation type (double for f64 data)
#endif
#ifndef IN_PARTIAL
#define IN_PARTIAL 0     // 1: x holds a first pass's partial states (indices in xi); no map
#endif
#ifndef OUT_PARTIAL
#define OUT_PARTIAL 0    // 1: write partial states (values to y, indices to yi); no fin
#endif
#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef VW
#define VW 4             // elements per load (pack)
#endif
#ifndef SG
#define SG 0             // 1: subgroup reductions where the lane count allows
#endif
#ifndef ENTRY
#define ENTRY 3          // kernels in the program: 1 reduce_rows, 2 reduce_cols, 3 both
#endif

#define KIND_SUM 0
#define KIND_PROD 1
#define KIND_BEST 2
#define KIND_ARG 3
#define NO_INDEX (-1)
#define BIG_INDEX 0x7fffffff

#ifndef INFINITY
#define INFINITY (1.0f / 0.0f)
#endif
#ifndef NAN
#define NAN (0.0f / 0.0f)
#endif
#ifndef OPTUNE_LOCAL_PTR
#define OPTUNE_LOCAL_PTR __local
#endif

// prod has no sub_group_reduce_mul.
#if defined(OPTUNE_SUBGROUP_SIZE) && SG && OPTUNE_HAS_SUBGROUPS && KIND != KIND_PROD
#define SGS OPTUNE_SUBGROUP_SIZE
#define HAVE_SG 1
#else
#define SGS 1
#define HAVE_SG 0
#endif

#if IN_HALF
#define LOAD_PACK(i, p) OPTUNE_CAT(optune_vload_half, VW)(i, p)
#define PACK_T OPTUNE_VEC(float, VW)
#elif IN_BF16
#define LOAD_PACK(i, p) OPTUNE_CAT(optune_vload_bf16, VW)(i, p)
#define PACK_T OPTUNE_VEC(float, VW)
#else
#define LOAD_PACK(i, p) OPTUNE_GLOAD(IN_T, VW, i, p)
#define PACK_T OPTUNE_VEC(IN_T, VW)
#endif

// The operator's run-time description.
typedef struct {
  int map, fin;
  ACC sign, init, count;
} Rule;

// A lane's running state: value and, for KIND 3, index.
typedef struct {
  ACC v;
  int i;
} State;

OPTUNE_FUNC State state_init(const Rule r) {
  State s;
  s.v = KIND == KIND_ARG ? -r.sign * (ACC)INFINITY : r.init;
  s.i = NO_INDEX;
  return s;
}

// The element map of the kinds without vector accumulators: x, or x != 0
// for any and all (NaN counts as true).
OPTUNE_FUNC ACC map_value(ACC v, const Rule r) {
#if IN_PARTIAL
  return v;
#else
  return r.map == 3 ? (v != (ACC)0 ? (ACC)1 : (ACC)0) : v;
#endif
}

// Does (bv, bi) beat (av, ai)? NaN beats numbers (the first NaN wins), equal
// values go to the lower index, and a state without an index never wins.
OPTUNE_FUNC int arg_beats(ACC bv, int bi, ACC av, int ai, ACC sign) {
  if (bi < 0) return 0;
  if (ai < 0) return 1;
  const int bn = bv != bv, an = av != av;
  if (bn || an) return bn && (!an || bi < ai);
  return sign * bv > sign * av || (bv == av && bi < ai);
}

// Combines two states.
OPTUNE_FUNC State state_combine(State a, State b, const Rule r) {
#if KIND == KIND_SUM
  a.v = a.v + b.v;
#elif KIND == KIND_PROD
  a.v = a.v * b.v;
#elif KIND == KIND_BEST
  a.v = (r.sign * b.v > r.sign * a.v || b.v != b.v) && a.v == a.v ? b.v : a.v;
#else
  if (arg_beats(b.v, b.i, a.v, a.i, r.sign)) a = b;
#endif
  return a;
}

// Folds one mapped element with its index into a lane's state (the kinds
// without vector accumulators).
OPTUNE_FUNC State state_fold(State s, ACC v, int i, const Rule r) {
  State b;
  b.v = v;
  b.i = i;
  return state_combine(s, b, r);
}

// sum and prod accumulate whole packs in vectors (VW independent chains, and
// SIMD on CPUs); the other kinds keep one State per element of the pack.
#define VECTOR_ACC (KIND == KIND_SUM || KIND == KIND_PROD)
#if VECTOR_ACC
#define VACC OPTUNE_VEC(ACC, VW)

OPTUNE_FUNC VACC map_pack(VACC v, const Rule r) {
#if IN_PARTIAL
  return v;
#else
  return r.map == 1 ? v * v : r.map == 2 ? fabs(v) : v;
#endif
}

// The pack accumulators as VW states. A Kahan sum that is not finite (an
// infinity makes the compensation inf - inf) gives way to the plain sum pl,
// which IEEE arithmetic makes inf, -inf or NaN as it should be.
OPTUNE_FUNC void pack_states(VACC a, VACC c, VACC pl, const Rule r, State* out) {
  ACC av[VW], cv[VW], pv[VW];
  OPTUNE_VUNPACK(VW, a, av);
  OPTUNE_VUNPACK(VW, c, cv);
  OPTUNE_VUNPACK(VW, pl, pv);
  for (uint k = 0; k < VW; ++k) {
    out[k] = state_init(r);
#if KIND == KIND_SUM
    const ACC v = av[k] - cv[k];
    out[k].v = v - v == (ACC)0 ? v : pv[k];
#else
    out[k].v = av[k];
#endif
  }
}
#endif

#if HAVE_SG
// Every lane of the subgroup gets the subgroup's combined state.
OPTUNE_FUNC State subgroup_combine(State s, const Rule r) {
#if KIND == KIND_SUM
  s.v = sub_group_reduce_add(s.v);
#elif KIND == KIND_BEST
  const int has_nan = sub_group_any(s.v != s.v);
  const ACC best = r.sign * sub_group_reduce_max(r.sign * s.v);
  s.v = has_nan ? (ACC)NAN : best;
#else
  const int has_nan = sub_group_any(s.i >= 0 && s.v != s.v);
  const ACC best = has_nan ? (ACC)NAN : r.sign * sub_group_reduce_max(s.i >= 0 ? r.sign * s.v : -(ACC)INFINITY);
  const int match = s.i >= 0 && (has_nan ? s.v != s.v : s.v == best);
  const int idx = sub_group_reduce_min(match ? s.i : BIG_INDEX);
  s.v = best;
  s.i = idx == BIG_INDEX ? NO_INDEX : idx;
#endif
  return s;
}
#endif

// Combines the states of each row's tpr lanes (lane = lid % tpr); the result
// is valid in lane 0 of the row. Every work-item of the group calls it.
OPTUNE_FUNC State row_combine(State s, const Rule r, OPTUNE_LOCAL_PTR ACC* lv, OPTUNE_LOCAL_PTR int* li, uint lid,
                              uint tpr) {
  const uint lane = lid & (tpr - 1);
#if HAVE_SG
  if (tpr % SGS == 0 && tpr / SGS <= SGS) {
    s = subgroup_combine(s, r);
    if (tpr > SGS) {
      if (lane % SGS == 0) {
        lv[lid / SGS] = s.v;
        li[lid / SGS] = s.i;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lane == 0)
        for (uint k = 1; k < tpr / SGS; ++k) {
          State o = state_init(r);
          o.v = lv[lid / SGS + k];
          o.i = li[lid / SGS + k];
          s = state_combine(s, o, r);
        }
    }
    return s;
  }
#endif
  lv[lid] = s.v;
  li[lid] = s.i;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint h = tpr / 2; h > 0; h >>= 1) {
    if (lane < h) {
      State o = state_init(r);
      o.v = lv[lid + h];
      o.i = li[lid + h];
      s = state_combine(s, o, r);
      lv[lid] = s.v;
      li[lid] = s.i;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return s;
}

// Writes a lane's final (or partial) state to element o of y (and yo of yi).
OPTUNE_FUNC void store_state(State s, const Rule r, __global OUT_T* y, ulong o, __global int* yi, ulong yo) {
#if OUT_PARTIAL
  y[o] = s.v;
#if KIND == KIND_ARG
  yi[yo] = s.i;
#endif
#elif KIND == KIND_ARG
  y[o] = s.i;
#else
  const ACC v = r.fin == 1 ? s.v / r.count : r.fin == 2 ? sqrt(s.v) : s.v;
#if OUT_HALF
  vstore_half((float)v, o, y);
#elif OUT_BF16
  vstore_bf16(v, o, y);
#else
  y[o] = (OUT_T)v;
#endif
#endif
}

// The index of element e of the reduced axis: its position, or the index a
// first pass recorded for it.
#if IN_PARTIAL && KIND == KIND_ARG
#define INDEX_OF(e, pos) xi[e]
#else
#define INDEX_OF(e, pos) ((int)(pos))
#endif

#define RULE_ARGS const int map, const int fin, const ACC sign, const ACC init, const ACC count
#define MAKE_RULE(r) \
  Rule r;            \
  r.map = map;       \
  r.fin = fin;       \
  r.sign = sign;     \
  r.init = init;     \
  r.count = count

// One kernel per program where the host asks (ENTRY): some drivers compile
// every kernel of a program when its binary is read for the cache.
#if ENTRY & 1
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void reduce_rows(const ulong rows, const ulong cols, const ulong chunk, const ulong splits, const uint tpr,
                 __global const IN_T* restrict x, const ulong x_off, __global const int* restrict xi,
                 __global OUT_T* restrict y, const ulong y_off, __global int* restrict yi, RULE_ARGS) {
  __local ACC lv[WGS];
  __local int li[WGS];
  MAKE_RULE(r);
  const uint lid = get_local_id(0);
  const uint lane = lid & (tpr - 1);
  const ulong group = get_group_id(0);
  const ulong split = group % splits;
  const ulong row = (group / splits) * (WGS / tpr) + lid / tpr;
  State s[VW];
  const ulong begin = split * chunk;
  const ulong end = row >= rows ? begin : cols - begin < chunk ? cols : begin + chunk;
  const ulong base = x_off + row * cols;  // a multiple of VW
#if VECTOR_ACC
  VACC a = OPTUNE_SPLAT(ACC, VW, r.init), c = OPTUNE_SPLAT(ACC, VW, 0), pl = a;
  for (ulong p = begin / VW + lane; p < end / VW; p += tpr) {
    const VACC v = map_pack(LOAD_PACK(base / VW + p, x), r);
#if KIND == KIND_SUM
    const VACC d = v - c;
    const VACC t = a + d;
    c = (t - a) - d;
    a = t;
    pl = pl + v;
#else
    a = a * v;
#endif
  }
  pack_states(a, c, pl, r, s);
#else
  for (uint k = 0; k < VW; ++k) s[k] = state_init(r);
  for (ulong p = begin / VW + lane; p < end / VW; p += tpr) {
    const PACK_T v = LOAD_PACK(base / VW + p, x);
    ACC e[VW];
    OPTUNE_VUNPACK(VW, v, e);
    for (uint k = 0; k < VW; ++k) s[k] = state_fold(s[k], map_value(e[k], r), INDEX_OF(base + p * VW + k, p * VW + k), r);
  }
#endif
  for (uint k = 1; k < VW; ++k) s[0] = state_combine(s[0], s[k], r);
  const State t = row_combine(s[0], r, lv, li, lid, tpr);
  if (lane == 0 && row < rows) store_state(t, r, y, y_off + row * splits + split, yi, row * splits + split);
}

#endif

#if ENTRY & 2
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void reduce_cols(const ulong outer, const ulong rows, const ulong inner, const ulong chunk, const ulong splits,
                 const uint ty_count, __global const IN_T* restrict x, const ulong x_off,
                 __global const int* restrict xi, __global OUT_T* restrict y, const ulong y_off,
                 __global int* restrict yi, RULE_ARGS) {
  __local ACC lv[WGS * VW];
  __local int li[WGS * VW];
  MAKE_RULE(r);
  const uint tx_count = WGS / ty_count;
  const uint lid = get_local_id(0);
  const uint tx = lid % tx_count, ty = lid / tx_count;
  const ulong packs = inner / VW;
  const ulong blocks = (packs + tx_count - 1) / tx_count;
  const ulong group = get_group_id(0);
  const ulong t = group / blocks;
  const ulong split = t % splits, o = t / splits;
  const ulong c = (group % blocks) * tx_count + tx;  // this lane's column pack
  const int live = c < packs && o < outer;
  State s[VW];
  const ulong begin = split * chunk;
  const ulong end = !live ? begin : rows - begin < chunk ? rows : begin + chunk;
  const ulong first = x_off + o * rows * inner + c * VW;  // a multiple of VW
#if VECTOR_ACC
  VACC a = OPTUNE_SPLAT(ACC, VW, r.init), cc = OPTUNE_SPLAT(ACC, VW, 0), pl = a;
  for (ulong row = begin + ty; row < end; row += ty_count) {
    const VACC v = map_pack(LOAD_PACK((first + row * inner) / VW, x), r);
#if KIND == KIND_SUM
    const VACC d = v - cc;
    const VACC t = a + d;
    cc = (t - a) - d;
    a = t;
    pl = pl + v;
#else
    a = a * v;
#endif
  }
  pack_states(a, cc, pl, r, s);
#else
  for (uint k = 0; k < VW; ++k) s[k] = state_init(r);
  for (ulong row = begin + ty; row < end; row += ty_count) {
    const ulong e = first + row * inner;
    const PACK_T v = LOAD_PACK(e / VW, x);
    ACC ev[VW];
    OPTUNE_VUNPACK(VW, v, ev);
    for (uint k = 0; k < VW; ++k) s[k] = state_fold(s[k], map_value(ev[k], r), INDEX_OF(e + k, row), r);
  }
#endif
  if (ty_count > 1) {
    for (uint k = 0; k < VW; ++k) {
      lv[k * WGS + lid] = s[k].v;
      li[k * WGS + lid] = s[k].i;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint h = ty_count / 2; h > 0; h >>= 1) {
      if (ty < h)
        for (uint k = 0; k < VW; ++k) {
          State b = state_init(r);
          b.v = lv[k * WGS + lid + h * tx_count];
          b.i = li[k * WGS + lid + h * tx_count];
          s[k] = state_combine(s[k], b, r);
          lv[k * WGS + lid] = s[k].v;
          li[k * WGS + lid] = s[k].i;
        }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (ty == 0 && live) {
    const ulong out = (o * splits + split) * inner + c * VW;
    for (uint k = 0; k < VW; ++k) store_state(s[k], r, y, y_off + out + k, yi, out + k);
  }
}
#endif
