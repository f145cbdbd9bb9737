// C and the bias of the tensor-core kernels (gemm_mma.cl, gemm_wgmma.cl),
// which keep them in a storage type of their own, CTYPE: its defaults, one
// element's load and store as `real`, and the bias of an element of C.
// Prepended after gemm_common.cl; the kernels' own defines come first.
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl
#if OPTUNE_BACKEND_CUDA
#ifndef CTYPE
#define CTYPE TYPE       // storage type of C and the bias
#endif
#ifndef C_HALF_STORAGE
#define C_HALF_STORAGE HALF_STORAGE  // 1: CTYPE is half
#endif
#ifndef C_BF16_STORAGE
#define C_BF16_STORAGE BF16_STORAGE  // 1: CTYPE is ushort holding bf16
#endif

// One element of C or the bias as `real`, and back; C_STORE2 stores v[0],
// v[1] at i, i + 1 as one access (p + i aligned to the pair).
#if C_HALF_STORAGE
#define C_LOAD(p, i) vload_half((i), (p))
#define C_STORE(v, p, i) vstore_half((float)(v), (i), (p))
#define C_STORE2(v, p, i) (*(__global uint*)((p) + (i)) = optune_float2_to_halves((v)[0], (v)[1]))
#elif C_BF16_STORAGE
#define C_LOAD(p, i) gemm_bf16_to_float((p)[i])
#define C_STORE(v, p, i) ((p)[i] = gemm_float_to_bf16((float)(v)))
#define C_STORE2(v, p, i) \
  (*(__global uint*)((p) + (i)) = (uint)gemm_float_to_bf16((v)[0]) | ((uint)gemm_float_to_bf16((v)[1]) << 16))
#else
#define C_LOAD(p, i) ((real)(p)[i])
#define C_STORE(v, p, i) ((p)[i] = (CTYPE)(v))
#define C_STORE2(v, p, i) (*(__global float2*)((p) + (i)) = make_float2((v)[0], (v)[1]))
#endif

// The bias of element (i, j) of C, in CTYPE.
OPTUNE_FUNC real gemm_tc_bias(const uint flags, __global const CTYPE* bias, const ulong i, const ulong j) {
  return (flags & GEMM_BIAS_ROW) ? C_LOAD(bias, i) : (flags & GEMM_BIAS_COL) ? C_LOAD(bias, j) : (real)0;
}

#endif  // OPTUNE_BACKEND_CUDA
