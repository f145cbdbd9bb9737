// What the tuner and the tests force instead of the database's choice for an
// operator made of candidates (GEMM, conv2d): a candidate by name (empty:
// the routine's choice) and parameters by family name. A scope makes the
// calls of one thread that pass no force use one (tests run the public entry
// points with forced configurations this way); each operator has its own
// scope type (its tag).
#pragma once

#include <map>
#include <string>

#include "kernels/descriptor.hpp"

namespace optune::detail {

struct CandidateForce {
  std::string candidate;
  std::map<std::string, Params> params;
  // GEMM: values merged onto a family's parameters wherever they come from
  // (database, OPTUNE_PARAMS or `params`), unlike `params`, which replace
  // them; blas3's GEMM parameter names the routine's KERNEL this way.
  std::map<std::string, Params> overlay;
  const Params* find(const std::string& family) const {
    auto it = params.find(family);
    return it == params.end() ? nullptr : &it->second;
  }
  Params with_overlay(const std::string& family, Params p) const {
    if (auto it = overlay.find(family); it != overlay.end())
      for (const auto& [name, value] : it->second) p[name] = value;
    return p;
  }
};

template <class Tag>
class ForceScope {
 public:
  explicit ForceScope(const CandidateForce& f) : previous_(current_) { current_ = &f; }
  ~ForceScope() { current_ = previous_; }
  ForceScope(const ForceScope&) = delete;
  ForceScope& operator=(const ForceScope&) = delete;
  // The innermost scope's force on this thread, or nullptr.
  static const CandidateForce* current() { return current_; }

 private:
  static inline thread_local const CandidateForce* current_ = nullptr;
  const CandidateForce* previous_;
};

}  // namespace optune::detail
