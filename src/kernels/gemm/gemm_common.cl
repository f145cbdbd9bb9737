// gemm_common: what every GEMM kernel shares — element types, loads and
// stores of the storage type, the batch offsets and the fused epilogue
//   C = act(alpha * AB + beta * C + bias)
// The host puts this text before gemm_direct.cl, gemm_tiled.cl and
// gemm_helpers.cl (and so do scripts/check_kernels.sh and the NVRTC test,
// through their "check-prepend" lines).
//
// Every kernel works on the row-major problem: the host turns a column-major
// call into the row-major product C^T = op(B)^T op(A)^T, so C is M x N with
// element (i, j) at i * ldc + j.
//
// Per-call choices that cost nothing at run time are bits of a `flags`
// argument rather than defines, so that one compiled program serves them
// all (PoCL takes seconds per program; every define set is a program); the
// bits are named in gemm_flags.cl, which the host puts before this text.
//
// check-prepend: gemm/gemm_flags.cl
// Product z reads a listed operand at base + table[3 z + which] (which: 0 A,
// 1 B, 2 C); the table is followed by `batch` pairs (alpha, beta) of the
// epilogue type.
//
// The activation GEMM_ACT(A) is an expression over the epilogue type `real`
// (the host passes optune's unary expressions, with act_p0 and act_p1 for
// their parameters); its default is the identity.

#ifndef TYPE
#define TYPE float       // storage type of A and B (and of C unless CTYPE says otherwise)
#endif
#ifndef COMP
#define COMP float       // multiply-accumulate type
#endif
#ifndef EPI
#define EPI float        // epilogue type: alpha, beta, bias, activation
#endif
#ifndef EPI_DOUBLE
#define EPI_DOUBLE 0     // 1 when EPI is double
#endif
#ifndef HALF_STORAGE
#define HALF_STORAGE 0   // 1: TYPE is half, moved through vload_half/vstore_half
#endif
#ifndef BF16_STORAGE
#define BF16_STORAGE 0   // 1: TYPE is bf16 (ushort bits), converted by the prelude
#endif
#ifndef CTYPE
#define CTYPE TYPE       // storage type of C and the bias
#endif
#ifndef C_HALF_STORAGE
#define C_HALF_STORAGE HALF_STORAGE  // 1: CTYPE is half
#endif
#ifndef C_BF16_STORAGE
#define C_BF16_STORAGE BF16_STORAGE  // 1: CTYPE is bf16 (ushort bits)
#endif
#ifndef GEMM_ACT
#define GEMM_ACT(A) (A)  // activation over `real`
#endif

typedef EPI real;

// One element of the storage type as EPI, and back (bf16: the prelude's
// conversions, rounding to nearest even).
#if HALF_STORAGE
#define GEMM_LOAD(p, i) vload_half((i), (p))
#define GEMM_STORE(v, p, i) vstore_half((float)(v), (i), (p))
#elif BF16_STORAGE
#define GEMM_LOAD(p, i) ((real)vload_bf16((i), (p)))
#define GEMM_STORE(v, p, i) vstore_bf16((v), (i), (p))
#else
#define GEMM_LOAD(p, i) ((real)(p)[i])
#define GEMM_STORE(v, p, i) ((p)[i] = (TYPE)(v))
#endif

// The same for C and the bias, whose type may differ from A's and B's (f16
// or bf16 products with an f32, f16 or bf16 C).
#if C_HALF_STORAGE
#define GEMM_CLOAD(p, i) ((real)vload_half((i), (p)))
#define GEMM_CSTORE(v, p, i) vstore_half((float)(v), (i), (p))
#elif C_BF16_STORAGE
#define GEMM_CLOAD(p, i) ((real)vload_bf16((i), (p)))
#define GEMM_CSTORE(v, p, i) vstore_bf16((v), (i), (p))
#else
#define GEMM_CLOAD(p, i) ((real)(p)[i])
#define GEMM_CSTORE(v, p, i) ((p)[i] = (CTYPE)(v))
#endif

// Where product z finds an operand (list: the flag bit of the operand).
#define GEMM_OFFSET(list, base, stride, table, z, which) \
  ((list) ? (base) + (table)[3 * (z) + (which)] : (base) + (z) * (stride))

// erfc of the epilogue type, for gelu (the elementwise family's fit: a
// rational Chebyshev form under one exp, fractional error about 1.2e-7).
#if EPI_DOUBLE
#define ew_erfc(x) erfc(x)
#else
OPTUNE_FUNC float ew_erfc(const float x) {
  const float z = fabs(x);
  const float t = 1.0f / (1.0f + 0.5f * z);
  const float p = -1.26551223f + t * (1.00002368f + t * (0.37409196f + t * (0.09678418f + t * (-0.18628806f +
                  t * (0.27886807f + t * (-1.13520398f + t * (1.48851587f + t * (-0.82215223f + t * 0.17087277f))))))));
  const float r = t * exp(p - z * z);
  return x >= 0.0f ? r : (x != x ? x : 2.0f - r);
}
#endif

// alpha and beta of product z: the kernel's arguments, or the table's pair.
OPTUNE_FUNC real gemm_alpha(const uint flags, const real alpha, __global const ulong* table, const ulong batch,
                            const ulong z) {
  return (flags & GEMM_AB_LIST) ? ((__global const real*)(table + 3 * batch))[2 * z] : alpha;
}
OPTUNE_FUNC real gemm_beta(const uint flags, const real beta, __global const ulong* table, const ulong batch,
                           const ulong z) {
  return (flags & GEMM_AB_LIST) ? ((__global const real*)(table + 3 * batch))[2 * z + 1] : beta;
}

// The bias of element (i, j) of C.
OPTUNE_FUNC real gemm_bias(const uint flags, __global const CTYPE* bias, const ulong i, const ulong j) {
  return (flags & GEMM_BIAS_ROW) ? GEMM_CLOAD(bias, i) : (flags & GEMM_BIAS_COL) ? GEMM_CLOAD(bias, j) : (real)0;
}

// act(alpha * ab + beta * c + bias). alpha == 0 drops the product and
// beta == 0 drops C (whose value the caller then never loaded), so NaN in
// either never reaches the result, as BLAS requires.
OPTUNE_FUNC real gemm_finish(const real ab, const real alpha, const real c, const real beta, const real bias,
                             const real act_p0, const real act_p1) {
  real v = (alpha == (real)0 ? (real)0 : alpha * ab) + (beta == (real)0 ? (real)0 : beta * c) + bias;
  return GEMM_ACT(v);
}
