// Topology readiness of a ClusterQueue's flavor plan (node_queue.go: duplicateCoveredResource,
// the UnsupportedExistingObject check of fillClusterQueue, validateTASFlavors, decodeStopPolicy's
// refusal). A refused plan is never partly applied: the queue keeps its last complete plan and
// reports TopologyReady=False with the refusal's reason.
// Callers: the NodeQueue reconciler.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/kueue/kueue_objects.h"
#include "model/cluster_state.h"

namespace chaintwin::model {

inline constexpr size_t kMaxQueueFlavors = 64;  // Kueue's flavor limit per resource group

// Why a queue plan is refused: `reason` is the TopologyReady reason, exactly the operator's
// (TooManyFlavors, DuplicateCoveredResource, UnsupportedExistingObject, MissingTopology,
// OverlappingSelectors, NonConservedQuota, InvalidMigrationState).
struct QueueRefusal {
  std::string reason;
  std::string message;
  bool operator==(const QueueRefusal&) const = default;
};

// A resource covered by two groups of the queue's current spec.
std::optional<QueueRefusal> duplicate_covered_resource(const std::vector<ResourceGroup>& groups);

// A queue carrying resource groups without topology.gpustack.ai/tas-queue=true was not written by
// the topology-aware controller and is never adopted.
std::optional<QueueRefusal> unsupported_existing_object(const ClusterQueue& cq);

// validateTASFlavors over the pool's live flavors:
// - more than 64 flavors: TooManyFlavors;
// - a flavor without spec.nodeLabels[profile], with a different profile label, or whose
//   spec.topologyName is not gpustack-<profile> or names a missing Topology: MissingTopology;
// - a Node selected by the nodeLabels of two flavors: OverlappingSelectors;
// - a flavor whose per-node count is not positive or whose capacity is not the selected Nodes ×
//   count: NonConservedQuota;
// - a managed, profiled Node matching the queue's pool selector (acceleratable=true kept for an
//   accelerated pool, dropped for a CPU pool) that no flavor selects: NonConservedQuota — with
//   instance-type-mixed-on-node off, an accelerated Node does not belong to a CPU pool.
// Skips the last check when the queue labels give no pool selector.
std::optional<QueueRefusal> validate_tas_flavors(const ClusterState& state, const StringMap& queue_labels,
                                                 const std::vector<ResourceFlavor>& flavors);

}  // namespace chaintwin::model
