// conv_winograd: Winograd F(WT x WT, 3x3) for 3 x 3 filters, stride 1,
// dilation 1, one group (Lavin and Gray's formulation), WT 2 or 4: NP =
// (WT + 2)^2 positions, 16 or 36. The host runs (ops/conv_gemm_candidates.cpp):
//
//   conv_wino_weights  U[xi][c][k] = (G g[k][c] G^T)[xi], NP C x K matrices
//                      (stored transposed: GEMM reads them as K x C with
//                      trans_a, so that whichever side of the product is
//                      thin, GEMM's thin kernel streams a wide operand that
//                      is contiguous along its long side)
//   conv_wino_input    V[xi][c][t] = (B^T d[c][t] B)[xi] for the (WT + 2)^2
//                      input patch d of tile t (its WT x WT outputs'
//                      receptive field; zeros in the padding), NP C x P
//                      matrices; from an NHWC input NP P x C ones
//                      (V[xi][t][c]), so that neighbouring work-items read
//                      and write neighbouring words in either layout
//   GEMM (batched, NP) M[xi] = U[xi]^T' V[xi], NP K x P matrices, in f32;
//                      for an NHWC output NP P x K ones (M[xi][t][k] =
//                      V[xi]^T' U[xi]): the host sets each operand's
//                      transpose from the layouts
//   conv_wino_output   out[n, k, WT ty + i, WT tx + j] = act((A^T M[.][k][t] A)[i][j]
//                      + bias[k] + res[n, k, WT ty + i, WT tx + j])
//
// F(2x2, 3x3)'s matrices (F(4x4, 3x3)'s: conv_wino4_g here, conv_common.cl's
// conv_wino4_in and conv_wino4_store):
//
//        | 1    0    0  |         | 1  0 -1  0 |
//    G = | 1/2  1/2  1/2|   B^T = | 0  1  1  0 |   A^T = | 1  1  1  0 |
//        | 1/2 -1/2  1/2|         | 0 -1  1  0 |         | 0  1 -1 -1 |
//        | 0    0    1  |         | 0  1  0 -1 |
//
// Tiles t = (n - n0) TH TW + ty TW + tx over the chunk's images (TH =
// ceil(OH / WT), TW = ceil(OW / WT)); outputs past OH or OW are not stored.
// The transformed matrices are f32 (`float` scratch) for every storage
// type; inputs and outputs are in the storage type (TYPE) and either layout
// (IN_NHWC, OUT_NHWC). One element (weights: one c, k; input: one c, t;
// output: one k, t) per work-item, the fastest index the one that is
// contiguous in the matrix written (the weights': k; the input's: t, or c
// from NHWC; the output's: t, or k to NHWC).
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl
// check-variant: -DTYPE=half -DHALF_STORAGE=1 -DIN_NHWC=1
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DOUT_NHWC=1
// check-variant: -DWT=4 -DIN_NHWC=1

#ifndef WGS
#define WGS 256          // work-items per group
#endif
// WT, the output tile's side (2 or 4), and what it selects: conv_common.cl.

// F(4x4, 3x3)'s G applied to one column (a, b, c): y[0..5 step], the rows
//   G = (1/4, 0, 0), -(1, 1, 1)/6, -(1, -1, 1)/6, (1/24, 1/12, 1/6),
//       (1/24, -1/12, 1/6), (0, 0, 1).
OPTUNE_FUNC void conv_wino4_g(const float a, const float b, const float c, float* y, const int step) {
  const float h = (a + c) * (-1.0f / 6.0f), e = b * (1.0f / 6.0f);
  const float f = a * (1.0f / 24.0f) + c * (1.0f / 6.0f), q = b * (1.0f / 12.0f);
  y[0] = 0.25f * a;
  y[step] = h - e;
  y[2 * step] = h + e;
  y[3 * step] = f + q;
  y[4 * step] = f - q;
  y[5 * step] = c;
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_wino_weights(const int K, const int C, __global const TYPE* wt, const ulong wt_off, __global float* u,
                       const ulong u_off) {
  const ulong id = get_global_id(0);
  if (id >= (ulong)K * (ulong)C) return;  // id = c K + k: U's element
  const ulong k = id % (ulong)K, c = id / (ulong)K;
  float g[3][3];
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s) g[r][s] = (float)GEMM_LOAD(wt, wt_off + (k * (ulong)C + c) * 9 + (ulong)(r * 3 + s));
  const ulong plane = (ulong)K * (ulong)C;
#if WT == 4
  // U = G g G^T with F(4x4, 3x3)'s 6 x 3 G (conv_wino4_g): 36 positions.
  float gg[6][3];  // G g
  for (int s = 0; s < 3; ++s) conv_wino4_g(g[0][s], g[1][s], g[2][s], &gg[0][s], 3);
  for (int i = 0; i < 6; ++i) {
    float v[6];
    conv_wino4_g(gg[i][0], gg[i][1], gg[i][2], v, 1);
    for (int j = 0; j < 6; ++j) u[u_off + (ulong)(i * 6 + j) * plane + id] = v[j];
  }
#else
  float gg[4][3];  // G g
  for (int s = 0; s < 3; ++s) {
    gg[0][s] = g[0][s];
    gg[1][s] = 0.5f * (g[0][s] + g[1][s] + g[2][s]);
    gg[2][s] = 0.5f * (g[0][s] - g[1][s] + g[2][s]);
    gg[3][s] = g[2][s];
  }
  for (int i = 0; i < 4; ++i) {
    const float v[4] = {gg[i][0], 0.5f * (gg[i][0] + gg[i][1] + gg[i][2]), 0.5f * (gg[i][0] - gg[i][1] + gg[i][2]),
                        gg[i][2]};
    for (int j = 0; j < 4; ++j) u[u_off + (ulong)(i * 4 + j) * plane + id] = v[j];
  }
#endif
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_wino_input(const int C, const int H, const int W, const int TH, const int TW, const int PT, const int PL,
                     const int n0, const int images, __global const TYPE* in, const ulong in_off, __global float* v,
                     const ulong v_off) {
  const ulong P = (ulong)images * (ulong)TH * (ulong)TW;
  const ulong id = get_global_id(0);
  if (id >= P * (ulong)C) return;
#if IN_NHWC
  const ulong t = id / (ulong)C;  // channel fastest: the input's and V's rows are contiguous along c
  const int c = (int)(id % (ulong)C);
#else
  const ulong t = id % P;  // tile fastest: V's rows are contiguous along t
  const int c = (int)(id / P);
#endif
  const int tx = (int)(t % (ulong)TW), ty = (int)(t / (ulong)TW % (ulong)TH);
  const ulong n = (ulong)n0 + t / ((ulong)TW * (ulong)TH);
  const int y0 = WT * ty - PT, x0 = WT * tx - PL;
  float d[WINO_NP];
  for (int i = 0; i < WINO_A; ++i)
    for (int j = 0; j < WINO_A; ++j) {
      const int y = y0 + i, x = x0 + j;
      const int inside = y >= 0 && y < H && x >= 0 && x < W;
      d[WINO_A * i + j] = inside ? (float)GEMM_LOAD(in, in_off + conv_index(IN_NHWC, n, c, y, x, C, H, W)) : 0.0f;
    }
  float e[WINO_NP];
  WINO_IN(d, e);
  const ulong plane = (ulong)C * P;
#if IN_NHWC
  const ulong row = t * (ulong)C + (ulong)c;
#else
  const ulong row = (ulong)c * P + t;
#endif
  for (int x = 0; x < WINO_NP; ++x) v[v_off + (ulong)x * plane + row] = e[x];
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void conv_wino_output(const int K, const int OH, const int OW, const int TH, const int TW, const int n0,
                      const int images, __global const float* m, const ulong m_off, __global const TYPE* bias,
                      const ulong bias_off, __global const TYPE* res, const ulong res_off, __global TYPE* out,
                      const ulong out_off, const uint flags, const real act_p0, const real act_p1) {
  const ulong P = (ulong)images * (ulong)TH * (ulong)TW;
  const ulong id = get_global_id(0);
  if (id >= P * (ulong)K) return;
#if OUT_NHWC
  const ulong t = id / (ulong)K;  // channel fastest: M's rows and the output's are contiguous along k
  const int k = (int)(id % (ulong)K);
  const ulong row = t * (ulong)K + (ulong)k;
#else
  const ulong t = id % P;
  const int k = (int)(id / P);
  const ulong row = (ulong)k * P + t;
#endif
  const int tx = (int)(t % (ulong)TW), ty = (int)(t / (ulong)TW % (ulong)TH);
  const ulong n = (ulong)n0 + t / ((ulong)TW * (ulong)TH);
  const ulong plane = (ulong)K * P;
  float a[WINO_NP];
  for (int x = 0; x < WINO_NP; ++x) a[x] = m[m_off + (ulong)x * plane + row];
  WINO_STORE(a, n, k, ty, tx, K, OH, OW, flags, conv_bias(flags, bias, bias_off, k), res, res_off, out, out_off, act_p0,
           act_p1);
}
