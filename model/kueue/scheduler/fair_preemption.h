// Kueue's preemption under fair sharing (v0.14.8 pkg/scheduler/preemption: preemption.go
// fairPreemptions, findCandidates, runFirstFsStrategy, runSecondFsStrategy, fillBackWorkloads; and
// fairsharing/ordering.go, target.go, strategy.go, least_common_ancestor.go — the same rules
// through v0.19) for a ClusterQueue in a cohort. An isolated queue under fair sharing takes the
// plain search of preemption.h, which picks the same victims. Pure; called by schedule_cycle.
//
// Candidates: the queue's own Workloads under withinClusterQueue; and, when reclaimWithinCohort is
// not Never, the Workloads of every other ClusterQueue of the tree that borrows on a contested
// (flavor, resource), under reclaimWithinCohort's priority test (borrowWithinCohort is not read).
// Each must use a contested pair; all are sorted by CandidatesOrdering.
//
// The search, with the preemptor's request added to its queue's usage (so that every share
// counts it): the target queue is chosen from the root down — at each Cohort the child with the
// largest dominant resource share, a child Cohort by its own share (one on the preemptor's path
// competes even at zero) against the largest ClusterQueue, a tie between queues going to the one
// whose next candidate comes first, a tie between a Cohort and a queue to the Cohort. The
// preemptor's own queue gives up its next candidate (InClusterQueue). Another queue's candidates
// are tried in order against the first strategy, comparing the shares at the almost-least-common-
// ancestors (the nodes just below the Cohort the two queues share): the first that passes is
// preempted (InCohortFairSharing) and the target is chosen again; those that fail are kept for the
// second strategy, which (S2-b) preempts at most one per queue, the queue's first, when the
// preemptor's share stays below the target's initial share. The search ends when the preemptor
// fits the quota left (borrowing allowed, its TAS placement too), and the victims are filled back
// from the second-to-last to the first. None when no strategy makes it fit.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "model/kueue/scheduler/cohort_preemption.h"
#include "model/kueue/scheduler/kueue_config.h"

namespace chaintwin::model {

// The fair-sharing candidates of `preemptor` in `cq` for the contested pairs, in Kueue's
// CandidatesOrdering. `bound`: the cycle's usage bound to cq's tree.
std::vector<CohortCandidate> fair_preemption_candidates(const QuotaTree& tree, const QuotaUsage& bound,
                                                        const ClusterQueue& cq, const Workload& preemptor,
                                                        const std::set<FlavorResource>& contested,
                                                        const WorkloadState& workloads,
                                                        const ReservingByQueue* reserving,
                                                        const LocalQueueUsageFn* afs = nullptr);

// The targets (in Kueue's order after the fill-back) with their reasons, or none. `request`: the
// preemptor's whole quota request; `usage`/`bound`: the cycle's snapshot and its binding (copied,
// not changed); `beyond_quota`: its TAS placement on the snapshot without the victims (may be
// empty). `strategies`: one or two, as KueueConfig holds them. `preempt_within_nominal`
// (FairSharingPreemptWithinNominal, v0.17): when the preemptor's queue, its request added, borrows
// on none of the `contested` pairs, another queue's candidates are taken in order without the
// strategies (reason InCohortReclamation).
std::vector<PreemptionTarget> fair_preemption_targets(const QuotaTree& tree, const UsageSnapshot& usage,
                                                      const QuotaUsage& bound, const ClusterQueue& cq,
                                                      const std::vector<CohortCandidate>& candidates,
                                                      const std::set<FlavorResource>& contested,
                                                      const FlavorResourceAmounts& request,
                                                      const std::vector<FairSharingStrategy>& strategies,
                                                      const BeyondQuotaFits& beyond_quota,
                                                      bool preempt_within_nominal = false);

}  // namespace chaintwin::model
