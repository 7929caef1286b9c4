#include "model/workload/priority_class.h"

namespace chaintwin::model {

std::optional<PriorityClassRef> priority_class_ref(const std::string& source, const std::string& name) {
  if (source == "kueue.x-k8s.io/workloadpriorityclass") return PriorityClassRef{"kueue.x-k8s.io", "WorkloadPriorityClass", name};
  if (source == "scheduling.k8s.io/priorityclass") return PriorityClassRef{"scheduling.k8s.io", "PriorityClass", name};
  return std::nullopt;
}

std::optional<PriorityClassRef> priority_class_ref(const ResolvedPriority& resolved) {
  if (resolved.name.empty()) return std::nullopt;
  return priority_class_ref(resolved.source, resolved.name);
}

Result<ResolvedPriority> resolve_priority(const std::string& workload_priority_class, const std::string& priority_class,
                                          const std::map<std::string, WorkloadPriorityClass>& workload_classes,
                                          const std::map<std::string, PriorityClass>& pod_classes) {
  if (!workload_priority_class.empty()) {
    const auto it = workload_classes.find(workload_priority_class);
    if (it == workload_classes.end())
      return err("workloadpriorityclasses.kueue.x-k8s.io \"" + workload_priority_class + "\" not found");
    return ResolvedPriority{it->second.value, "kueue.x-k8s.io/workloadpriorityclass", workload_priority_class};
  }
  if (!priority_class.empty()) {
    const auto it = pod_classes.find(priority_class);
    if (it == pod_classes.end()) return err("priorityclasses.scheduling.k8s.io \"" + priority_class + "\" not found");
    return ResolvedPriority{it->second.value, "scheduling.k8s.io/priorityclass", priority_class};
  }
  const PriorityClass* global = nullptr;
  for (const auto& [name, pc] : pod_classes)  // in name order; the lowest value wins, the first name on a tie
    if (pc.global_default && (global == nullptr || pc.value < global->value)) global = &pc;
  if (global != nullptr) return ResolvedPriority{global->value, "scheduling.k8s.io/priorityclass", global->metadata.name};
  return ResolvedPriority{};
}

}  // namespace chaintwin::model
