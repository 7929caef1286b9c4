// Kueue's own side of the chain as a pure "controller" named "Kueue" (kubernetes-sigs/kueue
// v1beta2-era pkg/controller/core and pkg/cache/scheduler/clusterqueue.go): the ClusterQueue
// Active condition and observedGeneration, and the kueue.x-k8s.io/resource-in-use finalizer on
// ResourceFlavors, ClusterQueues, AdmissionChecks and Topologies.
//
// Active (ClusterQueueReadiness / inactiveReason):
//   terminating (no Kueue finalizer left)   -> False, Terminating,
//       "Can't admit new workloads; clusterQueue is terminating"
//   any of, in this order, ->  False, <first reason>, "Can't admit new workloads: <m1>, <m2>."
//     stopPolicy Hold / HoldAndDrain        Stopped                "is stopped"
//     a referenced flavor does not exist    FlavorNotFound         "references missing ResourceFlavor(s): a,b"
//     a referenced check does not exist     AdmissionCheckNotFound "references missing AdmissionCheck(s): a,b"
//     a referenced check is not Active      AdmissionCheckInactive "references inactive AdmissionCheck(s): a,b"
//     a TAS flavor's Topology is missing    TopologyNotFound       "there is no Topology \"t\" for TAS flavor \"f\""
//   otherwise                               -> True, Ready, "Can admit new workloads"
// Missing flavors are listed in spec order, checks sorted by name. Having no resourceGroups is
// not a cause. The workload counters and flavor usage are left as the state has them.
//
// Finalizers: added to every live object that lacks it. Released: a ResourceFlavor once no
// ClusterQueue lists it in its resourceGroups (terminating queues still count); a ClusterQueue
// once it reserves and admits no workload (Kueue never drains on delete — the operator's
// HoldAndDrain does, and a drained terminating queue is then released); an AdmissionCheck once
// no ClusterQueue references it; a Topology once no ResourceFlavor names it. A terminating
// ClusterQueue that still holds the finalizer gets no status write.
#pragma once

#include <string>
#include <string_view>

#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kKueueController = "Kueue";
inline constexpr std::string_view kKueueResourceInUseFinalizer = "kueue.x-k8s.io/resource-in-use";

// The Active condition Kueue computes for `cq` against `state` (observedGeneration = the
// queue's generation).
Condition cluster_queue_active_condition(const ClusterQueue& cq, const ClusterState& state);

// Kueue's ClusterQueueEmpty: nothing reserving or admitted.
bool cluster_queue_empty(const ClusterQueue& cq);

// Which ClusterQueues (sorted) list the flavor / the check; which flavors (sorted) name the topology.
std::vector<std::string> cluster_queues_using_flavor(const ClusterState& state, const std::string& flavor);
std::vector<std::string> cluster_queues_using_admission_check(const ClusterState& state, const std::string& check);
std::vector<std::string> flavors_using_topology(const ClusterState& state, const std::string& topology);

// Every write Kueue would make: finalizer updates of flavors, checks, topologies and queues, then
// ClusterQueue status updates. Empty when converged.
Plan reconcile_kueue(const ClusterState& state);

}  // namespace chaintwin::model
