#include "model/kueue/scheduler/preemption_candidates.h"

#include <algorithm>

#include "model/kueue/scheduler/queue_manager.h"

namespace chaintwin::model {
bool uses_any_of(const Workload& wl, const std::set<FlavorResource>& contested) {
  if (!wl.status.admission) return false;
  for (const auto& psa : wl.status.admission->pod_set_assignments)
    for (const auto& [resource, flavor] : psa.flavors)
      if (contested.count({flavor, resource}) != 0) return true;
  return false;
}

bool preemption_policy_allows(const std::string& policy, const Workload& preemptor, const Workload& candidate) {
  if (policy == "LowerPriority") return candidate.priority < preemptor.priority;
  if (policy == "LowerOrNewerEqualPriority") {
    if (candidate.priority != preemptor.priority) return candidate.priority < preemptor.priority;
    // Equal priority: only a candidate whose queue-order time is after the preemptor's.
    return queue_entry(preemptor).order_time < queue_entry(candidate).order_time;
  }
  return policy == "Any";
}

PreemptionCandidate preemption_candidate(const Workload& wl, const LocalQueueUsageFn* afs) {
  const Condition* evicted = find_condition(wl.status.conditions, kWorkloadEvicted);
  PreemptionCandidate c;
  c.key = object_key(wl.metadata);
  c.evicted = evicted != nullptr && evicted->status == "True";
  c.priority = wl.priority;
  c.reserved_at = wl.status.quota_reserved_time;
  c.uid = wl.metadata.uid.empty() ? c.key : wl.metadata.uid;
  if (afs != nullptr) {
    c.local_queue = wl.metadata.namespace_ + "/" + wl.queue_name;
    c.local_queue_usage = (*afs)(c.local_queue);
  }
  return c;
}

bool candidate_before(const PreemptionCandidate& a, const PreemptionCandidate& b) {
  if (a.evicted != b.evicted) return a.evicted;
  if (a.local_queue_usage && b.local_queue_usage && a.local_queue != b.local_queue &&
      *a.local_queue_usage != *b.local_queue_usage)
    return *a.local_queue_usage > *b.local_queue_usage;
  if (a.priority != b.priority) return a.priority < b.priority;
  if (a.reserved_at != b.reserved_at) return a.reserved_at > b.reserved_at;
  if (a.uid != b.uid) return a.uid < b.uid;
  return a.key < b.key;
}

bool preempts_within_cluster_queue(const ClusterQueue& cq) {
  const std::string& p = cq.spec.preemption.within_cluster_queue;
  return p == "LowerPriority" || p == "LowerOrNewerEqualPriority";
}

std::vector<const Workload*> preemption_candidates(const ClusterQueue& cq, const Workload& preemptor,
                                                   const std::set<FlavorResource>& contested,
                                                   const WorkloadState& workloads,
                                                   const ReservingKeys* reserving, const LocalQueueUsageFn* afs) {
  std::vector<const Workload*> out;
  if (!preempts_within_cluster_queue(cq) || contested.empty()) return out;
  const std::string& policy = cq.spec.preemption.within_cluster_queue;
  const std::string self = object_key(preemptor.metadata);
  // Every test must hold; the cheap ones (the policy compares priorities) go first, and the
  // Workload's key is the one it is stored under, not built again.
  const auto eligible = [&](const std::string& key, const Workload& wl) {
    if (!wl.status.admission || !preemption_policy_allows(policy, preemptor, wl)) return false;
    if (wl.status.admission->cluster_queue != cq.metadata.name || key == self || wl.finished()) return false;
    return uses_any_of(wl, contested);
  };
  if (reserving != nullptr) {
    // The reserving keys come in no order: the eligible ones are put in key order, as the walk
    // over the whole table would find them (only they are sorted, not every key).
    std::vector<std::pair<const std::string*, const Workload*>> found;
    for (const auto& key : *reserving)
      if (const auto it = workloads.workloads.find(key); it != workloads.workloads.end() && eligible(it->first, it->second))
        found.emplace_back(&it->first, &it->second);
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
    for (const auto& [key, wl] : found) out.push_back(wl);
  } else {
    for (const auto* kv : workloads.workloads.in_key_order())
      if (eligible(kv->first, kv->second)) out.push_back(&kv->second);
  }
  std::vector<std::pair<PreemptionCandidate, const Workload*>> keyed;
  keyed.reserve(out.size());
  for (const Workload* w : out) keyed.emplace_back(preemption_candidate(*w, afs), w);
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return candidate_before(a.first, b.first); });
  for (std::size_t i = 0; i < keyed.size(); ++i) out[i] = keyed[i].second;
  return out;
}

}  // namespace chaintwin::model
