// conv_wino_fused: Winograd F(WT x WT, 3x3) in one kernel (3 x 3, stride 1,
// dilation 1, one group; WT 2 or 4), the transformed input and the product
// never leaving the work-group: what conv_winograd.cl's three kernels and
// batched GEMM write to memory and read back (NP C x P and NP K x P floats,
// NP = (WT + 2)^2 positions: 16 or 36) here stays in local memory and
// registers. The transformed weights come from conv_winograd.cl's
// conv_wino_weights (built with the same WT), run first by the host:
//
//   u[xi][c][k] = (G g[k][c] G^T)[xi]          NP C x K floats, k fastest
//
// A work-group computes BK output channels (k0..) of BT tiles (t0..) of
// WT x WT outputs, tiles t = (n TH + ty) TW + tx (TH = ceil(OH / WT), TW =
// ceil(OW / WT)); the groups run the channel blocks fastest, so that the
// blocks reading the same input tiles run together. Along C, in steps of
// BC channels:
//   1. each (c, t) of the step: the (WT + 2)^2 input patch d at (WT ty - PT,
//      WT tx - PL) (zeros outside the input, past C and past the last tile)
//      into V[xi][c][t] = (B^T d B)[xi] in local memory, and the step's
//      U[xi][c][k] from `u` beside it;
//   2. for each of the NP positions xi, M[xi][k][t] += sum_c U[xi][c][k]
//      V[xi][c][t]: work-item (xi, tk, tt) holds KPT x TPT sums of one
//      position, k = q BKQ + 4 tk + e and t = q BTQ + 4 tt + f (packs of 4
//      along k and t: one wide local read each, neighbouring work-items on
//      neighbouring packs).
// With PREFETCH the next step's input patches and weights are loaded into
// registers before the product (their latency behind its arithmetic) and
// transformed into local memory after it; without, a step loads, stores
// and multiplies in turn (fewer registers: more groups per multiprocessor).
// Then, in KPT / OE passes (OE of each pack's 4 channels a pass: F(4x4)'s 36
// planes of sums would not fit local memory whole), the sums go to local
// memory as M[xi][k][t], and each (k, t) of the pass is transformed out,
// y = A^T M A, through the epilogue (bias, residual, activation) into the
// WT x WT outputs inside OH x OW, in either layout. F(2x2)'s matrices:
//
//        | 1  0 -1  0 |                         | 1  1  1  0 |
//  B^T = | 0  1  1  0 |   (conv_winograd.cl's)  | 0  1 -1 -1 | = A^T
//        | 0 -1  1  0 |
//        | 0  1  0 -1 |
//
// and F(4x4)'s are conv_common.cl's (conv_wino4_in, conv_wino4_store): 2.25
// products an output per channel rather than 4, and rounding errors a few
// times larger (its transforms' entries reach 8).
//
// The sums are f32 for every storage type (TYPE; f16 and bf16 converted as
// loaded). UVEC (the host's: K a multiple of 4) loads U as packs of 4.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DOUT_NHWC=1 -DBK=16 -DBT=16 -DKPT=4 -DTPT=4
// check-variant: -DBK=64 -DBT=16 -DBC=4 -DTPT=4 -DUVEC=1 -DIN_NHWC=1 -DOUT_NHWC=1
// check-variant: -DBK=16 -DBT=16 -DBC=16 -DKPT=4 -DTPT=4 -DUVEC=1 -DPREFETCH=0
// check-variant: -DPREFETCH=0 -DIN_NHWC=1 -DBC=4 -DCU=2
// check-variant: -DBK=16 -DBT=64 -DBC=4 -DKPT=8 -DCU=1
// check-variant: -DWT=4 -DBK=16 -DBT=32 -DBC=4 -DKPT=4 -DOE=2
// check-variant: -DWT=4 -DBK=16 -DBT=16 -DBC=4 -DKPT=4 -DTPT=4 -DOE=1 -DIN_NHWC=1 -DOUT_NHWC=1 -DPREFETCH=0

#ifndef BK
#define BK 32            // output channels per work-group
#endif
#ifndef BT
#define BT 32            // 2 x 2 output tiles per work-group
#endif
#ifndef BC
#define BC 8             // input channels per step
#endif
#ifndef KPT
#define KPT 8            // output channels per work-item (4 or 8)
#endif
#ifndef TPT
#define TPT 8            // tiles per work-item (4 or 8)
#endif
#ifndef PREFETCH
#define PREFETCH 1       // 1: the next step's loads held in registers over the product
#endif
#ifndef CU
#define CU 0             // the product's channel loop unrolled CU times (0: wholly)
#endif
#ifndef UVEC
#define UVEC 0           // 1: U's rows loaded as packs of 4 (K a multiple of 4)
#endif
// WT, the output tile's side (2, F(2x2, 3x3), 16 positions; 4, F(4x4, 3x3),
// 36), and what it selects (WINO_A, WINO_NP, WINO_IN, WINO_STORE): conv_common.cl.
#ifndef OE
#define OE 4             // output channels per work-item in one output pass (1, 2 or 4: less local memory)
#endif

#define WF_WK (BK / KPT)                 // work-items along k, per position
#define WF_WT (BT / TPT)                 // along t
#define WF_XW (WF_WK * WF_WT)            // work-items per position
#define WF_WG (WINO_NP * WF_XW)          // work-items per group
#define WF_KQ (KPT / 4)                  // packs of 4 along k per work-item
#define WF_TQ (TPT / 4)
#define WF_BKQ (BK / WF_KQ)              // the k span of one pack index (4 WF_WK)
#define WF_BTQ (BT / WF_TQ)
// A position's plane in local memory, padded so that the planes of the two
// positions of a 32-wide warp start half a bank row apart; V's rows (one
// channel's tiles) 4 words longer than BT, so that an NHWC input's stores
// (channels fastest) meet distinct banks.
#define WF_HALF(n) ((n) + (48 - (n) % 32) % 32)
#define WF_VP (BT + 4)
#define WF_UPL WF_HALF(BC * BK)
#define WF_VPL WF_HALF(BC * WF_VP)
#define WF_MPL (WF_WK * OE * (BT + 1))   // an output pass's plane (rows padded by one)
#define WF_MAIN (WINO_NP * (WF_UPL + WF_VPL))
#define WF_OUT (WINO_NP * WF_MPL)
#define WF_WORDS (WF_MAIN > WF_OUT ? WF_MAIN : WF_OUT)
#define WF_IPT ((BC * BT + WF_WG - 1) / WF_WG)   // input (c, t) pairs per work-item
#define WF_UV (UVEC ? 4 : 1)
#define WF_PRAGMA(x) _Pragma(#x)
#define WF_UNROLL(n) WF_PRAGMA(unroll n)
#define WF_UPT ((WINO_NP * BC * BK / WF_UV + WF_WG - 1) / WF_WG)   // weight loads per work-item

__kernel OPTUNE_WG_SIZE(WF_WG, 1, 1)
void conv_wino_fused(const int N, const int C, const int H, const int W, const int K, const int OH, const int OW,
                     const int PT, const int PL, __global const TYPE* in, const ulong in_off,
                     __global const TYPE* wt, const ulong wt_off, __global const TYPE* bias, const ulong bias_off,
                     __global const TYPE* res, const ulong res_off, __global TYPE* out, const ulong out_off,
                     const uint flags, const real act_p0, const real act_p1, __global const float* u,
                     const ulong u_off) {
  __local float lm[WF_WORDS] __attribute__((aligned(16)));
  OPTUNE_LOCAL_PTR float* us = lm;
  OPTUNE_LOCAL_PTR float* vs = lm + WINO_NP * WF_UPL;
  const int TH = (OH + WT - 1) / WT, TW = (OW + WT - 1) / WT;
  const ulong P = (ulong)N * (ulong)TH * (ulong)TW;
  const int kblocks = (K + BK - 1) / BK;
  const int k0 = (int)(get_group_id(0) % (ulong)kblocks) * BK;
  const ulong t0 = get_group_id(0) / (ulong)kblocks * BT;
  const int lid = (int)get_local_id(0);
  const int xi = lid / WF_XW, tk = lid % WF_XW % WF_WK, tt = lid % WF_XW / WF_WK;

  // This work-item's input pairs: channel ic (of the step) and tile it of
  // the block, the element of its patch's top-left corner at channel ic
  // (base, in elements; the corner may lie in the padding: only the
  // patch's elements inside the input are read) and which of its rows and
  // columns lie inside (masks; none past the last tile or past BC BT).
  int ic[WF_IPT], it[WF_IPT], rmask[WF_IPT], cmask[WF_IPT];
  long base[WF_IPT];
#if IN_NHWC
  const long pix = C, cstep = BC;  // the steps' channels are BC elements apart
#else
  const long pix = 1, cstep = (long)BC * (long)H * (long)W;
#endif
  for (int r = 0; r < WF_IPT; ++r) {
    const int p = lid + r * WF_WG;
#if IN_NHWC
    ic[r] = p % BC;  // channels fastest: neighbouring words
    it[r] = p / BC;
    if (p >= BC * BT) ic[r] = BC;
#else
    ic[r] = p / BT;  // tiles fastest: every other word of a row
    it[r] = p % BT;
#endif
    const ulong tile = t0 + (ulong)it[r];
    rmask[r] = cmask[r] = 0;
    base[r] = 0;
    if (p >= BC * BT || tile >= P) continue;
    const int tx = (int)(tile % (ulong)TW), ty = (int)(tile / (ulong)TW % (ulong)TH);
    const long n = (long)(tile / ((ulong)TW * (ulong)TH));
    const int y0 = WT * ty - PT, x0 = WT * tx - PL;
    for (int i = 0; i < WINO_A; ++i) {
      rmask[r] |= (y0 + i >= 0 && y0 + i < H) << i;
      cmask[r] |= (x0 + i >= 0 && x0 + i < W) << i;
    }
#if IN_NHWC
    base[r] = ((n * H + y0) * W + x0) * (long)C + ic[r];
#else
    base[r] = ((n * C + ic[r]) * H + y0) * (long)W + x0;
#endif
  }

  float rd[WF_IPT][WINO_NP];  // the next step's patches
#if UVEC
  OPTUNE_VEC(float, 4) ru[WF_UPT];
#else
  float ru[WF_UPT];  // and weights
#endif
  float acc[KPT][TPT];
  for (int i = 0; i < KPT; ++i)
    for (int j = 0; j < TPT; ++j) acc[i][j] = 0.0f;

  // A step's loads into registers, its patches transformed into local
  // memory, the product. PREFETCH: pass st stores step st's registers,
  // loads step st + 1's, then multiplies step st (the loads in flight
  // during the product); else pass st loads, stores and multiplies step st.
  const int steps = (C + BC - 1) / BC;
  for (int st = -PREFETCH; st < steps; ++st) {
    for (int phase = 0; phase < 2; ++phase) {
      const int ld = st + PREFETCH;  // the step loaded in this pass
      if (phase == PREFETCH && ld < steps) {
        // Step ld's patches and weights into registers.
        const int c0 = ld * BC;
        for (int r = 0; r < WF_IPT; ++r) {
          const int ok = ic[r] < BC && c0 + ic[r] < C;
          const long at = base[r] + (long)ld * cstep;
          for (int i = 0; i < WINO_A; ++i)
            for (int j = 0; j < WINO_A; ++j) {
              const int inside = ok && ((rmask[r] >> i) & 1) && ((cmask[r] >> j) & 1);
              rd[r][WINO_A * i + j] =
                  inside ? (float)GEMM_LOAD(in, in_off + (ulong)(at + ((long)i * W + j) * pix)) : 0.0f;
            }
        }
        for (int r = 0; r < WF_UPT; ++r) {
          const int e = lid + r * WF_WG;
          const int kk = e % (BK / WF_UV) * WF_UV, c = e / (BK / WF_UV) % BC, x = e / (BK / WF_UV) / BC;
          const int ok = e < WINO_NP * BC * BK / WF_UV && c0 + c < C && k0 + kk < K;
          const ulong at = u_off + ((ulong)x * (ulong)C + (ulong)(c0 + c)) * (ulong)K + (ulong)(k0 + kk);
#if UVEC
          ru[r] = OPTUNE_SPLAT(float, 4, 0.0f);
          if (ok) ru[r] = OPTUNE_GLOAD(float, 4, at / 4, u);
#else
          ru[r] = ok ? u[at] : 0.0f;
#endif
        }
      }
      if (phase == 0 && st >= 0) {
        // Step st's registers into local memory: the patches transformed.
        for (int r = 0; r < WF_IPT; ++r) {
          if (ic[r] >= BC) continue;
          float e[WINO_NP];  // B^T d B
          WINO_IN(rd[r], e);
          OPTUNE_LOCAL_PTR float* v = vs + ic[r] * WF_VP + it[r];
          for (int x = 0; x < WINO_NP; ++x) v[x * WF_VPL] = e[x];
        }
        for (int r = 0; r < WF_UPT; ++r) {
          const int e = lid + r * WF_WG;
          if (e >= WINO_NP * BC * BK / WF_UV) continue;
          const int kk = e % (BK / WF_UV) * WF_UV, c = e / (BK / WF_UV) % BC, x = e / (BK / WF_UV) / BC;
#if UVEC
          *(OPTUNE_LOCAL_PTR OPTUNE_VEC(float, 4)*)(us + x * WF_UPL + c * BK + kk) = ru[r];
#else
          us[x * WF_UPL + c * BK + kk] = ru[r];
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
    }
    if (st >= 0) {
      // The product of step st's local tiles.
      const OPTUNE_LOCAL_PTR float* ux = us + xi * WF_UPL + 4 * tk;
      const OPTUNE_LOCAL_PTR float* vx = vs + xi * WF_VPL + 4 * tt;
#if CU
      WF_UNROLL(CU)
#endif
      for (int c = 0; c < BC; ++c) {
        float a[KPT], b[TPT];
        for (int q = 0; q < WF_KQ; ++q) {
          const OPTUNE_VEC(float, 4) w = *(const OPTUNE_LOCAL_PTR OPTUNE_VEC(float, 4)*)(ux + c * BK + q * WF_BKQ);
          OPTUNE_VUNPACK(4, w, a + 4 * q);
        }
        for (int q = 0; q < WF_TQ; ++q) {
          const OPTUNE_VEC(float, 4) w = *(const OPTUNE_LOCAL_PTR OPTUNE_VEC(float, 4)*)(vx + c * WF_VP + q * WF_BTQ);
          OPTUNE_VUNPACK(4, w, b + 4 * q);
        }
        for (int i = 0; i < KPT; ++i)
          for (int j = 0; j < TPT; ++j) acc[i][j] += a[i] * b[j];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }

  // The output, OE channels of each of the work-item's packs of k per pass
  // (the loop's last barrier closed the product's reads of local memory).
  OPTUNE_LOCAL_PTR float* ms = lm;
  const ulong TT = (ulong)TH * (ulong)TW;
  for (int q = 0; q < WF_KQ; ++q)
    for (int e0 = 0; e0 < 4; e0 += OE) {
      for (int e = 0; e < OE; ++e)
        for (int j = 0; j < TPT; ++j)
          ms[xi * WF_MPL + (OE * tk + e) * (BT + 1) + j / 4 * WF_BTQ + 4 * tt + j % 4] = acc[4 * q + e0 + e][j];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int p = lid; p < WF_WK * OE * BT; p += WF_WG) {
#if OUT_NHWC
        const int kl = p % (WF_WK * OE), t = p / (WF_WK * OE);  // channels fastest: neighbouring outputs
#else
        const int kl = p / BT, t = p % BT;                       // tiles fastest
#endif
        const int k = k0 + q * WF_BKQ + 4 * (kl / OE) + e0 + kl % OE;
        const ulong tile = t0 + (ulong)t;
        if (k >= K || tile >= P) continue;
        float m[WINO_NP];
        for (int x = 0; x < WINO_NP; ++x) m[x] = ms[x * WF_MPL + kl * (BT + 1) + t];
        const int tx = (int)(tile % (ulong)TW), ty = (int)(tile / (ulong)TW % (ulong)TH);
        WINO_STORE(m, tile / TT, k, ty, tx, K, OH, OW, flags, conv_bias(flags, bias, bias_off, k), res, res_off, out,
                 out_off, act_p0, act_p1);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
}
