// The event queue: events ordered by (time, insertion sequence), so two events at the same time
// come out in the order they were scheduled — the run is the same every time.
//
// The heap orders small fixed-size entries (time, sequence, slot); the payloads stay put in a slot
// table until popped, so sifting an entry up or down moves 24 bytes, never a payload (a SimEvent
// holds a string). Freed slots are reused, so a run's slot table is as large as its most pending
// events at once.
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
    uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<uint32_t>(payloads_.size());
      payloads_.push_back(std::move(payload));
    } else {
      slot = free_.back();
      free_.pop_back();
      payloads_[slot] = std::move(payload);
    }
    heap_.push_back(Entry{at.us(), seq, slot});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
    return seq;
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // When the earliest event is due (the queue must not be empty).
  SimTime next_at() const { return SimTime::micros(heap_.front().at_us); }
  // The earliest event, moved out.
  Event pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Entry e = heap_.back();
    heap_.pop_back();
    free_.push_back(e.slot);
    return Event{SimTime::micros(e.at_us), e.sequence, std::move(payloads_[e.slot])};
  }

 private:
  struct Entry {
    int64_t at_us;
    uint64_t sequence;
    uint32_t slot;  // index into payloads_
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      if (a.at_us != b.at_us) return a.at_us > b.at_us;
      return a.sequence > b.sequence;
    }
  };
  std::vector<Entry> heap_;        // a binary heap under Later (std::push_heap / std::pop_heap)
  std::vector<Payload> payloads_;  // by slot; a popped slot's payload is moved-from until reused
  std::vector<uint32_t> free_;     // slots popped and free for reuse
  uint64_t next_sequence_ = 0;
};

}  // namespace chaintwin::sim
