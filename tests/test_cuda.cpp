// The CUDA back end. Without a GPU (CI): the missing-driver path, and NVRTC
// compiling every kernel source and the whole CUDA prelude for sm_90. With a
// CUDA device (label gpu): buffers, fills, events and kernels on cuda:0.
#include <gtest/gtest.h>

#ifdef OPTUNE_WITH_CUDA

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "optune/optune.hpp"
#include "ops/gemm_ops.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/embedded.hpp"
#include "runtime/program.hpp"

using namespace optune;
using namespace optune::detail;

namespace {

// The macros an H100 gets; minimal = the fallbacks (no fp16, no sub-groups).
Capabilities sm90_caps(bool minimal = false) {
  Capabilities c;
  c.backend = Backend::CUDA;
  c.subgroups = !minimal;
  if (!minimal) c.subgroup_sizes = {32};
  c.fp16 = !minimal;
  c.fp64 = true;
  return c;
}

void require_nvrtc() {
  std::string why;
  // The toolkit's headers were found at build time, so NVRTC must load: a
  // skip here would hide CUDA compile errors from CI.
  ASSERT_TRUE(nvrtc_available(&why)) << why;
}

std::string describe(const Defines& d) {
  std::string s;
  for (const auto& [k, v] : d) s += " " + k + "=" + v;
  return s.empty() ? " (defaults)" : s;
}

// The vectors the CUDA prelude has: 2 and 4 lanes, 2 for 8-byte types and half.
bool cuda_has_vector(const std::string& type, int vw) {
  if (vw == 1) return true;
  if (vw > 4) return false;
  if (type == "double" || type == "ulong" || type == "long" || type == "half") return vw <= 2;
  return true;
}

// "// check-variant: -DTYPE=ushort -DVW=4" lines, as the OpenCL checks read them.
std::vector<Defines> check_variants(std::string_view source) {
  std::vector<Defines> out;
  std::istringstream in{std::string(source)};
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find("check-variant:");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + 14));
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
// type, and both transpositions of gemm_direct.cl.
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
        out.push_back(with(with(with(f64, nvidia), flags), {{"VWM", "2"}, {"VWN", "2"}, {"DB", "0"}}));
        out.push_back(with(with(with(f16, nvidia), flags), {{"VWM", "4"}, {"VWN", "4"}}));
        out.push_back(with(with(with(h16, nvidia), flags), {{"VWM", "2"}, {"VWN", "1"}}));
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
// "check-prepend:" lines name (the GEMM kernels' gemm_common.cl).
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
  if (text.empty()) {
    nvrtc_compile_check(name, d, caps, "sm_90");
    return;
  }
  text += "#line 1 \"" + name + "\"\n" + std::string(source);
  nvrtc_compile_check_text(name, text, d, caps, "sm_90");
}

}  // namespace

// ---- without a driver ----

TEST(CudaBackend, MissingDriverIsReported) {
  const std::vector<BackendStatus> all = backends();
  auto it = std::find_if(all.begin(), all.end(), [](const BackendStatus& b) { return b.backend == Backend::CUDA; });
  ASSERT_NE(it, all.end()) << "backends() does not list CUDA";
  if (it->available) GTEST_SKIP() << "a CUDA driver and device are present";
  EXPECT_FALSE(it->reason.empty());
  if (void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(h);
  } else {
    EXPECT_NE(it->reason.find("libcuda.so.1 not found"), std::string::npos) << it->reason;
  }
  std::vector<Device> list;
  ASSERT_NO_THROW(list = devices());
  for (const Device& d : list) EXPECT_NE(d.backend(), Backend::CUDA) << d.spec();
  try {
    select_device("cuda:0");
    ADD_FAILURE() << "select_device(cuda:0) found a device";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::DeviceNotFound);
    EXPECT_NE(std::string(e.what()).find("cuda unavailable"), std::string::npos) << e.what();
  }
}

// ---- NVRTC for sm_90, no driver needed ----

TEST(CudaNvrtc, BaseOptions) {
  const std::string o = cuda_base_options("sm_90");
  EXPECT_NE(o.find("--gpu-architecture=sm_90"), std::string::npos) << o;
  EXPECT_NE(o.find("-default-device"), std::string::npos) << o;
  EXPECT_EQ(o.find("fast"), std::string::npos) << o;
}

TEST(CudaNvrtc, EveryKernelCompilesForSm90) {
  require_nvrtc();
  int compiled = 0;
  for (std::string_view name_view : kernel_source_names()) {
    const std::string name(name_view);
    if (name.rfind("common/", 0) == 0) continue;
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
  EXPECT_GT(compiled, 20);
}

// The fused GEMM epilogues as the runtime assembles them (activation macro,
// gemm_common.cl, kernel): every activation in f32 on the copy-back kernel,
// and gelu (erfc) and clamp (parameters) on each kernel and type.
TEST(CudaNvrtc, GemmEpiloguesCompile) {
  require_nvrtc();
  const auto compile = [](const std::string& source, Unary act, DType t, Defines d) {
    GemmCall call;
    call.dtype = t;
    call.comp_half = false;
    Defines all = gemm_type_defines(call);
    all.insert(all.end(), d.begin(), d.end());
    try {
      nvrtc_compile_check_text(source, gemm_program_text(source, act), all, sm90_caps(), "sm_90");
    } catch (const Error& e) {
      ADD_FAILURE() << source << " " << unary_name(act) << " " << dtype_name(t) << describe(d) << ":\n" << e.what();
    }
  };
  for (int op = 0; op <= int(Unary::Clamp); ++op)
    compile("gemm/gemm_helpers.cl", Unary(op), DType::F32, {});
  for (DType t : {DType::F32, DType::F64, DType::F16})
    for (Unary act : {Unary::Gelu, Unary::Clamp}) {
      const Defines vw = {{"VWM", t == DType::F32 ? "4" : "2"}, {"VWN", t == DType::F32 ? "4" : "2"}};
      compile("gemm/gemm_direct.cl", act, t, {});
      Defines tiled = vw;
      tiled.emplace_back("C_DIRECT", "1");
      compile("gemm/gemm_tiled.cl", act, t, tiled);
    }
}

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

  const float4 p4 = OPTUNE_VLOAD(4, gid, in);
  OPTUNE_VSTORE(4, p4 * 2.0f, gid, out);
  OPTUNE_VSTORE(2, OPTUNE_VLOAD(2, gid, in), gid, out);
  OPTUNE_VSTORE(1, OPTUNE_VLOAD(1, gid, in), gid, out);
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

// ---- on a CUDA device (label gpu; skipped elsewhere) ----

class CudaDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    BackendImpl* b = cuda_backend();
    std::string why;
    if (!b || !b->available(&why) || b->devices().empty()) GTEST_SKIP() << "no CUDA device: " << why;
  }
  // Never destroyed, as in tests/support: driver objects must not be
  // released from static destructors.
  static const Queue& queue() {
    static Queue* q = new Queue(Context(select_device("cuda:0")));
    return *q;
  }
  static ContextImpl& ctx() { return *queue().context().impl(); }
};

TEST_F(CudaDevice, Capabilities) {
  const Capabilities& c = queue().device().caps();
  EXPECT_EQ(c.backend, Backend::CUDA);
  EXPECT_EQ(c.spec, "cuda:0");
  EXPECT_EQ(c.type, DeviceType::GPU);
  EXPECT_EQ(c.architecture,
            "sm_" + std::to_string(c.compute_capability_major) + std::to_string(c.compute_capability_minor));
  EXPECT_GT(c.compute_units, 0u);
  EXPECT_EQ(c.warp_size, 32u);
  EXPECT_TRUE(c.subgroups);
  EXPECT_GE(c.max_work_group_size, 1024u);
  EXPECT_GT(c.local_mem_bytes, 0u);
  EXPECT_GE(c.shared_mem_per_block_optin_bytes, c.local_mem_bytes);
  EXPECT_GE(c.shared_mem_per_cu_bytes, c.local_mem_bytes);
  EXPECT_GT(c.l2_bytes, 0u);
  EXPECT_GT(c.memory_bus_width_bits, 0u);
  EXPECT_GT(c.global_mem_bytes, 0u);
  EXPECT_EQ(c.preferred_vector_width.float_, 4u);
}

TEST_F(CudaDevice, WriteReadCopyWithOffsets) {
  const Queue& q = queue();
  const std::size_t n = 1000;
  std::vector<std::uint32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i * 2654435761u);
  Buffer<std::uint32_t> a = q.context().alloc<std::uint32_t>(n), b = q.context().alloc<std::uint32_t>(n);
  q.upload(a, std::span<const std::uint32_t>(host));
  q.fill(b, 0xdeadbeefu).wait();
  q.write(a.view(10, 5), std::span<const std::uint32_t>(host.data() + 500, 5)).wait();
  std::vector<std::uint32_t> want_a = host;
  std::copy(host.begin() + 500, host.begin() + 505, want_a.begin() + 10);
  q.copy(a.view(3, 100), b.view(7, 100)).wait();
  std::vector<std::uint32_t> want_b(n, 0xdeadbeefu);
  std::copy(want_a.begin() + 3, want_a.begin() + 103, want_b.begin() + 7);
  EXPECT_EQ(q.download(a), want_a);
  EXPECT_EQ(q.download(b), want_b);
  std::vector<std::uint32_t> part(4);
  q.read(a.view(11, 4), std::span<std::uint32_t>(part)).wait();
  EXPECT_EQ(part, std::vector<std::uint32_t>(want_a.begin() + 11, want_a.begin() + 15));
}

struct Pair16 {
  std::uint64_t a, b;
};

// Fills the middle of a poisoned buffer; its ends must keep the poison.
template <class T>
void check_fill(const Queue& q, T value, T poison) {
  const std::size_t n = 1031, lo = 5, hi = n - 4;
  Buffer<T> buf = q.context().alloc<T>(n);
  q.upload(buf, std::span<const T>(std::vector<T>(n, poison)));
  q.fill(buf.view(lo, hi - lo), value).wait();
  const std::vector<T> got = q.download(buf);
  for (std::size_t i = 0; i < n; ++i) {
    const T& want = i >= lo && i < hi ? value : poison;
    ASSERT_EQ(std::memcmp(&got[i], &want, sizeof(T)), 0) << "element " << i << " of " << sizeof(T) << "-byte fill";
  }
}

TEST_F(CudaDevice, FillPatterns) {
  const Queue& q = queue();
  check_fill<std::uint8_t>(q, 0xab, 0x11);
  check_fill<std::uint16_t>(q, 0xabcd, 0x1111);
  check_fill<std::uint32_t>(q, 0x01020304u, 0x11111111u);
  check_fill<std::uint64_t>(q, 0x0102030405060708ull, 0x1111111111111111ull);  // kernel
  check_fill<std::uint64_t>(q, 0, 0x1111111111111111ull);                    // memset
  check_fill<double>(q, 1.5, -2.0);
  check_fill<Pair16>(q, Pair16{1, 2}, Pair16{9, 9});  // kernel, period 16
  check_fill<Pair16>(q, Pair16{7, 7}, Pair16{9, 9});  // kernel, period 8
}

TEST_F(CudaDevice, CopyKernelRoundTrip) {
  const Queue& q = queue();
  for (std::size_t n : {1ul, 2ul, 3ul, 17ul, 1023ul, 1025ul, 1ul << 20})
    for (int vw : {1, 2, 4})
      for (int grid_stride : {0, 1}) {
        SCOPED_TRACE("n=" + std::to_string(n) + " VW=" + std::to_string(vw) + " GRID_STRIDE=" +
                     std::to_string(grid_stride));
        const std::uint64_t xo = 2 * vw, yo = 3 * vw;  // offsets aligned to the pack
        std::vector<std::uint32_t> x(n + xo), y(n + yo + 5, 0xfefefefeu);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::uint32_t(i * 2246822519u + 7);
        Buffer<std::uint32_t> bx = q.context().alloc<std::uint32_t>(x.size());
        Buffer<std::uint32_t> by = q.context().alloc<std::uint32_t>(y.size());
        q.upload(bx, std::span<const std::uint32_t>(x));
        q.upload(by, std::span<const std::uint32_t>(y));
        KernelPtr k = get_program(ctx(), "copy/copy.cl",
                                  {{"TYPE", "uint"}, {"VW", std::to_string(vw)}, {"WGS", "256"},
                                   {"GRID_STRIDE", std::to_string(grid_stride)}})
                          ->kernel("copy");
        Geometry g;
        g.local[0] = 256;
        g.global[0] = (std::max<std::size_t>(n / vw, 1) + 255) / 256 * 256;
        if (grid_stride) g.global[0] = std::min<std::size_t>(g.global[0], 256 * 16);
        Event e = Launch(q, k).arg(std::uint64_t(n)).buf(bx).arg(xo).buf(by).arg(yo).run(g);
        const EventTimes t = e.times();
        EXPECT_LE(t.start, t.end);
        std::copy(x.begin() + long(xo), x.begin() + long(xo + n), y.begin() + long(yo));
        ASSERT_EQ(q.download(by), y);
      }
}

TEST_F(CudaDevice, EventsAreOrdered) {
  const Queue& q = queue();
  const std::size_t n = 1 << 22;
  std::vector<float> host(n, 1.0f), back(n);
  Buffer<float> a = q.context().alloc<float>(n), b = q.context().alloc<float>(n);
  Event e1 = q.write(a, std::span<const float>(host));
  Event e2 = q.copy(a, b);
  Event e3 = q.read(b, std::span<float>(back));
  e3.wait();
  EXPECT_TRUE(e1.complete() && e2.complete() && e3.complete());
  const EventTimes t1 = e1.times(), t2 = e2.times(), t3 = e3.times();
  for (const EventTimes& t : {t1, t2, t3}) {
    EXPECT_LE(t.queued, t.submit);
    EXPECT_LE(t.start, t.end);
  }
  EXPECT_LE(t1.end, t2.start);
  EXPECT_LE(t2.end, t3.start);
  EXPECT_GT(t2.end, t2.start);  // 32 MiB do not copy in zero time
  EXPECT_EQ(back, host);
}

TEST_F(CudaDevice, WaitListAcrossQueues) {
  const Queue& q1 = queue();
  Queue q2(q1.context());
  const std::size_t n = 1 << 22;
  std::vector<std::uint32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i);
  Buffer<std::uint32_t> a = q1.context().alloc<std::uint32_t>(n), b = q1.context().alloc<std::uint32_t>(n);
  Event written = q1.write(a, std::span<const std::uint32_t>(host));
  Event copied = q2.copy(a, b, {written});
  std::vector<std::uint32_t> back(n);
  q2.read(b, std::span<std::uint32_t>(back), {copied}).wait();
  EXPECT_EQ(back, host);
}

TEST_F(CudaDevice, PreludeAtRunTime) {
  const char* probe = R"CL(
__kernel void probe(__global uint* out, __global half* h, __global int* counter) {
  const size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);
  out[4 * i + 0] = (uint)(get_global_id(0) + 1000 * get_global_id(1));
  out[4 * i + 1] = sub_group_reduce_add(1u);
  out[4 * i + 2] = get_sub_group_local_id() + 100 * get_sub_group_size();
  out[4 * i + 3] = get_work_dim() + 10 * (uint)get_local_linear_id();
  vstore_half(vload_half(i, h) * 2.0f, i, h);
  atomic_inc(counter);
}
)CL";
  const Queue& q = queue();
  const std::size_t w = 64, hgt = 4, n = w * hgt;
  Buffer<std::uint32_t> out = q.context().alloc<std::uint32_t>(4 * n);
  Buffer<half> h = q.context().alloc<half>(n);
  Buffer<std::int32_t> counter = q.context().alloc<std::int32_t>(1);
  std::vector<half> hv;
  for (std::size_t i = 0; i < n; ++i) hv.emplace_back(float(i) * 0.25f);
  q.upload(h, std::span<const half>(hv));
  q.fill(counter, 0).wait();
  KernelPtr k = get_program_from_text(ctx(), "probe.cl", probe, {})->kernel("probe");
  Geometry g;
  g.dims = 2;
  g.global[0] = w, g.global[1] = hgt;
  g.local[0] = 32, g.local[1] = 2;  // 64 work-items, two warps per group
  Launch(q, k).buf(out).buf(h).buf(counter).run(g).wait();
  const std::vector<std::uint32_t> o = q.download(out);
  const std::vector<half> hb = q.download(h);
  for (std::size_t y = 0; y < hgt; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const std::size_t i = x + w * y, linear = (x % 32) + 32 * (y % 2);
      ASSERT_EQ(o[4 * i + 0], x + 1000 * y) << i;
      ASSERT_EQ(o[4 * i + 1], 32u) << i;
      ASSERT_EQ(o[4 * i + 2], linear % 32 + 3200) << i;
      ASSERT_EQ(o[4 * i + 3], 2 + 10 * linear) << i;
      ASSERT_EQ(float(hb[i]), float(i) * 0.5f) << i;
    }
  EXPECT_EQ(q.download(counter)[0], std::int32_t(n));
}

// The CUDA meaning of prelude functions, one warp, against values known on the host.
TEST_F(CudaDevice, PreludeSemantics) {
  const char* kernel = R"CL(
__kernel void semantics(__global float* out, __global half* h) {
  const uint lane = get_sub_group_local_id();
  const float f = (float)lane;
  __global float* o = out + 24 * lane;
  o[0] = sub_group_reduce_min(f);
  o[1] = sub_group_reduce_max(f);
  o[2] = (float)sub_group_scan_inclusive_add((int)lane);
  o[3] = sub_group_scan_exclusive_add(f);
  o[4] = sub_group_broadcast(f, 5);
  o[5] = (float)sub_group_reduce_add((double)lane);
  o[6] = clamp(f, 4.0f, 9.0f);
  o[7] = sign(f - 16.0f);
  o[8] = select(1.0f, 2.0f, (int)(lane & 1));
  const float4 v = select(OPTUNE_SPLAT(float, 4, 0.0f), OPTUNE_SPLAT(float, 4, 1.0f), make_int4(-1, 0, -1, 0));
  o[9] = v.x + 10.0f * v.y;
  o[10] = mix(2.0f, 4.0f, 0.25f);
  o[11] = step(16.0f, f);
  vstore_half(1.0f + 1.0f / 2048.0f, 2 * lane, h);         // halfway: to even (1)
  vstore_half(1.0f + 3.0f / 2048.0f, 2 * lane + 1, h);     // halfway: to even (1 + 2^-9)
  o[12] = vload_half(2 * lane, h) + 10.0f * vload_half(2 * lane + 1, h);
  o[13] = (float)(convert_int_rte(2.5f) + 10 * convert_int_rte(3.5f));
  o[14] = dot(make_float4(1.0f, 2.0f, 3.0f, 4.0f), OPTUNE_SPLAT(float, 4, 1.0f));
  o[15] = fma(make_float2(2.0f, 3.0f), make_float2(4.0f, 5.0f), OPTUNE_SPLAT(float, 2, 1.0f)).y;
  const int4 i4 = make_int4(7, 8, 9, 10);
  o[16] = (float)((i4 % 3).w + 100 * (i4 << 1).x);
  o[17] = (float)(clz(1) + 100 * popcount(0xffu));
  o[18] = as_float(as_uint(1.5f));
  o[19] = native_divide(1.0f, 4.0f);
  o[20] = (float)(sub_group_any(lane == 3) + 10 * sub_group_all(lane < 40));
  o[21] = OPTUNE_VSUM(4, (make_float4(1.0f, 2.0f, 3.0f, 4.0f) - 1.0f) * 2.0f / OPTUNE_SPLAT(float, 4, 2.0f));
  o[22] = (float)get_num_sub_groups() + 10.0f * (float)get_sub_group_size();
  o[23] = rsqrt(4.0f) + native_recip(8.0f);
}
)CL";
  const Queue& q = queue();
  Buffer<float> out = q.context().alloc<float>(24 * 32);
  Buffer<half> h = q.context().alloc<half>(64);
  KernelPtr k = get_program_from_text(ctx(), "semantics.cl", kernel, {})->kernel("semantics");
  Geometry g;
  g.global[0] = g.local[0] = 32;
  Launch(q, k).buf(out).buf(h).run(g).wait();
  const std::vector<float> o = q.download(out);
  for (int lane = 0; lane < 32; ++lane) {
    const float* r = o.data() + 24 * lane;
    const float sign = lane > 16 ? 1.0f : lane < 16 ? -1.0f : 0.0f;
    const float want[24] = {0, 31, float(lane * (lane + 1) / 2), float(lane * (lane - 1) / 2), 5, 496,
                            float(std::clamp(lane, 4, 9)), sign, lane & 1 ? 2.0f : 1.0f, 1, 2.5f,
                            lane < 16 ? 0.0f : 1.0f, 1.0f + 10.0f * (1.0f + 1.0f / 512), 2 + 40, 10, 16, 1 + 1400,
                            31 + 800, 1.5f, 0.25f, 11, 6, 1 + 320, 0.625f};
    for (int j = 0; j < 24; ++j)
      EXPECT_NEAR(r[j], want[j], 1e-6f * std::max(1.0f, std::fabs(want[j]))) << "lane " << lane << " item " << j;
  }
}

TEST_F(CudaDevice, ProgramBinaryReloads) {
  ProgramPtr p = get_program(ctx(), "copy/copy.cl", {});
  const std::vector<std::uint8_t> bin = p->binary();
  ASSERT_FALSE(bin.empty());
  ProgramPtr again = ctx().load_binary(bin, "");
  ASSERT_TRUE(again);
  EXPECT_NO_THROW(again->kernel("copy"));
  EXPECT_EQ(ctx().load_binary({1, 2, 3, 4}, ""), nullptr);
  try {
    p->kernel("no_such_kernel");
    ADD_FAILURE() << "found a kernel that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::NotFound);
  }
}

TEST_F(CudaDevice, ErrorsCarryStatus) {
  const Queue& q = queue();
  auto status_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.status();
    }
    return Status::Success;
  };
  const std::uint64_t total = q.device().caps().global_mem_bytes;
  EXPECT_EQ(status_of([&] { q.context().alloc<std::uint8_t>(total); }), Status::OutOfResources);
  EXPECT_EQ(status_of([&] { Image2D(q.context(), 4, 4, ChannelType::Float); }), Status::Unsupported);
  EXPECT_EQ(status_of([&] { get_program_from_text(ctx(), "bad.cl", "__kernel void k() { nope; }", {}); }),
            Status::BuildFailure);
  // Argument checks need the driver to describe parameters (12.4+).
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (lib && dlsym(lib, "cuFuncGetParamInfo")) {
    KernelPtr k = get_program(ctx(), "copy/copy.cl", {})->kernel("copy");
    Buffer<float> x = q.context().alloc<float>(4);
    Geometry g;
    g.global[0] = g.local[0] = 256;
    EXPECT_EQ(status_of([&] { Launch(q, k).arg(std::uint64_t(4)).buf(x).run(g); }), Status::InvalidArgument);
    EXPECT_EQ(status_of([&] { Launch(q, k).arg(4).buf(x).arg(std::uint64_t(0)).buf(x).arg(std::uint64_t(0)).run(g); }),
              Status::InvalidArgument);
  }
}

#else  // !OPTUNE_WITH_CUDA

TEST(CudaBackend, NotBuilt) { GTEST_SKIP() << "optune was built without the CUDA toolkit"; }

#endif
