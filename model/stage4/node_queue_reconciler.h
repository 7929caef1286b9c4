// The NodeQueue controller (pkg/worker/controllers/worker/node_queue.go) as a pure reconciler.
// For every ClusterQueue the operator owns (label resource.gpustack.ai/type=instancetypes) it
// fills the quota and admission gating from the pool's ResourceFlavors alone — never the owning
// InstanceType:
// - a queue being deleted is driven to HoldAndDrain (Kueue never evicts on delete);
// - live flavors: refuse an invalid topology plan (TopologyReady=False/<reason>), else build the
//   one resource group, reference the Active AdmissionChecks, and either update in place
//   (reactivating a queue the operator drained to empty, dropping the empty-plan marker once
//   groups fill) or run the held flavor-plan migration when a dropped flavor may hold quota —
//   waiting (Unknown/AwaitingQueueStatus) until Kueue reported the current generation;
// - no live flavors: continue a migration; hold an empty queue (Hold + empty-plan-hold); with
//   instance-type-drain-when-no-flavors off wait 60 s while reservations remain; else migrate to
//   the empty plan.
// Callers: the simulator's controller loop and the live mode.
#pragma once

#include <string>

#include "model/cluster_state.h"
#include "model/stage4/node_queue_decision.h"
#include "model/stage4/plan.h"

namespace chaintwin::model {

// The decision for one ClusterQueue of `state` (which must be operator-owned for the result to
// mean anything; see is_instance_type_cluster_queue).
NodeQueueDecision decide_node_queue(const ClusterState& state, const ClusterQueue& cq);

// drainOrEmptyClusterQueue: the decision for a queue whose pool has no live flavor left. A queue
// in migration continues it (towards the empty plan); a queue without resource groups goes to
// holdEmptyClusterQueue (None → Hold + empty-plan-hold, any other policy untouched); with
// instance-type-drain-when-no-flavors off and reservations remaining, wait 60 s without holding;
// otherwise start the held migration to the empty plan (save the policy, HoldAndDrain, draining).
NodeQueueDecision drain_or_empty_cluster_queue(const ClusterState& state, const ClusterQueue& cq);

// The queue carries resource.gpustack.ai/type=instancetypes.
bool is_instance_type_cluster_queue(const ClusterQueue& cq);

// The Plan for one key (a ClusterQueue name); empty when the queue is gone or not the operator's.
Plan reconcile_node_queue(const ClusterState& state, const std::string& cluster_queue_name);

// The Plan for every key of the controller, in queue-name order.
Plan reconcile_node_queue(const ClusterState& state);

}  // namespace chaintwin::model
