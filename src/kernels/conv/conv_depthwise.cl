// conv_depthwise: depthwise 2-D convolution (groups == C == K, one filter of
// FR x FS per channel, weights C x 1 x FR x FS) on buffers, input and output
// in one layout, any stride, dilation and asymmetric padding:
//
//   out[n, c, oy, ox] = act(sum_{r, s} in[n, c, oy SH - PT + r DH, ox SW - PL + s DW] * wt[c, r, s]
//                           + bias[c] + res[n, c, oy, ox])
//
// A work-item computes a tile of RPT output rows of one channel (NCHW) or
// of VW channels (NHWC), and keeps that channel's FR x FS weights in
// registers for the whole tile:
//   NCHW  WPT adjacent outputs along W per row; with VEC (the host's: OW and
//         the output's and residual's offsets multiples of WPT) they are
//         stored, and the residual read, as one pack along W.
//   NHWC  VW adjacent channels (loaded, stored and the residual read as
//         packs along C; the host makes C and the offsets multiples of VW)
//         of PPT adjacent output pixels along W per row; with WVEC (the
//         weights' offset a multiple of VW) the VW channels' weights, FR FS
//         VW consecutive elements, load as FR FS packs.
// FAST (the host's: dilation 1 on both axes, the strides SHC and SWC
// compiled in): the tile's (RPT - 1) SHC + FR input rows are each loaded
// once, as a window of (tile width - 1) SWC + FS, and every output row that
// the filter places on an input row takes its products from it (a row of
// the input serves up to FR / SHC rows of output without a second load).
// With VIN as well (NCHW, stride 1: W and the input's offset multiples of
// WPT, the left pad PLC at most FS - 1) the window's middle WPT inputs load
// as one pack and only its FS - 1 edges one by one. Otherwise each output row loads each tap where it falls. The
// filter size is a define, so the loops over taps unroll. Sums are in
// `real` (f32; f16 and bf16 are storage).
// ROLL (with FAST) stores each output row as soon as its last input row is
// in (after input row j SHC + FR - 1), not all RPT rows at the end: the same
// sums in the same order, but only FR rows of sums live at once, so that a
// tall tile (RPT 8, 16: each input row loaded once for more output rows)
// costs no more registers than FR rows.
// HALF (NHWC, f16 on a device with half arithmetic, VW even; the host's,
// where the caller's accumulation allows it): the products and sums in
// half2, pairs of adjacent channels (one HFMA2 per two taps' products on
// CUDA), the VW halves of a pack loaded as VW / 2 pairs with no conversion;
// the sums leave for the epilogue (bias, residual, activation in f32) as
// floats. A sum of FR FS terms rounded at each step: |error| up to about
// (FR FS + 1) 2^-11 sum |x w|, against 2^-11 for f32 sums rounded once.
// STAGE (NCHW with FAST and VIN; the host's, where the tuned LOC applies)
// stages each work-item's WPT middle inputs of every window row in local
// memory, so that the window's edges come from the neighbours' packs there
// instead of FS - 1 single-element loads per row from global memory (the
// group's first and last work-items and the rows' ends still load theirs).
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl conv/conv_depthwise_defs.cl
// check-variant: -DWPT=4 -DVEC=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DWPT=4 -DVEC=1 -DVIN=1 -DPLC=1 -DFAST=1 -DRPT=4 -DIDX64=1
// check-variant: -DWPT=8 -DVEC=1 -DTYPE=bf16 -DBF16_STORAGE=1 -DFR=5 -DFS=5 -DRPT=2
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=4 -DPPT=2 -DWPT=1 -DFAST=1 -DWVEC=1 -DRPT=2 -DIDX64=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=8 -DPPT=4 -DWPT=1 -DTYPE=half -DHALF_STORAGE=1 -DWVEC=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=2 -DPPT=1 -DWPT=1 -DTYPE=bf16 -DBF16_STORAGE=1 -DFAST=1 -DRPT=4
// check-variant: -DWPT=4 -DVEC=1 -DVIN=1 -DPLC=1 -DFAST=1 -DRPT=2 -DSTAGE=1
// check-variant: -DWPT=2 -DVEC=1 -DVIN=1 -DPLC=2 -DFAST=1 -DRPT=4 -DSTAGE=1 -DFS=5 -DFR=5 -DIDX64=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=4 -DPPT=4 -DWPT=1 -DFAST=1 -DWVEC=1 -DRPT=16 -DROLL=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DWPT=4 -DVEC=1 -DVIN=1 -DPLC=1 -DFAST=1 -DRPT=8 -DSTAGE=1 -DROLL=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=4 -DPPT=4 -DWPT=1 -DFAST=1 -DWVEC=1 -DRPT=8 -DROLL=1 -DHALF=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=8 -DPPT=2 -DWPT=1 -DHALF=1 -DTYPE=half -DHALF_STORAGE=1 -DIDX64=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=2 -DPPT=1 -DWPT=1 -DFAST=1 -DRPT=2 -DHALF=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=16 -DPPT=1 -DWPT=1 -DFAST=1 -DWVEC=1 -DRPT=4 -DHALF=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=4 -DPPT=4 -DWPT=1 -DFAST=1 -DSHC=2 -DSWC=2 -DRPT=8 -DROLL=1 -DHALF=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DWPT=4 -DVEC=1 -DFAST=1 -DSHC=2 -DSWC=2 -DRPT=8 -DROLL=1
// check-variant: -DWPT=8 -DFAST=1 -DSHC=1 -DSWC=2 -DRPT=4 -DFR=5 -DFS=5 -DTYPE=bf16 -DBF16_STORAGE=1

// The parameters and the NHWC sums' arithmetic: conv_depthwise_defs.cl.

// The NV sums S[0 .. NV-1] of output elements oi ... (one pack) through the
// epilogue, element e_'s bias BIAS, the residual read as one pack.
#define STORE_PACK(NV, S, BIAS, oi)                                                                   \
  {                                                                                                   \
    real rv_[NV];                                                                                     \
    if (flags & CONV_RESIDUAL) {                                                                      \
      const OPTUNE_VEC(float, NV) r_ = CONV_VLOAD(NV, (res_off + (oi)) / NV, res);                    \
      OPTUNE_VUNPACK(NV, r_, rv_);                                                                    \
    } else {                                                                                          \
      _Pragma("unroll") for (int e_ = 0; e_ < NV; ++e_) rv_[e_] = (real)0;                            \
    }                                                                                                 \
    float v_[NV];                                                                                     \
    _Pragma("unroll") for (int e_ = 0; e_ < NV; ++e_)                                                 \
      v_[e_] = (float)conv_finish((S)[e_], flags, BIAS, rv_[e_], act_p0, act_p1);                     \
    CONV_VSTORE(NV, OPTUNE_VPACK(float, NV, v_), (out_off + (oi)) / NV, out);                         \
  }

// sums_[VW]: the sums of pixel p of output row J (HALF: the pairs as floats).
#if HALF
#define NHWC_SUMS(J, p)                                         \
  real sums_[VW];                                               \
  _Pragma("unroll") for (int q_ = 0; q_ < LANES; ++q_) {        \
    const float2 f_ = CONV_PAIR_FLOATS(acc[J][p][q_]);          \
    sums_[2 * q_] = f_.x;                                       \
    sums_[2 * q_ + 1] = f_.y;                                   \
  }
#else
#define NHWC_SUMS(J, p) real* sums_ = acc[J][p];
#endif
// Output row oy0 + J of the work-item's tile through the epilogue: NHWC,
// its PPT pixels' VW channels (bias bv); NCHW, its WPT outputs (bias b).
#define NHWC_STORE_ROW(J)                                                                             \
  {                                                                                                   \
    const int oy = oy0 + (J);                                                                         \
    if (oy < OH) {                                                                                    \
      _Pragma("unroll") for (int p = 0; p < PPT; ++p) {                                               \
        const int ox = ox0 + p;                                                                       \
        if (ox >= OW) break;                                                                          \
        const ulong oi = ((n * (ulong)OH + (ulong)oy) * (ulong)OW + (ulong)ox) * (ulong)C + (ulong)c0;  \
        NHWC_SUMS(J, p)                                                                               \
        STORE_PACK(VW, sums_, bv[e_], oi)                                                             \
      }                                                                                               \
    }                                                                                                 \
  }
#if VEC
#define NCHW_STORE_ROW(J)                                                                             \
  {                                                                                                   \
    const int oy = oy0 + (J);                                                                         \
    if (oy < OH) {                                                                                    \
      const ulong oi = (plane * (ulong)OH + (ulong)oy) * (ulong)OW + (ulong)ox0;                      \
      STORE_PACK(WPT, acc[J], b, oi)                                                                  \
    }                                                                                                 \
  }
#else
#define NCHW_STORE_ROW(J)                                                                             \
  {                                                                                                   \
    const int oy = oy0 + (J);                                                                         \
    if (oy < OH) {                                                                                    \
      const ulong oi = (plane * (ulong)OH + (ulong)oy) * (ulong)OW + (ulong)ox0;                      \
      _Pragma("unroll") for (int w = 0; w < WPT; ++w) {                                               \
        if (ox0 + w >= OW) break;                                                                     \
        const real v =                                                                                \
            conv_finish(acc[J][w], flags, b, conv_residual(flags, res, res_off + oi + w), act_p0, act_p1); \
        GEMM_STORE(v, out, out_off + oi + w);                                                         \
      }                                                                                               \
    }                                                                                                 \
  }
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_depthwise(const int N, const int C, const int H, const int W, const int OH, const int OW, const int SH,
                    const int SW, const int DH, const int DW, const int PT, const int PL, __global const TYPE* in,
                    const ulong in_off, __global const TYPE* wt, const ulong wt_off, __global const TYPE* bias,
                    const ulong bias_off, __global const TYPE* res, const ulong res_off, __global TYPE* out,
                    const ulong out_off, const uint flags, const real act_p0, const real act_p1) {
  const ulong id = get_global_id(0);
  const int YB = (OH + RPT - 1) / RPT;
#if IN_NHWC
  const int CB = C / VW, XB = (OW + PPT - 1) / PPT;
  const ulong items = (ulong)N * (ulong)YB * (ulong)XB * (ulong)CB;
  if (id >= items) return;
  // (32-bit division unless the grid passes 2^32 work-items, IDX64: 64-bit
  // division is a far longer software sequence.)
  int c0, ox0, oy0;
  ulong n;
  if (!IDX64) {
    const uint i = (uint)id, t = i / (uint)CB, u = t / (uint)XB, v = u / (uint)YB;
    c0 = (int)(i - t * (uint)CB) * VW;
    ox0 = (int)(t - u * (uint)XB) * PPT;
    oy0 = (int)(u - v * (uint)YB) * RPT;
    n = v;
  } else {
    const ulong t = id / (ulong)CB, u = t / (ulong)XB;
    c0 = (int)(id - t * (ulong)CB) * VW;
    ox0 = (int)(t - u * (ulong)XB) * PPT;
    oy0 = (int)(u % (ulong)YB) * RPT;
    n = u / (ulong)YB;
  }

  // The VW channels' weights, wl[l][tap]: FR FS VW consecutive elements.
#if HALF
  real wl[VW][TAPS];
#else
#define wl wf
  real wf[VW][TAPS];
#endif
#if WVEC
#pragma unroll
  for (int k = 0; k < TAPS; ++k) {
    real wv[VW];
    const OPTUNE_VEC(float, VW) w4 = CONV_VLOAD(VW, (wt_off + (ulong)c0 * TAPS) / VW + (ulong)k, wt);
    OPTUNE_VUNPACK(VW, w4, wv);
#pragma unroll
    for (int v = 0; v < VW; ++v) wl[(k * VW + v) / TAPS][(k * VW + v) % TAPS] = wv[v];
  }
#else
#pragma unroll
  for (int l = 0; l < VW; ++l)
#pragma unroll
    for (int e = 0; e < TAPS; ++e) wl[l][e] = GEMM_LOAD(wt, wt_off + (ulong)(c0 + l) * TAPS + e);
#endif
#if HALF
  // Channels 2 q and 2 q + 1 of a tap as one pair (halves to begin with: exact).
  half2 wf[LANES][TAPS];
#pragma unroll
  for (int q = 0; q < LANES; ++q)
#pragma unroll
    for (int e = 0; e < TAPS; ++e) wf[q][e] = conv_pair((half)wl[2 * q][e], (half)wl[2 * q + 1][e]);
#else
#undef wl
#endif

  ACC_T acc[RPT][PPT][LANES];
#pragma unroll
  for (int j = 0; j < RPT; ++j)
#pragma unroll
    for (int p = 0; p < PPT; ++p)
#pragma unroll
      for (int l = 0; l < LANES; ++l) acc[j][p][l] = ACC_ZERO;
  const ulong img = in_off + n * (ulong)H * (ulong)W * (ulong)C + (ulong)c0;
  real bv[VW];
#pragma unroll
  for (int l = 0; l < VW; ++l) bv[l] = conv_bias(flags, bias, bias_off, c0 + l);
#if FAST
  // The window's columns all inside the input (all but the edge tiles): its
  // packs load without a test each.
  const int ix0 = ox0 * SWC - PL;
  const int inner = ix0 >= 0 && ix0 + XWN <= W;
  // Input row oy0 SHC - PT + ir serves output row oy0 + j through filter row ir - j SHC.
#pragma unroll
  for (int ir = 0; ir < NIR; ++ir) {
    const int iy = oy0 * SHC - PT + ir;
#if ROLL
    if (ROLL_DUE(ir)) NHWC_STORE_ROW((ir - FR) / SHC)  // its last input row was ir - 1
#endif
    if (iy < 0 || iy >= H) continue;
    const ulong row = img + (ulong)iy * (ulong)W * (ulong)C;
    ACC_T xs[XWN][LANES];
    if (inner) {
      const ulong first = (row + (ulong)ix0 * (ulong)C) / VW, step = (ulong)(C / VW);
#pragma unroll
      for (int u = 0; u < XWN; ++u) X_LOAD(first + (ulong)u * step, xs[u])
    } else {
#pragma unroll
      for (int u = 0; u < XWN; ++u) {
        const int ix = ix0 + u;
        if (ix >= 0 && ix < W) {
          X_LOAD((row + (ulong)ix * (ulong)C) / VW, xs[u])
        } else {
#pragma unroll
          for (int l = 0; l < LANES; ++l) xs[u][l] = ACC_ZERO;
        }
      }
    }
#pragma unroll
    for (int j = 0; j < RPT; ++j) {
      const int r = ir - j * SHC;
      if (r < 0 || r >= FR) continue;
#pragma unroll
      for (int s = 0; s < FS; ++s)
#pragma unroll
        for (int p = 0; p < PPT; ++p)
#pragma unroll
          for (int l = 0; l < LANES; ++l) MAC(acc[j][p][l], wf[l][r * FS + s], xs[p * SWC + s][l]);
    }
  }
#if ROLL
  NHWC_STORE_ROW(RPT - 1)  // the one row whose last input row was the loop's last
#endif
#else
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int oy = oy0 + j;
#pragma unroll
    for (int r = 0; r < FR; ++r) {
      const int iy = oy * SH - PT + r * DH;
      if (oy >= OH || iy < 0 || iy >= H) continue;
      const ulong row = img + (ulong)iy * (ulong)W * (ulong)C;
#pragma unroll
      for (int s = 0; s < FS; ++s)
#pragma unroll
        for (int p = 0; p < PPT; ++p) {
          const int ix = (ox0 + p) * SW - PL + s * DW;
          if (ix < 0 || ix >= W) continue;
          ACC_T x[LANES];
          X_LOAD((row + (ulong)ix * (ulong)C) / VW, x)
#pragma unroll
          for (int l = 0; l < LANES; ++l) MAC(acc[j][p][l], wf[l][r * FS + s], x[l]);
        }
    }
  }
#endif
#if !(FAST && ROLL)
#pragma unroll
  for (int j = 0; j < RPT; ++j) NHWC_STORE_ROW(j)
#endif
#else
  const int XB = (OW + WPT - 1) / WPT;
  const ulong items = (ulong)N * (ulong)C * (ulong)YB * (ulong)XB;
  // With the staged rows every work-item of the group meets the barrier.
#define XLOC (STAGE && FAST && VIN)
  const bool live = id < items;
#if !XLOC
  if (!live) return;
#endif
  int ox0, oy0, c;
  ulong plane;  // n C + c
  if (!IDX64) {  // 32-bit division (above)
    const uint i = (uint)id, t = i / (uint)XB, u = t / (uint)YB;
    ox0 = (int)(i - t * (uint)XB) * WPT;
    oy0 = (int)(t - u * (uint)YB) * RPT;
    plane = u;
    c = (int)(u % (uint)C);
  } else {
    const ulong t = id / (ulong)XB;
    ox0 = (int)(id - t * (ulong)XB) * WPT;
    oy0 = (int)(t % (ulong)YB) * RPT;
    plane = t / (ulong)YB;
    c = (int)(plane % (ulong)C);
  }

  real wf[TAPS];
#pragma unroll
  for (int e = 0; e < TAPS; ++e) wf[e] = GEMM_LOAD(wt, wt_off + (ulong)c * TAPS + e);
  real acc[RPT][WPT];
#pragma unroll
  for (int j = 0; j < RPT; ++j)
#pragma unroll
    for (int w = 0; w < WPT; ++w) acc[j][w] = (real)0;
  const ulong img = in_off + plane * (ulong)H * (ulong)W;
  const real b = conv_bias(flags, bias, bias_off, c);
#if XLOC
  // Every window row's middle WPT inputs into xl as one pack (VIN: W a multiple of WPT,
  // so they are whole); work-item lid's at lid.
  // (An array of packs, so that each is aligned for its one access.)
  __local OPTUNE_VEC(EPI, WPT) xl[(RPT + FR - 1) * WGS];
  const int lid = (int)get_local_id(0);
#pragma unroll
  for (int ir = 0; ir < RPT + FR - 1; ++ir) {
    const int iy = oy0 - PT + ir;
    if (live && iy >= 0 && iy < H) {
      const OPTUNE_VEC(float, WPT) xv = CONV_VLOAD(WPT, (img + (ulong)iy * (ulong)W + (ulong)ox0) / WPT, in);
      xl[ir * WGS + lid] = xv;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!live) return;
  // The neighbours in the same row and group staged theirs: the window's
  // edges come from their packs.
  const int xb = ox0 / WPT;
  const bool lnb = xb > 0 && lid > 0, rnb = xb < XB - 1 && lid < WGS - 1;
#endif
#if FAST
  // Input row oy0 SHC - PT + ir serves output row oy0 + j through filter row ir - j SHC.
#pragma unroll
  for (int ir = 0; ir < NIR; ++ir) {
    const int iy = oy0 * SHC - PT + ir;
#if ROLL
    if (ROLL_DUE(ir)) NCHW_STORE_ROW((ir - FR) / SHC)  // its last input row was ir - 1
#endif
    if (iy < 0 || iy >= H) continue;
    const ulong row = img + (ulong)iy * (ulong)W;
    real xs[XWC];
#if XLOC
    {
      // xw: the left neighbour's, this work-item's and the right
      // neighbour's packs; the window is xw[WPT - PLC ...] (the host keeps
      // PLC and FS - 1 - PLC within WPT).
      OPTUNE_LOCAL_PTR const OPTUNE_VEC(EPI, WPT)* xr = xl + ir * WGS;
      real xw[3 * WPT];
      OPTUNE_VEC(float, WPT) xv = xr[lid];
      OPTUNE_VUNPACK(WPT, xv, (xw + WPT));
      if (lnb) {
        xv = xr[lid - 1];
        OPTUNE_VUNPACK(WPT, xv, xw);
      } else {
#pragma unroll
        for (int u = 0; u < WPT; ++u) {
          const int ix = ox0 - WPT + u;
          xw[u] = u >= WPT - PLC && ix >= 0 ? GEMM_LOAD(in, row + (ulong)ix) : (real)0;
        }
      }
      if (rnb) {
        xv = xr[lid + 1];
        OPTUNE_VUNPACK(WPT, xv, (xw + 2 * WPT));
      } else {
#pragma unroll
        for (int u = 0; u < WPT; ++u) {
          const int ix = ox0 + WPT + u;
          xw[2 * WPT + u] = u < FS - 1 - PLC && ix < W ? GEMM_LOAD(in, row + (ulong)ix) : (real)0;
        }
      }
#pragma unroll
      for (int u = 0; u < WPT + FS - 1; ++u) xs[u] = xw[WPT - PLC + u];
    }
#else
#if VIN
    if (ox0 + WPT <= W) {
      // Inputs ox0 - PLC + u: the middle WPT (u = PLC ...) as one pack, the edges one by one.
      const OPTUNE_VEC(float, WPT) xv = CONV_VLOAD(WPT, (row + (ulong)ox0) / WPT, in);
      OPTUNE_VUNPACK(WPT, xv, (xs + PLC));
#pragma unroll
      for (int u = 0; u < PLC; ++u) {
        const int ix = ox0 - PLC + u;
        xs[u] = ix >= 0 ? GEMM_LOAD(in, row + (ulong)ix) : (real)0;
      }
#pragma unroll
      for (int u = PLC + WPT; u < WPT + FS - 1; ++u) {
        const int ix = ox0 - PLC + u;
        xs[u] = ix < W ? GEMM_LOAD(in, row + (ulong)ix) : (real)0;
      }
    } else
#endif
    {
      // The window's inputs one by one (SWC > 1: every other one of a span);
      // inside the row (all but the edge tiles) without a test each.
      const int ix0 = ox0 * SWC - PL;
      if (ix0 >= 0 && ix0 + XWC <= W) {
#pragma unroll
        for (int u = 0; u < XWC; ++u) xs[u] = GEMM_LOAD(in, row + (ulong)(ix0 + u));
      } else {
#pragma unroll
        for (int u = 0; u < XWC; ++u) {
          const int ix = ix0 + u;
          xs[u] = ix >= 0 && ix < W ? GEMM_LOAD(in, row + (ulong)ix) : (real)0;
        }
      }
    }
#endif
#pragma unroll
    for (int j = 0; j < RPT; ++j) {
      const int r = ir - j * SHC;
      if (r < 0 || r >= FR) continue;
#pragma unroll
      for (int s = 0; s < FS; ++s)
#pragma unroll
        for (int w = 0; w < WPT; ++w) acc[j][w] += wf[r * FS + s] * xs[w * SWC + s];
    }
  }
#if ROLL
  NCHW_STORE_ROW(RPT - 1)  // the one row whose last input row was the loop's last
#endif
#else
#pragma unroll
  for (int j = 0; j < RPT; ++j) {
    const int oy = oy0 + j;
#pragma unroll
    for (int r = 0; r < FR; ++r) {
      const int iy = oy * SH - PT + r * DH;
      if (oy >= OH || iy < 0 || iy >= H) continue;
      const ulong row = img + (ulong)iy * (ulong)W;
#pragma unroll
      for (int s = 0; s < FS; ++s)
#pragma unroll
        for (int w = 0; w < WPT; ++w) {
          const int ix = (ox0 + w) * SW - PL + s * DW;
          if (ix >= 0 && ix < W) acc[j][w] += wf[r * FS + s] * GEMM_LOAD(in, row + (ulong)ix);
        }
    }
  }
#endif
#if !(FAST && ROLL)
#pragma unroll
  for (int j = 0; j < RPT; ++j) NCHW_STORE_ROW(j)
#endif
#endif
}
