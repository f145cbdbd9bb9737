// optune bench blas, the im2col and col2im rows: one image of C channels of
// 112 x 112, 3 x 3 kernel, pad 1, stride 1, cross-correlation, C chosen so
// the patch matrix holds about 256 MiB (16 MiB on CPUs), in f32, f64 and
// c32, against the reference library (CLBlast; cuBLAS has none) on the same
// buffers. GB/s count the compulsory traffic: im2col reads the image once
// and writes the matrix, col2im reads the matrix and reads and writes the
// image. diff: the largest |ours - ref| over the largest |ref| (real and
// imaginary parts) after one call of each from the same operands.
#include <algorithm>
#include <complex>
#include <cstdio>

#include "bench_blas.hpp"
#include "gemm_check.hpp"
#include "optune/blas.hpp"
#include "optune/blas_extra.hpp"
#include "reference/reference_blas.hpp"

namespace optune::tool {

namespace {

constexpr std::int64_t kSide = 112;
const DType kPatchTypes[] = {DType::F32, DType::F64, DType::C32};

std::string patch_case(bool to_im, DType t) {
  return std::string(to_im ? "col2im-" : "im2col-") + std::string(dtype_name(t));
}

template <class T>
nlohmann::json patch_row(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                         bool to_im, std::int64_t channels, int runs, bool quiet) {
  using R = blas_real_t<T>;
  const DType t = dtype_of_v<T>;
  const Context ctx = q.context();
  const std::size_t parts = is_complex(t) ? 2 : 1;
  const std::size_t n_im = std::size_t(channels * kSide * kSide), n_col = 9 * n_im;  // pad 1: 112 x 112 patches
  Buffer<R> imp = ctx.alloc<R>(n_im * parts), colp = ctx.alloc<R>(n_col * parts);
  fill_parts(q, imp, 0x9E3779B97F4A7C15ull);
  fill_parts(q, colp, 0xD1B54A32D192ED03ull);
  const Buffer<T> im0(imp.mem(), 0, n_im), col0(colp.mem(), 0, n_col);
  // Ours and the reference's destinations, so each result can be compared.
  Buffer<T> mine = ctx.alloc<T>(to_im ? n_im : n_col), theirs = ctx.alloc<T>(to_im ? n_im : n_col);
  const auto ours = [&] {
    return to_im ? col2im(q, KernelMode::CrossCorrelation, channels, kSide, kSide, 3, 3, 1, 1, 1, 1, 1, 1, col0, mine)
                 : im2col(q, KernelMode::CrossCorrelation, channels, kSide, kSide, 3, 3, 1, 1, 1, 1, 1, 1, im0, mine);
  };
  if (to_im) q.copy(im0, mine).wait();
  const Timing tm = time_events(ours, 3, runs);
  const double es = double(dtype_size(t));
  const double bytes = es * (double(n_col) + double(n_im) * (to_im ? 2 : 1));
  const std::string op = to_im ? "col2im" : "im2col";
  nlohmann::json row = memory_row(op, t, channels, bytes, tm, c.copy_gbs);
  row["image"] = {channels, kSide, kSide};
  nlohmann::json rj{{"available", false}};
  const Im2colCall call{to_im, t, channels, kSide, kSide, 3, 1, 1, 1};
  std::string why = ref ? ref->unsupported(call) : ref_reason;
  if (ref && why.empty()) {
    try {
      const auto run_ref = [&] {
        return to_im ? ref->im2col(q, call, interop::native_buffer(theirs), interop::native_buffer(col0))
                     : ref->im2col(q, call, interop::native_buffer(im0), interop::native_buffer(theirs));
      };
      if (to_im) q.copy(im0, theirs).wait();
      const Timing tr = time_events(run_ref, 3, runs);
      rj = reference_row(tr, tm, bytes);
      // One call of each from the same operands (col2im: from the same image).
      if (to_im) {
        q.copy(im0, mine).wait();
        q.copy(im0, theirs).wait();
      }
      ours().wait();
      run_ref().wait();
      const std::size_t n_out = (to_im ? n_im : n_col) * parts;
      rj["relative_difference"] =
          max_relative_difference(q.download(Buffer<R>(mine.mem(), 0, n_out)), q.download(Buffer<R>(theirs.mem(), 0, n_out)));
    } catch (const Error& e) {
      why = std::string("error: ") + e.what();
    }
  }
  if (!rj["available"].get<bool>()) rj["reason"] = why;
  row["reference"] = rj;
  if (!quiet) print_row(op, t, channels, 7, tm, row["gbs"], row["fraction_of_copy_ceiling"], rj, why);
  return row;
}

}  // namespace

std::vector<std::string> blas_im2col_case_names() {
  std::vector<std::string> names;
  for (DType t : kPatchTypes)
    for (bool to_im : {false, true}) names.push_back(patch_case(to_im, t));
  return names;
}

nlohmann::json bench_blas_im2col(const Queue& q, const Ceilings& c, ReferenceBlas* ref, const std::string& ref_reason,
                                 int runs, bool quiet, const std::vector<std::string>& only) {
  const Capabilities& caps = q.device().caps();
  const std::size_t col_bytes = std::size_t(caps.type == DeviceType::CPU ? 16 : 256) << 20;
  if (!quiet)
    std::printf("\nblas im2col / col2im: one image of n channels of %lld x %lld, 3 x 3 kernel, pad 1, stride 1,\n"
                "patch matrices of about %zu MiB; GB/s of the image read once (col2im: read and written) plus the\n"
                "matrix written (col2im: read)\n%-6s %-4s %7s %10s %9s %7s %10s %9s %7s %9s\n",
                static_cast<long long>(kSide), static_cast<long long>(kSide), col_bytes >> 20, "op", "type", "n",
                "time us", "GB/s", "ceil%", "ref us", "ref GB/s", "vs ref", "diff");
  nlohmann::json rows = nlohmann::json::array();
  for (DType t : kPatchTypes) {
    if (t == DType::F64 && !caps.fp64) continue;
    const auto channels = std::max<std::int64_t>(1, std::int64_t(col_bytes / dtype_size(t) / (9 * kSide * kSide)));
    for (bool to_im : {false, true}) {
      if (!selected(patch_case(to_im, t), only)) continue;
      switch (t) {
        case DType::F64: rows.push_back(patch_row<double>(q, c, ref, ref_reason, to_im, channels, runs, quiet)); break;
        case DType::C32:
          rows.push_back(patch_row<std::complex<float>>(q, c, ref, ref_reason, to_im, channels, runs, quiet));
          break;
        default: rows.push_back(patch_row<float>(q, c, ref, ref_reason, to_im, channels, runs, quiet)); break;
      }
    }
  }
  return {{"col_bytes", col_bytes}, {"rows", rows}};
}

}  // namespace optune::tool
