// C and the bias of the tensor-core kernels (gemm_mma.cl, gemm_wgmma.cl),
// which keep them in CTYPE (gemm_common.cl: half, bf16 or float, which may
// differ from A's and B's type): one element's load and store as `real`, a
// pair's store as one access.
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl
#if OPTUNE_BACKEND_CUDA

#define C_LOAD(p, i) GEMM_CLOAD(p, i)
#define C_STORE(v, p, i) GEMM_CSTORE(v, p, i)
// v[0], v[1] at i, i + 1 as one access (p + i aligned to the pair).
#if C_HALF_STORAGE
#define C_STORE2(v, p, i) (*(__global uint*)((p) + (i)) = optune_float2_to_halves((v)[0], (v)[1]))
#elif C_BF16_STORAGE
#define C_STORE2(v, p, i) (*(__global uint*)((p) + (i)) = optune_float2_to_bf16x2((v)[0], (v)[1]))
#else
#define C_STORE2(v, p, i) (*(__global float2*)((p) + (i)) = make_float2((v)[0], (v)[1]))
#endif

#endif  // OPTUNE_BACKEND_CUDA
