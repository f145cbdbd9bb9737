// Descriptor of the blas_tri family (blas/blas_tri.cl): the BLAS level-2
// triangular routines, trmv / tbmv / tpmv (entry tri_mv, after tri_gather)
// and trsv / tbsv / tpsv (entry tri_sv), in f32, f64, c32 and c64. One
// program per type, WGS and NB holds every entry point.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

struct BlasTriProblem {
  DType dtype = DType::F32;
  bool solve = false;  // trsv / tbsv / tpsv
  std::int64_t n = 0;
  std::vector<std::int64_t> sizes() const { return {n}; }
  std::map<std::string, std::int64_t> fields() const { return {{"solve", solve ? 1 : 0}}; }
};

class BlasTriFamily : public FamilyOf<BlasTriProblem> {
 public:
  std::string name() const override { return "blas_tri"; }
  std::string source() const override { return "blas/blas_tri.cl"; }
  std::string kernel_name() const override { return "tri_mv"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const BlasTriProblem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const BlasTriProblem& problem) const override;
  // The panel grid: ceil(n / NB) groups of WGS (products: times the
  // slices of a full triangle; one-launch solves: times HELP + 1).
  Geometry geometry(const Params& p, const Capabilities& caps, const BlasTriProblem& problem) const override;
  Defines defines(const Params& p, const BlasTriProblem& problem) const override;
  KernelSource program(const Params& p, const BlasTriProblem& problem) const override;
  std::string bucket(const BlasTriProblem& problem) const override;
  BlasTriProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  // Products: the grid's second dimension, slices of SW columns over the
  // longest panel span, min(n, k + NB) columns (1 with SW 0).
  static std::size_t mv_slices(const Params& p, std::size_t n, std::size_t k);
};

}  // namespace optune::detail

namespace optune::detail::families {
// The family's accessor (declared here, not in families.hpp, so that adding
// it rebuilds only what uses it; families::all() lists it).
const BlasTriFamily& blas_tri();
}  // namespace optune::detail::families
