#include "tuning/space.hpp"

#include <algorithm>
#include <limits>

namespace optune::detail {

SearchSpace::SearchSpace(const KernelFamily& family, const Capabilities& caps, const Problem& problem,
                         const std::vector<std::string>& vary, const Params& base)
    : family_(family), caps_(caps), problem_(problem), base_(family.complete(base, caps)) {
  for (Parameter axis : family.parameters(caps)) {
    const bool searched = vary.empty() || std::find(vary.begin(), vary.end(), axis.name) != vary.end();
    if (!searched) axis.values = {base_.at(axis.name)};
    if (axis.values.empty()) axis.values = {axis.default_value};
    const std::uint64_t n = axis.values.size();
    raw_size_ = raw_size_ > std::numeric_limits<std::uint64_t>::max() / n ? std::numeric_limits<std::uint64_t>::max()
                                                                          : raw_size_ * n;
    axes_.push_back(std::move(axis));
  }
}

Params SearchSpace::at(std::uint64_t index) const {
  Params p;
  // The last axis varies fastest, so index order reads like nested loops in
  // the order the family lists its parameters.
  for (std::size_t i = axes_.size(); i-- > 0;) {
    const auto& v = axes_[i].values;
    p[axes_[i].name] = v[index % v.size()];
    index /= v.size();
  }
  return p;
}

std::optional<std::uint64_t> SearchSpace::index_of(const Params& p) const {
  std::uint64_t index = 0;
  for (const Parameter& axis : axes_) {
    auto it = p.find(axis.name);
    if (it == p.end()) return std::nullopt;
    auto pos = std::find(axis.values.begin(), axis.values.end(), it->second);
    if (pos == axis.values.end()) return std::nullopt;
    index = index * axis.values.size() + std::uint64_t(pos - axis.values.begin());
  }
  return index;
}

std::string SearchSpace::check(const Params& p) const {
  try {
    return family_.check(p, caps_, problem_);
  } catch (const std::exception& e) {
    // A descriptor that throws on odd values (at() on a missing name) rejects them.
    return std::string("check failed: ") + e.what();
  }
}

const std::optional<std::vector<std::uint64_t>>& SearchSpace::valid() const {
  if (!listed_) {
    listed_ = true;
    if (raw_size_ <= kEnumerateLimit) {
      std::vector<std::uint64_t> v;
      for (std::uint64_t i = 0; i < raw_size_; ++i)
        if (check(at(i)).empty()) v.push_back(i);
      valid_ = std::move(v);
    }
  }
  return valid_;
}

std::uint64_t SearchSpace::size_estimate() const {
  const auto& v = valid();
  return v ? v->size() : raw_size_;
}

std::vector<Params> SearchSpace::neighbours(const Params& p) const {
  std::vector<Params> out;
  for (const Parameter& axis : axes_) {
    if (axis.values.size() < 2) continue;
    auto it = p.find(axis.name);
    if (it == p.end()) continue;
    auto pos = std::find(axis.values.begin(), axis.values.end(), it->second);
    if (pos == axis.values.end()) continue;
    const std::size_t i = std::size_t(pos - axis.values.begin());
    for (std::size_t j : {i - 1, i + 1}) {
      if (j >= axis.values.size()) continue;  // i - 1 wraps past the end when i == 0
      Params q = p;
      q[axis.name] = axis.values[j];
      out.push_back(std::move(q));
    }
  }
  return out;
}

}  // namespace optune::detail
