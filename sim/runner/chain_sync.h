// Brings the operator's side of the chain up to date after something in the cluster changed, the
// way the real controllers would settle it: stage 3 on the touched Nodes (the worker's presence
// labels and capacity counting keys at once, kubelet mirroring them into allocatable; the fit
// labels only reported, because the operator writes them after a coalescing window — the caller
// schedules write_fit_labels()), then stage 4's controllers (and Kueue's status side) run to their
// fixpoint. Called by the runner after every event that touched Nodes, Devices, Settings or the
// Kueue/operator objects.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "model/result.h"
#include "model/stage4/cluster_state.h"
#include "model/stage4/plan.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

struct ChainSync {
  std::vector<model::Write> writes;      // every write applied, in order (stage 3 first)
  std::set<std::string> fit_label_nodes;  // Nodes whose fit labels differ from the desired ones
  std::vector<model::Requeue> requeues;   // controllers waiting on time: look again after the delay
  int passes = 0;
};

// RFC 3339 for a simulated instant (the run starts at 2026-01-01T00:00:00Z): what the model's
// timestamps (deletionTimestamp, conditions) carry.
std::string rfc3339(SimTime at);

// The operator's controllers to their fixpoint, with stage 3 as the simulator runs it (fit labels
// deferred, allocatable mirrored); then the Nodes among `nodes` (every Node when empty; none when
// `stage3` is false) whose fit labels are due a write.
model::Result<ChainSync> sync_chain(model::ClusterState& cluster, const std::set<std::string>& nodes, SimTime now,
                                    bool stage3 = true);

// The operator's fit-label write for one Node after the coalescing window: the desired fit labels
// from the Node's current Devices. Returns whether the labels changed.
bool write_fit_labels(model::ClusterState& cluster, const std::string& node);

// What kubelet reports as allocatable: the Node's capacity, with the device plugin's tokens of
// cards held in another mode reported Unhealthy (so not allocatable) — the cross-mode rule.
model::ResourceList kubelet_allocatable(const model::Node& node, const model::Devices* devices);

// operator_controllers() with NodeProfile replaced by the simulator's stage 3 (above).
const std::vector<model::Controller>& simulated_controllers();

}  // namespace chaintwin::sim
