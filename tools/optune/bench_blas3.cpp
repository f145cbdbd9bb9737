// optune bench blas, level 3 rows: cgemm (c32) and symm (f32, left, upper)
// at 4096 (256 on CPUs), row-major, as TFLOP/s and a fraction of the f32 FMA
// ceiling, against CLBlast (OpenCL) or cuBLAS (CUDA) on the same buffers in
// the same run, their results compared element by element.
#include <algorithm>
#include <complex>
#include <cstdio>

#include "bench_blas.hpp"
#include "optune/blas3.hpp"
#include "reference/reference_blas.hpp"

namespace optune::tool {

namespace {

enum class SymmGemmOp { Cgemm, Symm };
const SymmGemmOp kSymmGemmOps[] = {SymmGemmOp::Cgemm, SymmGemmOp::Symm};

std::string level3_name(SymmGemmOp op) { return op == SymmGemmOp::Cgemm ? "cgemm-c32" : "symm-f32"; }

// Uniform parts in [-1, 1) from a 64-bit LCG.
std::vector<float> lcg_floats(std::size_t n, std::uint64_t s) {
  std::vector<float> v(n);
  for (float& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = float(double(std::int32_t(s >> 32)) / 2147483648.0);
  }
  return v;
}

// max |ours - theirs| / max |theirs| over the parts of C.
double relative_difference(const std::vector<float>& ours, const std::vector<float>& theirs) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    diff = std::max(diff, double(std::abs(ours[i] - theirs[i])));
    scale = std::max(scale, double(std::abs(theirs[i])));
  }
  return diff / (scale > 0 ? scale : 1);
}

nlohmann::json level3_row(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                          SymmGemmOp op, std::int64_t n, int runs, bool quiet) {
  const Context ctx = q.context();
  const bool complex = op == SymmGemmOp::Cgemm;
  const std::size_t parts = std::size_t(n * n) * (complex ? 2 : 1);
  Buffer<float> ap = ctx.alloc<float>(parts), bp = ctx.alloc<float>(parts), cp = ctx.alloc<float>(parts),
                rp = ctx.alloc<float>(parts);
  q.write(ap, std::span<const float>(lcg_floats(parts, 0x9E3779B97F4A7C15ull))).wait();
  q.write(bp, std::span<const float>(lcg_floats(parts, 0xD1B54A32D192ED03ull))).wait();
  using Z = std::complex<float>;
  const Buffer<Z> az(ap.mem(), 0, std::size_t(n * n)), bz(bp.mem(), 0, std::size_t(n * n)),
      cz(cp.mem(), 0, std::size_t(n * n));
  const Layout row = Layout::RowMajor;
  const auto ours = [&]() -> Event {
    if (complex)
      return gemm(q, row, Transpose::No, Transpose::No, n, n, n, std::complex<double>(1), az, n, bz, n,
                  std::complex<double>(0), cz, n);
    return symm<float>(q, row, Side::Left, Triangle::Upper, n, n, 1.0f, ap, n, bp, n, 0.0f, cp, n);
  };
  const Timing tm = time_events(ours, 2, runs);
  // 8 n^3 real flops for a complex product, 2 n^3 for a real one.
  const double flops = (complex ? 8.0 : 2.0) * double(n) * double(n) * double(n);
  const double tflops = flops / tm.median_s * 1e-12;
  const double ceiling = c.fma_gflops[0] * 1e-3;
  nlohmann::json r{{"op", level3_name(op)}, {"n", n},
                   {"median_us", tm.median_s * 1e6}, {"min_us", tm.min_s * 1e6},
                   {"tflops", tflops}, {"fraction_of_f32_fma_ceiling", ceiling > 0 ? tflops / ceiling : 0},
                   {"parameters", tm.parameters}};
  nlohmann::json rj{{"available", false}};
  GemmCall gc{DType::C32, row, Transpose::No, Transpose::No, n, n, n, 1.0, 0.0, n, n, n};
  SymmCall sc{DType::F32, row, Side::Left, Triangle::Upper, n, n, 1.0, 0.0, n, n, n};
  std::string why = !ref ? ref_reason : complex ? ref->unsupported(DType::C32) : ref->unsupported(sc);
  if (ref && why.empty()) {
    try {
      const interop::NativeBuffer a = interop::native_buffer(ap), b = interop::native_buffer(bp),
                                  out = interop::native_buffer(rp);
      const auto theirs = [&] { return complex ? ref->gemm(q, gc, a, b, out) : ref->symm(q, sc, a, b, out); };
      const Timing tr = time_events(theirs, 2, runs);
      rj = {{"available", true},
            {"median_us", tr.median_s * 1e6},
            {"min_us", tr.min_s * 1e6},
            {"tflops", flops / tr.median_s * 1e-12},
            {"speed_ratio", tr.median_s / tm.median_s},
            {"relative_difference", relative_difference(q.download(cp), q.download(rp))}};
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
  }
  if (!rj["available"].get<bool>()) rj["reason"] = why;
  r["reference"] = rj;
  if (!quiet) {
    std::printf("%-10s %6lld %10.1f %8.2f %6.1f%%", level3_name(op).c_str(), static_cast<long long>(n),
                tm.median_s * 1e6, tflops, ceiling > 0 ? 100 * tflops / ceiling : 0.0);
    if (rj["available"].get<bool>())
      std::printf(" %10.1f %8.2f %7.2f %9.1e\n", rj["median_us"].get<double>(), rj["tflops"].get<double>(),
                  rj["speed_ratio"].get<double>(), rj["relative_difference"].get<double>());
    else
      std::printf("  %s\n", why.c_str());
    std::printf("           %s\n", tm.parameters_text.c_str());
  }
  return r;
}

}  // namespace

std::vector<std::string> blas3_case_names() {
  std::vector<std::string> names;
  for (SymmGemmOp op : kSymmGemmOps) names.push_back(level3_name(op));
  return names;
}

nlohmann::json bench_blas3(const Queue& q, const Ceilings& c, int runs, bool quiet, ReferenceBlas* ref,
                           const std::string& ref_reason, const std::vector<std::string>& only) {
  const std::int64_t n = q.device().caps().type == DeviceType::CPU ? 256 : 4096;
  if (!quiet)
    std::printf("\nblas level 3: n x n x n, row-major (symm: left, upper); TFLOP/s of 8 n^3 (cgemm) or 2 n^3 (symm)\n"
                "flops; ceil%% of the f32 FMA ceiling; vs ref > 1: optune faster; diff: max |ours - ref| / max |ref|\n"
                "%-10s %6s %10s %8s %7s %10s %8s %7s %9s\n",
                "op", "n", "time us", "TFLOP/s", "ceil%", "ref us", "ref TF/s", "vs ref", "diff");
  nlohmann::json rows = nlohmann::json::array();
  for (SymmGemmOp op : kSymmGemmOps)
    if (selected(level3_name(op), only)) rows.push_back(level3_row(q, c, ref, ref_reason, op, n, runs, quiet));
  return rows;
}

}  // namespace optune::tool
