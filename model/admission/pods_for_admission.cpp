// Creating the Pods of an admitted Workload.
#include "model/admission/pods_for_admission.h"

#include <string>
#include <string_view>

namespace chaintwin::model {
namespace {

const PodSetAssignment* assignment_of(const Workload& wl, const std::string& pod_set) {
  if (!wl.status.admission) return nullptr;
  for (const auto& a : wl.status.admission->pod_set_assignments)
    if (a.name == pod_set) return &a;
  return nullptr;
}

// The node of each Pod index, from the domains in order.
std::vector<std::string> nodes_in_order(const PodSetAssignment* assignment) {
  std::vector<std::string> nodes;
  if (!assignment || !assignment->topology_assignment) return nodes;
  for (const auto& domain : assignment->topology_assignment->domains) {
    const std::string node = domain.values.empty() ? std::string() : domain.values.back();
    for (int32_t i = 0; i < domain.count; ++i) nodes.push_back(node);
  }
  return nodes;
}

// Sets `key` to `value`, building the key only when it is new (the template usually carries it).
void set_entry(StringMap& map, std::string_view key, const std::string& value) {
  if (const auto it = map.find(key); it != map.end()) {
    if (it->second != value) map.value_at(it) = value;
    return;
  }
  map.emplace(std::string(key), value);
}

}  // namespace

std::vector<Pod> pods_for_admission(const Workload& wl) {
  std::vector<Pod> pods;
  for (const auto& pod_set : wl.pod_sets) {
    const PodSetAssignment* assignment = assignment_of(wl, pod_set.name);
    const std::vector<std::string> nodes = nodes_in_order(assignment);
    for (int32_t i = 0; i < pod_set.count; ++i) {
      Pod pod;
      pod.metadata.name = wl.metadata.name + "-" + pod_set.name + "-" + std::to_string(i);
      pod.metadata.namespace_ = wl.metadata.namespace_;
      // The template with Kueue's labels and annotations added, built once in the spec and copied
      // to the metadata (both carry the same maps).
      pod.spec = pod_set.template_;
      StringMap& labels = pod.spec.labels;
      set_entry(labels, kQueueNameLabel, wl.queue_name);
      set_entry(labels, kPodSetLabel, pod_set.name);
      StringMap& annotations = pod.spec.annotations;
      set_entry(annotations, kWorkloadAnnotation, wl.metadata.name);
      // Kueue's PodSetInfo: a PodSet admitted with a topology assignment and no explicit topology
      // request gets the unconstrained annotation (implicit TAS), which makes its Pods TAS Pods.
      if (assignment != nullptr && assignment->topology_assignment &&
          !annotations.contains(kPodSetRequiredTopologyAnnotation) &&
          !annotations.contains(std::string_view("kueue.x-k8s.io/podset-preferred-topology")))
        set_entry(annotations, "kueue.x-k8s.io/podset-unconstrained-topology", "true");
      pod.metadata.labels = labels;
      pod.metadata.annotations = annotations;
      const auto idx = static_cast<size_t>(i);
      if (idx < nodes.size()) pod.node_name = nodes[idx];
      pods.push_back(std::move(pod));
    }
  }
  return pods;
}

}  // namespace chaintwin::model
