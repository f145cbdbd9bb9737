// The search space of one tuning run: the cartesian product of a family's
// parameter candidates, with the parameters not being searched pinned to a
// base configuration. Points are addressed by a mixed-radix index so that
// strategies can enumerate and sample without materialising the product;
// family.check() filters it lazily.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/descriptor.hpp"

namespace optune::detail {

class SearchSpace {
 public:
  // Up to this many raw points the valid ones are listed up front (exact
  // progress totals, sampling without rejection); beyond it, lazily.
  static constexpr std::uint64_t kEnumerateLimit = 1u << 16;

  // vary: names of the parameters to search (empty: all); the others keep
  // their value from base (completed with the family's defaults).
  SearchSpace(const KernelFamily& family, const Capabilities& caps, const Problem& problem,
              const std::vector<std::string>& vary, const Params& base);

  std::size_t dims() const { return axes_.size(); }
  const std::vector<Parameter>& axes() const { return axes_; }
  // Number of raw points (saturates at UINT64_MAX).
  std::uint64_t raw_size() const { return raw_size_; }
  Params at(std::uint64_t index) const;
  // nullopt when some value is not a candidate of its axis.
  std::optional<std::uint64_t> index_of(const Params& p) const;
  // "" when the family accepts p on this device and problem; else why not.
  std::string check(const Params& p) const;

  // Indices of the valid points in index order, when raw_size() is small
  // enough to list; nullopt otherwise.
  const std::optional<std::vector<std::uint64_t>>& valid() const;
  // Valid count when listed, else the raw size (an upper bound).
  std::uint64_t size_estimate() const;

  // Points that differ from p in one parameter, moved to an adjacent
  // candidate value (the annealing neighbourhood); may include invalid ones.
  std::vector<Params> neighbours(const Params& p) const;
  const Params& base() const { return base_; }

 private:
  const KernelFamily& family_;
  Capabilities caps_;
  Problem problem_;
  Params base_;
  std::vector<Parameter> axes_;  // every family parameter; pinned ones have one value
  std::uint64_t raw_size_ = 1;
  mutable bool listed_ = false;
  mutable std::optional<std::vector<std::uint64_t>> valid_;
};

}  // namespace optune::detail
