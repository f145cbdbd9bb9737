// gemm_thin_steps: the thin kernel's parameters (defines and their
// defaults), the sizes they imply, and the steps of its K loop: the loaders
// of B's and A's packs and the products into the accumulators, as macros
// over the kernel's own names (M, N, lda, ldb, ap, bp, r0, nb, ke, inner,
// acc; gemm_thin.cl). What the kernel does with them, the two ways of
// reading B and the split, is in gemm_thin.cl's header; the host puts this
// text between gemm_common.cl and gemm_thin.cl.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl
#ifndef B_KCONTIG
#define B_KCONTIG 0      // 1: B stored N x K (read along K), else K x N (read along N)
#endif
#ifndef A_KCONTIG
#define A_KCONTIG 1      // 1: A stored M x K (packs of A along K), else K x M (packs along M)
#endif
#ifndef WGX
#define WGX 32           // work-items along x: along N (B_KCONTIG 0) or K (1)
#endif
#ifndef WGY
#define WGY 8            // work-items along y: along K (B_KCONTIG 0) or N (1)
#endif
#ifndef VW
#define VW 4             // elements per load of B (a pack): along N (0) or K (1)
#endif
#ifndef NJ
#define NJ 1             // packs of columns (0) or columns (1) of C per work-item
#endif
#ifndef KU
#define KU 4             // packs of B per lane and column pack loaded before they are used (rows of K for 0)
#endif
#ifndef MT
#define MT 16            // rows of A (and C) per group
#endif
#ifndef AV
#define AV 4             // elements per load of A along its contiguous dimension (divides KU, VW or MT)
#endif
#ifndef RR
#define RR 4             // rows of C per round of the in-group reduction (host: from local memory)
#endif
#ifndef AL
#define AL 0             // 0: A read through the caches; n: A staged in local memory n steps of K at a time (B_KCONTIG 0)
#endif
#ifndef ALK
#define ALK 0            // the same where B is read along K (B_KCONTIG 1)
#endif
#if B_KCONTIG
#undef AL
#define AL ALK
#endif
#ifndef SG
#define SG 0             // 1: sub-group reduction across a row's lanes (B_KCONTIG 1, WGX = sub-group size)
#endif
#ifndef PF
#define PF 0             // 1: the next step's B loaded before this step's products (AL 0 only)
#endif
#ifndef FUSE
#define FUSE 0           // 1: a split's partial sums added by the tile's last group (tickets), else by gemm_thin_reduce
#endif
#ifndef TC
#define TC 0             // 1: the products on the tensor cores (CUDA; A stored M x K: gemm_thin_tc.cl)
#endif
#if AL
#undef PF
#define PF 0
#endif
#if TC
#undef AL
#define AL 0
#endif

#define WGS (WGX * WGY)
typedef COMP comp;

#if TC
// Every warp of the group takes the same NJ blocks of 16 columns of C (16 VW
// where B is read along N), the warps interleaved along K (gemm_thin_tc.cl).
#if B_KCONTIG
#define GCOLS (16 * NJ)
#else
#define GCOLS (16 * NJ * VW)
#endif
#define KSTEP (WGY * 4 * VW * KU)
#define KFIRST (kb + (ulong)ty * (4 * VW * KU))
#define SPAN ((ulong)(4 * VW * KU))
#elif B_KCONTIG
#define GCOLS (WGY * NJ)        // columns of C per group
#define KSTEP (WGX * VW * KU)   // K per step of the group
#define KFIRST (kb + (ulong)tx * VW)                    // a lane's first K
#define SPAN ((ulong)((KU - 1) * WGX * VW + VW))         // K from a lane's first in one step
#else
#define GCOLS (WGX * NJ * VW)   // columns of C per group
#define KSTEP (WGY * KU)        // K per step of the group
#define KFIRST (kb + (ulong)ty * KU)
#define SPAN ((ulong)KU)
#endif
#define ACH (AL * KSTEP)        // K per chunk of A in local memory (AL > 0)
#if B_KCONTIG
// Element (i, kk) of that chunk, [MT][ACH + 4]: a lane reads its VW
// consecutive k of row i as packs of LAV (the lanes' packs side by side, no
// conflicts); the 4 pad elements spread the staging's stores of A stored
// K x M (i fastest) over the banks and keep each row aligned to a pack.
#if VW < 4
#define LAV VW
#else
#define LAV 4
#endif
#define ALP (ACH + 4)
#define ALM(i, kk) ((i) * ALP + (kk))
#define AM_SIZE (MT * ALP)
#else
// Element (i, kk) of that chunk, [kk][MT]: a row of lanes reads one k, a
// broadcast.
#define ALM(i, kk) ((kk) * MT + (i))
#define AM_SIZE (MT * ACH)
#endif

#if defined(OPTUNE_SUBGROUP_SIZE) && SG && OPTUNE_HAS_SUBGROUPS && B_KCONTIG
#if WGX == OPTUNE_SUBGROUP_SIZE
#define USE_SG 1
#endif
#endif
#ifndef USE_SG
#define USE_SG 0
#endif

// Local memory, in COMP elements: one round of the in-group reduction.
#if TC
#define RED_SIZE 1
#elif B_KCONTIG && WGX > 1 && !USE_SG
#define RED_SIZE (RR * GCOLS * (WGX + 1))
#elif !B_KCONTIG && WGY > 1
#define RED_SIZE (RR * WGY * GCOLS)
#else
#define RED_SIZE 1
#endif

#if HALF_STORAGE
#define LOAD_PACK(W, p, e) OPTUNE_CAT(optune_gload_half, W)((e) / W, (p))
#elif BF16_STORAGE
#define LOAD_PACK(W, p, e) OPTUNE_CAT(optune_gload_bf16, W)((e) / W, (p))
#else
#define LOAD_PACK(W, p, e) OPTUNE_GLOAD(TYPE, W, (e) / W, (p))
#endif
#define LOAD_ONE(p, e) ((comp)GEMM_LOAD((p), (e)))

// W elements of p from element e (a multiple of W), of which the first
// `valid` lie inside (none where it is 0 or negative): a whole pack in one
// access, else element by element with zeros past the edge (the last pack of
// a row, of K or of M).
#define THIN_LOADER(name, W)                                                                  \
  OPTUNE_FUNC void name(comp* dst, const __global TYPE* p, const ulong e, const long valid) { \
    if (valid >= W) {                                                                         \
      const OPTUNE_VEC(COMP, W) w = LOAD_PACK(W, p, e);                                       \
      OPTUNE_VUNPACK(W, w, dst);                                                              \
    } else {                                                                                  \
      _Pragma("unroll") for (int v = 0; v < W; ++v) dst[v] = (long)v < valid ? LOAD_ONE(p, e + v) : (comp)0; \
    }                                                                                         \
  }
THIN_LOADER(load_b, VW)
THIN_LOADER(load_a, AV)
// The same where the whole pack is known to lie inside (a step in the
// interior: no test, so the step's loads are issued back to back).
#define THIN_LOADER_ALL(name, W)                                                                  \
  OPTUNE_FUNC void name(comp* dst, const __global TYPE* p, const ulong e, const long valid) {     \
    const OPTUNE_VEC(COMP, W) w = LOAD_PACK(W, p, e);                                             \
    OPTUNE_VUNPACK(W, w, dst);                                                                    \
  }
THIN_LOADER_ALL(load_b_all, VW)
THIN_LOADER_ALL(load_a_all, AV)

// How many elements from index x on lie below the end e (0 or negative from
// e on; signed, so that no saturating subtraction reaches the compiler:
// oclgrind has none).
#define INSIDE(x, e) ((long)(e) - (long)(x))

// One step of a lane's K loop with the loaders LB (B) and LA (A): the
// checked ones, or the _all ones in the interior. THIN_LOAD_B_AT issues the
// KU NJ loads of B of the step at KV (the lane's first K) into BV;
// THIN_USE_AT multiplies them by A's packs.
#if B_KCONTIG
// Packs KV, KV + WGX VW, ... (KU of them) of the row's NJ rows of B.
#define THIN_LOAD_B_AT(LB, BV, KV)                                                         \
  _Pragma("unroll") for (int u = 0; u < KU; ++u) {                              \
    const ulong gk = (KV) + (ulong)u * (WGX * VW);                                \
    _Pragma("unroll") for (int q = 0; q < NJ; ++q) {                            \
      const ulong j = nb + (ulong)(ty * NJ + q);                                \
      LB(BV[u][q], bp, j * ldb + gk, j < N ? INSIDE(gk, ke) : 0);               \
    }                                                                           \
  }
#if A_KCONTIG
#define THIN_USE_AT(LA, BV, KV)                                                                                 \
  _Pragma("unroll") for (int u = 0; u < KU; ++u) {                                                   \
    const ulong gk = (KV) + (ulong)u * (WGX * VW);                                                     \
    _Pragma("unroll") for (int i = 0; i < MT; ++i)                                                   \
    _Pragma("unroll") for (int v0 = 0; v0 < VW; v0 += AV) {                                          \
      comp av[AV];                                                                                   \
      LA(av, ap, AROW(i) * lda + gk + v0, r0 + i < M ? INSIDE(gk + v0, ke) : 0);                     \
      _Pragma("unroll") for (int w = 0; w < AV; ++w)                                                 \
      _Pragma("unroll") for (int q = 0; q < NJ; ++q) acc[i][q] = fma(av[w], BV[u][q][v0 + w], acc[i][q]); \
    }                                                                                                \
  }
#else
#define THIN_USE_AT(LA, BV, KV)                                                                                     \
  _Pragma("unroll") for (int u = 0; u < KU; ++u) {                                                       \
    const ulong gk = (KV) + (ulong)u * (WGX * VW);                                                         \
    _Pragma("unroll") for (int v = 0; v < VW; ++v)                                                       \
    _Pragma("unroll") for (int i0 = 0; i0 < MT; i0 += AV) {                                              \
      comp av[AV];                                                                                       \
      LA(av, ap, (gk + v) * lda + r0 + i0, gk + v < ke ? INSIDE(r0 + i0, M) : 0);                        \
      _Pragma("unroll") for (int w = 0; w < AV; ++w)                                                     \
      _Pragma("unroll") for (int q = 0; q < NJ; ++q) acc[i0 + w][q] = fma(av[w], BV[u][q][v], acc[i0 + w][q]); \
    }                                                                                                    \
  }
#endif
#else
// KU consecutive rows of B from KV, NJ packs of columns each.
#define THIN_LOAD_B_AT(LB, BV, KV)                                                     \
  _Pragma("unroll") for (int u = 0; u < KU; ++u) {                          \
    const ulong gk = (KV) + (ulong)u;                                         \
    _Pragma("unroll") for (int q = 0; q < NJ; ++q) {                        \
      const ulong n = nb + (ulong)((q * WGX + tx) * VW);                    \
      LB(BV[u][q], bp, gk * ldb + n, gk < ke ? INSIDE(n, N) : 0);           \
    }                                                                       \
  }
#if A_KCONTIG
#define THIN_USE_AT(LA, BV, KV)                                                                                     \
  _Pragma("unroll") for (int u0 = 0; u0 < KU; u0 += AV)                                                  \
  _Pragma("unroll") for (int i = 0; i < MT; ++i) {                                                       \
    comp av[AV];                                                                                         \
    LA(av, ap, AROW(i) * lda + (KV) + (ulong)u0, r0 + i < M ? INSIDE((KV) + (ulong)u0, ke) : 0);             \
    _Pragma("unroll") for (int w = 0; w < AV; ++w)                                                       \
    _Pragma("unroll") for (int q = 0; q < NJ * VW; ++q)                                                  \
      acc[i][q] = fma(av[w], BV[u0 + w][q / VW][q % VW], acc[i][q]);                                     \
  }
#else
#define THIN_USE_AT(LA, BV, KV)                                                                                     \
  _Pragma("unroll") for (int u = 0; u < KU; ++u)                                                         \
  _Pragma("unroll") for (int i0 = 0; i0 < MT; i0 += AV) {                                                \
    comp av[AV];                                                                                         \
    LA(av, ap, ((KV) + (ulong)u) * lda + r0 + i0, (KV) + (ulong)u < ke ? INSIDE(r0 + i0, M) : 0);            \
    _Pragma("unroll") for (int w = 0; w < AV; ++w)                                                       \
    _Pragma("unroll") for (int q = 0; q < NJ * VW; ++q)                                                  \
      acc[i0 + w][q] = fma(av[w], BV[u][q / VW][q % VW], acc[i0 + w][q]);                                \
  }
#endif
#endif
// A's row for the group's row i (A stored M x K): rows past M read row M - 1,
// so that the unchecked loads of the last row block stay inside A (their
// sums are never emitted).
#define AROW(i) (r0 + (ulong)(i) < M ? r0 + (ulong)(i) : M - 1)
// The lane's first K of a step: kc along K, k0 along N.
#if B_KCONTIG
#define KVAR kc
#else
#define KVAR k0
#endif
#define THIN_STEP(LB, LA)             \
  {                                   \
    comp bv[KU][NJ][VW];              \
    THIN_LOAD_B_AT(LB, bv, KVAR)      \
    THIN_USE_AT(LA, bv, KVAR)         \
  }
// PF: B of the step at KN into BQ (nothing past the split's end), from the
// loaders that its position allows.
#define THIN_PREFETCH(BQ, KN)                                              \
  if ((KN) < ke) {                                                         \
    if (inner && (KN) + SPAN <= ke) {                                      \
      THIN_LOAD_B_AT(load_b_all, BQ, KN)                                   \
    } else {                                                               \
      THIN_LOAD_B_AT(load_b, BQ, KN)                                       \
    }                                                                      \
  }
#define THIN_COPY_B(DST, SRC)                                              \
  _Pragma("unroll") for (int u = 0; u < KU; ++u)                           \
  _Pragma("unroll") for (int q = 0; q < NJ; ++q)                           \
  _Pragma("unroll") for (int v = 0; v < VW; ++v) DST[u][q][v] = SRC[u][q][v];

// With AL > 0 the step reads A from the chunk in local memory,
// am[ALM(i, kk)] for k = kc0 + kk (zero past M and past the split's end: no
// tests). Along N a row of lanes reads one k of every row (a broadcast);
// along K a lane reads its pack's VW k of each row, used for its NJ rows of B.
#if B_KCONTIG
#define THIN_USE_LM                                                                            \
  _Pragma("unroll") for (int u = 0; u < KU; ++u) {                                             \
    const int kk = (int)(KVAR - kc0) + u * (WGX * VW);                                         \
    _Pragma("unroll") for (int i = 0; i < MT; ++i)                                             \
    _Pragma("unroll") for (int v0 = 0; v0 < VW; v0 += LAV) {                                   \
      comp av[LAV];                                                                            \
      const OPTUNE_VEC(COMP, LAV) w = OPTUNE_LLOAD(COMP, LAV, ALM(i, kk + v0) / LAV, am);     \
      OPTUNE_VUNPACK(LAV, w, av);                                                              \
      _Pragma("unroll") for (int t = 0; t < LAV; ++t)                                          \
      _Pragma("unroll") for (int q = 0; q < NJ; ++q)                                           \
        acc[i][q] = fma(av[t], bv[u][q][v0 + t], acc[i][q]);                                   \
    }                                                                                          \
  }
#else
#define THIN_USE_LM                                                                            \
  _Pragma("unroll") for (int u = 0; u < KU; ++u)                                               \
  _Pragma("unroll") for (int i = 0; i < MT; ++i) {                                             \
    const comp av = am[ALM(i, (int)(KVAR - kc0) + u)];                                         \
    _Pragma("unroll") for (int q = 0; q < NJ * VW; ++q)                                        \
      acc[i][q] = fma(av, bv[u][q / VW][q % VW], acc[i][q]);                                   \
  }
#endif
#define THIN_STEP_LM(LB)          \
  {                               \
    comp bv[KU][NJ][VW];          \
    THIN_LOAD_B_AT(LB, bv, KVAR)  \
    THIN_USE_LM                   \
  }
