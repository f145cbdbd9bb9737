// An Event spanning the kernels one call enqueued: its start is the first's
// and its end the last's, so an operator made of several passes is timed and
// waited on as one.
#pragma once

#include "runtime/backend.hpp"

namespace optune::detail {

class EventSpan {
 public:
  void add(const Event& e);
  Event result() const;

 private:
  Event first_, last_;
};

}  // namespace optune::detail
