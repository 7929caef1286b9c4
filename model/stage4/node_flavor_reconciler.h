// NodeFlavorReconciler (the operator's node_flavor.go @187ec706) as a pure reconciler, keyed by
// ResourceFlavor name. Per key: the indexed Nodes contributing to the name (mixing off: an
// accelerated Node does not feed a CPU flavor). None → delete the flavor (but requeue 10 s while a
// Node matching its selector lacks a profile; a flavor that is already gone only retires its
// generated Topology when no Node carries the profile and no flavor references it). Otherwise the
// desired flavor from the first contributor (node_flavor_shape.h): create it, or align labels
// (merge) and notes (replace); an immutable spec drift is an error, unless it is only the mixing
// pin, which deletes the flavor so the next pass recreates it. After a sync: delete the
// topology-profile siblings no Node contributes to, then, with instance-type-derived-from-node on,
// create the pool's InstanceType if none exists (create-only, derived_instance_type.h).
// Called by the stage-4 loop.
#pragma once

#include <string>
#include <string_view>

#include "model/stage4/node_flavor_index.h"
#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kNodeFlavorController = "NodeFlavor";
inline constexpr int64_t kUnprofiledContributorRequeueSeconds = 10;

// retireUnusedTopologyProfileSiblings, run after `wanted` is synced: deletes every ResourceFlavor of
// resource type "nodes" with the same topology-unqualified name as `wanted` (its name minus
// "-<its topology.gpustack.ai/profile label>"), other than `wanted` and not already terminating,
// that no Node contributes to under `mixing_allowed`. The writes only; `index` is
// schedule_flavor_index(state).
Plan retire_unused_topology_profile_siblings(const ClusterState& state, const ScheduleFlavorIndex& index,
                                            const ResourceFlavor& wanted, bool mixing_allowed);
// The same, building the index from `state`.
Plan retire_unused_topology_profile_siblings(const ClusterState& state, const ResourceFlavor& wanted,
                                            bool mixing_allowed);

// The operator's Reconcile for one ResourceFlavor name.
Plan reconcile_node_flavor_key(const ClusterState& state, const std::string& flavor_name);

// Every key the operator would reconcile — each name in the Node index and each ResourceFlavor of
// resource type "nodes" — in name order, plus the Topology retirement the operator runs when a
// flavor's delete event arrives: every generated Topology (type "topology") whose profile no Node
// carries and no flavor references is deleted. A write two keys both want (the same delete, or
// the same InstanceType create) is planned once, from the first key.
Plan reconcile_node_flavor(const ClusterState& state);
// The same, reading the Nodes through `index`, which must be schedule_flavor_index(state) (a
// fixpoint keeps it across passes that wrote no Node).
Plan reconcile_node_flavor(const ClusterState& state, const ScheduleFlavorIndex& index);

}  // namespace chaintwin::model
