// Without the CUDA toolkit's headers src/runtime/cuda/ is not built; the
// device list then has only OpenCL, and backends() says why CUDA is missing.
#ifndef OPTUNE_WITH_CUDA
#include "runtime/backend.hpp"

namespace optune::detail {

BackendImpl* cuda_backend() { return nullptr; }

}  // namespace optune::detail
#endif
