// blas1_defs: the level-1 program's parameters (defines and their
// defaults), Blue's constants for nrm2, and the packs of contiguous vectors
// (real, and complex in the element-wise entries); blas1.cl describes the
// routines. The host puts this text between blas_storage.cl and blas1.cl.
//
// check-prepend: blas/blas_storage.cl

#ifndef WGS
#define WGS 256          // work-items per group (a power of two)
#endif
#ifndef VW
#define VW 1             // elements per access where increments are 1 (1, 2, 4; 8 on CPUs; complex: 2, 4 on CPUs)
#endif
#ifndef NRM2V
#define NRM2V 0          // nrm2 by packs: 1 the middle range's squares as vectors (not on CUDA)
#endif

#ifndef INFINITY
#define INFINITY (1.0f / 0.0f)
#endif

#define AT(p, b, inc, i) (p)[(long)(b) + (long)(i) * (inc)]

// Storage (blas_storage.cl): ST the vectors' element (and dot's and sum's
// result), RST asum's and nrm2's result.
#if HALF
#define RST half
#else
#define RST REAL
#endif
#define SET STE

#if COMPLEX
#define ABS1(a) OPTUNE_CAT(optune_cabs1_, REAL)(a)
#else
#define ABS1(a) fabs(a)
#endif

// Blue's thresholds and scales (LAPACK's la_constants): values above TBIG are
// summed scaled by SBIG, below TSML scaled by SSML, the rest as they are.
#ifndef REAL_DOUBLE
#define REAL_DOUBLE 0    // 1 when REAL is double
#endif
#if REAL_DOUBLE
#define TSML 0x1p-511
#define TBIG 0x1p486
#define SSML 0x1p537
#define SBIG 0x1p-538
#else
#define TSML 0x1p-63f
#define TBIG 0x1p52f
#define SSML 0x1p75f
#define SBIG 0x1p-76f
#endif

// Contiguous vectors of a real type (both increments 1, both bases multiples
// of VW: allocations are aligned far beyond a pack) go by packs of VW
// elements, one access each; the last n mod VW elements, and every other
// call, element by element from `first`.
#define VEC (VW > 1 && !COMPLEX)
#if VEC
#define VT OPTUNE_VEC(TYPE, VW)
#if HALF
#define LOADV(p, b, at) OPTUNE_CAT(optune_vload_half, VW)(p, (b) + (at))
#define STOREV(v, p, b, at) OPTUNE_CAT(optune_vstore_half, VW)(v, p, (b) + (at))
#else
#define LOADV(p, b, at) OPTUNE_GLOAD(TYPE, VW, p, (b) + (at))
#define STOREV(v, p, b, at) OPTUNE_GSTORE(TYPE, VW, v, p, (b) + (at))
#endif
#endif

// Complex vectors (CVEC: OpenCL, where the host sets it, on CPUs) go by
// packs too in the element-wise entries: VW elements as 2 VW reals, one
// access each; a product by a complex alpha is re(alpha) v + im(alpha)
// CSWAP(v), CSWAP(v) = (-im, re) of each element.
#define CVEC (VW > 1 && COMPLEX && !OPTUNE_BACKEND_CUDA)
#if CVEC
#if VW == 2
#define CW 4
#define CSWAP(v) ((VT)(-(v).s1, (v).s0, -(v).s3, (v).s2))
#elif VW == 4
#define CW 8
#define CSWAP(v) ((VT)(-(v).s1, (v).s0, -(v).s3, (v).s2, -(v).s5, (v).s4, -(v).s7, (v).s6))
#else
#error "complex packs of 2 or 4 elements"
#endif
#define VT OPTUNE_VEC(REAL, CW)
#define LOADV(p, b, at) OPTUNE_GLOAD(REAL, CW, p, (__global const REAL*)((b) + (at)))
#define STOREV(v, p, b, at) OPTUNE_GSTORE(REAL, CW, v, p, (__global REAL*)((b) + (at)))
#define VMUL(a, v) ((a).x * (v) + (a).y * CSWAP(v))
#else
#define VMUL(a, v) ((a) * (v))
#endif
// The element-wise entries' packs (VT, LOADV, STOREV, VMUL: real or complex),
// for vectors whose increments are 1 and whose bases are multiples of VW.
#define PACKED (VEC || CVEC)
#define CONTIG(xb, incx, yb, incy) ((incx) == 1 && (incy) == 1 && (xb) % VW == 0 && (yb) % VW == 0)
