#include "ops/params.hpp"

#include "runtime/trace.hpp"

namespace optune::detail {

namespace {
constexpr std::size_t kKeep = 64;
thread_local std::vector<LookupRecord> recent;
}  // namespace

Params params_for(const Queue& q, const KernelFamily& family, const Problem& problem) {
  LookupRecord r{family.name(), std::string(dtype_name(problem.dtype)), family.bucket(problem), {}};
  Params p = lookup_params(q, family, problem, &r.lookup);
  if (trace::on())
    trace::lookup(r.family, problem.dtype, r.bucket, problem.sizes, problem.extra, r.lookup.params,
                  level_name(r.lookup.level), r.lookup.source);
  if (recent.size() == kKeep) recent.erase(recent.begin());
  recent.push_back(std::move(r));
  return p;
}

std::vector<LookupRecord> take_lookups() {
  std::vector<LookupRecord> out;
  out.swap(recent);
  return out;
}

}  // namespace optune::detail
