// The NodeQueueEntrance controller (pkg/worker/controllers/worker/node_queue_entrance.go
// @33574eba) as a pure reconciler: one LocalQueue per (operator ClusterQueue, user Namespace),
// named format_local_queue_name(<ClusterQueue name>) (31 characters), annotated
// schedule.gpustack.ai/queue=<ClusterQueue name>, spec.clusterQueue=<ClusterQueue name>, with a
// controller owner reference to the ClusterQueue. Terminating ClusterQueues and Namespaces get
// none, nor do the reserved Namespaces (kuberess.IsReservedNamespace: exactly the system
// namespace gpustack-system and kube-system — not kube-public or kube-node-lease).
//
// The garbage collector's side is modelled too, as deletes by "GarbageCollector": a LocalQueue
// whose controlling ClusterQueue is gone (or was recreated under another uid), or whose
// Namespace is gone, is deleted.
#pragma once

#include "model/catalog/label_keys.h"

#include <string>
#include <string_view>

#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kNodeQueueEntranceController = "NodeQueueEntrance";
inline constexpr std::string_view kGarbageCollectorController = "GarbageCollector";
// systemname.NamespaceName's default (KUBERNETES_POD_NAMESPACE unset).
using keys::kSystemNamespace;

// kuberess.IsReservedNamespace: the system namespace or kube-system.
bool is_reserved_namespace(std::string_view ns);

// A ClusterQueue the operator owns (resource.gpustack.ai/type=instancetypes), the ones the
// controller's ClusterQueue watch admits.
bool is_operator_cluster_queue(const ClusterQueue& cq);

// The LocalQueue the controller wants for `cq` in namespace `ns`.
LocalQueue desired_local_queue(const ClusterQueue& cq, const std::string& ns);

// The garbage collector's deletes of orphaned LocalQueues (controller "GarbageCollector").
Plan collect_orphaned_local_queues(const ClusterState& state);

// Every LocalQueue write the controller (and the garbage collector) would make: GC deletes
// first, then creates of missing LocalQueues and updates of drifted ones (annotations replaced,
// owner references replaced, labels and finalizers kept). Empty when converged.
Plan reconcile_node_queue_entrance(const ClusterState& state);

}  // namespace chaintwin::model
