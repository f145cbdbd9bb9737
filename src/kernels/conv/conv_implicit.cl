// conv_implicit: any 2-D convolution as an implicit GEMM per group g, the
// operands gathered on the fly, never stored:
//
//   C[m][n] = sum_kk A[m][kk] B[kk][n]     M = N OH OW pixels, Kg = K / G
//                                          columns, KD = Cg R S depth
//   A[m][kk] = in[img, g Cg + c, oy SH - PT + r DH, ox SW - PL + s DW]
//              (0 outside the input), m = (img OH + oy) OW + ox
//   B[kk][n] = wt[g Kg + n, c, r, s]       (the KCRS weights where they lie)
//   out[img, g Kg + n, oy, ox] = act(C[m][n] + bias + residual)
//
// The depth runs tap by tap (r, s), each tap's channels in chunks of KWG:
// a local tile is KWG channels of one tap, so a pixel's input coordinates
// and bounds are taken once per tap for all its channels (the last chunk
// of a tap is partial where KWG does not divide C/G: its missing channels
// load zeros, and fit shrinks KWG towards C/G).
//
// A work-group computes an MWG x NWG tile of C (pixels m0.., columns n0.. of
// group g; the groups of dimension 0 run the tiles with the pixel tiles
// fastest, so neighbouring groups share their weights, then the column
// tiles, then the groups: no grid limit in y or z applies); its MDIMC x
// NDIMC work-items each accumulate MWI x NWI values (rows tx + i MDIMC, columns ty + j NDIMC, so
// that neighbouring work-items read neighbouring words of the local tiles
// and store neighbouring pixels of an NCHW output). Along the depth the
// group stages KWG-deep tiles of A and B in local memory, two stages: the
// next tile's global loads go into registers before the arithmetic on the
// current one, and land in the other stage after it (one barrier per step).
// Without FLAT a step is one tap by one chunk of KWG channels, the chunks
// within each tap (TAPS_INNER: the taps within each chunk, so that the steps
// of one chunk reread the same input rows and weight sectors while they are
// in cache).
// With FLAT the depth runs in chunks of KWG over all of (c, r, s) in the
// weights' order, each element's channel and tap taken from its index: for
// few channels per group, where a tap's chunk would be mostly zeros.
// With SPLITK > 1 the grid holds SPLITK copies of the tiles (slice slowest),
// each running its share of the steps and storing raw sums to `part`;
// conv_implicit_sum (below) adds them and applies the epilogue.
// The local tiles are `float` for every storage type (f16 and bf16 storage
// are converted as loaded: sums in f32).
//
// The parameters, their defaults and what they imply (loader shapes, the
// tensor-core variant's warp tiling and staging types) are in
// conv_implicit_defs.cl, which the host puts before this text.
//
// The A tile's loaders: for an NCHW input LAM work-items along m (a row of
// pixels reads neighbouring input words), for an NHWC input LAK along the
// channels (neighbouring words; AV channels each, one pack, where the host
// found the channels, the offset and C / G multiples of AV). Each loader
// keeps the same AMI pixels for every step, so their image base and top-left
// input coordinates are computed once. Pixels past M, columns past Kg and
// channels past C/G load zeros and are never stored (no padding of the
// operands).
//
// The SIMT product reads its MWI rows and NWI columns from the local tiles
// as packs of VWM and VWN (work-item tx's rows are q MDIMC VWM + tx VWM + e,
// e < VWM: one wide local read per pack, neighbouring work-items on
// neighbouring packs).
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl conv/conv_implicit_defs.cl
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DOUT_NHWC=1 -DMWG=32 -DNWG=16 -DKWG=8 -DMDIMC=8 -DNDIMC=8
// check-variant: -DIN_NHWC=1 -DOUT_NHWC=1 -DMWG=256 -DNWG=128 -DKWG=8 -DMDIMC=32 -DNDIMC=16
// check-variant: -DIN_NHWC=1 -DAV=4 -DVWM=4 -DVWN=2 -DMWG=64 -DNWG=16 -DKWG=16 -DMDIMC=8 -DNDIMC=4 -DSPLITK=4
// check-variant: -DTAPS_INNER=1 -DVWM=4 -DVWN=4 -DSPLITK=2
// check-variant: -DFLAT=1 -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1 -DSPLITK=2
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1 -DAV=2 -DVWM=2
// check-variant-cuda: -DMMA=1 -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1
// check-variant-cuda: -DMMA=1 -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1 -DOUT_NHWC=1 -DAV=8 -DKWG=32 -DSPLITK=2
// check-variant-cuda: -DMMA=1 -DFLAT=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant-cuda: -DMMA=1 -DTYPE=bf16 -DBF16_STORAGE=1 -DMWG=64 -DNWG=16 -DKWG=32 -DMDIMC=8 -DNDIMC=8

__kernel OPTUNE_WG_SIZE(MDIMC, NDIMC, 1)
void conv_implicit(const int N, const int C, const int H, const int W, const int K, const int OH, const int OW,
                   const int R, const int S, const int SH, const int SW, const int DH, const int DW, const int PT,
                   const int PL, const int G, __global const TYPE* in, const ulong in_off, __global const TYPE* wt,
                   const ulong wt_off, __global const TYPE* bias, const ulong bias_off, __global const TYPE* res,
                   const ulong res_off, __global TYPE* out, const ulong out_off, const uint flags, const real act_p0,
                   const real act_p1
#if SPLITK > 1
                   , __global float* part
#endif
) {
#if MMA
  __local ushort as[2][MWG][MMA_KS] __attribute__((aligned(16)));  // read as 32-bit words
  __local ushort bs[2][NWG][MMA_KS] __attribute__((aligned(16)));
#else
  __local float as[2][KWG][MWG + LOCAL_PAD] __attribute__((aligned(16)));
  __local float bs[2][KWG][NWG + LOCAL_PAD] __attribute__((aligned(16)));
#endif
  const int Kg = K / G, Cg = C / G, RS = R * S;
  const int KD = Cg * RS;  // an output channel's weights
  const ulong M = (ulong)N * (ulong)OH * (ulong)OW;
  const int col_tiles = (Kg + NWG - 1) / NWG;
  const ulong row_tiles = (M + MWG - 1) / MWG;
  // Work-group (slice, g, column tile, row tile), rows fastest.
  const ulong tiles_all = row_tiles * (ulong)col_tiles * (ulong)G;
  const ulong tile = get_group_id(0) % tiles_all;
  const int slice = (int)(get_group_id(0) / tiles_all);
  const ulong m0 = tile % row_tiles * MWG;
  const int ct = (int)(tile / row_tiles % (ulong)col_tiles);
  const int g = (int)(tile / row_tiles / (ulong)col_tiles);
  const int n0 = ct * NWG;
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  const int lid = ty * MDIMC + tx;

  // This work-item's A rows: the image's base (at the group's first
  // channel) and the top-left tap; a row past M gets a top row that no
  // tap reaches into the input.
#if IN_NHWC
  const int la_k = lid % LAK, la_m = lid / LAK;
  const ulong chan0 = (ulong)g * (ulong)Cg, cstride = 1;
#else
  const int la_m = lid % LAM, la_k = lid / LAM;
  const ulong cstride = (ulong)H * (ulong)W, chan0 = (ulong)g * (ulong)Cg * cstride;
#endif
  ulong a_base[AMI];
  int a_y[AMI], a_x[AMI];
  for (int a = 0; a < AMI; ++a) {
    const ulong m = m0 + (ulong)(la_m + a * LAM);
    const ulong mm = m < M ? m : 0;
    const int ox = (int)(mm % (ulong)OW);
    const ulong t = mm / (ulong)OW;
    const int oy = (int)(t % (ulong)OH);
    const ulong img = t / (ulong)OH;
    a_base[a] = in_off + img * (ulong)C * (ulong)H * (ulong)W + chan0;
    a_y[a] = m < M ? oy * SH - PT : -1 - DH * (R - 1);
    a_x[a] = ox * SW - PL;
  }
  // This work-item's B columns: their first weight (group g's column n).
  const int lb_k = lid % LBK, lb_n = lid / LBK;
  const ulong w_col0 = wt_off + (ulong)(g * Kg + n0) * (ulong)KD;

#if MMA && AV > 1
  apack_t ra[AKI][AMI];
#else
  stage_t ra[AKI][AMI][AV];
#endif
  stage_t rb[BKI][BNI];
#if MMA
  const int warp = lid / 32, lane = lid % 32;
  const int wm0 = (warp / MMA_WARPS_N) * MMA_WM, wn0 = (warp % MMA_WARPS_N) * MMA_WN;
  const int fg = lane >> 2, ft = lane & 3;  // the fragments' row group and thread in it
  float acc[MMA_FM][MMA_FN][4];
  for (int i = 0; i < MMA_FM; ++i)
    for (int j = 0; j < MMA_FN; ++j)
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;
#else
  float acc[MWI][NWI];
  for (int i = 0; i < MWI; ++i)
    for (int j = 0; j < NWI; ++j) acc[i][j] = 0.0f;
#endif

  const int chunks = (Cg + KWG - 1) / KWG;  // per tap
#if FLAT
  const int steps = (KD + KWG - 1) / KWG;  // chunks of the whole depth
#else
  const int steps = RS * chunks;
#endif
  // This slice's steps [s_lo, s_hi) (all of them without SPLITK; a slice
  // may be empty and stores zeros).
  const int s_lo = (int)((long)slice * steps / SPLITK), s_hi = (int)((long)(slice + 1) * steps / SPLITK);
  for (int t = s_lo - 1; t < s_hi; ++t) {
    // Step t + 1's tiles into registers (before step t's arithmetic).
    if (t + 1 < s_hi) {
#if FLAT
      // Depth kk = c R S + r S + s (the weights' own order): each element's
      // channel and tap from its kk, the weights contiguous along it.
      const int k0 = (t + 1) * KWG;
      for (int a = 0; a < AMI; ++a)
        for (int b = 0; b < AKI; ++b) {
          const int kk = k0 + la_k + b * LAK, c = kk / RS, tap = kk - c * RS, r = tap / S;
          const int iy = a_y[a] + r * DH, ix = a_x[a] + (tap - r * S) * DW;
          const int ok = kk < KD && iy >= 0 && iy < H && ix >= 0 && ix < W;
#if IN_NHWC
          const ulong at = a_base[a] + ((ulong)iy * (ulong)W + (ulong)ix) * (ulong)C + (ulong)c;
#else
          const ulong at = a_base[a] + (ulong)c * cstride + (ulong)iy * (ulong)W + (ulong)ix;
#endif
          ra[b][a][0] = ok ? STAGE_LOAD(in, at) : STAGE_ZERO;
        }
      for (int b = 0; b < BKI; ++b) {
        const int kk = k0 + lb_k + b * LBK;
        for (int j = 0; j < BNI; ++j) {
          const int n = lb_n + j * LBN;
          rb[b][j] = kk < KD && n0 + n < Kg ? STAGE_LOAD(wt, w_col0 + (ulong)n * (ulong)KD + (ulong)kk) : STAGE_ZERO;
        }
      }
#else
#if TAPS_INNER
      const int chunk = (t + 1) / RS, tap = t + 1 - chunk * RS;
      const int c0 = chunk * KWG;
#else
      const int tap = (t + 1) / chunks;
      const int c0 = (t + 1 - tap * chunks) * KWG;
#endif
      const int r = tap / S;
      const int dy = r * DH, dx = (tap - r * S) * DW;
      for (int a = 0; a < AMI; ++a) {
        const int iy = a_y[a] + dy, ix = a_x[a] + dx;
        const int inside = iy >= 0 && iy < H && ix >= 0 && ix < W;
#if IN_NHWC
        const ulong at = a_base[a] + ((ulong)iy * (ulong)W + (ulong)ix) * (ulong)C;
#else
        const ulong at = a_base[a] + (ulong)iy * (ulong)W + (ulong)ix;
#endif
        for (int b = 0; b < AKI; ++b) {
          const int c = c0 + (la_k + b * LAK) * AV;
          const int ok = inside && c < Cg;  // the whole pack (Cg a multiple of AV)
#if AV == 1
          ra[b][a][0] = ok ? STAGE_LOAD(in, at + (ulong)c * cstride) : STAGE_ZERO;
#elif MMA
          apack_t v = {};
          if (ok) v = *(__global const apack_t*)(in + at + (ulong)c);
          ra[b][a] = v;
#else
          OPTUNE_VEC(float, AV) v = OPTUNE_SPLAT(float, AV, 0.0f);
          if (ok) v = CONV_VLOAD(AV, (at + (ulong)c) / AV, in);
          OPTUNE_VUNPACK(AV, v, ra[b][a]);
#endif
        }
      }
      for (int b = 0; b < BKI; ++b) {
        const int c = c0 + lb_k + b * LBK;
        for (int j = 0; j < BNI; ++j) {
          const int n = lb_n + j * LBN;
          const int inside = c < Cg && n0 + n < Kg;
          rb[b][j] = inside ? STAGE_LOAD(wt, w_col0 + (ulong)n * (ulong)KD + (ulong)(c * RS + tap)) : STAGE_ZERO;
        }
      }
#endif
    }
    if (t >= s_lo) {
      const int cur = t & 1;
#if MMA
      // Fragments (PTX m16n8k16, row.col): A's a[0..3] rows fg, fg + 8 at
      // depths 2 ft, 2 ft + 8 (pairs); B's b[0..1] column fg at depths 2 ft,
      // 2 ft + 8.
      for (int k0 = 0; k0 < KWG; k0 += 16) {
        uint af[MMA_FM][4], bf[MMA_FN][2];
        for (int i = 0; i < MMA_FM; ++i) {
          const int row = wm0 + i * 16 + fg;
          af[i][0] = LDS32(&as[cur][row][k0 + 2 * ft]);
          af[i][1] = LDS32(&as[cur][row + 8][k0 + 2 * ft]);
          af[i][2] = LDS32(&as[cur][row][k0 + 2 * ft + 8]);
          af[i][3] = LDS32(&as[cur][row + 8][k0 + 2 * ft + 8]);
        }
        for (int j = 0; j < MMA_FN; ++j) {
          const int col = wn0 + j * 8 + fg;
          bf[j][0] = LDS32(&bs[cur][col][k0 + 2 * ft]);
          bf[j][1] = LDS32(&bs[cur][col][k0 + 2 * ft + 8]);
        }
        for (int i = 0; i < MMA_FM; ++i)
          for (int j = 0; j < MMA_FN; ++j) conv_mma(acc[i][j], af[i], bf[j]);
      }
#else
      for (int k = 0; k < KWG; ++k) {
        float av[MWI], bv[NWI];
#if VWM > 1
        for (int q = 0; q < MWI / VWM; ++q) {
          const OPTUNE_VEC(float, VWM) v = *(OPTUNE_LOCAL_PTR const OPTUNE_VEC(float, VWM)*)&as[cur][k][MROW(q * VWM)];
          OPTUNE_VUNPACK(VWM, v, av + q * VWM);
        }
#else
        for (int i = 0; i < MWI; ++i) av[i] = as[cur][k][tx + i * MDIMC];
#endif
#if VWN > 1
        for (int q = 0; q < NWI / VWN; ++q) {
          const OPTUNE_VEC(float, VWN) v = *(OPTUNE_LOCAL_PTR const OPTUNE_VEC(float, VWN)*)&bs[cur][k][NCOL(q * VWN)];
          OPTUNE_VUNPACK(VWN, v, bv + q * VWN);
        }
#else
        for (int j = 0; j < NWI; ++j) bv[j] = bs[cur][k][ty + j * NDIMC];
#endif
        for (int i = 0; i < MWI; ++i)
          for (int j = 0; j < NWI; ++j) acc[i][j] += av[i] * bv[j];
      }
#endif
    }
    // The registers into the other stage (read last in step t - 1, which
    // the previous barrier closed); the barrier publishes it for step t + 1.
    if (t + 1 < s_hi) {
      const int nxt = (t + 1) & 1;
#if MMA
      for (int b = 0; b < AKI; ++b)
        for (int a = 0; a < AMI; ++a) {
#if AV > 1
          *(OPTUNE_LOCAL_PTR apack_t*)&as[nxt][la_m + a * LAM][(la_k + b * LAK) * AV] = ra[b][a];
#else
          as[nxt][la_m + a * LAM][la_k + b * LAK] = ra[b][a][0];
#endif
        }
      for (int b = 0; b < BKI; ++b)
        for (int j = 0; j < BNI; ++j) bs[nxt][lb_n + j * LBN][lb_k + b * LBK] = rb[b][j];
#else
      for (int b = 0; b < AKI; ++b)
        for (int a = 0; a < AMI; ++a)
          for (int e = 0; e < AV; ++e) as[nxt][(la_k + b * LAK) * AV + e][la_m + a * LAM] = ra[b][a][e];
      for (int b = 0; b < BKI; ++b)
        for (int j = 0; j < BNI; ++j) bs[nxt][lb_k + b * LBK][lb_n + j * LBN] = rb[b][j];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // The epilogue, each value where the other candidates store it.
#if MMA
  // Fragment (i, j)'s d[e] is row fg (+ 8 for e >= 2), column 2 ft (+ 1 for
  // odd e) of its 16 x 8.
  for (int i = 0; i < MMA_FM; ++i)
    for (int e2 = 0; e2 < 2; ++e2) {
      const ulong m = m0 + (ulong)(wm0 + i * 16 + fg + 8 * e2);
      if (m >= M) continue;
      const int ox = (int)(m % (ulong)OW);
      const ulong t = m / (ulong)OW;
      const int oy = (int)(t % (ulong)OH);
      const ulong img = t / (ulong)OH;
      for (int j = 0; j < MMA_FN; ++j)
        for (int e1 = 0; e1 < 2; ++e1) {
          const int n = n0 + wn0 + j * 8 + 2 * ft + e1;
          if (n >= Kg) continue;
          const ulong oi = conv_index(OUT_NHWC, img, g * Kg + n, oy, ox, K, OH, OW);
#if SPLITK > 1
          part[(ulong)slice * M * (ulong)K + oi] = acc[i][j][2 * e2 + e1];
#else
          const real v = conv_finish((real)acc[i][j][2 * e2 + e1], flags, conv_bias(flags, bias, bias_off, g * Kg + n),
                                     conv_residual(flags, res, res_off + oi), act_p0, act_p1);
          GEMM_STORE(v, out, out_off + oi);
#endif
        }
    }
#else
  real bias_v[NWI];
  for (int j = 0; j < NWI; ++j) {
    const int n = n0 + NCOL(j);
    bias_v[j] = n < Kg ? conv_bias(flags, bias, bias_off, g * Kg + n) : (real)0;
  }
  for (int i = 0; i < MWI; ++i) {
    const ulong m = m0 + (ulong)MROW(i);
    if (m >= M) continue;
    const int ox = (int)(m % (ulong)OW);
    const ulong t = m / (ulong)OW;
    const int oy = (int)(t % (ulong)OH);
    const ulong img = t / (ulong)OH;
    for (int j = 0; j < NWI; ++j) {
      const int n = n0 + NCOL(j);
      if (n >= Kg) continue;
      const ulong oi = conv_index(OUT_NHWC, img, g * Kg + n, oy, ox, K, OH, OW);
#if SPLITK > 1
      part[(ulong)slice * M * (ulong)K + oi] = acc[i][j];
#else
      const real v = conv_finish((real)acc[i][j], flags, bias_v[j], conv_residual(flags, res, res_off + oi), act_p0,
                                 act_p1);
      GEMM_STORE(v, out, out_off + oi);
#endif
    }
  }
#endif
}

// Split depth (SPLITK > 1): element i of the output (its own layout, the
// offset apart) is the sum of the slices' raw sums part[s M K + i] in slice
// order, through the epilogue. One work-item per element.
__kernel OPTUNE_WG_SIZE(256, 1, 1)
void conv_implicit_sum(const int N, const int K, const int OH, const int OW, __global const float* part,
                       __global const TYPE* bias, const ulong bias_off, __global const TYPE* res, const ulong res_off,
                       __global TYPE* out, const ulong out_off, const uint flags, const real act_p0,
                       const real act_p1) {
  const ulong total = (ulong)N * (ulong)K * (ulong)OH * (ulong)OW;
  const ulong i = get_global_id(0);
  if (i >= total) return;
  float sum = part[i];
  for (int s = 1; s < SPLITK; ++s) sum += part[(ulong)s * total + i];
  const int k = OUT_NHWC ? (int)(i % (ulong)K) : (int)(i / ((ulong)OH * (ulong)OW) % (ulong)K);
  const real v = conv_finish((real)sum, flags, conv_bias(flags, bias, bias_off, k), conv_residual(flags, res, res_off + i),
                             act_p0, act_p1);
  GEMM_STORE(v, out, out_off + i);
}
