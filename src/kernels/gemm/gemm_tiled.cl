// gemm_tiled: C = act(alpha * A B + beta * C + bias) for operands already in
// the kernel's layout (CLBlast's Xgemm, plus double buffering): A stored
// K x M with each row contiguous along M, B stored K x N contiguous along N,
// C M x N row-major, M, N and K multiples of MWG, NWG and KWG, leading
// dimensions and offsets multiples of the vector widths. The host's helper
// kernels (gemm_helpers.cl) pad and transpose operands that do not fit, and
// copy the product back through the epilogue when C does not fit.
//
// A group computes an MWG x NWG tile of C with MDIMC x NDIMC work-items,
// each holding MWI x NWI accumulators (NWI as vectors of VWN along N). K
// advances by KWG: the group stages the A and B tiles in local memory (SA,
// SB; without, each work-item reads its own values from global memory),
// loading them in the shapes MDIMA x KDIMA and NDIMB x KDIMB, one vector of
// VWM (VWN) elements per access:
//
//                 N (NWG per group)
//            +-----------------------+
//   K (KWG)  | B tile: blm[k][n/VWN] |
//            +-----------------------+
//      +----+ +-----------------------+
//      | A  | | C tile MWG x NWG      |   work-item (tid_m, tid_n) holds rows
//      |tile| |  MDIMC x NDIMC items  |   ROW_OF(0..MWI-1) and column vectors
//      |alm | |  each MWI x NWI       |   VEC_N(0..NWIV-1)
//      |[k] | |                       |
//      |[m] | +-----------------------+
//      +----+
//
// STRM = 0: a work-item's rows are contiguous (MWI of them); 1: its vectors
// of VWM rows are MDIMC vectors apart, so neighbouring work-items read
// neighbouring vectors (conflict-free local reads, coalesced global ones).
// STRN likewise for columns.
// DB = 1: two local stages. The next K tile's global loads go to registers
// before the current tile is multiplied and to the other stage after it, so
// a K step costs one barrier and its loads overlap the arithmetic.
// C_DIRECT = 1: the epilogue is applied in the store, to C itself;
// 0: the raw product goes (as EPI) to a padded temporary for gemm_copy_back.
//
// check-prepend: gemm/gemm_common.cl
// check-variant: -DSA=0 -DSB=0 -DDB=0 -DSTRM=0 -DSTRN=0 -DVWM=8 -DVWN=16 -DMWG=64 -DNWG=64 -DMDIMC=8 -DNDIMC=4 -DMDIMA=8 -DNDIMB=4
// check-variant: -DSA=1 -DSB=0 -DDB=1 -DKWI=4 -DC_DIRECT=0
// check-variant: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DVWM=2 -DVWN=2
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DVWM=4 -DVWN=4 -DC_DIRECT=1 -DDB=0
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=half -DCOMP_HALF=1 -DVWM=2 -DVWN=1 -DC_DIRECT=0

#ifndef MWG
#define MWG 64           // rows of C per group
#endif
#ifndef NWG
#define NWG 64           // columns of C per group
#endif
#ifndef KWG
#define KWG 16           // K per step (the local tiles' depth)
#endif
#ifndef MDIMC
#define MDIMC 16         // work-items along M
#endif
#ifndef NDIMC
#define NDIMC 16         // work-items along N
#endif
#ifndef MDIMA
#define MDIMA 16         // work-items along M when loading the A tile
#endif
#ifndef NDIMB
#define NDIMB 16         // work-items along N when loading the B tile
#endif
#ifndef KWI
#define KWI 2            // unroll of the loop over a tile's K
#endif
#ifndef VWM
#define VWM 4            // vector width along M (A loads)
#endif
#ifndef VWN
#define VWN 4            // vector width along N (B loads, accumulators, C)
#endif
#ifndef STRM
#define STRM 1           // 0: contiguous rows per work-item; 1: strided by MDIMC vectors
#endif
#ifndef STRN
#define STRN 1           // likewise for columns
#endif
#ifndef SA
#define SA 1             // 1: stage A tiles in local memory
#endif
#ifndef SB
#define SB 1             // 1: stage B tiles in local memory
#endif
#ifndef DB
#define DB 1             // 1: two local stages, one barrier per K step
#endif
#ifndef C_DIRECT
#define C_DIRECT 1       // 1: epilogue into C; 0: raw product into an EPI temporary
#endif
#ifndef COMP_HALF
#define COMP_HALF 0      // 1 when COMP is half (f16 arithmetic)
#endif

#define WGS (MDIMC * NDIMC)   // work-items per group
#define MWI (MWG / MDIMC)     // rows per work-item
#define NWI (NWG / NDIMC)     // columns per work-item
#define MWIV (MWI / VWM)      // row vectors per work-item
#define NWIV (NWI / VWN)      // column vectors per work-item
#define MWGV (MWG / VWM)      // vectors per row of the A tile
#define NWGV (NWG / VWN)      // vectors per row of the B tile
#define KDIMA (WGS / MDIMA)   // work-items along K when loading A
#define KDIMB (WGS / NDIMB)
#define MVA (MWGV / MDIMA)    // A vectors per loading work-item and tile row
#define NVB (NWGV / NDIMB)
#define KWA (KWG / KDIMA)     // A tile rows per loading work-item
#define KWB (KWG / KDIMB)
#define STAGES (DB ? 2 : 1)

typedef COMP comp;
typedef OPTUNE_VEC(COMP, VWM) compM;
typedef OPTUNE_VEC(COMP, VWN) compN;

// Pack i of a row-contiguous operand: one aligned vector access, or
// vload_halfN when half storage feeds float arithmetic.
#if HALF_STORAGE && !COMP_HALF
#define LOAD_M(p, i) OPTUNE_CAT(optune_vload_half, VWM)((i), (p))
#define LOAD_N(p, i) OPTUNE_CAT(optune_vload_half, VWN)((i), (p))
#else
#define LOAD_M(p, i) (((const __global compM*)(p))[i])
#define LOAD_N(p, i) (((const __global compN*)(p))[i])
#endif

// A work-item's vector v along M (N) within the tile, in vectors.
#define VEC_M(v) (STRM ? (v) * MDIMC + tid_m : tid_m * MWIV + (v))
#define VEC_N(v) (STRN ? (v) * NDIMC + tid_n : tid_n * NWIV + (v))
// The tile row of a work-item's mi-th row.
#define ROW_OF(mi) (VEC_M((mi) / VWM) * VWM + (mi) % VWM)

// The output: C itself (storage type) or the raw-product temporary (EPI).
#if C_DIRECT
#define CTYPE TYPE
#else
#define CTYPE EPI
#endif

// Registers to local stage s (no pragmas inside a macro: the loops have
// constant trip counts and unroll anyway).
#if SA
#define REGS_TO_LOCAL_A(s) \
  for (int j = 0; j < KWA; ++j) \
    for (int i = 0; i < MVA; ++i) alm[s][(la_k + j * KDIMA) * MWGV + la_m + i * MDIMA] = ra[j * MVA + i];
#else
#define REGS_TO_LOCAL_A(s)
#endif
#if SB
#define REGS_TO_LOCAL_B(s) \
  for (int j = 0; j < KWB; ++j) \
    for (int i = 0; i < NVB; ++i) blm[s][(lb_k + j * KDIMB) * NWGV + lb_n + i * NDIMB] = rb[j * NVB + i];
#else
#define REGS_TO_LOCAL_B(s)
#endif
#define REGS_TO_LOCAL(s) { REGS_TO_LOCAL_A(s) REGS_TO_LOCAL_B(s) }

__kernel OPTUNE_WG_SIZE(NDIMC, MDIMC, 1)
void gemm_tiled(const ulong K, const real alpha, const real beta,
                __global const TYPE* restrict a, const ulong a_off, const ulong lda, const ulong a_stride,
                __global const TYPE* restrict b, const ulong b_off, const ulong ldb, const ulong b_stride,
                __global CTYPE* c, const ulong c_off, const ulong ldc, const ulong c_stride,
                __global const TYPE* restrict bias, const ulong bias_off,
                __global const ulong* restrict table, const ulong batch, const uint flags, const ulong z0,
                const real act_p0, const real act_p1) {
#if SA
  __local compM alm[STAGES][KWG * MWGV];
#endif
#if SB
  __local compN blm[STAGES][KWG * NWGV];
#endif
  const int tid_n = (int)get_local_id(0), tid_m = (int)get_local_id(1);
  const int tid = tid_m * NDIMC + tid_n;
  const ulong z = z0 + get_group_id(2);
  const ulong m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
  const __global TYPE* ag = a + GEMM_OFFSET(flags & GEMM_A_LIST, a_off, a_stride, table, z, 0) + m0;
  const __global TYPE* bg = b + GEMM_OFFSET(flags & GEMM_B_LIST, b_off, b_stride, table, z, 1) + n0;
  const int ldav = (int)(lda / VWM), ldbv = (int)(ldb / VWN);
  const real alpha_z = gemm_alpha(flags, alpha, table, batch, z);
  const real beta_z = gemm_beta(flags, beta, table, batch, z);
  // alpha == 0: A and B are not read (the same for the whole group).
  const int steps = alpha_z == (real)0 ? 0 : (int)(K / KWG);
#if SA
  const int la_m = tid % MDIMA, la_k = tid / MDIMA;
  compM ra[KWA * MVA];
#endif
#if SB
  const int lb_n = tid % NDIMB, lb_k = tid / NDIMB;
  compN rb[KWB * NVB];
#endif

  compN acc[MWI][NWIV];
#pragma unroll
  for (int mi = 0; mi < MWI; ++mi)
#pragma unroll
    for (int nv = 0; nv < NWIV; ++nv) acc[mi][nv] = OPTUNE_SPLAT(COMP, VWN, 0);

  // K steps. Step t multiplies tile t; with DB it first issues the global
  // loads of tile t + 1 (step -1 only loads tile 0), so they are in flight
  // during the arithmetic and land in the other local stage afterwards.
  for (int t = -DB; t < steps; ++t) {
    const int lt = t + DB;  // the tile this step loads
    if (lt < steps) {
#if SA
      const __global TYPE* at = ag + (ulong)lt * KWG * lda;
#pragma unroll
      for (int j = 0; j < KWA; ++j)
#pragma unroll
        for (int i = 0; i < MVA; ++i) ra[j * MVA + i] = LOAD_M(at, (la_k + j * KDIMA) * ldav + la_m + i * MDIMA);
#endif
#if SB
      const __global TYPE* bt = bg + (ulong)lt * KWG * ldb;
#pragma unroll
      for (int j = 0; j < KWB; ++j)
#pragma unroll
        for (int i = 0; i < NVB; ++i) rb[j * NVB + i] = LOAD_N(bt, (lb_k + j * KDIMB) * ldbv + lb_n + i * NDIMB);
#endif
    }
#if !DB && (SA || SB)
    REGS_TO_LOCAL(0)
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    if (t >= 0) {
      const int s = DB ? (t & 1) : 0;
#if !SA
      const __global TYPE* at = ag + (ulong)t * KWG * lda;
#endif
#if !SB
      const __global TYPE* bt = bg + (ulong)t * KWG * ldb;
#endif
      for (int kl = 0; kl < KWG; kl += KWI) {
#pragma unroll
        for (int ku = 0; ku < KWI; ++ku) {
          const int k = kl + ku;
          comp av[MWI];
          compN bv[NWIV];
#pragma unroll
          for (int v = 0; v < MWIV; ++v) {
#if SA
            const compM x = alm[s][k * MWGV + VEC_M(v)];
#else
            const compM x = LOAD_M(at, k * ldav + VEC_M(v));
#endif
            OPTUNE_VUNPACK(VWM, x, (av + v * VWM));
          }
#pragma unroll
          for (int v = 0; v < NWIV; ++v) {
#if SB
            bv[v] = blm[s][k * NWGV + VEC_N(v)];
#else
            bv[v] = LOAD_N(bt, k * ldbv + VEC_N(v));
#endif
          }
#pragma unroll
          for (int mi = 0; mi < MWI; ++mi)
#pragma unroll
            for (int nv = 0; nv < NWIV; ++nv) acc[mi][nv] += av[mi] * bv[nv];
        }
      }
    }
#if DB
    if (lt < steps) REGS_TO_LOCAL(lt & 1)
    barrier(CLK_LOCAL_MEM_FENCE);
#elif SA || SB
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
  }

  // Store: each accumulator vector is VWN adjacent elements of one row.
  __global CTYPE* cg = c + GEMM_OFFSET(flags & GEMM_C_LIST, c_off, c_stride, table, z, 2);
  const __global TYPE* biasp = bias + bias_off;
#pragma unroll
  for (int mi = 0; mi < MWI; ++mi) {
    const ulong i = m0 + ROW_OF(mi);
    __global CTYPE* crow = cg + i * ldc;
#pragma unroll
    for (int nv = 0; nv < NWIV; ++nv) {
      const int jv = (int)(n0 / VWN) + VEC_N(nv);
      comp lanes[VWN];
      OPTUNE_VUNPACK(VWN, acc[mi][nv], lanes);
      real out[VWN];
#if C_DIRECT
      real old[VWN];
      if (beta_z != (real)0) {
#if HALF_STORAGE
        const OPTUNE_VEC(float, VWN) o = OPTUNE_CAT(optune_vload_half, VWN)(jv, crow);
#else
        const OPTUNE_VEC(TYPE, VWN) o = ((const __global OPTUNE_VEC(TYPE, VWN)*)crow)[jv];
#endif
        OPTUNE_VUNPACK(VWN, o, old);
      } else {
#pragma unroll
        for (int l = 0; l < VWN; ++l) old[l] = (real)0;
      }
#pragma unroll
      for (int l = 0; l < VWN; ++l)
        out[l] = gemm_finish((real)lanes[l], alpha_z, (real)old[l], beta_z, gemm_bias(flags, biasp, i, jv * VWN + l),
                             act_p0, act_p1);
#if HALF_STORAGE
      OPTUNE_CAT(optune_vstore_half, VWN)(OPTUNE_VPACK(float, VWN, out), jv, crow);
#else
      ((__global OPTUNE_VEC(TYPE, VWN)*)crow)[jv] = OPTUNE_VPACK(TYPE, VWN, out);
#endif
#else
#pragma unroll
      for (int l = 0; l < VWN; ++l) out[l] = (real)lanes[l];
      ((__global OPTUNE_VEC(EPI, VWN)*)crow)[jv] = OPTUNE_VPACK(EPI, VWN, out);
#endif
    }
  }
}
