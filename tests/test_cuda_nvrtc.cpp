// NVRTC without a driver (CI has the toolkit, no GPU): every kernel source
// with its check variants (PTX for compute_90, cubins for sm_90 where the
// source reaches inline PTX: check_arch), the whole CUDA prelude, sm_90a on
// request, and build errors. The operators' own define combinations:
// test_cuda_nvrtc_ops.cpp.
#include <gtest/gtest.h>

#ifdef OPTUNE_WITH_CUDA

#include <sstream>

#include "optune/optune.hpp"
#include "kernels/families.hpp"
#include "ops/gemm_ops.hpp"
#include "runtime/embedded.hpp"
#include "runtime/program.hpp"
#include "runtime/cuda/cubin_params.hpp"
#include "support/nvrtc_support.hpp"

using namespace optune;
using namespace optune::detail;
using test::describe;
using test::require_nvrtc;
using test::check_arch;
using test::sm90_caps;

namespace {

// The vectors the CUDA prelude has: 2 and 4 lanes, 2 for 8-byte types and half.
bool cuda_has_vector(const std::string& type, int vw) {
  if (vw == 1) return true;
  if (vw > 4) return false;
  if (type == "double" || type == "ulong" || type == "long" || type == "half") return vw <= 2;
  return true;
}

// "// check-variant: -DTYPE=ushort -DVW=4" lines, as the OpenCL checks read
// them, and the CUDA-only "// check-variant-cuda: -DASYNC=1" ones, which
// scripts/check_kernels.sh leaves out.
std::vector<Defines> check_variants(std::string_view source) {
  std::vector<Defines> out;
  std::istringstream in{std::string(source)};
  for (std::string line; std::getline(in, line);) {
    std::size_t at = std::string::npos;
    for (const std::string marker : {"check-variant:", "check-variant-cuda:"})
      if (const auto pos = line.find(marker); pos != std::string::npos) at = pos + marker.size();
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at));
    Defines d;
    for (std::string w; words >> w;)
      if (w.rfind("-D", 0) == 0 && w.find('=') != std::string::npos)
        d.emplace_back(w.substr(2, w.find('=') - 2), w.substr(w.find('=') + 1));
    out.push_back(d);
  }
  return out;
}

std::string get(const Defines& d, const std::string& key, const std::string& fallback) {
  for (const auto& [k, v] : d)
    if (k == key) return v;
  return fallback;
}

// The vector types a variant needs (VW, and the GEMM kernels' VWM, VWN) exist on CUDA.
bool cuda_has_vectors(const Defines& d) {
  const std::string type = get(d, "COMP", get(d, "TYPE", "float"));
  for (const char* key : {"VW", "VWM", "VWN"})
    if (!cuda_has_vector(type, std::stoi(get(d, key, "1")))) return false;
  return true;
}

// The GEMM kernels' configurations that the runtime may build on CUDA: the
// NVIDIA defaults and the other paths of gemm_tiled.cl in every element
// type, both transpositions of gemm_direct.cl, and gemm_thin.cl's paths.
std::vector<Defines> gemm_variants(const std::string& name) {
  const Defines f32 = {{"TYPE", "float"}, {"COMP", "float"}, {"EPI", "float"}};
  const Defines f64 = {{"TYPE", "double"}, {"COMP", "double"}, {"EPI", "double"}, {"EPI_DOUBLE", "1"}};
  const Defines f16 = {{"TYPE", "half"}, {"COMP", "float"}, {"EPI", "float"}, {"HALF_STORAGE", "1"}};
  const Defines h16 = {{"TYPE", "half"}, {"COMP", "half"}, {"COMP_HALF", "1"}, {"EPI", "float"}, {"HALF_STORAGE", "1"}};
  const auto with = [](Defines d, const Defines& more) {  // more's values win
    for (const auto& [k, v] : more) {
      std::erase_if(d, [&](const auto& kv) { return kv.first == k; });
      d.emplace_back(k, v);
    }
    return d;
  };
  std::vector<Defines> out;
  if (name == "gemm/gemm_tiled.cl") {
    const Defines nvidia = {{"MWG", "128"}, {"NWG", "128"}, {"KWG", "16"}, {"MDIMC", "16"}, {"NDIMC", "16"},
                            {"MDIMA", "32"}, {"NDIMB", "32"}, {"KWI", "2"}, {"STRM", "1"}, {"STRN", "1"},
                            {"SA", "1"}, {"SB", "1"}, {"DB", "1"}};
    for (const char* direct : {"0", "1"})
      for (const char* list : {"0", "1"}) {
        const Defines flags = {{"C_DIRECT", direct}, {"KWI", list[0] == '0' ? "2" : "1"}};
        out.push_back(with(with(with(f32, nvidia), flags), {{"VWM", "4"}, {"VWN", "4"}}));
        out.push_back(with(with(with(f32, nvidia), flags), {{"VWM", "4"}, {"VWN", "4"}, {"A_KCONTIG", "1"},
                                                            {"B_KCONTIG", list}}));
        out.push_back(with(with(with(f64, nvidia), flags), {{"VWM", "2"}, {"VWN", "2"}, {"DB", "0"}}));
        out.push_back(with(with(with(f16, nvidia), flags), {{"VWM", "4"}, {"VWN", "4"}}));
        out.push_back(with(with(with(h16, nvidia), flags), {{"VWM", "2"}, {"VWN", "1"}, {"B_KCONTIG", direct}}));
        // Half arithmetic in half2 FMAs (the twin of the OpenCL half-vector variant).
        out.push_back(with(with(with(h16, nvidia), flags), {{"VWM", "2"}, {"VWN", "2"}, {"A_KCONTIG", list},
                                                            {"B_KCONTIG", direct}}));
        // cp.async staging (ASYNC: f32 and f64, 16-byte vectors, operands in
        // the kernel's layout); f64 on 64 x 64 tiles to fit three stages.
        const char* stages = list[0] == '0' ? "2" : "3";
        out.push_back(with(with(with(f32, nvidia), flags), {{"VWM", "4"}, {"VWN", "4"}, {"ASYNC", "1"},
                                                            {"STAGES", stages}}));
        out.push_back(with(with(with(f64, nvidia), flags), {{"VWM", "2"}, {"VWN", "2"}, {"MWG", "64"}, {"NWG", "64"},
                                                            {"MDIMA", "16"}, {"NDIMB", "16"}, {"ASYNC", "1"},
                                                            {"STAGES", stages}}));
      }
    for (const char* sa : {"0", "1"})
      for (const char* strm : {"0", "1"})
        out.push_back(with(f32, {{"SA", sa}, {"SB", sa[0] == '0' ? "1" : "0"}, {"DB", "0"}, {"STRM", strm},
                                 {"STRN", strm}, {"VWM", "2"}, {"VWN", "1"}, {"KWI", "4"}}));
  } else if (name == "gemm/gemm_direct.cl") {
    for (const Defines& t : {f32, f64, f16, h16})
      for (const char* ta : {"0", "1"})
        for (const char* tb : {"0", "1"})
          out.push_back(with(t, {{"VWMD", ta[0] == '0' ? "1" : "2"}, {"VWND", tb[0] == '0' ? "1" : "4"},
                                 {"PADA", ta}, {"PADB", tb}}));
  } else if (name == "gemm/gemm_thin.cl") {
    // Both paths of B and both storages of A in every type at the widest
    // pack CUDA loads (half storage: 8 lanes through one 16-byte load), the
    // sub-group and local-memory reductions (with the sub-group one, the
    // split's partials added by the tiles' last groups: FUSE), and one lane
    // per output.
    const std::pair<Defines, const char*> typed[] = {{f32, "4"}, {f64, "2"}, {f16, "8"}};
    for (const auto& [t, vw] : typed)
      for (const char* kc : {"0", "1"})
        for (const char* sg : {"0", "1"})
          out.push_back(with(t, {{"B_KCONTIG", kc}, {"A_KCONTIG", sg[0] == kc[0] ? "1" : "0"}, {"WGX", "32"},
                                 {"WGY", "8"}, {"VW", vw}, {"KU", "8"}, {"MT", sg[0] == '1' ? "16" : "8"},
                                 {"AV", vw}, {"RR", "4"}, {"SG", sg}, {"FUSE", sg}}));
    out.push_back(with(f32, {{"B_KCONTIG", "1"}, {"WGX", "1"}, {"WGY", "64"}, {"VW", "4"}, {"NJ", "2"}, {"MT", "1"},
                             {"AV", "1"}}));
  } else if (name == "gemm/gemm_helpers.cl") {
    for (const Defines& t : {f32, f64, f16})
      for (const char* tile : {"8", "16"}) out.push_back(with(t, {{"TILE", tile}}));
  }
  return out;
}

std::vector<Defines> variants_of(const std::string& name, std::string_view source) {
  std::vector<Defines> out = {{}};
  for (const Defines& d : check_variants(source))
    if (cuda_has_vectors(d)) out.push_back(d);
  for (const Defines& d : gemm_variants(name)) out.push_back(d);
  if (name == "copy/copy.cl") {
    for (const char* type : {"float", "double", "half", "uint", "ushort", "uchar", "ulong"})
      for (int vw : {1, 2, 4})
        for (const char* gs : {"0", "1"})
          if (cuda_has_vector(type, vw))
            out.push_back({{"TYPE", type}, {"VW", std::to_string(vw)}, {"GRID_STRIDE", gs}});
  } else if (name == "peak/peak.cl") {
    for (const char* type : {"float", "double", "half"})
      for (int vw : {1, 2, 4})
        if (cuda_has_vector(type, vw)) out.push_back({{"TYPE", type}, {"VW", std::to_string(vw)}});
  }
  return out;
}

// Compiles a source as the runtime would: after the sources its
// "check-prepend:" lines name (the GEMM kernels' gemm_common.cl); a cubin
// where the text reaches inline PTX, else PTX (check_arch).
void compile_for_sm90(const std::string& name, const Defines& d, const Capabilities& caps) {
  const std::string_view source = kernel_source(name);
  std::string text;
  std::istringstream in{std::string(source)};
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find("check-prepend:");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + 14));
    for (std::string file; words >> file;)
      text += "#line 1 \"" + file + "\"\n" + std::string(kernel_source(file)) + "\n";
  }
  text += "#line 1 \"" + name + "\"\n" + std::string(source);
  nvrtc_compile_check_text(name, text, d, caps, check_arch(text));
}

}  // namespace

TEST(CudaNvrtc, BaseOptions) {
  const std::string o = cuda_base_options("sm_90");
  EXPECT_NE(o.find("--gpu-architecture=sm_90"), std::string::npos) << o;
  EXPECT_NE(o.find("-default-device"), std::string::npos) << o;
  EXPECT_EQ(o.find("fast"), std::string::npos) << o;
}

// The tensor-core kernels' sources (mma.sync, wgmma): their check variants
// run as their own case, which the nvrtc label takes (tests/CMakeLists.txt).
bool tensor_core_source(const std::string& name) {
  return name == "gemm/gemm_mma.cl" || name == "gemm/gemm_wgmma.cl" || name == "peak/peak_mma.cl";
}

void compile_every_kernel(bool tensor_core) {
  require_nvrtc();
  int compiled = 0;
  for (std::string_view name_view : kernel_source_names()) {
    const std::string name(name_view);
    if (name.rfind("common/", 0) == 0 || tensor_core_source(name) != tensor_core) continue;
    for (const Defines& d : variants_of(name, kernel_source(name))) {
      try {
        compile_for_sm90(name, d, sm90_caps());
      } catch (const Error& e) {
        ADD_FAILURE() << name << describe(d) << ":\n" << e.what();
      }
      ++compiled;
    }
    // Every kernel has a path without fp16 and sub-groups.
    try {
      compile_for_sm90(name, {}, sm90_caps(true));
    } catch (const Error& e) {
      ADD_FAILURE() << name << " without fp16 and sub-groups:\n" << e.what();
    }
  }
  EXPECT_GT(compiled, tensor_core ? 10 : 20);
}

TEST(CudaNvrtc, EveryKernelCompilesForSm90) { compile_every_kernel(false); }

TEST(CudaNvrtc, EveryTensorCoreKernelCompilesForSm90) { compile_every_kernel(true); }

// Every feature of the CUDA prelude, used as an OpenCL kernel would use it.
const char* kPreludeSample = R"CL(
#define WGS 64
__constant float kTable[4] = {1.0f, 2.0f, 3.0f, 4.0f};
OPTUNE_FUNC float twice(float x) { return 2.0f * x; }
float no_qualifier(float x) { return x + 1.0f; }
OPTUNE_FUNC float sum_local(OPTUNE_LOCAL_PTR const float* tile, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += tile[i];
  return s;
}

__kernel OPTUNE_WG_SIZE(WGS, 1, 1)
void prelude_sample(__global float* restrict out, __global const float* restrict in, __constant float* coeffs,
                    __global half* hbuf, __global int* icount, __global uint* ucount, const ulong n) {
  __local float tile[WGS];
  __local int lcount;
  const size_t gid = get_global_id(0), lid = get_local_id(0);
  const size_t items = get_global_size(0) + get_local_size(0) + get_num_groups(0) + get_group_id(0) +
                       get_work_dim() + get_global_offset(0) + get_local_linear_id() + get_local_size(1);
  if (lid == 0) lcount = 0;
  tile[lid] = in[gid] * kTable[lid & 3] + coeffs[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_LOCAL_MEM_FENCE);
  float acc = sum_local(tile, WGS) + twice(tile[lid]) + no_qualifier((float)items);
  if (lid == 0) OPTUNE_LSTORE(float, 4, OPTUNE_LLOAD(float, 4, 1, tile), 0, tile);

  float2 f2 = make_float2(1.0f, 2.0f);
  float4 f4 = OPTUNE_SPLAT(float, 4, acc);
  double2 d2 = OPTUNE_SPLAT(double, 2, 1.5);
  int2 i2 = make_int2(1, 2);
  int4 i4 = OPTUNE_SPLAT(int, 4, 3);
  uint2 u2 = make_uint2(1u, 2u);
  uint4 u4 = OPTUNE_SPLAT(uint, 4, 5u);
  f2 = f2 + f2 - f2 * f2 / f2; f2 = 2.0f * f2 + 1.0f; f2 = -f2; f2 += 1.0f; f2 -= f2; f2 *= 3.0f; f2 /= f2;
  f4 = (f4 + 1.0f) * (2.0f - f4) / (f4 * f4 + 1.0f); f4 += f4; f4 -= 1.0f; f4 *= f4; f4 /= 2.0f; f4 = -f4;
  d2 = d2 * 2.0 + d2 / d2 - 1.0; d2 += d2; d2 = -d2;
  i2 = i2 * 2 + i2 / i2 - 1; i2 = (i2 % 3) & (i2 | 1) ^ (i2 << 1) >> 1; i2 += 1; i2 = -i2;
  i4 = i4 * i4 - 3 * i4; i4 = -i4; i4 %= 5; i4 <<= 1;
  u2 = u2 * 2u + u2; u2 >>= 1u; u4 = u4 * u4 + 1u; u4 &= u4; u4 |= 1u; u4 ^= u4;
  acc += OPTUNE_VSUM(2, f2) + OPTUNE_VSUM(4, f4) + (float)OPTUNE_VSUM(2, d2);
  acc += (float)(i2.x + i4.w + (int)(u2.y + u4.z));

  const float4 p4 = OPTUNE_GLOAD(float, 4, gid, in);
  OPTUNE_GSTORE(float, 4, p4 * 2.0f, gid, out);
  OPTUNE_GSTORE(float, 2, OPTUNE_GLOAD(float, 2, gid, in), gid, out);
  OPTUNE_GSTORE(float, 1, OPTUNE_GLOAD(float, 1, gid, in), gid, out);
  vstore4(vload4(gid, in) + vload4(0, out), gid, out);
  vstore2(vload2(gid, in) + vload2(1, out), gid, out);
  const float h1 = vload_half(gid, hbuf);
  const float2 h2 = vload_half2(gid, hbuf);
  const float4 h4 = vload_half4(gid, (const half*)hbuf);
  vstore_half(h1 + 1.0f, gid, hbuf); vstore_half2(h2, gid, hbuf); vstore_half4(h4, gid, hbuf);
  vstore_half_rte(h1, gid, hbuf);
  acc += h1 + OPTUNE_VSUM(2, h2) + OPTUNE_VSUM(4, h4);

  float m = mad(acc, 2.0f, 1.0f) + fma(acc, acc, 1.0f) + native_exp(acc) + native_log(acc) + native_sqrt(acc) +
            native_recip(acc) + native_divide(acc, 3.0f) + native_sin(acc) + native_cos(acc) + half_exp(acc) +
            half_log(acc) + half_sqrt(acc) + half_recip(acc) + half_divide(acc, 2.0f) + rsqrt(acc) +
            clamp(acc, 0.0f, 1.0f) + mix(acc, 1.0f, 0.5f) + step(0.5f, acc) + sign(acc) + fmin(acc, 1.0f) +
            fmax(acc, 1.0f) + min(acc, 2.0f) + max(acc, 2.0f) + select(1.0f, 2.0f, (int)gid) + sqrt(acc) +
            exp(acc) + log(acc) + fabs(acc) + floor(acc) + smoothstep(0.0f, 1.0f, acc) + degrees(acc);
  m += convert_float((int)gid) + (float)convert_int(acc) + (float)convert_uint(acc) + (float)convert_double(acc) +
       (float)convert_int_rte(acc) + as_float(as_uint(acc)) + (float)mul24((int)lid, 3) + (float)popcount((uint)gid);
  f4 = fma(f4, f4, f4) + mad(f4, f4, f4) + clamp(f4, 0.0f, 1.0f) + clamp(f4, f4, f4) + mix(f4, f4, 0.5f) +
       mix(f4, f4, f4) + fmin(f4, f4) + fmax(f4, 1.0f) + min(f4, f4) + max(f4, 0.0f) + sqrt(f4) + exp(f4) +
       native_exp(f4) + native_divide(f4, f4) + rsqrt(f4) + step(0.5f, f4) + sign(f4) + fabs(f4) +
       select(f4, f4, i4) + convert_float4(i4) + convert_float4(u4);
  f2 = fma(f2, f2, f2) + clamp(f2, 0.0f, 1.0f) + mix(f2, f2, 0.25f) + fmin(f2, f2) + native_sqrt(f2) + log(f2);
  d2 = fma(d2, d2, d2) + fmin(d2, d2) + max(d2, 1.0) + sqrt(d2) + clamp(d2, 0.0, 1.0);
  i4 = clamp(i4, i4, i4) + min(i4, i4) + max(i4, i4);
  m += dot(f4, f4) + dot(f2, f2) + length(f4) + (float)dot(d2, d2) + (float)clamp((int)gid, 0, 10);
#if OPTUNE_HAS_FP16
  half ha = (half)acc, hb = (half)1.0f;
  half2 hv = OPTUNE_SPLAT(half, 2, ha);
  hv = fma(hv, hv, hv) + hv * hb;
  ha = fma(ha, hb, ha);
  m += (float)ha + (float)OPTUNE_VSUM(2, hv);
#endif
#if OPTUNE_HAS_SUBGROUPS
  const uint sg = get_sub_group_size() + get_sub_group_local_id() + get_sub_group_id() + get_num_sub_groups() +
                  get_max_sub_group_size() + OPTUNE_SUBGROUP_SIZE;
  m += sub_group_reduce_add(m) + sub_group_reduce_min(m) + sub_group_reduce_max(m);
  m += (float)(sub_group_reduce_add((int)sg) + sub_group_reduce_min((int)sg) + sub_group_reduce_max((int)sg));
  m += (float)(sub_group_reduce_add(sg) + sub_group_reduce_min(sg) + sub_group_reduce_max(sg));
  m += (float)(sub_group_reduce_add((double)m) + sub_group_reduce_min((double)m) + sub_group_reduce_max((double)m));
  m += sub_group_broadcast(m, 0) + (float)sub_group_scan_inclusive_add((int)sg) + sub_group_scan_exclusive_add(m);
  m += (float)(sub_group_any(m > 0.0f) + sub_group_all(m > 0.0f));
  sub_group_barrier();
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if OPTUNE_HAS_CP_ASYNC
  __local float4 staged[WGS];
  optune_cp_async16(&staged[lid], (const __global float4*)in + gid);
  optune_cp_async_commit();
  optune_cp_async_wait<0>();
  barrier(CLK_LOCAL_MEM_FENCE);
  m += OPTUNE_VSUM(4, staged[WGS - 1 - lid]);
  const uint sa = (uint)__cvta_generic_to_shared(&staged[lid]);
  optune_cp_async16_zfill(sa, (const __global float4*)in + gid, 8u);
  optune_cp_async_commit();
  optune_cp_async_wait<0>();
  barrier(CLK_LOCAL_MEM_FENCE);
  uint fa[4], fb[2] = {optune_lds32(sa), optune_tf32(optune_lds32(sa + 4u))};
  float fd[4] = {m, 0.0f, 0.0f, 0.0f};
  optune_ldmatrix_x4(fa, sa);
  optune_mma_f16_16816(fd, fa, fb);
  optune_ldmatrix_x4_trans(fa, sa);
  optune_mma_bf16_16816(fd, fa, fb);
  optune_mma_tf32_1688(fd, fa, fb);
  m += fd[0] + fd[1] + fd[2] + fd[3];
#endif
  atomic_add(&lcount, 1); atomic_inc(&lcount); atomic_dec(&lcount); atomic_sub(&lcount, 1);
  atomic_max(&lcount, 3); atomic_min(&lcount, 100); atomic_xchg(&lcount, 7); atomic_cmpxchg(&lcount, 7, 8);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) atomic_add(icount, lcount);
  atomic_inc(icount + 1);
  atomic_add(ucount, 1u); atomic_max(ucount + 1, (uint)gid); atomic_min(ucount + 2, (uint)gid);
  atomic_or(ucount + 3, 1u); atomic_cmpxchg(ucount + 4, 0u, (uint)lid);
  const ulong packs = OPTUNE_CEIL_DIV(n, (ulong)4);
  if (gid < n) out[gid] = m + acc + (float)packs;
}
)CL";

// The fused GEMM epilogues as the runtime assembles them (activation macro,
// gemm_common.cl, kernel): every activation in f32 on the copy-back kernel,
// and gelu (erfc) and clamp (parameters) on each kernel and type.
TEST(CudaNvrtc, GemmEpiloguesCompile) {
  require_nvrtc();
  const auto compile = [](const std::string& source, Unary act, DType t, Defines d, DType tc) {
    GemmProblem pr;
    pr.dtype = t, pr.c_dtype = tc;
    Defines all = gemm_kernels::type_defines(pr);
    all.insert(all.end(), d.begin(), d.end());
    const std::string text = gemm_kernels::program_text(source, act);
    try {
      nvrtc_compile_check_text(source, text, all, sm90_caps(), check_arch(text));
    } catch (const Error& e) {
      ADD_FAILURE() << source << " " << unary_name(act) << " " << dtype_name(t) << "->" << dtype_name(tc)
                    << describe(d) << ":\n" << e.what();
    }
  };
  for (int op = 0; op <= int(Unary::Clamp); ++op)
    compile("gemm/gemm_helpers.cl", Unary(op), DType::F32, {}, DType::F32);
  // Every pair of A/B and C types the API offers (bf16 and f16 storage,
  // mixed outputs), on the three kernels of every back end.
  for (auto [t, tc] : {std::pair{DType::F32, DType::F32}, {DType::F64, DType::F64}, {DType::F16, DType::F16},
                       {DType::BF16, DType::BF16}, {DType::BF16, DType::F32}, {DType::BF16, DType::F16},
                       {DType::F16, DType::BF16}, {DType::F16, DType::F32}})
    for (Unary act : {Unary::Gelu, Unary::Clamp}) {
      const Defines vw = {{"VWM", t == DType::F32 ? "4" : "2"}, {"VWN", t == DType::F32 ? "4" : "2"}};
      compile("gemm/gemm_direct.cl", act, t, {}, tc);
      compile("gemm/gemm_helpers.cl", act, t, {}, tc);
      Defines tiled = vw;
      tiled.emplace_back("C_DIRECT", "1");
      compile("gemm/gemm_tiled.cl", act, t, tiled, tc);
    }
}

// gemm_thin's programs as its descriptor builds them for an H100 (the
// defaults fitted to each type and path, both reductions, with and without
// the sub-group one, A's packs along K and, for f64, along M), one with an
// activation; each with and without B loaded a step ahead (PF).
TEST(CudaNvrtc, GemmThinDescriptorProgramsCompile) {
  require_nvrtc();
  const GemmThinFamily& fam = families::gemm_thin();
  for (const Capabilities& caps : {sm90_caps(), sm90_caps(true)})
    for (DType t : {DType::F32, DType::F64, DType::F16})
      for (const char* bucket : {"m<=16/kn", "m<=4/nk"})
        for (std::int64_t pf : {0, 1}) {
          GemmProblem pr = fam.make_example(t, bucket, caps);
          if (t == DType::F16 && std::string(bucket) == "m<=16/kn") pr.activation = Unary::Gelu;
          pr.trans_a = t == DType::F64;  // A stored K x M: packs of A along M
          Params p = fam.defaults(caps);
          p["PF"] = pf;
          const KernelSource src = fam.program(fam.fit(p, caps, pr), pr);
          try {
            nvrtc_compile_check_text(src.label, src.text, src.defines, caps, check_arch(src.text));
          } catch (const Error& e) {
            ADD_FAILURE() << bucket << " " << dtype_name(t) << " PF " << pf << describe(src.defines) << ":\n"
                          << e.what();
          }
        }
}

// gemm_tiled's cp.async staging builds where cp.async exists (sm_80 on)
// and says why not below (the descriptor never asks for it there).
TEST(CudaNvrtc, GemmAsyncNeedsSm80) {
  require_nvrtc();
  Defines d = gemm_kernels::type_defines(GemmProblem{});
  d.insert(d.end(), {{"ASYNC", "1"}, {"STAGES", "3"}, {"VWM", "4"}, {"VWN", "4"}, {"C_DIRECT", "1"}});
  const std::string text = gemm_kernels::program_text("gemm/gemm_tiled.cl", Unary::Copy);
  EXPECT_NO_THROW(nvrtc_compile_check_text("gemm/gemm_tiled.cl", text, d, sm90_caps(), "sm_80"));
  try {
    nvrtc_compile_check_text("gemm/gemm_tiled.cl", text, d, sm90_caps(), "sm_75");
    ADD_FAILURE() << "ASYNC = 1 compiled for sm_75";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ASYNC needs cp.async"), std::string::npos) << e.what();
  }
}

// The tensor-core kernel (mma.sync, ldmatrix, cp.async) builds for sm_80,
// the oldest architecture it serves, in every variant its file names (the
// sm_90 builds are EveryKernelCompilesForSm90's), and says why not below.
TEST(CudaNvrtc, GemmMmaNeedsSm80) {
  require_nvrtc();
  const std::string name = "gemm/gemm_mma.cl";
  const std::string text = gemm_kernels::program_text(name, Unary::Relu);
  const std::vector<Defines> variants = check_variants(kernel_source(name));
  EXPECT_GE(variants.size(), 10u);
  Defines f64;
  for (const Defines& d : variants) {
    // f64 variants (MMA_F64: m16n8k8 f64) need sm_90; below, they say so.
    if (get(d, "MMA_F64", "0") == "1") {
      f64 = d;
      continue;
    }
    try {
      nvrtc_compile_check_text(name, text, d, sm90_caps(), "sm_80");
    } catch (const Error& e) {
      ADD_FAILURE() << name << describe(d) << " for sm_80:\n" << e.what();
    }
  }
  try {
    nvrtc_compile_check_text(name, text, {{"TYPE", "half"}, {"HALF_STORAGE", "1"}}, sm90_caps(), "sm_75");
    ADD_FAILURE() << "gemm_mma compiled for sm_75";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gemm_mma needs"), std::string::npos) << e.what();
  }
  ASSERT_FALSE(f64.empty()) << "gemm_mma.cl names no f64 variant";
  try {
    nvrtc_compile_check_text(name, text, f64, sm90_caps(), "sm_80");
    ADD_FAILURE() << "gemm_mma's f64 variant compiled for sm_80";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("f64 products need"), std::string::npos) << e.what();
  }
}

// The program the mma candidate builds (GemmMmaFamily's defines and text,
// not the file's check lines) at its defaults (fitted: tf32 takes its own)
// and its smallest tiles, for f16, bf16 and tf32 with f16, bf16 and f32
// outputs, and f64: host defines and kernel cannot drift apart.
TEST(CudaNvrtc, GemmMmaDescriptorProgramCompiles) {
  require_nvrtc();
  const GemmMmaFamily& fam = families::gemm_mma();
  // Each input type with one output type each (the others are the file's
  // check lines); small tiles for f16 and tf32; sm_80 for bf16 (the f16 and
  // tf32 sm_80 builds are GemmMmaNeedsSm80's). Each compile takes seconds.
  for (auto [t, tc] : {std::pair{DType::F16, DType::F16}, {DType::BF16, DType::F32}, {DType::F16, DType::BF16},
                       {DType::F32, DType::F32}, {DType::F64, DType::F64}}) {
    GemmProblem pr;
    pr.dtype = t, pr.c_dtype = tc, pr.tf32 = t == DType::F32;
    pr.comp_half = t == DType::F16, pr.trans_b = true;
    pr.activation = Unary::Gelu;
    pr.m = pr.n = pr.k = 1024, pr.lda = pr.ldb = 1024;
    const bool k16 = t == DType::F32 || t == DType::F64;  // 8-deep mma steps
    const Params small{{"BM", 64}, {"BN", 64}, {"BK", k16 ? 16 : 32}, {"WM", 32}, {"WN", 32},
                       {"STAGES", 4}, {"SWIZZLE_GROUP", 1}};
    std::vector<Params> ps{fam.fit({}, sm90_caps(), pr)};
    if (t != DType::BF16 && tc == t) ps.push_back(fam.complete(small, sm90_caps()));
    // Split K: the raw partial products' program (MMA_RAW, FUSE 0) and the
    // ranges added in the kernel (MMA_FUSE).
    if (tc == t) {
      Params split = ps[0];
      split["SPLITK"] = 4;
      ps.push_back(split);
      split["FUSE"] = 1;
      ps.push_back(split);
    }
    for (const Params& p : ps) {
      ASSERT_EQ(fam.check(p, sm90_caps(), pr), "") << params_to_json(p) << " " << dtype_name(t);
      const KernelSource src = fam.program(p, pr);
      for (const char* arch : {"sm_80", "sm_90"}) {
        if (std::string(arch) == "sm_80" && t != DType::BF16) continue;  // (f64: sm_90 only)
        try {
          nvrtc_compile_check_text(src.label, src.text, src.defines, sm90_caps(), arch);
        } catch (const Error& e) {
          ADD_FAILURE() << src.label << " " << arch << describe(src.defines) << ":\n" << e.what();
        }
      }
    }
  }
}

TEST(CudaNvrtc, PreludeSampleCompiles) {
  require_nvrtc();
  for (bool minimal : {false, true})
    for (const char* arch : {"sm_90", "sm_80", "sm_75"}) {
      SCOPED_TRACE(std::string(arch) + (minimal ? " without fp16 and sub-groups" : ""));
      try {
        nvrtc_compile_check_text("prelude_sample.cl", kPreludeSample, {}, sm90_caps(minimal), arch);
      } catch (const Error& e) {
        ADD_FAILURE() << e.what();
      }
    }
}

TEST(CudaNvrtc, Sm90aOnRequest) {
  require_nvrtc();
  const char* needs = "#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)\n#error not sm_90a\n#endif\n__kernel void k() {}\n";
  EXPECT_NO_THROW(nvrtc_compile_check_text("k.cl", needs, {{"OPTUNE_NEED_SM90A", "1"}}, sm90_caps(), "sm_90"));
  try {
    nvrtc_compile_check_text("k.cl", needs, {}, sm90_caps(), "sm_90");
    ADD_FAILURE() << "plain sm_90 was compiled as sm_90a";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not sm_90a"), std::string::npos) << e.what();
  }
  try {
    nvrtc_compile_check_text("k.cl", needs, {{"OPTUNE_NEED_SM90A", "1"}}, sm90_caps(), "sm_80");
    ADD_FAILURE() << "sm_90a code was accepted for sm_80";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::BuildFailure);
  }
}

TEST(CudaNvrtc, BuildErrorCarriesLogAndFile) {
  require_nvrtc();
  try {
    nvrtc_compile_check_text("broken.cl", "__kernel void k(__global float* y) {\n y[0] = no_such_name;\n}\n", {},
                             sm90_caps(), "sm_90");
    ADD_FAILURE() << "broken kernel compiled";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::BuildFailure);
    const std::string what = e.what();
    EXPECT_NE(what.find("no_such_name"), std::string::npos) << what;
    EXPECT_NE(what.find("broken.cl(2)"), std::string::npos) << what;
  }
}

// The program the wgmma candidate builds (GemmWgmmaFamily's defines and
// text) for every transposition at its defaults and a small tile: it
// compiles for sm_90a (the defines ask for it) into a module that has the
// kernel with its 30 parameters (gemm_mma's 25, split K's slice count and
// span, and three tensor maps: A, B, C); the
// same text for plain sm_90 or sm_80 has no kernel (the file is empty there).
TEST(CudaNvrtc, GemmWgmmaDescriptorProgramCompiles) {
  require_nvrtc();
  const GemmWgmmaFamily& fam = families::gemm_wgmma();
  GemmProblem pr;
  pr.dtype = DType::F16;
  pr.activation = Unary::Gelu;
  pr.m = pr.n = pr.k = 1024, pr.lda = pr.ldb = 1024;
  // Each problem with the default and the smallest-stage-heavy tiles.
  const auto compiles = [&](const GemmProblem& problem) {
    for (const Params& p : {fam.defaults(sm90_caps()), fam.complete({{"BN", 128}, {"STAGES", 6}}, sm90_caps()),
                            fam.complete({{"STORE", 1}, {"PERSIST", 1}}, sm90_caps())}) {
      ASSERT_EQ(fam.check(p, sm90_caps(), problem), "") << params_to_json(p);
      const KernelSource src = fam.program(p, problem);
      try {
        const std::vector<std::uint8_t> bin = nvrtc_binary_text(src.label, src.text, src.defines, sm90_caps(), "sm_90");
        EXPECT_EQ(cubin_param_count(bin, "gemm_wgmma"), std::optional<std::size_t>(30)) << describe(src.defines);
      } catch (const Error& e) {
        ADD_FAILURE() << src.label << describe(src.defines) << ":\n" << e.what();
      }
    }
  };
  for (int t = 0; t < 4; ++t) {
    pr.trans_a = t & 1, pr.trans_b = t & 2;
    compiles(pr);
  }
  // tf32 (packed K-major operands, whatever the call's transposes) and the
  // pads that pack and round them.
  GemmProblem t32 = pr;
  t32.dtype = t32.c_dtype = DType::F32, t32.tf32 = true, t32.trans_a = true;
  compiles(t32);
  for (const char* entry : {"gemm_pad", "gemm_pad_transpose"}) {
    const KernelSource h = gemm_kernels::helper_program(t32, entry, 16, true);
    EXPECT_EQ(module_has_kernel(nvrtc_binary_text(h.label, h.text, h.defines, sm90_caps(), "sm_90"), entry),
              std::optional<bool>(true))
        << entry;
  }
  Defines plain = fam.program(fam.defaults(sm90_caps()), pr).defines;
  std::erase_if(plain, [](const auto& d) { return d.first == "OPTUNE_NEED_SM90A"; });
  const KernelSource src = fam.program(fam.defaults(sm90_caps()), pr);
  for (const char* arch : {"sm_90", "sm_80"}) {
    const std::vector<std::uint8_t> bin = nvrtc_binary_text(src.label, src.text, plain, sm90_caps(), arch);
    EXPECT_EQ(module_has_kernel(bin, "gemm_wgmma"), std::optional<bool>(false)) << arch;
  }
}

// The tensor-core peak (PeakMmaFamily's programs): mma.sync compiles into a
// kernel of 2 parameters for sm_80 and sm_90 in every type, wgmma for sm_90a
// (its defines ask for it); without OPTUNE_NEED_SM90A the wgmma text is
// empty, so the bench can never time a kernel that does nothing.
TEST(CudaNvrtc, TensorPeakProgramsCompile) {
  require_nvrtc();
  const PeakMmaFamily& fam = families::peak_mma();
  for (DType t : {DType::F16, DType::BF16, DType::F32})
    for (bool wgmma : {false, true}) {
      PeakMmaProblem pr;
      pr.dtype = t, pr.wgmma = wgmma, pr.items = 256, pr.iters = 4;
      const KernelSource src = fam.program({{"WGS", 128}}, pr);
      for (const char* arch : {"sm_90", "sm_80"}) {
        if (wgmma && std::string(arch) == "sm_80") continue;
        try {
          const std::vector<std::uint8_t> bin = nvrtc_binary_text(src.label, src.text, src.defines, sm90_caps(), arch);
          EXPECT_EQ(cubin_param_count(bin, "peak_mma"), std::optional<std::size_t>(2)) << arch << describe(src.defines);
        } catch (const Error& e) {
          ADD_FAILURE() << arch << describe(src.defines) << ":\n" << e.what();
        }
      }
      if (wgmma) {
        Defines plain = src.defines;
        std::erase_if(plain, [](const auto& d) { return d.first == "OPTUNE_NEED_SM90A"; });
        const std::vector<std::uint8_t> bin = nvrtc_binary_text(src.label, src.text, plain, sm90_caps(), "sm_90");
        EXPECT_EQ(module_has_kernel(bin, "peak_mma"), std::optional<bool>(false));
      }
    }
}

// Kernels' parameter counts read from their cubins (runtime/cuda/
// cubin_params.hpp): the runtime's check of a launch's argument count where
// the driver has no cuFuncGetParamCount.
TEST(CudaNvrtc, ParameterCountsFromCubins) {
  require_nvrtc();
  const auto count = [](const std::string& source, const std::string& kernel, const Defines& d) {
    const std::vector<std::uint8_t> bin = nvrtc_binary_text(source, kernel_source(source), d, sm90_caps(), "sm_90");
    return cubin_param_count(bin, kernel);
  };
  EXPECT_EQ(count("copy/copy.cl", "copy", {{"TYPE", "uint"}}), std::optional<std::size_t>(5));
  EXPECT_EQ(count("peak/peak.cl", "peak", {{"TYPE", "float"}}), std::optional<std::size_t>(3));
  // gemm_direct: m, n, k, alpha, beta, 3 x (buffer, offset, ld, stride),
  // bias, bias offset, table, batch, flags, z0, act_p0, act_p1.
  const std::string direct = "gemm/gemm_direct.cl";
  const std::vector<std::uint8_t> bin =
      nvrtc_binary_text(direct, gemm_kernels::program_text(direct, Unary::Copy),
                        gemm_kernels::type_defines(GemmProblem{}), sm90_caps(), "sm_90");
  EXPECT_EQ(cubin_param_count(bin, "gemm_direct"), std::optional<std::size_t>(25));
  EXPECT_EQ(cubin_param_count(bin, "no_such_kernel"), std::nullopt);
  EXPECT_EQ(module_has_kernel(bin, "gemm_direct"), std::optional<bool>(true));
  EXPECT_EQ(module_has_kernel(bin, "gemm_dire"), std::optional<bool>(false));
  EXPECT_TRUE(looks_like_module(bin));
  EXPECT_FALSE(looks_like_module({1, 2, 3, 4}));
  const std::string ptx = ".version 8.0\n.target sm_90\n.visible .entry copy(\n";
  std::vector<std::uint8_t> ptx_bytes(ptx.begin(), ptx.end());
  ptx_bytes.push_back(0);
  EXPECT_TRUE(looks_like_module(ptx_bytes));
  EXPECT_EQ(module_has_kernel(ptx_bytes, "copy"), std::optional<bool>(true));
  EXPECT_EQ(module_has_kernel(ptx_bytes, "cop"), std::optional<bool>(false));
  EXPECT_EQ(cubin_param_count({1, 2, 3}, "copy"), std::nullopt);
  std::vector<std::uint8_t> cut(bin.begin(), bin.begin() + std::ptrdiff_t(bin.size() / 3));
  EXPECT_NE(cubin_param_count(cut, "gemm_direct"), std::optional<std::size_t>(99));  // no crash on a cut file
}

#else  // !OPTUNE_WITH_CUDA

TEST(CudaNvrtc, NotBuilt) { GTEST_SKIP() << "optune was built without the CUDA toolkit"; }

#endif
