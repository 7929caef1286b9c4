// The runner's bucket indexes: what is kept per bucket (the Workloads holding quota per ClusterQueue
// as keys; the Pods per Node and the Workloads reserving per Node as slot numbers), a bucket dropped
// once it is empty, so that a walk or lookup sees live buckets only.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "model/flat_string_index.h"

namespace chaintwin::sim {

// Takes `key` out of `index[bucket]`, dropping the bucket once it is empty.
template <typename Index>
void erase_from(Index& index, const std::string& bucket, const std::string& key) {
  const auto it = index.find(bucket);
  if (it == index.end()) return;
  it->second.erase(key);
  if (it->second.empty()) index.erase(it);
}

// Slot numbers per bucket, each bucket's in no order: only looked up, never walked in order.
template <typename Slot>
using SlotBuckets = model::FlatStringMap<std::vector<Slot>>;

// Puts `slot` in `bucket` (once: a slot already there stays single).
template <typename Slot>
void add_slot(SlotBuckets<Slot>& index, const std::string& bucket, Slot slot) {
  std::vector<Slot>& in = *index.try_emplace(bucket).first;
  if (std::find(in.begin(), in.end(), slot) == in.end()) in.push_back(slot);
}

// Takes `slot` out of `bucket` (the last slot takes its place), dropping the bucket once it is empty.
template <typename Slot>
void remove_slot(SlotBuckets<Slot>& index, const std::string& bucket, Slot slot) {
  std::vector<Slot>* in = index.find(bucket);
  if (in == nullptr) return;
  if (const auto it = std::find(in->begin(), in->end(), slot); it != in->end()) {
    *it = in->back();
    in->pop_back();
  }
  if (in->empty()) index.erase(bucket);
}

}  // namespace chaintwin::sim
