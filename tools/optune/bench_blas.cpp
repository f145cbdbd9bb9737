#include "bench_blas.hpp"

#include "bench_blas3_tri.hpp"

#include <complex>
#include <cstdio>

#include "optune/blas.hpp"
#include "reference/reference_blas.hpp"

namespace optune::tool {

namespace {

const Level1Op kOps[] = {Level1Op::Axpy, Level1Op::Dot, Level1Op::Nrm2};
// f16 (storage, f32 arithmetic): against cuBLAS's cublasAxpyEx, cublasDotEx
// and cublasNrm2Ex (f32 execution); CLBlast's rows say why not.
const DType kTypes[] = {DType::F32, DType::F64, DType::C32, DType::F16};

std::string op_name(Level1Op op, DType t) {
  if (op == Level1Op::Axpy) return "axpy";
  if (op == Level1Op::Dot) return is_complex(t) ? "dotc" : "dot";
  return "nrm2";
}

std::string case_name(Level1Op op, DType t) { return op_name(op, t) + "-" + std::string(dtype_name(t)); }

// Bytes one call reads plus writes.
double bytes_of(Level1Op op, DType t, std::int64_t n) {
  const double v = double(n) * double(dtype_size(t));
  return op == Level1Op::Axpy ? 3 * v : op == Level1Op::Dot ? 2 * v : v;
}

template <class T>
Event run_ours(const Queue& q, Level1Op op, std::int64_t n, const Buffer<T>& x, const Buffer<T>& y,
               const Buffer<T>& r, const Buffer<blas_real_t<T>>& rr) {
  switch (op) {
    case Level1Op::Axpy: return axpy(q, n, T(0.5f), x, 1, y, 1);
    case Level1Op::Dot:
      if constexpr (std::is_same_v<T, std::complex<float>>) return dotc(q, n, x, 1, y, 1, r);
      else return dot(q, n, x, 1, y, 1, r);
    default: return nrm2(q, n, x, 1, rr);
  }
}

template <class T>
double magnitude(const T& v) {
  return double(std::abs(host_value(v)));
}

template <class T>
nlohmann::json run_row(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                       Level1Op op, std::int64_t n, int runs, bool quiet) {
  using R = blas_real_t<T>;
  const DType t = dtype_of_v<T>;
  const Context ctx = q.context();
  const std::size_t parts = std::size_t(n) * (is_complex(t) ? 2 : 1);
  Buffer<R> xp = ctx.alloc<R>(parts), yp = ctx.alloc<R>(parts);
  fill_parts(q, xp, 0x9E3779B97F4A7C15ull);
  fill_parts(q, yp, 0xD1B54A32D192ED03ull);
  const Buffer<T> x(xp.mem(), 0, std::size_t(n)), y(yp.mem(), 0, std::size_t(n));
  Buffer<T> r = ctx.alloc<T>(1), r2 = ctx.alloc<T>(1);
  Buffer<R> rr(r.mem(), 0, 1), rr2(r2.mem(), 0, 1);
  const Timing tm = time_events([&] { return run_ours(q, op, n, x, y, r, rr); }, 3, runs);
  const double bytes = bytes_of(op, t, n);
  nlohmann::json row = memory_row(op_name(op, t), t, n, bytes, tm, c.copy_gbs);
  nlohmann::json rj{{"available", false}};
  std::string why = ref ? ref->unsupported(Level1Call{op, t, n, 0.5}) : ref_reason;
  if (ref && why.empty()) {
    try {
      const Level1Call call{op, t, n, 0.5};
      const Timing tr = time_events(
          [&] {
            return ref->level1(q, call, interop::native_buffer(x), interop::native_buffer(y),
                               interop::native_buffer(r2));
          },
          3, runs);
      rj = reference_row(tr, tm, bytes);
      if (op != Level1Op::Axpy) {  // the reductions' results, after one more call of each
        run_ours(q, op, n, x, y, r, rr).wait();
        ref->level1(q, call, interop::native_buffer(x), interop::native_buffer(y), interop::native_buffer(r2)).wait();
        double ours, theirs;
        if (op == Level1Op::Nrm2) {
          ours = double(host_value(q.download(rr)[0])), theirs = double(host_value(q.download(rr2)[0]));
        } else {
          ours = magnitude(q.download(r)[0]), theirs = magnitude(q.download(r2)[0]);
          const auto d = host_value(q.download(r)[0]) - host_value(q.download(r2)[0]);
          theirs = theirs > 0 ? theirs : 1;
          rj["relative_difference"] = magnitude(d) / theirs;
        }
        if (op == Level1Op::Nrm2) rj["relative_difference"] = std::abs(ours - theirs) / (theirs > 0 ? theirs : 1);
        judge_half_difference(t, rj);
      }
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
  }
  if (!rj["available"].get<bool>()) rj["reason"] = why;
  row["reference"] = rj;
  if (!quiet) print_row(op_name(op, t), t, n, 11, tm, row["gbs"], row["fraction_of_copy_ceiling"], rj, why);
  return row;
}

}  // namespace

nlohmann::json memory_row(const std::string& op, DType t, std::int64_t n, double bytes, const Timing& tm,
                          double copy_gbs) {
  const double gbs = bytes / tm.median_s * 1e-9;
  return {{"op", op},
          {"dtype", dtype_name(t)},
          {"n", n},
          {"bytes", bytes},
          {"median_us", tm.median_s * 1e6},
          {"min_us", tm.min_s * 1e6},
          {"gbs", gbs},
          {"fraction_of_copy_ceiling", copy_gbs > 0 ? gbs / copy_gbs : 0},
          {"parameters", tm.parameters}};
}

nlohmann::json reference_row(const Timing& theirs, const Timing& ours, double bytes) {
  return {{"available", true},
          {"median_us", theirs.median_s * 1e6},
          {"min_us", theirs.min_s * 1e6},
          {"gbs", bytes / theirs.median_s * 1e-9},
          {"speed_ratio", theirs.median_s / ours.median_s}};
}

void judge_half_difference(DType t, nlohmann::json& rj) {
  if (t != DType::F16 || !rj.contains("relative_difference")) return;
  rj["tolerance"] = kHalfResultTolerance;
  rj["within_tolerance"] = rj["relative_difference"].get<double>() <= kHalfResultTolerance;
}

void print_row(const std::string& op, DType t, std::int64_t n, int n_width, const Timing& tm, double gbs, double frac,
               const nlohmann::json& rj, const std::string& why) {
  std::printf("%-6s %-4s %*lld %10.1f %9.1f %6.1f%%", op.c_str(), std::string(dtype_name(t)).c_str(), n_width,
              static_cast<long long>(n), tm.median_s * 1e6, gbs, 100 * frac);
  if (rj["available"].get<bool>())
    std::printf(" %10.1f %9.1f %7.2f %9.1e%s\n", rj["median_us"].get<double>(), rj["gbs"].get<double>(),
                rj["speed_ratio"].get<double>(),
                rj.contains("relative_difference") ? rj["relative_difference"].get<double>() : 0.0,
                rj.value("within_tolerance", true) ? "" : " MISMATCH: beyond the h tolerance 2^-9");
  else
    std::printf("  %s\n", why.c_str());
  std::printf("       %s\n", tm.parameters_text.c_str());
}

std::vector<std::string> blas_case_names() {
  std::vector<std::string> names;
  for (DType t : kTypes)
    for (Level1Op op : kOps) names.push_back(case_name(op, t));
  for (const std::string& n : blas_tri_case_names()) names.push_back(n);
  for (const std::string& name : blas3_case_names()) names.push_back(name);
  for (const std::string& n : blas3_tri_case_names()) names.push_back(n);
  for (const std::string& name : blas2_case_names()) names.push_back(name);
  for (const std::string& name : blas_im2col_case_names()) names.push_back(name);
  return names;
}

nlohmann::json bench_blas(const Queue& q, const Ceilings& c, int runs_in, bool quiet, bool reference,
                          const std::vector<std::string>& only, std::size_t mib) {
  const Capabilities& caps = q.device().caps();
  const bool cpu = caps.type == DeviceType::CPU;
  const int runs = runs_in > 0 ? runs_in : (cpu ? 5 : 20);
  const std::size_t vector_bytes = (mib ? mib : std::size_t(cpu ? 16 : 256)) << 20;
  ReferenceOpen ref;
  if (reference) ref = open_reference_blas(q);
  else ref.reason = "not run (--no-reference)";
  const std::string ref_name = ref.blas ? ref.blas->name() : ref.reason;
  if (!quiet) {
    std::printf("\nblas level 1: increments 1, vectors of %zu MiB; GB/s of bytes read plus written (axpy 3n, dot 2n,\n"
                "nrm2 n elements); ceil%% of the copy ceiling; vs ref > 1: optune faster; diff: |ours - ref| / |ref|\n"
                "of the reductions' results\nreference: %s\n",
                vector_bytes >> 20, ref_name.c_str());
    if (!caps.fp64) std::printf("f64: skipped, the device has no fp64\n");
    std::printf("%-6s %-4s %11s %10s %9s %7s %10s %9s %7s %9s\n", "op", "type", "n", "time us", "GB/s", "ceil%",
                "ref us", "ref GB/s", "vs ref", "diff");
  }
  nlohmann::json rows = nlohmann::json::array();
  for (DType t : kTypes) {
    if (t == DType::F64 && !caps.fp64) continue;
    const std::int64_t n = std::int64_t(vector_bytes / dtype_size(t));
    for (Level1Op op : kOps) {
      if (!selected(case_name(op, t), only)) continue;
      switch (t) {
        case DType::F64:
          rows.push_back(run_row<double>(q, c, ref.blas.get(), ref.reason, op, n, runs, quiet));
          break;
        case DType::C32:
          rows.push_back(run_row<std::complex<float>>(q, c, ref.blas.get(), ref.reason, op, n, runs, quiet));
          break;
        case DType::F16: rows.push_back(run_row<half>(q, c, ref.blas.get(), ref.reason, op, n, runs, quiet)); break;
        default: rows.push_back(run_row<float>(q, c, ref.blas.get(), ref.reason, op, n, runs, quiet)); break;
      }
    }
  }
  const nlohmann::json level2 = bench_blas2(q, c, ref.blas.get(), ref.reason, runs, quiet, only, vector_bytes);
  bench_blas_tri(q, c, ref.blas.get(), ref.reason, runs, quiet, only, rows);
  const nlohmann::json level3 = bench_blas3(q, c, runs, quiet, ref.blas.get(), ref.reason, only);
  const nlohmann::json level3_tri = bench_blas3_tri(q, c, runs, quiet, ref.blas.get(), ref.reason, only);
  const nlohmann::json patches = bench_blas_im2col(q, c, ref.blas.get(), ref.reason, runs, quiet, only);
  return {{"reference", ref_name},   {"reference_available", ref.blas != nullptr}, {"runs", runs},
          {"vector_bytes", vector_bytes}, {"rows", rows}, {"level3", level3}, {"level3_rows", level3_tri},
          {"level2", level2}, {"im2col", patches}};
}

}  // namespace optune::tool
