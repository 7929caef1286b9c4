// The two priority classes a Workload's spec.priority comes from (Kueue's jobframework,
// pkg/util/priority: GetPriorityFromWorkloadPriorityClass, GetPriorityFromPriorityClass):
// Kueue's WorkloadPriorityClass (kueue.x-k8s.io), named by the job's kueue.x-k8s.io/priority-class
// label, and Kubernetes' PriorityClass (scheduling.k8s.io/v1), named by the Pod template's
// priorityClassName, or the global default one when it names none. Kueue's scheduler reads only
// the resulting spec.priority (0 when unset).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/api/object_meta.h"
#include "model/result.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

struct WorkloadPriorityClass {
  ObjectMeta metadata;
  int32_t value = 0;
  std::string description;
  bool operator==(const WorkloadPriorityClass&) const = default;
};

struct PriorityClass {
  ObjectMeta metadata;
  int32_t value = 0;
  bool global_default = false;
  std::string description;
  bool operator==(const PriorityClass&) const = default;
};

// What spec.priority a Workload gets, and from which class (Kueue's priorityClassSource).
struct ResolvedPriority {
  int32_t value = 0;
  std::string source;  // "kueue.x-k8s.io/workloadpriorityclass", "scheduling.k8s.io/priorityclass" or ""
  std::string name;    // the class's name, "" when none
  bool operator==(const ResolvedPriority&) const = default;
};

// The Workload's spec.priorityClassRef for a resolved priority (none when no class gave it).
std::optional<PriorityClassRef> priority_class_ref(const ResolvedPriority& resolved);
// v1beta1's priorityClassSource as v1beta2's group and kind (none for another source).
std::optional<PriorityClassRef> priority_class_ref(const std::string& source, const std::string& name);

// Kueue's order: the named WorkloadPriorityClass; else the named PriorityClass; else the global
// default PriorityClass (the lowest value when several claim it); else 0. A named class that does
// not exist is an error (Kueue does not create the Workload).
Result<ResolvedPriority> resolve_priority(const std::string& workload_priority_class, const std::string& priority_class,
                                          const std::map<std::string, WorkloadPriorityClass>& workload_classes,
                                          const std::map<std::string, PriorityClass>& pod_classes);

}  // namespace chaintwin::model
