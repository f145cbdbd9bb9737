// Descriptors of the GEMM kernels (gemm/*.cl) and of the routine that
// composes them:
//   gemm_direct   the direct kernel, for small and odd problems;
//   gemm_tiled    the tiled, register-blocked kernel on operands in its
//                 layout (helper kernels pad and transpose the others);
//   gemm_routine  routine-level parameters: the size from which the tiled
//                 path replaces the direct one.
// Every family is tuned per size bucket (small, medium, large, skinny,
// batched) by timing the whole routine with its parameters forced.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

// Problem (all three): dtype = the storage type; sizes = {m, n, k, batch} of
// the row-major problem (a column-major call is the transposed product);
// extra: "trans_a", "trans_b" (0/1, row-major sense), "comp_half" (1: f16
// arithmetic), "list" (1: offset-list batch).
namespace gemm {

// The size bucket of a problem (shared by the three families).
std::string bucket(const Problem& problem);
std::vector<std::string> buckets();
// A representative row-major NN problem of a bucket for this device.
Problem example(DType dtype, const std::string& bucket, const Capabilities& caps);
std::vector<DType> dtypes(const Capabilities& caps);
// Static local memory a group may use (CUDA caps it at 48 KiB).
std::uint64_t local_limit(const Capabilities& caps);
// The arithmetic type's size in bytes and whether the vector type of `vw`
// lanes exists for it on the device's backend.
std::size_t comp_bytes(const Problem& problem);
bool vector_ok(const Capabilities& caps, const Problem& problem, std::int64_t vw, bool storage_only);
// "" when the work-group fits the device.
std::string fits_group(const Capabilities& caps, std::int64_t x, std::int64_t y);

}  // namespace gemm

class GemmFamilyBase : public KernelFamily {
 public:
  std::string bucket(const Problem& problem) const override { return gemm::bucket(problem); }
  std::vector<std::string> buckets() const override { return gemm::buckets(); }
  Problem example(DType dtype, const std::string& bucket, const Capabilities& caps) const override {
    return gemm::example(dtype, bucket, caps);
  }
  std::vector<DType> dtypes(const Capabilities& caps) const override { return gemm::dtypes(caps); }
  std::unique_ptr<TuningCase> make_case(const Queue& queue, const Problem& problem) const override;
};

class GemmDirectFamily : public GemmFamilyBase {
 public:
  std::string name() const override { return "gemm_direct"; }
  std::string source() const override { return "gemm/gemm_direct.cl"; }
  std::string kernel_name() const override { return "gemm_direct"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
};

class GemmTiledFamily : public GemmFamilyBase {
 public:
  std::string name() const override { return "gemm_tiled"; }
  std::string source() const override { return "gemm/gemm_tiled.cl"; }
  std::string kernel_name() const override { return "gemm_tiled"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  // The grid over the padded problem (m, n rounded up to the tiles).
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
};

// Routine-level parameters; no kernel of its own (source() names the tiled
// kernel, which the routine's larger problems run).
class GemmRoutineFamily : public GemmFamilyBase {
 public:
  std::string name() const override { return "gemm_routine"; }
  std::string source() const override { return "gemm/gemm_tiled.cl"; }
  std::string kernel_name() const override { return "gemm_tiled"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const Problem& problem) const override;
  // Whether a problem takes the tiled path under these parameters.
  static bool use_tiled(const Params& p, const Problem& problem);
};

}  // namespace optune::detail
