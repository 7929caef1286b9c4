// Brings the operator's side of the chain up to date after something in the cluster changed, the
// way the real controllers would settle it: stage 3 on the touched Nodes (the worker's presence
// labels and capacity counting keys at once, kubelet mirroring them into allocatable; the fit
// labels only reported, because the operator writes them after a coalescing window — the caller
// schedules write_fit_labels()), then stage 4's controllers (and Kueue's status side) run to their
// fixpoint. Called by the runner after every event that touched Nodes, Devices, Settings or the
// Kueue/operator objects.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/result.h"
#include "model/cluster_state.h"
#include "model/stage4/plan.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

struct ChainSync {
  // every write applied, in order (stage 3 first), as receipts (kind, key, verb, controller and
  // reason; the objects themselves moved into the cluster)
  std::vector<model::WriteReceipt> writes;
  std::set<std::string> fit_label_nodes;  // Nodes whose fit labels differ from the desired ones
  std::vector<model::Requeue> requeues;   // controllers waiting on time: look again after the delay
  // sync_nodes only: something stage 4 reads changed (a Node's labels other than its fit labels,
  // a Node or Devices record gone), so the caller must run sync_chain for these Nodes.
  bool stage4_needed = false;
};

// RFC 3339 for a simulated instant (the run starts at 2026-01-01T00:00:00Z): what the model's
// timestamps (deletionTimestamp, conditions) carry.
std::string rfc3339(SimTime at);

// The operator's controllers to their fixpoint, with stage 3 as the simulator runs it (fit labels
// deferred, allocatable mirrored); then the Nodes among `nodes` (every Node when empty; none when
// `stage3` is false) whose fit labels are due a write.
//
// Stage 3 runs on `nodes` (every Node when empty, none when `stage3` is false) and on every Node or
// Devices record a controller writes during the fixpoint: the runner keeps every other Node settled
// (stage 3 is a function of one Node, its Devices and the Settings, and a Settings change passes
// every Node), so the others would write nothing. `RunOptions::verify_incremental` checks this.
//
// A pass skips a controller whose last run planned nothing while nothing it reads was written
// since (model::FixpointMemo); `cross_check` (--verify) runs it anyway and fails on any difference.
// The written objects move into `cluster`: ChainSync::writes holds their receipts (kind, namespace
// and name; model::apply_plan_moving), which is what the runner logs and reacts to.
model::Result<ChainSync> sync_chain(model::ClusterState& cluster, const std::set<std::string>& nodes, SimTime now,
                                    bool stage3 = true, bool cross_check = false);

// The fast path after an event that changed only what Pods hold (the Devices ledgers) of `nodes`,
// each settled before (every stage-3 output but its fit labels written): stage 3 on those Nodes
// alone, without stage 4, and of stage 3 only what a ledger can move (node_ledger_one in the .cpp:
// the whole derivation for a Node with a partitioned card). `cross_check` (--verify) derives each
// Node whole as well and fails on any difference. Stage 4's controllers read Nodes'
// labels (not their status or fit labels), Devices' metadata and capability, Settings and the
// Kueue/operator objects; of what changes here only the InstanceType status (its views count the
// ledgers) depends on it, and the caller brings that up to date when it is read (the status is a
// function of the state at that instant). When stage 3 changed something stage 4 reads,
// `stage4_needed` is set and nothing else is done: the caller runs sync_chain instead.
model::Result<ChainSync> sync_nodes(model::ClusterState& cluster, const std::set<std::string>& nodes, SimTime now,
                                    bool cross_check = false);

using model::write_summary;  // a write as --verify names it (model/stage4/plan.h)

// Whether a full fixpoint on `cluster` (every controller, stage 3 on every Node) would write only
// InstanceType statuses: the invariant the fast paths keep. Returns the first other write, if any.
std::optional<std::string> unsettled_write(const model::ClusterState& cluster, SimTime now);

// The operator's fit-label write for one Node after the coalescing window: the desired fit labels
// from the Node's current Devices. Returns whether the labels changed.
bool write_fit_labels(model::ClusterState& cluster, const std::string& node);

// What kubelet reports as allocatable: the Node's capacity, with the device plugin's tokens of
// cards held in another mode reported Unhealthy (so not allocatable) — the cross-mode rule.
model::ResourceList kubelet_allocatable(const model::Node& node, const model::Devices* devices);

// operator_controllers() with NodeProfile replaced by the simulator's stage 3 (above), on every Node.
const std::vector<model::Controller>& simulated_controllers();

// Stage 3 as the simulator runs it, on the named Nodes only (all when `nodes` is null).
// `fit_due`, when given, receives the Nodes looked at whose fit labels differ from the ones their
// Devices call for (as write_fit_labels would find them), read off the same derivation.
model::Plan simulated_node_profile(const model::ClusterState& state, const std::set<std::string>* nodes,
                                   std::set<std::string>* fit_due = nullptr);

}  // namespace chaintwin::sim
