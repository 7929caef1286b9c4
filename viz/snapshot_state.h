// The part of a Snapshot that is the cluster as it stands: pools (InstanceType + ClusterQueue),
// Nodes with their cards, the chain graph, and each Workload's phase. Read from the same
// ClusterState and WorkloadState the simulator and the live mode keep; the history (series,
// drains, the event log, each Workload's steps) is the source's to add.
#pragma once

#include "model/cluster_state.h"
#include "model/workload/workload.h"
#include "viz/snapshot.h"

namespace chaintwin::viz {

// Fills pools, nodes and chain from `cluster`, and the phase and queue of each Workload row of
// `out.workloads` (adding rows for Workloads it does not list yet) from `workloads`.
void fill_cluster_state(Snapshot& out, const model::ClusterState& cluster, const model::WorkloadState& workloads);

// The pool rows alone (one per ClusterQueue, in name order).
std::vector<PoolRow> pool_rows(const model::ClusterState& cluster, const model::WorkloadState& workloads);

// The colour-coded policy a view shows for Kueue's stopPolicy.
StopPolicy stop_policy_of(model::StopPolicy policy);

// The Node views alone (one per Node, in name order; cards in ledger order). With `workloads`,
// each MIG instance names the Pod and the Workload holding it.
std::vector<NodeView> node_views(const model::ClusterState& cluster, const model::WorkloadState* workloads = nullptr);

}  // namespace chaintwin::viz
