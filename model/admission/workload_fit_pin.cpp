// The Workload fit pin.
#include "model/admission/workload_fit_pin.h"

#include "model/admission/accelerator_claim.h"
#include "model/admission/fit_pin.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

PodFitDemand demand_of(const PodTemplate& pod) {
  PodFitDemand d;
  for (const auto& claiming : claiming_containers(pod)) {
    PodFitDemand one;
    if (claiming.claim.family == ResourceFamily::kSliced) one.sliced_units = claiming.claim.units;
    if (claiming.claim.family == ResourceFamily::kShared)
      one.shared_cards = static_cast<int32_t>(std::min<int64_t>(claiming.claim.count, INT32_MAX));
    d = combine_fit_demands(d, one);
  }
  return d;
}

const InstanceType* pinning_instance_type(const Workload& wl, const ClusterState& cluster) {
  if (!cluster.settings.workload_fit_affinity) return nullptr;
  if (wl.queue_name.rfind(kGpustackLocalQueuePrefix, 0) != 0) return nullptr;
  const auto lq = cluster.local_queues.find(local_queue_key(wl.metadata.namespace_, wl.queue_name));
  if (lq == cluster.local_queues.end()) return nullptr;
  const auto cq = cluster.cluster_queues.find(lq->second.cluster_queue);
  if (cq == cluster.cluster_queues.end()) return nullptr;
  const auto mark = cq->second.metadata.labels.find(keys::kResourceType);
  if (mark == cq->second.metadata.labels.end() || mark->second != keys::kClusterQueueResType) return nullptr;
  const auto it = cluster.instance_types.find(cq->first);
  if (it == cluster.instance_types.end() || it->second.spec.accelerator_group.empty()) return nullptr;
  return &it->second;
}

}  // namespace

bool apply_workload_fit_pin(Workload& wl, const ClusterState& cluster) {
  if (wl.quota_reserved()) return false;
  const InstanceType* type = pinning_instance_type(wl, cluster);
  if (!type) return false;
  bool changed = false;
  for (auto& pod_set : wl.pod_sets) {
    const auto requirements = fit_pin_requirements(type->spec.accelerator_group, demand_of(pod_set.template_));
    if (requirements.empty()) continue;
    auto pinned = pin_required_terms(pod_set.template_.required_node_affinity, requirements);
    if (pinned != pod_set.template_.required_node_affinity) {
      pod_set.template_.required_node_affinity = std::move(pinned);
      changed = true;
    }
  }
  return changed;
}

}  // namespace chaintwin::model
