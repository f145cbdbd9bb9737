// gemm_thin: C = act(alpha * A B + beta * C + bias) where A is thin: M <= MT
// rows per group (decode-time inference: M tokens, 1 to 16), B is wide and
// is streamed once. The host turns a product whose N is the thin dimension
// into C^T = B^T A^T (flags GEMM_TRANS_C and GEMM_LISTS_SWAPPED), so this
// kernel only sees a thin A. M = 1 is a GEMV: the interface keeps leading
// dimensions for A, B and C (with GEMM_TRANS_A and GEMM_TRANS_C, a vector
// with any element stride is a 1 x K or 1 x N matrix).
//
// Row-major problem (see gemm_common.cl): A is M x K, stored M x K or, with
// GEMM_TRANS_A, K x M (read where it lies: it is small); C is M x N at
// i * ldc + j, or with GEMM_TRANS_C at j * ldc + i. B is K x N, and its
// storage picks the code path (a define, B_KCONTIG):
//
//   B_KCONTIG 0: B stored K x N. Work-items along x read consecutive packs of
//     VW columns of one row of B (coalesced); the WGY rows of work-items of
//     a group take interleaved k, and meet in local memory at the end.
//
//              N ->  | x=0 | x=1 | ... | x=WGX-1 | x=0 (NJ > 1) ...
//        k  y = 0    |  VW |  VW |     |   VW    |
//        |  y = 1    |     |     |     |         |
//        v  y = 0    |     |     |     |         |   (k + WGY)
//
//   B_KCONTIG 1: B stored N x K (the transposed B of x W^T). Each row y of
//     work-items owns NJ columns of C (rows of B), its WGX lanes read
//     consecutive packs of VW elements along K and meet in a sub-group
//     reduction (SG, where the sub-group is the row) or in local memory.
//
// The group's A rows, over a chunk of K (KCH packs per lane), sit in local
// memory; KU packs of B per lane are loaded before any is multiplied, so
// their latencies overlap. Arithmetic and accumulation are in COMP (f32
// for f32 and f16 storage, f64 for f64).
//
// Split K: the grid's y holds (row blocks) x (splits); split s takes K's
// range [s kspan, (s + 1) kspan). With nsplit = 1 the kernel applies the
// epilogue; else it writes its partial sums to part[((z nsplit + s) M + i)
// N + j] and gemm_thin_reduce (below) adds the nsplit partials in order
// (deterministic: no atomics) and applies the epilogue.
//
// Grid: x = column blocks * WGX, y = (row blocks * nsplit) * WGY, z = the
// products from z0.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl
// check-variant: -DB_KCONTIG=1 -DWGX=32 -DWGY=8 -DVW=4 -DKCH=2 -DKU=2 -DMT=8 -DRR=4
// check-variant: -DB_KCONTIG=1 -DWGX=32 -DWGY=4 -DVW=2 -DNJ=2 -DKCH=2 -DKU=1 -DMT=4 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=32
// check-variant: -DB_KCONTIG=0 -DWGX=16 -DWGY=1 -DVW=8 -DNJ=2 -DKCH=4 -DKU=4 -DMT=2 -DRR=2
// check-variant: -DB_KCONTIG=1 -DWGX=1 -DWGY=64 -DVW=4 -DKCH=4 -DKU=2 -DMT=2
// check-variant: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DVW=2 -DRR=4
// check-variant: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DB_KCONTIG=1 -DVW=2 -DWGX=32 -DWGY=4 -DKCH=2 -DKU=2 -DRR=4
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DVW=8 -DMT=1 -DRR=1
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DB_KCONTIG=1 -DVW=8 -DWGX=16 -DWGY=8 -DKCH=1 -DKU=1 -DMT=16 -DRR=8

#ifndef B_KCONTIG
#define B_KCONTIG 0      // 1: B stored N x K (read along K), else K x N (read along N)
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
#ifndef KCH
#define KCH 4            // packs of B per lane and column between two loads of A's chunk
#endif
#ifndef KU
#define KU 4             // packs of B per lane loaded before they are multiplied (divides KCH)
#endif
#ifndef MT
#define MT 16            // rows of A (and C) per group
#endif
#ifndef RR
#define RR 4             // rows of C per round of the in-group reduction (host: from local memory)
#endif
#ifndef SG
#define SG 0             // 1: sub-group reduction across a row's lanes (B_KCONTIG 1, WGX = sub-group size)
#endif

#define WGS (WGX * WGY)
typedef COMP comp;

#if B_KCONTIG
#define CHUNK (KCH * WGX * VW)  // K per chunk of A in local memory
#define GCOLS (WGY * NJ)        // columns of C per group
// A's chunk pack-transposed: element kk of row i at (i VW + kk % VW) (CHUNK / VW) + kk / VW, so the
// lanes' reads of one component of their packs are consecutive.
#define ALM(i, kk) (((i) * VW + (kk) % VW) * (CHUNK / VW) + (kk) / VW)
#else
#define CHUNK (KCH * WGY)       // K per chunk of A in local memory
#define GCOLS (WGX * NJ * VW)   // columns of C per group
#define ALM(i, kk) ((kk) * MT + (i))  // every lane of a row reads the same k: broadcast
#endif

#if defined(OPTUNE_SUBGROUP_SIZE) && SG && OPTUNE_HAS_SUBGROUPS && B_KCONTIG
#if WGX == OPTUNE_SUBGROUP_SIZE
#define USE_SG 1
#endif
#endif
#ifndef USE_SG
#define USE_SG 0
#endif

// Local memory, in COMP elements: A's chunk, then (after the K loop) one
// round of the in-group reduction.
#if B_KCONTIG && WGX > 1 && !USE_SG
#define RED_SIZE (RR * GCOLS * (WGX + 1))
#elif !B_KCONTIG && WGY > 1
#define RED_SIZE (RR * WGY * GCOLS)
#else
#define RED_SIZE 1
#endif
#define LM_SIZE (MT * CHUNK > RED_SIZE ? MT * CHUNK : RED_SIZE)

#if HALF_STORAGE
#define LOAD_PACK(p, e) OPTUNE_CAT(optune_gload_half, VW)((e) / VW, (p))
#elif BF16_STORAGE
#define LOAD_PACK(p, e) OPTUNE_CAT(optune_gload_bf16, VW)((e) / VW, (p))
#else
#define LOAD_PACK(p, e) OPTUNE_VLOAD(VW, (e) / VW, (p))
#endif
#define LOAD_ONE(p, e) ((comp)GEMM_LOAD((p), (e)))
typedef OPTUNE_VEC(COMP, VW) packv;

// VW elements of B from element e, of which the first `valid` lie inside:
// a whole pack in one access, else element by element with zeros past the
// edge (the last pack of a row or of K).
OPTUNE_FUNC void load_b(comp* dst, const __global TYPE* bp, const ulong e, const ulong valid) {
  if (valid >= VW) {
    const packv w = LOAD_PACK(bp, e);
    OPTUNE_VUNPACK(VW, w, dst);
  } else {
#pragma unroll
    for (int v = 0; v < VW; ++v) dst[v] = (ulong)v < valid ? LOAD_ONE(bp, e + v) : (comp)0;
  }
}

// C's element (i, j) through the epilogue (beta = 0 never reads C).
OPTUNE_FUNC void thin_finish(__global CTYPE* cp, const ulong ldc, const uint flags, __global const CTYPE* biasp,
                             const ulong i, const ulong j, const real ab, const real alpha, const real beta,
                             const real act_p0, const real act_p1) {
  const ulong ci = (flags & GEMM_TRANS_C) ? j * ldc + i : i * ldc + j;
  const real old = beta == (real)0 ? (real)0 : GEMM_CLOAD(cp, ci);
  const real v = gemm_finish(ab, alpha, old, beta, gemm_bias(flags, biasp, i, j), act_p0, act_p1);
  GEMM_CSTORE(v, cp, ci);
}

// A result of this group: the epilogue, or the split's partial sum.
#define EMIT(i, j, value)                                                                               \
  if ((i) < M && (j) < N) {                                                                             \
    if (nsplit > 1)                                                                                     \
      part[((z * nsplit + s) * M + (i)) * N + (j)] = (value);                                           \
    else                                                                                                \
      thin_finish(cp, ldc, flags, biasp, (i), (j), (real)(value), alpha_z, beta_z, act_p0, act_p1);    \
  }

__kernel OPTUNE_WG_SIZE(WGX, WGY, 1)
void gemm_thin(const ulong M, const ulong N, const ulong K, const real alpha, const real beta,
               __global const TYPE* restrict a, const ulong a_off, const ulong lda, const ulong a_stride,
               __global const TYPE* restrict b, const ulong b_off, const ulong ldb, const ulong b_stride,
               __global CTYPE* c, const ulong c_off, const ulong ldc, const ulong c_stride,
               __global const CTYPE* restrict bias, const ulong bias_off,
               __global const ulong* restrict table, const ulong batch, const uint flags, const ulong z0,
               const real act_p0, const real act_p1, __global comp* restrict part, const ulong nsplit,
               const ulong kspan) {
  __local comp lm[LM_SIZE];
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  const int tid = ty * WGX + tx;
  const ulong z = z0 + get_group_id(2);
  // Listed offsets: the kernel's A and B are the call's B and A when the host swapped them.
  const int swapped = (flags & GEMM_LISTS_SWAPPED) != 0;
  const __global TYPE* ap = a + GEMM_OFFSET(flags & GEMM_A_LIST, a_off, a_stride, table, z, swapped ? 1 : 0);
  const __global TYPE* bp = b + GEMM_OFFSET(flags & GEMM_B_LIST, b_off, b_stride, table, z, swapped ? 0 : 1);
  __global CTYPE* cp = c + GEMM_OFFSET(flags & GEMM_C_LIST, c_off, c_stride, table, z, 2);
  const __global CTYPE* biasp = bias + bias_off;
  const real alpha_z = gemm_alpha(flags, alpha, table, batch, z);
  const real beta_z = gemm_beta(flags, beta, table, batch, z);
  const ulong s = get_group_id(1) % nsplit;
  const ulong r0 = (get_group_id(1) / nsplit) * MT;  // the group's first row of A and C
  const ulong nb = get_group_id(0) * GCOLS;          // its first column of C
  // Element strides of A's rows and columns.
  const int ta = (flags & GEMM_TRANS_A) != 0;
  const ulong a_si = ta ? 1 : lda, a_sk = ta ? lda : 1;
  // The split's K range; alpha == 0: A and B are not read.
  const ulong kb = s * kspan;
  const ulong ke = alpha_z == (real)0 ? kb : K < kb + kspan ? K : kb + kspan;

#if B_KCONTIG
  comp acc[MT][NJ];
#else
  comp acc[MT][NJ * VW];
#endif
#pragma unroll
  for (int i = 0; i < MT; ++i)
#if B_KCONTIG
#pragma unroll
    for (int q = 0; q < NJ; ++q) acc[i][q] = (comp)0;
#else
#pragma unroll
    for (int q = 0; q < NJ * VW; ++q) acc[i][q] = (comp)0;
#endif

  for (ulong kc = kb; kc < ke; kc += CHUNK) {
    // A's rows r0 .. r0 + MT over K's chunk, zero outside, the fast index
    // along A's stored rows.
    for (int e = tid; e < MT * CHUNK; e += WGS) {
      const int i = ta ? e % MT : e / CHUNK, kk = ta ? e / MT : e % CHUNK;
      const ulong gi = r0 + i, gk = kc + kk;
      lm[ALM(i, kk)] = gi < M && gk < ke ? LOAD_ONE(ap, gi * a_si + gk * a_sk) : (comp)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

#if B_KCONTIG
    for (int p0 = tx; p0 < KCH * WGX; p0 += KU * WGX) {
      comp bv[KU][NJ][VW];
#pragma unroll
      for (int u = 0; u < KU; ++u) {
        const ulong gk = kc + (ulong)(p0 + u * WGX) * VW;
#pragma unroll
        for (int q = 0; q < NJ; ++q) {
          const ulong j = nb + ty * NJ + q;
          load_b(bv[u][q], bp, j * ldb + gk, j < N && gk < ke ? ke - gk : 0);
        }
      }
#pragma unroll
      for (int u = 0; u < KU; ++u) {
        const int pk = p0 + u * WGX;
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
          for (int v = 0; v < VW; ++v) {
            const comp av = lm[(i * VW + v) * (CHUNK / VW) + pk];
#pragma unroll
            for (int q = 0; q < NJ; ++q) acc[i][q] = fma(av, bv[u][q][v], acc[i][q]);
          }
      }
    }
#else
    for (int k0 = ty; k0 < CHUNK; k0 += KU * WGY) {
      comp bv[KU][NJ][VW];
#pragma unroll
      for (int u = 0; u < KU; ++u) {
        const ulong gk = kc + (ulong)(k0 + u * WGY);
#pragma unroll
        for (int q = 0; q < NJ; ++q) {
          const ulong n = nb + (ulong)((q * WGX + tx) * VW);
          load_b(bv[u][q], bp, gk * ldb + n, gk < ke && n < N ? N - n : 0);
        }
      }
#pragma unroll
      for (int u = 0; u < KU; ++u) {
        const int kk = k0 + u * WGY;
#pragma unroll
        for (int i = 0; i < MT; ++i) {
          const comp av = lm[kk * MT + i];
#pragma unroll
          for (int q = 0; q < NJ; ++q)
#pragma unroll
            for (int v = 0; v < VW; ++v) acc[i][q * VW + v] = fma(av, bv[u][q][v], acc[i][q * VW + v]);
        }
      }
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // The lanes that share outputs meet: those along K (y for B_KCONTIG 0, x
  // for 1), in RR rows of C per round of local memory.
#if B_KCONTIG
#if WGX == 1
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int q = 0; q < NJ; ++q) EMIT(r0 + i, nb + ty * NJ + q, acc[i][q]);
#elif USE_SG
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int q = 0; q < NJ; ++q) {
      const comp sum = sub_group_reduce_add(acc[i][q]);
      if (tx == 0) EMIT(r0 + i, nb + ty * NJ + q, sum);
    }
#else
  // Round layout: [RR][GCOLS][WGX + 1] (odd row length: the sums read without conflicts).
#pragma unroll
  for (int i0 = 0; i0 < MT; i0 += RR) {
#pragma unroll
    for (int r = 0; r < RR; ++r)
#pragma unroll
      for (int q = 0; q < NJ; ++q) lm[(r * GCOLS + ty * NJ + q) * (WGX + 1) + tx] = acc[i0 + r][q];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int o = tid; o < RR * GCOLS; o += WGS) {
      comp sum = (comp)0;
      for (int x = 0; x < WGX; ++x) sum += lm[o * (WGX + 1) + x];
      EMIT(r0 + i0 + o / GCOLS, nb + o % GCOLS, sum);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif
#else
#if WGY == 1
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int q = 0; q < NJ; ++q)
#pragma unroll
      for (int v = 0; v < VW; ++v) EMIT(r0 + i, nb + (ulong)((q * WGX + tx) * VW + v), acc[i][q * VW + v]);
#else
  // Round layout: [RR][WGY][GCOLS], slot (v NJ + q) WGX + tx for column
  // (q WGX + tx) VW + v, so that both the stores and the sums are
  // conflict-free.
#pragma unroll
  for (int i0 = 0; i0 < MT; i0 += RR) {
#pragma unroll
    for (int r = 0; r < RR; ++r)
#pragma unroll
      for (int q = 0; q < NJ; ++q)
#pragma unroll
        for (int v = 0; v < VW; ++v) lm[(r * WGY + ty) * GCOLS + (v * NJ + q) * WGX + tx] = acc[i0 + r][q * VW + v];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int o = tid; o < RR * GCOLS; o += WGS) {
      const int r = o / GCOLS, slot = o % GCOLS;
      comp sum = (comp)0;
      for (int y = 0; y < WGY; ++y) sum += lm[(r * WGY + y) * GCOLS + slot];
      const int x = slot % WGX, q = (slot / WGX) % NJ, v = slot / (WGX * NJ);
      EMIT(r0 + i0 + r, nb + (ulong)((q * WGX + x) * VW + v), sum);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif
#endif
}

// The second pass of a split product: C(i, j) = epilogue(the sum of the
// nsplit partials of (z, i, j), in split order). Grid: x along N, y along M,
// z the products from z0.
__kernel void gemm_thin_reduce(const ulong M, const ulong N, const real alpha, const real beta,
                               __global const comp* restrict part, const ulong nsplit,
                               __global CTYPE* c, const ulong c_off, const ulong ldc, const ulong c_stride,
                               __global const CTYPE* restrict bias, const ulong bias_off,
                               __global const ulong* restrict table, const ulong batch, const uint flags,
                               const ulong z0, const real act_p0, const real act_p1) {
  const ulong j = get_global_id(0), i = get_global_id(1), z = z0 + get_group_id(2);
  if (i >= M || j >= N) return;
  __global CTYPE* cp = c + GEMM_OFFSET(flags & GEMM_C_LIST, c_off, c_stride, table, z, 2);
  const __global comp* pp = part + (z * nsplit * M + i) * N + j;
  comp sum = (comp)0;
  for (ulong t = 0; t < nsplit; ++t) sum += pp[t * M * N];
  thin_finish(cp, ldc, flags, bias + bias_off, i, j, (real)sum, gemm_alpha(flags, alpha, table, batch, z),
              gemm_beta(flags, beta, table, batch, z), act_p0, act_p1);
}
