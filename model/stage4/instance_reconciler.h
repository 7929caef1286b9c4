// The Instance controller's stop (instance.go InstanceReconciler, operator-domain.md §3.10) as a
// pure reconciler. For every Instance that is not stopped it reads the backing ClusterQueue's
// StopPolicy and the InstanceType, and sets spec.stop=true when the queue is HoldAndDrain (a pool
// drain, or a queue being deleted), the type is being deleted, or the type is gone — rather than
// recreate a Pod the queue can never admit. An admin Hold (spec.inactive) is not a stop. For a
// stopped Instance it writes status.phase Stopping while the backing Pod is still there (the Pod's
// deletion is the caller's: the simulator deletes it on seeing spec.stop) and Stopped once it is
// gone. Starting, Ready and the Pod summary of a running Instance are not modelled.
//
// Called by the reconcile loop (operator_controllers), so the simulator runs it after every change.
#pragma once

#include <string>
#include <string_view>

#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kInstanceController = "Instance";
inline constexpr int64_t kInstancePodDeletionRequeueSeconds = 2;  // "pod deletion in progress; requeue in 2s"

// Why the Instance must stop, or "" when it may keep (or get) its Pod.
std::string instance_stop_cause(const ClusterState& state, const Instance& instance);

Plan reconcile_instances(const ClusterState& state);

}  // namespace chaintwin::model
