#include "sim/runner/workload_book.h"

namespace chaintwin::sim {

WorkloadBook::Entry& WorkloadBook::add(const std::string& key, size_t outcome) {
  if (Entry* known = find(key)) {
    known->outcome = outcome;
    return *known;
  }
  uint32_t slot;
  if (free_.empty()) {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  Entry& e = slots_[slot];
  e.key = key;
  e.outcome = outcome;
  e.tracked.reset();
  e.id.slot = slot;
  by_key_.emplace(std::string_view(e.key), slot);
  return e;
}

WorkloadBook::Entry* WorkloadBook::find(std::string_view key) {
  const uint32_t* slot = by_key_.find(key);
  return slot == nullptr ? nullptr : &slots_[*slot];
}

WorkloadBook::Entry* WorkloadBook::find(int64_t packed) {
  const WorkloadId id = WorkloadId::unpack(packed);
  if (id.slot >= slots_.size()) return nullptr;
  Entry& e = slots_[id.slot];
  return in_use(e) && e.id.generation == id.generation ? &e : nullptr;
}

Tracked* WorkloadBook::tracked(std::string_view key) {
  Entry* e = find(key);
  return e != nullptr && e->tracked ? &*e->tracked : nullptr;
}

void WorkloadBook::remove(Entry& entry) {
  if (!in_use(entry)) return;
  by_key_.erase(std::string_view(entry.key));
  entry.key.clear();
  entry.key.shrink_to_fit();
  entry.tracked.reset();
  ++entry.id.generation;
  free_.push_back(entry.id.slot);
}

}  // namespace chaintwin::sim
