// conv_direct: any 2-D convolution (groups, stride, dilation, asymmetric
// padding, either layout for the input and for the output), the candidate
// that always applies.
//
//   out[n, k, oy, ox] = act(sum_{c, r, s} in[n, g Cg + c, oy SH - PT + r DH, ox SW - PL + s DW]
//                                         * wt[k, c, r, s] + bias[k] + res[n, k, oy, ox])
// where g = k / Kg (Kg = K / G, Cg = C / G) and taps outside the input are 0.
//
// One dimension of work-items: item i covers output pixel i % P (P = N OH OW
// rounded up to WGS) and the channel block i / P, KPT output channels of one
// group; the work-items of a group share the block, so their weight loads
// are one broadcast. Each input value is loaded once for all KPT channels.
// Sums are in `real` (f32; f16 and bf16 are storage).
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1 -DKPT=8
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DOUT_NHWC=1 -DKPT=2
// check-variant: -DKPT=16 -DWGS=256 -DIN_NHWC=1 -DOUT_NHWC=1

#ifndef WGS
#define WGS 64           // work-items per group
#endif
#ifndef KPT
#define KPT 4            // output channels per work-item
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_direct(const int N, const int C, const int H, const int W, const int K, const int OH, const int OW,
                 const int R, const int S, const int SH, const int SW, const int DH, const int DW, const int PT,
                 const int PL, const int G, __global const TYPE* in, const ulong in_off, __global const TYPE* wt,
                 const ulong wt_off, __global const TYPE* bias, const ulong bias_off, __global const TYPE* res,
                 const ulong res_off, __global TYPE* out, const ulong out_off, const uint flags, const real act_p0,
                 const real act_p1) {
  const ulong pixels = (ulong)N * (ulong)OH * (ulong)OW;
  const ulong padded = (pixels + WGS - 1) / WGS * WGS;
  const ulong id = get_global_id(0);
  const ulong pix = id % padded;
  if (pix >= pixels) return;
  const int Kg = K / G, Cg = C / G;
  const int blocks = (Kg + KPT - 1) / KPT;
  const int b = (int)(id / padded);
  const int g = b / blocks;
  const int k0 = g * Kg + (b % blocks) * KPT;
  const int kn = min(KPT, g * Kg + Kg - k0);
  const int ox = (int)(pix % (ulong)OW);
  const ulong t = pix / (ulong)OW;
  const int oy = (int)(t % (ulong)OH);
  const ulong n = t / (ulong)OH;
  const int iy0 = oy * SH - PT, ix0 = ox * SW - PL;
  const ulong taps = (ulong)Cg * (ulong)R * (ulong)S;  // weights per output channel

  real acc[KPT];
  for (int j = 0; j < KPT; ++j) acc[j] = (real)0;
  for (int c = 0; c < Cg; ++c) {
    const int ci = g * Cg + c;
    for (int r = 0; r < R; ++r) {
      const int iy = iy0 + r * DH;
      if (iy < 0 || iy >= H) continue;
      for (int s = 0; s < S; ++s) {
        const int ix = ix0 + s * DW;
        if (ix < 0 || ix >= W) continue;
        const real v = GEMM_LOAD(in, in_off + conv_index(IN_NHWC, n, ci, iy, ix, C, H, W));
        const ulong wi = wt_off + (ulong)k0 * taps + ((ulong)c * (ulong)R + (ulong)r) * (ulong)S + (ulong)s;
        for (int j = 0; j < KPT; ++j)
          if (j < kn) acc[j] += v * GEMM_LOAD(wt, wi + (ulong)j * taps);
      }
    }
  }
  for (int j = 0; j < KPT; ++j) {
    if (j >= kn) break;
    const int k = k0 + j;
    const ulong oi = conv_index(OUT_NHWC, n, k, oy, ox, K, OH, OW);
    const real v = conv_finish(acc[j], flags, conv_bias(flags, bias, bias_off, k),
                               conv_residual(flags, res, res_off + oi), act_p0, act_p1);
    GEMM_STORE(v, out, out_off + oi);
  }
}
