#include "model/kueue/scheduler/nomination_memo.h"

namespace chaintwin::model {

void NominationMemo::invalidate_all() { entries_.clear(); }

void NominationMemo::invalidate_cluster_queue(const std::string& cluster_queue) {
  queue_generation_[cluster_queue] = ++counter_;
}

void NominationMemo::invalidate_flavor(const std::string& flavor) { flavor_generation_[flavor] = ++counter_; }

uint64_t NominationMemo::generation(const std::map<std::string, uint64_t>& of, const std::string& name) const {
  const auto it = of.find(name);
  return it == of.end() ? 0 : it->second;
}

std::optional<std::string> NominationMemo::failure(const std::string& workload, const std::string& cluster_queue) const {
  const std::string* message = failure_message(workload, cluster_queue);
  if (message == nullptr) return std::nullopt;
  return *message;
}

const std::string* NominationMemo::failure_message(const std::string& workload, const std::string& cluster_queue) const {
  const auto it = entries_.find(workload);
  if (it == entries_.end()) return nullptr;
  const Entry& e = it->second;
  if (e.cluster_queue != cluster_queue || e.queue_generation != generation(queue_generation_, cluster_queue))
    return nullptr;
  for (const auto& [flavor, gen] : e.flavors)
    if (gen != generation(flavor_generation_, flavor)) return nullptr;
  return &e.message;
}

void NominationMemo::remember_failure(const std::string& workload, const std::string& cluster_queue,
                                      std::string message, const std::vector<std::string>& tas_flavors) {
  Entry e;
  e.cluster_queue = cluster_queue;
  e.message = std::move(message);
  e.queue_generation = generation(queue_generation_, cluster_queue);
  for (const auto& f : tas_flavors) e.flavors.emplace_back(f, generation(flavor_generation_, f));
  entries_[workload] = std::move(e);
}

void NominationMemo::forget(const std::string& workload) { entries_.erase(workload); }

}  // namespace chaintwin::model
