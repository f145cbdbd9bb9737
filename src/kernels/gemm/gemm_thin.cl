// gemm_thin: C = act(alpha * A B + beta * C + bias) where A is thin: M <= MT
// rows per group (decode-time inference: M tokens, 1 to 16), B is wide and
// is streamed once. The host turns a product whose N is the thin dimension
// into C^T = B^T A^T (flags GEMM_TRANS_C and GEMM_LISTS_SWAPPED), so this
// kernel only sees a thin A. M = 1 is a GEMV: the interface keeps leading
// dimensions for A, B and C (a vector with any element stride is a 1 x K
// matrix stored K x 1, A_KCONTIG 0, or a 1 x N row of C).
//
// Row-major problem (see gemm_common.cl): A is M x K, C is M x N at
// i * ldc + j, or with GEMM_TRANS_C at j * ldc + i. B is K x N, and its
// storage picks the code path (a define, B_KCONTIG):
//
//   B_KCONTIG 0: B stored K x N. A work-item owns NJ packs of VW columns of
//     C; the WGX lanes along x read consecutive packs of one row of B
//     (coalesced); the WGY rows of lanes take interleaved steps of KU rows
//     of K and meet in local memory once, at the end.
//
//              N ->  | x=0 | x=1 | ... | x=WGX-1 | x=0 (NJ > 1) ...
//        k  y = 0    |  VW |  VW |     |   VW    |     (KU rows)
//        |  y = 1    |     |     |     |         |     (KU rows)
//        v  y = 0    |     |     |     |         |     (k + WGY KU)
//
//   B_KCONTIG 1: B stored N x K (the transposed B of x W^T). Each row y of
//     work-items owns NJ columns of C (rows of B), its WGX lanes read
//     consecutive packs of VW elements along K, KU packs apart, and meet at
//     the end in a sub-group reduction (SG, where the sub-group is the row)
//     or in local memory.
//
// Streaming: there is no barrier in the K loop. Each step loads KU packs of
// B per lane per column pack (KU NJ independent loads in flight) before any
// is used; A, tiny and shared by every group, is read straight from global
// memory (the caches serve it) in packs of AV elements along its contiguous
// dimension (A_KCONTIG 1: A stored M x K, packs along K; 0: stored K x M,
// packs along M), right where the products need it. All MT x (NJ VW) (or
// MT x NJ) sums stay in registers. Arithmetic and accumulation are in COMP
// (f32 for f32 and f16/bf16 storage, f64 for f64). With AL > 0 and B read
// along N (CPUs: PoCL's work-group loops vectorise a broadcast from local
// memory far better than loads of A through the caches) the group instead
// copies A's rows over AL steps of K into local memory (ALM below), between
// two barriers, and the steps read it there. Along K the same staging is
// ALK (a parameter of its own, default 0: on PoCL it ran slower): A's chunk
// is stored row by row, and each lane reads its packs' k of every row in
// packs of up to 4 from local memory, where from the caches a group of M = 16
// rows had A's rows miss L1 about half the time (H200, ncu).
//
// Split K: the grid's y holds (row blocks) x (splits); split s takes K's
// range [s kspan, (s + 1) kspan) (kspan a multiple of the group's step:
// WGY KU rows, or WGX VW KU along K). With nsplit = 1 the kernel applies the
// epilogue; else it writes its partial sums to part[((z nsplit + s) M + i)
// N + j], and the nsplit partials are added in split order (deterministic,
// whatever order the groups ran in) and go through the epilogue: with FUSE
// 1 by the tile's last group to finish, in this kernel (each group counts
// its arrival on the tile's ticket after a global fence; the last one reads
// the partials and sets the ticket back to 0, so the tickets, zeroed when
// their memory was allocated, are zero again for the next call); with FUSE
// 0 by gemm_thin_reduce (below), a second pass.
//
// TC 1 and 2 (CUDA; B either way, A stored M x K, and under TC 2 also K x M,
// gathered): the products on the tensor
// cores, both operands straight from global memory into mma.sync fragments,
// the group's warps on the same columns (16 NJ, or 16 NJ VW where B is read
// along N) and interleaved along K, their fragments added in warp order
// through local memory (gemm_thin_tc.cl); the split and the epilogue are the
// same.
//
// Grid: x = column blocks * WGX, y = (row blocks * nsplit) * WGY, z = the
// products from z0; a group's row block, column block and split come from
// its place in launch order, row blocks fastest (see the kernel).
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl gemm/gemm_thin_steps.cl gemm/gemm_thin_tc.cl
// check-variant: -DB_KCONTIG=1 -DWGX=32 -DWGY=8 -DVW=4 -DKU=2 -DMT=8 -DAV=4 -DRR=4
// check-variant: -DB_KCONTIG=1 -DA_KCONTIG=0 -DWGX=32 -DWGY=4 -DVW=2 -DNJ=2 -DKU=4 -DMT=4 -DAV=2 -DSG=1 -DOPTUNE_SUBGROUP_SIZE=32 -DFUSE=1
// check-variant: -DB_KCONTIG=0 -DWGX=16 -DWGY=1 -DVW=8 -DNJ=2 -DKU=4 -DMT=2 -DAV=2 -DRR=2
// check-variant: -DB_KCONTIG=0 -DA_KCONTIG=0 -DWGX=16 -DWGY=2 -DVW=8 -DKU=4 -DMT=16 -DAL=4 -DRR=4
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DA_KCONTIG=0 -DVW=8 -DWGX=8 -DWGY=4 -DKU=2 -DMT=8 -DAL=1 -DRR=8 -DFUSE=1
// check-variant: -DB_KCONTIG=0 -DA_KCONTIG=0 -DWGX=16 -DWGY=4 -DVW=4 -DKU=2 -DMT=16 -DAV=4 -DRR=4
// check-variant: -DB_KCONTIG=1 -DWGX=1 -DWGY=64 -DVW=4 -DKU=2 -DMT=2 -DAV=1
// check-variant: -DB_KCONTIG=1 -DALK=2 -DWGX=16 -DWGY=8 -DVW=4 -DNJ=4 -DKU=2 -DMT=16 -DAV=4 -DRR=4
// check-variant: -DB_KCONTIG=1 -DA_KCONTIG=0 -DALK=1 -DWGX=32 -DWGY=4 -DVW=2 -DNJ=2 -DKU=4 -DMT=4 -DAV=2 -DRR=4
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DB_KCONTIG=1 -DALK=1 -DVW=8 -DWGX=16 -DWGY=8 -DKU=1 -DMT=16 -DAV=8 -DRR=8
// check-variant: -DB_KCONTIG=1 -DPF=1 -DWGX=16 -DWGY=8 -DVW=4 -DNJ=4 -DKU=2 -DMT=16 -DAV=4 -DRR=4
// check-variant: -DB_KCONTIG=0 -DA_KCONTIG=0 -DPF=1 -DWGX=32 -DWGY=8 -DVW=4 -DKU=4 -DMT=8 -DAV=4 -DRR=8
// check-variant: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DVW=2 -DAV=2 -DRR=4
// check-variant: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DB_KCONTIG=1 -DA_KCONTIG=0 -DVW=2 -DWGX=32 -DWGY=4 -DKU=2 -DAV=2 -DRR=4
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DVW=8 -DMT=1 -DAV=1 -DRR=1
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DB_KCONTIG=1 -DVW=8 -DWGX=16 -DWGY=8 -DKU=1 -DMT=16 -DAV=8 -DRR=8
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DCOMP=float -DB_KCONTIG=0 -DA_KCONTIG=0 -DVW=4 -DMT=8 -DAV=4 -DRR=4
// check-variant-cuda: -DB_KCONTIG=1 -DTC=1 -DWGX=32 -DWGY=4 -DVW=4 -DNJ=2 -DKU=2 -DMT=16 -DAV=4
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DB_KCONTIG=1 -DTC=1 -DWGX=32 -DWGY=2 -DVW=8 -DKU=2 -DMT=8 -DAV=8 -DFUSE=1 -DPF=1
// check-variant-cuda: -DB_KCONTIG=1 -DTC=1 -DWGX=32 -DWGY=8 -DVW=4 -DNJ=1 -DKU=2 -DMT=8 -DAV=4 -DPF=1 -DBHINT=2
// check-variant-cuda: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DB_KCONTIG=1 -DTC=1 -DWGX=32 -DWGY=2 -DVW=2 -DKU=2 -DMT=8 -DAV=2 -DBHINT=1
// check-variant-cuda: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DB_KCONTIG=1 -DTC=1 -DWGX=32 -DWGY=1 -DVW=2 -DNJ=2 -DKU=4 -DMT=16 -DAV=2
// check-variant-cuda: -DTYPE=bf16 -DBF16_STORAGE=1 -DCOMP=float -DB_KCONTIG=1 -DTC=1 -DWGX=32 -DWGY=4 -DVW=8 -DKU=1 -DMT=16 -DAV=8
// check-variant-cuda: -DB_KCONTIG=0 -DTC=1 -DWGX=32 -DWGY=4 -DVW=4 -DNJ=1 -DKU=1 -DMT=16 -DAV=4 -DBHINT=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DB_KCONTIG=0 -DTC=1 -DWGX=32 -DWGY=2 -DVW=8 -DKU=1 -DMT=16 -DAV=8 -DFUSE=1
// check-variant-cuda: -DTYPE=bf16 -DBF16_STORAGE=1 -DCOMP=float -DB_KCONTIG=0 -DTC=1 -DWGX=32 -DWGY=1 -DVW=8 -DKU=2 -DMT=8 -DAV=8 -DPF=1
// check-variant-cuda: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DB_KCONTIG=0 -DTC=1 -DWGX=32 -DWGY=2 -DVW=2 -DNJ=2 -DKU=2 -DMT=8 -DAV=2 -DPF=1 -DFUSE=1
// check-variant-cuda: -DB_KCONTIG=1 -DA_KCONTIG=0 -DTC=2 -DWGX=32 -DWGY=4 -DVW=4 -DNJ=2 -DKU=2 -DMT=16 -DAV=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DB_KCONTIG=0 -DA_KCONTIG=0 -DTC=2 -DWGX=32 -DWGY=4 -DVW=8 -DNJ=1 -DKU=1 -DMT=16 -DAV=1 -DFUSE=1
// check-variant-cuda: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1 -DB_KCONTIG=1 -DA_KCONTIG=0 -DTC=2 -DWGX=32 -DWGY=2 -DVW=2 -DKU=2 -DMT=8 -DAV=1 -DPF=1
// check-variant-cuda: -DTYPE=bf16 -DBF16_STORAGE=1 -DCOMP=float -DB_KCONTIG=1 -DA_KCONTIG=0 -DTC=2 -DWGX=32 -DWGY=2 -DVW=8 -DKU=2 -DMT=8 -DAV=1

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
               const ulong kspan, __global uint* restrict tickets) {
  __local comp lm[RED_SIZE];
#if TC && WGY > 1
  __local tc_acc red_tc[TC_RED];
#endif
#if FUSE
  __local uint ticket;
#endif
#if AL && B_KCONTIG
  // Declared as packs, so that the packs read from it are aligned on CUDA.
  __local OPTUNE_VEC(COMP, LAV) am_packs[AM_SIZE / LAV];
  OPTUNE_LOCAL_PTR comp* am = (OPTUNE_LOCAL_PTR comp*)am_packs;
#elif AL
  __local comp am[AM_SIZE];
#endif
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
  // The groups in launch order (x fastest) take the row blocks fastest, then
  // the column blocks, then the splits: the row blocks that read the same
  // columns of B run side by side, so that B comes from memory once and from
  // the last-level cache for the others (M = 16 as two blocks of MT 8).
  const ulong nrb = get_num_groups(1) / nsplit, ncb = get_num_groups(0);
  const ulong lin = get_group_id(1) * ncb + get_group_id(0);
  const ulong rb = lin % nrb, cb = (lin / nrb) % ncb;
  const ulong s = lin / (nrb * ncb);
  const ulong r0 = rb * MT;      // the group's first row of A and C
  const ulong nb = cb * GCOLS;   // its first column of C
  // The split's K range; alpha == 0: A and B are not read.
  const ulong kb = s * kspan;
  const ulong ke = alpha_z == (real)0 ? kb : K < kb + kspan ? K : kb + kspan;

#if TC
  // The tensor cores' path (gemm_thin_tc.cl): fragments, not lanes' sums.
  const int tq = tx % 4, tg = tx / 4;
  tc_acc acc_tc[TC_NB][TC_NF][4] = {};  // CUDA C++: zeros
  const int inner = nb + GCOLS <= N && r0 < M;
#if PF
  {
    TC_BQ_DECL(bq);
    tc_pack aq[KU][TC_NF];
    ulong kc = KFIRST;
    if (kc < ke) TC_LOAD_AT(bq, aq, kc)
    for (; kc < ke; kc += (ulong)KSTEP) {
      const ulong kn = kc + (ulong)KSTEP;
      TC_BQ_DECL(bn);
      tc_pack an[KU][TC_NF];
      if (kn < ke) TC_LOAD_AT(bn, an, kn)
      TC_USE(bq, aq)
      if (kn < ke) {
        TC_BQ_COPY(bq, bn)
#pragma unroll
        for (int u = 0; u < KU; ++u)
#pragma unroll
          for (int f = 0; f < TC_NF; ++f) aq[u][f] = an[u][f];
      }
    }
  }
#else
  for (ulong kc = KFIRST; kc < ke; kc += (ulong)KSTEP) {
    TC_BQ_DECL(bq);
    tc_pack aq[KU][TC_NF];
    TC_LOAD_AT(bq, aq, kc)
    TC_USE(bq, aq)
  }
#endif
#if WGY > 1
  // The warps' fragments added in warp order.
#pragma unroll
  for (int q = 0; q < TC_NB; ++q)
#pragma unroll
    for (int f = 0; f < TC_NF; ++f)
#pragma unroll
      for (int e = 0; e < 4; ++e) red_tc[(((ty * TC_NB + q) * TC_NF + f) * 4 + e) * 32 + tx] = acc_tc[q][f][e];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = tid; o < TC_NB * TC_NF * 128; o += WGS) {
    tc_acc sum = red_tc[o];
    for (int y = 1; y < WGY; ++y) sum += red_tc[y * (TC_NB * TC_NF * 128) + o];
    const int l = o % 32, e = (o / 32) % 4, f = (o / 128) % TC_NF, q = o / (128 * TC_NF);
    EMIT(TC_ROW(f, l, e), TC_COL(q, l, e), sum);
  }
#else
#pragma unroll
  for (int q = 0; q < TC_NB; ++q)
#pragma unroll
    for (int f = 0; f < TC_NF; ++f)
#pragma unroll
      for (int e = 0; e < 4; ++e) EMIT(TC_ROW(f, tx, e), TC_COL(q, tx, e), acc_tc[q][f][e]);
#endif
#else  // !TC
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

  // Steps wholly inside K and the group's columns (and, for A stored K x M,
  // its rows: A's packs lie along M there) load without tests; A stored
  // M x K needs only a first row inside M (AROW).
  const int inner = nb + GCOLS <= N && (A_KCONTIG ? r0 < M : r0 + MT <= M);
#if AL
  // A's rows over a chunk of ACH of K in local memory, then the chunk's steps.
  const int ta = !A_KCONTIG;
  for (ulong kc0 = kb; kc0 < ke; kc0 += ACH) {
    for (int e = tid; e < MT * ACH; e += WGS) {
      // The fast index along A's stored rows.
      const int i = ta ? e % MT : e / ACH, kk = ta ? e / MT : e % ACH;
      const ulong gi = r0 + i, gk = kc0 + kk;
      am[ALM(i, kk)] = gi < M && gk < ke ? LOAD_ONE(ap, ta ? gk * lda + gi : gi * lda + gk) : (comp)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // The chunk's steps: KFIRST's offset from the chunk's start.
    const ulong kce = ke < kc0 + ACH ? ke : kc0 + ACH;
    for (ulong KVAR = kc0 + (KFIRST - kb); KVAR < kce; KVAR += (ulong)KSTEP) {
      if (inner && KVAR + SPAN <= ke)
        THIN_STEP_LM(load_b_all)
      else
        THIN_STEP_LM(load_b)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#elif PF
  // As below, with B one step ahead: the loads of the step at KVAR + KSTEP
  // are issued before the products of the step at KVAR.
  {
    comp bv[KU][NJ][VW];
    ulong KVAR = KFIRST;
    THIN_PREFETCH(bv, KVAR)
    for (; KVAR < ke; KVAR += (ulong)KSTEP) {
      const ulong kn = KVAR + (ulong)KSTEP;
      comp bq[KU][NJ][VW];
      THIN_PREFETCH(bq, kn)
      if (inner && KVAR + SPAN <= ke) {
        THIN_USE_AT(load_a_all, bv, KVAR)
      } else {
        THIN_USE_AT(load_a, bv, KVAR)
      }
      if (kn < ke) {
        THIN_COPY_B(bv, bq)
      }
    }
  }
#else
  // B_KCONTIG: each lane takes packs kc, kc + WGX VW, ... (KU of them) of its
  // row's NJ rows of B; else each row of lanes KU consecutive rows of B from
  // k0, then WGY KU further.
  for (ulong KVAR = KFIRST; KVAR < ke; KVAR += (ulong)KSTEP) {
    if (inner && KVAR + SPAN <= ke)
      THIN_STEP(load_b_all, load_a_all)
    else
      THIN_STEP(load_b, load_a)
  }
#endif

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
#endif  // TC
#if FUSE
  // The tile's last group adds the splits' partial sums (FUSE above). The
  // fence makes this group's partials visible to every group before its
  // arrival is counted; the last one reads the others' past its caches.
  // (The barriers stay outside any branch: inside one, PoCL 3.1 gave wrong
  // sums for groups of 8 or 16 work-items along y.)
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const ulong tile = (z * nrb + rb) * ncb + cb;
  if (tid == 0) ticket = nsplit > 1 ? atomic_inc(&tickets[tile]) : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (nsplit > 1 && ticket == (uint)(nsplit - 1)) {
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    const volatile __global comp* pv = part;
    for (int o = tid; o < MT * GCOLS; o += WGS) {
      const ulong i = r0 + (ulong)(o / GCOLS), j = nb + (ulong)(o % GCOLS);
      if (i < M && j < N) {
        comp sum = (comp)0;
        for (ulong t = 0; t < nsplit; ++t) sum += pv[((z * nsplit + t) * M + i) * N + j];
        thin_finish(cp, ldc, flags, biasp, i, j, (real)sum, alpha_z, beta_z, act_p0, act_p1);
      }
    }
    if (tid == 0) atomic_xchg(&tickets[tile], 0u);  // an atomic: other groups counted on it
  }
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
