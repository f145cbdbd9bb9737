#include "runtime/event_span.hpp"

#include <algorithm>

namespace optune::detail {

namespace {

class SpanEventImpl : public EventImpl {
 public:
  SpanEventImpl(EventPtr first, EventPtr last) : first_(std::move(first)), last_(std::move(last)) {}
  void wait() override {
    first_->wait();
    last_->wait();
  }
  bool complete() override { return first_->complete() && last_->complete(); }
  EventTimes times() override {
    EventTimes a = first_->times();
    const EventTimes b = last_->times();
    a.end = std::max(b.end, a.end);
    return a;
  }

 private:
  EventPtr first_, last_;
};

}  // namespace

void EventSpan::add(const Event& e) {
  if (!e.valid()) return;
  if (!first_.valid()) first_ = e;
  last_ = e;
}

Event EventSpan::result() const {
  if (!first_.valid() || first_.impl() == last_.impl()) return last_;
  return Event(std::make_shared<SpanEventImpl>(first_.impl(), last_.impl()));
}

}  // namespace optune::detail
