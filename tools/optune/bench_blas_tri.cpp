// optune bench blas, the triangular level-2 rows: trmv and trsv on a
// column-major lower n x n triangle (non-unit diagonal 1, entries below it
// in [-1/n, 1/n]: the solve's growth stays below e), increment 1, against
// the reference library on the same buffers. GB/s count the triangle once
// and x read and written: (n (n + 1) / 2 + 2 n) elements. On GPUs trsv runs
// at 256 MiB and again at 1 GiB (n = 16384 f32).
#include <cmath>
#include <complex>
#include <cstdio>

#include "bench_blas.hpp"
#include "optune/blas2_triangular.hpp"
#include "reference/reference_blas.hpp"

namespace optune::tool {

namespace {

// Column-major A: 1 on the diagonal, uniform values in [-1/n, 1/n) elsewhere
// (real and imaginary parts), written a few columns at a time.
template <class T>
void fill_triangle(const Queue& q, const Buffer<T>& a, std::int64_t n) {
  const std::int64_t cols = std::max<std::int64_t>(1, (std::int64_t(1) << 22) / n);
  std::vector<T> host;
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  const auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(std::int32_t(s >> 32)) / 2147483648.0 / double(n);
  };
  for (std::int64_t c0 = 0; c0 < n; c0 += cols) {
    const std::int64_t c1 = std::min(n, c0 + cols);
    host.resize(std::size_t((c1 - c0) * n));
    for (std::int64_t c = c0; c < c1; ++c)
      for (std::int64_t r = 0; r < n; ++r) {
        T v;
        if constexpr (std::is_same_v<T, std::complex<float>>) v = T(float(next()), float(next()));
        else v = T(next());
        host[std::size_t((c - c0) * n + r)] = r == c ? T(1) : v;
      }
    q.write(a.view(std::size_t(c0 * n), host.size()), std::span<const T>(host)).wait();
  }
}

template <class T>
nlohmann::json tri_row(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                       bool solve, std::int64_t n, int runs, bool quiet) {
  const DType t = dtype_of_v<T>;
  const Context ctx = q.context();
  Buffer<T> a = ctx.alloc<T>(std::size_t(n * n)), x0 = ctx.alloc<T>(std::size_t(n)), x = ctx.alloc<T>(std::size_t(n)),
            xr = ctx.alloc<T>(std::size_t(n));
  fill_triangle(q, a, n);
  std::vector<T> hx(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) hx[std::size_t(i)] = T(float(std::sin(double(i))));
  q.write(x0, std::span<const T>(hx)).wait();
  q.copy(x0, x).wait();
  q.copy(x0, xr).wait();
  const auto ours = [&](const Buffer<T>& v) {
    return solve ? trsv(q, Layout::ColMajor, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, n, a, n, v, 1)
                 : trmv(q, Layout::ColMajor, Triangle::Lower, BlasTranspose::No, Diagonal::NonUnit, n, a, n, v, 1);
  };
  const Timing tm = time_events([&] { return ours(x); }, 3, runs);
  const double bytes = (double(n) * double(n + 1) / 2 + 2 * double(n)) * double(dtype_size(t));
  const std::string op = solve ? "trsv" : "trmv";
  nlohmann::json row = memory_row(op, t, n, bytes, tm, c.copy_gbs);
  nlohmann::json rj{{"available", false}};
  const TriCall call{solve, t, n, n};
  std::string why = ref ? ref->unsupported(call) : ref_reason;
  if (ref && why.empty()) {
    try {
      const Timing tr = time_events(
          [&] { return ref->level2_tri(q, call, interop::native_buffer(a), interop::native_buffer(xr)); }, 3, runs);
      rj = reference_row(tr, tm, bytes);
      // One call of each from the same x: the largest difference relative
      // to the largest element.
      q.copy(x0, x).wait();
      q.copy(x0, xr).wait();
      ours(x).wait();
      ref->level2_tri(q, call, interop::native_buffer(a), interop::native_buffer(xr)).wait();
      const std::vector<T> mine = q.download(x), theirs = q.download(xr);
      double diff = 0, big = 0;
      for (std::size_t i = 0; i < mine.size(); ++i) {
        diff = std::max(diff, double(std::abs(mine[i] - theirs[i])));
        big = std::max(big, double(std::abs(theirs[i])));
      }
      rj["relative_difference"] = diff / (big > 0 ? big : 1);
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
  }
  if (!rj["available"].get<bool>()) rj["reason"] = why;
  row["reference"] = rj;
  if (!quiet) print_row(op, t, n, 11, tm, row["gbs"], row["fraction_of_copy_ceiling"], rj, why);
  return row;
}

const DType kTriTypes[] = {DType::F32, DType::F64, DType::C32};

std::string tri_case(bool solve, DType t) { return std::string(solve ? "trsv-" : "trmv-") + std::string(dtype_name(t)); }

}  // namespace

std::vector<std::string> blas_tri_case_names() {
  std::vector<std::string> names;
  for (DType t : kTriTypes)
    for (bool solve : {false, true}) names.push_back(tri_case(solve, t));
  return names;
}

void bench_blas_tri(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason, int runs,
                    bool quiet, const std::vector<std::string>& only, nlohmann::json& rows) {
  const Capabilities& caps = q.device().caps();
  const std::size_t matrix_bytes = std::size_t(caps.type == DeviceType::CPU ? 4 : 256) << 20;
  const bool gpu = caps.type != DeviceType::CPU;
  if (!quiet)
    std::printf("blas level 2 triangular: column-major lower n x n, non-unit, increment 1, matrices of %zu MiB%s;\n"
                "GB/s of the triangle read once plus x read and written\n",
                matrix_bytes >> 20, gpu ? " (trsv also 1 GiB)" : "");
  // Solves also at 4x the matrix on GPUs (1 GiB): their chain of n / NB
  // steps bounds them at 256 MiB; the triangle's streaming weighs more there.
  for (DType t : kTriTypes) {
    if (t == DType::F64 && !caps.fp64) continue;
    for (int size = 0; size < (gpu ? 2 : 1); ++size)
      for (bool solve : {false, true}) {
        if (!selected(tri_case(solve, t), only) || (size == 1 && !solve)) continue;
        const auto n = std::int64_t(std::sqrt(double((matrix_bytes << (2 * size)) / dtype_size(t))));
        switch (t) {
          case DType::F64: rows.push_back(tri_row<double>(q, c, ref, ref_reason, solve, n, runs, quiet)); break;
          case DType::C32:
            rows.push_back(tri_row<std::complex<float>>(q, c, ref, ref_reason, solve, n, runs, quiet));
            break;
          default: rows.push_back(tri_row<float>(q, c, ref, ref_reason, solve, n, runs, quiet)); break;
        }
      }
  }
}

}  // namespace optune::tool
