#include "model/stage4/node_queue_reconciler.h"

#include "model/catalog/label_keys.h"
#include "model/stage4/queue_admission_checks.h"
#include "model/stage4/queue_status.h"
#include "model/stage4/resource_groups.h"
#include "model/stage4/stop_policy_migration.h"
#include "model/stage4/tas_validation.h"

namespace chaintwin::model {
namespace {

constexpr std::string_view kReadyMessage = "all queue flavors are topology-aware and quota is conserved";

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return "[" + out + "]";
}

NodeQueueDecision hold_and_drain_deleting(const ClusterQueue& cq) {
  NodeQueueDecision d;
  d.action = "drain-deleting";
  if (cq.stop_policy() == StopPolicy::kHoldAndDrain) {
    d.reason = "the deleting queue already holds and drains";
    return d;
  }
  ClusterQueue working = cq;
  working.spec.stop_policy = StopPolicy::kHoldAndDrain;
  d.reason = "the queue is being deleted: hold and drain so Kueue evicts its workloads";
  set_update_if_changed(d, cq, working);
  return d;
}

NodeQueueDecision fill_cluster_queue(const ClusterState& state, const ClusterQueue& cq,
                                     std::vector<ResourceFlavor> flavors) {
  if (auto refusal = duplicate_covered_resource(cq.spec.resource_groups)) return reject_cluster_queue(cq, cq, *refusal);
  if (auto refusal = unsupported_existing_object(cq)) return reject_cluster_queue(cq, cq, *refusal);
  if (auto refusal = validate_tas_flavors(state, cq.metadata.labels, flavors)) return reject_cluster_queue(cq, cq, *refusal);

  sort_by_per_node_count(flavors);
  const bool acceleratable = note_of(flavors.front().metadata, "acceleratable") == "true";
  const auto desired = build_resource_groups(flavors, acceleratable, note_of(flavors.front().metadata, "manufacturer"));

  ClusterQueue working = cq;
  working.metadata.annotations[std::string(keys::kTasQueue)] = "true";
  working.spec.admission_checks = queue_admission_checks(state, acceleratable);

  const bool plan_changed = !(cq.spec.resource_groups == desired);
  bool migrate = !migration_phase(cq).empty();
  if (!migrate && plan_changed) {
    const auto dropped = dropped_flavor_references(cq.spec.resource_groups, desired);
    if (!dropped.empty()) {
      if (!observed_at_current_generation(cq)) {
        // Usage read before Kueue observed the current spec may omit a flavor that spec added.
        NodeQueueDecision d;
        d.action = "await-queue-status";
        d.reason = "waiting for Kueue to report flavor usage at generation " +
                   std::to_string(cq.metadata.generation) + " before dropping flavors " + join(dropped);
        set_topology_ready(d, cq, "Unknown", "AwaitingQueueStatus", d.reason);
        d.requeue_after_seconds = kMigrationRequeueSeconds;
        return d;
      }
      migrate = flavors_may_be_in_use(cq, dropped);
    }
  }
  if (migrate) return migrate_resource_groups(cq, working, desired);

  NodeQueueDecision d;
  d.action = "fill";
  d.reason = "fill the resource groups from " + std::to_string(flavors.size()) + " live flavor(s)";
  // Reactivate only a queue the operator drained to empty; an admin Hold stays sticky.
  if (cq.stop_policy() == StopPolicy::kHoldAndDrain && cq.spec.resource_groups.empty()) {
    working.spec.stop_policy = StopPolicy::kNone;
    d.reason += "; reactivate the queue drained to empty";
  }
  // The update that gives the queue its groups drops the empty-plan marker; the Hold itself is
  // released by the InstanceType reconciler, which reads Inactive.
  const std::string marker(keys::kEmptyPlanHold);
  if (working.metadata.annotations.count(marker) && !working.metadata.annotations.at(marker).empty() &&
      !desired.empty())
    working.metadata.annotations.erase(marker);
  if (plan_changed) working.spec.resource_groups = desired;
  set_update_if_changed(d, cq, working);
  set_topology_ready(d, cq, "True", "Ready", std::string(kReadyMessage));
  return d;
}

}  // namespace

NodeQueueDecision drain_or_empty_cluster_queue(const ClusterState& state, const ClusterQueue& cq) {
  if (!migration_phase(cq).empty()) return migrate_resource_groups(cq, cq, {});
  if (cq.spec.resource_groups.empty()) {
    NodeQueueDecision d;
    d.action = "hold-empty";
    d.reason = "the queue has no flavors and no resource groups";
    if (auto held = hold_empty_cluster_queue(cq)) {
      d.reason += ": hold it (empty-plan-hold) so it admits nothing";
      set_update_if_changed(d, cq, *held);
    }
    return d;
  }
  if (!state.settings.instance_type_drain_when_no_flavors && has_reserved(cq.status)) {
    NodeQueueDecision d;
    d.action = "drain-wait";
    d.reason = "no flavors left and draining is off: wait for the reservations to clear";
    d.requeue_after_seconds = kNoDrainWaitRequeueSeconds;
    return d;
  }
  // Emptying the last references is the same held migration, also when nothing is reserved.
  return migrate_resource_groups(cq, cq, {});
}

bool is_instance_type_cluster_queue(const ClusterQueue& cq) {
  const auto it = cq.metadata.labels.find(keys::kResourceType);
  return it != cq.metadata.labels.end() && it->second == kClusterQueueResType;
}

NodeQueueDecision decide_node_queue(const ClusterState& state, const ClusterQueue& cq) {
  if (cq.metadata.deletion_timestamp) return hold_and_drain_deleting(cq);
  const auto flavors = live_pool_flavors(state, cq.metadata.labels);
  if (!flavors) {
    NodeQueueDecision d;
    d.action = "skip";
    d.reason = "the queue's labels select no pool";
    return d;
  }
  if (!flavors->empty()) return fill_cluster_queue(state, cq, *flavors);
  return drain_or_empty_cluster_queue(state, cq);
}

Plan reconcile_node_queue(const ClusterState& state, const std::string& cluster_queue_name) {
  const auto it = state.cluster_queues.find(cluster_queue_name);
  if (it == state.cluster_queues.end() || !is_instance_type_cluster_queue(it->second)) return {};
  return plan_of(decide_node_queue(state, it->second), it->second);
}

Plan reconcile_node_queue(const ClusterState& state) {
  Plan plan;
  for (const auto& [name, cq] : state.cluster_queues)
    if (is_instance_type_cluster_queue(cq)) plan.append(plan_of(decide_node_queue(state, cq), cq));
  return plan;
}

}  // namespace chaintwin::model
