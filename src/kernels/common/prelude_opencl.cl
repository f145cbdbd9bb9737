// optune prelude, OpenCL side. The runtime puts this before prelude.cl and
// every kernel source when it builds for an OpenCL device. It enables the
// extensions the probed capabilities promise and defines the few spellings
// that OpenCL C and CUDA C++ write differently, so kernels can use one text.
//
// Capability macros set by the runtime (0 or 1): OPTUNE_HAS_SUBGROUPS,
// OPTUNE_HAS_FP16, OPTUNE_HAS_FP64, OPTUNE_HAS_IMAGES. OPTUNE_BACKEND_OPENCL
// is 1 here, OPTUNE_BACKEND_CUDA 0.

#ifndef OPTUNE_BACKEND_OPENCL
#define OPTUNE_BACKEND_OPENCL 1
#endif
#ifndef OPTUNE_BACKEND_CUDA
#define OPTUNE_BACKEND_CUDA 0
#endif

#if OPTUNE_HAS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if OPTUNE_HAS_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#if OPTUNE_HAS_SUBGROUPS
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

// Functions other than kernels (CUDA needs __device__ on them).
#define OPTUNE_FUNC static inline
// A pointer parameter into local memory (CUDA cannot mark one; empty there).
#define OPTUNE_LOCAL_PTR __local
// Fixes the work-group size (CUDA: launch bounds).
#define OPTUNE_WG_SIZE(x, y, z) __attribute__((reqd_work_group_size(x, y, z)))
// Asynchronous copies to local memory (cp.async) are CUDA's (prelude_cuda.cl);
// kernels keep their use under #if OPTUNE_HAS_CP_ASYNC.
#define OPTUNE_HAS_CP_ASYNC 0

// Vector construction: OpenCL's (float4)(a, b, c, d) has no CUDA spelling,
// so kernels write make_float4(a, b, c, d) (CUDA's names) and
// OPTUNE_SPLAT(float, 4, x); these define the make_* names here.
#define OPTUNE_MAKE_VECTORS(T)                                                    \
  static inline T##2 make_##T##2(T a, T b) { return (T##2)(a, b); }                      \
  static inline T##4 make_##T##4(T a, T b, T c, T d) { return (T##4)(a, b, c, d); }
OPTUNE_MAKE_VECTORS(char)
OPTUNE_MAKE_VECTORS(uchar)
OPTUNE_MAKE_VECTORS(short)
OPTUNE_MAKE_VECTORS(ushort)
OPTUNE_MAKE_VECTORS(int)
OPTUNE_MAKE_VECTORS(uint)
OPTUNE_MAKE_VECTORS(long)
OPTUNE_MAKE_VECTORS(ulong)
OPTUNE_MAKE_VECTORS(float)
#if OPTUNE_HAS_FP64
OPTUNE_MAKE_VECTORS(double)
#endif
#undef OPTUNE_MAKE_VECTORS
#define OPTUNE_SPLAT_1(T, x) ((T)(x))
#define OPTUNE_SPLAT_2(T, x) ((T##2)(x))
#define OPTUNE_SPLAT_4(T, x) ((T##4)(x))
#define OPTUNE_SPLAT_8(T, x) ((T##8)(x))
#define OPTUNE_SPLAT_16(T, x) ((T##16)(x))

// Sums of the wide vectors only OpenCL has (prelude.cl covers 1, 2, 4).
#define OPTUNE_VSUM_8(v) OPTUNE_VSUM_4((v).lo + (v).hi)
#define OPTUNE_VSUM_16(v) OPTUNE_VSUM_8((v).lo + (v).hi)

// Wide packs only OpenCL has (prelude.cl covers widths 1, 2, 4).
#define OPTUNE_VUNPACK_8(v, a) { OPTUNE_VUNPACK_4((v).lo, (a)); OPTUNE_VUNPACK_4((v).hi, (a) + 4); }
#define OPTUNE_VUNPACK_16(v, a) { OPTUNE_VUNPACK_8((v).lo, (a)); OPTUNE_VUNPACK_8((v).hi, (a) + 8); }
#define OPTUNE_VPACK_8(T, a) ((T##8)((a)[0], (a)[1], (a)[2], (a)[3], (a)[4], (a)[5], (a)[6], (a)[7]))
#define OPTUNE_VPACK_16(T, a)                                                                      \
  ((T##16)((a)[0], (a)[1], (a)[2], (a)[3], (a)[4], (a)[5], (a)[6], (a)[7], (a)[8], (a)[9], (a)[10], \
           (a)[11], (a)[12], (a)[13], (a)[14], (a)[15]))
// Aligned half packs (vloada_half* is core OpenCL and lets the compiler emit
// one wide access, where vload_half* may only assume 2-byte alignment).
#define optune_vload_half1 vload_half
#define optune_vload_half2 vloada_half2
#define optune_vload_half4 vloada_half4
#define optune_vload_half8 vloada_half8
#define optune_vload_half16 vloada_half16
#define optune_vstore_half1 vstore_half
#define optune_vstore_half2 vstorea_half2
#define optune_vstore_half4 vstorea_half4
#define optune_vstore_half8 vstorea_half8
#define optune_vstore_half16 vstorea_half16

// Half packs in global memory through their bits: one load or store of the
// pack as unsigned integers, converted through a private copy. NVIDIA's
// OpenCL compiles vloada_half8 into eight 16-bit loads; this gives one
// 16-byte access. The pack must be aligned as for vloada_halfN.
#define optune_gload_half1 vload_half
#define optune_gstore_half1 vstore_half
#define OPTUNE_GHALF(N, U)                                                                    \
  OPTUNE_FUNC float##N optune_gload_half##N(size_t i, const __global half* p) {              \
    const U r = ((const __global U*)p)[i];                                                    \
    return vload_half##N(0, (const __private half*)&r);                                       \
  }                                                                                           \
  OPTUNE_FUNC void optune_gstore_half##N(float##N v, size_t i, __global half* p) {           \
    U r;                                                                                      \
    vstore_half##N(v, 0, (__private half*)&r);                                                \
    ((__global U*)p)[i] = r;                                                                  \
  }
OPTUNE_GHALF(2, uint)
OPTUNE_GHALF(4, uint2)
OPTUNE_GHALF(8, uint4)
OPTUNE_GHALF(16, uint8)

