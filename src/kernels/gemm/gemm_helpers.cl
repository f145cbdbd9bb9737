// gemm_helpers: the passes around gemm_tiled (CLBlast's pad, pad-transpose
// and copy-back kernels), for operands that do not fit its layout.
//
// gemm_pad / gemm_pad_transpose: dst, a dense dst_rows x dst_cols matrix per
// product (batch stride dst_rows * dst_cols), gets
//   dst(r, c) = src(r, c)   (gemm_pad: element r * ld + c)
//   dst(r, c) = src(c, r)   (gemm_pad_transpose: element c * ld + r)
// for r < rows and c < cols, and zero in the padding. The transposing kernel
// goes through a TILE x TILE local tile so that both its reads and its
// writes are coalesced:
//
//   src (contiguous along r)        dst (contiguous along c)
//   +-----------+                   +-----------+
//   | tile[c][r] | --- barrier ---> | tile^T    |
//   +-----------+                   +-----------+
//
// gemm_copy_back: C(i, j) = act(alpha * P(i, j) + beta * C(i, j) + bias) for
// i < M, j < N, where P is the tiled kernel's padded raw product (EPI, ld
// ldp, one matrix every p_stride); C and the bias are CTYPE. A product split
// along K has nsplit partial matrices (product z's at z * nsplit + t), and P
// is their sum, added in order t = 0, 1, ... (deterministic, no atomics).
//
// PAD_TF32 (CUDA, f32): the pads also round every value to tf32 (nearest,
// ties away: the prelude's optune_tf32), for gemm_wgmma's tf32 path, whose
// operands must be packed K-major anyway.
//
// All three take the batch in the third grid dimension (z0 + group z). The
// pads read their source's offsets from column `which` of the table (0 A,
// 1 B) when `list` is set.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl
// check-variant: -DTILE=8 -DTYPE=half -DHALF_STORAGE=1
// check-variant: -DTYPE=bf16 -DBF16_STORAGE=1 -DCTYPE=float -DC_BF16_STORAGE=0
// check-variant: -DTYPE=double -DEPI=double -DEPI_DOUBLE=1
// check-variant-cuda: -DPAD_TF32=1

#ifndef TILE
#define TILE 16          // side of a group's tile (work-items TILE x TILE)
#endif
#ifndef PAD_TF32
#define PAD_TF32 0       // 1: round the padded values to tf32 (CUDA, f32 only)
#endif
#if PAD_TF32
#define PAD_VALUE(v) as_float(optune_tf32(as_uint(v)))
#else
#define PAD_VALUE(v) (v)
#endif

__kernel OPTUNE_WG_SIZE(TILE, TILE, 1)
void gemm_pad(const ulong rows, const ulong cols, const ulong dst_rows, const ulong dst_cols,
              __global const TYPE* restrict src, const ulong src_off, const ulong ld, const ulong src_stride,
              __global TYPE* restrict dst, __global const ulong* restrict table, const uint list,
              const uint which, const ulong z0) {
  const ulong z = z0 + get_group_id(2);
  const ulong c = get_global_id(0), r = get_global_id(1);
  if (r >= dst_rows || c >= dst_cols) return;
  const __global TYPE* s = src + GEMM_OFFSET(list, src_off, src_stride, table, z, which);
  const real v = (r < rows && c < cols) ? PAD_VALUE(GEMM_LOAD(s, r * ld + c)) : (real)0;
  GEMM_STORE(v, dst, z * dst_rows * dst_cols + r * dst_cols + c);
}

__kernel OPTUNE_WG_SIZE(TILE, TILE, 1)
void gemm_pad_transpose(const ulong rows, const ulong cols, const ulong dst_rows, const ulong dst_cols,
                        __global const TYPE* restrict src, const ulong src_off, const ulong ld,
                        const ulong src_stride, __global TYPE* restrict dst, __global const ulong* restrict table,
                        const uint list, const uint which, const ulong z0) {
  __local real tile[TILE][TILE + 1];
  const ulong z = z0 + get_group_id(2);
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
  const ulong r0 = get_group_id(0) * TILE, c0 = get_group_id(1) * TILE;
  const __global TYPE* s = src + GEMM_OFFSET(list, src_off, src_stride, table, z, which);
  // Read: lx runs along r, the source's contiguous dimension.
  const ulong rr = r0 + lx, cr = c0 + ly;
  tile[ly][lx] = (rr < rows && cr < cols) ? PAD_VALUE(GEMM_LOAD(s, cr * ld + rr)) : (real)0;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Write: lx runs along c, the destination's contiguous dimension.
  const ulong rw = r0 + ly, cw = c0 + lx;
  if (rw < dst_rows && cw < dst_cols) GEMM_STORE(tile[lx][ly], dst, z * dst_rows * dst_cols + rw * dst_cols + cw);
}

__kernel OPTUNE_WG_SIZE(TILE, TILE, 1)
void gemm_copy_back(const ulong M, const ulong N, const real alpha, const real beta,
                    __global const EPI* restrict p, const ulong ldp, const ulong p_stride, const ulong nsplit,
                    __global CTYPE* c, const ulong c_off, const ulong ldc, const ulong c_stride,
                    __global const CTYPE* restrict bias, const ulong bias_off,
                    __global const ulong* restrict table, const ulong batch, const uint flags, const ulong z0,
                    const real act_p0, const real act_p1) {
  const ulong z = z0 + get_group_id(2);
  const ulong j = get_global_id(0), i = get_global_id(1);
  if (i >= M || j >= N) return;
  __global CTYPE* cp = c + GEMM_OFFSET(flags & GEMM_C_LIST, c_off, c_stride, table, z, 2);
  const real alpha_z = gemm_alpha(flags, alpha, table, batch, z);
  const real beta_z = gemm_beta(flags, beta, table, batch, z);
  const ulong ci = i * ldc + j;
  const real old = beta_z == (real)0 ? (real)0 : GEMM_CLOAD(cp, ci);
  const __global EPI* pz = p + z * nsplit * p_stride + i * ldp + j;
  // Eight ranges' loads at a time (one wait on memory per eight, not per
  // range), added in range order.
  real sum = (real)0;
  for (ulong t0 = 0; t0 < nsplit; t0 += 8) {
    EPI v[8];
#pragma unroll
    for (int u = 0; u < 8; ++u) v[u] = t0 + u < nsplit ? pz[(t0 + u) * p_stride] : (EPI)0;
#pragma unroll
    for (int u = 0; u < 8; ++u)
      if (t0 + u < nsplit) sum = t0 + u == 0 ? (real)v[u] : sum + (real)v[u];
  }
  const real v = gemm_finish(sum, alpha_z, old, beta_z,
                             gemm_bias(flags, bias + bias_off, i, j), act_p0, act_p1);
  GEMM_CSTORE(v, cp, ci);
}
