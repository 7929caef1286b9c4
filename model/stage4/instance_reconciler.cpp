#include "model/stage4/instance_reconciler.h"

namespace chaintwin::model {

std::string instance_stop_cause(const ClusterState& state, const Instance& instance) {
  const std::string& type = instance.spec.type;
  const auto it = state.instance_types.find(type);
  if (it == state.instance_types.end()) return "instance type " + type + " is gone";
  if (it->second.metadata.deletion_timestamp) return "instance type " + type + " is being deleted";
  // Keyed on the queue's StopPolicy, not the type's phase: the phase reads Inactive for an admin
  // Hold too, which must not stop anything. A queue that is momentarily absent (deleted, not yet
  // recreated) has no StopPolicy to read.
  const auto cq = state.cluster_queues.find(type);
  if (cq != state.cluster_queues.end() && cq->second.stop_policy() == StopPolicy::kHoldAndDrain)
    return "cluster queue " + type + " is HoldAndDrain";
  return "";
}

Plan reconcile_instances(const ClusterState& state) {
  Plan plan;
  const std::string controller(kInstanceController);
  for (const auto& [key, instance] : state.instances) {
    if (instance.metadata.deletion_timestamp) continue;  // the Deleting path is not modelled
    if (instance.spec.stop) {
      const bool pod = state.instance_pods.count(key) != 0;
      if (pod && instance.status.phase != kInstancePhaseStopping) {
        Instance next = instance;
        next.status.phase = kInstancePhaseStopping;
        plan.writes.push_back({WriteVerb::kUpdateStatus, next, controller, "stopping: deleting the backing Pod"});
      } else if (!pod && instance.status.phase != kInstancePhaseStopped) {
        Instance next = instance;
        next.status = InstanceStatus{kInstancePhaseStopped, ""};
        plan.writes.push_back({WriteVerb::kUpdateStatus, next, controller, "instance stopped: the backing Pod is gone"});
      }
      if (pod)
        plan.requeues.push_back({controller, key, kInstancePodDeletionRequeueSeconds, "pod deletion in progress"});
      continue;
    }
    const std::string cause = instance_stop_cause(state, instance);
    if (cause.empty()) continue;
    Instance next = instance;
    next.spec.stop = true;
    plan.writes.push_back({WriteVerb::kUpdate, next, controller, "stop instance: " + cause});
  }
  return plan;
}

}  // namespace chaintwin::model
