// gemm_tiled_defs: the tiled kernel's parameters (defines and their
// defaults), the sizes they imply, the loads of a pack of a row-contiguous
// operand, a work-item's place in the tile, and the moves of the A and B
// tiles into local memory (from registers, or by cp.async with ASYNC). What
// the kernel does with them is in gemm_tiled.cl's header; the host puts this
// text between gemm_common.cl and gemm_tiled.cl.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl
#ifndef MWG
#define MWG 64           // rows of C per group
#endif
#ifndef NWG
#define NWG 64           // columns of C per group
#endif
#ifndef KWG
#define KWG 16           // K per step (the local tiles' depth)
#endif
#ifndef MDIMC
#define MDIMC 16         // work-items along M
#endif
#ifndef NDIMC
#define NDIMC 16         // work-items along N
#endif
#ifndef MDIMA
#define MDIMA 16         // work-items along M when loading the A tile
#endif
#ifndef NDIMB
#define NDIMB 16         // work-items along N when loading the B tile
#endif
#ifndef KWI
#define KWI 2            // unroll of the loop over a tile's K
#endif
#ifndef VWM
#define VWM 4            // vector width along M (A loads)
#endif
#ifndef VWN
#define VWN 4            // vector width along N (B loads, accumulators, C)
#endif
#ifndef STRM
#define STRM 1           // 0: contiguous rows per work-item; 1: strided by MDIMC vectors
#endif
#ifndef STRN
#define STRN 1           // likewise for columns
#endif
#ifndef SA
#define SA 1             // 1: stage A tiles in local memory
#endif
#ifndef SB
#define SB 1             // 1: stage B tiles in local memory
#endif
#ifndef DB
#define DB 1             // 1: two local stages, one barrier per K step
#endif
#ifndef C_DIRECT
#define C_DIRECT 1       // 1: epilogue into C; 0: raw product into an EPI temporary
#endif
#ifndef A_KCONTIG
#define A_KCONTIG 0      // 1: A stored M x K (needs SA)
#endif
#ifndef B_KCONTIG
#define B_KCONTIG 0      // 1: B stored N x K (needs SB)
#endif
#ifndef KSEG
#define KSEG 32          // A_KCONTIG, B_KCONTIG: vectors along K adjacent work-items load from one row
#endif
#ifndef COMP_HALF
#define COMP_HALF 0      // 1 when COMP is half: half FMAs within a K tile, f32 sums across tiles
#endif
#ifndef ASYNC
#define ASYNC 0          // 1: cp.async copies into STAGES local stages (CUDA only)
#endif
#ifndef STAGES
#define STAGES 2         // local stages with ASYNC (2 or 3)
#endif

#define WGS (MDIMC * NDIMC)   // work-items per group
#define MWI (MWG / MDIMC)     // rows per work-item
#define NWI (NWG / NDIMC)     // columns per work-item
#define MWIV (MWI / VWM)      // row vectors per work-item
#define NWIV (NWI / VWN)      // column vectors per work-item
#define MWGV (MWG / VWM)      // vectors per row of the A tile
#define NWGV (NWG / VWN)      // vectors per row of the B tile
#define KDIMA (WGS / MDIMA)   // work-items along K when loading A
#define KDIMB (WGS / NDIMB)
#define MVA (MWGV / MDIMA)    // A vectors per loading work-item and tile row
#define NVB (NWGV / NDIMB)
#define KWA (KWG / KDIMA)     // A tile rows per loading work-item
#define KWB (KWG / KDIMB)
#define NSTAGES (ASYNC ? STAGES : DB ? 2 : 1)  // local stages
#if (A_KCONTIG && !SA) || (B_KCONTIG && !SB)
#error "A_KCONTIG needs SA and B_KCONTIG needs SB"
#endif
#define KVA (KWG / VWM)       // A_KCONTIG: vectors per A row of a tile
#define MDIMAK (WGS / KVA)    // A_KCONTIG: rows loaded at once
#define MWAK (MWG / MDIMAK)   // A_KCONTIG: rows per loading work-item
#define KSEGA (KSEG < KVA ? KSEG : KVA)  // A_KCONTIG: vectors per row segment
#define KVB (KWG / VWN)
#define NDIMBK (WGS / KVB)
#define NWBK (NWG / NDIMBK)
#define KSEGB (KSEG < KVB ? KSEG : KVB)

typedef COMP comp;
typedef OPTUNE_VEC(COMP, VWM) compM;
typedef OPTUNE_VEC(COMP, VWN) compN;

// Pack i of a row-contiguous operand: one aligned vector access, or
// vload_halfN (vload_bf16N) when half (bf16) storage feeds float arithmetic.
#if HALF_STORAGE && !COMP_HALF
#define LOAD_M(p, i) OPTUNE_CAT(optune_vload_half, VWM)((i), (p))
#define LOAD_N(p, i) OPTUNE_CAT(optune_vload_half, VWN)((i), (p))
#elif BF16_STORAGE
#define LOAD_M(p, i) OPTUNE_CAT(optune_vload_bf16, VWM)((i), (p))
#define LOAD_N(p, i) OPTUNE_CAT(optune_vload_bf16, VWN)((i), (p))
#else
#define LOAD_M(p, i) (((const __global compM*)(p))[i])
#define LOAD_N(p, i) (((const __global compN*)(p))[i])
#endif

// A work-item's vector v along M (N) within the tile, in vectors.
#define VEC_M(v) (STRM ? (v) * MDIMC + tid_m : tid_m * MWIV + (v))
#define VEC_N(v) (STRN ? (v) * NDIMC + tid_n : tid_n * NWIV + (v))
// The tile row of a work-item's mi-th row.
#define ROW_OF(mi) (VEC_M((mi) / VWM) * VWM + (mi) % VWM)

// The output: C itself (CTYPE) or the raw-product temporary (EPI).
#if C_DIRECT
#define OUT_T CTYPE
#else
#define OUT_T EPI
#endif

// Registers to local stage s (no pragmas inside a macro: the loops have
// constant trip counts and unroll anyway).
#if SA && A_KCONTIG
#define REGS_TO_LOCAL_A(s) \
  for (int i = 0; i < MWAK; ++i) { \
    comp l_[VWM]; \
    OPTUNE_VUNPACK(VWM, ra[i], l_); \
    for (int l = 0; l < VWM; ++l) \
      ((OPTUNE_LOCAL_PTR comp*)alm[s])[(la_k * VWM + l) * MWG + la_m + i * MDIMAK] = l_[l]; \
  }
#elif SA
#define REGS_TO_LOCAL_A(s) \
  for (int j = 0; j < KWA; ++j) \
    for (int i = 0; i < MVA; ++i) alm[s][(la_k + j * KDIMA) * MWGV + la_m + i * MDIMA] = ra[j * MVA + i];
#else
#define REGS_TO_LOCAL_A(s)
#endif
#if SB && B_KCONTIG
#define REGS_TO_LOCAL_B(s) \
  for (int i = 0; i < NWBK; ++i) { \
    comp l_[VWN]; \
    OPTUNE_VUNPACK(VWN, rb[i], l_); \
    for (int l = 0; l < VWN; ++l) \
      ((OPTUNE_LOCAL_PTR comp*)blm[s])[(lb_k * VWN + l) * NWG + lb_n + i * NDIMBK] = l_[l]; \
  }
#elif SB
#define REGS_TO_LOCAL_B(s) \
  for (int j = 0; j < KWB; ++j) \
    for (int i = 0; i < NVB; ++i) blm[s][(lb_k + j * KDIMB) * NWGV + lb_n + i * NDIMB] = rb[j * NVB + i];
#else
#define REGS_TO_LOCAL_B(s)
#endif
#define REGS_TO_LOCAL(s) { REGS_TO_LOCAL_A(s) REGS_TO_LOCAL_B(s) }

#if ASYNC
#if !OPTUNE_HAS_CP_ASYNC
#error "ASYNC needs cp.async (CUDA, compute capability 8.0 or newer)"
#endif
#if !SA || !SB || A_KCONTIG || B_KCONTIG || HALF_STORAGE || BF16_STORAGE
#error "ASYNC needs SA and SB, f32 or f64, A stored K x M and B K x N"
#endif
static_assert(sizeof(compM) == 16 && sizeof(compN) == 16, "ASYNC copies 16-byte vectors (VWM, VWN)");
// Starts the copies of tile lt into local stage s: each work-item the
// vectors the register path loads (ra, rb), one cp.async each.
#define ASYNC_TILE(lt, s) { \
  const __global compM* at_ = (const __global compM*)(ag + (ulong)(lt) * KWG * lda); \
  const __global compN* bt_ = (const __global compN*)(bg + (ulong)(lt) * KWG * ldb); \
  for (int j = 0; j < KWA; ++j) \
    for (int i = 0; i < MVA; ++i) \
      optune_cp_async16(&alm[s][(la_k + j * KDIMA) * MWGV + la_m + i * MDIMA], \
                        at_ + (la_k + j * KDIMA) * ldav + la_m + i * MDIMA); \
  for (int j = 0; j < KWB; ++j) \
    for (int i = 0; i < NVB; ++i) \
      optune_cp_async16(&blm[s][(lb_k + j * KDIMB) * NWGV + lb_n + i * NDIMB], \
                        bt_ + (lb_k + j * KDIMB) * ldbv + lb_n + i * NDIMB); \
}
#endif
