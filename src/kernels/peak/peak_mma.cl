// peak_mma: the tensor cores' rate ceiling (CUDA only; OpenCL and targets
// without the instructions see an empty file). No memory traffic in the
// loop: every element of A and B is one value x (the host passes its bits,
// `x_bits`: two 16-bit copies for f16 and bf16, f32 bits for tf32), so each
// product adds exactly K x^2 to every accumulator and the output is known.
//
// WGMMA = 0 (compute capability 8.0+): each warp runs ITERS rounds of
// CHAINS independent mma.sync products on fragments held in registers
// (m16n8k16 for f16 and bf16, m16n8k8 for tf32; f32 accumulators), then
// each work-item writes the sum of its 4 CHAINS accumulators.
// WGMMA = 1 (sm_90a: the descriptor sets OPTUNE_NEED_SM90A): each
// warpgroup runs ITERS rounds of UNROLL wgmma.mma_async m64n256k16 (tf32:
// m64n256k8) on A (64 x K) and B (256 x K) in shared memory, filled once;
// a round is one commit group and the next is issued before the last one is
// waited for. Each work-item writes the sum of its 128 accumulators.
//
// MMA_TYPE: 0 f16, 1 bf16, 2 tf32.
//
// check-variant-cuda: -DMMA_TYPE=0
// check-variant-cuda: -DMMA_TYPE=1 -DWGS=256
// check-variant-cuda: -DMMA_TYPE=2 -DITERS=64
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DWGMMA=1 -DMMA_TYPE=0
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DWGMMA=1 -DMMA_TYPE=1 -DWGS=256
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DWGMMA=1 -DMMA_TYPE=2

#ifndef MMA_TYPE
#define MMA_TYPE 0       // 0 f16, 1 bf16, 2 tf32
#endif
#ifndef WGMMA
#define WGMMA 0          // 0: mma.sync per warp; 1: wgmma per warpgroup (sm_90a)
#endif
#ifndef WGS
#define WGS 128          // work-items per group (a multiple of 128 with WGMMA)
#endif
#ifndef ITERS
#define ITERS 1024       // rounds per warp (warpgroup)
#endif
#define CHAINS 8         // mma.sync: independent accumulator fragments per warp
#define UNROLL 4         // wgmma: products per commit group

#if OPTUNE_BACKEND_CUDA && !WGMMA && OPTUNE_HAS_CP_ASYNC

#if MMA_TYPE == 0
#define PEAK_MMA optune_mma_f16_16816
#elif MMA_TYPE == 1
#define PEAK_MMA optune_mma_bf16_16816
#else
#define PEAK_MMA optune_mma_tf32_1688
#endif

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void peak_mma(__global float* restrict out, const uint x_bits) {
  const uint a[4] = {x_bits, x_bits, x_bits, x_bits}, b[2] = {x_bits, x_bits};
  float d[CHAINS][4];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c)
#pragma unroll
    for (int j = 0; j < 4; ++j) d[c][j] = 0.0f;
  for (int i = 0; i < ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) PEAK_MMA(d[c], a, b);
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += (d[c][0] + d[c][1]) + (d[c][2] + d[c][3]);
  out[get_global_id(0)] = s;
}

#elif OPTUNE_BACKEND_CUDA && WGMMA && defined(__CUDA_ARCH_FEAT_SM90_ALL)

#if MMA_TYPE == 0
#define PEAK_WG_OP "m64n256k16.f32.f16.f16"
#define PEAK_WG_TAIL ", 1, 1, 1, 0, 0;}"  // scale-d, scales of A and B, both K-major
#elif MMA_TYPE == 1
#define PEAK_WG_OP "m64n256k16.f32.bf16.bf16"
#define PEAK_WG_TAIL ", 1, 1, 1, 0, 0;}"
#else
#define PEAK_WG_OP "m64n256k8.f32.tf32.tf32"
#define PEAK_WG_TAIL ", 1, 1, 1;}"        // tf32: K-major only, no transpose operands
#endif
// A 64 x K and B 256 x K, K-major, without swizzle: core matrices of 8 rows
// of 16 bytes (K = 16 halves or 8 floats is two of them along K), 128 bytes
// apart along K and 256 bytes apart along M (N): A spans 2 KiB, B 8 KiB. The
// buffer is larger (A at 0, B at 8 KiB, 32 KiB in all, every word x), so the
// reads stay inside it however the strides are read.
#define PEAK_A_BYTES 8192
#define PEAK_SMEM_BYTES 32768

__device__ __forceinline__ unsigned long long peak_desc(const uint addr) {
  return (unsigned long long)((addr & 0x3FFFF) >> 4) | ((unsigned long long)(128 >> 4) << 16) |
         ((unsigned long long)(256 >> 4) << 32);
}

// d (64 x 256 per warpgroup, 128 f32 per work-item) += A B.
__device__ __forceinline__ void peak_wgmma(float* d, const unsigned long long da, const unsigned long long db) {
  asm volatile("{wgmma.mma_async.sync.aligned." PEAK_WG_OP " {" OPTUNE_WG_D128_TEXT "}, %128, %129" PEAK_WG_TAIL
               : OPTUNE_WG_D128(d)
               : "l"(da), "l"(db));
}

static_assert(WGS % 128 == 0, "WGMMA: whole warpgroups");

__kernel __launch_bounds__(WGS, 1)
void peak_mma(__global float* restrict out, const uint x_bits) {
  __shared__ __align__(1024) uint peak_smem[PEAK_SMEM_BYTES / 4];
  for (int i = (int)threadIdx.x; i < PEAK_SMEM_BYTES / 4; i += WGS) peak_smem[i] = x_bits;
  // The generic proxy's stores become visible to wgmma's (async proxy) reads.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint base = (uint)__cvta_generic_to_shared(peak_smem);
  const unsigned long long da = peak_desc(base), db = peak_desc(base + PEAK_A_BYTES);
  float d[128];
#pragma unroll
  for (int j = 0; j < 128; ++j) d[j] = 0.0f;
  for (int i = 0; i < ITERS; ++i) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) peak_wgmma(d, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  float s = 0.0f;
#pragma unroll
  for (int j = 0; j < 128; ++j) s += d[j];
  out[get_global_id(0)] = s;
}

#endif
