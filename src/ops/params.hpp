// Parameters of a kernel family for a problem on the queue's device: the
// tuning database's answer with its fallback chain (database/database.hpp),
// recorded per thread so tools can say which parameters a call used and
// where they came from.
#pragma once

#include <string>
#include <vector>

#include "database/database.hpp"
#include "kernels/descriptor.hpp"

namespace optune::detail {

Params params_for(const Queue& q, const KernelFamily& family, const Problem& problem);

struct LookupRecord {
  std::string family;
  std::string dtype;
  std::string bucket;
  Lookup lookup;
};

// The lookups params_for made on this thread since the last call (oldest
// first), and forgets them. At most the last 64 are kept.
std::vector<LookupRecord> take_lookups();
// The record of this thread's latest params_for (empty if none is kept), and
// a record added again for a call that reused that answer (launch_plan.hpp),
// so tools still see every call's parameters.
LookupRecord last_lookup();
void note_lookup(const LookupRecord& r);

}  // namespace optune::detail
