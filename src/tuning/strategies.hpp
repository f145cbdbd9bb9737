// Search strategies: which configuration to try next. They see only the
// space and the timings the tuner reports back, never the device, so they can
// be reasoned about (and replayed with a seed) on their own.
#pragma once

#include <memory>
#include <optional>

#include "tuning/space.hpp"
#include "tuning/tuner.hpp"

namespace optune::detail {

class SearchStrategy {
 public:
  enum class Outcome { Measured, Rejected, Failed };
  virtual ~SearchStrategy() = default;
  // The next configuration to try; never the base (the tuner measures that
  // first) and never one already yielded. nullopt: the strategy is done.
  virtual std::optional<Params> next() = 0;
  // The fate of the configuration last yielded: seconds is its median (or
  // the first timed run when it was abandoned), infinity when it failed.
  virtual void report(const Params& p, Outcome outcome, double seconds) = 0;
  // Evaluations (configurations that pass check) the strategy intends.
  virtual std::uint64_t planned() const = 0;
};

// base_seconds: the measured time of space.base(), where annealing starts.
std::unique_ptr<SearchStrategy> make_strategy(const TuneOptions& options, const SearchSpace& space,
                                              double base_seconds);

}  // namespace optune::detail
