// Without the CUDA toolkit's headers src/runtime/cuda/ is not built; the
// device list then has only OpenCL, and backends() says why CUDA is missing.
#ifndef OPTUNE_WITH_CUDA
#include "runtime/backend.hpp"
#include "runtime/tensor_map.hpp"

namespace optune::detail {

BackendImpl* cuda_backend() { return nullptr; }

bool tensor_maps_available() { return false; }
std::string encode_tensor_map(const TensorMapSpec&, TensorMap*) { return "built without the CUDA back end"; }

}  // namespace optune::detail
#endif
