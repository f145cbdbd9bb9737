#include "tuning/strategies.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <unordered_set>

namespace optune::detail {

namespace {

using Outcome = SearchStrategy::Outcome;

// Evaluations asked for: a count, a fraction of the valid space, or all of it.
std::uint64_t target_count(const TuneOptions& o, const SearchSpace& space) {
  const std::uint64_t all = space.size_estimate();
  std::uint64_t n = all;
  if (o.candidates > 0) n = o.candidates;
  else if (o.fraction > 0) n = std::uint64_t(std::ceil(o.fraction * double(all)));
  return std::max<std::uint64_t>(1, std::min(n, all));
}

// Every point in index order; the tuner records the ones check() refuses.
class Exhaustive : public SearchStrategy {
 public:
  explicit Exhaustive(const SearchSpace& s) : space_(s), base_(s.index_of(s.base())) {}
  std::optional<Params> next() override {
    while (next_ < space_.raw_size()) {
      const std::uint64_t i = next_++;
      if (base_ && i == *base_) continue;
      return space_.at(i);
    }
    return std::nullopt;
  }
  void report(const Params&, Outcome, double) override {}
  std::uint64_t planned() const override { return space_.size_estimate(); }

 private:
  const SearchSpace& space_;
  std::optional<std::uint64_t> base_;
  std::uint64_t next_ = 0;
};

// Uniform sampling without replacement: a seeded shuffle of the valid points
// when they are listed, else rejection sampling over the raw index range.
class RandomSampling : public SearchStrategy {
 public:
  RandomSampling(const TuneOptions& o, const SearchSpace& s)
      : space_(s), rng_(o.seed), target_(target_count(o, s)), base_(s.index_of(s.base())) {
    if (const auto& valid = s.valid()) {
      order_ = *valid;
      std::shuffle(order_.begin(), order_.end(), rng_);
    }
    if (base_) seen_.insert(*base_);
  }
  std::optional<Params> next() override {
    if (done_ >= target_) return std::nullopt;
    if (space_.valid()) {
      while (pos_ < order_.size()) {
        const std::uint64_t i = order_[pos_++];
        if (!seen_.insert(i).second) continue;
        return space_.at(i);
      }
      return std::nullopt;
    }
    // A space too large to list: draw until something new turns up; give up
    // when draws keep repeating (the space is nearly exhausted).
    std::uniform_int_distribution<std::uint64_t> pick(0, space_.raw_size() - 1);
    for (int tries = 0; tries < 10000; ++tries) {
      const std::uint64_t i = pick(rng_);
      if (seen_.insert(i).second) return space_.at(i);
    }
    return std::nullopt;
  }
  void report(const Params&, Outcome o, double) override {
    if (o != Outcome::Rejected) ++done_;
  }
  std::uint64_t planned() const override { return target_; }

 private:
  const SearchSpace& space_;
  std::mt19937_64 rng_;
  std::uint64_t target_, done_ = 0;
  std::optional<std::uint64_t> base_;
  std::vector<std::uint64_t> order_;
  std::size_t pos_ = 0;
  std::unordered_set<std::uint64_t> seen_;
};

// Simulated annealing from the base: propose an unvisited neighbour (one
// parameter moved to an adjacent candidate), accept it when faster, or when
// slower with probability exp(-relative slow-down / T). T falls geometrically
// from kT0 to kT1 over the planned evaluations. Never revisits a point (the
// tuner would only re-measure it); when the neighbourhood is used up it
// continues from the best point, then jumps to a random unvisited one.
class Annealing : public SearchStrategy {
 public:
  static constexpr double kT0 = 0.5, kT1 = 0.01;

  Annealing(const TuneOptions& o, const SearchSpace& s, double base_seconds)
      : space_(s), rng_(o.seed), target_(target_count(o, s)), current_(s.base()), best_(s.base()),
        current_t_(base_seconds), best_t_(base_seconds) {
    if (auto i = s.index_of(s.base())) visited_.insert(*i);
  }

  std::optional<Params> next() override {
    if (done_ >= target_) return std::nullopt;
    for (const Params* from : {&current_, &best_}) {
      std::vector<std::pair<std::uint64_t, Params>> fresh;
      for (Params& q : space_.neighbours(*from))
        if (auto i = space_.index_of(q); i && !visited_.count(*i)) fresh.emplace_back(*i, std::move(q));
      if (!fresh.empty()) {
        std::uniform_int_distribution<std::size_t> pick(0, fresh.size() - 1);
        auto& chosen = fresh[pick(rng_)];
        visited_.insert(chosen.first);
        return std::move(chosen.second);
      }
    }
    return jump();
  }

  void report(const Params& p, Outcome o, double seconds) override {
    if (o == Outcome::Rejected) return;
    ++done_;
    if (o == Outcome::Failed || !std::isfinite(seconds)) return;
    if (seconds < best_t_) best_ = p, best_t_ = seconds;
    const double t = kT0 * std::pow(kT1 / kT0, double(done_) / double(target_));
    const double worse = current_t_ > 0 ? (seconds - current_t_) / current_t_ : 0;
    std::uniform_real_distribution<double> u(0, 1);
    if (worse <= 0 || u(rng_) < std::exp(-worse / t)) current_ = p, current_t_ = seconds;
  }

  std::uint64_t planned() const override { return target_; }

 private:
  std::optional<Params> jump() {
    if (const auto& valid = space_.valid()) {
      std::vector<std::uint64_t> left;
      for (std::uint64_t i : *valid)
        if (!visited_.count(i)) left.push_back(i);
      if (left.empty()) return std::nullopt;
      const std::uint64_t i = left[std::uniform_int_distribution<std::size_t>(0, left.size() - 1)(rng_)];
      visited_.insert(i);
      return space_.at(i);
    }
    std::uniform_int_distribution<std::uint64_t> pick(0, space_.raw_size() - 1);
    for (int tries = 0; tries < 10000; ++tries)
      if (const std::uint64_t i = pick(rng_); visited_.insert(i).second) return space_.at(i);
    return std::nullopt;
  }

  const SearchSpace& space_;
  std::mt19937_64 rng_;
  std::uint64_t target_, done_ = 0;
  Params current_, best_;
  double current_t_, best_t_;
  std::unordered_set<std::uint64_t> visited_;
};

}  // namespace

std::unique_ptr<SearchStrategy> make_strategy(const TuneOptions& options, const SearchSpace& space,
                                              double base_seconds) {
  switch (options.strategy) {
    case Strategy::Exhaustive: return std::make_unique<Exhaustive>(space);
    case Strategy::Random: return std::make_unique<RandomSampling>(options, space);
    case Strategy::Anneal: return std::make_unique<Annealing>(options, space, base_seconds);
  }
  return std::make_unique<Exhaustive>(space);
}

}  // namespace optune::detail
