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
// A_KCONTIG = 1 (with SA): A is stored M x K instead (rows along K, as a
// row-major A of an NN product): each work-item loads VWM-wide vectors along
// K, KWG / VWM work-items per row, and scatters them into the same local
// layout, so such an A needs no transposition pass. B_KCONTIG likewise for a
// B stored N x K (with SB, VWN-wide vectors along K). KSEG sets the loading
// order: KSEG adjacent work-items read adjacent vectors of one row, the next
// KSEG the next row, and so on. Whole rows (KSEG >= KWG / VW) read each
// row in one piece but scatter into local memory with bank conflicts (every
// vector of a row lands in the same bank); short segments (one 32-byte
// sector, say) keep whole sectors per access and spread the stores.
// Split K: a launch of nsplit > 1 (the last two arguments) computes each
// product as nsplit ranges of `kspan` rows of K (a multiple of KWG; the last
// range ends at K): group z of the grid is product z / nsplit, range
// z % nsplit, and writes its raw partial product (C_DIRECT = 0) to matrix z
// of the temporary, which gemm_copy_back sums in range order (deterministic)
// through the epilogue. nsplit = 1, kspan = K: the plain product.
// ASYNC = 1 (CUDA only, compute capability 8.0+; f32 or f64 with SA, SB,
// 16-byte vectors and neither A_KCONTIG nor B_KCONTIG): the tiles go from
// global to local memory by cp.async, 16 bytes per copy and no registers on
// the way, through STAGES local stages (DB does not apply): tiles t + 1 ..
// t + STAGES - 1 are in flight while tile t is multiplied, and a K step
// costs one barrier. Never compiled for OpenCL (ASYNC defaults to 0).
//
// The parameters' defines, the sizes they imply and the tile moves named
// below (LOAD_M, VEC_M, ROW_OF, REGS_TO_LOCAL, ASYNC_TILE) are in
// gemm_tiled_defs.cl.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl gemm/gemm_tiled_defs.cl
// check-variant: -DSA=0 -DSB=0 -DDB=0 -DSTRM=0 -DSTRN=0 -DVWM=8 -DVWN=16 -DMWG=64 -DNWG=64 -DMDIMC=8 -DNDIMC=4 -DMDIMA=8 -DNDIMB=4
// check-variant: -DSA=1 -DSB=0 -DDB=1 -DKWI=4 -DC_DIRECT=0
// check-variant: -DA_KCONTIG=1 -DB_KCONTIG=1 -DMWG=128 -DNWG=128 -DVWM=4 -DVWN=2 -DDB=1
// check-variant: -DA_KCONTIG=1 -DB_KCONTIG=1 -DKSEG=2 -DVWM=4 -DVWN=4
// check-variant: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DVWM=2 -DVWN=2
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DVWM=4 -DVWN=4 -DC_DIRECT=1 -DDB=0
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=half -DCOMP_HALF=1 -DVWM=2 -DVWN=1 -DC_DIRECT=0
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=half -DCOMP_HALF=1 -DVWM=8 -DVWN=16 -DMWG=128 -DNWG=128 -DKWG=32
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=half -DCOMP_HALF=1 -DVWM=4 -DVWN=8 -DA_KCONTIG=1 -DB_KCONTIG=1 -DDB=1
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=half -DCOMP_HALF=1 -DVWM=2 -DVWN=2 -DSA=0 -DSB=0 -DDB=0
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DCOMP=float -DVWM=4 -DVWN=8 -DC_DIRECT=1
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DCTYPE=float -DC_BF16_STORAGE=0 -DCOMP=float -DVWM=2 -DVWN=4 -DC_DIRECT=1
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCTYPE=bf16 -DC_HALF_STORAGE=0 -DC_BF16_STORAGE=1 -DCOMP=float -DVWN=2 -DC_DIRECT=1
// check-variant-cuda: -DASYNC=1 -DMWG=128 -DNWG=128 -DMDIMA=32 -DNDIMB=32
// check-variant-cuda: -DASYNC=1 -DSTAGES=3 -DMWG=128 -DNWG=128 -DMDIMA=32 -DNDIMB=32 -DC_DIRECT=0 -DKWI=1
// check-variant-cuda: -DASYNC=1 -DSTAGES=3 -DSTRM=0 -DSTRN=0 -DKWG=32 -DMDIMA=8 -DNDIMB=16 -DVWM=4 -DVWN=4
// check-variant-cuda: -DASYNC=1 -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DVWM=2 -DVWN=2
// check-variant-cuda: -DASYNC=1 -DSTAGES=3 -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DVWM=2 -DVWN=2 -DC_DIRECT=0

__kernel OPTUNE_WG_SIZE(NDIMC, MDIMC, 1)
void gemm_tiled(const ulong K, const real alpha, const real beta,
                __global const TYPE* restrict a, const ulong a_off, const ulong lda, const ulong a_stride,
                __global const TYPE* restrict b, const ulong b_off, const ulong ldb, const ulong b_stride,
                __global OUT_T* c, const ulong c_off, const ulong ldc, const ulong c_stride,
                __global const CTYPE* restrict bias, const ulong bias_off,
                __global const ulong* restrict table, const ulong batch, const uint flags, const ulong z0,
                const real act_p0, const real act_p1, const ulong nsplit, const ulong kspan) {
#if SA
  __local compM alm[NSTAGES][KWG * MWGV];
#endif
#if SB
  __local compN blm[NSTAGES][KWG * NWGV];
#endif
  const int tid_n = (int)get_local_id(0), tid_m = (int)get_local_id(1);
  const int tid = tid_m * NDIMC + tid_n;
  const ulong zs = z0 + get_group_id(2);              // (product, K range)
  const ulong z = zs / nsplit, k0 = zs % nsplit * kspan;  // the product and its range's first row of K
  const ulong m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
  // The group's first row of A at k0 (K x M: its first column; M x K: its first row).
  const __global TYPE* ag = a + GEMM_OFFSET(flags & GEMM_A_LIST, a_off, a_stride, table, z, 0) +
                            m0 * (A_KCONTIG ? lda : 1) + k0 * (A_KCONTIG ? 1 : lda);
  const __global TYPE* bg = b + GEMM_OFFSET(flags & GEMM_B_LIST, b_off, b_stride, table, z, 1) +
                            n0 * (B_KCONTIG ? ldb : 1) + k0 * (B_KCONTIG ? 1 : ldb);
  const int ldav = (int)(lda / VWM), ldbv = (int)(ldb / VWN);
  const real alpha_z = gemm_alpha(flags, alpha, table, batch, z);
  const real beta_z = gemm_beta(flags, beta, table, batch, z);
  // alpha == 0: A and B are not read (the same for the whole group).
  const ulong k1 = k0 + kspan < K ? k0 + kspan : K;  // the range's end
  const int steps = alpha_z == (real)0 ? 0 : (int)((k1 - k0) / KWG);
#if SA && A_KCONTIG
  const int la_k = tid % KSEGA + tid / (KSEGA * MDIMAK) * KSEGA, la_m = tid / KSEGA % MDIMAK;
  compM ra[MWAK];
#elif SA
  const int la_m = tid % MDIMA, la_k = tid / MDIMA;
#if !ASYNC
  compM ra[KWA * MVA];
#endif
#endif
#if SB && B_KCONTIG
  const int lb_k = tid % KSEGB + tid / (KSEGB * NDIMBK) * KSEGB, lb_n = tid / KSEGB % NDIMBK;
  compN rb[NWBK];
#elif SB
  const int lb_n = tid % NDIMB, lb_k = tid / NDIMB;
#if !ASYNC
  compN rb[KWB * NVB];
#endif
#endif

  compN acc[MWI][NWIV];
#pragma unroll
  for (int mi = 0; mi < MWI; ++mi)
#pragma unroll
    for (int nv = 0; nv < NWIV; ++nv) acc[mi][nv] = OPTUNE_SPLAT(COMP, VWN, 0);
#if COMP_HALF
  // acc holds one K tile's half partial sums; sum the f32 total of the tiles.
  float sum[MWI][NWI];
#pragma unroll
  for (int mi = 0; mi < MWI; ++mi)
#pragma unroll
    for (int ni = 0; ni < NWI; ++ni) sum[mi][ni] = 0.0f;
#endif

  // K steps. Step t multiplies tile t; with DB it first issues the global
  // loads of tile t + 1 (step -1 only loads tile 0), so they are in flight
  // during the arithmetic and land in the other local stage afterwards.
  // ASYNC: tiles 0 .. STAGES - 2 are in flight before step 0; one commit
  // group per tile (empty ones past the last) keeps wait_group's count right.
#if ASYNC
#pragma unroll
  for (int lt = 0; lt < STAGES - 1; ++lt) {
    if (lt < steps) ASYNC_TILE(lt, lt)
    optune_cp_async_commit();
  }
#endif
  for (int t = ASYNC ? 0 : -DB; t < steps; ++t) {
#if ASYNC
    // Tile t has landed for this work-item, then (barrier) for all of them,
    // and all are done with tile t - 1, whose stage takes tile t + STAGES - 1.
    optune_cp_async_wait<STAGES - 2>();
    barrier(CLK_LOCAL_MEM_FENCE);
    {
      const int lt = t + STAGES - 1;
      if (lt < steps) ASYNC_TILE(lt, lt % STAGES)
      optune_cp_async_commit();
    }
#else
    const int lt = t + DB;  // the tile this step loads
    if (lt < steps) {
#if SA && A_KCONTIG
      const __global TYPE* at = ag + (ulong)lt * KWG;
#pragma unroll
      for (int i = 0; i < MWAK; ++i) ra[i] = LOAD_M(at, (la_m + i * MDIMAK) * ldav + la_k);
#elif SA
      const __global TYPE* at = ag + (ulong)lt * KWG * lda;
#pragma unroll
      for (int j = 0; j < KWA; ++j)
#pragma unroll
        for (int i = 0; i < MVA; ++i) ra[j * MVA + i] = LOAD_M(at, (la_k + j * KDIMA) * ldav + la_m + i * MDIMA);
#endif
#if SB && B_KCONTIG
      const __global TYPE* bt = bg + (ulong)lt * KWG;
#pragma unroll
      for (int i = 0; i < NWBK; ++i) rb[i] = LOAD_N(bt, (lb_n + i * NDIMBK) * ldbv + lb_k);
#elif SB
      const __global TYPE* bt = bg + (ulong)lt * KWG * ldb;
#pragma unroll
      for (int j = 0; j < KWB; ++j)
#pragma unroll
        for (int i = 0; i < NVB; ++i) rb[j * NVB + i] = LOAD_N(bt, (lb_k + j * KDIMB) * ldbv + lb_n + i * NDIMB);
#endif
    }
#endif
#if !ASYNC && !DB && (SA || SB)
    REGS_TO_LOCAL(0)
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    if (t >= 0) {
      const int s = ASYNC ? t % STAGES : DB ? (t & 1) : 0;
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
            for (int nv = 0; nv < NWIV; ++nv) {
#if COMP_HALF
              acc[mi][nv] = fma(OPTUNE_SPLAT(COMP, VWN, av[mi]), bv[nv], acc[mi][nv]);
#else
              acc[mi][nv] += av[mi] * bv[nv];
#endif
            }
        }
      }
#if COMP_HALF
      // The tile's half partial sums into the f32 sums; the next tile starts at 0.
#pragma unroll
      for (int mi = 0; mi < MWI; ++mi)
#pragma unroll
        for (int nv = 0; nv < NWIV; ++nv) {
          comp part[VWN];
          OPTUNE_VUNPACK(VWN, acc[mi][nv], part);
#pragma unroll
          for (int l = 0; l < VWN; ++l) sum[mi][nv * VWN + l] += (float)part[l];
          acc[mi][nv] = OPTUNE_SPLAT(COMP, VWN, 0);
        }
#endif
    }
#if ASYNC
    // (the next step's wait and barrier close this one)
#elif DB
    if (lt < steps) REGS_TO_LOCAL(lt & 1)
    barrier(CLK_LOCAL_MEM_FENCE);
#elif SA || SB
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
  }

  // Store: each accumulator vector is VWN adjacent elements of one row.
  // (the temporary holds one matrix per product and range: never listed)
  __global OUT_T* cg = c + (C_DIRECT ? GEMM_OFFSET(flags & GEMM_C_LIST, c_off, c_stride, table, z, 2)
                                     : c_off + zs * c_stride);
  const __global CTYPE* biasp = bias + bias_off;
#pragma unroll
  for (int mi = 0; mi < MWI; ++mi) {
    const ulong i = m0 + ROW_OF(mi);
    __global OUT_T* crow = cg + i * ldc;
#pragma unroll
    for (int nv = 0; nv < NWIV; ++nv) {
      const int jv = (int)(n0 / VWN) + VEC_N(nv);
#if COMP_HALF
      float lanes[VWN];
#pragma unroll
      for (int l = 0; l < VWN; ++l) lanes[l] = sum[mi][nv * VWN + l];
#else
      comp lanes[VWN];
      OPTUNE_VUNPACK(VWN, acc[mi][nv], lanes);
#endif
      real out[VWN];
#if C_DIRECT
      real old[VWN];
      if (beta_z != (real)0) {
#if C_HALF_STORAGE
        const OPTUNE_VEC(float, VWN) o = OPTUNE_CAT(optune_vload_half, VWN)(jv, crow);
#elif C_BF16_STORAGE
        const OPTUNE_VEC(float, VWN) o = OPTUNE_CAT(optune_vload_bf16, VWN)(jv, crow);
#else
        const OPTUNE_VEC(CTYPE, VWN) o = ((const __global OPTUNE_VEC(CTYPE, VWN)*)crow)[jv];
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
#if C_HALF_STORAGE
      OPTUNE_CAT(optune_vstore_half, VWN)(OPTUNE_VPACK(float, VWN, out), jv, crow);
#elif C_BF16_STORAGE
      OPTUNE_CAT(optune_vstore_bf16, VWN)(OPTUNE_VPACK(float, VWN, out), jv, crow);
#else
      ((__global OPTUNE_VEC(CTYPE, VWN)*)crow)[jv] = OPTUNE_VPACK(CTYPE, VWN, out);
#endif
#else
#pragma unroll
      for (int l = 0; l < VWN; ++l) out[l] = (real)lanes[l];
      ((__global OPTUNE_VEC(EPI, VWN)*)crow)[jv] = OPTUNE_VPACK(EPI, VWN, out);
#endif
    }
  }
}
