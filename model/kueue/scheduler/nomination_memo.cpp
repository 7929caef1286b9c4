#include "model/kueue/scheduler/nomination_memo.h"

#include <algorithm>

#include "model/fnv.h"

namespace chaintwin::model {

uint32_t NominationMemo::Generations::intern(const std::string& name) {
  if (const uint32_t* known = index.find(name)) return *known;
  const auto added = static_cast<uint32_t>(of.size());
  index.try_emplace(name, added);
  of.push_back(0);
  return added;
}

void NominationMemo::invalidate_all() {
  entries_.clear();
  shape_entries_.clear();
  remembered_ = 0;
}

void NominationMemo::invalidate_cluster_queue(const std::string& cluster_queue) {
  queues_.of[queues_.intern(cluster_queue)] = ++counter_;
}

void NominationMemo::invalidate_flavor(const std::string& flavor) { flavors_.of[flavors_.intern(flavor)] = ++counter_; }

std::optional<NominationMemo::QueueIndex> NominationMemo::queue_index(const std::string& cluster_queue) const {
  if (const uint32_t* known = queues_.index.find(cluster_queue)) return *known;
  return std::nullopt;
}

std::optional<std::string> NominationMemo::failure(WorkloadRef workload, const std::string& cluster_queue) const {
  const auto queue = queue_index(cluster_queue);
  if (!queue) return std::nullopt;
  const std::string* message = failure_message(workload, *queue);
  if (message == nullptr) return std::nullopt;
  return *message;
}

bool NominationMemo::holds(const Entry& e, QueueIndex cluster_queue) const {
  if (!e.valid || e.cluster_queue != cluster_queue || e.queue_generation != queues_.of[cluster_queue]) return false;
  for (const auto& [flavor, gen] : e.flavors)
    if (gen != flavors_.of[flavor]) return false;
  return true;
}

const std::string* NominationMemo::failure_message(WorkloadRef workload, QueueIndex cluster_queue) const {
  if (workload.slot >= entries_.size()) return nullptr;
  const Entry& e = entries_[workload.slot];
  if (e.incarnation != workload.incarnation || !holds(e, cluster_queue)) return nullptr;
  return &e.message;
}

namespace {

// A cheap hash of a shape: equal shapes hash equal; shapes_by_hash_ compares whole values after it.
uint64_t shape_hash(const Workload& wl) {
  uint64_t h = kFnv64OffsetBasis;
  const auto mix = [&](uint64_t v) { h = (h ^ v) * kFnv64Prime; };
  mix(static_cast<uint64_t>(static_cast<uint32_t>(wl.priority)));
  for (const auto& ps : wl.pod_sets) {
    h = fnv1a64_update(h, ps.name);
    mix(static_cast<uint64_t>(ps.count));
    for (const auto* list : {&ps.template_.init_containers, &ps.template_.containers})
      for (const auto& c : *list)
        for (const auto& [name, q] : c.requests) {
          h = fnv1a64_update(h, name);
          mix(static_cast<uint64_t>(q.milli_value_ceil()));
        }
  }
  return h;
}

}  // namespace

uint32_t NominationMemo::shape_of(WorkloadRef workload, const Workload& wl) {
  if (workload.slot >= slot_shape_.size()) slot_shape_.resize(workload.slot + 1, {0, 0});
  auto& cached = slot_shape_[workload.slot];
  if (cached.second != 0 && cached.first == workload.incarnation) return cached.second - 1;
  auto& bucket = shapes_by_hash_[shape_hash(wl)];
  uint32_t shape = 0;
  const auto same = std::find_if(bucket.begin(), bucket.end(), [&](uint32_t i) {
    return shapes_[i].priority == wl.priority && shapes_[i].pod_sets == wl.pod_sets;
  });
  if (same != bucket.end()) {
    shape = *same;
  } else {
    shape = static_cast<uint32_t>(shapes_.size());
    shapes_.push_back({wl.priority, wl.pod_sets});
    bucket.push_back(shape);
  }
  cached = {workload.incarnation, shape + 1};
  return shape;
}

std::optional<std::string> NominationMemo::failure(WorkloadRef workload, const std::string& cluster_queue,
                                                   const Workload* shareable) {
  if (auto own = failure(workload, cluster_queue)) return own;
  if (shareable == nullptr || workload.slot == kNoWorkloadSlot) return std::nullopt;
  const auto queue = queue_index(cluster_queue);
  if (!queue) return std::nullopt;
  const uint32_t shape = shape_of(workload, *shareable);
  if (shape >= shape_entries_.size()) return std::nullopt;
  for (const Entry& e : shape_entries_[shape]) {
    if (!holds(e, *queue)) continue;
    // The head's own entry takes the shared verdict, generations and all (idle cycles ask by head).
    if (workload.slot >= entries_.size()) entries_.resize(workload.slot + 1);
    Entry& own = entries_[workload.slot];
    if (!own.valid) ++remembered_;
    own = e;
    own.incarnation = workload.incarnation;
    return e.message;
  }
  return std::nullopt;
}

void NominationMemo::fill(Entry& e, QueueIndex cluster_queue, std::string message,
                          const std::vector<std::string>& tas_flavors) {
  e.valid = true;
  e.cluster_queue = cluster_queue;
  e.queue_generation = queues_.of[cluster_queue];
  e.message = std::move(message);
  e.flavors.clear();
  for (const auto& f : tas_flavors) {
    const uint32_t i = flavors_.intern(f);
    e.flavors.emplace_back(i, flavors_.of[i]);
  }
}

void NominationMemo::remember_failure(WorkloadRef workload, const std::string& cluster_queue, std::string message,
                                      const std::vector<std::string>& tas_flavors, const Workload* shareable) {
  if (workload.slot == kNoWorkloadSlot) return;  // not tracked by a QueueManager: nothing to key it by
  if (workload.slot >= entries_.size()) entries_.resize(workload.slot + 1);
  const QueueIndex queue = queues_.intern(cluster_queue);
  if (shareable != nullptr) {
    const uint32_t shape = shape_of(workload, *shareable);
    if (shape >= shape_entries_.size()) shape_entries_.resize(shape + 1);
    auto& per_queue = shape_entries_[shape];
    auto at = std::find_if(per_queue.begin(), per_queue.end(), [&](const Entry& e) { return e.cluster_queue == queue; });
    if (at == per_queue.end()) at = per_queue.insert(per_queue.end(), Entry{});
    fill(*at, queue, message, tas_flavors);
  }
  Entry& e = entries_[workload.slot];
  if (!e.valid) ++remembered_;
  e.incarnation = workload.incarnation;
  fill(e, queue, std::move(message), tas_flavors);
}

void NominationMemo::forget(WorkloadRef workload) {
  if (workload.slot >= entries_.size()) return;
  Entry& e = entries_[workload.slot];
  if (!e.valid || e.incarnation != workload.incarnation) return;
  e.valid = false;
  --remembered_;
}

}  // namespace chaintwin::model
