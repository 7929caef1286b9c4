#include "model/stage4/node_queue_decision.h"

#include "model/catalog/label_keys.h"
#include "model/stage4/stop_policy_migration.h"

namespace chaintwin::model {

bool queue_update_differs(const ClusterQueue& a, const ClusterQueue& b) {
  return a.metadata.labels != b.metadata.labels || a.metadata.annotations != b.metadata.annotations ||
         a.metadata.finalizers != b.metadata.finalizers || !(a.spec == b.spec);
}

void set_update_if_changed(NodeQueueDecision& d, const ClusterQueue& current, const ClusterQueue& working) {
  if (queue_update_differs(current, working)) d.update = working;
  else d.update.reset();
}

void set_topology_ready(NodeQueueDecision& d, const ClusterQueue& current, std::string_view status,
                        std::string_view reason, std::string message) {
  Condition c;
  c.type = std::string(kTopologyReadyCondition);
  c.status = std::string(status);
  c.reason = std::string(reason);
  c.message = std::move(message);
  std::vector<Condition> conditions = current.status.conditions;
  if (set_condition(conditions, c)) d.topology_ready = std::move(c);
  else d.topology_ready.reset();
}

NodeQueueDecision reject_cluster_queue(const ClusterQueue& current, const ClusterQueue& working, QueueRefusal refusal) {
  NodeQueueDecision d;
  d.action = "refuse";
  d.reason = "queue plan refused (" + refusal.reason + "): " + refusal.message;
  // A refused plan leaves the last complete one serving; a queue that has none must not admit.
  if (auto held = hold_empty_cluster_queue(working)) set_update_if_changed(d, current, *held);
  if (refusal.reason == "MissingTopology" || refusal.reason == "NonConservedQuota" || migration_phase(working) != "")
    d.requeue_after_seconds = kRefusalRequeueSeconds;
  set_topology_ready(d, current, "False", refusal.reason, refusal.message);
  d.refusal = std::move(refusal);
  return d;
}

Plan plan_of(const NodeQueueDecision& d, const ClusterQueue& current) {
  Plan plan;
  const std::string controller(kNodeQueueController);
  if (d.update) plan.writes.push_back({WriteVerb::kUpdate, *d.update, controller, d.reason});
  if (d.topology_ready) {
    ClusterQueue with_status = d.update ? *d.update : current;
    with_status.status = current.status;
    set_condition(with_status.status.conditions, *d.topology_ready);
    plan.writes.push_back({WriteVerb::kUpdateStatus, std::move(with_status), controller,
                           "TopologyReady=" + d.topology_ready->status + " (" + d.topology_ready->reason + ")"});
  }
  if (d.requeue_after_seconds > 0)
    plan.requeues.push_back({controller, current.metadata.name, d.requeue_after_seconds, d.reason});
  return plan;
}

}  // namespace chaintwin::model
