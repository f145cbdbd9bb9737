// elementwise: for every element i of the output(s),
//   (o0, o1) = EW_BODY(i0, i1, i2, i3, scalars)
// the data-movement template behind every element-wise operator (what to
// compute comes from the host as the EW_BODY macro; this file says how data
// moves, in the manner of OneFlow's element-wise template).
//
// Operands: N_IN inputs and N_OUT outputs, each a pointer plus an element
// offset. Each has a storage type (INk_T / OUTk_T) and a kind:
//   0 plain: loaded and stored by conversion        (float, double, int, char, uchar)
//   1 half : vload_half / vstore_half, core OpenCL   (no cl_khr_fp16 needed)
//   2 saturating store to an integer type from a floating compute type
//       (NaN -> 0, clamped to [OUTk_LO, OUTk_HI])
//   3 bf16 : vload_bf16 / vstore_bf16 (the prelude's, ushort bits)
//
// CONTIGUOUS = 1: all operands are dense and of the output's shape. Each
// work-item moves EPT packs of VW elements per operand (one vector access
// each), G apart where G is the grid's size so that neighbours stay adjacent;
// it issues all EPT loads before computing, so more bytes are in flight
// when the arithmetic is long (gelu on f16 packs). The last n mod VW elements
// are done one per work-item by the first ones:
//
//   in0:  | pack 0 | pack 1 | ... | pack G | pack G+1 | ... | pack P-1 | tail |
//           wi 0     wi 1           wi 0     wi 1                       (P = n / VW)
//
// CONTIGUOUS = 0: broadcast or strided operands. The output index is split
// over NDIM collapsed dimensions (EwMeta.shape, last fastest) and each
// operand's element is sum(coord[d] * stride[k][d]); one element per work-item.
//
// GRID_STRIDE = 1 runs a grid of a few waves whose work-items stride by the
// grid; 0 covers the whole array with one pack (or element) per work-item.
//
// check-variant: -DN_IN=2 -DIN1_KIND=1 -DIN1_T=half -DCONTIGUOUS=0 -DNDIM=3
// check-variant: -DN_IN=3 -DN_OUT=2 -DVW=16 -DIN0_T=uchar -DOUT0_T=uchar -DOUT0_KIND=2 -DOUT0_LO=0 -DOUT0_HI=255
// check-variant: -DCT=double -DVW=2 -DIN0_T=double -DOUT0_T=half -DOUT0_KIND=1 -DGRID_STRIDE=1
// check-variant: -DVW=8 -DIN0_T=half -DIN0_KIND=1 -DOUT0_T=half -DOUT0_KIND=1 -DEW_APPROX=1 -DEPT=2
// check-variant: -DN_IN=2 -DEPT=4 -DGRID_STRIDE=1
// check-variant: -DVW=8 -DIN0_T=bf16 -DIN0_KIND=3 -DOUT0_T=bf16 -DOUT0_KIND=3 -DEW_APPROX=1 -DEPT=2
// check-variant: -DN_IN=2 -DIN1_KIND=3 -DIN1_T=bf16 -DOUT0_T=half -DOUT0_KIND=1 -DCONTIGUOUS=0 -DNDIM=2
// check-variant: -DCT=double -DVW=2 -DIN0_T=bf16 -DIN0_KIND=3 -DOUT0_T=double

#ifndef N_IN
#define N_IN 1           // inputs (0..4)
#endif
#ifndef N_OUT
#define N_OUT 1          // outputs (1..2)
#endif
#ifndef CT
#define CT float         // compute type
#endif
#ifndef VW
#define VW 4             // elements per access (contiguous path)
#endif
#ifndef EPT
#define EPT 1            // packs per work-item, loaded before any is computed
#endif
#ifndef WGS
#define WGS 256          // work-items per group
#endif
#ifndef CONTIGUOUS
#define CONTIGUOUS 1     // 1: dense packs; 0: broadcast/strided through EwMeta
#endif
#ifndef GRID_STRIDE
#define GRID_STRIDE 0    // 0: one pack per work-item; 1: grid-stride loop
#endif
#ifndef NDIM
#define NDIM 1           // collapsed dimensions of the strided path
#endif
#ifndef N_SCALARS
#define N_SCALARS 0      // scalar parameters, read as S(k)
#endif
#ifndef ALIASED
#define ALIASED 0        // 1 when an output is also an input (in place)
#endif
#ifndef EW_BODY
#define EW_BODY o0 = i0; // what to compute: reads i0..i3 and S(k), writes o0, o1
#endif

#ifndef IN0_T
#define IN0_T float
#endif
#ifndef IN1_T
#define IN1_T float
#endif
#ifndef IN2_T
#define IN2_T float
#endif
#ifndef IN3_T
#define IN3_T float
#endif
#ifndef OUT0_T
#define OUT0_T float
#endif
#ifndef OUT1_T
#define OUT1_T float
#endif
#ifndef IN0_KIND
#define IN0_KIND 0
#endif
#ifndef IN1_KIND
#define IN1_KIND 0
#endif
#ifndef IN2_KIND
#define IN2_KIND 0
#endif
#ifndef IN3_KIND
#define IN3_KIND 0
#endif
#ifndef OUT0_KIND
#define OUT0_KIND 0
#endif
#ifndef OUT1_KIND
#define OUT1_KIND 0
#endif

typedef CT real;

#ifndef EW_DOUBLE
#define EW_DOUBLE 0      // 1 when the compute type is double
#endif
// erfc of the compute type. In double, the library's. In float, a rational
// Chebyshev fit in t = 1 / (1 + |x| / 2) under one exp (fractional error
// about 1.2e-7, plus the float rounding of x * x in the exponent, below 3e-6
// where erfc is a normal float): CPU OpenCL libraries call a scalar erfc per
// lane, which made gelu 200 times slower than relu on PoCL; this vectorises.
//
// EW_APPROX = 1 when every floating operand is stored as f16: results round to
// 11 bits, so the hardware's approximate reciprocal and exp (native_*, about
// 1 ulp of float on GPUs) are exact enough, and with a shorter fit of erfc
// below they cut the arithmetic that made gelu f16 compute-bound on the H100.
#ifndef EW_APPROX
#define EW_APPROX 0
#endif
#if EW_APPROX
#define EW_EXP(x) native_exp(x)
#else
#define EW_EXP(x) exp(x)
#endif
#if EW_DOUBLE
#define ew_erfc(x) erfc(x)
#elif EW_APPROX
// f16 results: the same form with a cubic in t = 1 / (1 + 0.47 |x|), fitted
// here (weighted least squares towards minimax on |x| <= 4.2; beyond, gelu's
// result is below half the smallest f16 subnormal) to a relative error of
// 8.2e-5, about a sixth of an f16 ulp: every f16 input then rounds to within
// one ulp of the exact gelu. Three multiply-adds instead of nine.
OPTUNE_FUNC float ew_erfc(const float x) {
  const float z = fabs(x);
  const float t = native_recip(1.0f + 0.47f * z);
  const float p = -1.30528438f + t * (0.828649759f + t * (0.859470963f + t * -0.382775724f));
  const float r = t * EW_EXP(p - z * z);
  return x >= 0.0f ? r : (x != x ? x : 2.0f - r);
}
#else
// t by the hardware's reciprocal and one Newton step (within an ulp or two):
// an IEEE division here cost gelu 5% of the copy ceiling on NVIDIA's OpenCL,
// whose division is a long sequence. |x| is capped at 12, where exp(-z * z)
// is already 0 in float, so that d stays finite (the step would give NaN
// for d = inf); NaN still comes back as NaN below.
OPTUNE_FUNC float ew_erfc(const float x) {
  const float z = fmin(fabs(x), 12.0f);
  const float d = 1.0f + 0.5f * z, r0 = native_recip(d);
  const float t = fma(r0, fma(-d, r0, 1.0f), r0);
  const float p = -1.26551223f + t * (1.00002368f + t * (0.37409196f + t * (0.09678418f + t * (-0.18628806f +
                  t * (0.27886807f + t * (-1.13520398f + t * (1.48851587f + t * (-0.82215223f + t * 0.17087277f))))))));
  const float r = t * EW_EXP(p - z * z);
  return x >= 0.0f ? r : (x != x ? x : 2.0f - r);
}
#endif
#define N_OPS (N_IN + N_OUT)
#define N_SCALAR_SLOTS (N_SCALARS > 0 ? N_SCALARS : 1)
#if ALIASED
#define EW_RESTRICT
#else
#define EW_RESTRICT restrict
#endif

typedef struct { real v[N_SCALAR_SLOTS]; } EwScalars;
typedef struct {
  ulong shape[NDIM];
  long stride[N_OPS][NDIM];  // inputs first, then outputs
} EwMeta;
#define S(k) (sc.v[k])

// ---- loads and stores by kind ----
#define LOAD1_0(T, p, i) ((real)(p)[i])
#define LOAD1_1(T, p, i) ((real)vload_half((i), (p)))
#define LOAD1_2 LOAD1_0
#define LOAD1_3(T, p, i) ((real)vload_bf16((i), (p)))
#define LOAD1(K, T, p, i) OPTUNE_CAT(LOAD1_, K)(T, p, i)

#define STORE1_0(T, LO, HI, v, p, i) ((p)[i] = (T)(v))
#define STORE1_1(T, LO, HI, v, p, i) vstore_half((float)(v), (i), (p))
#define STORE1_2(T, LO, HI, v, p, i) ((p)[i] = optune_saturate(T, LO, HI, v))
#define STORE1_3(T, LO, HI, v, p, i) vstore_bf16((float)(v), (i), (p))
#define STORE1(K, T, LO, HI, v, p, i) OPTUNE_CAT(STORE1_, K)(T, LO, HI, v, p, i)
// NaN -> 0; clamp in the compute type before converting.
#define optune_saturate(T, LO, HI, v) \
  ((v) != (v) ? (T)0 : (v) <= (real)(LO) ? (T)(LO) : (v) >= (real)(HI) ? (T)(HI) : (T)(v))

#define LOADV_0(T, p, pk, arr) { const OPTUNE_VEC(T, VW) v_ = OPTUNE_GLOAD(T, VW, pk, p); OPTUNE_VUNPACK(VW, v_, arr); }
#define LOADV_1(T, p, pk, arr) { const OPTUNE_VEC(float, VW) v_ = OPTUNE_CAT(optune_gload_half, VW)(pk, p); OPTUNE_VUNPACK(VW, v_, arr); }
#define LOADV_2 LOADV_0
#define LOADV_3(T, p, pk, arr) { const OPTUNE_VEC(float, VW) v_ = OPTUNE_CAT(optune_gload_bf16, VW)(pk, p); OPTUNE_VUNPACK(VW, v_, arr); }
#define LOADV(K, T, p, pk, arr) OPTUNE_CAT(LOADV_, K)(T, p, pk, arr)

#define STOREV_0(T, LO, HI, arr, p, pk) { T t_[VW]; for (int l_ = 0; l_ < VW; ++l_) t_[l_] = (T)arr[l_]; OPTUNE_GSTORE(T, VW, OPTUNE_VPACK(T, VW, t_), pk, p); }
#define STOREV_1(T, LO, HI, arr, p, pk) { float t_[VW]; for (int l_ = 0; l_ < VW; ++l_) t_[l_] = (float)arr[l_]; OPTUNE_CAT(optune_gstore_half, VW)(OPTUNE_VPACK(float, VW, t_), pk, p); }
#define STOREV_2(T, LO, HI, arr, p, pk) { T t_[VW]; for (int l_ = 0; l_ < VW; ++l_) t_[l_] = optune_saturate(T, LO, HI, arr[l_]); OPTUNE_GSTORE(T, VW, OPTUNE_VPACK(T, VW, t_), pk, p); }
#define STOREV_3(T, LO, HI, arr, p, pk) { float t_[VW]; for (int l_ = 0; l_ < VW; ++l_) t_[l_] = (float)arr[l_]; OPTUNE_CAT(optune_gstore_bf16, VW)(OPTUNE_VPACK(float, VW, t_), pk, p); }
#define STOREV(K, T, LO, HI, arr, p, pk) OPTUNE_CAT(STOREV_, K)(T, LO, HI, arr, p, pk)

#ifndef OUT0_LO
#define OUT0_LO 0
#define OUT0_HI 0
#endif
#ifndef OUT1_LO
#define OUT1_LO 0
#define OUT1_HI 0
#endif

// Applies EW_BODY to lane values; unused inputs read as 0.
#define APPLY(v0, v1, v2, v3, r0, r1)                                   \
  {                                                                     \
    const real i0 = (v0), i1 = (v1), i2 = (v2), i3 = (v3);              \
    real o0 = (real)0, o1 = (real)0;                                    \
    (void)i0; (void)i1; (void)i2; (void)i3;                             \
    EW_BODY                                                             \
    r0 = o0; r1 = o1;                                                   \
  }

// Per-operand pieces: operands past N_IN / N_OUT read as 0 and store nothing.
#if N_IN > 0
#define PTR_IN0 __global const IN0_T* p0 = in0 + off_in0;
#define PACK_IN0(pk, arr) LOADV(IN0_KIND, IN0_T, p0, pk, arr)
#define ONE_IN0(i) LOAD1(IN0_KIND, IN0_T, p0, i)
#else
#define PTR_IN0
#define PACK_IN0(pk, arr) for (int l_ = 0; l_ < VW; ++l_) (arr)[l_] = (real)0;
#define ONE_IN0(i) ((real)0)
#endif
#if N_IN > 1
#define PTR_IN1 __global const IN1_T* p1 = in1 + off_in1;
#define PACK_IN1(pk, arr) LOADV(IN1_KIND, IN1_T, p1, pk, arr)
#define ONE_IN1(i) LOAD1(IN1_KIND, IN1_T, p1, i)
#else
#define PTR_IN1
#define PACK_IN1(pk, arr) for (int l_ = 0; l_ < VW; ++l_) (arr)[l_] = (real)0;
#define ONE_IN1(i) ((real)0)
#endif
#if N_IN > 2
#define PTR_IN2 __global const IN2_T* p2 = in2 + off_in2;
#define PACK_IN2(pk, arr) LOADV(IN2_KIND, IN2_T, p2, pk, arr)
#define ONE_IN2(i) LOAD1(IN2_KIND, IN2_T, p2, i)
#else
#define PTR_IN2
#define PACK_IN2(pk, arr) for (int l_ = 0; l_ < VW; ++l_) (arr)[l_] = (real)0;
#define ONE_IN2(i) ((real)0)
#endif
#if N_IN > 3
#define PTR_IN3 __global const IN3_T* p3 = in3 + off_in3;
#define PACK_IN3(pk, arr) LOADV(IN3_KIND, IN3_T, p3, pk, arr)
#define ONE_IN3(i) LOAD1(IN3_KIND, IN3_T, p3, i)
#else
#define PTR_IN3
#define PACK_IN3(pk, arr) for (int l_ = 0; l_ < VW; ++l_) (arr)[l_] = (real)0;
#define ONE_IN3(i) ((real)0)
#endif
#if N_OUT > 0
#define PTR_OUT0 __global OUT0_T* q0 = out0 + off_out0;
#define PACK_OUT0(pk) STOREV(OUT0_KIND, OUT0_T, OUT0_LO, OUT0_HI, r0, q0, pk)
#define ONE_OUT0(v, i) STORE1(OUT0_KIND, OUT0_T, OUT0_LO, OUT0_HI, v, q0, i);
#else
#define PTR_OUT0
#define PACK_OUT0(pk)
#define ONE_OUT0(v, i)
#endif
#if N_OUT > 1
#define PTR_OUT1 __global OUT1_T* q1 = out1 + off_out1;
#define PACK_OUT1(pk) STOREV(OUT1_KIND, OUT1_T, OUT1_LO, OUT1_HI, r1, q1, pk)
#define ONE_OUT1(v, i) STORE1(OUT1_KIND, OUT1_T, OUT1_LO, OUT1_HI, v, q1, i);
#else
#define PTR_OUT1
#define PACK_OUT1(pk)
#define ONE_OUT1(v, i)
#endif

#define IN_PARAM(k) __global const OPTUNE_CAT(OPTUNE_CAT(IN, k), _T)* EW_RESTRICT in##k, const ulong off_in##k,
#define OUT_PARAM(k) __global OPTUNE_CAT(OPTUNE_CAT(OUT, k), _T)* EW_RESTRICT out##k, const ulong off_out##k,

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void elementwise(const ulong n,
#if N_IN > 0
                 IN_PARAM(0)
#endif
#if N_IN > 1
                 IN_PARAM(1)
#endif
#if N_IN > 2
                 IN_PARAM(2)
#endif
#if N_IN > 3
                 IN_PARAM(3)
#endif
                 OUT_PARAM(0)
#if N_OUT > 1
                 OUT_PARAM(1)
#endif
                 const EwScalars sc, const EwMeta meta) {
  (void)sc;
  (void)meta;
  const ulong gid = get_global_id(0);
  PTR_IN0 PTR_IN1 PTR_IN2 PTR_IN3 PTR_OUT0 PTR_OUT1
#if CONTIGUOUS
  const ulong packs = n / VW;
  const ulong grid = get_global_size(0);
#if GRID_STRIDE
  for (ulong first = gid; first < packs; first += grid * EPT) {
#else
  for (ulong first = gid; first < packs; first = packs) {  // at most once
#endif
    real a0[EPT][VW], a1[EPT][VW], a2[EPT][VW], a3[EPT][VW];
#pragma unroll
    for (int e = 0; e < EPT; ++e) {
      const ulong pk = first + (ulong)e * grid;
      if (pk < packs) { PACK_IN0(pk, a0[e]) PACK_IN1(pk, a1[e]) PACK_IN2(pk, a2[e]) PACK_IN3(pk, a3[e]) }
    }
#pragma unroll
    for (int e = 0; e < EPT; ++e) {
      const ulong pk = first + (ulong)e * grid;
      if (pk < packs) {
        real r0[VW], r1[VW];
#pragma unroll
        for (int l = 0; l < VW; ++l) APPLY(a0[e][l], a1[e][l], a2[e][l], a3[e][l], r0[l], r1[l]);
        PACK_OUT0(pk) PACK_OUT1(pk)
      }
    }
  }
  // The last n mod VW elements, one per work-item of the first group.
  const ulong t = packs * VW + gid;
  if (t < n) {
    real r0, r1;
    APPLY(ONE_IN0(t), ONE_IN1(t), ONE_IN2(t), ONE_IN3(t), r0, r1);
    ONE_OUT0(r0, t) ONE_OUT1(r1, t)
  }
#else
#if GRID_STRIDE
  for (ulong i = gid; i < n; i += get_global_size(0)) {
#else
  for (ulong i = gid; i < n; i = n) {  // at most once
#endif
    long o[N_OPS];
#pragma unroll
    for (int k = 0; k < N_OPS; ++k) o[k] = 0;
    ulong rem = i;
#pragma unroll
    for (int d = NDIM - 1; d >= 0; --d) {
      const ulong q = rem / meta.shape[d];
      const long c = (long)(rem - q * meta.shape[d]);
      rem = q;
#pragma unroll
      for (int k = 0; k < N_OPS; ++k) o[k] += c * meta.stride[k][d];
    }
    real r0, r1;
    APPLY(ONE_IN0(o[0]), ONE_IN1(o[1 < N_OPS ? 1 : 0]), ONE_IN2(o[2 < N_OPS ? 2 : 0]),
          ONE_IN3(o[3 < N_OPS ? 3 : 0]), r0, r1);
    ONE_OUT0(r0, o[N_IN]) ONE_OUT1(r1, o[N_IN + 1 < N_OPS ? N_IN + 1 : N_IN])
  }
#endif
}
