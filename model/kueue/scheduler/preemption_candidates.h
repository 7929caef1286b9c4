// Which admitted Workloads of a ClusterQueue a preemptor may evict, and in which order Kueue
// tries them (pkg/scheduler/preemption: findCandidates, common/ordering.go CandidatesOrdering,
// v0.14), for the chain's isolated ClusterQueues (no cohort: only spec.preemption.
// withinClusterQueue applies). Called by the preemption search (preemption.h) and its tests.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/cluster_state.h"
#include "model/kueue/scheduler/reserving_keys.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// (flavor, resource).
using FlavorResource = std::pair<std::string, std::string>;

// What the ordering reads of one candidate.
struct PreemptionCandidate {
  std::string key;           // "<ns>/<name>"
  bool evicted = false;      // Evicted=True already (a preemption under way)
  int32_t priority = 0;
  TimeUs reserved_at = 0;    // when its quota was reserved (QuotaReserved's transition time)
  std::string uid;           // Kueue's last tie-break; the key when the Workload has none
  // Admission fair sharing in the preemptor's ClusterQueue: the candidate's LocalQueue and its usage.
  std::string local_queue;
  std::optional<double> local_queue_usage;
  bool operator==(const PreemptionCandidate&) const = default;
};

// A LocalQueue's admission-fair-sharing usage ("<ns>/<name>"; admission_fair_sharing.h).
using LocalQueueUsageFn = std::function<double(const std::string& local_queue)>;

// `afs`: given when the candidate's ClusterQueue orders by admission fair sharing.
PreemptionCandidate preemption_candidate(const Workload& wl, const LocalQueueUsageFn* afs = nullptr);

// Kueue's CandidatesOrdering within one ClusterQueue: already evicted first, then (admission fair
// sharing, candidates of two LocalQueues) the higher LocalQueue usage, then lower priority, then
// the most recently reserved, then UID.
bool candidate_before(const PreemptionCandidate& a, const PreemptionCandidate& b);

// The admitted (QuotaReserved, not finished) Workloads of `cq` that use one of `contested` and
// that withinClusterQueue lets `preemptor` evict — LowerPriority: a lower priority;
// LowerOrNewerEqualPriority: a lower priority, or the same one and a newer queue-order time;
// Never (or empty): none — sorted by candidate_before. `reserving`: when given, the keys of the
// Workloads holding quota in `cq` (a superset is fine); without it every Workload is looked at.
// `afs`: given when `cq` orders by admission fair sharing.
std::vector<const Workload*> preemption_candidates(const ClusterQueue& cq, const Workload& preemptor,
                                                   const std::set<FlavorResource>& contested,
                                                   const WorkloadState& workloads,
                                                   const ReservingKeys* reserving = nullptr,
                                                   const LocalQueueUsageFn* afs = nullptr);

// Whether a Workload's admission uses one of `contested` (WorkloadUsesResources).
bool uses_any_of(const Workload& wl, const std::set<FlavorResource>& contested);

// A preemption policy's verdict on one candidate (satisfiesPreemptionPolicy): LowerPriority — a
// lower priority; LowerOrNewerEqualPriority — a lower one, or the same and a newer queue-order
// time; Any — every priority (reclaimWithinCohort only); Never or empty — none.
bool preemption_policy_allows(const std::string& policy, const Workload& preemptor, const Workload& candidate);

// Whether spec.preemption.withinClusterQueue lets anything be preempted (not Never / empty).
bool preempts_within_cluster_queue(const ClusterQueue& cq);

}  // namespace chaintwin::model
