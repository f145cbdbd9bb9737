#include "bench_blas3_tri.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "optune/blas.hpp"
#include "optune/blas3_complex.hpp"

namespace optune::tool {

namespace {

using C32 = std::complex<float>;

const DType kTypes[] = {DType::F32, DType::F64, DType::C32};

// The routines of a type's rows: c32 adds herk and her2k.
std::vector<Level3Op> ops_of(DType t) {
  std::vector<Level3Op> ops{Level3Op::Syrk, Level3Op::Syr2k, Level3Op::Trmm, Level3Op::Trsm};
  if (t == DType::C32) ops.insert(ops.end(), {Level3Op::Herk, Level3Op::Her2k});
  return ops;
}

const char* op_name(Level3Op op) {
  static const char* names[] = {"syrk", "syr2k", "trmm", "trsm", "herk", "her2k"};
  return names[int(op)];
}

std::string case_name(Level3Op op, DType t) { return std::string(op_name(op)) + "-" + std::string(dtype_name(t)); }

// Flops of one call, every matrix n x n: syrk n^2 (n + 1) (one triangle of
// n-term dot products, 2 flops a term), syr2k twice that, trmm and trsm n^3;
// herk and her2k as syrk and syr2k; complex types 4 times as many (8 real
// flops a complex multiply-add).
double flops_of(Level3Op op, DType t, std::int64_t n) {
  const double d = double(n), f = is_complex(t) ? 4 : 1;
  if (op == Level3Op::Syrk || op == Level3Op::Herk) return f * d * (d + 1) * d;
  if (op == Level3Op::Syr2k || op == Level3Op::Her2k) return f * 2 * d * (d + 1) * d;
  return f * d * d * d;
}

// Uniform values in [lo, hi) (complex: each part) from a 64-bit LCG.
template <class T>
void fill(const Queue& q, const Buffer<T>& b, std::uint64_t seed, double lo, double hi) {
  std::vector<T> host(b.size());
  std::uint64_t s = seed;
  const auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * double(s >> 11) / 9007199254740992.0;
  };
  for (T& v : host) {
    if constexpr (std::is_same_v<T, C32>) {
      const double re = next();
      v = T(float(re), float(next()));
    } else {
      v = T(next());
    }
  }
  q.write(b, std::span<const T>(host)).wait();
}

template <class T>
Event run_ours(const Queue& q, Level3Op op, std::int64_t n, const Buffer<T>& a, const Buffer<T>& b,
               const Buffer<T>& c) {
  constexpr Layout col = Layout::ColMajor;
  if constexpr (std::is_same_v<T, C32>) {
    const std::complex<double> one(1), zero(0);
    switch (op) {
      case Level3Op::Syrk: return syrk(q, col, Triangle::Lower, BlasTranspose::No, n, n, one, a, n, zero, c, n);
      case Level3Op::Syr2k:
        return syr2k(q, col, Triangle::Lower, BlasTranspose::No, n, n, one, a, n, b, n, zero, c, n);
      case Level3Op::Herk: return herk(q, col, Triangle::Lower, BlasTranspose::No, n, n, 1.0, a, n, 0.0, c, n);
      case Level3Op::Her2k:
        return her2k(q, col, Triangle::Lower, BlasTranspose::No, n, n, one, a, n, b, n, 0.0, c, n);
      case Level3Op::Trmm:
        return trmm(q, col, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::Unit, n, n, one, a, n, b, n);
      default:
        return trsm(q, col, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::Unit, n, n, one, a, n, b, n);
    }
  }
  switch (op) {
    case Level3Op::Syrk: return syrk(q, col, Triangle::Lower, BlasTranspose::No, n, n, 1.0, a, n, 0.0, c, n);
    case Level3Op::Syr2k: return syr2k(q, col, Triangle::Lower, BlasTranspose::No, n, n, 1.0, a, n, b, n, 0.0, c, n);
    case Level3Op::Trmm:
      return trmm(q, col, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::Unit, n, n, 1.0, a, n, b, n);
    default:
      return trsm(q, col, Side::Left, Triangle::Lower, BlasTranspose::No, Diagonal::Unit, n, n, 1.0, a, n, b, n);
  }
}

template <class T>
nlohmann::json run_row(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                       Level3Op op, std::int64_t n, int runs, bool quiet) {
  const DType t = dtype_of_v<T>;
  const Context ctx = q.context();
  const std::size_t count = std::size_t(n * n);
  // A: entries within 1 / n (with the unit diagonal, trsm and trmm stay
  // well conditioned over repeated in-place calls); B and C in [-1, 1).
  Buffer<T> a = ctx.alloc<T>(count), b = ctx.alloc<T>(count), b0 = ctx.alloc<T>(count), cc = ctx.alloc<T>(count),
            out = ctx.alloc<T>(count);
  fill(q, a, 0x9E3779B97F4A7C15ull, -1.0 / double(n), 1.0 / double(n));
  fill(q, b0, 0xD1B54A32D192ED03ull, -1.0, 1.0);
  q.copy(b0, b).wait();
  const bool tri = op == Level3Op::Trmm || op == Level3Op::Trsm;
  const Buffer<T>& written = tri ? b : cc;
  const Timing tm = time_events([&] { return run_ours(q, op, n, a, b, cc); }, 2, runs);
  const double flops = flops_of(op, t, n);
  const double gflops = flops / tm.median_s * 1e-9;
  const double ceiling = c.fma_gflops[t == DType::F64 ? 2 : 0];  // c32: f32's
  const double frac = ceiling > 0 ? gflops / ceiling : 0;
  nlohmann::json row{{"op", op_name(op)},          {"dtype", dtype_name(t)},      {"n", n},
                     {"flops", flops},             {"median_us", tm.median_s * 1e6}, {"min_us", tm.min_s * 1e6},
                     {"gflops", gflops},           {"fraction_of_fma_ceiling", frac}, {"parameters", tm.parameters}};
  nlohmann::json rj{{"available", false}};
  const Level3Call call{op, t, n, 1.0, 0.0};
  std::string why = ref ? ref->unsupported(call) : ref_reason;
  if (ref && why.empty()) {
    try {
      const auto native = [&](const Buffer<T>& x) { return interop::native_buffer(x); };
      const Timing tr = time_events([&] { return ref->level3(q, call, native(a), native(b), native(cc)); }, 2, runs);
      rj = {{"available", true},
            {"median_us", tr.median_s * 1e6},
            {"min_us", tr.min_s * 1e6},
            {"gflops", flops / tr.median_s * 1e-9},
            {"speed_ratio", tr.median_s / tm.median_s}};
      // One call of each from the same inputs: the largest difference over
      // the written triangle (syrk, syr2k) or matrix, relative to the largest
      // magnitude of the reference's result.
      q.copy(b0, b).wait();
      run_ours(q, op, n, a, b, cc).wait();
      q.copy(written, out).wait();
      q.copy(b0, b).wait();
      ref->level3(q, call, native(a), native(b), native(cc)).wait();
      const std::vector<T> ours = q.download(out), theirs = q.download(written);
      double diff = 0, big = 0;
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = tri ? 0 : j; i < n; ++i) {
          const std::size_t at = std::size_t(i + j * n);
          diff = std::max(diff, double(std::abs(ours[at] - theirs[at])));
          big = std::max(big, double(std::abs(theirs[at])));
        }
      rj["relative_difference"] = diff / (big > 0 ? big : 1);
    } catch (const Error& e) {
      rj = {{"available", false}};
      why = std::string("error: ") + e.what();
    }
  }
  if (!rj["available"].get<bool>()) rj["reason"] = why;
  row["reference"] = rj;
  if (!quiet) {
    std::printf("%-6s %-4s %6lld %10.1f %9.1f %6.1f%%", op_name(op), std::string(dtype_name(t)).c_str(),
                static_cast<long long>(n), tm.median_s * 1e6, gflops, 100 * frac);
    if (rj["available"].get<bool>())
      std::printf(" %10.1f %9.1f %7.2f %9.1e\n", rj["median_us"].get<double>(), rj["gflops"].get<double>(),
                  rj["speed_ratio"].get<double>(), rj["relative_difference"].get<double>());
    else
      std::printf("  %s\n", why.c_str());
    std::printf("       %s\n", tm.parameters_text.c_str());
  }
  return row;
}

}  // namespace

std::vector<std::string> blas3_tri_case_names() {
  std::vector<std::string> names;
  for (DType t : kTypes)
    for (Level3Op op : ops_of(t)) names.push_back(case_name(op, t));
  return names;
}

nlohmann::json bench_blas3_tri(const Queue& q, const Ceilings& c, int runs, bool quiet, ReferenceBlas* ref,
                           const std::string& ref_reason, const std::vector<std::string>& only) {
  const Capabilities& caps = q.device().caps();
  const std::int64_t n = caps.type == DeviceType::CPU ? 256 : 4096;
  if (!quiet)
    std::printf("\nblas level 3: n = %lld, column-major, lower, no transpose, left, unit diagonal; GFLOP/s (syrk\n"
                "and herk n^2 (n + 1), syr2k and her2k twice, trmm and trsm n^3; c32 4 times); ceil%% of the FMA\n"
                "ceiling (c32: f32's); vs ref > 1: optune faster; diff: max |ours - ref| / max |ref|\n"
                "%-6s %-4s %6s %10s %9s %7s %10s %9s %7s %9s\n",
                static_cast<long long>(n), "op", "type", "n", "time us", "GFLOP/s", "ceil%", "ref us", "ref GF/s",
                "vs ref", "diff");
  nlohmann::json rows = nlohmann::json::array();
  for (DType t : kTypes) {
    if (t == DType::F64 && !caps.fp64) continue;
    for (Level3Op op : ops_of(t)) {
      if (!selected(case_name(op, t), only)) continue;
      if (t == DType::F64) rows.push_back(run_row<double>(q, c, ref, ref_reason, op, n, runs, quiet));
      else if (t == DType::C32) rows.push_back(run_row<C32>(q, c, ref, ref_reason, op, n, runs, quiet));
      else rows.push_back(run_row<float>(q, c, ref, ref_reason, op, n, runs, quiet));
    }
  }
  return rows;
}

}  // namespace optune::tool
