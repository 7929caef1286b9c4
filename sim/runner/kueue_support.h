// What the twin's Kueue does not model yet, refused before a run rather than simulated wrongly:
// fair sharing (kueue.fairSharing.enable) with a ClusterQueue in a cohort that may preempt, since
// Kueue then searches victims by its fair-sharing strategies (preemption.go: fairPreemptions,
// S2-a/S2-b), which the twin does not implement. An isolated ClusterQueue's own preemption is the
// same under both searches (its candidates are its own Workloads, taken in order until it fits).
#pragma once

#include "model/cluster_state.h"
#include "model/result.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

model::Status check_modelled_kueue(const Scenario& scenario, const model::ClusterState& settled);

}  // namespace chaintwin::sim
