// gemm_mma: C = act(alpha * op(A) op(B) + beta * C + bias) on the tensor
// cores through mma.sync (CUDA, compute capability 8.0 or newer): f16 or
// bf16 inputs (m16n8k16), or f32 inputs rounded to tf32 (MMA_TF32,
// m16n8k8) or split into two tf32 parts each and multiplied as three tf32
// products (MMA_X3: f32's accuracy), accumulated in f32; C and the bias in CTYPE (half, bf16 or
// float). With MMA_F64 (compute capability 9.0), f64 inputs, accumulators,
// C and bias on the FP64 tensor cores (m16n8k8 f64: twice the rate of
// sm_80's m8n8k4 on an H100); its fragments are read as single doubles
// (ldmatrix moves 16-bit elements only). Arguments, grid and batching are gemm_direct's; OpenCL never sees
// the kernel (the file is empty there).
//
// The parameters, the tile layout and the fragment loads are in
// gemm_mma_defs.cl.
//
// Row-major problem (gemm_common.cl): op(A) is M x K, stored M x K (K
// contiguous) or, with TRANS_A, K x M (M contiguous); op(B) is K x N, stored
// K x N or, with TRANS_B, N x K. Both layouts are read in place: the tiles
// are copied as they lie and ldmatrix (.trans where the operand's
// contiguous dimension is M or N) builds the fragments.
//
// A group computes a BM x BN tile of C with (BM / WM) x (BN / WN) warps, each
// a WM x WN tile of m16n8 products; K advances by BK through STAGES shared
// stages filled by cp.async (16 bytes per copy, zero-filled past the edges):
//
//                      BN
//             +-----------------+
//        BK   |  B stage s      |        tiles t+1 .. t+STAGES-1 in flight
//             +-----------------+        while tile t is multiplied
//   +----+    +--------+--------+
//   | A  |    | warp 0 | warp 1 |  WM    warp (wm, wn): MI x NI fragments of
// BM|    |    +--------+--------+        16 x 8, MI = WM/16, NI = WN/8,
//   |    |    | warp 2 | warp 3 |        4 f32 accumulators each per lane
//   +----+    +--------+--------+
//     BK          WN
//
// Shared memory: each stage holds the tiles as rows of their contiguous
// dimension in 16-byte chunks; chunk q sits at q ^ ((q >> SHIFT) & 7), so
// the 8 rows one ldmatrix phase reads (and the 8 chunks of a 128-byte line
// a cp.async phase writes) fall in distinct banks.
//
// Applicability (the host checks): the contiguous dimension's leading
// dimension, the offsets and batch strides (and list offsets) of A and B
// are multiples of 16 bytes (8 f16/bf16 or 4 f32 elements); M, N and K are
// free (edge chunks are zero-filled, stores guarded). C, ldc and the bias
// have no alignment condition.
//
// Split K (the last two arguments): with nsplit > 1 group z of the grid is
// product z / nsplit, range z % nsplit of `kspan` rows of K (a multiple of
// BK; the last range ends at K), and MMA_RAW = 1 stores its raw partial
// product (EPI, no epilogue) as matrix z of the temporary c (ld ldc, one
// matrix every c_stride), for gemm_copy_back to sum in range order and
// finish. With MMA_FUSE = 1 instead, c is C itself and two more arguments
// follow: every range writes its raw partial into `part` (matrix zs of M x N,
// dense), fences it and counts its arrival on the tile's ticket
// (tickets[(z tiles + tile)], zero before the launch); the range that draws
// nsplit - 1 reads the nsplit partials back from L2 (ld.global.cg, past the
// L1 that may hold stale lines) in range order (deterministic, whatever order
// the groups finished in), applies the epilogue and sets the ticket back to
// 0, so the tickets (scratch slot 7, zeroed when allocated) are zero again
// for the next call: one launch where MMA_RAW takes two.
// nsplit = 1, kspan = K: the plain product.
//
// Launch: 1-D groups of MMA_THREADS work-items; grid (ceil(N/BN) groups,
// ceil(M/BM), batch x nsplit) with z0 as in gemm_direct. Shared memory: MMA_SMEM_BYTES
// = STAGES * (BM + BN) * BK * element bytes, static up to 48 KiB; above
// that it is dynamic: the launch passes MMA_SMEM_BYTES and the function
// needs CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES raised to it.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl gemm/gemm_tc_common.cl gemm/gemm_mma_defs.cl
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DTRANS_A=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DTRANS_B=1 -DCTYPE=float -DC_HALF_STORAGE=0
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DTRANS_A=1 -DTRANS_B=1 -DCTYPE=ushort -DC_HALF_STORAGE=0 -DC_BF16_STORAGE=1
// check-variant-cuda: -DTYPE=ushort -DBF16_STORAGE=1
// check-variant-cuda: -DTYPE=ushort -DBF16_STORAGE=1 -DTRANS_A=1 -DTRANS_B=1 -DCTYPE=float -DC_BF16_STORAGE=0
// check-variant-cuda: -DTYPE=ushort -DBF16_STORAGE=1 -DTRANS_B=1 -DCTYPE=half -DC_BF16_STORAGE=0 -DC_HALF_STORAGE=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DBM=64 -DBN=64 -DBK=64 -DWM=32 -DWN=32 -DSTAGES=4 -DSWIZZLE_GROUP=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DBM=128 -DBN=256 -DBK=32 -DWM=64 -DWN=64 -DSTAGES=4 -DTRANS_B=1
// check-variant-cuda: -DTYPE=ushort -DBF16_STORAGE=1 -DBM=256 -DBN=128 -DBK=32 -DWM=64 -DWN=64 -DSTAGES=3 -DTRANS_A=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DBM=32 -DBN=32 -DBK=32 -DWM=16 -DWN=16 -DSTAGES=2
// check-variant-cuda: -DMMA_TF32=1
// check-variant-cuda: -DMMA_TF32=1 -DTRANS_A=1 -DTRANS_B=1 -DBK=16
// check-variant-cuda: -DMMA_TF32=1 -DMMA_X3=1 -DBM=16 -DWM=16 -DBN=128 -DWN=32 -DBK=16 -DSTAGES=4
// check-variant-cuda: -DMMA_TF32=1 -DMMA_X3=1 -DTRANS_B=1 -DMMA_RAW=1 -DBM=32 -DWM=16 -DBN=64 -DWN=32
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DBM=16 -DWM=16 -DBN=128 -DWN=32 -DSTAGES=4 -DMMA_RAW=1
// check-variant-cuda: -DMMA_TF32=1 -DTRANS_B=1 -DCTYPE=half -DC_HALF_STORAGE=1 -DBM=64 -DBN=64 -DWM=32 -DWN=32
// check-variant-cuda: -DTYPE=double -DCTYPE=double -DEPI=double -DEPI_DOUBLE=1 -DCOMP=double -DMMA_F64=1 -DMMA_TF32=0 -DWM=64 -DWN=32 -DBM=128 -DBN=128 -DBK=16
// check-variant-cuda: -DTYPE=double -DCTYPE=double -DEPI=double -DEPI_DOUBLE=1 -DCOMP=double -DMMA_F64=1 -DMMA_TF32=0 -DTRANS_A=1 -DTRANS_B=1 -DBM=64 -DBN=64 -DWM=32 -DWN=32
// check-variant-cuda: -DTYPE=double -DCTYPE=double -DEPI=double -DEPI_DOUBLE=1 -DCOMP=double -DMMA_F64=1 -DMMA_TF32=0 -DMMA_RAW=1 -DWM=64 -DWN=32 -DBM=128 -DBN=128 -DBK=16
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DMMA_RAW=1 -DTRANS_B=1
// check-variant-cuda: -DTYPE=half -DHALF_STORAGE=1 -DBM=16 -DWM=16 -DBN=128 -DWN=32 -DSTAGES=4 -DMMA_FUSE=1
// check-variant-cuda: -DMMA_TF32=1 -DMMA_X3=1 -DTRANS_B=1 -DMMA_FUSE=1 -DBM=16 -DWM=16 -DBN=128 -DWN=32 -DBK=16 -DSTAGES=4
// check-variant-cuda: -DTYPE=double -DCTYPE=double -DEPI=double -DEPI_DOUBLE=1 -DCOMP=double -DMMA_F64=1 -DMMA_TF32=0 -DMMA_FUSE=1 -DWM=64 -DWN=32 -DBM=128 -DBN=128 -DBK=16
// check-variant-cuda: -DTYPE=double -DCTYPE=double -DEPI=double -DEPI_DOUBLE=1 -DCOMP=double -DMMA_F64=1 -DMMA_TF32=0 -DFULL_TILES=0 -DTRANS_B=1 -DWM=64 -DWN=32 -DBM=64 -DBN=128 -DBK=32
// check-variant-cuda: -DTYPE=double -DCTYPE=double -DEPI=double -DEPI_DOUBLE=1 -DCOMP=double -DMMA_F64=1 -DMMA_TF32=0 -DTRANS_A=1 -DWM=32 -DWN=32 -DBM=64 -DBN=64 -DBK=64 -DSTAGES=2

#if OPTUNE_BACKEND_CUDA && MMA_ARCH_OK
__kernel OPTUNE_WG_SIZE(MMA_THREADS, 1, 1)
void gemm_mma(const ulong M, const ulong N, const ulong K_all, const real alpha, const real beta,
              __global const TYPE* restrict a, const ulong a_off, const ulong lda, const ulong a_stride,
              __global const TYPE* restrict b, const ulong b_off, const ulong ldb, const ulong b_stride,
              __global MMA_OUT* c, const ulong c_off, const ulong ldc, const ulong c_stride,
              __global const CTYPE* restrict bias, const ulong bias_off,
              __global const ulong* restrict table, const ulong batch, const uint flags, const ulong z0,
              const real act_p0, const real act_p1, const ulong nsplit, const ulong kspan
#if MMA_FUSE
              , __global EPI* part, __global uint* tickets
#endif
              ) {
#if MMA_SMEM_BYTES > 48 * 1024
  extern __shared__ uint4 mma_smem[];
#else
  __shared__ uint4 mma_smem[MMA_SMEM_BYTES / 16];
#endif
  const int tid = (int)threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wm0 = (warp % MMA_WARPS_M) * WM, wn0 = (warp / MMA_WARPS_M) * WN;
  const ulong zs = z0 + get_group_id(2);              // (product, K range)
  const ulong z = zs / nsplit, k0 = zs % nsplit * kspan;  // the product and its range's first row of K
  const ulong K = (k0 + kspan < K_all ? k0 + kspan : K_all) - k0;  // the range's length
  const __global uchar* ap = (const __global uchar*)(a + GEMM_OFFSET(flags & GEMM_A_LIST, a_off, a_stride, table, z, 0) +
                                                     k0 * (TRANS_A ? lda : 1));
  const __global uchar* bp = (const __global uchar*)(b + GEMM_OFFSET(flags & GEMM_B_LIST, b_off, b_stride, table, z, 1) +
                                                     k0 * (TRANS_B ? 1 : ldb));
#if MMA_RAW
  __global MMA_OUT* cp = c + c_off + zs * c_stride;  // the temporary: never listed
#else
  __global CTYPE* cp = c + GEMM_OFFSET(flags & GEMM_C_LIST, c_off, c_stride, table, z, 2);
#endif
  const __global CTYPE* biasp = bias + bias_off;
  const real alpha_z = gemm_alpha(flags, alpha, table, batch, z);
  const real beta_z = gemm_beta(flags, beta, table, batch, z);
#if MMA_RAW
  (void)biasp, (void)beta_z;  // gemm_copy_back's
#endif

  // Tile order: SWIZZLE_GROUP tile rows at a time, column by column within
  // them, so the groups running together share A rows and B columns in L2.
  uint tm, tn;
  gemm_tc_tile(SWIZZLE_GROUP, &tm, &tn);
  const ulong m0 = (ulong)tm * BM, n0 = (ulong)tn * BN;
  // alpha == 0: A and B are not read.
  const ulong kk = alpha_z == (real)0 ? 0 : K;
  const int steps = (int)((kk + BK - 1) / BK);
  // FULL_TILES: the group's tile lies inside C (so its rows of A and columns
  // of B exist), and K tiles 0 .. full_steps - 1 lie inside the K range.
  const bool inside = m0 + BM <= M && n0 + BN <= N;
  const int full_steps = (int)(kk / BK);
  (void)inside, (void)full_steps;

  // The copies: chunk q = tid + l * MMA_THREADS of a stage's tile, so a
  // work-item's chunks of one operand share their column e and lie
  // A_RSTEP (B_RSTEP) rows apart. Row-major tiles move along K by BK
  // elements per tile; K-major tiles (TRANS_A, !TRANS_B) by BK rows.
  // Edges: a copy reads only the bytes inside the matrix (src-size), the
  // rest of its 16 bytes is zero-filled.
  const uint smem = (uint)__cvta_generic_to_shared(mma_smem);
  const int a_r0 = tid / A_CPR, a_e = (tid % A_CPR) * MMA_CHUNK;
  const int b_r0 = tid / B_CPR, b_e = (tid % B_CPR) * MMA_CHUNK;
  const uint a_dst0 = (uint)MMA_SWZ(tid, A_SHIFT, A_KMAJOR) * 16u, b_dst0 = (uint)MMA_SWZ(tid, B_SHIFT, B_KMAJOR) * 16u;
  (void)a_dst0, (void)b_dst0;
#if TRANS_A
  const __global uchar* a_next = ap + ((ulong)a_r0 * lda + m0 + a_e) * MMA_ESIZE;
  const ulong a_step = lda * A_RSTEP * MMA_ESIZE, a_tile = lda * BK * MMA_ESIZE;
  const long a_span = (long)M - (long)(m0 + a_e);  // elements of the chunk's row segment inside A
  const uint a_bytes = a_span <= 0 ? 0u : a_span >= MMA_CHUNK ? 16u : (uint)a_span * MMA_ESIZE;
  long a_left = (long)K - a_r0;  // k rows of this and later tiles, from the work-item's first row
#else
  const __global uchar* a_next = ap + ((m0 + a_r0) * lda + a_e) * MMA_ESIZE;
  const ulong a_step = lda * A_RSTEP * MMA_ESIZE, a_tile = BK * MMA_ESIZE;
  uint a_rows = 0;  // bit l: copy l's row lies inside A
#pragma unroll
  for (int l = 0; l < A_LOADS; ++l) a_rows |= (m0 + a_r0 + l * A_RSTEP < M ? 1u : 0u) << l;
  long a_left = (long)K - a_e;  // k elements of this and later tiles, from the chunk's start
#endif
#if TRANS_B
  const __global uchar* b_next = bp + ((n0 + b_r0) * ldb + b_e) * MMA_ESIZE;
  const ulong b_step = ldb * B_RSTEP * MMA_ESIZE, b_tile = BK * MMA_ESIZE;
  uint b_rows = 0;
#pragma unroll
  for (int l = 0; l < B_LOADS; ++l) b_rows |= (n0 + b_r0 + l * B_RSTEP < N ? 1u : 0u) << l;
  long b_left = (long)K - b_e;
#else
  const __global uchar* b_next = bp + ((ulong)b_r0 * ldb + n0 + b_e) * MMA_ESIZE;
  const ulong b_step = ldb * B_RSTEP * MMA_ESIZE, b_tile = ldb * BK * MMA_ESIZE;
  const long b_span = (long)N - (long)(n0 + b_e);
  const uint b_bytes = b_span <= 0 ? 0u : b_span >= MMA_CHUNK ? 16u : (uint)b_span * MMA_ESIZE;
  long b_left = (long)K - b_r0;
#endif

// Bytes of copy l: row-major tiles check the row (X_rows) and share the K
// edge (kb); K-major tiles check the k row and share the M or N edge.
#define MMA_BYTES_ROWMAJOR(X, l, kb) (((X##_rows >> (l)) & 1u) ? (kb) : 0u)
#define MMA_BYTES_KMAJOR(X, l, kb) ((l) * X##_RSTEP_ < X##_left ? X##_bytes : 0u)
// Byte offset of copy l (chunk q) in its tile. Where a work-item's copies
// lie whole swizzle periods of lines apart (the XOR of a line repeats every
// 8 lines, every 2 for f64's K-major tiles), the XOR is the same for all of
// them: the first copy's offset plus l strides, a constant.
#define MMA_SWZ_PERIOD(kmajor) (MMA_F64 && (kmajor) ? 2 : 8)
#define MMA_DST(X, q, l) \
  (MMA_THREADS % (MMA_SWZ_PERIOD(X##_KMAJOR_) << X##_SHIFT_) == 0 \
       ? X##_dst0 + (uint)(l) * (MMA_THREADS * 16u) \
       : (uint)MMA_SWZ(q, X##_SHIFT_, X##_KMAJOR_) * 16u)
#define MMA_COPIES(X, LOADS, TILE_OFF, BYTES) { \
    const uint kb = X##_left <= 0 ? 0u : X##_left >= MMA_CHUNK ? 16u : (uint)X##_left * MMA_ESIZE; \
    (void)kb; \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
      const int q = tid + l * MMA_THREADS; \
      if (LOADS * MMA_THREADS == X##_CHUNKS_ || q < X##_CHUNKS_) { \
        const uint bytes = BYTES(X, l, kb); \
        optune_cp_async16_zfill(base + (TILE_OFF) + MMA_DST(X, q, l), \
                     bytes ? (const void*)(X##_next + l * X##_step) : (const void*)ap, bytes); \
      } \
    } \
    X##_next += X##_tile; \
    X##_left -= BK; \
  }
// The same for a tile wholly inside the operand (FULL_TILES): every copy
// reads its 16 bytes, no edge to test; the sources step by X_step.
#define MMA_COPIES_FULL(X, LOADS, TILE_OFF) { \
    const __global uchar* src_ = X##_next; \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) { \
      const int q = tid + l * MMA_THREADS; \
      if (LOADS * MMA_THREADS == X##_CHUNKS_ || q < X##_CHUNKS_) \
        optune_cp_async16_zfill(base + (TILE_OFF) + MMA_DST(X, q, l), (const void*)src_, 16u); \
      src_ += X##_step; \
    } \
    X##_next += X##_tile; \
    X##_left -= BK; \
  }
#define a_CHUNKS_ A_CHUNKS
#define b_CHUNKS_ B_CHUNKS
#define a_SHIFT_ A_SHIFT
#define b_SHIFT_ B_SHIFT
#define a_RSTEP_ A_RSTEP
#define b_RSTEP_ B_RSTEP
#define a_KMAJOR_ A_KMAJOR
#define b_KMAJOR_ B_KMAJOR
#if TRANS_A
#define MMA_A_BYTES MMA_BYTES_KMAJOR
#else
#define MMA_A_BYTES MMA_BYTES_ROWMAJOR
#endif
#if TRANS_B
#define MMA_B_BYTES MMA_BYTES_ROWMAJOR
#else
#define MMA_B_BYTES MMA_BYTES_KMAJOR
#endif
// Starts the copies of K tile tl into stage s (tiles go in order): tiles
// wholly inside A, B and the K range (FULL_TILES) without the edge tests.
#define MMA_LOAD_TILE(s, tl) { \
    const uint base = smem + (uint)(s) * (STAGE_CHUNKS * 16u); \
    if (FULL_TILES && inside && (tl) < full_steps) { \
      MMA_COPIES_FULL(a, A_LOADS, 0u) \
      MMA_COPIES_FULL(b, B_LOADS, A_CHUNKS * 16u) \
    } else { \
      MMA_COPIES(a, A_LOADS, 0u, MMA_A_BYTES) \
      MMA_COPIES(b, B_LOADS, A_CHUNKS * 16u, MMA_B_BYTES) \
    } \
  }

  mma_acc acc[MMA_MI][MMA_NI][4];
#pragma unroll
  for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
    for (int j = 0; j < MMA_NI; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = (mma_acc)0;

  // Tiles 0 .. STAGES - 2 in flight before the loop; one commit per tile
  // (empty past the end) keeps wait_group's count exact. In the loop, the
  // fragments of k step ks + 1 are read while those of ks are multiplied
  // (two register sets); the last step of a tile first waits for the next
  // tile and passes a barrier, after which the stage read one tile ago is
  // free for the copies issued at step 0.
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < steps) MMA_LOAD_TILE(s, s)
    optune_cp_async_commit();
  }
  optune_cp_async_wait<STAGES - 2>();
  __syncthreads();
  // The copies of tile t + STAGES - 1 (one commit, empty past the end),
  // issued at step 0: after its products for f16 and bf16 (the tensor cores
  // start before the copies' address arithmetic: f16 8192 365 -> 376 TFLOP/s
  // on the H100 at the default tile, 128 x 4096 x 4096 +7%), before them for
  // tf32 (slower after: 79 -> 74, its fragments' conversions compete).
#define MMA_NEXT_TILE { \
    if (t + STAGES - 1 < steps) MMA_LOAD_TILE(ws, t + STAGES - 1) \
    optune_cp_async_commit(); \
    ws = ws == STAGES - 1 ? 0 : ws + 1; \
  }
#define MMA_COPIES_LATE (!MMA_TF32)
#if MMA_F64
  // f64: two A fragments (the row of fragments multiplied and the next) and
  // two sets of B fragments (this k step's and the next one's, within a
  // tile), not the f16 path's two whole fragment sets, which do not fit the
  // 255 registers beside 64 double accumulators at the 64 x 32 warp tile
  // (H100 4096^3, 64 x 64 tiles: 42.9 TFLOP/s against 41.2 reading each step's fragments
  // before its products). The last step's barrier comes after its reads, so
  // the stage of tile t - 1 is free when step 0 of tile t issues the copies
  // into it.
  // The loads are the stage's address plus a lane register plus a constant
  // (gemm_mma_defs.cl, f64_lane_offsets).
  int rs = 0, ws = STAGES - 1;  // stage read, stage written next
  mma_frag af[2][4], bf[2][MMA_NI][2];
  uint oa[F64_A_CLASSES], ob[F64_B_CLASSES];
  f64_lane_offsets(oa, ob, wm0, wn0, lane);
  const char* stages = (const char*)mma_smem;
  for (int t = 0; t < steps; ++t) {
#pragma unroll
    for (int ks = 0; ks < MMA_KSTEPS; ++ks) {
      const char* sa = stages + rs * (STAGE_CHUNKS * 16);
      if (ks == 0) f64_b_fragments(bf[0], sa + A_CHUNKS * 16, ob, 0);
      f64_a_fragment(af[0], sa, oa, ks, 0);
#pragma unroll
      for (int i = 0; i < MMA_MI; ++i) {
        if (i + 1 < MMA_MI)
          f64_a_fragment(af[(i + 1) & 1], sa, oa, ks, i + 1);
        else if (ks + 1 < MMA_KSTEPS)
          f64_b_fragments(bf[(ks + 1) & 1], sa + A_CHUNKS * 16, ob, ks + 1);
#pragma unroll
        for (int j = 0; j < MMA_NI; ++j) mma_step(acc[i][j], af[i & 1], bf[ks & 1][j]);
      }
      if (ks == 0) MMA_NEXT_TILE
      if (ks == MMA_KSTEPS - 1) {
        optune_cp_async_wait<STAGES - 2>();
        __syncthreads();
        rs = rs == STAGES - 1 ? 0 : rs + 1;
      }
    }
  }
#else
  mma_frag af[2][MMA_MI][4], bf[2][MMA_NI][2];
  int rs = 0, ws = STAGES - 1;  // stage read, stage written next
  if (steps > 0) MMA_FRAGMENTS(af[0], bf[0], smem, smem + A_CHUNKS * 16u, 0, wm0, wn0, lane);
  for (int t = 0; t < steps; ++t) {
#pragma unroll
    for (int ks = 0; ks < MMA_KSTEPS; ++ks) {
      if (ks == MMA_KSTEPS - 1) {
        optune_cp_async_wait<STAGES - 2>();
        __syncthreads();
        rs = rs == STAGES - 1 ? 0 : rs + 1;
      }
      if (ks < MMA_KSTEPS - 1 || t < steps - 1) {
        const uint sa = smem + (uint)rs * (STAGE_CHUNKS * 16u);
        MMA_FRAGMENTS(af[(ks + 1) & 1], bf[(ks + 1) & 1], sa, sa + A_CHUNKS * 16u, (ks + 1) % MMA_KSTEPS, wm0, wn0,
                      lane);
      }
      if (ks == 0 && !MMA_COPIES_LATE) MMA_NEXT_TILE
      MMA_PRODUCTS(acc, af[ks & 1], bf[ks & 1])
      if (ks == 0 && MMA_COPIES_LATE) MMA_NEXT_TILE
    }
  }
#endif
  optune_cp_async_wait<0>();

  // Epilogue from the accumulators: lane (g, t) holds rows g and g + 8 of
  // each fragment, columns 2t and 2t + 1, stored as one pair where both
  // lie inside C and the pair is aligned (ldc and c_off may be odd).
  const int g = lane >> 2, t4 = lane & 3;
  // Runs its statements for each pair of the warp tile whose first element
  // (row, col) lies inside C: the pair is acc[i][j][2h], acc[i][j][2h + 1].
#define MMA_FOR_PAIRS(...) \
  _Pragma("unroll") for (int i = 0; i < MMA_MI; ++i) \
  _Pragma("unroll") for (int h = 0; h < 2; ++h) { \
    const ulong row = m0 + wm0 + i * 16 + h * 8 + g; \
    if (row >= M) continue; \
    _Pragma("unroll") for (int j = 0; j < MMA_NI; ++j) { \
      const ulong col = n0 + wn0 + j * 8 + 2 * t4; \
      if (col >= N) continue; \
      __VA_ARGS__ \
    } \
  }
#define MMA_STORE_PAIR \
  gemm_tc_store_pair(cp, ldc, N, row, col, (real)acc[i][j][2 * h], (real)acc[i][j][2 * h + 1], alpha_z, beta_z, \
                     flags, biasp, act_p0, act_p1);
#if MMA_RAW
  MMA_FOR_PAIRS(cp[row * ldc + col] = (EPI)acc[i][j][2 * h];
                if (col + 1 < N) cp[row * ldc + col + 1] = (EPI)acc[i][j][2 * h + 1];)
#elif MMA_FUSE
  MMA_FOR_PAIRS(__global EPI* pp = part + zs * (M * N) + row * N + col; pp[0] = (EPI)acc[i][j][2 * h];
                if (col + 1 < N) pp[1] = (EPI)acc[i][j][2 * h + 1];)
#else
  MMA_FOR_PAIRS(MMA_STORE_PAIR)
#endif
#if MMA_FUSE
  // The tile's last range to arrive adds the partials (MMA_FUSE above): the
  // fence makes this group's partial visible device-wide before its arrival
  // is counted; the accumulators then hold the sum, range 0 first. The
  // ticket drawn sits in the stages' first word (the stages may fill the
  // 48 KiB of static shared memory; past the barrier no warp reads them).
  const ulong tile = (z * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
  volatile uint* mma_ticket = (volatile uint*)mma_smem;
  __threadfence();
  __syncthreads();
  if (tid == 0) *mma_ticket = atomicAdd(&tickets[tile], 1u);
  __syncthreads();
  if (*mma_ticket != (uint)(nsplit - 1)) return;
  __threadfence();
  // The ranges' loads go out MMA_RCH ranges at a time (thin warp tiles hold
  // few values each: their loads would otherwise wait on L2 once per range).
  const ulong mn = M * N;
  for (ulong r0 = 0; r0 < nsplit; r0 += MMA_RCH) {
    mma_acc v[MMA_RCH][MMA_MI][MMA_NI][4];
#pragma unroll
    for (int u = 0; u < MMA_RCH; ++u) {
      const __global EPI* pr = part + (z * nsplit + r0 + u) * mn;
#pragma unroll
      for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const ulong row = m0 + wm0 + i * 16 + h * 8 + g;
#pragma unroll
          for (int j = 0; j < MMA_NI; ++j) {
            const ulong col = n0 + wn0 + j * 8 + 2 * t4;
            const bool in = r0 + u < nsplit && row < M && col < N;
            v[u][i][j][2 * h] = in ? (mma_acc)__ldcg(pr + row * N + col) : (mma_acc)0;
            v[u][i][j][2 * h + 1] = in && col + 1 < N ? (mma_acc)__ldcg(pr + row * N + col + 1) : (mma_acc)0;
          }
        }
    }
#pragma unroll
    for (int u = 0; u < MMA_RCH; ++u) {
      if (r0 + u >= nsplit) break;
#pragma unroll
      for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
        for (int j = 0; j < MMA_NI; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][j][e] = r0 + u ? acc[i][j][e] + v[u][i][j][e] : v[u][i][j][e];
    }
  }
  MMA_FOR_PAIRS(MMA_STORE_PAIR)
  if (tid == 0) atomicExch(&tickets[tile], 0u);  // an atomic: the other ranges counted on it
#endif
#undef MMA_FOR_PAIRS
#undef MMA_STORE_PAIR
#undef MMA_LOAD_TILE
#undef MMA_COPIES
#undef MMA_COPIES_FULL
#undef MMA_DST
#undef MMA_SWZ_PERIOD
#undef MMA_NEXT_TILE
#undef MMA_COPIES_LATE
}

#endif  // OPTUNE_BACKEND_CUDA && MMA_ARCH_OK
