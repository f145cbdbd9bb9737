// conv_depthwise_image: depthwise 2-D convolution (groups == C == K, weights
// C x 1 x FR x FS) read through a 2-D image, as MNN's OpenCL back end runs
// it. Two entry points, one program:
//
//   conv_pack_nc4hw4      the input (NCHW or NHWC buffer, IN_NHWC) into an
//                         RGBA image in NC4HW4 order: texel (cb W + x,
//                         n H + y) holds channels 4 cb .. 4 cb + 3 of pixel
//                         (n, y, x), zeros past C. One texel per work-item.
//   conv_depthwise_image  each work-item computes the 4 channels of one
//                         texel column block of WPT adjacent outputs along
//                         W, reading the taps with read_imagef, and stores
//                         them with the epilogue into the output buffer
//                         (NCHW or NHWC, OUT_NHWC):
//     out[n, c, oy, ox] = act(sum_{r, s} in[n, c, oy SH - PT + r DH, ox SW - PL + s DW] wt[c, r, s]
//                             + bias[c] + res[n, c, oy, ox])
//
// The image holds a tile of the input: images n0 .. n0 + NT - 1 and channel
// blocks cb0 .. cb0 + CBT - 1 (the host tiles inputs past the device's image
// limits: CBT W <= the width limit, NT H <= the height limit). A tap outside
// the input maps to coordinate -1, which the sampler's CLK_ADDRESS_CLAMP
// reads as the border colour (0, 0, 0, 0): padding costs a select, no branch
// and no load from memory. The image is float or half RGBA (read_imagef and
// write_imagef convert); sums are in `real` (f32).
//
// NCHW output: the output block along W is the fastest index (adjacent
// work-items store adjacent W); NHWC output: the channel block is.
// With stride 1 and dilation 1 along W (a branch on the arguments) the
// WPT + FS - 1 texels of a row's window are read once and shared.
//
// OpenCL only (images): CUDA builds never compile this file, and its text is
// empty without OPTUNE_HAS_IMAGES.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl
// check-variant: -DWPT=1 -DIN_NHWC=1 -DOUT_NHWC=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DWPT=8 -DOUT_NHWC=1 -DTYPE=bf16 -DBF16_STORAGE=1 -DFR=5 -DFS=5

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
#define WPT 4            // outputs along W per work-item
#endif

#if OPTUNE_HAS_IMAGES

__constant sampler_t conv_image_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

// Texels of the tile: NT images of H rows, CBT channel blocks of W columns.
__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_pack_nc4hw4(const int C, const int H, const int W, const int n0, const int NT, const int cb0, const int CBT,
                      __global const TYPE* in, const ulong in_off, __write_only image2d_t img) {
  const ulong id = get_global_id(0);
  const ulong texels = (ulong)NT * (ulong)H * (ulong)CBT * (ulong)W;
  if (id >= texels) return;
  // x fastest, then the channel block, then y, then the image: for NCHW
  // adjacent work-items read adjacent W of one plane.
  const int x = (int)(id % (ulong)W);
  ulong t = id / (ulong)W;
  const int cb = (int)(t % (ulong)CBT);
  t /= (ulong)CBT;
  const int y = (int)(t % (ulong)H);
  const int nt = (int)(t / (ulong)H);
  const ulong n = (ulong)(n0 + nt);
  float v[4];
  for (int l = 0; l < 4; ++l) {
    const int c = (cb0 + cb) * 4 + l;
    v[l] = c < C ? (float)GEMM_LOAD(in, in_off + conv_index(IN_NHWC, n, c, y, x, C, H, W)) : 0.0f;
  }
  write_imagef(img, (int2)(cb * W + x, nt * H + y), (float4)(v[0], v[1], v[2], v[3]));
}

// The texel of input (y, x) of tile image nt, block cb; the border (zeros)
// where (y, x) lies outside the input.
OPTUNE_FUNC float4 conv_texel(__read_only image2d_t img, const int cb, const int nt, const int y, const int x,
                              const int H, const int W) {
  const int inside = y >= 0 && y < H && x >= 0 && x < W;
  return read_imagef(img, conv_image_sampler, (int2)(inside ? cb * W + x : -1, inside ? nt * H + y : -1));
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_depthwise_image(const int C, const int H, const int W, const int OH, const int OW, const int SH,
                          const int SW, const int DH, const int DW, const int PT, const int PL, const int n0,
                          const int NT, const int cb0, const int CBT, __read_only image2d_t img,
                          __global const TYPE* wt, const ulong wt_off, __global const TYPE* bias,
                          const ulong bias_off, __global const TYPE* res, const ulong res_off, __global TYPE* out,
                          const ulong out_off, const uint flags, const real act_p0, const real act_p1) {
  const ulong id = get_global_id(0);
  const int XB = (OW + WPT - 1) / WPT;
  const ulong items = (ulong)NT * (ulong)OH * (ulong)XB * (ulong)CBT;
  if (id >= items) return;
#if OUT_NHWC
  const int cb = (int)(id % (ulong)CBT);
  ulong t = id / (ulong)CBT;
  const int ox0 = (int)(t % (ulong)XB) * WPT;
  t /= (ulong)XB;
#else
  const int ox0 = (int)(id % (ulong)XB) * WPT;
  ulong t = id / (ulong)XB;
  const int cb = (int)(t % (ulong)CBT);
  t /= (ulong)CBT;
#endif
  const int oy = (int)(t % (ulong)OH);
  const int nt = (int)(t / (ulong)OH);
  const int c0 = (cb0 + cb) * 4;
  const int lanes = min(4, C - c0);

  float4 acc[WPT];
  for (int j = 0; j < WPT; ++j) acc[j] = (float4)(0.0f);
  for (int r = 0; r < FR; ++r) {
    const int iy = oy * SH - PT + r * DH;
    float4 wv[FS];
    for (int s = 0; s < FS; ++s) {
      float w[4];
      for (int l = 0; l < 4; ++l)
        w[l] = l < lanes ? (float)GEMM_LOAD(wt, wt_off + (ulong)(c0 + l) * (FR * FS) + r * FS + s) : 0.0f;
      wv[s] = (float4)(w[0], w[1], w[2], w[3]);
    }
    if (SW == 1 && DW == 1) {
      // The WPT + FS - 1 texels of the row's window, each read once.
      float4 xs[WPT + FS - 1];
      for (int u = 0; u < WPT + FS - 1; ++u) xs[u] = conv_texel(img, cb, nt, iy, ox0 - PL + u, H, W);
      for (int s = 0; s < FS; ++s)
        for (int j = 0; j < WPT; ++j) acc[j] += wv[s] * xs[j + s];
    } else {
      for (int s = 0; s < FS; ++s)
        for (int j = 0; j < WPT; ++j) acc[j] += wv[s] * conv_texel(img, cb, nt, iy, (ox0 + j) * SW - PL + s * DW, H, W);
    }
  }
  const ulong n = (ulong)(n0 + nt);
  for (int l = 0; l < lanes; ++l) {
    const int c = c0 + l;
    const real b = conv_bias(flags, bias, bias_off, c);
    for (int j = 0; j < WPT; ++j) {
      const int ox = ox0 + j;
      if (ox >= OW) break;
      const float4 a = acc[j];
      const float sum = l == 0 ? a.x : l == 1 ? a.y : l == 2 ? a.z : a.w;
      const ulong oi = conv_index(OUT_NHWC, n, c, oy, ox, C, OH, OW);
      const real v = conv_finish((real)sum, flags, b, conv_residual(flags, res, res_off + oi), act_p0, act_p1);
      GEMM_STORE(v, out, out_off + oi);
    }
  }
}

#endif
