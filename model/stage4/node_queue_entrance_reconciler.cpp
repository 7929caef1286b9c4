// The NodeQueueEntrance reconciler and the LocalQueue garbage collection it relies on.
#include "model/stage4/node_queue_entrance_reconciler.h"

#include <set>

#include "model/kueue/kueue_codec.h"
#include "model/catalog/label_keys.h"
#include "model/stage3/pool_identity.h"

namespace chaintwin::model {
namespace {

constexpr std::string_view kInstanceTypesResourceType = "instancetypes";

const OwnerReference* controller_of(const ObjectMeta& meta) {
  for (const auto& r : meta.owner_references)
    if (r.controller) return &r;
  return nullptr;
}

// Why the garbage collector removes `lq`, or empty when it stays.
std::string orphan_reason(const ClusterState& state, const LocalQueue& lq) {
  const std::string& ns = lq.metadata.namespace_;
  if (state.namespaces.find(ns) == state.namespaces.end()) return "its Namespace " + ns + " is gone";
  const OwnerReference* owner = controller_of(lq.metadata);
  if (owner == nullptr || owner->kind != "ClusterQueue") return {};
  const auto it = state.cluster_queues.find(owner->name);
  if (it == state.cluster_queues.end()) return "its controlling ClusterQueue " + owner->name + " is gone";
  const std::string& uid = it->second.metadata.uid;
  if (!owner->uid.empty() && !uid.empty() && owner->uid != uid)
    return "its controlling ClusterQueue " + owner->name + " was recreated (uid " + owner->uid + " is gone)";
  return {};
}

bool wants_local_queues(const Namespace& ns) {
  return !ns.metadata.deletion_timestamp && !is_reserved_namespace(ns.metadata.name);
}

}  // namespace

bool is_reserved_namespace(std::string_view ns) { return ns == kSystemNamespace || ns == "kube-system"; }

bool is_operator_cluster_queue(const ClusterQueue& cq) {
  const auto it = cq.metadata.labels.find(keys::kResourceType);
  return it != cq.metadata.labels.end() && it->second == kInstanceTypesResourceType;
}

LocalQueue desired_local_queue(const ClusterQueue& cq, const std::string& ns) {
  LocalQueue lq;
  lq.metadata.name = format_local_queue_name(cq.metadata.name);
  lq.metadata.namespace_ = ns;
  lq.metadata.annotations[std::string(keys::kScheduleQueue)] = cq.metadata.name;
  OwnerReference ref;
  ref.api_version = std::string(kKueueApiVersion);
  ref.kind = "ClusterQueue";
  ref.name = cq.metadata.name;
  ref.uid = cq.metadata.uid;
  ref.controller = true;
  lq.metadata.owner_references.push_back(std::move(ref));
  lq.cluster_queue = cq.metadata.name;
  return lq;
}

Plan collect_orphaned_local_queues(const ClusterState& state) {
  Plan plan;
  for (const auto& [key, lq] : state.local_queues) {
    const std::string why = orphan_reason(state, lq);
    if (why.empty()) continue;
    plan.writes.push_back({WriteVerb::kDelete, lq, std::string(kGarbageCollectorController),
                           "LocalQueue " + key + " is garbage: " + why});
  }
  return plan;
}

Plan reconcile_node_queue_entrance(const ClusterState& state) {
  Plan plan = collect_orphaned_local_queues(state);
  std::set<std::string> collected;
  for (const auto& w : plan.writes) {
    const auto& meta = metadata_of(w.object);
    collected.insert(local_queue_key(meta.namespace_, meta.name));
  }
  const std::string controller(kNodeQueueEntranceController);
  for (const auto& [cq_name, cq] : state.cluster_queues) {
    if (cq.metadata.deletion_timestamp || !is_operator_cluster_queue(cq)) continue;
    for (const auto& [ns_name, ns] : state.namespaces) {
      if (!wants_local_queues(ns)) continue;
      LocalQueue desired = desired_local_queue(cq, ns_name);
      const std::string key = local_queue_key(ns_name, desired.metadata.name);
      const auto it = state.local_queues.find(key);
      if (it == state.local_queues.end() || collected.count(key) != 0) {
        plan.writes.push_back({WriteVerb::kCreate, std::move(desired), controller,
                               "ClusterQueue " + cq_name + " has no entrance in namespace " + ns_name});
        continue;
      }
      // An update keeps what the desired object leaves unset (labels, finalizers) and replaces
      // the rest (kubeclientset.UpdateWithCtrlClient).
      LocalQueue merged = it->second;
      merged.metadata.annotations = desired.metadata.annotations;
      merged.metadata.owner_references = desired.metadata.owner_references;
      merged.cluster_queue = desired.cluster_queue;
      if (merged == it->second) continue;
      plan.writes.push_back({WriteVerb::kUpdate, std::move(merged), controller,
                             "LocalQueue " + key + " drifted from the entrance of ClusterQueue " + cq_name});
    }
  }
  return plan;
}

}  // namespace chaintwin::model
