#include "model/kueue/scheduler/non_tas_usage.h"

#include <string>

#include "model/admission/accelerator_claim.h"

namespace chaintwin::model {

bool is_tas_pod(const Pod& pod) {
  const auto& a = pod.metadata.annotations;
  for (const std::string_view key :
       {kPodSetRequiredTopologyAnnotation, kPodSetPreferredTopologyAnnotation, kPodSetUnconstrainedTopologyAnnotation})
    if (a.count(key) != 0) return true;
  return pod.metadata.labels.count(kTasLabel) != 0;
}

bool counts_as_non_tas_usage(const Pod& pod) {
  if (pod.node_name.empty()) return false;  // unscheduled Pods use no capacity
  if (pod.phase == PodPhase::kSucceeded || pod.phase == PodPhase::kFailed) return false;
  return !is_tas_pod(pod);
}

void add_non_tas_pod_usage(UsageSnapshot& snapshot, const Pod& pod, int sign) {
  if (!counts_as_non_tas_usage(pod)) return;
  auto& used = snapshot.nodes[pod.node_name];
  for (const auto& [resource, v] : resource_amounts(pod_effective_requests(pod.spec))) used[resource] += sign * v;
  used["pods"] += sign;
}

}  // namespace chaintwin::model
