#include "model/kueue/scheduler/cycle_cadence.h"

#include <algorithm>

namespace chaintwin::model {

void CycleCadence::cycle_ran(int64_t at, bool progressed) {
  // toggleBackoff: KeepGoing clears the backoff, SlowDown starts it at 1 ms (or keeps it).
  if (progressed) backoff_ = 0;
  else if (backoff_ == 0) backoff_ = kInitialBackoffUs;
  // The iteration ends when both its cycle and its timer are done; the next one starts its timer
  // with the current backoff, which Backoff() then doubles (capped).
  iteration_start_ = std::max(at + cost_us_, iteration_start_ + timer_);
  timer_ = backoff_;
  backoff_ = std::min(backoff_ * 2, kMaxBackoffUs);
}

int64_t CycleCadence::idle_cycles_until(int64_t now, int64_t last, int64_t max_cycles) const {
  CycleCadence c = *this;
  int64_t at = c.next_cycle_at(now);
  int64_t n = 0;
  while (n < max_cycles && at <= last) {
    ++n;
    c.cycle_ran(at, false);
    // Once the timer and the backoff are at their cap and a cycle is not slower than the cap,
    // cycles fall every kMaxBackoffUs: count the rest at once.
    if (c.timer_ == kMaxBackoffUs && c.backoff_ == kMaxBackoffUs && c.cost_us_ <= kMaxBackoffUs) {
      const int64_t next = c.iteration_start_;
      if (next > last) break;
      const int64_t more = (last - next) / kMaxBackoffUs + 1;
      return std::min(max_cycles, n + more);
    }
    at = c.next_cycle_at(at);
  }
  return n;
}

int64_t CycleCadence::run_idle(int64_t now, int64_t n) {
  int64_t at = now;
  for (int64_t i = 0; i < n; ++i) {
    at = next_cycle_at(i == 0 ? now : at);
    cycle_ran(at, false);
    if (timer_ == kMaxBackoffUs && backoff_ == kMaxBackoffUs && cost_us_ <= kMaxBackoffUs && i + 1 < n) {
      // The remaining cycles each start kMaxBackoffUs after the previous one.
      const int64_t rest = n - (i + 1);
      at = iteration_start_ + (rest - 1) * kMaxBackoffUs;
      iteration_start_ = at + kMaxBackoffUs;
      return at;
    }
  }
  return at;
}

}  // namespace chaintwin::model
