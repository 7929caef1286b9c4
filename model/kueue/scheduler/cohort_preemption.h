// Kueue's classical preemption for a ClusterQueue in a cohort (v0.14.8, unchanged in substance to
// v0.20-devel): preemption/classical/hierarchical_preemption.go (the variants and the gathering of
// candidates up the cohort tree), classical/candidate_generator.go (the order and the validity
// re-check) and preemption.go classicalPreemptions / workloadFits / fillBackWorkloads (the attempts
// with and without borrowing). The isolated queues of the operator take the plain search of
// preemption.h; a ClusterQueue in a cohort takes this one. Pure; called by schedule_cycle.
//
// Candidates: the preemptor's own queue's Workloads under withinClusterQueue; and, when the queue
// has a parent and reclaimWithinCohort is not Never, the Workloads of other queues in the tree that
// are over their nominal quota on a contested (flavor, resource) — walking up from the queue's
// parent, each ancestor's subtree minus the part already visited, descending only into cohorts that
// are over their subtree quota. A candidate is a hierarchical-reclaim one when the preemptor's
// request fits in the quota of the subtree walked so far (then any priority goes), else it must pass
// reclaimWithinCohort's priority test and is ReclaimWithoutBorrowing (borrowWithinCohort Never or
// unset, priority not lower, or above maxPriorityThreshold) or ReclaimWhileBorrowing. Order:
// evicted first, then hierarchical, priority and same-queue lists, each by CandidatesOrdering
// (other queue first, lower priority, newer reservation, UID).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "model/cluster_state.h"
#include "model/kueue/scheduler/preemption_candidates.h"
#include "model/kueue/scheduler/quota_tree.h"
#include "model/kueue/scheduler/reserving_keys.h"
#include "model/kueue/scheduler/transitions.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

enum class PreemptionVariant : uint8_t { kWithinClusterQueue, kHierarchicalReclaim, kReclaimWithoutBorrowing, kReclaimWhileBorrowing };

// The Preempted condition's reason for a variant: InClusterQueue, InCohortReclamation (hierarchical
// and without borrowing) or InCohortReclaimWhileBorrowing.
TransitionReason preemption_reason(PreemptionVariant v);

struct CohortCandidate {
  const Workload* workload = nullptr;
  std::string key;                             // "<ns>/<name>"
  std::string cluster_queue;                   // the candidate's ClusterQueue
  QuotaTree::NodeId lca = QuotaTree::kNone;    // the subtree root it was found under (none: same queue)
  PreemptionVariant variant = PreemptionVariant::kWithinClusterQueue;
};

struct CohortCandidates {
  std::vector<CohortCandidate> ordered;  // Kueue's iteration order
  bool none_from_other_queues = true;
  bool none_for_hierarchical_reclaim = true;
};

// The candidates of `preemptor` in `cq` for the contested (flavor, resource) pairs, `request`
// being the preemptor's whole quota request. `reserving`: the keys of the Workloads holding quota,
// by ClusterQueue (null: every Workload is looked at).
CohortCandidates cohort_preemption_candidates(const QuotaTree& tree, const UsageSnapshot& usage, const ClusterQueue& cq,
                                              const Workload& preemptor, const std::set<FlavorResource>& contested,
                                              const FlavorResourceAmounts& request, const WorkloadState& workloads,
                                              const ReservingByQueue* reserving, const QuotaUsage* bound = nullptr,
                                              const LocalQueueUsageFn* afs = nullptr);

// (`bound`, when given, is `usage` bound to `tree`: the same answers, found faster.)

// The Workloads holding quota in one ClusterQueue (not finished), in no particular order (sort
// with order_cohort_candidates). `reserving`: as for cohort_preemption_candidates.
std::vector<std::pair<const std::string*, const Workload*>> quota_holders(const std::string& cluster_queue,
                                                                         const WorkloadState& workloads,
                                                                         const ReservingByQueue* reserving);

// Kueue's CandidatesOrdering across a cohort (common/ordering.go): already evicted first, then
// other queues' before `own_queue`'s, then candidate_before (lower priority, newer reservation, UID).
// `afs`: given when own_queue orders by admission fair sharing; its candidates then compare by their
// LocalQueues' usage too (the other queues' do not: see docs/fidelity.md).
void order_cohort_candidates(std::vector<CohortCandidate>& list, const std::string& own_queue,
                             const LocalQueueUsageFn* afs = nullptr);

// A target of the search: the Workload and why it is preempted.
struct PreemptionTarget {
  std::string key;
  TransitionReason reason = TransitionReason::kInClusterQueue;
  bool operator==(const PreemptionTarget&) const = default;
};

// Whether the preemptor also fits beyond quota (its TAS placement) on `usage`.
using BeyondQuotaFits = std::function<bool(const UsageSnapshot& usage)>;

// classicalPreemptions: the attempts (with borrowing first, or without first when borrowing within
// the cohort is forbidden and no hierarchical candidate exists, or with only when no other queue
// has a candidate or the queue is at its nominal quota on a contested resource), each taking valid
// candidates in order until workloadFits (every fr of `request` within Available, and not
// borrowing unless the attempt allows it; and `beyond_quota`), then filling back. None when no
// attempt fits. `usage` is copied, not changed.
std::vector<PreemptionTarget> cohort_preemption_targets(const QuotaTree& tree, const UsageSnapshot& usage,
                                                        const ClusterQueue& cq, const CohortCandidates& candidates,
                                                        const std::set<FlavorResource>& contested,
                                                        const FlavorResourceAmounts& request,
                                                        const BeyondQuotaFits& beyond_quota,
                                                        const QuotaUsage* bound = nullptr);

}  // namespace chaintwin::model
