// Tensor maps for the Hopper copy engine (TMA): the 128-byte descriptor that
// `cp.async.bulk.tensor` reads, built by the driver's cuTensorMapEncodeTiled
// (dlopen'ed, driver 12.0+) for a tile of a buffer. Kernels take it by value
// as a `__grid_constant__` parameter (KernelArg::bytes). CUDA only: other
// back ends, and builds without the CUDA toolkit, answer why not.
#pragma once

#include <cstdint>
#include <string>

#include "optune/types.hpp"

namespace optune::detail {

class MemImpl;

struct TensorMap {
  alignas(64) unsigned char bytes[128] = {};
};

// A rank-2 or rank-3 view of 16-bit or 32-bit elements, innermost dimension
// first: dims[0] is contiguous, strides[i] is the byte distance between
// consecutive indices of dims[i + 1] (a multiple of 16). The box is the tile
// one copy moves (box[0] * element bytes <= 128 with the 128-byte swizzle).
// Elements outside the dims read as zero.
struct TensorMapSpec {
  DType dtype = DType::F16;
  const MemImpl* mem = nullptr;
  std::uint64_t offset_bytes = 0;  // where element (0, 0, 0) lies (16-byte aligned)
  unsigned rank = 2;
  std::uint64_t dims[3] = {1, 1, 1};
  std::uint64_t strides[2] = {0, 0};
  std::uint32_t box[3] = {1, 1, 1};
};

// Whether the loaded CUDA driver can encode tensor maps.
bool tensor_maps_available();

// "" and *out filled, or why the map cannot be made (no driver entry point,
// arguments the copy engine refuses).
std::string encode_tensor_map(const TensorMapSpec& spec, TensorMap* out);

}  // namespace optune::detail
