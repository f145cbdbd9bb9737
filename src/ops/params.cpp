#include "ops/params.hpp"

#include <map>
#include <sstream>

#include "runtime/log.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {
constexpr std::size_t kKeep = 64;
thread_local std::vector<LookupRecord> recent;

// OPTUNE_PARAMS="family:NAME=V,NAME=V;family2:NAME=V": values that replace the
// database's for every call of those families (experiments and bug reports;
// check() still applies, so an impossible value falls back as a tuned one
// would). Parsed once; a malformed part is warned about and ignored.
const std::map<std::string, Params>& overrides() {
  static const std::map<std::string, Params> parsed = [] {
    std::map<std::string, Params> out;
    std::istringstream in(env_or("OPTUNE_PARAMS", ""));
    for (std::string part; std::getline(in, part, ';');) {
      if (part.empty()) continue;
      const auto colon = part.find(':');
      if (colon == std::string::npos) {
        log_warn("OPTUNE_PARAMS: '" + part + "' is not family:NAME=VALUE,...; ignored");
        continue;
      }
      Params& p = out[part.substr(0, colon)];
      std::istringstream kv(part.substr(colon + 1));
      for (std::string item; std::getline(kv, item, ',');) {
        const auto eq = item.find('=');
        const auto v = eq == std::string::npos ? std::nullopt : parse_param_value(item.substr(eq + 1));
        if (v) p[item.substr(0, eq)] = *v;
        else log_warn("OPTUNE_PARAMS: '" + item + "' is not NAME=INTEGER; ignored");
      }
    }
    return out;
  }();
  return parsed;
}

}  // namespace

Params params_for(const Queue& q, const KernelFamily& family, const Problem& problem) {
  LookupRecord r{family.name(), std::string(dtype_name(problem.dtype)), family.bucket(problem), {}};
  Params p = lookup_params(q, family, problem, &r.lookup);
  if (auto it = overrides().find(family.name()); it != overrides().end()) {
    for (const auto& [name, value] : it->second) p[name] = value;
    r.lookup.params = p;
    r.lookup.source = "OPTUNE_PARAMS";
  }
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
