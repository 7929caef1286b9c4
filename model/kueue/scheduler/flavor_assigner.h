// Kueue's flavor assignment (pkg/scheduler/flavorassigner, v0.14) for an isolated ClusterQueue
// with preemption off: per PodSet and per resource group, flavors in list order; a flavor is
// skipped when missing, when it cannot serve the PodSet's topology request, when one of its
// NoSchedule/NoExecute taints is not tolerated, or when the PodSet's nodeSelector / required
// affinity (reduced to the group's label keys) does not match its nodeLabels; then the int64
// quota check (nominal minus usage) per covered resource. Resources no group covers are ignored
// (quotaCheckStrategy IgnoreUndeclared). The search stops at the first flavor where everything
// fits (whenCanPreempt TryNextFlavor: a flavor short of unused quota is passed over).
// Called by schedule_cycle; TAS runs afterwards on the chosen flavor (tas_assigner.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/stage4/cluster_state.h"

namespace chaintwin::model {

struct PodSetFlavors {
  std::string name;
  std::map<std::string, std::string> flavors;  // resource → flavor
  ResourceAmounts usage;                       // the PodSet's total for the assigned resources
  int32_t count = 0;
  bool operator==(const PodSetFlavors&) const = default;
};

struct FlavorAssignment {
  bool fits = false;
  std::vector<PodSetFlavors> pod_sets;  // complete when fits
  std::string message;                  // Kueue's message when it does not fit
  bool operator==(const FlavorAssignment&) const = default;
};

// `usage` is the ClusterQueue's reserved quota so far (snapshot + this cycle's admissions).
FlavorAssignment assign_flavors(const ClusterState& cluster, const ClusterQueue& cq, const Workload& wl,
                                const FlavorResourceAmounts& usage, const KueueConfig& config);

}  // namespace chaintwin::model
