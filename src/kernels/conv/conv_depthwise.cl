// conv_depthwise: depthwise 2-D convolution (groups == C == K, one filter of
// FR x FS per channel, weights C x 1 x FR x FS) on buffers, input and output
// in one layout, any stride, dilation and asymmetric padding:
//
//   out[n, c, oy, ox] = act(sum_{r, s} in[n, c, oy SH - PT + r DH, ox SW - PL + s DW] * wt[c, r, s]
//                           + bias[c] + res[n, c, oy, ox])
//
// LAYOUT (IN_NHWC, which the host sets equal to OUT_NHWC):
//   NCHW  each work-item computes WPT adjacent outputs of one row of one
//         plane; with VEC (the host's: OW and the output's and residual's
//         offsets multiples of WPT) they are stored, and the residual read,
//         as one pack along W.
//   NHWC  each work-item computes VW adjacent channels (loaded, stored and
//         the residual read as packs along C; the host makes C and the
//         offsets multiples of VW) of PPT adjacent output pixels along W.
// The filter size is a define, so its loops unroll. With stride 1 and
// dilation 1 along W (a branch on the arguments), a row's window of
// WPT + FS - 1 inputs (NCHW) or PPT + FS - 1 pixels (NHWC) is loaded once
// into registers and shared by the outputs; otherwise each tap is loaded
// where it falls. Sums are in `real` (f32; f16 and bf16 are storage).
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl
// check-variant: -DWPT=4 -DVEC=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DWPT=8 -DVEC=1 -DTYPE=bf16 -DBF16_STORAGE=1 -DFR=5 -DFS=5
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=4 -DPPT=2 -DWPT=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=8 -DPPT=4 -DWPT=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DVW=2 -DPPT=1 -DWPT=1 -DTYPE=bf16 -DBF16_STORAGE=1

#ifndef WGS
#define WGS 128          // work-items per group
#endif
#ifndef FR
#define FR 3             // filter rows
#endif
#ifndef FS
#define FS 3             // filter columns
#endif
#ifndef WPT
#define WPT 4            // NCHW: outputs along W per work-item
#endif
#ifndef VEC
#define VEC 0            // NCHW: 1 stores the WPT outputs as one pack
#endif
#ifndef VW
#define VW 1             // NHWC: channels per work-item (one pack)
#endif
#ifndef PPT
#define PPT 1            // NHWC: output pixels along W per work-item
#endif

// A pack of N elements of the storage type as floatN, and back; i counts packs.
#if HALF_STORAGE
#define CONV_VLOAD(N, i, p) OPTUNE_CAT(optune_gload_half, N)(i, p)
#define CONV_VSTORE(N, v, i, p) OPTUNE_CAT(optune_gstore_half, N)(v, i, p)
#elif BF16_STORAGE
#define CONV_VLOAD(N, i, p) OPTUNE_CAT(optune_gload_bf16, N)(i, p)
#define CONV_VSTORE(N, v, i, p) OPTUNE_CAT(optune_gstore_bf16, N)(v, i, p)
#else
#define CONV_VLOAD(N, i, p) OPTUNE_VLOAD(N, i, p)
#define CONV_VSTORE(N, v, i, p) OPTUNE_VSTORE(N, v, i, p)
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_depthwise(const int N, const int C, const int H, const int W, const int OH, const int OW, const int SH,
                    const int SW, const int DH, const int DW, const int PT, const int PL, __global const TYPE* in,
                    const ulong in_off, __global const TYPE* wt, const ulong wt_off, __global const TYPE* bias,
                    const ulong bias_off, __global const TYPE* res, const ulong res_off, __global TYPE* out,
                    const ulong out_off, const uint flags, const real act_p0, const real act_p1) {
  const ulong id = get_global_id(0);
#if IN_NHWC
  const int CB = C / VW, XB = (OW + PPT - 1) / PPT;
  const ulong items = (ulong)N * (ulong)OH * (ulong)XB * (ulong)CB;
  if (id >= items) return;
  const int c0 = (int)(id % (ulong)CB) * VW;
  ulong t = id / (ulong)CB;
  const int ox0 = (int)(t % (ulong)XB) * PPT;
  t /= (ulong)XB;
  const int oy = (int)(t % (ulong)OH);
  const ulong n = t / (ulong)OH;

  real acc[PPT][VW];
  for (int p = 0; p < PPT; ++p)
    for (int l = 0; l < VW; ++l) acc[p][l] = (real)0;
  for (int r = 0; r < FR; ++r) {
    const int iy = oy * SH - PT + r * DH;
    if (iy < 0 || iy >= H) continue;
    const ulong row = in_off + (n * (ulong)H + (ulong)iy) * (ulong)W * (ulong)C + (ulong)c0;
    if (SW == 1 && DW == 1) {
      // The PPT + FS - 1 input pixels of the row's window, each loaded once.
      real xs[PPT + FS - 1][VW];
      for (int u = 0; u < PPT + FS - 1; ++u) {
        const int ix = ox0 - PL + u;
        if (ix >= 0 && ix < W) {
          const OPTUNE_VEC(float, VW) xv = CONV_VLOAD(VW, (row + (ulong)ix * (ulong)C) / VW, in);
          OPTUNE_VUNPACK(VW, xv, xs[u]);
        } else {
          for (int l = 0; l < VW; ++l) xs[u][l] = (real)0;
        }
      }
      for (int s = 0; s < FS; ++s) {
        real wv[VW];
        for (int l = 0; l < VW; ++l) wv[l] = GEMM_LOAD(wt, wt_off + (ulong)(c0 + l) * (FR * FS) + r * FS + s);
        for (int p = 0; p < PPT; ++p)
          for (int l = 0; l < VW; ++l) acc[p][l] += wv[l] * xs[p + s][l];
      }
      continue;
    }
    for (int s = 0; s < FS; ++s) {
      real wv[VW];
      for (int l = 0; l < VW; ++l) wv[l] = GEMM_LOAD(wt, wt_off + (ulong)(c0 + l) * (FR * FS) + r * FS + s);
      for (int p = 0; p < PPT; ++p) {
        const int ix = (ox0 + p) * SW - PL + s * DW;
        if (ix < 0 || ix >= W) continue;
        real x[VW];
        const OPTUNE_VEC(float, VW) xv = CONV_VLOAD(VW, (row + (ulong)ix * (ulong)C) / VW, in);
        OPTUNE_VUNPACK(VW, xv, x);
        for (int l = 0; l < VW; ++l) acc[p][l] += wv[l] * x[l];
      }
    }
  }
  for (int p = 0; p < PPT; ++p) {
    const int ox = ox0 + p;
    if (ox >= OW) break;
    const ulong oi = ((n * (ulong)OH + (ulong)oy) * (ulong)OW + (ulong)ox) * (ulong)C + (ulong)c0;
    real rv[VW];
    if (flags & CONV_RESIDUAL) {
      const OPTUNE_VEC(float, VW) r4 = CONV_VLOAD(VW, (res_off + oi) / VW, res);
      OPTUNE_VUNPACK(VW, r4, rv);
    } else {
      for (int l = 0; l < VW; ++l) rv[l] = (real)0;
    }
    float v[VW];
    for (int l = 0; l < VW; ++l)
      v[l] = (float)conv_finish(acc[p][l], flags, conv_bias(flags, bias, bias_off, c0 + l), rv[l], act_p0, act_p1);
    CONV_VSTORE(VW, OPTUNE_VPACK(float, VW, v), (out_off + oi) / VW, out);
  }
#else
  const int XB = (OW + WPT - 1) / WPT;
  const ulong items = (ulong)N * (ulong)C * (ulong)OH * (ulong)XB;
  if (id >= items) return;
  const int ox0 = (int)(id % (ulong)XB) * WPT;
  const ulong t = id / (ulong)XB;
  const int oy = (int)(t % (ulong)OH);
  const ulong plane = t / (ulong)OH;  // n C + c
  const int c = (int)(plane % (ulong)C);

  real acc[WPT];
  for (int j = 0; j < WPT; ++j) acc[j] = (real)0;
  for (int r = 0; r < FR; ++r) {
    const int iy = oy * SH - PT + r * DH;
    if (iy < 0 || iy >= H) continue;
    const ulong row = in_off + (plane * (ulong)H + (ulong)iy) * (ulong)W;
    if (SW == 1 && DW == 1) {
      // The WPT + FS - 1 inputs of the row's window, each loaded once.
      real xs[WPT + FS - 1];
      for (int u = 0; u < WPT + FS - 1; ++u) {
        const int ix = ox0 - PL + u;
        xs[u] = ix >= 0 && ix < W ? GEMM_LOAD(in, row + (ulong)ix) : (real)0;
      }
      for (int s = 0; s < FS; ++s) {
        const real wv = GEMM_LOAD(wt, wt_off + (ulong)c * (FR * FS) + r * FS + s);
        for (int j = 0; j < WPT; ++j) acc[j] += wv * xs[j + s];
      }
      continue;
    }
    for (int s = 0; s < FS; ++s) {
      const real wv = GEMM_LOAD(wt, wt_off + (ulong)c * (FR * FS) + r * FS + s);
      for (int j = 0; j < WPT; ++j) {
        const int ix = (ox0 + j) * SW - PL + s * DW;
        if (ix >= 0 && ix < W) acc[j] += wv * GEMM_LOAD(in, row + (ulong)ix);
      }
    }
  }
  const ulong oi = (plane * (ulong)OH + (ulong)oy) * (ulong)OW + (ulong)ox0;
  const real b = conv_bias(flags, bias, bias_off, c);
#if VEC
  real rv[WPT];
  if (flags & CONV_RESIDUAL) {
    const OPTUNE_VEC(float, WPT) r4 = CONV_VLOAD(WPT, (res_off + oi) / WPT, res);
    OPTUNE_VUNPACK(WPT, r4, rv);
  } else {
    for (int j = 0; j < WPT; ++j) rv[j] = (real)0;
  }
  float v[WPT];
  for (int j = 0; j < WPT; ++j) v[j] = (float)conv_finish(acc[j], flags, b, rv[j], act_p0, act_p1);
  CONV_VSTORE(WPT, OPTUNE_VPACK(float, WPT, v), (out_off + oi) / WPT, out);
#else
  for (int j = 0; j < WPT; ++j) {
    if (ox0 + j >= OW) break;
    const real v = conv_finish(acc[j], flags, b, conv_residual(flags, res, res_off + oi + j), act_p0, act_p1);
    GEMM_STORE(v, out, out_off + oi + j);
  }
#endif
#endif
}
