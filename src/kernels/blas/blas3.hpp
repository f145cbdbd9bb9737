// Descriptor of the blas3 family (blas/blas3.cl): the small kernels of the
// BLAS level-3 triangular and rank-k routines (syrk, syr2k, herk, her2k,
// trmm, trsm; the products run as GEMMs). One program per type and group size holds every
// entry point; NB, the block of the diagonal (syrk's and syr2k's diagonal
// blocks computed in full into scratch, trmm's and trsm's leaves of the
// recursion), is a parameter of the host alone.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

enum class Blas3Routine : int { Syrk, Syr2k, Trmm, Trsm, Herk, Her2k };
const char* blas3_routine_name(Blas3Routine r) noexcept;  // "syrk", ..., "her2k"
bool blas3_is_hermitian(Blas3Routine r) noexcept;        // herk, her2k
bool blas3_is_two(Blas3Routine r) noexcept;              // syr2k, her2k
bool blas3_is_triangular(Blas3Routine r) noexcept;       // trmm, trsm

struct Blas3Problem {
  DType dtype = DType::F32;
  Blas3Routine routine = Blas3Routine::Syrk;
  std::int64_t n = 0;  // C's order (syrk, syr2k) or the triangle's (trmm, trsm)
  std::int64_t k = 0;  // the inner size (syrk, syr2k) or B's other side (trmm, trsm)
  std::vector<std::int64_t> sizes() const { return {n, k}; }
  std::map<std::string, std::int64_t> fields() const { return {{"routine", std::int64_t(routine)}}; }
};

class Blas3Family : public FamilyOf<Blas3Problem> {
 public:
  std::string name() const override { return "blas3"; }
  std::string source() const override { return "blas/blas3.cl"; }
  std::string kernel_name() const override { return "blas3_copy"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Blas3Problem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const Blas3Problem& problem) const override;
  // The grid of `items` work-items (each entry point's own count).
  Geometry geometry(const Params& p, const Capabilities& caps, const Blas3Problem& problem) const override;
  Geometry grid(const Params& p, std::size_t items) const;
  Defines defines(const Params& p, const Blas3Problem& problem) const override;
  std::string bucket(const Blas3Problem& problem) const override;
  Blas3Problem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
};

// The family's instance (families::all() lists it; declared here so that
// kernels/families.hpp, which many sources include, stays as it is).
namespace families {
const Blas3Family& blas3();
}  // namespace families

}  // namespace optune::detail
