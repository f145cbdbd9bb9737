// conv_depthwise_defs: the depthwise kernel's parameters (defines and their
// defaults; conv_depthwise.cl describes the kernel), the sizes they imply,
// and the NHWC sums' arithmetic (f32, or half2 pairs under HALF): the pack
// loads X_LOAD, the products MAC and the sums' type ACC_T. The host puts
// this text between conv_common.cl and conv_depthwise.cl.
//
// check-prepend: gemm/gemm_flags.cl gemm/gemm_common.cl conv/conv_common.cl

#ifndef WGS
#define WGS 128          // work-items per group
#endif
#ifndef FR
#define FR 3             // filter rows
#endif
#ifndef FS
#define FS 3             // filter columns
#endif
#ifndef RPT
#define RPT 1            // output rows per work-item
#endif
#ifndef WPT
#define WPT 4            // NCHW: outputs along W per work-item
#endif
#ifndef VEC
#define VEC 0            // NCHW: 1 stores the WPT outputs as one pack
#endif
#ifndef VIN
#define VIN 0            // NCHW, FAST: 1 loads the window's middle WPT inputs as one pack
#endif
#ifndef PLC
#define PLC 0            // with VIN: the left pad (the argument PL), at most FS - 1
#endif
#ifndef VW
#define VW 1             // NHWC: channels per work-item (one pack)
#endif
#ifndef PPT
#define PPT 1            // NHWC: output pixels along W per work-item
#endif
#ifndef WVEC
#define WVEC 0           // NHWC: 1 loads the VW channels' weights as FR FS packs of VW
#endif
#ifndef FAST
#define FAST 0           // 1: dilation 1, strides SHC, SWC (each input row of the tile loaded once)
#endif
#ifndef SHC
#define SHC 1            // FAST: the stride along H (the argument SH)
#endif
#ifndef SWC
#define SWC 1            // FAST: the stride along W (the argument SW)
#endif
#ifndef STAGE
#define STAGE 0          // NCHW: 1 stages the window rows' middle packs in local memory
#endif
#ifndef IDX64
#define IDX64 0          // 1: the work-item's index divided in 64 bits (grids past 2^32 work-items)
#endif
#ifndef ROLL
#define ROLL 0           // FAST: 1 stores each output row once its last input row is in
#endif
#ifndef HALF
#define HALF 0           // NHWC f16: 1 sums in half2 pairs of channels (half arithmetic)
#endif
#define TAPS (FR * FS)
#if (VIN || STAGE) && (SHC != 1 || SWC != 1)
#error "VIN and STAGE read the window as the tile's own stride-1 inputs"
#endif
// FAST: the tile's input rows, and its window's width (NHWC: pixels; NCHW: elements).
#define NIR ((RPT - 1) * SHC + FR)
#define XWN ((PPT - 1) * SWC + FS)
#define XWC ((WPT - 1) * SWC + FS)
// ROLL: at input row ir, the output row whose last input row was ir - 1, if any.
#define ROLL_DUE(ir) ((ir) >= FR && ((ir) - FR) % SHC == 0)

// NHWC sums: LANES values of ACC_T per pack of VW channels; X_LOAD(i, dst)
// the input's pack i (of VW elements) into dst[LANES], MAC one product added.
#if IN_NHWC && HALF
#define LANES (VW / 2)
#define ACC_T half2
// The pair (a, b) and (0, 0).
OPTUNE_FUNC half2 conv_pair(const half a, const half b) {
  half2 r;
  r.x = a;
  r.y = b;
  return r;
}
#define ACC_ZERO conv_pair((half)0, (half)0)
#define MAC(a, w, x) a = fma(w, x, a)
#if OPTUNE_BACKEND_CUDA
// A pack of VW halves as one access of 4, 8 or 16 bytes (two of 16 for 16
// halves), split into pairs.
// (NVRTC has no memcpy builtin; cuda_fp16.h's own __HALF2_TO_UI reads a
// half2's word through the same cast.)
OPTUNE_FUNC half2 conv_word_pair(const uint u) { return *reinterpret_cast<const half2*>(&u); }
#if VW == 2
#define X_LOAD(i, dst) dst[0] = ((const __global half2*)in)[i];
#elif VW == 4
#define X_LOAD(i, dst)                                          \
  {                                                             \
    const uint2 w_ = ((const __global uint2*)in)[i];            \
    dst[0] = conv_word_pair(w_.x);                              \
    dst[1] = conv_word_pair(w_.y);                              \
  }
#else
#define X_LOAD(i, dst)                                                     \
  {                                                                        \
    _Pragma("unroll") for (int h_ = 0; h_ < VW / 8; ++h_) {                \
      const uint4 w_ = ((const __global uint4*)in)[(i) * (VW / 8) + h_];   \
      dst[4 * h_] = conv_word_pair(w_.x);                                  \
      dst[4 * h_ + 1] = conv_word_pair(w_.y);                              \
      dst[4 * h_ + 2] = conv_word_pair(w_.z);                              \
      dst[4 * h_ + 3] = conv_word_pair(w_.w);                              \
    }                                                                      \
  }
#endif
#define CONV_PAIR_FLOATS(h) __half22float2(h)
#else
#define X_LOAD(i, dst) \
  _Pragma("unroll") for (int h_ = 0; h_ < LANES; ++h_) dst[h_] = ((const __global half2*)in)[(i) * LANES + h_];
#define CONV_PAIR_FLOATS(h) convert_float2(h)
#endif
#elif IN_NHWC
#define LANES VW
#define ACC_T real
#define ACC_ZERO ((real)0)
#define MAC(a, w, x) a += (w) * (x)
#define X_LOAD(i, dst)                                  \
  {                                                     \
    const OPTUNE_VEC(float, VW) xv_ = CONV_VLOAD(VW, i, in); \
    OPTUNE_VUNPACK(VW, xv_, dst);                       \
  }
#endif
