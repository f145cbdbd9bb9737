// The host_blas family: routine-level parameters of the host BLAS interface
// (liboptune_blas.so.3, src/hostblas/), no kernel of its own. Its parameters
// are the thresholds of work below which a call of each routine class runs
// on the CPU OpenCL device rather than on the default device: L1_LOG2 and
// L2_LOG2 in elements, L3_LOG2 in m n k, as powers of two; and, checked
// first, the thresholds below which a call runs in the caller's thread with
// no device at all (L1_THREAD_LOG2, L2_THREAD_LOG2, L3_THREAD_LOG2). Entries are keyed
// by the default device (a GPU) and the routine's type, in one bucket "all",
// and come from the crossovers `optune bench blas --host-interface` prints
// on that machine; STAGE_* say how large operands are copied (staging.hpp).
// They choose where and how a routine runs, not what it computes, so they
// cannot give wrong answers: the host library reads them with
// Database::candidates (no trust check), and the family has no tuning case
// (`optune tune host_blas` refuses: the bench measures them).
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

struct HostBlasProblem {
  DType dtype = DType::F32;
  std::vector<std::int64_t> sizes() const { return {}; }
  std::map<std::string, std::int64_t> fields() const { return {}; }
};

class HostBlasFamily : public FamilyOf<HostBlasProblem> {
 public:
  std::string name() const override { return "host_blas"; }
  std::string source() const override { return ""; }
  std::string kernel_name() const override { return ""; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const HostBlasProblem& problem) const override;
  std::string bucket(const HostBlasProblem&) const override { return "all"; }
  std::vector<std::string> buckets() const override { return {"all"}; }
  std::vector<DType> dtypes(const Capabilities& caps) const override;
  HostBlasProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
};

namespace families {
const HostBlasFamily& host_blas();
}

// The threshold of work of BLAS level `level` (1, 2 or 3) for calls of type
// dtype whose default device has these capabilities: 2^L<level>_LOG2 from
// the first database entry that serves the device (cache file, then shipped
// files, in the fallback order of docs/DATABASE.md) and whose values are the
// family's candidates, else from the family's defaults.
double host_blas_threshold(const Capabilities& caps, DType dtype, int level);

// The same for the in-thread tier: 2^L<level>_THREAD_LOG2, the work below
// which a call runs in the caller's thread (src/hostblas/inline.hpp).
double host_blas_thread_threshold(const Capabilities& caps, DType dtype, int level);

// How operands are staged (src/hostblas/staging.hpp), from the f32 entry's
// STAGE_* parameters: operands of at least min_bytes go through `threads`
// workers in chunks of `chunk` bytes.
struct HostBlasStaging {
  double min_bytes = 0;
  std::size_t chunk = 0;
  std::size_t threads = 0;
};
HostBlasStaging host_blas_staging(const Capabilities& caps);

}  // namespace optune::detail
