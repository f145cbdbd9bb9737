// optune bench blas, level 2: gemv (column-major A x: rows contiguous down the
// columns, the "axpy" order), gemv_t (A^T x: the row-major product's "dot"
// order), ger (geru for c32 and c64) and symv (hemv for them, upper triangle) on an
// n x n column-major matrix of about 256 MiB (16 MiB on CPUs), as GB/s of
// the least traffic the routine needs (gemv: A once and the vectors; ger: A
// read and written; symv: one triangle) and as a fraction of the copy
// ceiling, against the reference library in the same run on the same
// buffers, gemv's and symv's y compared.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>

#include "bench_blas.hpp"
#include "optune/blas2.hpp"
#include "reference/reference_blas.hpp"

namespace optune::tool {

namespace {

const Level2Op kOps[] = {Level2Op::Gemv, Level2Op::GemvT, Level2Op::Ger, Level2Op::Symv};
// f16 (storage, f32 arithmetic): gemv and gemv_t against cuBLAS's
// cublasGemmEx with n = 1 (f32 compute); cuBLAS has no half ger or symv, and
// CLBlast's rows say why not: each row's reason.
const DType kTypes[] = {DType::F32, DType::F64, DType::C32, DType::F16, DType::C64};

std::string op_name(Level2Op op, DType t) {
  switch (op) {
    case Level2Op::Gemv: return "gemv";
    case Level2Op::GemvT: return "gemv_t";
    case Level2Op::Ger: return is_complex(t) ? "geru" : "ger";
    default: return is_complex(t) ? "hemv" : "symv";
  }
}

std::string case_name(Level2Op op, DType t) { return op_name(op, t) + "-" + std::string(dtype_name(t)); }

// The least bytes a call reads plus writes.
double bytes_of(Level2Op op, DType t, std::int64_t n) {
  const double es = double(dtype_size(t)), nn = double(n) * double(n), v = 2 * double(n) * es;
  if (op == Level2Op::Ger) return 2 * nn * es + v;
  if (op == Level2Op::Symv) return nn / 2 * es + v;
  return nn * es + v;
}

template <class T>
Event run_ours(const Queue& q, Level2Op op, std::int64_t n, const Buffer<T>& a, const Buffer<T>& x,
               const Buffer<T>& y) {
  const T alpha = T(0.5f), zero = T(0);
  switch (op) {
    case Level2Op::Gemv: return gemv<T>(q, Layout::ColMajor, BlasTranspose::No, n, n, alpha, a, n, x, 1, zero, y, 1);
    case Level2Op::GemvT:
      return gemv<T>(q, Layout::ColMajor, BlasTranspose::Yes, n, n, alpha, a, n, x, 1, zero, y, 1);
    case Level2Op::Ger:
      if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) return geru<T>(q, Layout::ColMajor, n, n, alpha, x, 1, y, 1, a, n);
      else return ger<T>(q, Layout::ColMajor, n, n, alpha, x, 1, y, 1, a, n);
    default:
      if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
        return hemv<T>(q, Layout::ColMajor, Triangle::Upper, n, alpha, a, n, x, 1, zero, y, 1);
      else return symv<T>(q, Layout::ColMajor, Triangle::Upper, n, alpha, a, n, x, 1, zero, y, 1);
  }
}

// max_i |ours_i - theirs_i| / max_i |theirs_i|.
template <class T>
double difference(const std::vector<T>& ours, const std::vector<T>& theirs) {
  double d = 0, m = 0;
  for (std::size_t i = 0; i < ours.size() && i < theirs.size(); ++i) {
    d = std::max(d, double(std::abs(host_value(ours[i]) - host_value(theirs[i]))));
    m = std::max(m, double(std::abs(host_value(theirs[i]))));
  }
  return d / (m > 0 ? m : 1);
}

template <class T>
nlohmann::json run_row(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                       Level2Op op, std::int64_t n, int runs, bool quiet) {
  using R = blas_real_t<T>;
  const DType t = dtype_of_v<T>;
  const Context ctx = q.context();
  const std::size_t per = is_complex(t) ? 2 : 1, nn = std::size_t(n) * std::size_t(n);
  Buffer<R> ap = ctx.alloc<R>(nn * per), xp = ctx.alloc<R>(std::size_t(n) * per), yp = ctx.alloc<R>(std::size_t(n) * per);
  fill_parts(q, ap, 0x9E3779B97F4A7C15ull);
  fill_parts(q, xp, 0xD1B54A32D192ED03ull);
  fill_parts(q, yp, 0x94D049BB133111EBull);
  const Buffer<T> a(ap.mem(), 0, nn), x(xp.mem(), 0, std::size_t(n)), y(yp.mem(), 0, std::size_t(n));
  Buffer<T> y2 = ctx.alloc<T>(std::size_t(n));
  const Timing tm = time_events([&] { return run_ours(q, op, n, a, x, y); }, 3, runs);
  const double bytes = bytes_of(op, t, n);
  nlohmann::json row = memory_row(op_name(op, t), t, n, bytes, tm, c.copy_gbs);
  nlohmann::json rj{{"available", false}};
  const Level2Call call{op, t, n};
  std::string why = ref ? ref->unsupported(call) : ref_reason;
  if (ref && why.empty()) {
    try {
      // ger updates A in place: the reference works on y2 as its y (the same
      // values), gemv and symv write y2.
      q.copy(y, y2).wait();
      const Timing tr = time_events(
          [&] {
            return ref->level2(q, call, interop::native_buffer(a), interop::native_buffer(x),
                               interop::native_buffer(y2));
          },
          3, runs);
      rj = reference_row(tr, tm, bytes);
      if (op != Level2Op::Ger) {
        run_ours(q, op, n, a, x, y).wait();
        rj["relative_difference"] = difference(q.download(y), q.download(y2));
        judge_half_difference(t, rj);
      }
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
  }
  if (!rj["available"].get<bool>()) rj["reason"] = why;
  row["reference"] = rj;
  if (!quiet) print_row(op_name(op, t), t, n, 7, tm, row["gbs"], row["fraction_of_copy_ceiling"], rj, why);
  return row;
}

}  // namespace

std::vector<std::string> blas2_case_names() {
  std::vector<std::string> names;
  for (DType t : kTypes)
    for (Level2Op op : kOps) names.push_back(case_name(op, t));
  return names;
}

nlohmann::json bench_blas2(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                           int runs, bool quiet, const std::vector<std::string>& only, std::size_t matrix_bytes) {
  const Capabilities& caps = q.device().caps();
  if (!quiet)
    std::printf("\nblas level 2: column-major n x n matrices of about %zu MiB (n a multiple of 32), increments 1,\n"
                "alpha 0.5, beta 0;\n"
                "GB/s of the least bytes needed (gemv: A and 2n; ger: A twice and 2n; symv: one triangle and 2n)\n"
                "%-6s %-4s %7s %10s %9s %7s %10s %9s %7s %9s\n",
                matrix_bytes >> 20, "op", "type", "n", "time us", "GB/s", "ceil%", "ref us", "ref GB/s", "vs ref",
                "diff");
  nlohmann::json rows = nlohmann::json::array();
  for (DType t : kTypes) {
    if (t == DType::F64 && !caps.fp64) continue;
    // n a multiple of 32, as a model's or a solver's matrices mostly are, so
    // that every column starts aligned (f16's 256 MiB matrix is 11584, not
    // the odd 11585 whose columns start on every 2-byte boundary).
    const auto n = std::max<std::int64_t>(32, std::int64_t(std::sqrt(double(matrix_bytes / dtype_size(t)))) / 32 * 32);
    for (Level2Op op : kOps) {
      if (!selected(case_name(op, t), only)) continue;
      switch (t) {
        case DType::F64: rows.push_back(run_row<double>(q, c, ref, ref_reason, op, n, runs, quiet)); break;
        case DType::C32: rows.push_back(run_row<std::complex<float>>(q, c, ref, ref_reason, op, n, runs, quiet)); break;
        case DType::C64: rows.push_back(run_row<std::complex<double>>(q, c, ref, ref_reason, op, n, runs, quiet)); break;
        case DType::F16: rows.push_back(run_row<half>(q, c, ref, ref_reason, op, n, runs, quiet)); break;
        default: rows.push_back(run_row<float>(q, c, ref, ref_reason, op, n, runs, quiet)); break;
      }
    }
  }
  return {{"matrix_bytes", matrix_bytes}, {"rows", rows}};
}

}  // namespace optune::tool
