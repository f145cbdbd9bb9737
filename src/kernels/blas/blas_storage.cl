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

#ifndef HALF
#define HALF 0
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
