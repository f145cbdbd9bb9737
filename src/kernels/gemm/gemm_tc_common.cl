// C and the bias of the tensor-core kernels (gemm_mma.cl, gemm_wgmma.cl),
// which keep them in CTYPE (gemm_common.cl: half, bf16 or float, which may
// differ from A's and B's type): one element's load and store as `real`, a
// pair's store as one access, the tile order and the epilogue of a pair.
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl

// The parameters both kernels share, with their defaults.
#ifndef SWIZZLE_GROUP
#define SWIZZLE_GROUP 8  // tile rows (along M) visited together, for L2 reuse; 1: row by row
#endif
#ifndef TRANS_A
#define TRANS_A 0        // 0: A stored M x K (K contiguous); 1: stored K x M
#endif
#ifndef TRANS_B
#define TRANS_B 0        // 0: B stored K x N (N contiguous); 1: stored N x K
#endif

#if OPTUNE_BACKEND_CUDA

#define C_LOAD(p, i) GEMM_CLOAD(p, i)
#define C_STORE(v, p, i) GEMM_CSTORE(v, p, i)
// v[0], v[1] at i, i + 1 as one access (p + i aligned to the pair).
#if C_HALF_STORAGE
#define C_STORE2(v, p, i) (*(__global uint*)((p) + (i)) = optune_float2_to_halves((v)[0], (v)[1]))
#elif C_BF16_STORAGE
#define C_STORE2(v, p, i) (*(__global uint*)((p) + (i)) = optune_float2_to_bf16x2((v)[0], (v)[1]))
#elif EPI_DOUBLE
#define C_STORE2(v, p, i) (*(__global double2*)((p) + (i)) = make_double2((v)[0], (v)[1]))
#else
#define C_STORE2(v, p, i) (*(__global float2*)((p) + (i)) = make_float2((v)[0], (v)[1]))
#endif

// The tile (tm, tn) at position pid of a gx x gy grid's launch order. With
// group > 1, groups in launch order visit `group` tile rows at a time, column
// by column within them, so the groups running together share A rows and B
// columns in L2; 1: row by row.
OPTUNE_FUNC void gemm_tc_tile_of(const uint group, const uint pid, const uint gx, const uint gy, uint* tm, uint* tn) {
  *tm = pid / gx, *tn = pid % gx;
  if (group > 1) {
    const uint width = group * gx, first = (pid / width) * group;
    const uint rows = min(gy - first, group);
    *tm = first + (pid % width) % rows;
    *tn = (pid % width) / rows;
  }
}
// The tile this group computes.
OPTUNE_FUNC void gemm_tc_tile(const uint group, uint* tm, uint* tn) {
  gemm_tc_tile_of(group, blockIdx.y * gridDim.x + blockIdx.x, gridDim.x, gridDim.y, tm, tn);
}

// The epilogue's values v of C's elements (row, col) and (row, col + 1),
// whose products are ab0 and ab1: 0 for an element outside C (row_in false,
// or its column at N or beyond), whose C and bias are not read.
OPTUNE_FUNC void gemm_tc_pair_values(const __global CTYPE* cp, const ulong ldc, const ulong N, const bool row_in,
                                     const ulong row, const ulong col, const real ab0, const real ab1,
                                     const real alpha, const real beta, const uint flags,
                                     __global const CTYPE* biasp, const real act_p0, const real act_p1, real* v) {
  const real ab[2] = {ab0, ab1};
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    const bool in = row_in && col + e < N;
    const real old = !in || beta == (real)0 ? (real)0 : C_LOAD(cp, row * ldc + col + e);
    v[e] = in ? gemm_finish(ab[e], alpha, old, beta, gemm_bias(flags, biasp, row, col + e), act_p0, act_p1)
              : (real)0;
  }
}

// The epilogue of C's elements (row, col) and (row, col + 1), whose products
// are ab0 and ab1 (col < N; col + 1 may lie outside C): stored as one pair
// where both lie inside C and the pair is aligned (ldc and c_off may be odd).
OPTUNE_FUNC void gemm_tc_store_pair(__global CTYPE* cp, const ulong ldc, const ulong N, const ulong row,
                                    const ulong col, const real ab0, const real ab1, const real alpha,
                                    const real beta, const uint flags, __global const CTYPE* biasp,
                                    const real act_p0, const real act_p1) {
  const ulong ci = row * ldc + col;
  real v[2];
  gemm_tc_pair_values(cp, ldc, N, true, row, col, ab0, ab1, alpha, beta, flags, biasp, act_p0, act_p1, v);
  if (col + 1 < N && ((size_t)(cp + ci) & (2 * sizeof(CTYPE) - 1)) == 0) {
    C_STORE2(v, cp, ci);
  } else {
    C_STORE(v[0], cp, ci);
    if (col + 1 < N) C_STORE(v[1], cp, ci + 1);
  }
}

#endif  // OPTUNE_BACKEND_CUDA
