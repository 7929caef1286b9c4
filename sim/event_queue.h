// The event queue: events ordered by (time, insertion sequence), so two events at the same time
// come out in the order they were scheduled — the run is the same every time.
#pragma once

#include <cstdint>
#include <algorithm>
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
    heap_.push_back(Event{at, seq, std::move(payload)});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
    return seq;
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  // The earliest event, moved out (a priority_queue's top can only be copied).
  Event pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    Event e = std::move(heap_.back());
    heap_.pop_back();
    return e;
  }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      if (a.at != b.at) return a.at > b.at;
      return a.sequence > b.sequence;
    }
  };
  std::vector<Event> heap_;  // a binary heap under Later (std::push_heap / std::pop_heap)
  uint64_t next_sequence_ = 0;
};

}  // namespace chaintwin::sim
