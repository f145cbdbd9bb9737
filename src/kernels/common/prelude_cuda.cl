// optune prelude, CUDA side: CUDA C++ for NVRTC that lets OpenCL C 1.2 kernel
// text compile unchanged. The runtime puts it (then prelude_cuda_math.cl)
// before prelude.cl and every kernel source when it builds for a CUDA device,
// compiling with -default-device so helpers without OPTUNE_FUNC and
// program-scope __constant tables are device entities.
//
// What OpenCL C spells differently and is NOT covered (write kernels so):
//   - vector literals (float4)(a, b, c, d): use make_float4 / OPTUNE_SPLAT;
//   - swizzles and .s0/.lo/.hi: only .x .y .z .w exist; vectors of 8 and 16
//     lanes do not exist (but float8, the carrier of 8-lane half packs), nor
//     half vectors wider than half2;
//   - __local on pointer parameters (CUDA cannot qualify a parameter): write
//     OPTUNE_LOCAL_PTR, which is __local on OpenCL and nothing here; __local
//     kernel arguments (dynamic local memory) do not exist;
//   - the unprefixed spellings kernel/global/local/constant/private.
// Sub-group functions act on warps of 32 and, as in OpenCL, must be reached
// by every lane of the warp; use work-groups whose size is a multiple of 32.

#ifndef OPTUNE_BACKEND_OPENCL
#define OPTUNE_BACKEND_OPENCL 0
#endif
#ifndef OPTUNE_BACKEND_CUDA
#define OPTUNE_BACKEND_CUDA 1
#endif
#ifndef OPTUNE_HAS_FP16
#define OPTUNE_HAS_FP16 0
#endif

// Headers first: the OpenCL spellings defined below must not reach them.
#if OPTUNE_HAS_FP16
#include <cuda_fp16.h>
#endif

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
static_assert(sizeof(ulong) == 8, "OpenCL's ulong is 64 bits");

// ---- qualifiers and attributes ----

#define __kernel extern "C" __global__
#define __global
#define __private
#define __constant const
#define __local __shared__
#define restrict __restrict__
#define OPTUNE_LOCAL_PTR
#define OPTUNE_FUNC __device__ inline
// OPTUNE_REG_CAP (a family's REGS parameter): registers per work-item, as the
// least number of groups that must fit a multiprocessor's 65536 registers.
#if defined(OPTUNE_REG_CAP) && OPTUNE_REG_CAP > 0
#define OPTUNE_WG_MIN_GROUPS(n) (65536 / (OPTUNE_REG_CAP * (n)) > 0 ? 65536 / (OPTUNE_REG_CAP * (n)) : 1)
#define OPTUNE_WG_SIZE(x, y, z) __launch_bounds__((x) * (y) * (z), OPTUNE_WG_MIN_GROUPS((x) * (y) * (z)))
#else
#define OPTUNE_WG_SIZE(x, y, z) __launch_bounds__((x) * (y) * (z))
#endif

// ---- half: arithmetic type with fp16, else a storage type for vload_half ----

#if OPTUNE_HAS_FP16
typedef __half half;
typedef __half2 half2;
OPTUNE_FUNC float optune_half_to_float(half h) { return __half2float(h); }
OPTUNE_FUNC half optune_float_to_half(float f) { return __float2half_rn(f); }
#else
struct half {
  unsigned short bits;
};
OPTUNE_FUNC float optune_half_to_float(half h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
  return f;
}
OPTUNE_FUNC half optune_float_to_half(float f) {
  half h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(f));
  return h;
}
#endif

// ---- work-items ----
// Dimensions past the launch's read as size 1 and index 0, as in OpenCL.

OPTUNE_FUNC size_t optune_dim3_at(dim3 v, uint d) { return d == 0 ? v.x : d == 1 ? v.y : d == 2 ? v.z : 1; }
OPTUNE_FUNC size_t optune_uint3_at(uint3 v, uint d) { return d == 0 ? v.x : d == 1 ? v.y : d == 2 ? v.z : 0; }

OPTUNE_FUNC size_t get_local_id(uint d) { return optune_uint3_at(threadIdx, d); }
OPTUNE_FUNC size_t get_group_id(uint d) { return optune_uint3_at(blockIdx, d); }
OPTUNE_FUNC size_t get_local_size(uint d) { return optune_dim3_at(blockDim, d); }
OPTUNE_FUNC size_t get_num_groups(uint d) { return optune_dim3_at(gridDim, d); }
OPTUNE_FUNC size_t get_global_size(uint d) { return get_num_groups(d) * get_local_size(d); }
OPTUNE_FUNC size_t get_global_id(uint d) { return get_group_id(d) * get_local_size(d) + get_local_id(d); }
OPTUNE_FUNC size_t get_global_offset(uint d) { return 0; }
// CUDA does not record the launch's rank: a trailing dimension of extent 1
// reads as absent.
OPTUNE_FUNC uint get_work_dim() {
  return gridDim.z * blockDim.z > 1 ? 3 : gridDim.y * blockDim.y > 1 ? 2 : 1;
}
OPTUNE_FUNC size_t get_local_linear_id() {
  return (threadIdx.z * (size_t)blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
OPTUNE_FUNC size_t get_enqueued_local_size(uint d) { return get_local_size(d); }

// ---- synchronisation ----

#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
typedef int cl_mem_fence_flags;

OPTUNE_FUNC void barrier(cl_mem_fence_flags flags) { __syncthreads(); }
OPTUNE_FUNC void work_group_barrier(cl_mem_fence_flags flags) { __syncthreads(); }
OPTUNE_FUNC void mem_fence(cl_mem_fence_flags flags) {
  if (flags & CLK_GLOBAL_MEM_FENCE) __threadfence();
  else __threadfence_block();
}
OPTUNE_FUNC void read_mem_fence(cl_mem_fence_flags flags) { mem_fence(flags); }
OPTUNE_FUNC void write_mem_fence(cl_mem_fence_flags flags) { mem_fence(flags); }

// ---- asynchronous copies global -> local (cp.async, compute capability 8.0+) ----
// CUDA-only, so kernels reach them under #if OPTUNE_HAS_CP_ASYNC (0 on
// OpenCL and below sm_80; the compile target decides, not the device, since
// NVRTC may target an older architecture than the device's).
//   optune_cp_async16(dst, src)  starts a copy of 16 bytes, both addresses
//                                aligned to 16; .cg: cached in L2 only, the
//                                data bypass L1 and the registers
//   optune_cp_async_commit()     closes this work-item's group of copies
//   optune_cp_async_wait<N>()    waits until at most N of this work-item's
//                                groups are pending; other work-items'
//                                copies need a barrier after it
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define OPTUNE_HAS_CP_ASYNC 1
OPTUNE_FUNC void optune_cp_async16(OPTUNE_LOCAL_PTR void* dst, const __global void* src) {
  const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
}
OPTUNE_FUNC void optune_cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> OPTUNE_FUNC void optune_cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
// Tensor-core building blocks (shared addresses as 32-bit shared-window
// offsets, __cvta_generic_to_shared of a __local pointer):
//   optune_cp_async16_zfill(dst, src, n)  like optune_cp_async16, but reads
//                                only the first n bytes and zero-fills the
//                                rest (n = 0: nothing read; src still valid)
//   optune_ldmatrix_x4(r, addr)  four 8 x 8 matrices of 16-bit elements; lane
//                                l gives row l % 8 of matrix l / 8, and r[i]
//                                gets two elements of matrix i (.trans:
//                                transposed); optune_lds32 one 32-bit word
//   optune_tf32(x)               f32 bits rounded to tf32 (nearest, ties away)
//   optune_mma_{f16,bf16}_16816(d, a, b), optune_mma_tf32_1688: d += a b for
//                                one 16 x 8 fragment in f32, PTX fragment layouts
OPTUNE_FUNC void optune_cp_async16_zfill(const uint dst, const __global void* src, const uint bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}
OPTUNE_FUNC void optune_ldmatrix_x4(uint* r, const uint addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
OPTUNE_FUNC void optune_ldmatrix_x4_trans(uint* r, const uint addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
OPTUNE_FUNC uint optune_lds32(const uint addr) {
  uint v;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(addr));
  return v;
}
OPTUNE_FUNC uint optune_tf32(const uint x) {
  uint y;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(y) : "f"(__uint_as_float(x)));
  return y;
}
#define OPTUNE_MMA(NAME, SHAPE, IN) \
  OPTUNE_FUNC void NAME(float* d, const uint* a, const uint* b) { \
    asm("mma.sync.aligned." SHAPE ".row.col.f32." IN "." IN ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, " \
        "{%8, %9}, {%0, %1, %2, %3};\n" \
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) \
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])); \
  }
OPTUNE_MMA(optune_mma_f16_16816, "m16n8k16", "f16")
OPTUNE_MMA(optune_mma_bf16_16816, "m16n8k16", "bf16")
OPTUNE_MMA(optune_mma_tf32_1688, "m16n8k8", "tf32")
#undef OPTUNE_MMA
// f64: d += a b for one 16 x 8 fragment of m16n8k8 in f64 (sm_90: the FP64
// tensor cores' full rate; sm_80's m8n8k4 runs at half of it on an H100,
// scripts/gpu/dmma_peak.cu). gemm_mma reads its f64 fragments as plain
// shared loads (gemm_mma_defs.cl: constant offsets become immediates).
#if __CUDA_ARCH__ >= 900
OPTUNE_FUNC void optune_mma_f64_1688(double* d, const double* a, const double* b) {
  asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}
#endif
#else
#define OPTUNE_HAS_CP_ASYNC 0
#endif

// wgmma m64n256 (m64n128) with f32 accumulators (sm_90a): an asm
// statement's 128 (64) accumulator operands d[0..] of a work-item, as the
// braced list's text OPTUNE_WG_D128_TEXT ("%0, ..., %127"; the next operand
// is %128) or OPTUNE_WG_D64_TEXT, and the constraints OPTUNE_WG_D128(d) or
// OPTUNE_WG_D64(d).
#define OPTUNE_WG_D64_TEXT \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define OPTUNE_WG_D128_TEXT OPTUNE_WG_D64_TEXT ", " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define OPTUNE_WG_R8(d, i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), \
                           "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define OPTUNE_WG_R32(d, i) OPTUNE_WG_R8(d, i), OPTUNE_WG_R8(d, i + 8), OPTUNE_WG_R8(d, i + 16), OPTUNE_WG_R8(d, i + 24)
#define OPTUNE_WG_D64(d) OPTUNE_WG_R32(d, 0), OPTUNE_WG_R32(d, 32)
#define OPTUNE_WG_D128(d) OPTUNE_WG_D64(d), OPTUNE_WG_R32(d, 64), OPTUNE_WG_R32(d, 96)

// ---- vector types: N lanes of T, splats, and their arithmetic ----

template <class T, int N> struct optune_vec;
#define OPTUNE_VEC_TRAITS2(T, V) \
  template <> struct optune_vec<T, 2> { \
    typedef V type; \
    static __device__ V splat(T s) { V v; v.x = s; v.y = s; return v; } \
  };
#define OPTUNE_VEC_TRAITS4(T, V) \
  template <> struct optune_vec<T, 4> { \
    typedef V type; \
    static __device__ V splat(T s) { V v; v.x = s; v.y = s; v.z = s; v.w = s; return v; } \
  };
OPTUNE_VEC_TRAITS2(float, float2) OPTUNE_VEC_TRAITS4(float, float4)
OPTUNE_VEC_TRAITS2(double, double2)
OPTUNE_VEC_TRAITS2(char, char2) OPTUNE_VEC_TRAITS4(char, char4)
OPTUNE_VEC_TRAITS2(uchar, uchar2) OPTUNE_VEC_TRAITS4(uchar, uchar4)
OPTUNE_VEC_TRAITS2(short, short2) OPTUNE_VEC_TRAITS4(short, short4)
OPTUNE_VEC_TRAITS2(ushort, ushort2) OPTUNE_VEC_TRAITS4(ushort, ushort4)
OPTUNE_VEC_TRAITS2(int, int2) OPTUNE_VEC_TRAITS4(int, int4)
OPTUNE_VEC_TRAITS2(uint, uint2) OPTUNE_VEC_TRAITS4(uint, uint4)
OPTUNE_VEC_TRAITS2(long, long2) OPTUNE_VEC_TRAITS2(ulong, ulong2)
#if OPTUNE_HAS_FP16
OPTUNE_VEC_TRAITS2(half, half2)
#endif

#define OPTUNE_SPLAT_1(T, x) ((T)(x))
#define OPTUNE_SPLAT_2(T, x) (optune_vec<T, 2>::splat(x))
#define OPTUNE_SPLAT_4(T, x) (optune_vec<T, 4>::splat(x))

// Operators of vector with vector, vector with scalar and scalar with vector
// (OpenCL widens the scalar), and the compound assignments.
#define OPTUNE_BINOP2(V, S, OP) \
  OPTUNE_FUNC V operator OP(V a, V b) { return make_##V(a.x OP b.x, a.y OP b.y); } \
  OPTUNE_FUNC V operator OP(V a, S s) { return make_##V(a.x OP s, a.y OP s); } \
  OPTUNE_FUNC V operator OP(S s, V b) { return make_##V(s OP b.x, s OP b.y); } \
  OPTUNE_FUNC V& operator OP##=(V& a, V b) { return a = a OP b; } \
  OPTUNE_FUNC V& operator OP##=(V& a, S s) { return a = a OP s; }
#define OPTUNE_BINOP4(V, S, OP) \
  OPTUNE_FUNC V operator OP(V a, V b) { return make_##V(a.x OP b.x, a.y OP b.y, a.z OP b.z, a.w OP b.w); } \
  OPTUNE_FUNC V operator OP(V a, S s) { return make_##V(a.x OP s, a.y OP s, a.z OP s, a.w OP s); } \
  OPTUNE_FUNC V operator OP(S s, V b) { return make_##V(s OP b.x, s OP b.y, s OP b.z, s OP b.w); } \
  OPTUNE_FUNC V& operator OP##=(V& a, V b) { return a = a OP b; } \
  OPTUNE_FUNC V& operator OP##=(V& a, S s) { return a = a OP s; }
#define OPTUNE_ARITH(N, V, S) \
  OPTUNE_BINOP##N(V, S, +) OPTUNE_BINOP##N(V, S, -) OPTUNE_BINOP##N(V, S, *) OPTUNE_BINOP##N(V, S, /)
#define OPTUNE_BITS(N, V, S) \
  OPTUNE_BINOP##N(V, S, %) OPTUNE_BINOP##N(V, S, &) OPTUNE_BINOP##N(V, S, |) OPTUNE_BINOP##N(V, S, ^) \
  OPTUNE_BINOP##N(V, S, <<) OPTUNE_BINOP##N(V, S, >>)

OPTUNE_ARITH(2, float2, float) OPTUNE_ARITH(4, float4, float) OPTUNE_ARITH(2, double2, double)
OPTUNE_ARITH(2, int2, int) OPTUNE_ARITH(4, int4, int) OPTUNE_ARITH(2, uint2, uint) OPTUNE_ARITH(4, uint4, uint)
OPTUNE_BITS(2, int2, int) OPTUNE_BITS(4, int4, int) OPTUNE_BITS(2, uint2, uint) OPTUNE_BITS(4, uint4, uint)

OPTUNE_FUNC float2 operator-(float2 a) { return make_float2(-a.x, -a.y); }
OPTUNE_FUNC float4 operator-(float4 a) { return make_float4(-a.x, -a.y, -a.z, -a.w); }
OPTUNE_FUNC double2 operator-(double2 a) { return make_double2(-a.x, -a.y); }
OPTUNE_FUNC int2 operator-(int2 a) { return make_int2(-a.x, -a.y); }
OPTUNE_FUNC int4 operator-(int4 a) { return make_int4(-a.x, -a.y, -a.z, -a.w); }

// ---- loads and stores ----
// vloadN/vstoreN: OpenCL's, element-aligned (the prelude's OPTUNE_GLOAD and
// friends are the aligned packs).

template <class T> OPTUNE_FUNC typename optune_vec<T, 2>::type vload2(size_t i, const T* p) {
  typename optune_vec<T, 2>::type v;
  p += 2 * i;
  v.x = p[0]; v.y = p[1];
  return v;
}
template <class T> OPTUNE_FUNC typename optune_vec<T, 4>::type vload4(size_t i, const T* p) {
  typename optune_vec<T, 4>::type v;
  p += 4 * i;
  v.x = p[0]; v.y = p[1]; v.z = p[2]; v.w = p[3];
  return v;
}
template <class T> OPTUNE_FUNC void vstore2(typename optune_vec<T, 2>::type v, size_t i, T* p) {
  p += 2 * i;
  p[0] = v.x; p[1] = v.y;
}
template <class T> OPTUNE_FUNC void vstore4(typename optune_vec<T, 4>::type v, size_t i, T* p) {
  p += 4 * i;
  p[0] = v.x; p[1] = v.y; p[2] = v.z; p[3] = v.w;
}

// Half storage with float arithmetic (core OpenCL); stores round to nearest even.
OPTUNE_FUNC float vload_half(size_t i, const half* p) { return optune_half_to_float(p[i]); }
OPTUNE_FUNC float2 vload_half2(size_t i, const half* p) {
  p += 2 * i;
  return make_float2(optune_half_to_float(p[0]), optune_half_to_float(p[1]));
}
OPTUNE_FUNC float4 vload_half4(size_t i, const half* p) {
  p += 4 * i;
  return make_float4(optune_half_to_float(p[0]), optune_half_to_float(p[1]), optune_half_to_float(p[2]),
                     optune_half_to_float(p[3]));
}
OPTUNE_FUNC void vstore_half(float v, size_t i, half* p) { p[i] = optune_float_to_half(v); }
OPTUNE_FUNC void vstore_half2(float2 v, size_t i, half* p) {
  p += 2 * i;
  p[0] = optune_float_to_half(v.x); p[1] = optune_float_to_half(v.y);
}
OPTUNE_FUNC void vstore_half4(float4 v, size_t i, half* p) {
  p += 4 * i;
  p[0] = optune_float_to_half(v.x); p[1] = optune_float_to_half(v.y);
  p[2] = optune_float_to_half(v.z); p[3] = optune_float_to_half(v.w);
}
#define vstore_half_rte vstore_half
#define vstore_half2_rte vstore_half2
#define vstore_half4_rte vstore_half4

// Aligned half packs (prelude.cl): one 4-, 8- or 16-byte access, converted a
// pair of halves at a time. float8 exists only to carry 8-lane packs.
struct float8 {
  float4 lo, hi;
};
#define OPTUNE_VUNPACK_8(v, a) { OPTUNE_VUNPACK_4((v).lo, (a)); OPTUNE_VUNPACK_4((v).hi, (a) + 4); }
#define OPTUNE_VPACK_8(T, a) \
  (float8{make_float4((a)[0], (a)[1], (a)[2], (a)[3]), make_float4((a)[4], (a)[5], (a)[6], (a)[7])})
OPTUNE_FUNC float2 optune_halves_to_float2(uint w) {
  float2 f;
  asm("{.reg .b16 l, h;\n\tmov.b32 {l, h}, %2;\n\tcvt.f32.f16 %0, l;\n\tcvt.f32.f16 %1, h;}"
      : "=f"(f.x), "=f"(f.y) : "r"(w));
  return f;
}
OPTUNE_FUNC uint optune_float2_to_halves(float x, float y) {
  uint w;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(y), "f"(x));  // one instruction; y to the upper half
#else
  asm("{.reg .b16 l, h;\n\tcvt.rn.f16.f32 l, %1;\n\tcvt.rn.f16.f32 h, %2;\n\tmov.b32 %0, {l, h};}"
      : "=r"(w) : "f"(x), "f"(y));
#endif
  return w;
}
#define optune_vload_half1 vload_half
#define optune_vstore_half1 vstore_half
// Packs of 2, 4, 8 16-bit values of type T as 32-bit words of two, converted
// by TO2 (word -> float2) and FROM2 (two floats -> word): optune_vload_NAMEn
// and optune_vstore_NAMEn (prelude.cl makes the bf16 ones with it).
#define OPTUNE_WORD_PACKS(NAME, T, TO2, FROM2)                                                              \
  OPTUNE_FUNC float2 optune_vload_##NAME##2(size_t i, const T* p) {                                         \
    return TO2(reinterpret_cast<const uint*>(p)[i]);                                                        \
  }                                                                                                         \
  OPTUNE_FUNC float4 optune_vload_##NAME##4(size_t i, const T* p) {                                         \
    const uint2 w = reinterpret_cast<const uint2*>(p)[i];                                                   \
    const float2 a = TO2(w.x), b = TO2(w.y);                                                                \
    return make_float4(a.x, a.y, b.x, b.y);                                                                 \
  }                                                                                                         \
  OPTUNE_FUNC float8 optune_vload_##NAME##8(size_t i, const T* p) {                                         \
    const uint4 w = reinterpret_cast<const uint4*>(p)[i];                                                   \
    const float2 a = TO2(w.x), b = TO2(w.y), c = TO2(w.z), d = TO2(w.w);                                    \
    return float8{make_float4(a.x, a.y, b.x, b.y), make_float4(c.x, c.y, d.x, d.y)};                        \
  }                                                                                                         \
  OPTUNE_FUNC void optune_vstore_##NAME##2(float2 v, size_t i, T* p) {                                      \
    reinterpret_cast<uint*>(p)[i] = FROM2(v.x, v.y);                                                        \
  }                                                                                                         \
  OPTUNE_FUNC void optune_vstore_##NAME##4(float4 v, size_t i, T* p) {                                      \
    reinterpret_cast<uint2*>(p)[i] = make_uint2(FROM2(v.x, v.y), FROM2(v.z, v.w));                          \
  }                                                                                                         \
  OPTUNE_FUNC void optune_vstore_##NAME##8(float8 v, size_t i, T* p) {                                      \
    reinterpret_cast<uint4*>(p)[i] =                                                                        \
        make_uint4(FROM2(v.lo.x, v.lo.y), FROM2(v.lo.z, v.lo.w), FROM2(v.hi.x, v.hi.y), FROM2(v.hi.z, v.hi.w)); \
  }
OPTUNE_WORD_PACKS(half, half, optune_halves_to_float2, optune_float2_to_halves)
// Global packs: the same on CUDA (OpenCL's differ, see prelude_opencl.cl).
#define optune_gload_half1 optune_vload_half1
#define optune_gload_half2 optune_vload_half2
#define optune_gload_half4 optune_vload_half4
#define optune_gload_half8 optune_vload_half8
#define optune_gstore_half1 optune_vstore_half1
#define optune_gstore_half2 optune_vstore_half2
#define optune_gstore_half4 optune_vstore_half4
#define optune_gstore_half8 optune_vstore_half8

// ---- sub-groups as warps ----

#define OPTUNE_WARP 32u
#define OPTUNE_ALL_LANES 0xffffffffu

OPTUNE_FUNC uint get_sub_group_local_id() { return (uint)get_local_linear_id() % OPTUNE_WARP; }
OPTUNE_FUNC uint get_sub_group_id() { return (uint)get_local_linear_id() / OPTUNE_WARP; }
OPTUNE_FUNC uint get_num_sub_groups() {
  return (blockDim.x * blockDim.y * blockDim.z + OPTUNE_WARP - 1) / OPTUNE_WARP;
}
OPTUNE_FUNC uint get_enqueued_num_sub_groups() { return get_num_sub_groups(); }
// The last warp of a group whose size is no multiple of 32 is partial.
OPTUNE_FUNC uint get_sub_group_size() {
  const uint rest = blockDim.x * blockDim.y * blockDim.z - get_sub_group_id() * OPTUNE_WARP;
  return rest < OPTUNE_WARP ? rest : OPTUNE_WARP;
}
OPTUNE_FUNC uint get_max_sub_group_size() {
  const uint n = blockDim.x * blockDim.y * blockDim.z;
  return n < OPTUNE_WARP ? n : OPTUNE_WARP;
}
OPTUNE_FUNC void sub_group_barrier() { __syncwarp(); }
OPTUNE_FUNC void sub_group_barrier(cl_mem_fence_flags flags) { __syncwarp(); }
OPTUNE_FUNC int sub_group_all(int p) { return __all_sync(OPTUNE_ALL_LANES, p); }
OPTUNE_FUNC int sub_group_any(int p) { return __any_sync(OPTUNE_ALL_LANES, p); }
template <class T> OPTUNE_FUNC T sub_group_broadcast(T x, uint lane) { return __shfl_sync(OPTUNE_ALL_LANES, x, lane); }

// Butterfly: after log2(32) exchanges every lane holds the result.
#define OPTUNE_SG_REDUCE(T, NAME, EXPR) \
  OPTUNE_FUNC T sub_group_reduce_##NAME(T x) { \
    for (int o = OPTUNE_WARP / 2; o > 0; o /= 2) { \
      const T y = __shfl_xor_sync(OPTUNE_ALL_LANES, x, o); \
      x = EXPR; \
    } \
    return x; \
  }
#define OPTUNE_SG_REDUCTIONS(T) \
  OPTUNE_SG_REDUCE(T, add, x + y) OPTUNE_SG_REDUCE(T, min, min(x, y)) OPTUNE_SG_REDUCE(T, max, max(x, y))
OPTUNE_SG_REDUCTIONS(int) OPTUNE_SG_REDUCTIONS(uint) OPTUNE_SG_REDUCTIONS(float) OPTUNE_SG_REDUCTIONS(double)
OPTUNE_SG_REDUCTIONS(long) OPTUNE_SG_REDUCTIONS(ulong)

// Inclusive prefix sum over the warp (Hillis-Steele with shuffles).
#define OPTUNE_SG_SCAN(T) \
  OPTUNE_FUNC T sub_group_scan_inclusive_add(T x) { \
    const uint lane = get_sub_group_local_id(); \
    for (uint o = 1; o < OPTUNE_WARP; o *= 2) { \
      const T y = __shfl_up_sync(OPTUNE_ALL_LANES, x, o); \
      if (lane >= o) x += y; \
    } \
    return x; \
  } \
  OPTUNE_FUNC T sub_group_scan_exclusive_add(T x) { \
    const T inc = sub_group_scan_inclusive_add(x); \
    const T prev = __shfl_up_sync(OPTUNE_ALL_LANES, inc, 1); \
    return get_sub_group_local_id() == 0 ? (T)0 : prev; \
  }
OPTUNE_SG_SCAN(int) OPTUNE_SG_SCAN(uint) OPTUNE_SG_SCAN(float) OPTUNE_SG_SCAN(double)

// ---- atomics (OpenCL 1.2, 32-bit; global and local pointers alike) ----
// OpenCL takes volatile pointers; CUDA's atomics do not, hence the casts.

#define OPTUNE_ATOMICS(T) \
  OPTUNE_FUNC T atomic_add(volatile T* p, T v) { return atomicAdd((T*)p, v); } \
  OPTUNE_FUNC T atomic_sub(volatile T* p, T v) { return atomicSub((T*)p, v); } \
  OPTUNE_FUNC T atomic_inc(volatile T* p) { return atomicAdd((T*)p, (T)1); } \
  OPTUNE_FUNC T atomic_dec(volatile T* p) { return atomicSub((T*)p, (T)1); } \
  OPTUNE_FUNC T atomic_min(volatile T* p, T v) { return atomicMin((T*)p, v); } \
  OPTUNE_FUNC T atomic_max(volatile T* p, T v) { return atomicMax((T*)p, v); } \
  OPTUNE_FUNC T atomic_and(volatile T* p, T v) { return atomicAnd((T*)p, v); } \
  OPTUNE_FUNC T atomic_or(volatile T* p, T v) { return atomicOr((T*)p, v); } \
  OPTUNE_FUNC T atomic_xor(volatile T* p, T v) { return atomicXor((T*)p, v); } \
  OPTUNE_FUNC T atomic_xchg(volatile T* p, T v) { return atomicExch((T*)p, v); } \
  OPTUNE_FUNC T atomic_cmpxchg(volatile T* p, T cmp, T v) { return atomicCAS((T*)p, cmp, v); }
OPTUNE_ATOMICS(int) OPTUNE_ATOMICS(uint)
OPTUNE_FUNC float atomic_xchg(volatile float* p, float v) { return atomicExch((float*)p, v); }
