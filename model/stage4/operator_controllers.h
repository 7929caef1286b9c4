// The whole chain's controllers, as the operator's worker (and Kueue beside it) runs them:
// stage 3 (NodeProfile: presence labels, capacity keys and fit labels on every Node) and the
// stage-4 reconcilers, each with the controllers whose writes it reads. converge() over this list
// is the state the operator settles in; the simulator drives the same list event by event.
#pragma once

#include <vector>

#include "model/stage4/reconcile_loop.h"

namespace chaintwin::model {

// Stage 3 for every Node as one controller: the Node's labels (presence labels as NFD applies
// them, fit labels) as an update, its counting keys as a status update, only when they differ.
Plan reconcile_node_profile(const ClusterState& state);

// NodeProfile, NodeTopology, NodeFlavor, InstanceType, AdmissionCheck, NodeQueue,
// NodeQueueEntrance, Kueue — in reconcile order (a topological sort of reads_from).
std::vector<Controller> operator_controllers();

}  // namespace chaintwin::model
