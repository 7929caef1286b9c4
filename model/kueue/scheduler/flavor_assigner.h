// Kueue's flavor assignment (pkg/scheduler/flavorassigner, v0.14) for an isolated ClusterQueue:
// per PodSet and per resource group, flavors in list order; a flavor is
// skipped when missing, when it cannot serve the PodSet's topology request, when one of its
// NoSchedule/NoExecute taints is not tolerated, or when the PodSet's nodeSelector / required
// affinity (reduced to the group's label keys) does not match its nodeLabels; then the int64
// quota check (nominal minus usage) per covered resource. Resources no group covers are ignored
// (quotaCheckStrategy IgnoreUndeclared). A request within nominal but above what is unused asks
// the preemption oracle: with candidates the flavor is in Preempt mode, without it is "no
// candidates". The search stops at the first flavor where everything fits, or at a Preempt flavor
// when spec.flavorFungibility.whenCanPreempt is Preempt / MayStopSearch; NoFit and no-candidates
// flavors are passed over, and so are Preempt ones under TryNextFlavor (the best mode seen is kept:
// Fit > Preempt > no candidates).
// Called by schedule_cycle; TAS runs afterwards on the chosen flavor (tas_assigner.h).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/preemption_candidates.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/kueue/scheduler/workload_info.h"
#include "model/cluster_state.h"

namespace chaintwin::model {

struct PodSetFlavors {
  std::string name;
  StringMap flavors;  // resource → flavor (an admission shares it)
  ResourceAmounts usage;                       // the PodSet's total for the assigned resources
  int32_t count = 0;
  bool operator==(const PodSetFlavors&) const = default;
};

struct FlavorAssignment {
  bool fits = false;
  // Not fit, but some PodSet is in Preempt mode (its flavor is short of unused quota and the oracle
  // found candidates) and none is NoFit: pod_sets is complete, for the preemption search.
  bool preempt = false;
  std::vector<PodSetFlavors> pod_sets;  // complete when fits or preempt
  std::set<FlavorResource> contested;   // the (flavor, resource) pairs in Preempt mode
  std::string message;                  // Kueue's message when it does not fit
  bool operator==(const FlavorAssignment&) const = default;
};

// Kueue's SimulatePreemption for one (flavor, resource) and the amount the Workload would use of
// it: whether preempting some candidates would make room.
using PreemptionOracle = std::function<bool(const FlavorResource& fr, int64_t amount)>;

// `usage` is the ClusterQueue's reserved quota so far (snapshot + this cycle's admissions).
// `oracle`: null when nothing can be preempted (withinClusterQueue Never): every flavor short of
// unused quota is then "no candidates", as before preemption was modelled.
// `info`: the Workload's per-PodSet requests as the QueueManager keeps them (workload_info.h);
// derived from the Pod templates when null.
FlavorAssignment assign_flavors(const ClusterState& cluster, const ClusterQueue& cq, const Workload& wl,
                                const FlavorResourceAmounts& usage, const KueueConfig& config,
                                const PreemptionOracle* oracle = nullptr, const WorkloadInfo* info = nullptr);

// Whether spec.flavorFungibility.whenCanPreempt stops the search at a Preempt flavor (v1beta1
// `Preempt`, v1beta2 `MayStopSearch`); TryNextFlavor and unset do not.
bool stops_at_preempt(const ClusterQueue& cq);

}  // namespace chaintwin::model
