// Descriptor of the blas1 family (blas/blas1.cl): BLAS level 1 on strided
// real and complex vectors (f32, f64, c32, c64; f16 stored, computed in f32). One program per type and
// group size holds every routine's entry point; the grid sizes are
// parameters of the host alone, so they cost no program.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// The routines, as the op layer names them (and the database buckets'
// kinds: element-wise "map", reductions "reduce").
enum class Blas1Routine : int { Swap, Scal, Copy, Axpy, Rot, Rotm, Dot, Dotu, Dotc, Sum, Asum, Nrm2, Iamax, Iamin };
const char* blas1_routine_name(Blas1Routine r) noexcept;  // "swap", ..., "iamin"
bool blas1_is_reduction(Blas1Routine r) noexcept;           // dot .. iamin

struct Blas1Problem {
  DType dtype = DType::F32;  // the vectors' type (f32, f64, c32, c64)
  Blas1Routine routine = Blas1Routine::Axpy;
  std::int64_t n = 0;
  bool serial = false;  // an output with increment 0: the reference's loop on one work-item
  std::vector<std::int64_t> sizes() const { return {n}; }
  std::map<std::string, std::int64_t> fields() const {
    return {{"routine", std::int64_t(routine)}, {"serial", serial ? 1 : 0}};
  }
};

class Blas1Family : public FamilyOf<Blas1Problem> {
 public:
  std::string name() const override { return "blas1"; }
  std::string source() const override { return "blas/blas1.cl"; }
  std::string kernel_name() const override { return "blas1_axpy"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Blas1Problem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const Blas1Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Blas1Problem& problem) const override;
  Defines defines(const Params& p, const Blas1Problem& problem) const override;
  KernelSource program(const Params& p, const Blas1Problem& problem) const override;
  std::string bucket(const Blas1Problem& problem) const override;
  Blas1Problem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;

  // Groups of a reduction's first pass (1: it writes the result itself).
  std::size_t reduction_groups(const Params& p, const Capabilities& caps, const Blas1Problem& problem) const;
  // Bytes of one partial state in the first pass's scratch (the largest:
  // nrm2's three sums).
  // (f16 sums in f32.)
  static std::size_t partial_bytes(DType dtype) {
    return 3 * dtype_size(dtype == DType::F16 ? DType::F32 : real_dtype(dtype)) + 8;
  }
  // The entry point of the routine's (first) pass, and of the second.
  static std::string entry(Blas1Routine r);
  static std::string final_entry(Blas1Routine r);
};

}  // namespace optune::detail
