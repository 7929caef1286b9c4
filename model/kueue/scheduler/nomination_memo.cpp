#include "model/kueue/scheduler/nomination_memo.h"

namespace chaintwin::model {

uint32_t NominationMemo::Generations::intern(const std::string& name) {
  const auto [it, added] = index.emplace(name, static_cast<uint32_t>(of.size()));
  if (added) of.push_back(0);
  return it->second;
}

void NominationMemo::invalidate_all() {
  entries_.clear();
  remembered_ = 0;
}

void NominationMemo::invalidate_cluster_queue(const std::string& cluster_queue) {
  queues_.of[queues_.intern(cluster_queue)] = ++counter_;
}

void NominationMemo::invalidate_flavor(const std::string& flavor) { flavors_.of[flavors_.intern(flavor)] = ++counter_; }

std::optional<NominationMemo::QueueIndex> NominationMemo::queue_index(const std::string& cluster_queue) const {
  const auto it = queues_.index.find(cluster_queue);
  if (it == queues_.index.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> NominationMemo::failure(WorkloadRef workload, const std::string& cluster_queue) const {
  const auto queue = queue_index(cluster_queue);
  if (!queue) return std::nullopt;
  const std::string* message = failure_message(workload, *queue);
  if (message == nullptr) return std::nullopt;
  return *message;
}

const std::string* NominationMemo::failure_message(WorkloadRef workload, QueueIndex cluster_queue) const {
  if (workload.slot >= entries_.size()) return nullptr;
  const Entry& e = entries_[workload.slot];
  if (!e.valid || e.incarnation != workload.incarnation || e.cluster_queue != cluster_queue ||
      e.queue_generation != queues_.of[cluster_queue])
    return nullptr;
  for (const auto& [flavor, gen] : e.flavors)
    if (gen != flavors_.of[flavor]) return nullptr;
  return &e.message;
}

void NominationMemo::remember_failure(WorkloadRef workload, const std::string& cluster_queue, std::string message,
                                      const std::vector<std::string>& tas_flavors) {
  if (workload.slot == kNoWorkloadSlot) return;  // not tracked by a QueueManager: nothing to key it by
  if (workload.slot >= entries_.size()) entries_.resize(workload.slot + 1);
  Entry& e = entries_[workload.slot];
  if (!e.valid) ++remembered_;
  e.valid = true;
  e.incarnation = workload.incarnation;
  e.cluster_queue = queues_.intern(cluster_queue);
  e.queue_generation = queues_.of[e.cluster_queue];
  e.message = std::move(message);
  e.flavors.clear();
  for (const auto& f : tas_flavors) {
    const uint32_t i = flavors_.intern(f);
    e.flavors.emplace_back(i, flavors_.of[i]);
  }
}

void NominationMemo::forget(WorkloadRef workload) {
  if (workload.slot >= entries_.size()) return;
  Entry& e = entries_[workload.slot];
  if (!e.valid || e.incarnation != workload.incarnation) return;
  e.valid = false;
  --remembered_;
}

}  // namespace chaintwin::model
