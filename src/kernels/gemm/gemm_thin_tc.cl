// gemm_thin_tc: the thin kernel's products on the tensor cores (TC 1; CUDA,
// mma.sync), for A stored M x K (A_KCONTIG 1; or K x M, gathered, below) and B stored N x K
// (B_KCONTIG 1: the weights of x W^T) or K x N (below). Both operands go
// from global memory straight into the fragments' registers: no shared
// memory, no barrier in the K loop,
// so the kernel streams B as the scalar path does, while the products, which
// held that path's lanes at 8 and 16 rows (one load of A per pack of B and
// row), cost a few mma.sync per pack.
//
// The wide operand is the mma's A (its m16 rows are 16 columns of C, rows of
// B), the thin one its B (n8: 8 rows of A). Lane l of a warp is g = l / 4, t
// = l % 4 in the PTX fragment layouts: it holds rows g and g + 8 of the
// 16 x k tile and, of the k slots, t and t + 4 (16-bit types: pairs 2t and
// 2t + 8). A product does not care which k a slot stands for, as long as
// both fragments agree: lane t loads one 16-byte pack of VW elements of its
// rows at k = kc + (4 u + t) VW, and the pack's elements are the slots of
// consecutive mma.sync, so each lane's loads are whole 16-byte accesses and
// the four lanes of a row read 64 consecutive bytes of it:
//
//   f32: VW 4, m16n8k8 in f64 (sm_90): x, y are slots t, t + 4 of the first
//        mma, z, w of the second. Each f32 converts to f64 exactly and the
//        products and sums are f64's: more accurate than f32 arithmetic,
//        and the FP64 tensor cores' rate is far above what B's stream asks
//        (16 rows: 64 of 128 multiply-adds per clock and multiprocessor on
//        an H100);
//   f64: VW 2, m16n8k8 f64, one mma per pack;
//   f16 / bf16: VW 8, m16n8k16 into f32: the pack's words 0, 1 are the first
//        mma's pairs 2t, 2t + 8, words 2, 3 the second's.
//
// A warp holds NJ blocks of 16 columns and MT / 8 fragments of 8 rows (MT 8
// or 16), 4 accumulators each per lane, and loads KU packs along K of each
// of its 2 NJ rows of B and MT / 8 rows of A per step before any product
// (with PF, the next step's loads are issued before this step's products).
//
// B stored K x N (B_KCONTIG 0): B's packs lie along N, so a pack's VW
// elements are one k of VW columns. Lane (g, t) loads, for the k slots of an
// mma (f32 / f64: slots t and t + 4, k = ka + 2s and ka + 2s + 1; 16-bit
// types: the pairs 2t and 2t + 8, k = ka + 4s + 0..3; ka = kc + (4 u + t) VW
// is the k of its pack of A, as above), the packs at those rows and columns
// nb + VW g and nb + 8 VW + VW g; element j of the packs is the fragment of
// mma j (16-bit types: the halves j of two rows paired in one register),
// whose 16 rows are the columns nb + VW g' + j and nb + 8 VW + VW g' + j (g'
// = 0..7). So a warp's block is 16 VW columns, NJ of them, VW fragments
// each, and the 8 lanes of a row of the fragment read 8 VW consecutive
// columns of one row of B (128 bytes).
// The group's WGY warps take the same columns and interleave along K (warp y
// the y-th 4 VW KU of each step of WGY 4 VW KU); at the end they add their
// fragments in warp order through local memory (deterministic) and the
// kernel's EMIT writes C or the split's partial. Rows of A past M read row
// M - 1 (AROW) and are never emitted; rows of B past N and K past the
// range read zeros (checked loads, only in the steps at the edges).
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl gemm/gemm_thin_steps.cl
#if TC
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 800
#error "gemm_thin TC needs mma.sync (CUDA, compute capability 8.0 or newer)"
#endif
#if WGX != 32 || (MT != 8 && MT != 16)
#error "gemm_thin TC: WGX 32 and MT 8 or 16"
#endif

#if HALF_STORAGE || BF16_STORAGE
typedef uint4 tc_pack;    // 8 16-bit elements
typedef float tc_acc;
typedef uint tc_word;
#define TC_VW 8
#define TC_MMAS 2
#if HALF_STORAGE
#define TC_MMA(d, a, b) optune_mma_f16_16816(d, a, b)
#else
#define TC_MMA(d, a, b) optune_mma_bf16_16816(d, a, b)
#endif
#elif EPI_DOUBLE
typedef double2 tc_pack;
typedef double tc_acc;
typedef double tc_word;
#define TC_VW 2
#define TC_MMAS 1
#define TC_MMA(d, a, b) optune_mma_f64_1688(d, a, b)
#else
typedef float4 tc_pack;
typedef double tc_acc;
typedef double tc_word;
#define TC_VW 4
#define TC_MMAS 2
#define TC_MMA(d, a, b) optune_mma_f64_1688(d, a, b)
#endif
#if (!HALF_STORAGE && !BF16_STORAGE) && __CUDA_ARCH__ < 900
#error "gemm_thin TC for f32 and f64 needs mma.sync m16n8k8 f64 (compute capability 9.0)"
#endif
#if VW != TC_VW
#error "gemm_thin TC: VW must be the type's 16-byte pack (8 for 16-bit types, 4 for f32, 2 for f64)"
#endif

#define TC_NF (MT / 8)                    // fragments of 8 rows of A
#if B_KCONTIG
#define TC_NB NJ                          // fragments of 16 columns of C per warp
#else
#define TC_NB (NJ * VW)
#endif
#define TC_RED (WGY * TC_NB * TC_NF * 128)  // the warps' accumulators, in local memory
// B along N: a fragment register of mma j (the pack's element j) from the
// packs of the slots' rows. f32 and f64: element j of one pack (rows of k
// slots t and t + 4: 2 rows per mma). 16-bit types: a register holds a pair
// of k (2t, 2t + 1), two rows of B, so the halves j of two packs are paired
// (4 rows per mma).
#define TC_ELEM4(v, j) ((j) == 0 ? (v).x : (j) == 1 ? (v).y : (j) == 2 ? (v).z : (v).w)
#if HALF_STORAGE || BF16_STORAGE
#define TC_ROWS 4
#define TC_NN(lo, hi, j) __byte_perm(TC_ELEM4(lo, (j) / 2), TC_ELEM4(hi, (j) / 2), (j) % 2 ? 0x7632 : 0x5410)
#elif EPI_DOUBLE
#define TC_ROWS 2
#define TC_NN(lo, hi, j) ((j) ? (lo).y : (lo).x)
#else
#define TC_ROWS 2
#define TC_NN(lo, hi, j) ((tc_word)TC_ELEM4(lo, j))
#endif

#ifndef BHINT
#define BHINT 0
#endif
// The pack of p at element e (a multiple of VW), of which the first `valid`
// lie inside: one access, else element by element with zeros past the edge.
// B's packs (tc_load_b_all) may carry cache hints (BHINT 1: L2 fetches 256
// bytes around each miss, the four lanes of a row reading 64 of them; 2: the
// same, and no L1 line kept for data read once).
OPTUNE_FUNC tc_pack tc_load_all(const __global TYPE* p, const ulong e) {
  return *(const tc_pack*)(p + e);
}
OPTUNE_FUNC tc_pack tc_load_b_all(const __global TYPE* p, const ulong e) {
#if BHINT
  uint4 w;
#if BHINT == 1
  asm("ld.global.nc.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
#else
  asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
#endif
      : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w)
      : "l"(p + e));
  return *(tc_pack*)&w;
#else
  return tc_load_all(p, e);
#endif
}
// The VW elements at k, k + 1, ... of line i, ld apart (element (k + v) ld +
// i), the first `valid` of them inside, the others 0: one by one.
OPTUNE_FUNC tc_pack tc_gather(const __global TYPE* p, const ulong i, const ulong k, const ulong ld, const long valid) {
#if HALF_STORAGE || BF16_STORAGE
  const __global unsigned short* h = (const __global unsigned short*)p;
  uint w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
  for (int v = 0; v < 8; ++v)
    if ((long)v < valid) w[v / 2] |= (uint)h[(k + (ulong)v) * ld + i] << (16 * (v % 2));
  return make_uint4(w[0], w[1], w[2], w[3]);
#elif EPI_DOUBLE
  return make_double2(valid > 0 ? p[k * ld + i] : 0.0, valid > 1 ? p[(k + 1) * ld + i] : 0.0);
#else
  return make_float4(valid > 0 ? p[k * ld + i] : 0.f, valid > 1 ? p[(k + 1) * ld + i] : 0.f,
                     valid > 2 ? p[(k + 2) * ld + i] : 0.f, valid > 3 ? p[(k + 3) * ld + i] : 0.f);
#endif
}
OPTUNE_FUNC tc_pack tc_load(const __global TYPE* p, const ulong e, const long valid) {
  return valid >= VW ? tc_load_all(p, e) : tc_gather(p, e, 0, 1, valid);
}

// The two k slots of mma j in a pack: elements (words) 2j and 2j + 1.
#if TC_MMAS == 2
#define TC_LO(v, j) ((j) ? (v).z : (v).x)
#define TC_HI(v, j) ((j) ? (v).w : (v).y)
#else
#define TC_LO(v, j) ((v).x)
#define TC_HI(v, j) ((v).y)
#endif

// The thin operand's fragments of mma J from its packs AQ[U][f] (both layouts).
#define TC_BFRAGS(BF, AQ, U, J)                              \
  tc_word BF[TC_NF][2];                                      \
  _Pragma("unroll") for (int f = 0; f < TC_NF; ++f) {        \
    BF[f][0] = (tc_word)TC_LO(AQ[U][f], J);                  \
    BF[f][1] = (tc_word)TC_HI(AQ[U][f], J);                  \
  }
// A's packs of the warp's step (both layouts of B): rows 8 f + g of A (AROW)
// at KA, tc_load_all (ALL: the step lies inside) or checked. A stored K x M
// (A_KCONTIG 0: the thin operand of N thin with A row-major, or of op(A)
// transposed): the pack's VW elements along K are lda apart, gathered one by
// one (A is small and read by every group of columns: its lines stay in the
// caches), with K past the range read as zeros.
#if A_KCONTIG
#define TC_LOAD_A(AQ, U, KA, ALL)                                                                           \
  _Pragma("unroll") for (int f = 0; f < TC_NF; ++f) {                                                       \
    const ulong i = AROW(8 * f + tg);                                                                       \
    AQ[U][f] = (ALL) ? tc_load_all(ap, i * lda + (KA)) : tc_load(ap, i * lda + (KA), INSIDE(KA, ke));       \
  }
#else
#define TC_LOAD_A(AQ, U, KA, ALL)                                                                           \
  _Pragma("unroll") for (int f = 0; f < TC_NF; ++f)                                                         \
    AQ[U][f] = tc_gather(ap, AROW(8 * f + tg), (KA), lda, (ALL) ? (long)VW : INSIDE(KA, ke));
#endif
#if B_KCONTIG
#define TC_BQ_DECL(name) tc_pack name[KU][NJ][2]
#define TC_BQ_COPY(DST, SRC)                                                    \
  _Pragma("unroll") for (int u = 0; u < KU; ++u)                                \
  _Pragma("unroll") for (int q = 0; q < NJ; ++q) DST[u][q][0] = SRC[u][q][0], DST[u][q][1] = SRC[u][q][1];
// The loads of the warp's step at KV (its first K): KU packs of its 2 NJ
// rows of B into BQ (tc_load_all where ALL: the step lies inside, else
// checked) and of its MT / 8 rows of A into AQ.
#define TC_LOAD(BQ, AQ, KV, ALL)                                                                            \
  _Pragma("unroll") for (int u = 0; u < KU; ++u) {                                                          \
    const ulong gk = (KV) + (ulong)((u * 4 + tq) * VW);                                                     \
    _Pragma("unroll") for (int q = 0; q < NJ; ++q)                                                          \
    _Pragma("unroll") for (int h = 0; h < 2; ++h) {                                                         \
      const ulong j = nb + (ulong)(16 * q + 8 * h + tg);                                                    \
      BQ[u][q][h] = (ALL) ? tc_load_b_all(bp, j * ldb + gk) : tc_load(bp, j * ldb + gk, j < N ? INSIDE(gk, ke) : 0); \
    }                                                                                                       \
    TC_LOAD_A(AQ, u, gk, ALL)                                                                               \
  }
// The step's products from BQ and AQ into acc_tc.
#define TC_USE(BQ, AQ)                                                                                      \
  _Pragma("unroll") for (int u = 0; u < KU; ++u)                                                            \
  _Pragma("unroll") for (int jm = 0; jm < TC_MMAS; ++jm) {                                                  \
    TC_BFRAGS(bf, AQ, u, jm)                                                                                \
    _Pragma("unroll") for (int q = 0; q < NJ; ++q) {                                                        \
      const tc_word af[4] = {(tc_word)TC_LO(BQ[u][q][0], jm), (tc_word)TC_LO(BQ[u][q][1], jm),              \
                             (tc_word)TC_HI(BQ[u][q][0], jm), (tc_word)TC_HI(BQ[u][q][1], jm)};             \
      _Pragma("unroll") for (int f = 0; f < TC_NF; ++f) TC_MMA(acc_tc[q][f], af, bf[f]);                    \
    }                                                                                                       \
  }

#else
// B stored K x N: per pack of A along K (KU of them), per block q, per mma
// s and row r of its k slots, the packs of B at rows ka + TC_ROWS s + r and
// at the block's two column halves h.
#define TC_BQ_DECL(name) tc_pack name[KU][NJ][TC_MMAS][TC_ROWS][2]
#define TC_BQ_COPY(DST, SRC)                                                    \
  _Pragma("unroll") for (int u = 0; u < KU; ++u)                                \
  _Pragma("unroll") for (int q = 0; q < NJ; ++q)                                \
  _Pragma("unroll") for (int s = 0; s < TC_MMAS; ++s)                           \
  _Pragma("unroll") for (int r = 0; r < TC_ROWS; ++r)                           \
  _Pragma("unroll") for (int h = 0; h < 2; ++h) DST[u][q][s][r][h] = SRC[u][q][s][r][h];
#define TC_LOAD(BQ, AQ, KV, ALL)                                                                            \
  _Pragma("unroll") for (int u = 0; u < KU; ++u) {                                                          \
    const ulong ka = (KV) + (ulong)((u * 4 + tq) * VW);                                                     \
    _Pragma("unroll") for (int q = 0; q < NJ; ++q)                                                          \
    _Pragma("unroll") for (int s = 0; s < TC_MMAS; ++s)                                                     \
    _Pragma("unroll") for (int r = 0; r < TC_ROWS; ++r)                                                     \
    _Pragma("unroll") for (int h = 0; h < 2; ++h) {                                                         \
      const ulong gk = ka + (ulong)(TC_ROWS * s + r);                                                       \
      const ulong n = nb + (ulong)(q * 16 * VW + h * 8 * VW + tg * VW);                                     \
      BQ[u][q][s][r][h] = (ALL) ? tc_load_b_all(bp, gk * ldb + n) : tc_load(bp, gk * ldb + n, gk < ke ? INSIDE(n, N) : 0); \
    }                                                                                                       \
    TC_LOAD_A(AQ, u, ka, ALL)                                                                               \
  }
#define TC_USE(BQ, AQ)                                                                                      \
  _Pragma("unroll") for (int u = 0; u < KU; ++u)                                                            \
  _Pragma("unroll") for (int s = 0; s < TC_MMAS; ++s) {                                                     \
    TC_BFRAGS(bf, AQ, u, s)                                                                                 \
    _Pragma("unroll") for (int q = 0; q < NJ; ++q)                                                          \
    _Pragma("unroll") for (int j = 0; j < VW; ++j) {                                                        \
      const tc_word af[4] = {TC_NN(BQ[u][q][s][0][0], BQ[u][q][s][TC_ROWS / 2 - 1][0], j), \
                             TC_NN(BQ[u][q][s][0][1], BQ[u][q][s][TC_ROWS / 2 - 1][1], j), \
                             TC_NN(BQ[u][q][s][TC_ROWS / 2][0], BQ[u][q][s][TC_ROWS - 1][0], j),             \
                             TC_NN(BQ[u][q][s][TC_ROWS / 2][1], BQ[u][q][s][TC_ROWS - 1][1], j)};            \
      _Pragma("unroll") for (int f = 0; f < TC_NF; ++f) TC_MMA(acc_tc[q * VW + j][f], af, bf[f]);           \
    }                                                                                                       \
  }
#endif
#define TC_LOAD_AT(BQ, AQ, KV)                      \
  if (inner && (KV) + SPAN <= ke) {                 \
    TC_LOAD(BQ, AQ, KV, 1)                          \
  } else {                                          \
    TC_LOAD(BQ, AQ, KV, 0)                          \
  }

// Accumulator e of fragment (q, f) of lane l: row i of C (of A) and column j
// (row of B), m16n8's layout.
#define TC_ROW(f, l, e) (r0 + (ulong)(8 * (f) + 2 * ((l) % 4) + (e) % 2))
#if B_KCONTIG
#define TC_COL(q, l, e) (nb + (ulong)(16 * (q) + (l) / 4 + 8 * ((e) / 2)))
#else
#define TC_COL(q, l, e) (nb + (ulong)((q) / VW * 16 * VW + VW * ((l) / 4) + (q) % VW + 8 * VW * ((e) / 2)))
#endif
#endif
