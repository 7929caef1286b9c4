// The InstanceType controller (instance_type.go InstanceTypeReconciler) as a pure reconciler:
// it keeps the name-identical backing ClusterQueue existing with the type's schedule labels,
// syncs spec.inactive with the queue's stop policy, keeps the type's status fresh, and tears
// the queue down when the type is deleted. It never authors InstanceTypes and never touches a
// queue's resource groups (the NodeQueue reconciler owns quota and HoldAndDrain).
#pragma once

#include "model/catalog/label_keys.h"

#include <optional>
#include <string>

#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kInstanceTypeController = "InstanceType";
inline constexpr int64_t kInstanceTypeTeardownRequeueSeconds = 15;     // waiting for the queue to go
inline constexpr int64_t kTerminatingQueueRequeueSeconds = 15;         // admin-deleted queue, type lives
inline constexpr std::string_view kTerminatingPhaseMessage = "instance type is terminating";
inline constexpr std::string_view kInstanceTypesResourceType = keys::kClusterQueueResType;

// The queue's schedule labels (instance_type_schedule_labels: PoolScheduleLabels over the type's
// SPEC identity and the awareness setting) plus resource.gpustack.ai/type=instancetypes.
StringMap cluster_queue_labels_for(const InstanceType& type, bool aware);

// createClusterQueue (@f130444c): the schedule labels, stopPolicy Hold with annotation
// topology.gpustack.ai/empty-plan-hold=true (a queue without resource groups would admit every
// Workload), namespaceSelector {}, flavorFungibility {TryNextFlavor, MayStopSearch}, preemption
// {reclaimWithinCohort Never, borrowWithinCohort Never, withinClusterQueue LowerPriority}, empty
// cohort, no resource groups. (topology.gpustack.ai/tas-queue is stamped later by the NodeQueue
// reconciler when it fills the groups, not here.)
ClusterQueue new_cluster_queue_for(const InstanceType& type, bool aware);

// ensureClusterQueue's alignment of an existing queue: the resource-type label, every schedule
// label, and no general./acceleratable. feature-key label the type no longer wants. nullopt
// when the queue already matches.
std::optional<ClusterQueue> aligned_cluster_queue(const ClusterQueue& queue, const InstanceType& type, bool aware);

// syncInactive (instance_type.go @f130444c): at most one write.
//  - migrating (topology.gpustack.ai/migration-phase set): only the SAVED policy
//    (migration-stop-policy) follows the flag — Inactive with saved None/unset → Hold; not
//    Inactive with saved Hold → None — and nothing is mirrored;
//  - marked (topology.gpustack.ai/empty-plan-hold set): nothing;
//  - None + Inactive → Hold; Hold + !Inactive → None, or, when the queue has no resource
//    groups, the marker instead (the NodeQueue reconciler releases it once groups arrive);
//  - any other stopped queue + !Inactive → spec.inactive = true (one way).
struct InactiveSync {
  std::optional<ClusterQueue> queue;          // the queue rewritten
  std::optional<InstanceType> instance_type;  // the type with spec.inactive backfilled
  std::string reason;
  bool writes() const { return queue.has_value() || instance_type.has_value(); }
};
InactiveSync sync_inactive(const InstanceType& type, const ClusterQueue& queue);

// teardownInstanceType: the pass for a type being deleted (deletionTimestamp set). Without the
// gpustack.ai/controlled finalizer: nothing. With it and the name-identical ClusterQueue present:
// status {phase Inactive, phaseMessage "instance type is terminating", entrance} written once
// (when the phase is not already Inactive), the queue deleted once (not when already
// terminating), requeue 15 s. The queue gone: the finalizer removed.
Plan teardown_instance_type(const ClusterState& state, const InstanceType& type);

// One Reconcile pass for the InstanceType `name`:
//  - gone: nothing;
//  - terminating: with the gpustack.ai/controlled finalizer and the queue present, status
//    Inactive "instance type is terminating" (once), delete the queue (once), requeue 15 s; the
//    queue gone, drop the finalizer;
//  - live: add the finalizer when missing, create or align the queue (a terminating queue:
//    requeue 15 s and stop), syncInactive (a write ends the pass), then the status (written
//    only when it differs).
Plan reconcile_instance_type(const ClusterState& state, const std::string& name);
// Every InstanceType, in name order.
Plan reconcile_instance_type(const ClusterState& state);

}  // namespace chaintwin::model
