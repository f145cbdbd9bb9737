// The blob of embedded cubins when there is none: builds without the CUDA
// toolkit or with OPTUNE_EMBED_CUBINS=OFF, and the generator itself.
#include "runtime/embedded_cubins.hpp"

namespace optune::detail {

const std::uint8_t* embedded_cubin_blob(std::size_t* size) {
  *size = 0;
  return nullptr;
}

}  // namespace optune::detail
