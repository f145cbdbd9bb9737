#include "ops/params.hpp"

namespace optune::detail {

Params params_for(const Queue& q, const KernelFamily& family, const Problem& problem) {
  return family.defaults(q.device().caps());
}

}  // namespace optune::detail
