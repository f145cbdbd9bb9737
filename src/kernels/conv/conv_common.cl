// conv_common: what the convolution kernels share — tensor indexing in
// either layout, the fused epilogue
//   out = act(sum + bias[k] + residual)
// and Winograd F(2x2, 3x3)'s input and output transforms (both Winograd kernels).
// The host puts gemm_flags.cl and gemm_common.cl (element types, GEMM_LOAD /
// GEMM_STORE of the storage type, `real`, gemm_finish with the activation
// GEMM_ACT) before this text, then the kernel.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl

#ifndef IN_NHWC
#define IN_NHWC 0        // 1: the input is N x H x W x C, else N x C x H x W
#endif
#ifndef OUT_NHWC
#define OUT_NHWC 0       // 1: the output (and the residual) is N x H x W x K
#endif

// A pack of N elements of the storage type as floatN, and back; i counts packs.
#if HALF_STORAGE
#define CONV_VLOAD(N, i, p) OPTUNE_CAT(optune_gload_half, N)(i, p)
#define CONV_VSTORE(N, v, i, p) OPTUNE_CAT(optune_gstore_half, N)(v, i, p)
#elif BF16_STORAGE
#define CONV_VLOAD(N, i, p) OPTUNE_CAT(optune_gload_bf16, N)(i, p)
#define CONV_VSTORE(N, v, i, p) OPTUNE_CAT(optune_gstore_bf16, N)(v, i, p)
#else
#define CONV_VLOAD(N, i, p) OPTUNE_GLOAD(TYPE, N, i, p)
#define CONV_VSTORE(N, v, i, p) OPTUNE_GSTORE(TYPE, N, v, i, p)
#endif

// Runtime flag bits (the host names the same: kConvBias, kConvResidual).
#define CONV_BIAS 1u
#define CONV_RESIDUAL 2u

// Element (n, c, y, x) of a tensor of `ch` channels of h x w.
OPTUNE_FUNC ulong conv_index(const int nhwc, const ulong n, const int c, const int y, const int x, const int ch,
                             const int h, const int w) {
  return nhwc ? ((n * (ulong)h + (ulong)y) * (ulong)w + (ulong)x) * (ulong)ch + (ulong)c
              : ((n * (ulong)ch + (ulong)c) * (ulong)h + (ulong)y) * (ulong)w + (ulong)x;
}

// act(sum + bias + residual): `bias` and `res` are the values already
// loaded (0 when absent); gemm_finish drops a residual of beta 0 unread.
OPTUNE_FUNC real conv_finish(const real sum, const uint flags, const real bias, const real res, const real act_p0,
                             const real act_p1) {
  return gemm_finish(sum, (real)1, res, (flags & CONV_RESIDUAL) ? (real)1 : (real)0,
                     (flags & CONV_BIAS) ? bias : (real)0, act_p0, act_p1);
}

// The bias of output channel k, 0 without one.
OPTUNE_FUNC real conv_bias(const uint flags, __global const TYPE* bias, const ulong bias_off, const int k) {
  return (flags & CONV_BIAS) ? GEMM_LOAD(bias, bias_off + (ulong)k) : (real)0;
}

// The residual at element i, 0 without one.
OPTUNE_FUNC real conv_residual(const uint flags, __global const TYPE* res, const ulong i) {
  return (flags & CONV_RESIDUAL) ? GEMM_LOAD(res, i) : (real)0;
}

// Winograd F(2x2, 3x3)'s input transform of one 4 x 4 patch d[4 i + j]:
// v[4 i + j] = (B^T d B)[i][j] (conv_winograd.cl's input kernel and
// conv_wino_fused.cl).
OPTUNE_FUNC void conv_wino_in(const float* d, float* v) {
  float bd[4][4];  // B^T d
  for (int j = 0; j < 4; ++j) {
    bd[0][j] = d[j] - d[8 + j];
    bd[1][j] = d[4 + j] + d[8 + j];
    bd[2][j] = d[8 + j] - d[4 + j];
    bd[3][j] = d[4 + j] - d[12 + j];
  }
  for (int i = 0; i < 4; ++i) {
    v[4 * i + 0] = bd[i][0] - bd[i][2];
    v[4 * i + 1] = bd[i][1] + bd[i][2];
    v[4 * i + 2] = bd[i][2] - bd[i][1];
    v[4 * i + 3] = bd[i][1] - bd[i][3];
  }
}

// One row of a Winograd tile's outputs, y[0..cols) at (oy, ox0..), through
// the epilogue into those inside OW (conv_wino_store, conv_wino4_store).
OPTUNE_FUNC void conv_wino_row(const float* y, const int cols, const ulong n, const int k, const int oy,
                               const int ox0, const int K, const int OH, const int OW, const uint flags, const real bk,
                               __global const TYPE* res, const ulong res_off, __global TYPE* out, const ulong out_off,
                               const real act_p0, const real act_p1) {
  for (int j = 0; j < cols && ox0 + j < OW; ++j) {
    const ulong oi = conv_index(OUT_NHWC, n, k, oy, ox0 + j, K, OH, OW);
    const real v = conv_finish((real)y[j], flags, bk, conv_residual(flags, res, res_off + oi), act_p0, act_p1);
    GEMM_STORE(v, out, out_off + oi);
  }
}

// Winograd F(2x2, 3x3)'s output transform of one tile's 16 sums m[4 i + j]
// (A^T M A) through the epilogue into the tile's outputs (n, k, 2 ty.., 2 tx..)
// that lie inside OH x OW (conv_winograd.cl's output kernel and
// conv_wino_fused.cl); bk is channel k's bias (0 without one).
OPTUNE_FUNC void conv_wino_store(const float* m, const ulong n, const int k, const int ty, const int tx, const int K,
                                 const int OH, const int OW, const uint flags, const real bk,
                                 __global const TYPE* res, const ulong res_off, __global TYPE* out,
                                 const ulong out_off, const real act_p0, const real act_p1) {
  float am[2][4];  // A^T M
  for (int j = 0; j < 4; ++j) {
    am[0][j] = m[j] + m[4 + j] + m[8 + j];
    am[1][j] = m[4 + j] - m[8 + j] - m[12 + j];
  }
  for (int i = 0; i < 2; ++i) {
    const int oy = 2 * ty + i;
    if (oy >= OH) break;
    const float y[2] = {am[i][0] + am[i][1] + am[i][2], am[i][1] - am[i][2] - am[i][3]};
    conv_wino_row(y, 2, n, k, oy, 2 * tx, K, OH, OW, flags, bk, res, res_off, out, out_off, act_p0, act_p1);
  }
}

// Winograd F(4x4, 3x3) (conv_wino_fused.cl with WT 4; Lavin and Gray's
// points 0, +-1, +-2): the input transform of one 6 x 6 patch d[6 i + j],
// v = B^T d B, and the output transform of one tile's 36 sums, A^T M A, into
// its 4 x 4 outputs inside OH x OW through the epilogue.
//
//        | 4  0 -5  0  1  0 |         | 1  1  1  1  1  0 |
//        | 0 -4 -4  1  1  0 |   A^T = | 0  1 -1  2 -2  0 |
//  B^T = | 0  4 -4 -1  1  0 |         | 0  1  1  4  4  0 |
//        | 0 -2 -1  2  1  0 |         | 0  1 -1  8 -8  1 |
//        | 0  2 -1 -2  1  0 |
//        | 0  4  0 -5  0  1 |
OPTUNE_FUNC void conv_wino4_bt(const float* x, const int step, float* y, const int ystep) {
  y[0] = 4.0f * x[0] - 5.0f * x[2 * step] + x[4 * step];
  y[ystep] = x[3 * step] + x[4 * step] - 4.0f * (x[step] + x[2 * step]);
  y[2 * ystep] = 4.0f * (x[step] - x[2 * step]) - x[3 * step] + x[4 * step];
  y[3 * ystep] = 2.0f * (x[3 * step] - x[step]) - x[2 * step] + x[4 * step];
  y[4 * ystep] = 2.0f * (x[step] - x[3 * step]) - x[2 * step] + x[4 * step];
  y[5 * ystep] = 4.0f * x[step] - 5.0f * x[3 * step] + x[5 * step];
}

OPTUNE_FUNC void conv_wino4_in(const float* d, float* v) {
  float bd[36];  // B^T d, row-major
  for (int j = 0; j < 6; ++j) conv_wino4_bt(d + j, 6, bd + j, 6);
  for (int i = 0; i < 6; ++i) conv_wino4_bt(bd + 6 * i, 1, v + 6 * i, 1);
}

OPTUNE_FUNC void conv_wino4_at(const float* x, const int step, float* y, const int ystep) {
  const float s12 = x[step] + x[2 * step], d12 = x[step] - x[2 * step];
  const float s34 = x[3 * step] + x[4 * step], d34 = x[3 * step] - x[4 * step];
  y[0] = x[0] + s12 + s34;
  y[ystep] = d12 + 2.0f * d34;
  y[2 * ystep] = s12 + 4.0f * s34;
  y[3 * ystep] = d12 + 8.0f * d34 + x[5 * step];
}

OPTUNE_FUNC void conv_wino4_store(const float* m, const ulong n, const int k, const int ty, const int tx, const int K,
                                  const int OH, const int OW, const uint flags, const real bk,
                                  __global const TYPE* res, const ulong res_off, __global TYPE* out,
                                  const ulong out_off, const real act_p0, const real act_p1) {
  float am[24];  // A^T M, 4 x 6
  for (int j = 0; j < 6; ++j) conv_wino4_at(m + j, 6, am + j, 6);
  for (int i = 0; i < 4; ++i) {
    const int oy = 4 * ty + i;
    if (oy >= OH) break;
    float y[4];
    conv_wino4_at(am + 6 * i, 1, y, 1);
    conv_wino_row(y, 4, n, k, oy, 4 * tx, K, OH, OW, flags, bk, res, res_off, out, out_off, act_p0, act_p1);
  }
}

// The Winograd kernels' tile (WT, their parameter: 2, F(2x2, 3x3), where a
// program gives none; 4, F(4x4, 3x3)) selects the input patch's side, the
// positions and the transforms (conv_winograd.cl, conv_wino_fused.cl).
#ifndef WT
#define WT 2
#endif
#define WINO_A (WT + 2)
#define WINO_NP (WINO_A * WINO_A)
#if WT == 4
#define WINO_IN conv_wino4_in
#define WINO_STORE conv_wino4_store
#else
#define WINO_IN conv_wino_in
#define WINO_STORE conv_wino_store
#endif
