// conv_implicit_defs: the implicit-GEMM convolution's parameters (defines
// and their defaults), the loader shapes and pack types they imply, and the
// tensor-core variant's warp tiling (conv_implicit.cl describes the kernel);
// the host puts this text between conv_common.cl and conv_implicit.cl.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl

#ifndef MWG
#define MWG 128          // pixels (rows of C) per work-group
#endif
#ifndef NWG
#define NWG 64           // output channels (columns of C) per work-group
#endif
#ifndef KWG
#define KWG 16           // channels (of one tap) per local tile
#endif
#ifndef MDIMC
#define MDIMC 16         // work-items along m (local dimension 0)
#endif
#ifndef NDIMC
#define NDIMC 16         // work-items along n (local dimension 1)
#endif
#ifndef AV
#define AV 1             // NHWC input: channels per A load (one pack; derived by the host)
#endif
#ifndef VWM
#define VWM 1            // SIMT: rows per local read of A (a pack)
#endif
#ifndef VWN
#define VWN 1            // SIMT: columns per local read of B (a pack)
#endif
#ifndef FLAT
#define FLAT 0           // 1: the depth in chunks of KWG over (c, r, s) together (few channels per group)
#endif
#if FLAT && AV > 1
#error "conv_implicit: FLAT loads element by element (AV 1)"
#endif
#ifndef TAPS_INNER
#define TAPS_INNER 0     // 1: the steps run the taps within each channel chunk (0: the chunks within each tap)
#endif
#ifndef SPLITK
#define SPLITK 1         // slices of the depth per tile (> 1: raw sums to `part`, conv_implicit_sum finishes)
#endif

#ifndef MMA
#define MMA 0            // 1: tensor cores (CUDA sm_80+, f16 / bf16 storage; below)
#endif

#define MWI (MWG / MDIMC)  // rows per work-item
#define NWI (NWG / NDIMC)  // columns per work-item
#define IWGS (MDIMC * NDIMC)

// The A tile's loaders: LAM along m by LAK along the channels, AMI rows and
// AKI channels each (the host's check keeps KWG MWG >= IWGS, all powers of
// two).
#if IN_NHWC
#define LAK (KWG / AV < IWGS ? KWG / AV : IWGS)
#define LAM (IWGS / LAK)
#else
#define LAM (MWG < IWGS ? MWG : IWGS)
#define LAK (IWGS / LAM)
#endif
#define AMI (MWG / LAM)
#define AKI (KWG / (LAK * AV))
// Work-item tx's row i and ty's column j of the tile (SIMT; MMA: VWM = VWN = 1).
#define MROW(i) (((i) / VWM) * (MDIMC * VWM) + tx * VWM + (i) % VWM)
#define NCOL(j) (((j) / VWN) * (NDIMC * VWN) + ty * VWN + (j) % VWN)
// The B tile's loaders: LBK along the channels by LBN along n.
#define LBK (KWG < IWGS ? KWG : IWGS)
#define LBN (IWGS / LBK)
#define BNI (NWG / LBN)
#define BKI (KWG / LBK)

#if MMA
// The tensor-core variant: the same loaders and stages, holding the
// storage type's 16 bits (f16 or bf16) row by row ([m][k], [n][k]: a
// fragment's pair of depths is one 32-bit word; rows padded by 8 so that a
// fragment's 8 rows fall in distinct banks), and the product by
// mma.sync m16n8k16 in f32. The IWGS / 32 warps split the tile into warp
// tiles of MMA_WM x MMA_WN (MMA_WN = 32, or NWG when narrower), each
// holding MMA_FM x MMA_FN fragments of 16 x 8 (the host's check keeps
// these whole).
#define MMA_WARPS (IWGS / 32)
#define MMA_WN (NWG < 32 ? NWG : 32)
#define MMA_WARPS_N (NWG / MMA_WN)
#define MMA_WARPS_M (MMA_WARPS / MMA_WARPS_N)
#define MMA_WM (MWG / MMA_WARPS_M)
#define MMA_FM (MMA_WM / 16)
#define MMA_FN (MMA_WN / 8)
#define MMA_KS (KWG + 8)  // a local row's 16-bit elements
#if BF16_STORAGE
#define conv_mma optune_mma_bf16_16816
#else
#define conv_mma optune_mma_f16_16816
#endif
#if !OPTUNE_BACKEND_CUDA
#error "conv_implicit's MMA variant needs mma.sync (CUDA, compute capability 8.0 or newer)"
#endif
#define LDS32(p) (*(const uint*)(p))  // a 32-bit word of a local tile (a fragment's pair)
typedef ushort stage_t;  // the operands' bits
#define STAGE_LOAD(p, i) (((__global const ushort*)(p))[i])
#define STAGE_ZERO ((ushort)0)
// An A pack: AV elements' bits as one word of 2, 4 or 8 bytes... 16.
#define APACK_1 ushort
#define APACK_2 uint
#define APACK_4 uint2
#define APACK_8 uint4
typedef OPTUNE_CAT(APACK_, AV) apack_t;
#else
typedef float stage_t;
#define STAGE_LOAD(p, i) ((float)GEMM_LOAD(p, i))
#define STAGE_ZERO 0.0f
#endif
#if VWM > 1 || VWN > 1
#define LOCAL_PAD 4  // keeps the local rows' packs aligned
#else
#define LOCAL_PAD 1  // loaders along kk store to distinct banks
#endif
