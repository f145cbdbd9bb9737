// gemm_wgmma: C = act(alpha * op(A) op(B) + beta * C + bias) on Hopper's
// warpgroup tensor cores (CUDA sm_90a only: wgmma, setmaxnreg and the
// tensor-memory accelerator): f16 or bf16 inputs, or (WG_TF32) f32 inputs
// that a helper pass has rounded to tf32 and laid out K-major, f32
// accumulation, C and the bias in CTYPE (half, bf16 or float). Arguments are
// gemm_mma's, plus three tensor maps (runtime/tensor_map.hpp) that describe A,
// B and (WG_STORE; else a blank) C to the copy engine; so are the grid and
// batching with PERSIST 0 (with PERSIST 1, the host's default, or 2 the
// groups walk the tiles and products: below). OpenCL and
// other CUDA targets see an empty file: the descriptor compiles it with
// OPTUNE_NEED_SM90A, so for sm_90a.
//
// Row-major problem (gemm_common.cl): op(A) is M x K, stored M x K (K
// contiguous) or, with TRANS_A, K x M; op(B) is K x N, stored K x N or, with
// TRANS_B, N x K. Both are read where they lie: the copy engine moves boxes
// of 64 elements (128 bytes) of the contiguous dimension with the 128-byte
// swizzle, and wgmma reads K-major (contiguous along K) or MN-major tiles
// through its shared-memory descriptors (transpose bits).
//
// A group of 3 warpgroups computes a 128 x BN tile of C: warpgroup 0 is the
// producer (one work-item issues the copies of each K tile of 64 into a ring
// of STAGES stages), warpgroups 1 and 2 are the consumers (rows 0-63 and
// 64-127, all BN columns, m64nBNk16 steps, accumulators in registers).
// Stage s has two mbarriers: `full` (the copies' bytes arrived) and
// `empty` (its readers finished: both consumers, or with PERSIST 2 the one
// that owns the tile). Registers move from the producer to the consumers
// with setmaxnreg.
//
//   producer:  wait empty[s] -> expect bytes on full[s] -> copy A, B tiles
//   consumers: wait full[s] -> 4 wgmma (K 64) -> commit -> wait for the
//              previous K tile's wgmma -> arrive empty[previous stage];
//              after a tile's last K tile: wait for all, arrive empty[last
//              stage], store (PERSIST 2: wait turn[own] before the tile's
//              first wait on full, arrive turn[other] after its last)
//
// PERSIST 1: the grid is at most one group per multiprocessor, and each
// group walks the launch's tiles in turn (tile blockIdx.x, then every
// gridDim.x-th), the ring's stages and phases running on across tiles, so
// the producer copies the next tile's first stages while the consumers
// store the last one's. PERSIST 2 (BN 128, "ping-pong"): the same walk, but
// each consumer computes every other tile whole (two m64 blocks of
// accumulators) and alone frees its stages (`empty` counts one arrival), so
// one consumer's stores overlap the other's products. The consumers take
// turns at the ring (mbarriers `turn`): each starts a tile's waits once the
// other has passed all of the previous tile's.
//
// Shared memory (dynamic, WG_SMEM_BYTES): STAGES x (A tile 128 x 64, B tile
// BN x 64) halves, 1024-byte aligned (the swizzle's period). K-major tiles
// are rows of 128 bytes (8-row groups 1024 bytes apart: the descriptor's
// stride); MN-major tiles are boxes of 64 K rows x 128 bytes, one per 64
// columns (8192 bytes apart: the descriptor's leading offset). WG_STORE = 1
// (the host's STORE 1 where C allows it) adds four chunk buffers of 8 KiB
// after the stages, two per consumer, through which C leaves by the copy
// engine (wg_store_chunks; the third tensor map describes C).
//
// tf32 (WG_TF32, TYPE float): wgmma reads tf32 operands K-major only, so
// the host packs A as M x K and B as N x K (gemm_helpers.cl's pad kernels
// with PAD_TF32, which also round them) and builds the kernel with
// TRANS_A 0, TRANS_B 1. A stage then holds 32 K (the same 128-byte rows),
// and each wgmma is m64nBNk8: the same byte offsets as f16's k16.
//
// Split K (nsplit, kspan; gemm_mma's convention): with nsplit > 1 the z of
// a tile (the grid's z, or with PERSIST the walk's) is product z / nsplit,
// range z % nsplit of kspan rows of K (a
// multiple of a stage's K; the last range ends at K), and WG_RAW = 1 stores
// its raw f32 partial product (EPI, no epilogue) as matrix z of the
// temporary c (ld ldc, one matrix every c_stride) for gemm_copy_back to sum
// in range order and finish. nsplit = 1, kspan = K: the plain product.
//
// Edges: the copy engine zero-fills outside the matrices, so M, N and K are
// free; the stores are guarded. The host checks what the copy engine needs:
// 16-byte aligned bases, leading dimensions and batch strides.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl gemm/gemm_tc_common.cl
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DTRANS_A=1 -DTRANS_B=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DTRANS_B=1 -DBN=128 -DSTAGES=6
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DTRANS_A=1 -DCTYPE=float -DC_HALF_STORAGE=0
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=ushort -DBF16_STORAGE=1 -DBN=128
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=ushort -DBF16_STORAGE=1 -DCTYPE=float -DC_BF16_STORAGE=0
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=float -DWG_TF32=1 -DTRANS_B=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=float -DWG_TF32=1 -DTRANS_B=1 -DBN=128 -DSTAGES=6
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DBN=128 -DWG_RAW=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=ushort -DBF16_STORAGE=1 -DTRANS_A=1 -DWG_RAW=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=float -DWG_TF32=1 -DTRANS_B=1 -DWG_RAW=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DPERSIST=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DTRANS_A=1 -DBN=128 -DPERSIST=2
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=float -DWG_TF32=1 -DTRANS_B=1 -DBN=128 -DPERSIST=2 -DWG_RAW=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DWG_STORE=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=ushort -DBF16_STORAGE=1 -DWG_STORE=1 -DPERSIST=1
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=half -DHALF_STORAGE=1 -DBN=128 -DWG_STORE=1 -DPERSIST=2 -DCTYPE=float -DC_HALF_STORAGE=0
// check-variant-cuda: -DOPTUNE_NEED_SM90A=1 -DTYPE=float -DWG_TF32=1 -DTRANS_B=1 -DWG_STORE=1 -DPERSIST=1

#ifndef BN
#define BN 256           // columns of C per group (128 or 256)
#endif
#ifndef STAGES
#define STAGES 4         // shared stages of the copy ring (2 to 6; BN 256: at most 4)
#endif
// SWIZZLE_GROUP, TRANS_A, TRANS_B: gemm_tc_common.cl.
#ifndef WG_TF32
#define WG_TF32 0        // 1: f32 operands (packed K-major, rounded to tf32), m64nBNk8.tf32
#endif
#ifndef WG_RAW
#define WG_RAW 0         // 1: split K, raw partial products (EPI) into the temporary c
#endif
#ifndef PERSIST
#define PERSIST 0        // 0: a group per tile; 1: persistent groups; 2: persistent, consumers on alternate tiles
#endif
#ifndef WG_STORE
#define WG_STORE 0       // 1: C through shared memory and the copy engine (the host sets it where C allows)
#endif
#define WG_PP (PERSIST == 2)                        // ping-pong: each consumer owns whole tiles
#define WG_HALVES (WG_PP ? 2 : 1)                   // m64 accumulator blocks per consumer
#define WG_MAX_GRID_Z 65535                         // the host's launches cover at most this many z
#if WG_RAW
#define WG_OUT EPI
#else
#define WG_OUT CTYPE
#endif
#if OPTUNE_BACKEND_CUDA && defined(__CUDA_ARCH_FEAT_SM90_ALL)

#define WG_BM 128                                   // rows of C per group (two consumers of 64)
#if WG_TF32
#define WG_ESIZE 4                                  // bytes per element
#define WG_KSTEP 8                                  // K per wgmma
#else
#define WG_ESIZE 2
#define WG_KSTEP 16
#endif
#define WG_BK (128 / WG_ESIZE)                      // K per stage: 128 bytes of each row
#define WG_THREADS 384                              // producer + two consumer warpgroups
#define WG_A_BYTES (WG_BM * WG_BK * WG_ESIZE)
#define WG_B_BYTES (BN * WG_BK * WG_ESIZE)
#define WG_STAGE_BYTES (WG_A_BYTES + WG_B_BYTES)
#define WG_CBUF_BYTES 8192                          // a chunk of C: 64 rows x 128 bytes
#define WG_CBUF_ALL (WG_STORE ? 4 * WG_CBUF_BYTES : 0)  // two per consumer
#define WG_SMEM_BYTES (STAGES * WG_STAGE_BYTES + WG_CBUF_ALL + 1024)  // + the 1024-byte alignment
#define WG_ACC (BN / 2)                             // f32 accumulators per work-item
#if BF16_STORAGE
#define WG_AB "bf16"
#else
#define WG_AB "f16"
#endif

static_assert(BN == 128 || BN == 256, "BN: 128 or 256");
static_assert(!WG_TF32 || (TRANS_A == 0 && TRANS_B == 1), "tf32: wgmma reads K-major operands only");
static_assert(!WG_PP || BN == 128, "PERSIST 2: BN 128 (a consumer holds 128 x BN accumulators)");
static_assert(STAGES >= 2 && WG_SMEM_BYTES <= 227 * 1024,
              "the stages and C's chunks exceed 227 KiB");
static_assert(!(WG_STORE && WG_RAW), "split K's partials are stored directly");

// Helpers are inlined by force: the accumulators must stay in registers
// (a call would pass them through local memory, which setmaxnreg's
// register moves leave out of range).
#define WG_FUNC __device__ __forceinline__

// The copy engine's descriptor of a tensor (CUtensorMap), passed by value.
struct __align__(64) optune_tensor_map {
  unsigned long long words[16];
};

WG_FUNC void wg_bar_init(const uint bar, const uint count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
WG_FUNC void wg_bar_expect(const uint bar, const uint bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
WG_FUNC void wg_bar_arrive(const uint bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
WG_FUNC void wg_bar_wait(const uint bar, const uint parity) {
  uint done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
}
// A box at (c0, c1, c2) of the tensor into shared memory at dst; the bytes
// count on the mbarrier bar.
WG_FUNC void wg_copy(const uint dst, const optune_tensor_map* map, const int c0, const int c1, const int c2,
                         const uint bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
      "[%5];" ::"r"(dst),
      "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
      : "memory");
}
// wgmma's shared-memory matrix descriptor with the 128-byte swizzle.
WG_FUNC unsigned long long wg_desc(const uint addr, const uint lead, const uint stride) {
  return (unsigned long long)((addr & 0x3FFFF) >> 4) | ((unsigned long long)(lead >> 4) << 16) |
         ((unsigned long long)(stride >> 4) << 32) | (1ull << 62);
}

// d (64 x BN, f32) += a (64 x WG_KSTEP) b (WG_KSTEP x BN) from the
// descriptors. f16 and bf16: the transpose bits say which operand is
// MN-major: A stored K x M (TRANS_A), B stored K x N (not TRANS_B: wgmma's
// B is N x K when K-major). tf32 has no transpose bits (K-major only).
WG_FUNC void wg_mma(float* d, const unsigned long long da, const unsigned long long db) {
#if WG_TF32 && BN == 256
  asm volatile("{wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" OPTUNE_WG_D128_TEXT "}, %128, %129, 1, 1, 1;}"
               : OPTUNE_WG_D128(d)
               : "l"(da), "l"(db));
#elif WG_TF32
  asm volatile("{wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" OPTUNE_WG_D64_TEXT "}, %64, %65, 1, 1, 1;}"
               : OPTUNE_WG_D64(d)
               : "l"(da), "l"(db));
#elif BN == 256
  asm volatile("{wgmma.mma_async.sync.aligned.m64n256k16.f32." WG_AB "." WG_AB " {" OPTUNE_WG_D128_TEXT
               "}, %128, %129, 1, 1, 1, %130, %131;}"
               : OPTUNE_WG_D128(d)
               : "l"(da), "l"(db), "n"(TRANS_A), "n"(1 - TRANS_B));
#else
  asm volatile("{wgmma.mma_async.sync.aligned.m64n128k16.f32." WG_AB "." WG_AB " {" OPTUNE_WG_D64_TEXT
               "}, %64, %65, 1, 1, 1, %66, %67;}"
               : OPTUNE_WG_D64(d)
               : "l"(da), "l"(db), "n"(TRANS_A), "n"(1 - TRANS_B));
#endif
}

// The tile at position `tile` of the launch's order (tiles of each product
// and K range, then the next), as every role sees it: its product and range
// zs (z0 on), the product z, the range's first row of K kr0, the corner (m0,
// n0) and alpha; returns its K tiles (none where alpha == 0: A and B are not
// read).
WG_FUNC int wg_tile(const ulong tile, const uint gx, const uint gy, const ulong z0, const ulong nsplit,
                    const ulong kspan, const ulong K_all, const uint flags, const real alpha,
                    __global const ulong* table, const ulong batch, ulong* zs, ulong* z, ulong* kr0, int* m0,
                    int* n0, real* alpha_z) {
  const ulong per = (ulong)gx * gy;
  uint tm, tn;
  gemm_tc_tile_of(SWIZZLE_GROUP, (uint)(tile % per), gx, gy, &tm, &tn);
  *zs = z0 + tile / per;
  *m0 = (int)(tm * WG_BM), *n0 = (int)(tn * BN);
  *z = *zs / nsplit, *kr0 = *zs % nsplit * kspan;
  const ulong K = (*kr0 + kspan < K_all ? *kr0 + kspan : K_all) - *kr0;  // the range's length
  *alpha_z = gemm_alpha(flags, alpha, table, batch, *z);
  return *alpha_z == (real)0 ? 0 : (int)((K + WG_BK - 1) / WG_BK);
}

// The epilogue of 64 rows from row0 (a consumer's m64 accumulators d): warp
// w of the warpgroup holds rows 16 w + g and 16 w + g + 8 (g = lane / 4),
// columns 8 j + 2 (lane % 4) and the next, as d[4 j + 2 h], d[4 j + 2 h + 1];
// stored as one pair where both lie inside C and the pair is aligned.
WG_FUNC void wg_store(const float* d, __global WG_OUT* cp, const ulong ldc, const ulong M, const ulong N,
                      const ulong row0, const int n0, const real alpha, const real beta, const uint flags,
                      __global const CTYPE* biasp, const real act_p0, const real act_p1) {
  const int tid = (int)threadIdx.x, lane = tid & 31, w = (tid & 127) >> 5, g = lane >> 2, t4 = lane & 3;
  // No `continue` in these loops: they must unroll, or the accumulators'
  // run-time indices would move them to local memory.
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const ulong row = row0 + w * 16 + h * 8 + g;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
      const ulong col = (ulong)n0 + j * 8 + 2 * t4;
#if WG_RAW
      if (row < M && col < N) cp[row * ldc + col] = (EPI)d[4 * j + 2 * h];
      if (row < M && col + 1 < N) cp[row * ldc + col + 1] = (EPI)d[4 * j + 2 * h + 1];
#else
      if (row < M && col < N)
        gemm_tc_store_pair(cp, ldc, N, row, col, (real)d[4 * j + 2 * h], (real)d[4 * j + 2 * h + 1], alpha, beta,
                           flags, biasp, act_p0, act_p1);
#endif
    }
  }
}

#if WG_STORE
// The copy engine's epilogue: a consumer's 64 x BN block of C leaves in
// chunks of 64 rows x 128 bytes (WG_CCOLS columns), each computed into one of
// the consumer's two chunk buffers in shared memory (the 128-byte swizzle:
// the 16-byte unit u of row r at u ^ (r % 8), so a warp's 8 rows x 16 bytes
// hit every bank once) and sent by one work-item with a bulk tensor store,
// which clips rows and columns outside C. A buffer is rewritten once the
// store of two chunks before has read it (wait_group.read 1); `sent` counts
// the consumer's chunks, so its parity picks the buffer across tiles.
#define WG_CCOLS (128 / (int)sizeof(CTYPE))           // columns of a chunk: 64 (16-bit C) or 32 (f32)
WG_FUNC void wg_named_sync(const int id) { asm volatile("bar.sync %0, 128;" ::"r"(id) : "memory"); }
WG_FUNC void wg_store_chunks(const float* d, const uint cbuf, uint* sent, const optune_tensor_map* map_c,
                             __global const CTYPE* cp, const ulong ldc, const ulong M, const ulong N,
                             const ulong row0, const int n0, const ulong z, const real alpha, const real beta,
                             const uint flags, __global const CTYPE* biasp, const real act_p0, const real act_p1,
                             const int bar_id) {
  const int lt = (int)threadIdx.x & 127, w = lt >> 5, g = (lt & 31) >> 2, t4 = lt & 3;
#pragma unroll
  for (int q = 0; q < BN / WG_CCOLS; ++q) {
    const uint buf = cbuf + (*sent & 1u) * WG_CBUF_BYTES;
    if (lt == 0) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    wg_named_sync(bar_id);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int rl = w * 16 + h * 8 + g;  // row within the 64
      const ulong row = row0 + rl;
#pragma unroll
      for (int jj = 0; jj < WG_CCOLS / 8; ++jj) {
        const int j = q * (WG_CCOLS / 8) + jj, cl = jj * 8 + 2 * t4;  // column within the chunk
        const ulong col = (ulong)n0 + j * 8 + 2 * t4;
        real v[2];
        gemm_tc_pair_values(cp, ldc, N, row < M, row, col, (real)d[4 * j + 2 * h], (real)d[4 * j + 2 * h + 1], alpha,
                            beta, flags, biasp, act_p0, act_p1, v);
        const uint byte = (uint)(cl * (int)sizeof(CTYPE));
        const uint at = buf + rl * 128 + ((((byte >> 4) ^ (uint)(rl & 7)) << 4) | (byte & 15u));
#if C_HALF_STORAGE
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(at), "r"(optune_float2_to_halves(v[0], v[1])) : "memory");
#elif C_BF16_STORAGE
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(at), "r"(optune_float2_to_bf16x2(v[0], v[1])) : "memory");
#else
        asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"((float)v[0]), "f"((float)v[1]) : "memory");
#endif
      }
    }
    // The writes, then the copy engine's read of them (the async proxy).
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    wg_named_sync(bar_id);
    if (lt == 0) {
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(
                       (unsigned long long)map_c),
                   "r"(n0 + q * WG_CCOLS), "r"((int)row0), "r"((int)z), "r"(buf)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    }
    ++*sent;
  }
}
#endif

__kernel __launch_bounds__(WG_THREADS, 1)
void gemm_wgmma(const ulong M, const ulong N, const ulong K_all, const real alpha, const real beta,
                __global const TYPE* restrict a, const ulong a_off, const ulong lda, const ulong a_stride,
                __global const TYPE* restrict b, const ulong b_off, const ulong ldb, const ulong b_stride,
                __global WG_OUT* c, const ulong c_off, const ulong ldc, const ulong c_stride,
                __global const CTYPE* restrict bias, const ulong bias_off,
                __global const ulong* restrict table, const ulong batch, const uint flags, const ulong z0,
                const real act_p0, const real act_p1, const ulong nsplit, const ulong kspan,
                const __grid_constant__ optune_tensor_map map_a,
                const __grid_constant__ optune_tensor_map map_b,
                const __grid_constant__ optune_tensor_map map_c) {
  extern __shared__ __align__(1024) uchar wg_smem_raw[];
  __shared__ __align__(8) ulong wg_full[STAGES], wg_empty[STAGES], wg_turn[2];
  const uint smem = ((uint)__cvta_generic_to_shared(wg_smem_raw) + 1023u) & ~1023u;
  const int tid = (int)threadIdx.x, wg = tid / 128;
  const __global CTYPE* biasp = bias + bias_off;

  // The launch's tiles: gx x gy for each (product, K range) z0 + 0 ..
  // zcount - 1. One per group, or (PERSIST) the groups walk them in turn.
#if PERSIST
  const uint gx = (uint)((N + BN - 1) / BN), gy = (uint)((M + WG_BM - 1) / WG_BM);
  const ulong zall = batch * nsplit - z0;
  const ulong zcount = zall < WG_MAX_GRID_Z ? zall : WG_MAX_GRID_Z;  // the host's launches of z
  const ulong first = blockIdx.x, stride = gridDim.x;
#else
  const uint gx = gridDim.x, gy = gridDim.y;
  const ulong zcount = gridDim.z;
  const ulong first = ((ulong)blockIdx.z * gy + blockIdx.y) * gx + blockIdx.x;
  const ulong stride = (ulong)gx * gy * zcount;
#endif
  const ulong tiles = (ulong)gx * gy * zcount;

  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) {
      wg_bar_init((uint)__cvta_generic_to_shared(&wg_full[s]), 1);
      wg_bar_init((uint)__cvta_generic_to_shared(&wg_empty[s]), WG_PP ? 1 : 2);
    }
    for (int w = 0; w < 2; ++w) wg_bar_init((uint)__cvta_generic_to_shared(&wg_turn[w]), 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  // Every role walks the same tiles in the same order (wg_tile): the ring's
  // stage and phase follow the count `it` of K tiles so far.
  if (wg == 0) {
    // The producer: registers go to the consumers; one work-item copies.
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (tid == 0) {
      uint it = 0;
      for (ulong tile = first; tile < tiles; tile += stride) {
        ulong zs, z, kr0;
        int m0, n0;
        real alpha_z;
        const int steps =
            wg_tile(tile, gx, gy, z0, nsplit, kspan, K_all, flags, alpha, table, batch, &zs, &z, &kr0, &m0, &n0, &alpha_z);
        for (int t = 0; t < steps; ++t, ++it) {
          const uint s = it % STAGES;
          if (it >= STAGES) wg_bar_wait((uint)__cvta_generic_to_shared(&wg_empty[s]), (it / STAGES - 1) & 1);
          const uint full = (uint)__cvta_generic_to_shared(&wg_full[s]);
          wg_bar_expect(full, WG_STAGE_BYTES);
          const uint sa = smem + s * WG_STAGE_BYTES, sb = sa + WG_A_BYTES;
          const int k0 = (int)kr0 + t * WG_BK;
#if TRANS_A
          // K x M: boxes of 64 K rows x 64 columns, one per 64 rows of C.
          wg_copy(sa, &map_a, m0, k0, (int)z, full);
          wg_copy(sa + WG_BK * 128, &map_a, m0 + 64, k0, (int)z, full);
#else
          wg_copy(sa, &map_a, k0, m0, (int)z, full);  // 128 rows of WG_BK K
#endif
#if TRANS_B
          wg_copy(sb, &map_b, k0, n0, (int)z, full);  // BN rows of WG_BK K
#else
#pragma unroll
          for (int j = 0; j < BN / 64; ++j) wg_copy(sb + j * (WG_BK * 128), &map_b, n0 + 64 * j, k0, (int)z, full);
#endif
        }
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    // The consumer: rows 64 cw .. 64 cw + 63 of every tile, or (WG_PP) all
    // 128 rows of every other tile (the tiles 2 i + cw of its group's walk).
    const int cw = wg - 1;
    float d[WG_HALVES * WG_ACC];
    uint it = 0;
#if WG_STORE
    uint sent = 0;  // chunks of C this consumer has sent (wg_store_chunks)
    const uint cbuf = smem + STAGES * WG_STAGE_BYTES + (uint)cw * 2 * WG_CBUF_BYTES;
#endif
    ulong walk = 0;
    for (ulong tile = first; tile < tiles; tile += stride, ++walk) {
      ulong zs, z, kr0;
      int m0, n0;
      real alpha_z;
      const int steps =
          wg_tile(tile, gx, gy, z0, nsplit, kspan, K_all, flags, alpha, table, batch, &zs, &z, &kr0, &m0, &n0, &alpha_z);
      if (WG_PP && (int)(walk & 1) != cw) {
        it += (uint)steps;  // the other consumer's tile
      } else {
        // WG_PP: the consumers take turns at the ring (each tile's K tiles
        // after the previous tile's, which the other consumer signals once
        // its waits are done), or one could wait on a stage two uses ahead,
        // which the barrier's one-bit phase cannot tell from the last one.
        if (WG_PP && walk > 0)
          wg_bar_wait((uint)__cvta_generic_to_shared(&wg_turn[cw]), (uint)((walk - 1) / 2) & 1);
#pragma unroll
        for (int i = 0; i < WG_HALVES * WG_ACC; ++i) d[i] = 0.0f;
        for (int t = 0; t < steps; ++t, ++it) {
          const uint s = it % STAGES;
          wg_bar_wait((uint)__cvta_generic_to_shared(&wg_full[s]), (it / STAGES) & 1);
          const uint sa = smem + s * WG_STAGE_BYTES, sb = sa + WG_A_BYTES;
          asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
          for (int kk = 0; kk < WG_BK / WG_KSTEP; ++kk) {
            // K-major: one step of K (16 halves or 8 floats) = 32 bytes along
            // the row; MN-major (f16 and bf16 only): 16 K rows.
#if TRANS_B
            const unsigned long long db = wg_desc(sb + kk * 32, 16, 1024);
#else
            const unsigned long long db = wg_desc(sb + kk * 2048, WG_BK * 128, 1024);
#endif
#pragma unroll
            for (int hv = 0; hv < WG_HALVES; ++hv) {
              const int r = WG_PP ? hv : cw;  // which 64 rows of the tile
#if TRANS_A
              const unsigned long long da = wg_desc(sa + r * (WG_BK * 128) + kk * 2048, 8192, 1024);
#else
              const unsigned long long da = wg_desc(sa + r * (64 * 128) + kk * 32, 16, 1024);
#endif
              wg_mma(d + hv * WG_ACC, da, db);
            }
          }
          asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
          // The previous K tile's products are done: its stage is free.
          asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
          if (t > 0 && tid % 128 == 0) wg_bar_arrive((uint)__cvta_generic_to_shared(&wg_empty[(it - 1) % STAGES]));
        }
        if (WG_PP && tid % 128 == 0) wg_bar_arrive((uint)__cvta_generic_to_shared(&wg_turn[1 - cw]));
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        if (steps > 0 && tid % 128 == 0) wg_bar_arrive((uint)__cvta_generic_to_shared(&wg_empty[(it - 1) % STAGES]));

#if WG_RAW
        __global EPI* cp = c + c_off + zs * c_stride;  // the temporary: never listed
#else
        __global CTYPE* cp = c + c_off + z * c_stride;
#endif
        const real beta_z = gemm_beta(flags, beta, table, batch, z);
#pragma unroll
        for (int hv = 0; hv < WG_HALVES; ++hv)
#if WG_STORE
          wg_store_chunks(d + hv * WG_ACC, cbuf, &sent, &map_c, cp, ldc, M, N, (ulong)m0 + 64 * (WG_PP ? hv : cw), n0,
                          z, alpha_z, beta_z, flags, biasp, act_p0, act_p1, 1 + cw);
#else
          wg_store(d + hv * WG_ACC, cp, ldc, M, N, (ulong)m0 + 64 * (WG_PP ? hv : cw), n0, alpha_z, beta_z, flags,
                   biasp, act_p0, act_p1);
#endif
      }
    }
#if WG_STORE
    // The last stores must have read shared memory before the group ends.
    if ((tid & 127) == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
  }
}

#endif  // OPTUNE_BACKEND_CUDA && __CUDA_ARCH_FEAT_SM90_ALL
