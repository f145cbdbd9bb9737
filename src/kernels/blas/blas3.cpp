#include "kernels/blas/blas3.hpp"

#include "kernels/blas/blas_types.hpp"

namespace optune::detail {

const char* blas3_routine_name(Blas3Routine r) noexcept {
  static const char* names[] = {"syrk", "syr2k", "trmm", "trsm", "herk", "her2k"};
  const int i = int(r);
  return i >= 0 && i <= int(Blas3Routine::Her2k) ? names[i] : "?";
}

bool blas3_is_hermitian(Blas3Routine r) noexcept { return r == Blas3Routine::Herk || r == Blas3Routine::Her2k; }
bool blas3_is_two(Blas3Routine r) noexcept { return r == Blas3Routine::Syr2k || r == Blas3Routine::Her2k; }

bool blas3_is_triangular(Blas3Routine r) noexcept { return r == Blas3Routine::Trmm || r == Blas3Routine::Trsm; }

std::vector<Parameter> Blas3Family::parameters(const Capabilities&) const {
  return {
      {"WGS", {64, 128, 256}, 256, "work-items per group of the small kernels"},
      {"NB", {16, 32, 64, 128, 256, 512}, 128,
       "order of the diagonal blocks: syrk's and syr2k's computed in full into scratch, the leaves of trmm's and "
       "trsm's recursion (packed, or inverted, by one work-item per column)"},
      {"IB", {16, 32, 64, 128}, 64,
       "trsm: order of the diagonal sub-blocks that blas3_tri_pack inverts by substitution; listed GEMMs "
       "double them up to NB (an IB at or above NB inverts the whole NB block by substitution)"},
      // The routine's products are GEMM calls whose buckets they share with
      // plain products of their type and size (a complex rank-k's real
      // products with sgemm's); this picks their kernel per routine bucket.
      {"GEMM", {0, 1, 2, 3, 4, 5}, 0,
       "the kernel of the routine's GEMM products: gemm_routine's KERNEL merged onto their lookups (0: theirs; 1 "
       "direct, 2 tiled, 3 mma, 4 thin, 5 wgmma, where it applies and fits)"},
  };
}

std::string Blas3Family::check(const Params& p, const Capabilities& caps, const Blas3Problem&) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const std::size_t wgs = std::size_t(p.at("WGS"));
  if (wgs > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (wgs > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  return "";
}

Params Blas3Family::fit(const Params& tuned, const Capabilities& caps, const Blas3Problem& problem) const {
  const auto adjust = [&](Params p) {
    while (p.at("WGS") > 64 && !check(p, caps, problem).empty()) p["WGS"] /= 2;
    return p;
  };
  const Params p = adjust(complete(tuned, caps));
  return check(p, caps, problem).empty() ? p : adjust(defaults(caps));
}

Geometry Blas3Family::grid(const Params& p, std::size_t items) const {
  const std::size_t wgs = std::size_t(p.at("WGS"));
  Geometry g;
  g.local[0] = wgs;
  g.global[0] = round_up(std::max<std::size_t>(items, 1), wgs);
  return g;
}

Geometry Blas3Family::geometry(const Params& p, const Capabilities&, const Blas3Problem& problem) const {
  return grid(p, std::size_t(std::max<std::int64_t>(problem.n, 1)));
}

Defines Blas3Family::defines(const Params& p, const Blas3Problem& problem) const {
  // (f16 calls run the f32 program on widened copies: HALF is not used.)
  Defines d = blas_type_defines(problem.dtype);
  d.emplace_back("WGS", std::to_string(p.at("WGS")));
  return d;
}

std::string Blas3Family::bucket(const Blas3Problem& problem) const {
  const std::string kind = blas3_is_triangular(problem.routine) ? "tri" : "rank";
  const std::int64_t n = problem.n;
  return kind + (n <= 256 ? "/n<=256" : n <= 2048 ? "/n<=2048" : "/n>2048");
}

std::vector<std::string> Blas3Family::buckets() const {
  return {"rank/n<=256", "rank/n<=2048", "rank/n>2048", "tri/n<=256", "tri/n<=2048", "tri/n>2048"};
}

Blas3Problem Blas3Family::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  Blas3Problem pr;
  pr.dtype = dtype;
  pr.routine = bucket.rfind("tri", 0) == 0 ? Blas3Routine::Trsm : Blas3Routine::Syrk;
  std::int64_t n = bucket.find("<=256") != std::string::npos ? 256 : bucket.find("<=2048") != std::string::npos ? 2048 : 4096;
  // Three n x n matrices within the device's largest allocation each.
  while (n > 64 && std::uint64_t(n) * std::uint64_t(n) * dtype_size(dtype) > caps.max_alloc_bytes / 2) n /= 2;
  pr.n = n;
  pr.k = n;
  return pr;
}

std::vector<DType> Blas3Family::dtypes(const Capabilities& caps) const {
  return blas_family_dtypes(caps);
}

}  // namespace optune::detail
