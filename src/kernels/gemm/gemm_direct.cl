// gemm_direct: C = act(alpha * op(A) op(B) + beta * C + bias) for any sizes,
// leading dimensions and offsets, reading the operands where they lie (no
// padding or transposition pass). For small and odd problems, where the
// helper passes of the tiled kernel would cost more than they save.
//
// Row-major problem (see gemm_common.cl): op(A) is M x K, stored M x K
// (element (i, p) at i * lda + p) or, with the flag GEMM_TRANS_A, K x M (at
// p * lda + i); op(B) is K x N, stored K x N or (GEMM_TRANS_B) N x K.
//
// Each group computes a WGD x WGD tile of C and walks K in steps of WGD.
// Per step, the group copies the A and B tiles into local memory with
// zeros outside the matrices, each work-item reading along the operand's
// contiguous dimension (coalesced whatever the transposition):
//
//          K                       N
//      +--------+             +---------+
//      |        |             |  B tile |  WGD (k) x WGD (n): blm[k][n]
//    M | A tile |   x       K +---------+
//      | WGD(m) |
//      | x WGD(k)  -> alm[k][m]      C tile WGD x WGD, MDIMCD x NDIMCD
//      +--------+                    work-items, each MWID x NWID values
//
// A work-item owns rows tid_m*VWMD + {0..VWMD-1} + r*MDIMCD*VWMD of the tile
// (likewise columns): VWMD = 1 gives fully interleaved rows, coalesced
// stores and conflict-free local reads.
//
// COMP_HALF = 1 (COMP half, devices with half arithmetic): the products and
// partial sums of one K step (WGD terms) are half FMAs, added to f32 sums
// after every step, so an f16 product keeps f32 accuracy across K.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl
// check-variant: -DWGD=16 -DMDIMCD=4 -DNDIMCD=16 -DVWMD=2 -DKWID=4 -DPADA=0 -DLCHUNK=1
// check-variant: -DTYPE=double -DCOMP=double -DEPI=double -DEPI_DOUBLE=1
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DCOMP=float
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DCOMP=float -DCTYPE=half -DC_BF16_STORAGE=0 -DC_HALF_STORAGE=1
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=float -DCTYPE=float -DC_HALF_STORAGE=0
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=half -DCOMP_HALF=1
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DCOMP=half -DCOMP_HALF=1 -DWGD=64 -DMDIMCD=8 -DNDIMCD=8 -DVWMD=2

#ifndef WGD
#define WGD 32           // tile of C per group (M and N) and of K per step
#endif
#ifndef MDIMCD
#define MDIMCD 8         // work-items along M
#endif
#ifndef NDIMCD
#define NDIMCD 8         // work-items along N
#endif
#ifndef KWID
#define KWID 2           // unroll of the loop over a tile's K
#endif
#ifndef VWMD
#define VWMD 1           // adjacent rows a work-item owns in each of its row groups
#endif
#ifndef VWND
#define VWND 1           // adjacent columns a work-item owns in each column group
#endif
#ifndef PADA
#define PADA 1           // extra local elements per row of the A tile (bank conflicts)
#endif
#ifndef PADB
#define PADB 1           // extra local elements per row of the B tile
#endif
#ifndef LCHUNK
#define LCHUNK 8         // tile loads per operand issued before their local stores
#endif
#ifndef COMP_HALF
#define COMP_HALF 0      // 1 when COMP is half: half FMAs within a K step, f32 sums across steps
#endif

#define WGSD (MDIMCD * NDIMCD)  // work-items per group
#define MWID (WGD / MDIMCD)     // rows of C per work-item
#define NWID (WGD / NDIMCD)     // columns of C per work-item
#define DLPI ((WGD * WGD + WGSD - 1) / WGSD)  // tile elements per work-item and operand
#define DLCH (DLPI < LCHUNK ? DLPI : LCHUNK)  // of them, loaded together

typedef COMP comp;

#if HALF_STORAGE
#define LOAD_COMP(p, i) ((comp)vload_half((i), (p)))
#elif BF16_STORAGE
#define LOAD_COMP(p, i) ((comp)vload_bf16((i), (p)))
#else
#define LOAD_COMP(p, i) ((comp)(p)[i])
#endif

// The tile row of a work-item's mi-th row, and column of its ni-th column.
#define ROW_OF(mi) (((mi) / VWMD) * (MDIMCD * VWMD) + tid_m * VWMD + (mi) % VWMD)
#define COL_OF(ni) (((ni) / VWND) * (NDIMCD * VWND) + tid_n * VWND + (ni) % VWND)

__kernel OPTUNE_WG_SIZE(NDIMCD, MDIMCD, 1)
void gemm_direct(const ulong M, const ulong N, const ulong K, const real alpha, const real beta,
                 __global const TYPE* restrict a, const ulong a_off, const ulong lda, const ulong a_stride,
                 __global const TYPE* restrict b, const ulong b_off, const ulong ldb, const ulong b_stride,
                 __global CTYPE* c, const ulong c_off, const ulong ldc, const ulong c_stride,
                 __global const CTYPE* restrict bias, const ulong bias_off,
                 __global const ulong* restrict table, const ulong batch, const uint flags, const ulong z0,
                 const real act_p0, const real act_p1) {
  __local comp alm[WGD][WGD + PADA];  // [k][m]
  __local comp blm[WGD][WGD + PADB];  // [k][n]
  const int tid_n = (int)get_local_id(0), tid_m = (int)get_local_id(1);
  const int tid = tid_m * NDIMCD + tid_n;
  const ulong z = z0 + get_group_id(2);
  const __global TYPE* ap = a + GEMM_OFFSET(flags & GEMM_A_LIST, a_off, a_stride, table, z, 0);
  const __global TYPE* bp = b + GEMM_OFFSET(flags & GEMM_B_LIST, b_off, b_stride, table, z, 1);
  __global CTYPE* cp = c + GEMM_OFFSET(flags & GEMM_C_LIST, c_off, c_stride, table, z, 2);
  const __global CTYPE* biasp = bias + bias_off;
  const real alpha_z = gemm_alpha(flags, alpha, table, batch, z);
  const real beta_z = gemm_beta(flags, beta, table, batch, z);
  // Element strides of A's rows and columns (and B's), and which index runs
  // along the stored rows when loading tiles.
  const bool ta = (flags & GEMM_TRANS_A) != 0, tb = (flags & GEMM_TRANS_B) != 0;
  const ulong a_sm = ta ? 1 : lda, a_sk = ta ? lda : 1;
  const ulong b_sk = tb ? 1 : ldb, b_sn = tb ? ldb : 1;
  const ulong m0 = get_group_id(1) * WGD, n0 = get_group_id(0) * WGD;
  // alpha == 0: A and B are not read (the same for the whole group).
  const ulong kk = alpha_z == (real)0 ? 0 : K;

  comp acc[MWID][NWID];
#pragma unroll
  for (int mi = 0; mi < MWID; ++mi)
#pragma unroll
    for (int ni = 0; ni < NWID; ++ni) acc[mi][ni] = (comp)0;
#if COMP_HALF
  // acc holds one K step's half partial sums; sum the f32 total of the steps.
  float sum[MWID][NWID];
#pragma unroll
  for (int mi = 0; mi < MWID; ++mi)
#pragma unroll
    for (int ni = 0; ni < NWID; ++ni) sum[mi][ni] = 0.0f;
#endif

  for (ulong k0 = 0; k0 < kk; k0 += WGD) {
    // Tiles to local memory; the fast index runs along the stored rows. In
    // chunks of DLCH (LCHUNK) elements per operand: a chunk's global loads are all
    // issued before its local stores, so their latencies overlap (one load
    // then one store per step waited out every load in turn).
    for (int r0 = 0; r0 < DLPI; r0 += DLCH) {
      comp ra[DLCH], rb[DLCH];
#pragma unroll
      for (int r = 0; r < DLCH; ++r) {
        const int e = tid + (r0 + r) * WGSD;
        ra[r] = (comp)0;
        rb[r] = (comp)0;
        if (r0 + r < DLPI && e < WGD * WGD) {
          const int fast = e % WGD, slow = e / WGD;
          const int ml = ta ? fast : slow, ka = ta ? slow : fast;
          if (m0 + ml < M && k0 + ka < K) ra[r] = LOAD_COMP(ap, (m0 + ml) * a_sm + (k0 + ka) * a_sk);
          const int nl = tb ? slow : fast, kb = tb ? fast : slow;
          if (n0 + nl < N && k0 + kb < K) rb[r] = LOAD_COMP(bp, (k0 + kb) * b_sk + (n0 + nl) * b_sn);
        }
      }
#pragma unroll
      for (int r = 0; r < DLCH; ++r) {
        const int e = tid + (r0 + r) * WGSD;
        if (r0 + r < DLPI && e < WGD * WGD) {
          const int fast = e % WGD, slow = e / WGD;
          alm[ta ? slow : fast][ta ? fast : slow] = ra[r];
          blm[tb ? fast : slow][tb ? slow : fast] = rb[r];
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int kl = 0; kl < WGD; kl += KWID) {
#pragma unroll
      for (int ku = 0; ku < KWID; ++ku) {
        comp av[MWID], bv[NWID];
#pragma unroll
        for (int mi = 0; mi < MWID; ++mi) av[mi] = alm[kl + ku][ROW_OF(mi)];
#pragma unroll
        for (int ni = 0; ni < NWID; ++ni) bv[ni] = blm[kl + ku][COL_OF(ni)];
#pragma unroll
        for (int mi = 0; mi < MWID; ++mi)
#pragma unroll
          for (int ni = 0; ni < NWID; ++ni) {
#if COMP_HALF
            acc[mi][ni] = fma(av[mi], bv[ni], acc[mi][ni]);
#else
            acc[mi][ni] += av[mi] * bv[ni];
#endif
          }
      }
    }
#if COMP_HALF
#pragma unroll
    for (int mi = 0; mi < MWID; ++mi)
#pragma unroll
      for (int ni = 0; ni < NWID; ++ni) {
        sum[mi][ni] += (float)acc[mi][ni];
        acc[mi][ni] = (comp)0;
      }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#if COMP_HALF
#define GEMM_RESULT(mi, ni) sum[mi][ni]
#else
#define GEMM_RESULT(mi, ni) acc[mi][ni]
#endif

#pragma unroll
  for (int mi = 0; mi < MWID; ++mi) {
    const ulong i = m0 + ROW_OF(mi);
#pragma unroll
    for (int ni = 0; ni < NWID; ++ni) {
      const ulong j = n0 + COL_OF(ni);
      if (i < M && j < N) {
        const ulong ci = i * ldc + j;
        const real old = beta_z == (real)0 ? (real)0 : GEMM_CLOAD(cp, ci);
        const real v = gemm_finish((real)GEMM_RESULT(mi, ni), alpha_z, old, beta_z, gemm_bias(flags, biasp, i, j), act_p0, act_p1);
        GEMM_CSTORE(v, cp, ci);
      }
    }
  }
}
