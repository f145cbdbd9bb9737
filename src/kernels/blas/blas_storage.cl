// blas_storage: how the BLAS kernels (blas1, blas2, blas_tri, blas_extra)
// load and store their vectors' and matrices' elements; the host puts it
// before them (their check-prepend line).
//
// HALF 1: f16 storage (ST half) with the arithmetic in TYPE float: elements
// load through vload_half and store through vstore_half (round to nearest
// even), which core OpenCL has, so no cl_khr_fp16 is needed and every
// device runs them; sums, partial states and scratch stay float, so a result
// is rounded to half once, on its store. HALF 0: ST is TYPE, plain accesses.
//
//   LDE(p, k), STE(p, k, v)        element k of p (an index in elements)
//   GET(p, b, inc, i), PUT(...)    element i of a strided vector (base b)
//
// Also the element type's defaults and the arithmetic every BLAS program
// shares, real or complex (pairs, COMPLEX 1): MUL, MULC (conj(a) b), CONJ,
// ZERO, ISZERO.

#ifndef TYPE
#define TYPE float       // element type: float, double, float2 (c32), double2 (c64)
#endif
#ifndef REAL
#define REAL float       // its part type
#endif
#ifndef COMPLEX
#define COMPLEX 0        // 1 for float2 / double2
#endif
#ifndef HALF
#define HALF 0
#endif

#if COMPLEX
#define MUL(a, b) OPTUNE_CAT(optune_cmul_, REAL)(a, b)
#define MULC(a, b) OPTUNE_CAT(optune_cmulc_, REAL)(a, b)
#define CONJ(a) OPTUNE_CAT(optune_conj_, REAL)(a)
#define ZERO OPTUNE_SPLAT(REAL, 2, 0)
#define ISZERO(a) ((a).x == (REAL)0 && (a).y == (REAL)0)
#else
#define MUL(a, b) ((a) * (b))
#define MULC(a, b) ((a) * (b))
#define CONJ(a) (a)
#define ZERO ((REAL)0)
#define ISZERO(a) ((a) == (REAL)0)
#endif

#define BLAS_IDX(b, inc, i) ((size_t)((long)(b) + (long)(i) * (inc)))
#if HALF
#define ST half
#define LDE(p, k) vload_half((size_t)(k), p)
#define STE(p, k, v) vstore_half((v), (size_t)(k), p)
#else
#define ST TYPE
#define LDE(p, k) ((p)[k])
#define STE(p, k, v) ((p)[k] = (v))
#endif
#define GET(p, b, inc, i) LDE(p, BLAS_IDX(b, inc, i))
#define PUT(p, b, inc, i, v) STE(p, BLAS_IDX(b, inc, i), v)
