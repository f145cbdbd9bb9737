// optune prelude, CUDA side, part two: the OpenCL math built-ins that CUDA
// lacks or spells differently, for scalars and for the vectors of
// prelude_cuda.cl. CUDA already has, for float and double scalars, sqrt, exp,
// log, fma, fmin, fmax, min, max, fabs, rsqrt, floor, ceil, ... with the
// OpenCL names; they are only lifted to vectors here. No fast-math: native_*
// and half_* are the explicitly approximate forms, mapped to CUDA intrinsics.

// Lane-wise application of a scalar function to 2- and 4-lane vectors.
#define OPTUNE_MAP1(F, V2, V4) \
  OPTUNE_FUNC V2 F(V2 a) { V2 r; r.x = F(a.x); r.y = F(a.y); return r; } \
  OPTUNE_FUNC V4 F(V4 a) { V4 r; r.x = F(a.x); r.y = F(a.y); r.z = F(a.z); r.w = F(a.w); return r; }
#define OPTUNE_MAP2(F, V2, V4) \
  OPTUNE_FUNC V2 F(V2 a, V2 b) { V2 r; r.x = F(a.x, b.x); r.y = F(a.y, b.y); return r; } \
  OPTUNE_FUNC V4 F(V4 a, V4 b) { \
    V4 r; r.x = F(a.x, b.x); r.y = F(a.y, b.y); r.z = F(a.z, b.z); r.w = F(a.w, b.w); return r; \
  }
#define OPTUNE_MAP3(F, V2, V4) \
  OPTUNE_FUNC V2 F(V2 a, V2 b, V2 c) { V2 r; r.x = F(a.x, b.x, c.x); r.y = F(a.y, b.y, c.y); return r; } \
  OPTUNE_FUNC V4 F(V4 a, V4 b, V4 c) { \
    V4 r; r.x = F(a.x, b.x, c.x); r.y = F(a.y, b.y, c.y); r.z = F(a.z, b.z, c.z); r.w = F(a.w, b.w, c.w); \
    return r; \
  }
// double has no 4-lane vector on CUDA 13 (double4 is deprecated): 2 only.
#define OPTUNE_MAP1_D(F) OPTUNE_FUNC double2 F(double2 a) { return make_double2(F(a.x), F(a.y)); }
#define OPTUNE_MAP2_D(F) \
  OPTUNE_FUNC double2 F(double2 a, double2 b) { return make_double2(F(a.x, b.x), F(a.y, b.y)); }
#define OPTUNE_MAP3_D(F) \
  OPTUNE_FUNC double2 F(double2 a, double2 b, double2 c) { return make_double2(F(a.x, b.x, c.x), F(a.y, b.y, c.y)); }

// ---- scalar forms CUDA lacks ----

OPTUNE_FUNC float mad(float a, float b, float c) { return a * b + c; }
OPTUNE_FUNC double mad(double a, double b, double c) { return a * b + c; }

OPTUNE_FUNC float native_exp(float x) { return __expf(x); }
OPTUNE_FUNC float native_exp2(float x) { return exp2f(x); }
OPTUNE_FUNC float native_exp10(float x) { return __exp10f(x); }
OPTUNE_FUNC float native_log(float x) { return __logf(x); }
OPTUNE_FUNC float native_log2(float x) { return __log2f(x); }
OPTUNE_FUNC float native_log10(float x) { return __log10f(x); }
OPTUNE_FUNC float native_sqrt(float x) { return sqrtf(x); }
OPTUNE_FUNC float native_rsqrt(float x) { return rsqrtf(x); }
OPTUNE_FUNC float native_recip(float x) { return __fdividef(1.0f, x); }  // MUFU.RCP, no IEEE fix-up
OPTUNE_FUNC float native_divide(float x, float y) { return __fdividef(x, y); }
OPTUNE_FUNC float native_powr(float x, float y) { return __powf(x, y); }
OPTUNE_FUNC float native_sin(float x) { return __sinf(x); }
OPTUNE_FUNC float native_cos(float x) { return __cosf(x); }
OPTUNE_FUNC float native_tan(float x) { return __tanf(x); }
#define half_exp native_exp
#define half_exp2 native_exp2
#define half_exp10 native_exp10
#define half_log native_log
#define half_log2 native_log2
#define half_log10 native_log10
#define half_sqrt native_sqrt
#define half_rsqrt native_rsqrt
#define half_recip native_recip
#define half_divide native_divide
#define half_powr native_powr
#define half_sin native_sin
#define half_cos native_cos
#define half_tan native_tan

#define OPTUNE_SCALAR_COMMON(T) \
  OPTUNE_FUNC T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); } \
  OPTUNE_FUNC T mix(T a, T b, T t) { return a + (b - a) * t; } \
  OPTUNE_FUNC T step(T edge, T x) { return x < edge ? (T)0 : (T)1; } \
  OPTUNE_FUNC T smoothstep(T e0, T e1, T x) { \
    const T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1); \
    return t * t * ((T)3 - (T)2 * t); \
  } \
  OPTUNE_FUNC T sign(T x) { return x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : x == x ? x : (T)0; } \
  OPTUNE_FUNC T degrees(T r) { return r * (T)57.295779513082320876798154814105; } \
  OPTUNE_FUNC T radians(T d) { return d * (T)0.017453292519943295769236907684886; }
OPTUNE_SCALAR_COMMON(float) OPTUNE_SCALAR_COMMON(double)
OPTUNE_FUNC int clamp(int x, int lo, int hi) { return min(max(x, lo), hi); }
OPTUNE_FUNC uint clamp(uint x, uint lo, uint hi) { return min(max(x, lo), hi); }
OPTUNE_FUNC int mul24(int a, int b) { return __mul24(a, b); }
OPTUNE_FUNC uint mul24(uint a, uint b) { return __umul24(a, b); }
OPTUNE_FUNC int mad24(int a, int b, int c) { return __mul24(a, b) + c; }
OPTUNE_FUNC uint mad24(uint a, uint b, uint c) { return __umul24(a, b) + c; }
OPTUNE_FUNC int popcount(int x) { return __popc((uint)x); }
OPTUNE_FUNC uint popcount(uint x) { return __popc(x); }
OPTUNE_FUNC int clz(int x) { return __clz(x); }
OPTUNE_FUNC uint clz(uint x) { return __clz((int)x); }

// select(a, b, c): c ? b : a for scalars; per lane on the sign bit of c for vectors.
#define OPTUNE_SELECT(T, C) OPTUNE_FUNC T select(T a, T b, C c) { return c ? b : a; }
OPTUNE_SELECT(float, int) OPTUNE_SELECT(float, uint) OPTUNE_SELECT(double, long) OPTUNE_SELECT(double, ulong)
OPTUNE_SELECT(int, int) OPTUNE_SELECT(int, uint) OPTUNE_SELECT(uint, int) OPTUNE_SELECT(uint, uint)
#define OPTUNE_SELECT_V(V2, V4, C2, C4) \
  OPTUNE_FUNC V2 select(V2 a, V2 b, C2 c) { \
    V2 r; r.x = c.x < 0 ? b.x : a.x; r.y = c.y < 0 ? b.y : a.y; return r; \
  } \
  OPTUNE_FUNC V4 select(V4 a, V4 b, C4 c) { \
    V4 r; r.x = c.x < 0 ? b.x : a.x; r.y = c.y < 0 ? b.y : a.y; r.z = c.z < 0 ? b.z : a.z; \
    r.w = c.w < 0 ? b.w : a.w; return r; \
  }
OPTUNE_SELECT_V(float2, float4, int2, int4) OPTUNE_SELECT_V(int2, int4, int2, int4)

// Conversions (default rounding: to zero for float to integer, as C casts)
// and reinterpretations.
#define OPTUNE_CONVERT(T) template <class S> OPTUNE_FUNC T convert_##T(S x) { return (T)x; }
OPTUNE_CONVERT(float) OPTUNE_CONVERT(double) OPTUNE_CONVERT(int) OPTUNE_CONVERT(uint) OPTUNE_CONVERT(long)
OPTUNE_CONVERT(ulong) OPTUNE_CONVERT(short) OPTUNE_CONVERT(ushort) OPTUNE_CONVERT(char) OPTUNE_CONVERT(uchar)
OPTUNE_FUNC int convert_int_rte(float x) { return __float2int_rn(x); }
OPTUNE_FUNC int convert_int_sat(float x) { return __float2int_rz(x); }  // cvt saturates; NaN gives 0
OPTUNE_FUNC float2 convert_float2(int2 v) { return make_float2((float)v.x, (float)v.y); }
OPTUNE_FUNC float4 convert_float4(int4 v) { return make_float4((float)v.x, (float)v.y, (float)v.z, (float)v.w); }
OPTUNE_FUNC float2 convert_float2(uint2 v) { return make_float2((float)v.x, (float)v.y); }
OPTUNE_FUNC float4 convert_float4(uint4 v) { return make_float4((float)v.x, (float)v.y, (float)v.z, (float)v.w); }
OPTUNE_FUNC float2 convert_float2(double2 v) { return make_float2((float)v.x, (float)v.y); }
OPTUNE_FUNC double2 convert_double2(float2 v) { return make_double2(v.x, v.y); }
OPTUNE_FUNC int2 convert_int2(float2 v) { return make_int2((int)v.x, (int)v.y); }
OPTUNE_FUNC int4 convert_int4(float4 v) { return make_int4((int)v.x, (int)v.y, (int)v.z, (int)v.w); }
OPTUNE_FUNC float as_float(int x) { return __int_as_float(x); }
OPTUNE_FUNC float as_float(uint x) { return __uint_as_float(x); }
OPTUNE_FUNC int as_int(float x) { return __float_as_int(x); }
OPTUNE_FUNC uint as_uint(float x) { return __float_as_uint(x); }
OPTUNE_FUNC double as_double(long x) { return __longlong_as_double(x); }
OPTUNE_FUNC double as_double(ulong x) { return __longlong_as_double((long long)x); }
OPTUNE_FUNC long as_long(double x) { return __double_as_longlong(x); }
OPTUNE_FUNC ulong as_ulong(double x) { return (ulong)__double_as_longlong(x); }

// ---- vector forms ----

#define OPTUNE_UNARY_MATH(F) OPTUNE_MAP1(F, float2, float4) OPTUNE_MAP1_D(F)
OPTUNE_UNARY_MATH(sqrt) OPTUNE_UNARY_MATH(rsqrt) OPTUNE_UNARY_MATH(exp) OPTUNE_UNARY_MATH(exp2)
OPTUNE_UNARY_MATH(log) OPTUNE_UNARY_MATH(log2) OPTUNE_UNARY_MATH(fabs) OPTUNE_UNARY_MATH(floor)
OPTUNE_UNARY_MATH(ceil) OPTUNE_UNARY_MATH(round) OPTUNE_UNARY_MATH(trunc) OPTUNE_UNARY_MATH(sin)
OPTUNE_UNARY_MATH(cos) OPTUNE_UNARY_MATH(tanh) OPTUNE_UNARY_MATH(sign)
OPTUNE_MAP1(native_exp, float2, float4) OPTUNE_MAP1(native_log, float2, float4)
OPTUNE_MAP1(native_sqrt, float2, float4) OPTUNE_MAP1(native_rsqrt, float2, float4)
OPTUNE_MAP1(native_recip, float2, float4) OPTUNE_MAP1(native_sin, float2, float4)
OPTUNE_MAP1(native_cos, float2, float4) OPTUNE_MAP2(native_divide, float2, float4)

#define OPTUNE_BINARY_MATH(F) OPTUNE_MAP2(F, float2, float4) OPTUNE_MAP2_D(F)
OPTUNE_BINARY_MATH(fmin) OPTUNE_BINARY_MATH(fmax) OPTUNE_BINARY_MATH(min) OPTUNE_BINARY_MATH(max)
OPTUNE_BINARY_MATH(pow) OPTUNE_BINARY_MATH(step)
OPTUNE_MAP2(min, int2, int4) OPTUNE_MAP2(max, int2, int4) OPTUNE_MAP2(min, uint2, uint4) OPTUNE_MAP2(max, uint2, uint4)

#define OPTUNE_TERNARY_MATH(F) OPTUNE_MAP3(F, float2, float4) OPTUNE_MAP3_D(F)
OPTUNE_TERNARY_MATH(fma) OPTUNE_TERNARY_MATH(mad) OPTUNE_TERNARY_MATH(clamp) OPTUNE_TERNARY_MATH(mix)
OPTUNE_MAP3(clamp, int2, int4) OPTUNE_MAP3(clamp, uint2, uint4)

// OpenCL's vector-with-scalar forms.
#define OPTUNE_VS_FORMS(V, S) \
  OPTUNE_FUNC V fmin(V a, S b) { return fmin(a, optune_vec_of<V>::splat(b)); } \
  OPTUNE_FUNC V fmax(V a, S b) { return fmax(a, optune_vec_of<V>::splat(b)); } \
  OPTUNE_FUNC V min(V a, S b) { return min(a, optune_vec_of<V>::splat(b)); } \
  OPTUNE_FUNC V max(V a, S b) { return max(a, optune_vec_of<V>::splat(b)); } \
  OPTUNE_FUNC V clamp(V x, S lo, S hi) { \
    return clamp(x, optune_vec_of<V>::splat(lo), optune_vec_of<V>::splat(hi)); \
  } \
  OPTUNE_FUNC V mix(V a, V b, S t) { return mix(a, b, optune_vec_of<V>::splat(t)); } \
  OPTUNE_FUNC V step(S edge, V x) { return step(optune_vec_of<V>::splat(edge), x); }
template <class V> struct optune_vec_of;
template <> struct optune_vec_of<float2> : optune_vec<float, 2> {};
template <> struct optune_vec_of<float4> : optune_vec<float, 4> {};
template <> struct optune_vec_of<double2> : optune_vec<double, 2> {};
OPTUNE_VS_FORMS(float2, float) OPTUNE_VS_FORMS(float4, float) OPTUNE_VS_FORMS(double2, double)

// Geometric.
OPTUNE_FUNC float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
OPTUNE_FUNC float dot(float4 a, float4 b) { return (a.x * b.x + a.y * b.y) + (a.z * b.z + a.w * b.w); }
OPTUNE_FUNC double dot(double2 a, double2 b) { return a.x * b.x + a.y * b.y; }
OPTUNE_FUNC float length(float2 a) { return sqrtf(dot(a, a)); }
OPTUNE_FUNC float length(float4 a) { return sqrtf(dot(a, a)); }

// ---- half arithmetic (fp16 devices) ----

#if OPTUNE_HAS_FP16
OPTUNE_FUNC half fma(half a, half b, half c) { return __hfma(a, b, c); }
OPTUNE_FUNC half2 fma(half2 a, half2 b, half2 c) { return __hfma2(a, b, c); }
OPTUNE_FUNC half mad(half a, half b, half c) { return __hfma(a, b, c); }
OPTUNE_FUNC half2 mad(half2 a, half2 b, half2 c) { return __hfma2(a, b, c); }
OPTUNE_FUNC half fmin(half a, half b) { return __hmin(a, b); }
OPTUNE_FUNC half fmax(half a, half b) { return __hmax(a, b); }
OPTUNE_FUNC half2 fmin(half2 a, half2 b) { return __hmin2(a, b); }
OPTUNE_FUNC half2 fmax(half2 a, half2 b) { return __hmax2(a, b); }
OPTUNE_FUNC half2 operator*(half2 a, half s) { return __hmul2(a, __half2half2(s)); }
OPTUNE_FUNC half2 operator*(half s, half2 a) { return __hmul2(__half2half2(s), a); }
OPTUNE_FUNC half2 operator+(half2 a, half s) { return __hadd2(a, __half2half2(s)); }
OPTUNE_FUNC half2 operator+(half s, half2 a) { return __hadd2(__half2half2(s), a); }
OPTUNE_FUNC half convert_half(float x) { return __float2half_rn(x); }
#endif
