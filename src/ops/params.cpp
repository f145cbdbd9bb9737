#include "ops/params.hpp"

#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <sstream>

#include "kernels/families.hpp"
#include "runtime/env.hpp"
#include "runtime/log.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

namespace {
constexpr std::size_t kKeep = 64;
// A deque: every call adds one and, once 64 are kept, drops the oldest
// (a vector moved all 63 others each time, records with strings and maps).
thread_local std::deque<LookupRecord> recent;

std::string list_text(const std::vector<std::int64_t>& values) {
  std::string s;
  for (std::int64_t v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

// OPTUNE_PARAMS="family:NAME=V,NAME=V;family2:NAME=V": values that replace the
// database's for every call of those families (experiments and bug reports).
// Parsed once; a malformed part or an unknown family is warned about and
// ignored. Each value must be one of the parameter's candidates (else it is
// dropped with a warning when first used), and the family's fit() then
// adjusts the whole set to the device and problem as it does a tuned one.
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
    for (auto it = out.begin(); it != out.end();) {
      bool known = false;
      for (const KernelFamily* f : families::all()) known |= f->name() == it->first;
      if (known) {
        ++it;
        continue;
      }
      std::string names;
      for (const KernelFamily* f : families::all()) names += (names.empty() ? "" : ", ") + f->name();
      log_warn("OPTUNE_PARAMS: no kernel family '" + it->first + "' (families: " + names + "); ignored");
      it = out.erase(it);
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
    const std::vector<Parameter> defs = family.parameters(q.device().caps());
    for (const auto& [name, value] : it->second) {
      const auto def = std::find_if(defs.begin(), defs.end(), [&](const Parameter& d) { return d.name == name; });
      if (def == defs.end()) {
        std::string names;
        for (const Parameter& d : defs) names += (names.empty() ? "" : ", ") + d.name;
        const std::string text = "OPTUNE_PARAMS: " + family.name() + " has no parameter " + name +
                                 " (its parameters: " + names + "); ignored";
        warn_once(text, text);
      } else if (std::find(def->values.begin(), def->values.end(), value) == def->values.end()) {
        const std::string text = "OPTUNE_PARAMS: " + family.name() + ":" + name + "=" + std::to_string(value) +
                                 " is not one of its values (" + list_text(def->values) + "); ignored";
        warn_once(text, text);
      } else {
        p[name] = value;
      }
    }
    r.lookup.params = p;
    r.lookup.source = "OPTUNE_PARAMS";
  }
  if (trace::on())
    trace::lookup(r.family, problem.dtype, r.bucket, problem.sizes, problem.fields(), r.lookup.params,
                  level_name(r.lookup.level), r.lookup.source);
  note_lookup(r);
  return p;
}

LookupRecord last_lookup() { return recent.empty() ? LookupRecord{} : recent.back(); }

void note_lookup(const LookupRecord& r) {
  if (recent.size() == kKeep) recent.pop_front();
  recent.push_back(r);
}

std::vector<LookupRecord> take_lookups() {
  std::vector<LookupRecord> out(std::make_move_iterator(recent.begin()), std::make_move_iterator(recent.end()));
  recent.clear();
  return out;
}

}  // namespace optune::detail
