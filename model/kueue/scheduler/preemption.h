// Kueue's classical preemption search inside one ClusterQueue (pkg/scheduler/preemption/
// preemption.go classicalPreemptions / fillBackWorkloads, v0.14): take the candidates in order
// (preemption_candidates.h), removing each one's usage, until the preemptor fits; then, from the
// second-to-last victim back to the first, give each one its usage back and drop it from the set
// when the preemptor still fits. What "fits" means is the caller's: quota of the contested
// resources (the flavor assigner's oracle) or quota and TAS placement with the victims' Node usage
// gone (the scheduler's full search). Pure; called by schedule_cycle's nomination.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/kueue/scheduler/preemption_candidates.h"
#include "model/kueue/scheduler/transitions.h"
#include "model/kueue/scheduler/usage_snapshot.h"

namespace chaintwin::model {

// Whether the preemptor fits on `usage` (the snapshot with the current victims' usage removed).
using PreemptorFits = std::function<bool(const UsageSnapshot& usage)>;

// The victims (keys, in Kueue's target order), or none when even every candidate's removal leaves
// the preemptor short. `usage` is the cycle's snapshot; it is copied, not changed.
std::vector<std::string> minimal_victims(const std::vector<const Workload*>& candidates, const UsageSnapshot& usage,
                                         const PreemptorFits& fits);

// Quota-only fit of one ClusterQueue: every (flavor, resource) of `request` ≤ nominal − usage.
bool quota_fits(const ClusterQueue& cq, const FlavorResourceAmounts& request, const UsageSnapshot& usage);

// Kueue's message on a preempted Workload (preemptionMessage, v0.14): the preemptor's UID and its
// job's UID (label kueue.x-k8s.io/job-uid), "UNKNOWN" when missing, and the reason in words
// ("prioritization in the ClusterQueue", "reclamation within the cohort", "reclamation within the
// cohort while borrowing", "Fair Sharing within the cohort").
std::string preemption_message(const Workload& preemptor, TransitionReason reason = TransitionReason::kInClusterQueue);

}  // namespace chaintwin::model
