// The event queue: events ordered by (time, insertion sequence), so two events at the same time
// come out in the order they were scheduled — the run is the same every time.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "sim/sim_time.h"

namespace chaintwin::sim {

template <typename Payload>
class EventQueue {
 public:
  struct Event {
    SimTime at;
    uint64_t sequence = 0;
    Payload payload;
  };

  // Schedules `payload` at `at`; returns its sequence number (unique, increasing).
  uint64_t push(SimTime at, Payload payload) {
    const uint64_t seq = next_sequence_++;
    heap_.push(Event{at, seq, std::move(payload)});
    return seq;
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.top(); }
  Event pop() {
    Event e = heap_.top();
    heap_.pop();
    return e;
  }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      if (a.at != b.at) return a.at > b.at;
      return a.sequence > b.sequence;
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  uint64_t next_sequence_ = 0;
};

}  // namespace chaintwin::sim
