// encode_tensor_map on the CUDA back end: cuTensorMapEncodeTiled with the
// 128-byte swizzle that wgmma's shared-memory descriptors expect, L2
// promotion of 256 bytes and zero fill outside the tensor.
#include "runtime/tensor_map.hpp"

#include "runtime/cuda/cuda_objects.hpp"

namespace optune::detail {

bool tensor_maps_available() {
  std::string why;
  const cu::DriverApi* a = cu::load_driver(&why);
  return a && a->cuTensorMapEncodeTiled;
}

std::string encode_tensor_map(const TensorMapSpec& s, TensorMap* out) {
  std::string why;
  const cu::DriverApi* a = cu::load_driver(&why);
  if (!a) return why;
  if (!a->cuTensorMapEncodeTiled) return "the CUDA driver has no cuTensorMapEncodeTiled (needs 12.0 or newer)";
  if (!s.mem || s.rank < 2 || s.rank > 3) return "tensor map: rank 2 or 3 of a buffer";
  CUtensorMapDataType type;
  switch (s.dtype) {
    case DType::F16: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
    case DType::BF16: type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
    case DType::F32: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
    default: return "tensor map: no element type for " + std::string(dtype_name(s.dtype));
  }
  const cu::CuMem& mem = *static_cast<const cu::CuMem*>(s.mem);
  const CUdeviceptr base = mem.ptr() + s.offset_bytes;
  const cu::Scope scope(mem.primary());  // the driver encodes in the buffer's context
  cuuint64_t dims[3], strides[2];
  cuuint32_t box[3], steps[3] = {1, 1, 1};
  for (unsigned i = 0; i < s.rank; ++i) {
    dims[i] = s.dims[i];
    box[i] = s.box[i];
    if (i) strides[i - 1] = s.strides[i - 1];
  }
  static_assert(sizeof(CUtensorMap) == sizeof(out->bytes), "CUtensorMap is 128 bytes");
  const CUresult r = a->cuTensorMapEncodeTiled(
      reinterpret_cast<CUtensorMap*>(out->bytes), type, s.rank, reinterpret_cast<void*>(base), dims, strides, box,
      steps, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) return "cuTensorMapEncodeTiled: " + cu::error_name(r);
  return "";
}

}  // namespace optune::detail
