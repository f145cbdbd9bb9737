// Standalone harness for src/kernels/gemm/gemm_mma.cl, for the GPU machine
// before the host offers the kernel: NVRTC-compiles the kernel text as optune
// assembles it (capability macros, CUDA preludes, gemm_common.cl), checks it
// against a double CPU reference (odd sizes, every type and transposition,
// epilogue, batches) and cuBLAS (large), and times tile configurations
// against cublasGemmEx (f16/bf16 in and out, CUBLAS_COMPUTE_32F; tf32 with
// CUBLAS_COMPUTE_32F_FAST_TF32) with CUDA events, median of 10 or 30.
//   nvcc -O2 -std=c++17 -o gemm_mma_bench gemm_mma_bench.cu -lcublas -lnvrtc -lcuda
//   KDIR=src/kernels ./gemm_mma_bench check | bench [quick] | ptx DEFINE=V...
// (ptx writes PTX for `ptxas -arch=sm_90 -v`, and needs no GPU.)
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#define CK(x) do { auto _r = (x); if (_r != 0) { fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)_r); exit(1); } } while (0)

static std::string dir = ".";
static std::string slurp(const std::string& p) {
  std::ifstream f(dir + "/" + p);
  if (!f) { fprintf(stderr, "missing %s\n", p.c_str()); exit(1); }
  std::stringstream s; s << f.rdbuf(); return s.str();
}
static std::string text_of(const std::string& act) {
  std::string s = "#define OPTUNE_BACKEND_OPENCL 0\n#define OPTUNE_BACKEND_CUDA 1\n#define OPTUNE_HAS_SUBGROUPS 1\n"
                  "#define OPTUNE_HAS_FP16 1\n#define OPTUNE_HAS_FP64 1\n#define OPTUNE_HAS_IMAGES 0\n"
                  "#define OPTUNE_SUBGROUP_SIZE 32\n";
  for (const char* p : {"common/prelude_cuda.cl", "common/prelude_cuda_math.cl", "common/prelude.cl"})
    s += std::string("#line 1 \"") + p + "\"\n" + slurp(p) + "\n";
  if (!act.empty()) s += "#define GEMM_ACT(A) " + act + "\n";
  s += "#line 1 \"gemm/gemm_common.cl\"\n" + slurp("gemm/gemm_common.cl") + "\n";
  s += "#line 1 \"gemm/gemm_mma.cl\"\n" + slurp("gemm/gemm_mma.cl") + "\n";
  return s;
}

typedef std::map<std::string, std::string> Defs;
static std::string arch = "sm_90";

struct Built { std::string ptx, cubin, log; bool ok = false; };
static Built nvrtc(const Defs& d, const std::string& act, bool want_ptx) {
  Built b;
  std::string text = text_of(act);
  nvrtcProgram p;
  CK(nvrtcCreateProgram(&p, text.c_str(), "optune.cu", 0, nullptr, nullptr));
  std::vector<std::string> opts = {"--std=c++17", "-default-device", "--gpu-architecture=" + arch,
                                   "-I/usr/local/cuda/include"};
  for (auto& [k, v] : d) opts.push_back("-D" + k + "=" + v);
  std::vector<const char*> o; for (auto& s : opts) o.push_back(s.c_str());
  nvrtcResult r = nvrtcCompileProgram(p, (int)o.size(), o.data());
  size_t n; nvrtcGetProgramLogSize(p, &n); b.log.resize(n); nvrtcGetProgramLog(p, b.log.data());
  if (r == NVRTC_SUCCESS) {
    b.ok = true;
    if (want_ptx) { nvrtcGetPTXSize(p, &n); b.ptx.resize(n); nvrtcGetPTX(p, b.ptx.data()); }
    nvrtcGetCUBINSize(p, &n); b.cubin.resize(n); nvrtcGetCUBIN(p, b.cubin.data());
  }
  nvrtcDestroyProgram(&p);
  return b;
}

static int ival(const Defs& d, const char* k, int def) { auto it = d.find(k); return it == d.end() ? def : atoi(it->second.c_str()); }

struct Kern { CUfunction f = nullptr; CUmodule m = nullptr; int threads = 0, smem = 0, regs = 0, spill = 0; std::string err; };
static Kern load(const Defs& d, const Built& b) {
  Kern k;
  if (!b.ok) { k.err = b.log; return k; }
  CK(cuModuleLoadData(&k.m, b.cubin.data()));
  CK(cuModuleGetFunction(&k.f, k.m, "gemm_mma"));
  const int BM = ival(d, "BM", 128), BN = ival(d, "BN", 128), BK = ival(d, "BK", 32), WM = ival(d, "WM", 64),
            WN = ival(d, "WN", 64), ST = ival(d, "STAGES", 3);
  const int es = ival(d, "MMA_TF32", 0) ? 4 : 2;
  k.threads = 32 * (BM / WM) * (BN / WN);
  k.smem = ST * (BM + BN) * BK * es;
  if (k.smem > 48 * 1024) CK(cuFuncSetAttribute(k.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k.smem));
  cuFuncGetAttribute(&k.regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k.f);
  cuFuncGetAttribute(&k.spill, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, k.f);
  return k;
}
static std::vector<Kern> build_all(const std::vector<Defs>& ds, const std::string& act = "") {
  std::vector<Built> bs(ds.size());
  std::vector<std::thread> th;
  std::mutex mu; size_t next = 0;
  for (int w = 0; w < 12; ++w)
    th.emplace_back([&] {
      for (;;) {
        size_t i; { std::lock_guard l(mu); if (next >= ds.size()) return; i = next++; }
        bs[i] = nvrtc(ds[i], act, false);
      }
    });
  for (auto& t : th) t.join();
  std::vector<Kern> ks;
  for (size_t i = 0; i < ds.size(); ++i) ks.push_back(load(ds[i], bs[i]));
  return ks;
}

struct Args {
  unsigned long long M, N, K; float alpha, beta;
  CUdeviceptr a; unsigned long long a_off, lda, a_stride;
  CUdeviceptr b; unsigned long long b_off, ldb, b_stride;
  CUdeviceptr c; unsigned long long c_off, ldc, c_stride;
  CUdeviceptr bias; unsigned long long bias_off;
  CUdeviceptr table; unsigned long long batch; unsigned flags; unsigned long long z0;
  float p0, p1;
};
static void launch(const Kern& k, const Defs& d, Args& a, cudaStream_t s = 0) {
  const int BM = ival(d, "BM", 128), BN = ival(d, "BN", 128);
  void* p[] = {&a.M, &a.N, &a.K, &a.alpha, &a.beta, &a.a, &a.a_off, &a.lda, &a.a_stride, &a.b, &a.b_off, &a.ldb,
               &a.b_stride, &a.c, &a.c_off, &a.ldc, &a.c_stride, &a.bias, &a.bias_off, &a.table, &a.batch, &a.flags,
               &a.z0, &a.p0, &a.p1};
  unsigned gx = (unsigned)((a.N + BN - 1) / BN), gy = (unsigned)((a.M + BM - 1) / BM);
  CK(cuLaunchKernel(k.f, gx, gy, (unsigned)a.batch, k.threads, 1, 1, k.smem > 48 * 1024 ? k.smem : 0, s, p, nullptr));
}

// ---- host types ----
static uint16_t f2h(float f) { return __half_as_ushort(__float2half_rn(f)); }
static float h2f(uint16_t h) { return __half2float(__ushort_as_half(h)); }
static uint16_t f2bf(float f) { uint32_t u; memcpy(&u, &f, 4); if ((u & 0x7fffffff) > 0x7f800000) return (u >> 16) | 0x40; return (u + 0x7fff + ((u >> 16) & 1)) >> 16; }
static float bf2f(uint16_t b) { uint32_t u = (uint32_t)b << 16; float f; memcpy(&f, &u, 4); return f; }
static float tf32r(float f) { uint32_t u; memcpy(&u, &f, 4); if ((u & 0x7f800000) != 0x7f800000) { u += 0x1000; u &= 0xffffe000; } memcpy(&f, &u, 4); return f; }

// in type: 0 f16, 1 bf16, 2 f32 (tf32); out type likewise (f32 out = float).
static int esize(int t) { return t == 2 ? 4 : 2; }
static void to_dev_type(int t, const std::vector<float>& v, std::vector<uint8_t>& out, std::vector<float>& rounded) {
  out.resize(v.size() * esize(t)); rounded.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == 0) { uint16_t h = f2h(v[i]); memcpy(&out[2 * i], &h, 2); rounded[i] = h2f(h); }
    else if (t == 1) { uint16_t h = f2bf(v[i]); memcpy(&out[2 * i], &h, 2); rounded[i] = bf2f(h); }
    else { memcpy(&out[4 * i], &v[i], 4); rounded[i] = tf32r(v[i]); }
  }
}
static float from_dev(int t, const uint8_t* p) {
  if (t == 0) { uint16_t h; memcpy(&h, p, 2); return h2f(h); }
  if (t == 1) { uint16_t h; memcpy(&h, p, 2); return bf2f(h); }
  float f; memcpy(&f, p, 4); return f;
}
static const char* tname[] = {"f16", "bf16", "tf32"};
static Defs type_defs(int in, int out) {
  Defs d;
  if (in == 0) d = {{"TYPE", "half"}, {"HALF_STORAGE", "1"}};
  if (in == 1) d = {{"TYPE", "ushort"}, {"BF16_STORAGE", "1"}};
  if (in == 2) d = {{"TYPE", "float"}, {"MMA_TF32", "1"}};
  d["CTYPE"] = out == 0 ? "half" : out == 1 ? "ushort" : "float";
  d["C_HALF_STORAGE"] = out == 0 ? "1" : "0";
  d["C_BF16_STORAGE"] = out == 1 ? "1" : "0";
  return d;
}

static std::mt19937_64 rng(12345);
static std::vector<float> rnd(size_t n) { std::uniform_real_distribution<float> u(-1, 1); std::vector<float> v(n); for (auto& x : v) x = u(rng); return v; }

// One checked case: batch of products (strided), epilogue relu or none.
static int failures = 0;
static void check_case(const Kern& k, const Defs& d, int tin, int tout, int M, int N, int K, int batch, float alpha,
                       float beta, int bias_mode, bool relu, bool ta, bool tb) {
  auto up8 = [](size_t x) { return (x + 7) / 8 * 8; };
  const size_t lda = up8(ta ? M : K) + 8, ldb = up8(tb ? K : N) + 16, ldc = N + 3;
  const size_t a_rows = ta ? K : M, b_rows = tb ? N : K;
  const size_t a_stride = a_rows * lda + 8, b_stride = b_rows * ldb + 24, c_stride = (size_t)M * ldc + 5;
  const size_t a_off = 16, b_off = 8, c_off = 1, bias_off = 3;
  std::vector<float> av = rnd(a_off + batch * a_stride), bv = rnd(b_off + batch * b_stride),
                     cv = rnd(c_off + batch * c_stride), biasv = rnd(bias_off + std::max(M, N));
  std::vector<uint8_t> ad, bd, cd, biasd; std::vector<float> ar, br, cr, biasr;
  to_dev_type(tin, av, ad, ar); to_dev_type(tin, bv, bd, br); to_dev_type(tout == 2 ? 2 : tout, cv, cd, cr);
  to_dev_type(tout, biasv, biasd, biasr);
  if (tout == 2) { cr = cv; biasr = biasv; }
  if (beta == 0) {  // poison C with NaN
    for (size_t i = 0; i < cv.size(); ++i) {
      if (esize(tout) == 2) { uint16_t h = tout == 0 ? 0x7e00 : 0x7fc0; memcpy(&cd[2 * i], &h, 2); }
      else { uint32_t u = 0x7fc00000; memcpy(&cd[4 * i], &u, 4); }
    }
  }
  CUdeviceptr A, B, C, Bi, T;
  CK(cuMemAlloc(&A, ad.size())); CK(cuMemAlloc(&B, bd.size())); CK(cuMemAlloc(&C, cd.size())); CK(cuMemAlloc(&Bi, biasd.size()));
  CK(cuMemAlloc(&T, 64));
  CK(cuMemcpyHtoD(A, ad.data(), ad.size())); CK(cuMemcpyHtoD(B, bd.data(), bd.size()));
  CK(cuMemcpyHtoD(C, cd.data(), cd.size())); CK(cuMemcpyHtoD(Bi, biasd.data(), biasd.size()));
  unsigned flags = (bias_mode == 1 ? 16u : bias_mode == 2 ? 32u : 0u);
  Args a{(unsigned long long)M, (unsigned long long)N, (unsigned long long)K, alpha, beta, A, a_off, lda, a_stride, B, b_off, ldb, b_stride, C, c_off, ldc,
         c_stride, Bi, bias_off, T, (unsigned long long)batch, flags, 0, 0, 0};
  launch(k, d, a);
  CK(cuCtxSynchronize());
  std::vector<uint8_t> out(cd.size());
  CK(cuMemcpyDtoH(out.data(), C, out.size()));
  double worst = 0; long bad = 0;
  for (int z = 0; z < batch; ++z)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0, sa = 0;
        for (int p = 0; p < K; ++p) {
          const double x = ar[a_off + z * a_stride + (ta ? p * lda + i : i * lda + p)];
          const double y = br[b_off + z * b_stride + (tb ? j * ldb + p : p * ldb + j)];
          s += x * y; sa += std::fabs(x * y);
        }
        const size_t ci = c_off + z * c_stride + i * ldc + j;
        double v = alpha * s + (beta == 0 ? 0 : beta * (double)cr[ci]) +
                   (bias_mode == 1 ? biasr[bias_off + i] : bias_mode == 2 ? biasr[bias_off + j] : 0);
        if (relu) v = v > 0 ? v : 0;
        const double got = from_dev(tout, &out[ci * esize(tout)]);
        const double ulp_out = tout == 0 ? 1.0 / 1024 : tout == 1 ? 1.0 / 128 : 1.0 / (1 << 20);
        const double tol = 1e-5 * sa * std::fabs(alpha) + ulp_out * std::fabs(v) + 1e-6 + (tout == 0 ? 6e-8 : 0);
        const double err = std::fabs(got - v);
        if (!(err <= tol)) { if (bad < 3) fprintf(stderr, "   (%d,%d,%d) got %g want %g\n", z, i, j, got, v); ++bad; }
        worst = std::max(worst, err / (tol));
      }
  // untouched gaps in C (columns >= N of each row) must keep their values.
  long clobber = 0;
  for (int z = 0; z < batch; ++z)
    for (int i = 0; i < M; ++i)
      for (size_t j = N; j < ldc; ++j) {
        size_t ci = c_off + z * c_stride + i * ldc + j;
        if (memcmp(&out[ci * esize(tout)], &cd[ci * esize(tout)], esize(tout))) ++clobber;
      }
  printf("%s  %-5s->%-5s %s%s M=%d N=%d K=%d b=%d a=%g b=%g bias=%d relu=%d: %s (worst err/tol %.3f)\n",
         bad || clobber ? "FAIL" : "ok  ", tname[tin], tout == 2 ? "f32" : tname[tout], ta ? "T" : "N", tb ? "T" : "N", M, N, K,
         batch, alpha, beta, bias_mode, (int)relu, bad ? "BAD" : clobber ? "CLOBBER" : "pass", worst);
  if (bad || clobber) ++failures;
  cuMemFree(A); cuMemFree(B); cuMemFree(C); cuMemFree(Bi); cuMemFree(T);
}

static void run_check() {
  struct Shape { int M, N, K, batch; };
  const std::vector<Shape> shapes = {{1, 1, 1, 1}, {17, 33, 40, 2}, {127, 129, 200, 1}, {200, 70, 1000, 1}, {64, 256, 96, 3}};
  for (int tin : {0, 1, 2}) {
    std::vector<Defs> ds; std::vector<std::pair<int, int>> tr;
    for (int ta : {0, 1})
      for (int tb : {0, 1}) {
        for (int cfg = 0; cfg < 2; ++cfg) {
          Defs d = type_defs(tin, tin == 2 ? 2 : (ta + tb) % 2 ? 2 : tin);
          d["TRANS_A"] = std::to_string(ta); d["TRANS_B"] = std::to_string(tb);
          if (cfg == 0) { d["BM"] = "128"; d["BN"] = "128"; d["WM"] = "64"; d["WN"] = tin == 2 ? "32" : "64"; d["BK"] = tin == 2 ? "16" : "32"; d["STAGES"] = "3"; }
          if (cfg == 1) { d["BM"] = "64"; d["BN"] = "64"; d["WM"] = "32"; d["WN"] = "32"; d["BK"] = tin == 2 ? "16" : "32"; d["STAGES"] = "4"; d["SWIZZLE_GROUP"] = "2"; }
          ds.push_back(d); tr.push_back({ta, tb});
        }
      }
    auto ks = build_all(ds, "(A > 0.0f ? A : 0.0f)");
    auto ks0 = build_all(ds, "");
    for (size_t i = 0; i < ds.size(); ++i) {
      if (!ks[i].f || !ks0[i].f) { printf("BUILD FAIL %s\n%s\n", tname[tin], ks[i].err.c_str()); ++failures; continue; }
      const int tout = ds[i]["CTYPE"] == "half" ? 0 : ds[i]["CTYPE"] == "ushort" ? 1 : 2;
      int si = 0;
      for (auto s : shapes) {
        ++si;
        const bool relu = si % 2 == 0;
        check_case(relu ? ks[i] : ks0[i], ds[i], tin, tout, s.M, s.N, s.K, s.batch, si == 3 ? 0.5f : 1.0f,
                   si == 2 || si == 4 ? 0.75f : 0.0f, si % 3, relu, tr[i].first, tr[i].second);
      }
    }
  }
  printf("check: %d failures\n", failures);
}

// ---- timing ----
static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

struct Shape { int M, N, K; bool tb; const char* name; };
static void run_bench(bool quick) {
  cublasHandle_t h; CK(cublasCreate(&h));
  std::vector<Shape> shapes = {{8192, 8192, 8192, false, "8192 NN"}, {8192, 8192, 8192, true, "8192 NT"},
                               {4096, 4096, 4096, false, "4096 NN"}, {4096, 4096, 4096, true, "4096 NT"},
                               {128, 4096, 4096, false, "128x4096x4096 NN"}, {128, 4096, 4096, true, "128x4096x4096 NT"}};
  // configs: BM BN BK WM WN STAGES
  std::vector<std::vector<int>> cfgs = {{128, 128, 64, 64, 32, 3}, {128, 128, 64, 64, 32, 4}, {128, 128, 64, 32, 64, 3},
                                        {128, 256, 32, 64, 64, 3}, {128, 256, 32, 64, 64, 4}, {128, 256, 64, 64, 64, 3},
                                        {256, 128, 64, 64, 64, 3}, {256, 128, 32, 64, 64, 4}, {128, 128, 32, 64, 64, 3},
                                        {128, 128, 32, 64, 64, 4}, {64, 128, 32, 32, 64, 4}, {128, 64, 32, 64, 32, 4},
                                        {64, 64, 64, 32, 32, 4}, {64, 64, 32, 32, 32, 5}, {64, 128, 64, 32, 64, 3},
                                        {128, 64, 64, 64, 32, 3}, {128, 128, 64, 64, 32, 3, 16}, {128, 256, 32, 64, 64, 3, 4},
                                        {128, 128, 64, 64, 32, 3, 1}};
  std::vector<std::vector<int>> tf32cfgs = {{128, 128, 32, 64, 32, 3}, {128, 128, 16, 64, 32, 4}, {128, 128, 16, 64, 32, 3},
                                            {128, 256, 16, 64, 64, 4}, {64, 128, 32, 32, 64, 3}, {128, 128, 32, 32, 64, 3}};
  if (quick) cfgs = {{128, 128, 32, 64, 64, 3}, {128, 256, 32, 64, 64, 3}, {128, 128, 64, 64, 32, 3}, {128, 128, 32, 64, 64, 4},
                     {64, 64, 64, 32, 32, 4}, {256, 128, 32, 64, 64, 3}};
  if (quick) tf32cfgs = {{128, 128, 16, 64, 32, 3}, {128, 256, 16, 64, 64, 4}};
  for (int tin : {0, 1, 2}) {
    std::vector<Defs> ds;
    for (int tb : {0, 1})
      for (auto& c : tin == 2 ? tf32cfgs : cfgs) {
        Defs d = type_defs(tin, tin);
        d["TRANS_B"] = std::to_string(tb);
        d["BM"] = std::to_string(c[0]); d["BN"] = std::to_string(c[1]); d["BK"] = std::to_string(c[2]);
        d["WM"] = std::to_string(c[3]); d["WN"] = std::to_string(c[4]); d["STAGES"] = std::to_string(c[5]);
        if (c.size() > 6) d["SWIZZLE_GROUP"] = std::to_string(c[6]);
        ds.push_back(d);
      }
    auto ks = build_all(ds);
    for (size_t i = 0; i < ds.size(); ++i)
      if (!ks[i].f) printf("BUILD FAIL %zu: %s\n", i, ks[i].err.substr(0, 2000).c_str());
      else if (tin != 1) printf("cfg %zu: regs %d spill %d smem %d threads %d\n", i, ks[i].regs, ks[i].spill, ks[i].smem, ks[i].threads);
    const size_t maxe = 8192ull * 8192;
    CUdeviceptr A, B, C, C2, T;
    const int eb = esize(tin);
    CK(cuMemAlloc(&A, maxe * eb)); CK(cuMemAlloc(&B, maxe * eb)); CK(cuMemAlloc(&C, maxe * eb)); CK(cuMemAlloc(&C2, maxe * eb)); CK(cuMemAlloc(&T, 64));
    { std::vector<float> v = rnd(maxe); std::vector<uint8_t> dv; std::vector<float> r; to_dev_type(tin, v, dv, r);
      CK(cuMemcpyHtoD(A, dv.data(), dv.size())); v = rnd(maxe); to_dev_type(tin, v, dv, r); CK(cuMemcpyHtoD(B, dv.data(), dv.size())); }
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    const cudaDataType dt = tin == 0 ? CUDA_R_16F : tin == 1 ? CUDA_R_16BF : CUDA_R_32F;
    for (auto& s : shapes) {
      if (tin == 2 && s.M != 8192) continue;
      const int reps = s.M * (double)s.N * s.K > 1e11 ? 10 : 30;
      const double flop = 2.0 * s.M * s.N * s.K;
      float one = 1, zero = 0;
      auto cub = [&] {
        CK(cublasGemmEx(h, s.tb ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, s.N, s.M, s.K, &one, (void*)B, dt, s.tb ? s.K : s.N,
                        (void*)A, dt, s.K, &zero, (void*)C2, dt, s.N, tin == 2 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
      };
      for (int w = 0; w < 3; ++w) cub();
      std::vector<float> t;
      for (int r = 0; r < reps; ++r) { cudaEventRecord(e0); cub(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms); }
      const float cub_ms = median(t);
      printf("%s %-18s cuBLAS %7.1f TFLOP/s\n", tname[tin], s.name, flop / cub_ms / 1e9);
      // reference output for a check
      std::vector<uint8_t> ref((size_t)s.M * s.N * eb), got((size_t)s.M * s.N * eb);
      CK(cuCtxSynchronize());
      CK(cuMemcpyDtoH(ref.data(), C2, ref.size()));
      float best = 0; std::string bestcfg;
      for (size_t i = 0; i < ds.size(); ++i) {
        if (!ks[i].f || ival(ds[i], "TRANS_B", 0) != (int)s.tb) continue;
        Args a{(unsigned long long)s.M, (unsigned long long)s.N, (unsigned long long)s.K, 1.0f, 0.0f, A, 0, (unsigned long long)s.K, 0, B, 0,
               (unsigned long long)(s.tb ? s.K : s.N), 0, C, 0, (unsigned long long)s.N, 0, T, 0, T, 1, 0, 0, 0, 0};
        CK(cuMemsetD8(C, 0xff, (size_t)s.M * s.N * eb));
        for (int w = 0; w < 2; ++w) launch(ks[i], ds[i], a);
        CK(cuCtxSynchronize());
        t.clear();
        for (int r = 0; r < reps; ++r) { cudaEventRecord(e0); launch(ks[i], ds[i], a); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms); }
        CK(cuCtxSynchronize());
        const float ms = median(t);
        CK(cuMemcpyDtoH(got.data(), C, got.size()));
        double num = 0, den = 0;
        for (size_t q = 0; q < (size_t)s.M * s.N; q += 7) {
          const double x = from_dev(tin, &got[q * eb]), y = from_dev(tin, &ref[q * eb]);
          num += (x - y) * (x - y); den += y * y;
        }
        const double rel = std::sqrt(num / den);
        char cfg[160];
        snprintf(cfg, sizeof cfg, "BM=%s BN=%s BK=%s WM=%s WN=%s ST=%s G=%s", ds[i]["BM"].c_str(), ds[i]["BN"].c_str(), ds[i]["BK"].c_str(),
                 ds[i]["WM"].c_str(), ds[i]["WN"].c_str(), ds[i]["STAGES"].c_str(), ds.at(i).count("SWIZZLE_GROUP") ? ds[i]["SWIZZLE_GROUP"].c_str() : "8");
        const float tf = flop / ms / 1e9;
        printf("   %-44s %7.1f TFLOP/s  %.2fx  relerr %.1e%s\n", cfg, tf, cub_ms / ms, rel, rel > 1e-2 || !(rel == rel) ? "  WRONG" : "");
        if (tf > best && rel < 1e-2) { best = tf; bestcfg = cfg; }
      }
      printf("BEST %s %-18s %7.1f TFLOP/s = %.2fx cuBLAS (%.1f)  [%s]\n", tname[tin], s.name, best, best / (flop / cub_ms / 1e9),
             flop / cub_ms / 1e9, bestcfg.c_str());
    }
    cuMemFree(A); cuMemFree(B); cuMemFree(C); cuMemFree(C2); cuMemFree(T);
  }
}

int main(int argc, char** argv) {
  if (const char* e = getenv("KDIR")) dir = e;
  std::string mode = argc > 1 ? argv[1] : "check";
  if (mode == "ptx") {
    Defs d;
    for (int i = 2; i < argc; ++i) { std::string s = argv[i]; auto eq = s.find('='); d[s.substr(0, eq)] = s.substr(eq + 1); }
    if (const char* a = getenv("ARCH")) arch = a;
    Built b = nvrtc(d, "", true);
    fprintf(stderr, "%s", b.log.c_str());
    if (!b.ok) return 1;
    fwrite(b.ptx.data(), 1, strlen(b.ptx.c_str()), stdout);
    return 0;
  }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  cudaSetDevice(0);
  if (mode == "check" || mode == "all") run_check();
  if (mode == "bench" || mode == "all") run_bench(argc > 2 && std::string(argv[2]) == "quick");
  return failures ? 1 : 0;
}
