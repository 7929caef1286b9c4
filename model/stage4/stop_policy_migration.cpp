#include "model/stage4/stop_policy_migration.h"

#include "model/catalog/label_keys.h"
#include "model/stage4/queue_status.h"

namespace chaintwin::model {
namespace {

std::string phase_key() { return std::string(keys::kMigrationPhase); }
std::string saved_key() { return std::string(keys::kMigrationStopPolicy); }

constexpr std::string_view kReadyMessage = "all queue flavors are topology-aware and quota is conserved";

std::string annotation(const ClusterQueue& cq, const std::string& key) {
  const auto it = cq.metadata.annotations.find(key);
  return it == cq.metadata.annotations.end() ? std::string() : it->second;
}

}  // namespace

std::string migration_phase(const ClusterQueue& cq) { return annotation(cq, phase_key()); }

std::string encode_stop_policy(std::optional<StopPolicy> policy) {
  if (!policy) return std::string(kStopPolicyUnset);
  return std::string(to_string(*policy));
}

Result<std::optional<StopPolicy>> decode_stop_policy(std::string_view value) {
  if (value == kStopPolicyUnset) return std::optional<StopPolicy>();
  if (auto p = parse_stop_policy(value)) return std::optional<StopPolicy>(*p);
  return err("ClusterQueue has unsupported saved stop policy \"" + std::string(value) + "\"");
}

std::optional<ClusterQueue> hold_empty_cluster_queue(const ClusterQueue& cq) {
  if (!cq.spec.resource_groups.empty() || !migration_phase(cq).empty() || cq.stop_policy() != StopPolicy::kNone)
    return std::nullopt;
  ClusterQueue held = cq;
  held.metadata.annotations[std::string(keys::kEmptyPlanHold)] = "true";
  held.spec.stop_policy = StopPolicy::kHold;
  return held;
}

NodeQueueDecision migrate_resource_groups(const ClusterQueue& current, ClusterQueue working,
                                          const std::vector<ResourceGroup>& desired) {
  NodeQueueDecision d;
  const std::string phase = migration_phase(working);

  if (phase.empty()) {
    working.metadata.annotations[phase_key()] = std::string(kMigrationPhaseDraining);
    working.metadata.annotations[saved_key()] = encode_stop_policy(working.spec.stop_policy);
    working.spec.stop_policy = StopPolicy::kHoldAndDrain;
    d.action = "migration-start";
    d.reason = "the plan drops flavors Kueue may still hold quota on: save the stop policy, hold and drain";
    set_update_if_changed(d, current, working);
    set_topology_ready(d, current, "False", "Migrating", "holding and draining before switching topology flavors");
    d.requeue_after_seconds = kMigrationRequeueSeconds;
    return d;
  }
  if (phase != kMigrationPhaseDraining && phase != kMigrationPhaseSwitched)
    return reject_cluster_queue(current, working,
                                {"InvalidMigrationState",
                                 "ClusterQueue has unsupported topology migration phase \"" + phase + "\""});
  const auto saved = decode_stop_policy(annotation(working, saved_key()));
  if (!saved.ok()) return reject_cluster_queue(current, working, {"InvalidMigrationState", saved.error()});

  working.spec.stop_policy = StopPolicy::kHoldAndDrain;
  if (queue_update_differs(current, working)) {
    d.action = "migration-hold";
    d.reason = "keep the migrating queue held and draining";
    d.update = working;
    d.requeue_after_seconds = kMigrationRequeueSeconds;
    return d;
  }
  if (!stopped_at_current_generation(current) || has_reserved(current.status)) {
    d.action = "migration-wait";
    d.reason = !stopped_at_current_generation(current)
                   ? "waiting for Kueue to report the queue Stopped at generation " +
                         std::to_string(current.metadata.generation)
                   : "waiting for the queue's reservations to drain";
    d.requeue_after_seconds = kMigrationRequeueSeconds;
    return d;
  }
  if (phase == kMigrationPhaseDraining || !(working.spec.resource_groups == desired)) {
    working.spec.resource_groups = desired;
    working.metadata.annotations[phase_key()] = std::string(kMigrationPhaseSwitched);
    d.action = "migration-switch";
    d.reason = "the drained, stopped queue switches to the new flavor plan";
    set_update_if_changed(d, current, working);
    d.requeue_after_seconds = kMigrationRequeueSeconds;
    return d;
  }
  if (desired.empty()) {
    // Without resource groups the queue would admit every Workload: it stays held, annotations kept,
    // until a returning flavor switches it to a non-empty plan.
    d.action = "migration-hold-empty";
    d.reason = "the switched plan is empty: the queue stays held until a flavor returns";
    set_topology_ready(d, current, "True", "Ready", std::string(kReadyMessage));
    return d;
  }
  working.spec.stop_policy = *saved;
  working.metadata.annotations.erase(phase_key());
  working.metadata.annotations.erase(saved_key());
  d.action = "migration-restore";
  d.reason = "Kueue observed the switched plan: restore the saved stop policy " + annotation(current, saved_key());
  set_update_if_changed(d, current, working);
  set_topology_ready(d, current, "True", "Ready", std::string(kReadyMessage));
  return d;
}

}  // namespace chaintwin::model
