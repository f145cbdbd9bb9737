// optune prelude, common part: valid OpenCL C 1.2 and valid CUDA C++ once the
// backend side (prelude_opencl.cl or prelude_cuda.cl) has been included.
//
// Generic vectors: OPTUNE_VEC(float, 4) is float4 and OPTUNE_VEC(float, 1) is
// float, so a kernel writes its vector width once as a macro (VW) and never a
// ladder of #if VW == 1 ... #elif VW == 16.
//   OPTUNE_VEC(T, N)          the type of N elements of T (N = 1, 2, 4; 8 and
//                             16 only on OpenCL)
//   OPTUNE_GLOAD(T, N, i, p)      pack i (elements N*i .. N*i+N-1) of p, a
//                                 global array of T
//   OPTUNE_GSTORE(T, N, v, i, p)  store v as pack i of p
//   OPTUNE_LLOAD(T, N, i, p), OPTUNE_LSTORE(T, N, v, i, p)   the same in local memory
//   OPTUNE_SPLAT(T, N, x)         N copies of x
//   OPTUNE_VSUM(N, v)             the sum of v's components
// A pack of N > 1 is one access aligned to the pack on every backend: the
// host only picks N > 1 when the pointer and offset are multiples of the
// pack's size. The packs are pointer casts, not OpenCL's vloadN, because
// vloadN promises only the element's alignment and NVIDIA's OpenCL compiler
// then makes N scalar loads of it (its PTX, 2026-11-29); T must be p's
// element type, named by a macro or a built-in type (a typedef name does not
// paste into its vector type's name).

#define OPTUNE_CAT_(a, b) a##b
#define OPTUNE_CAT(a, b) OPTUNE_CAT_(a, b)

#define OPTUNE_VEC_1(T) T
#define OPTUNE_VEC_2(T) T##2
#define OPTUNE_VEC_4(T) T##4
#define OPTUNE_VEC_8(T) T##8
#define OPTUNE_VEC_16(T) T##16
#define OPTUNE_VEC(T, N) OPTUNE_CAT(OPTUNE_VEC_, N)(T)

#define OPTUNE_GLOAD(T, N, i, p) (((const __global OPTUNE_VEC(T, N)*)(p))[i])
#define OPTUNE_GSTORE(T, N, v, i, p) (((__global OPTUNE_VEC(T, N)*)(p))[i] = (v))
#define OPTUNE_LLOAD(T, N, i, p) (((const OPTUNE_LOCAL_PTR OPTUNE_VEC(T, N)*)(p))[i])
#define OPTUNE_LSTORE(T, N, v, i, p) (((OPTUNE_LOCAL_PTR OPTUNE_VEC(T, N)*)(p))[i] = (v))
#define OPTUNE_SPLAT(T, N, x) OPTUNE_CAT(OPTUNE_SPLAT_, N)(T, x)

#define OPTUNE_VSUM_1(v) (v)
#define OPTUNE_VSUM_2(v) ((v).x + (v).y)
#define OPTUNE_VSUM_4(v) (((v).x + (v).y) + ((v).z + (v).w))
#define OPTUNE_VSUM(N, v) OPTUNE_CAT(OPTUNE_VSUM_, N)(v)

// Ceiling division and rounding up, for index arithmetic in kernels.
#define OPTUNE_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

// Packs to and from arrays, for per-lane work on a loaded pack:
//   OPTUNE_VUNPACK(N, v, a)   a[0..N-1] = lanes of v (converted to a's type)
//   OPTUNE_VPACK(T, N, a)     the N-wide vector of T holding a[0..N-1]
#define OPTUNE_VUNPACK_1(v, a) { (a)[0] = (v); }
#define OPTUNE_VUNPACK_2(v, a) { (a)[0] = (v).x; (a)[1] = (v).y; }
#define OPTUNE_VUNPACK_4(v, a) { (a)[0] = (v).x; (a)[1] = (v).y; (a)[2] = (v).z; (a)[3] = (v).w; }
#define OPTUNE_VUNPACK(N, v, a) OPTUNE_CAT(OPTUNE_VUNPACK_, N)(v, a)
#define OPTUNE_VPACK_1(T, a) ((T)(a)[0])
#define OPTUNE_VPACK_2(T, a) OPTUNE_CAT(make_, T##2)((a)[0], (a)[1])
#define OPTUNE_VPACK_4(T, a) OPTUNE_CAT(make_, T##4)((a)[0], (a)[1], (a)[2], (a)[3])
#define OPTUNE_VPACK(T, N, a) OPTUNE_CAT(OPTUNE_VPACK_, N)(T, a)

// Half storage packs: optune_vload_halfN(i, p) reads pack i of a half array as
// an N-lane float vector, optune_vstore_halfN(v, i, p) writes one (rounding to
// nearest even), each as one access aligned to the pack like optune_vloadN.
// N = 1, 2, 4, 8 on every backend (on CUDA float8 is only a carrier for these
// packs, with .lo/.hi halves), 16 on OpenCL. Defined by the backend side.

// ---- bf16 storage (f32's upper 16 bits), float arithmetic ----
// No backend has a bf16 arithmetic type that both compile, so bf16 is
// `ushort` bits everywhere, converted by hand: to float exactly, from float
// rounded to nearest even (overflow to infinity, NaN kept quiet), as
// optune::bfloat16 does on the host (but for a NaN's sign and payload on
// CUDA sm_80+, whose instruction writes the canonical 0x7fff).
//   vload_bf16(i, p), vstore_bf16(v, i, p)   one element of any address space
//   optune_vload_bf16N(i, p), optune_vstore_bf16N(v, i, p)   pack i of a
//     global bf16 array as an N-lane float vector, one access aligned to the
//     pack (N = 1, 2, 4, 8; 16 on OpenCL); optune_gload/gstore_bf16N the same
typedef ushort bf16;
OPTUNE_FUNC float optune_bf16_to_float(const ushort b) { return as_float((uint)b << 16); }
#if OPTUNE_BACKEND_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// sm_80 and newer round in one instruction (cvt.rn.bf16x2.f32: nearest even,
// overflow to infinity, subnormals kept; a NaN becomes the canonical quiet
// NaN, 0x7fff, where the software form below keeps its sign and payload).
// The software form costs a dozen integer instructions a value, which a
// tensor-core epilogue of 128 values per thread cannot hide.
#define OPTUNE_BF16_CVT_HW 1
OPTUNE_FUNC uint optune_float2_to_bf16x2(const float x, const float y) {
  uint w;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(y), "f"(x));  // y to the upper half
  return w;
}
OPTUNE_FUNC ushort optune_float_to_bf16(const float f) { return (ushort)optune_float2_to_bf16x2(f, 0.0f); }
#else
OPTUNE_FUNC ushort optune_float_to_bf16(const float f) {
  const uint u = as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (ushort)((u >> 16) | 0x40u);
  return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
#endif
#define vload_bf16(i, p) optune_bf16_to_float((p)[i])
#define vstore_bf16(v, i, p) ((p)[i] = optune_float_to_bf16((float)(v)))
#define optune_vload_bf161 vload_bf16
#define optune_vstore_bf161 vstore_bf16
#if OPTUNE_BACKEND_CUDA
// Pairs of bf16 in one 32-bit word: the low one first.
OPTUNE_FUNC float2 optune_bf16x2_to_float2(const uint w) {
  return make_float2(as_float(w << 16), as_float(w & 0xffff0000u));
}
#if !OPTUNE_BF16_CVT_HW
OPTUNE_FUNC uint optune_float2_to_bf16x2(const float x, const float y) {
  return (uint)optune_float_to_bf16(x) | ((uint)optune_float_to_bf16(y) << 16);
}
#endif
OPTUNE_WORD_PACKS(bf16, bf16, optune_bf16x2_to_float2, optune_float2_to_bf16x2)
#else
// OpenCL: the pack as ushortN, converted lane-wise in vector arithmetic.
#define OPTUNE_BF16_PACK(N)                                                                            \
  OPTUNE_FUNC float##N optune_vload_bf16##N(size_t i, const __global ushort* p) {                     \
    return as_float##N(convert_uint##N(((const __global ushort##N*)p)[i]) << 16);                     \
  }                                                                                                    \
  OPTUNE_FUNC void optune_vstore_bf16##N(float##N v, size_t i, __global ushort* p) {                  \
    const uint##N u = as_uint##N(v);                                                                   \
    const uint##N r = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;                                          \
    ((__global ushort##N*)p)[i] = convert_ushort##N(select(r, (u >> 16) | 0x40u, (u & 0x7fffffffu) > 0x7f800000u)); \
  }
OPTUNE_BF16_PACK(2)
OPTUNE_BF16_PACK(4)
OPTUNE_BF16_PACK(8)
OPTUNE_BF16_PACK(16)
#undef OPTUNE_BF16_PACK
#endif
#define optune_gload_bf161 optune_vload_bf161
#define optune_gload_bf162 optune_vload_bf162
#define optune_gload_bf164 optune_vload_bf164
#define optune_gload_bf168 optune_vload_bf168
#define optune_gload_bf1616 optune_vload_bf1616
#define optune_gstore_bf161 optune_vstore_bf161
#define optune_gstore_bf162 optune_vstore_bf162
#define optune_gstore_bf164 optune_vstore_bf164
#define optune_gstore_bf168 optune_vstore_bf168
#define optune_gstore_bf1616 optune_vstore_bf1616

// ---- complex numbers: interleaved (re, im) pairs ----
// optune's C32 and C64 (std::complex<float> and <double> on the host) are
// float2 and double2 here: .x the real part, .y the imaginary part. Sums,
// differences and real multiples are the vectors' own operators (a + b,
// s * a); the rest are functions named by the part type (R = float, double):
//   optune_cmul_R(a, b)    a b
//   optune_cmulc_R(a, b)   conj(a) b
//   optune_conj_R(a)       conj(a)
//   optune_cabs1_R(a)      |re| + |im| (BLAS's scabs1)
//   optune_cabs_R(a)       |a|, as hypot: no overflow or underflow on the way
#define OPTUNE_COMPLEX_HELPERS(R)                                                                       \
  OPTUNE_FUNC R##2 optune_cmul_##R(const R##2 a, const R##2 b) {                                        \
    return make_##R##2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);                                   \
  }                                                                                                     \
  OPTUNE_FUNC R##2 optune_cmulc_##R(const R##2 a, const R##2 b) {                                       \
    return make_##R##2(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x);                                   \
  }                                                                                                     \
  OPTUNE_FUNC R##2 optune_conj_##R(const R##2 a) { return make_##R##2(a.x, -a.y); }                     \
  OPTUNE_FUNC R optune_cabs1_##R(const R##2 a) { return fabs(a.x) + fabs(a.y); }                        \
  OPTUNE_FUNC R optune_cabs_##R(const R##2 a) { return hypot(a.x, a.y); }
OPTUNE_COMPLEX_HELPERS(float)
#if OPTUNE_HAS_FP64
OPTUNE_COMPLEX_HELPERS(double)
#endif
#undef OPTUNE_COMPLEX_HELPERS
