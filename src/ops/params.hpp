// Parameters of a kernel family for a problem on the queue's device: the
// tuning database's answer (with its fallback chain), else the defaults.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

Params params_for(const Queue& q, const KernelFamily& family, const Problem& problem);

}  // namespace optune::detail
