// Descriptor of the blas2 family (blas/blas2.cl): BLAS level 2, the general
// and symmetric / Hermitian routines, on real and complex matrices (f32, f64,
// c32, c64). One program per type and group size holds every entry point;
// threads per row, split and grid are parameters of the host alone.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

enum class Blas2Routine : int {
  Gemv, Gbmv, Symv, Hemv, Sbmv, Hbmv, Spmv, Hpmv,             // matrix-vector products
  Ger, Geru, Gerc, Syr, Spr, Syr2, Spr2, Her, Hpr, Her2, Hpr2  // rank updates
};
const char* blas2_routine_name(Blas2Routine r) noexcept;  // "gemv", ..., "hpr2"
bool blas2_is_product(Blas2Routine r) noexcept;            // gemv .. hpmv

struct Blas2Problem {
  DType dtype = DType::F32;
  Blas2Routine routine = Blas2Routine::Gemv;
  std::int64_t rows = 0, cols = 0;  // the logical matrix M (op(A) for gemv / gbmv)
  bool row_major = true;            // products: M's rows contiguous (a row's work-items side by side)
  bool blocked = false;             // symv / hemv in dense storage: blas2_symv_blocks
  bool dense = false;               // gemv / ger in dense storage: blas2_gemv_c / _r, blas2_ger (packs of VW)
  std::vector<std::int64_t> sizes() const { return {rows, cols}; }
  std::map<std::string, std::int64_t> fields() const {
    return {{"routine", std::int64_t(routine)},
            {"row_major", row_major ? 1 : 0},
            {"blocked", blocked ? 1 : 0},
            {"dense", dense ? 1 : 0}};
  }
};

// Dense ger's columns per work-item where a pack is one element (VW 1:
// complex types, or packs the host could not align): at least blas2_ger's
// GER_LOADS (8) on CUDA, whose VW 1 loop loads that many before any update;
// one on OpenCL, where the group's many work-items keep the loads in flight.
std::int64_t ger_columns_vw1(std::int64_t rc, const Capabilities& caps);

class Blas2Family : public FamilyOf<Blas2Problem> {
 public:
  std::string name() const override { return "blas2"; }
  std::string source() const override { return "blas/blas2.cl"; }
  std::string kernel_name() const override { return "blas2_mv_ge"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const override;
  // check() less the candidates' test: the device's limits and the
  // parameters' relations (fit's loops, which only halve candidates, ask this).
  std::string limits(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const;
  Params fit(const Params& tuned, const Capabilities& caps, const Blas2Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const override;
  Defines defines(const Params& p, const Blas2Problem& problem) const override;
  KernelSource program(const Params& p, const Blas2Problem& problem) const override;
  std::string bucket(const Blas2Problem& problem) const override;
  Blas2Problem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  // Products: work-items per row, and slices of the j range (1: no second pass).
  std::size_t threads_per_row(const Params& p, const Blas2Problem& problem) const;
  std::size_t slices(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const;
  // The routines that can read complex elements as pairs of reals (CPAIRS):
  // ger, and gemv in dense storage.
  static bool pairs(const Blas2Problem& problem) { return !blas2_is_product(problem.routine) || problem.dense; }
  // The dense paths: elements per pack (VW, which fit leaves 1 for complex
  // types; complex ger's and gemv's pairs: CPAIRS).
  static std::size_t vector_width(const Params& p, const Blas2Problem& problem) {
    if (!problem.dense) return 1;
    const bool by_pairs = is_complex(problem.dtype) && pairs(problem) && p.at("CPAIRS");
    return std::size_t(by_pairs ? p.at("CPAIRS") : p.at("VW"));
  }
  // Rows of M a product's group owns.
  std::size_t rows_per_group(const Params& p, const Blas2Problem& problem) const;
  // Blocked symv / hemv: blocks per side (and column strips of blas2_symv_strips).
  static std::size_t symv_blocks(const Params& p, std::int64_t n) {
    return std::size_t((n + p.at("SB") - 1) / p.at("SB"));
  }
  // blas2_symv_strips: the most chunks of STRIP rows a strip has (its rows
  // outside the diagonal block are at most (blocks - 1) SB).
  static std::size_t strip_chunks(const Params& p, std::int64_t n) {
    const std::size_t rows = (symv_blocks(p, n) - 1) * std::size_t(p.at("SB")), rch = std::size_t(p.at("STRIP"));
    return std::max<std::size_t>(1, (rows + rch - 1) / rch);
  }
  // blas2_symv_walk: whether it takes the problem (real f32 / f64 symv, WALK
  // > 0, no STRIP, the blocks in registers), and its chunks per strip.
  static bool walks(const Params& p, const Blas2Problem& problem) {
    return problem.blocked && p.at("WALK") > 0 && p.at("STRIP") == 0 &&
           (problem.dtype == DType::F32 || problem.dtype == DType::F64 || problem.dtype == DType::F16) &&
           p.at("WGS") * 4 <= p.at("SB") * p.at("SB");
  }
  static std::size_t walk_chunks(const Params& p, std::int64_t n) {
    const std::size_t nb = symv_blocks(p, n), ch = std::size_t(p.at("WALK"));
    return (nb + ch - 1) / ch;
  }
  // Dense real gemv (f32, f64) run as a GEMM whose N is 1 (ops/blas2.cpp's
  // gemv_as_gemm): GEMM > 0 and M has at most 2^GEMM elements. (The host
  // still keeps the packs where an increment is not positive.)
  static bool as_gemm(const Params& p, const Blas2Problem& problem) {
    const std::int64_t g = p.at("GEMM");
    return g > 0 && problem.dense && problem.routine == Blas2Routine::Gemv &&
           (problem.dtype == DType::F32 || problem.dtype == DType::F64) && problem.rows > 0 && problem.cols > 0 &&
           problem.rows <= (std::int64_t(1) << g) / problem.cols;
  }
  // The entry point of the routine (products: by storage).
  static std::string entry(Blas2Routine r);
};

}  // namespace optune::detail
