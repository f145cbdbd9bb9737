// Launch plans: what a family chose for a problem (its parameters, the
// compiled kernel, the grid), kept on the queue's context under a key that
// names the problem exactly, so that a repeated call skips the database
// lookup, the parameters' fit and the program lookup, which were most of a
// small call's host time (about 20 of 26 us per element-wise call on the
// H100's CUDA back end).
//
// A plan is reused only while Database::generation() is the one it was
// made under (an import, a tuning result saved, or a reset of the database
// makes every plan stale), and never for calls with forced parameters (the
// tuner's) or while the trace is on (which records every lookup). A reused
// plan records its lookup again (note_lookup), so tools still say which
// parameters each call ran with. The map is cleared when it holds
// kMaxPlans plans (calls of many different sizes).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "database/database.hpp"
#include "ops/params.hpp"
#include "runtime/backend.hpp"
#include "runtime/trace.hpp"

namespace optune::detail {

struct LaunchPlan {
  Params params;
  KernelPtr kernel;
  Geometry geometry;
  std::vector<LookupRecord> lookups;  // the params_for records it was made with
  std::uint64_t generation = 0;
};

constexpr std::size_t kMaxPlans = 512;

// What a call chose for key on q's context, under these rules: a stored one
// of the current generation (its lookups noted again), or make() (which
// returns a T and may throw) stored for the next call. `cacheable` false
// (forced parameters) always makes a new one. T has `lookups` (the
// params_for records) and `generation`, as LaunchPlan.
template <class T, class Make>
std::shared_ptr<const T> remembered(const Queue& q, const std::string& key, bool cacheable, Make&& make) {
  ContextImpl& ctx = *q.context().impl();
  const std::uint64_t gen = Database::generation();
  const bool use = cacheable && !trace::on();
  if (use) {
    std::lock_guard lock(ctx.plans_mutex);
    auto it = ctx.plans.find(key);
    if (it != ctx.plans.end()) {
      auto plan = std::static_pointer_cast<const T>(it->second);
      if (plan->generation == gen) {
        for (const LookupRecord& l : plan->lookups) note_lookup(l);
        return plan;
      }
    }
  }
  auto plan = std::make_shared<T>(make());
  plan->generation = gen;
  if (use) {
    std::lock_guard lock(ctx.plans_mutex);
    if (ctx.plans.size() >= kMaxPlans) ctx.plans.clear();
    ctx.plans[key] = plan;
  }
  return plan;
}

// The plan for key on q's context (remembered's rules).
template <class Make>
std::shared_ptr<const LaunchPlan> launch_plan(const Queue& q, const std::string& key, bool cacheable, Make&& make) {
  return remembered<LaunchPlan>(q, key, cacheable, std::forward<Make>(make));
}

// The usual plan of a family's one-kernel call: params_for (or the forced
// parameters) fitted, the kernel, the grid; the problem's key() names it.
template <class Family, class Prob>
std::shared_ptr<const LaunchPlan> family_plan(const Queue& q, const Family& fam, const Prob& pr,
                                              const Params* forced) {
  return launch_plan(q, fam.name() + '\0' + pr.key(), forced == nullptr, [&] {
    const Capabilities& caps = q.device().caps();
    LaunchPlan made;
    made.params = fam.fit(forced ? *forced : params_for(q, fam, pr), caps, pr);
    if (!forced) made.lookups = {last_lookup()};
    made.kernel = fam.kernel(q, made.params, pr);
    made.geometry = fam.geometry(made.params, caps, pr);
    return made;
  });
}

}  // namespace optune::detail
