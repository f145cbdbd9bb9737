// The host_blas family (host_blas.hpp).
#include "kernels/blas/host_blas.hpp"

#include <cmath>

#include "database/database.hpp"
#include "runtime/log.hpp"

namespace optune::detail {

namespace {
std::vector<std::int64_t> exponents() {
  std::vector<std::int64_t> v;
  for (std::int64_t e = 0; e <= 40; ++e) v.push_back(e);
  v.push_back(62);  // every call on the CPU device
  return v;
}
}  // namespace

std::vector<Parameter> HostBlasFamily::parameters(const Capabilities& caps) const {
  // Defaults: levels 1 and 2 read each element about once, so with the copies
  // to a discrete GPU and back they only pay from tens of millions of
  // elements; level 3 from about 160^3 (2^22: a few hundred microseconds on
  // a CPU device).
  return {{"L1_LOG2", exponents(), 24,
           "level-1 calls of fewer than 2^L1_LOG2 elements run on the CPU device (0: none; 62: all)"},
          {"L2_LOG2", exponents(), 24,
           "level-2 calls of fewer than 2^L2_LOG2 matrix elements run on the CPU device (0: none; 62: all)"},
          {"L3_LOG2", exponents(), 22,
           "level-3 calls of m n k below 2^L3_LOG2 run on the CPU device (0: none; 62: all)"},
          // The in-thread tier (src/hostblas/inline.hpp), checked first:
          // the crossovers of `optune bench blas --host-interface
          // --host-max-n 2048` on the development machine (PoCL 3.1, 2-core
          // AMD EPYC, 2026-11-25): the compiled loops beat PoCL at every size
          // of levels 1 and 2 measured (saxpy and sgemv to 2^22 elements:
          // 2^23) and GEMM up to n = 128 (PoCL wins from 256: 2^24).
          {"L1_THREAD_LOG2", exponents(), 23,
           "level-1 calls of fewer than 2^L1_THREAD_LOG2 elements run in the caller's thread (0: none; 62: all)"},
          {"L2_THREAD_LOG2", exponents(), 23,
           "level-2 calls of fewer than 2^L2_THREAD_LOG2 matrix elements run in the caller's thread (0: none; 62: all)"},
          {"L3_THREAD_LOG2", exponents(), 24,
           "level-3 calls of m n k below 2^L3_THREAD_LOG2 run in the caller's thread (0: none; 62: all)"},
          // Staged copies (src/hostblas/staging.hpp), read from the f32
          // entry: on CUDA, where the slots can be page-locked, from 4 MiB
          // with 8 workers of 2 MiB chunks (the H100 machine's best of
          // scripts/gpu/h2d_stage.cu: 35 GB/s each way); elsewhere never (the
          // slots would be pageable memory: no faster than the driver).
          {"STAGE_LOG2", exponents(), caps.backend == Backend::CUDA ? 22 : 62,
           "operands of at least 2^STAGE_LOG2 bytes are copied through the staging workers (62: never)"},
          {"STAGE_CHUNK_LOG2", {16, 17, 18, 19, 20, 21, 22, 23, 24}, 21, "bytes per staged chunk, as a power of two"},
          {"STAGE_THREADS", {1, 2, 4, 6, 8, 12, 16}, 8, "staging workers (at most the host's hardware threads)"}};
}

Geometry HostBlasFamily::geometry(const Params&, const Capabilities&, const HostBlasProblem&) const {
  return Geometry{};
}

std::vector<DType> HostBlasFamily::dtypes(const Capabilities& caps) const {
  if (caps.fp64) return {DType::F32, DType::F64, DType::C32, DType::C64};
  return {DType::F32, DType::C32};
}

HostBlasProblem HostBlasFamily::make_example(DType dtype, const std::string&, const Capabilities&) const {
  return HostBlasProblem{dtype};
}

namespace families {
const HostBlasFamily& host_blas() {
  static const HostBlasFamily f;
  return f;
}
}  // namespace families

namespace {
// "L<level><suffix>": L1_LOG2, L3_THREAD_LOG2, ...
std::string param_name(int level, const char* suffix) {
  std::string name(1, 'L');
  name += char('0' + level);
  name += suffix;
  return name;
}

// The first serving entry's parameters, else the defaults.
Params entry(const Capabilities& caps, DType dtype) {
  const HostBlasFamily& fam = families::host_blas();
  Params p = fam.defaults(caps);
  try {
    for (const Candidate& c :
         Database::instance().candidates(caps, fam.name(), std::string(dtype_name(dtype)), "all")) {
      Params q = fam.complete(c.entry.params, caps);
      if (fam.check_candidates(q, caps).empty()) {
        p = q;
        break;
      }
    }
  } catch (const std::exception& e) {
    // The database only ever makes things faster: the defaults serve.
    log_warn(std::string("tuning database: host_blas thresholds unreadable (") + e.what() + "); using the defaults");
  }
  return p;
}

std::int64_t param(const Capabilities& caps, DType dtype, const std::string& name) { return entry(caps, dtype).at(name); }
}  // namespace

double host_blas_threshold(const Capabilities& caps, DType dtype, int level) {
  return std::ldexp(1.0, int(param(caps, dtype, param_name(level, "_LOG2"))));
}

double host_blas_thread_threshold(const Capabilities& caps, DType dtype, int level) {
  return std::ldexp(1.0, int(param(caps, dtype, param_name(level, "_THREAD_LOG2"))));
}

HostBlasStaging host_blas_staging(const Capabilities& caps) {
  const Params p = entry(caps, DType::F32);
  HostBlasStaging s;
  s.min_bytes = std::ldexp(1.0, int(p.at("STAGE_LOG2")));
  s.chunk = std::size_t(1) << p.at("STAGE_CHUNK_LOG2");
  s.threads = std::size_t(p.at("STAGE_THREADS"));
  return s;
}

}  // namespace optune::detail
