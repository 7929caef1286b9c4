// InstanceTypeReconciler (instance_type.go @f130444c: Reconcile, syncInactive,
// ensureClusterQueue, createClusterQueue, teardownInstanceType).
#include "model/stage4/instance_type_reconciler.h"

#include <algorithm>

#include "model/catalog/label_keys.h"
#include "model/stage3/pool_identity.h"
#include "model/stage4/instance_type_schedule_labels.h"
#include "model/stage4/instance_type_status.h"

namespace chaintwin::model {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string annotation(const ObjectMeta& meta, std::string_view key) {
  const auto it = meta.annotations.find(key);
  return it == meta.annotations.end() ? std::string() : it->second;
}

bool has_finalizer(const ObjectMeta& meta, std::string_view finalizer) {
  return std::find(meta.finalizers.begin(), meta.finalizers.end(), finalizer) != meta.finalizers.end();
}

Write write(WriteVerb verb, Object object, std::string reason) {
  return Write{verb, std::move(object), std::string(kInstanceTypeController), std::move(reason)};
}

Requeue requeue(const std::string& key, int64_t seconds, std::string reason) {
  return Requeue{std::string(kInstanceTypeController), key, seconds, std::move(reason)};
}

}  // namespace

Plan teardown_instance_type(const ClusterState& state, const InstanceType& type) {
  Plan plan;
  if (!has_finalizer(type.metadata, keys::kControlledFinalizer)) return plan;  // never locked: nothing to hold
  const auto cq = state.cluster_queues.find(type.metadata.name);
  if (cq == state.cluster_queues.end()) {
    InstanceType released = type;
    auto& f = released.metadata.finalizers;
    f.erase(std::remove(f.begin(), f.end(), keys::kControlledFinalizer), f.end());
    plan.writes.push_back(write(WriteVerb::kUpdate, std::move(released),
                                "the backing ClusterQueue is gone: release the " +
                                    std::string(keys::kControlledFinalizer) + " finalizer"));
    return plan;
  }
  if (type.status.phase != "Inactive") {
    InstanceType marked = type;
    marked.status = InstanceTypeStatus{};
    marked.status.phase = "Inactive";
    marked.status.phase_message = std::string(kTerminatingPhaseMessage);
    marked.status.entrance = format_local_queue_name(cq->second.metadata.name);
    plan.writes.push_back(write(WriteVerb::kUpdateStatus, std::move(marked),
                                "terminating: show Inactive before the queue is gone"));
  }
  if (!cq->second.metadata.deletion_timestamp)
    plan.writes.push_back(write(WriteVerb::kDelete, cq->second,
                                "the InstanceType is being deleted: delete its ClusterQueue (the NodeQueue "
                                "reconciler drains it)"));
  plan.requeues.push_back(requeue(type.metadata.name, kInstanceTypeTeardownRequeueSeconds,
                                  "wait until Kueue has removed the ClusterQueue"));
  return plan;
}

StringMap cluster_queue_labels_for(const InstanceType& type, bool aware) {
  StringMap labels = instance_type_schedule_labels(type, aware);
  labels[std::string(keys::kResourceType)] = std::string(kInstanceTypesResourceType);
  return labels;
}

ClusterQueue new_cluster_queue_for(const InstanceType& type, bool aware) {
  ClusterQueue cq;
  cq.metadata.name = type.metadata.name;
  cq.metadata.labels = cluster_queue_labels_for(type, aware);
  cq.metadata.annotations[std::string(keys::kEmptyPlanHold)] = "true";
  cq.spec.cohort_name = "";
  cq.spec.stop_policy = StopPolicy::kHold;
  cq.spec.namespace_selector_all = true;
  cq.spec.flavor_fungibility.when_can_borrow = "TryNextFlavor";
  cq.spec.flavor_fungibility.when_can_preempt = "MayStopSearch";
  cq.spec.preemption.reclaim_within_cohort = "Never";
  cq.spec.preemption.borrow_within_cohort_policy = "Never";
  cq.spec.preemption.within_cluster_queue = "LowerPriority";
  return cq;
}

std::optional<ClusterQueue> aligned_cluster_queue(const ClusterQueue& queue, const InstanceType& type, bool aware) {
  const StringMap wanted = cluster_queue_labels_for(type, aware);
  ClusterQueue aligned = queue;
  auto& labels = aligned.metadata.labels;
  for (auto it = labels.begin(); it != labels.end();) {
    const bool feature_key = starts_with(it->first, keys::kGeneralPrefix) || starts_with(it->first, keys::kAcceleratablePrefix);
    if (feature_key && wanted.find(it->first) == wanted.end()) it = labels.erase(it);
    else ++it;
  }
  for (const auto& [k, v] : wanted) labels[k] = v;
  if (aligned.metadata.labels == queue.metadata.labels) return std::nullopt;
  return aligned;
}

InactiveSync sync_inactive(const InstanceType& type, const ClusterQueue& queue) {
  InactiveSync out;
  const bool inactive = type.spec.inactive;
  if (!annotation(queue.metadata, keys::kMigrationPhase).empty()) {
    const std::string saved = annotation(queue.metadata, keys::kMigrationStopPolicy);
    std::string next;
    if (inactive && (saved == "None" || saved == "unset")) next = "Hold";
    else if (!inactive && saved == "Hold") next = "None";
    if (next.empty()) return out;  // migrating: nothing is mirrored
    ClusterQueue q = queue;
    q.metadata.annotations[std::string(keys::kMigrationStopPolicy)] = next;
    out.queue = std::move(q);
    out.reason = "migrating: the stop policy to restore follows spec.inactive=" + std::string(inactive ? "true" : "false") +
                 " (" + saved + " -> " + next + ")";
    return out;
  }
  if (!annotation(queue.metadata, keys::kEmptyPlanHold).empty()) return out;  // the empty-plan hold is not ours

  const StopPolicy policy = queue.stop_policy();
  if (policy == StopPolicy::kNone && inactive) {
    ClusterQueue q = queue;
    q.spec.stop_policy = StopPolicy::kHold;
    out.queue = std::move(q);
    out.reason = "spec.inactive=true: hold the queue";
    return out;
  }
  if (policy == StopPolicy::kHold && !inactive) {
    ClusterQueue q = queue;
    if (queue.spec.resource_groups.empty()) {
      q.metadata.annotations[std::string(keys::kEmptyPlanHold)] = "true";
      out.reason = "spec.inactive cleared on a queue without resource groups: mark its Hold as the empty-plan hold";
    } else {
      q.spec.stop_policy = StopPolicy::kNone;
      out.reason = "spec.inactive=false: release the admin Hold";
    }
    out.queue = std::move(q);
    return out;
  }
  if (policy != StopPolicy::kNone && !inactive) {
    InstanceType t = type;
    t.spec.inactive = true;
    out.instance_type = std::move(t);
    out.reason = "the queue is stopped (" + std::string(to_string(policy)) + "): backfill spec.inactive=true";
  }
  return out;
}

Plan reconcile_instance_type(const ClusterState& state, const std::string& name) {
  Plan plan;
  const auto found = state.instance_types.find(name);
  if (found == state.instance_types.end()) return plan;
  if (found->second.metadata.deletion_timestamp) return teardown_instance_type(state, found->second);

  InstanceType type = found->second;
  const bool aware = state.settings.instance_type_aware_cpu_manufacturer;
  if (!has_finalizer(type.metadata, keys::kControlledFinalizer)) {
    type.metadata.finalizers.emplace_back(keys::kControlledFinalizer);
    plan.writes.push_back(write(WriteVerb::kUpdate, type, "lock: add the " + std::string(keys::kControlledFinalizer) +
                                                              " finalizer so deletion tears the queue down"));
  }

  ClusterQueue queue;
  if (const auto cq = state.cluster_queues.find(name); cq == state.cluster_queues.end()) {
    queue = new_cluster_queue_for(type, aware);
    plan.writes.push_back(write(WriteVerb::kCreate, queue,
                                "no backing ClusterQueue: create it held with the empty-plan-hold marker"));
  } else if (cq->second.metadata.deletion_timestamp) {
    plan.requeues.push_back(requeue(name, kTerminatingQueueRequeueSeconds,
                                    "the backing ClusterQueue is terminating under a live InstanceType: recreate it "
                                    "once Kueue has removed it"));
    return plan;
  } else if (auto aligned = aligned_cluster_queue(cq->second, type, aware)) {
    queue = std::move(*aligned);
    plan.writes.push_back(write(WriteVerb::kUpdate, queue, "align the queue's schedule labels with the type's spec"));
  } else {
    queue = cq->second;
  }

  auto sync = sync_inactive(type, queue);
  if (sync.writes()) {
    if (sync.queue) plan.writes.push_back(write(WriteVerb::kUpdate, std::move(*sync.queue), sync.reason));
    if (sync.instance_type) plan.writes.push_back(write(WriteVerb::kUpdate, std::move(*sync.instance_type), sync.reason));
    return plan;  // the status is refreshed once the sync has settled
  }

  auto computed = compute_instance_type_status(state, type, queue);
  if (computed.status != type.status) {
    std::string reason = "refresh the status from the Devices ledgers and the queue";
    for (const auto& note : computed.notes) reason += "; " + note;
    type.status = std::move(computed.status);
    plan.writes.push_back(write(WriteVerb::kUpdateStatus, std::move(type), std::move(reason)));
  }
  return plan;
}

Plan reconcile_instance_type(const ClusterState& state) {
  Plan plan;
  for (const auto& [name, type] : state.instance_types) plan.append(reconcile_instance_type(state, name));
  return plan;
}

}  // namespace chaintwin::model
