// gemm_mma_defs: the tensor-core kernel's parameters (defines and their
// defaults), the sizes they imply, the shared-memory tile layout and its
// swizzle, and the loads of the mma fragments from it (ldmatrix, or single
// doubles for f64). What the kernel does with them is in gemm_mma.cl's
// header; the host puts this text between gemm_tc_common.cl and
// gemm_mma.cl. CUDA only, compute capability 8.0 or newer (9.0 for f64):
// elsewhere it defines the parameters alone, and MMA_ARCH_OK stays 0.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl gemm/gemm_tc_common.cl

#ifndef MMA_F64
#define MMA_F64 0        // 1: f64 inputs and accumulators (m16n8k8 f64, sm_90)
#endif
#ifndef MMA_TF32
#define MMA_TF32 (!HALF_STORAGE && !BF16_STORAGE && !MMA_F64)  // 1: f32 inputs rounded to tf32
#endif
#ifndef MMA_X3
#define MMA_X3 0         // 1 (with MMA_TF32): f32 products as three tf32 ones (hi hi + hi lo + lo hi), f32's accuracy
#endif
#if MMA_X3 && !MMA_TF32
#error "MMA_X3 splits f32 inputs: it needs MMA_TF32"
#endif
#ifndef BM
#define BM 128           // rows of C per group
#endif
#ifndef BN
#define BN 128           // columns of C per group
#endif
#ifndef BK
#define BK (MMA_TF32 || MMA_F64 ? 16 : 32)  // K per stage (an even number of mma steps: 32, 64 f16; 16, 32 tf32, f64)
#endif
#ifndef WM
#define WM 64            // rows of C per warp (multiple of 16)
#endif
#ifndef WN
#define WN (MMA_TF32 || MMA_F64 ? 32 : 64)  // columns of C per warp (multiple of 16)
#endif
#ifndef STAGES
#define STAGES 3         // shared stages of the cp.async pipeline (2 to 5)
#endif
#ifndef FULL_TILES
#define FULL_TILES 1     // 1: K tiles wholly inside A, B and the K range copy without edge tests
#endif
#ifndef MMA_RAW
#define MMA_RAW 0        // 1: raw partial products (EPI) of a split K into the temporary c
#endif
#ifndef MMA_FUSE
#define MMA_FUSE 0       // 1: split K, the partials added by each tile's last group (arrival tickets)
#endif
#if MMA_RAW && MMA_FUSE
#error "MMA_RAW and MMA_FUSE are two ways of one split: set one"
#endif
#if MMA_RAW
#define MMA_OUT EPI
#else
#define MMA_OUT CTYPE
#endif
// SWIZZLE_GROUP, TRANS_A, TRANS_B: gemm_tc_common.cl.
#if OPTUNE_BACKEND_CUDA
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 800
#error "gemm_mma needs mma.sync and cp.async (CUDA, compute capability 8.0 or newer)"
#elif MMA_F64 && __CUDA_ARCH__ < 900
#error "gemm_mma's f64 products need the m16n8k8 f64 shape (compute capability 9.0 or newer)"
#else
#define MMA_ARCH_OK 1

#define MMA_WARPS_M (BM / WM)
#define MMA_WARPS_N (BN / WN)
#define MMA_THREADS (32 * MMA_WARPS_M * MMA_WARPS_N)  // work-items per group
#define MMA_ESIZE (MMA_F64 ? 8 : MMA_TF32 ? 4 : 2)    // bytes per A or B element
#define MMA_CHUNK (16 / MMA_ESIZE)                   // elements per 16-byte copy
#define MMA_KSTEP (MMA_TF32 || MMA_F64 ? 8 : 16)     // K of one mma
#define MMA_MI (WM / 16)                             // fragments per warp along M
#define MMA_NI (WN / 8)                              // fragments per warp along N
// MMA_FUSE: ranges whose partials a work-item loads at once (about 16 fragments' worth)
#define MMA_RCH (MMA_MI * MMA_NI <= 4 ? 2 : 1)
// Tiles as rows of their contiguous dimension: rows and 16-byte chunks per row.
#define A_ROWS (TRANS_A ? BK : BM)
#define A_CPR ((TRANS_A ? BM : BK) / MMA_CHUNK)
#define B_ROWS (TRANS_B ? BN : BK)
#define B_CPR ((TRANS_B ? BK : BN) / MMA_CHUNK)
#define A_CHUNKS (A_ROWS * A_CPR)  // chunks of an A stage
#define B_CHUNKS (B_ROWS * B_CPR)
#define A_LOADS ((A_CHUNKS + MMA_THREADS - 1) / MMA_THREADS)  // copies per work-item and stage
#define B_LOADS ((B_CHUNKS + MMA_THREADS - 1) / MMA_THREADS)
#define A_RSTEP (MMA_THREADS / A_CPR)  // rows between one work-item's copies
#define B_RSTEP (MMA_THREADS / B_CPR)
#define STAGE_CHUNKS (A_CHUNKS + B_CHUNKS)
#define MMA_KSTEPS (BK / MMA_KSTEP)  // mma steps per stage
#define MMA_SMEM_BYTES (STAGES * STAGE_CHUNKS * 16)
// The swizzle's line: a 128-byte line, or one row where rows are longer.
// Chunk q of line l sits at q ^ MMA_XOR(l). f64 fragments are read one
// double per lane: a row-major tile's 8 rows x 2 chunks per read spread by
// l & 7; a K-major tile's 4 rows x 4 chunks need whole rows as lines and
// alternate halves of the 8-chunk bank window, (l & 1) << 2. Either way a
// warp's read takes the two wavefronts its 256 bytes need.
#if MMA_F64
#define MMA_SHIFT(cpr) ((cpr) >= 128 ? 7 : (cpr) >= 64 ? 6 : (cpr) >= 32 ? 5 : (cpr) >= 16 ? 4 : 3)
#define MMA_XOR(l, kmajor) ((kmajor) ? (((l) & 1) << 2) : ((l) & 7))
#else
#define MMA_SHIFT(cpr) ((cpr) >= 64 ? 6 : (cpr) >= 32 ? 5 : (cpr) >= 16 ? 4 : 3)
#define MMA_XOR(l, kmajor) ((l) & 7)
#endif
#define A_SHIFT MMA_SHIFT(A_CPR)
#define B_SHIFT MMA_SHIFT(B_CPR)
#define A_KMAJOR TRANS_A     // A's tile rows run along K
#define B_KMAJOR (!TRANS_B)
#define MMA_SWZ(q, shift, kmajor) ((q) ^ MMA_XOR((q) >> (shift), kmajor))

static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the group tile");
static_assert(WM % 16 == 0 && WN % 16 == 0, "warp tiles are multiples of 16");
static_assert(BK % (2 * MMA_KSTEP) == 0, "BK: an even number of mma steps (two fragment sets)");
static_assert(MMA_THREADS % A_CPR == 0 && MMA_THREADS % B_CPR == 0 && A_LOADS <= 32 && B_LOADS <= 32,
              "a work-item's copies share their column");
static_assert((A_CPR & (A_CPR - 1)) == 0 && (B_CPR & (B_CPR - 1)) == 0, "rows of a power of two chunks");
static_assert(STAGES >= 2 && STAGES <= 5, "2 to 5 stages");
static_assert(MMA_THREADS <= 1024, "at most 1024 work-items");

// d += a b for one 16 x 8 fragment (the prelude's mma.sync wrappers).
#if MMA_F64
#define mma_step optune_mma_f64_1688
#elif MMA_TF32
#define mma_step optune_mma_tf32_1688
#elif BF16_STORAGE
#define mma_step optune_mma_bf16_16816
#else
#define mma_step optune_mma_f16_16816
#endif

#if MMA_X3
// f32 bits x as hi + lo, both tf32: hi = x truncated to tf32 (never past
// x, so never infinite for a finite x), lo = the rest, x - hi (exact in f32,
// below 2^-10 |x|), rounded to tf32: x is held to about 2^-22 of itself.
// One mask, a subtraction and a conversion; rounding hi instead (2^-23)
// needs a check for the values that round to infinity, and measured 8-30%
// slower on the H200's thin tiles (16 x 4096 x 4096 NT f32: 34.2-37.0 us
// against 38.0-38.5 with one check, 49.3-49.6 with two). An infinity is lo
// alone (hi 0): the terms are lo hi, hi lo and hi hi, so it meets only the
// other operand's hi, which is 0 only where that operand is (inf * 0 = NaN,
// as f32's); split as hi it would meet the other's lo, 0 for every value
// that tf32 holds exactly, and give NaN. Infinities in both operands of one
// term still meet a 0 hi and give NaN, not inf (gemm.hpp says so). A NaN
// gives a NaN lo (its hi may be anything) and so a NaN term.
OPTUNE_FUNC void mma_x3_split(const uint x, uint* hi, uint* lo) {
  const float f = __uint_as_float(x);
  const uint h = x & 0xffffe000u;
  const bool inf = fabsf(f) == __int_as_float(0x7f800000);
  const uint l = optune_tf32(__float_as_uint(f - __uint_as_float(h)));
  *hi = inf ? 0u : h;
  *lo = inf ? x : l;
}

// A warp's products of one k step: acc[i][j] += af[i] bf[j] over its MI x NI
// fragments. With MMA_X3 each fragment is split once (MI A and NI B, not
// once per product) and the three terms run as three passes over the
// accumulators, the small terms first: lo hi, hi lo, hi hi (lo lo, below
// f32's rounding, is left out), so consecutive mma.sync never wait on one
// accumulator. The error is that of an f32 FMA loop's order, not tf32's.
#define MMA_PRODUCTS(acc, af, bf) { mma_x3_products(acc, af, bf); }
OPTUNE_FUNC void mma_x3_products(float (*acc)[MMA_NI][4], const uint (*af)[4], const uint (*bf)[2]) {
  uint ah[MMA_MI][4], al[MMA_MI][4], bh[MMA_NI][2], bl[MMA_NI][2];
#pragma unroll
  for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
    for (int r = 0; r < 4; ++r) mma_x3_split(af[i][r], &ah[i][r], &al[i][r]);
#pragma unroll
  for (int j = 0; j < MMA_NI; ++j)
#pragma unroll
    for (int r = 0; r < 2; ++r) mma_x3_split(bf[j][r], &bh[j][r], &bl[j][r]);
#pragma unroll
  for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
    for (int j = 0; j < MMA_NI; ++j) optune_mma_tf32_1688(acc[i][j], al[i], bh[j]);
#pragma unroll
  for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
    for (int j = 0; j < MMA_NI; ++j) optune_mma_tf32_1688(acc[i][j], ah[i], bl[j]);
#pragma unroll
  for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
    for (int j = 0; j < MMA_NI; ++j) optune_mma_tf32_1688(acc[i][j], ah[i], bh[j]);
}
#else
#define MMA_PRODUCTS(acc, af, bf) { \
    _Pragma("unroll") for (int i_ = 0; i_ < MMA_MI; ++i_) \
    _Pragma("unroll") for (int j_ = 0; j_ < MMA_NI; ++j_) mma_step((acc)[i_][j_], (af)[i_], (bf)[j_]); \
  }
#endif

// Byte offset of element e of row r in a tile of cpr chunks per row.
#define A_AT(r, e) \
  ((uint)MMA_SWZ((r) * A_CPR + (e) / MMA_CHUNK, A_SHIFT, A_KMAJOR) * 16u + ((e) % MMA_CHUNK) * MMA_ESIZE)
#define B_AT(r, e) \
  ((uint)MMA_SWZ((r) * B_CPR + (e) / MMA_CHUNK, B_SHIFT, B_KMAJOR) * 16u + ((e) % MMA_CHUNK) * MMA_ESIZE)

#if MMA_F64
// f64 (m16n8k8): lane (g, t) holds A's (g, t), (g + 8, t), (g, t + 4),
// (g + 8, t + 4) of each 16 x 8 fragment and B's (k t, n g), (k t + 4, n g).
// A load's byte offset in its stage splits into a lane part and a constant:
// the swizzle XORs a chunk index with bits that depend on the lane alone (a
// row-major tile's line is its row, g mod 8; a K-major tile's is its k row,
// t mod 2), and the constant parts (fragment rows, k steps) add above those
// bits, except the XORed bits' own: 4 classes of k step along a row-major
// tile (k / 2 mod 8 in steps of 2), 2 of row (or column) block along a
// K-major one (bit 2 of the chunk). Each class is one register per lane
// (f64_lane_offsets) and every load is stage + register + a constant, which
// the loads take as their immediate offset (no address arithmetic per load).
// Classes and constants, by tile (c = 4 ks + 2 hk, the k half-chunk of step
// ks and k half hk; CPR its chunks per row):
//   row-major (A, or B with TRANS_B): class (c mod 8) / 2, constant
//     (fragment row x CPR + c - c mod 8) 16;
//   K-major: class = the fragment's 8-row (A) or 8-column (B) block mod 2,
//     constant ((8 ks + 4 hk) CPR + the 16-element blocks above it / 2) 16.
#define F64_A_CLASSES (TRANS_A ? 2 : 4)
#define F64_B_CLASSES (TRANS_B ? 4 : 2)
static_assert(A_CPR >= 8 && B_CPR >= 8 && A_CPR <= 128 && B_CPR <= 128, "f64 tiles: a line is one row");
// Lane part of a row-major tile's loads: row r0 + g of the tile (r0 a
// multiple of 8), k half-chunk class cls.
OPTUNE_FUNC uint f64_rowmajor_offset(const int r0, const int cpr, const int cls, const int lane) {
  const int g = lane >> 2, t = lane & 3;
  return (uint)(((r0 + g) * cpr + ((2 * cls) ^ ((t >> 1) ^ g))) * 16 + (t & 1) * 8);
}
// Lane part of a K-major tile's loads: k row t, columns c0 + g of the
// tile's contiguous dimension (c0 a multiple of 16), 8-column block class p.
OPTUNE_FUNC uint f64_kmajor_offset(const int c0, const int cpr, const int p, const int lane) {
  const int g = lane >> 2, t = lane & 3;
  return (uint)((t * cpr + c0 / 2 + (g >> 1) + 4 * (p ^ (t & 1))) * 16 + (g & 1) * 8);
}
OPTUNE_FUNC void f64_lane_offsets(uint* oa, uint* ob, const int wm0, const int wn0, const int lane) {
#pragma unroll
  for (int c = 0; c < F64_A_CLASSES; ++c)
    oa[c] = TRANS_A ? f64_kmajor_offset(wm0, A_CPR, c, lane) : f64_rowmajor_offset(wm0, A_CPR, c, lane);
#pragma unroll
  for (int c = 0; c < F64_B_CLASSES; ++c)
    ob[c] = TRANS_B ? f64_rowmajor_offset(wn0, B_CPR, c, lane) : f64_kmajor_offset(wn0, B_CPR, c, lane);
}
// One double of a stage (sa: its first byte, generic, in shared memory).
#define F64_LD(sa, off, imm) (*(const double*)((sa) + (off) + (imm)))
// The A fragment of rows wm0 + 16 i .. + 15 (the warp's fragment i) and k step ks.
OPTUNE_FUNC void f64_a_fragment(double* af, const char* sa, const uint* oa, const int ks, const int i) {
#if TRANS_A
  const int k0 = 8 * ks * A_CPR * 16, k4 = (8 * ks + 4) * A_CPR * 16;
  af[0] = F64_LD(sa, oa[0], k0 + 8 * i * 16);
  af[1] = F64_LD(sa, oa[1], k0 + 8 * i * 16);
  af[2] = F64_LD(sa, oa[0], k4 + 8 * i * 16);
  af[3] = F64_LD(sa, oa[1], k4 + 8 * i * 16);
#else
  const int c0 = 4 * ks, c1 = 4 * ks + 2;
  af[0] = F64_LD(sa, oa[(c0 & 7) / 2], (16 * i * A_CPR + (c0 & ~7)) * 16);
  af[1] = F64_LD(sa, oa[(c0 & 7) / 2], ((16 * i + 8) * A_CPR + (c0 & ~7)) * 16);
  af[2] = F64_LD(sa, oa[(c1 & 7) / 2], (16 * i * A_CPR + (c1 & ~7)) * 16);
  af[3] = F64_LD(sa, oa[(c1 & 7) / 2], ((16 * i + 8) * A_CPR + (c1 & ~7)) * 16);
#endif
}
// The warp's NI B fragments of k step ks.
OPTUNE_FUNC void f64_b_fragments(double (*bf)[2], const char* sb, const uint* ob, const int ks) {
#pragma unroll
  for (int j = 0; j < MMA_NI; ++j) {
#if TRANS_B
    const int c0 = 4 * ks, c1 = 4 * ks + 2;
    bf[j][0] = F64_LD(sb, ob[(c0 & 7) / 2], (8 * j * B_CPR + (c0 & ~7)) * 16);
    bf[j][1] = F64_LD(sb, ob[(c1 & 7) / 2], (8 * j * B_CPR + (c1 & ~7)) * 16);
#else
    bf[j][0] = F64_LD(sb, ob[j & 1], (8 * ks * B_CPR + 4 * (j & ~1)) * 16);
    bf[j][1] = F64_LD(sb, ob[j & 1], ((8 * ks + 4) * B_CPR + 4 * (j & ~1)) * 16);
#endif
  }
}
typedef double mma_frag;
typedef double mma_acc;
#else
#define MMA_FRAGMENTS mma_fragments
typedef uint mma_frag;
typedef float mma_acc;
#endif

#if !MMA_F64
// The A fragments of k step ks (MI of them) and the B fragments (NI) from
// the stage at sa (A) and sb (B); lane = (g, t) = (lane / 4, lane % 4).
OPTUNE_FUNC void mma_fragments(uint (*af)[4], uint (*bf)[2], const uint sa, const uint sb, const int ks,
                               const int wm0, const int wn0, const int lane) {
  const int mat = lane >> 3, row = lane & 7;  // ldmatrix: the matrix and row this lane points at
#if MMA_TF32 && (TRANS_A || !TRANS_B)
  const int g = lane >> 2, t = lane & 3;  // single words: the fragment's row and column
#endif
  const int k0 = ks * MMA_KSTEP;
#pragma unroll
  for (int i = 0; i < MMA_MI; ++i) {
    const int m0 = wm0 + i * 16;
#if !MMA_TF32 && !TRANS_A
    // Matrices (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15).
    optune_ldmatrix_x4(af[i], sa + A_AT(m0 + (mat & 1) * 8 + row, k0 + (mat >> 1) * 8));
#elif !MMA_TF32
    // The same four, stored k-major: rows along k, transposed on the way.
    optune_ldmatrix_x4_trans(af[i], sa + A_AT(k0 + (mat >> 1) * 8 + row, m0 + (mat & 1) * 8));
#elif !TRANS_A
    // tf32: 8 x 4 words per matrix, (m 0-7, k 0-3), (m 8-15, k 0-3), (m 0-7, k 4-7), (m 8-15, k 4-7).
    optune_ldmatrix_x4(af[i], sa + A_AT(m0 + (mat & 1) * 8 + row, k0 + (mat >> 1) * 4));
#else
    af[i][0] = optune_lds32(sa + A_AT(k0 + t, m0 + g));
    af[i][1] = optune_lds32(sa + A_AT(k0 + t, m0 + g + 8));
    af[i][2] = optune_lds32(sa + A_AT(k0 + t + 4, m0 + g));
    af[i][3] = optune_lds32(sa + A_AT(k0 + t + 4, m0 + g + 8));
#endif
#if MMA_TF32 && !MMA_X3  // (MMA_X3 splits them at the products)
#pragma unroll
    for (int r = 0; r < 4; ++r) af[i][r] = optune_tf32(af[i][r]);
#endif
  }
#pragma unroll
  for (int p = 0; p < MMA_NI / 2; ++p) {
    const int n0 = wn0 + p * 16;
    uint r[4];
#if !MMA_TF32 && TRANS_B
    // Matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15).
    optune_ldmatrix_x4(r, sb + B_AT(n0 + (mat >> 1) * 8 + row, k0 + (mat & 1) * 8));
#elif !MMA_TF32
    optune_ldmatrix_x4_trans(r, sb + B_AT(k0 + (mat & 1) * 8 + row, n0 + (mat >> 1) * 8));
#elif TRANS_B
    optune_ldmatrix_x4(r, sb + B_AT(n0 + (mat >> 1) * 8 + row, k0 + (mat & 1) * 4));
#else
    r[0] = optune_lds32(sb + B_AT(k0 + t, n0 + g));
    r[1] = optune_lds32(sb + B_AT(k0 + t + 4, n0 + g));
    r[2] = optune_lds32(sb + B_AT(k0 + t, n0 + 8 + g));
    r[3] = optune_lds32(sb + B_AT(k0 + t + 4, n0 + 8 + g));
#endif
#if MMA_TF32 && !MMA_X3
#pragma unroll
    for (int q = 0; q < 4; ++q) r[q] = optune_tf32(r[q]);
#endif
    bf[2 * p][0] = r[0];
    bf[2 * p][1] = r[1];
    bf[2 * p + 1][0] = r[2];
    bf[2 * p + 1][1] = r[3];
  }
}
#endif  // !MMA_F64

#endif  // __CUDA_ARCH__ >= 800
#endif  // OPTUNE_BACKEND_CUDA
