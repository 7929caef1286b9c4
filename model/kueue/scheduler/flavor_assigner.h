// Kueue's flavor assignment (pkg/scheduler/flavorassigner, v0.14):
// per PodSet and per resource group, flavors in list order; a flavor is
// skipped when missing, when it cannot serve the PodSet's topology request, when one of its
// NoSchedule/NoExecute taints is not tolerated, or when the PodSet's nodeSelector / required
// affinity (reduced to the group's label keys) does not match its nodeLabels; then the int64
// quota check per covered resource (fitsResourceQuota): above PotentialAvailable (nominal for an
// isolated queue) is NoFit; within Available (nominal − usage for an isolated queue; the cohort
// arithmetic of quota_tree.h otherwise) fits, at the borrow height of the lowest subtree that
// covers it; in between, when within nominal, or when reclaiming within a subtree or preempting
// while borrowing is possible, the preemption oracle decides between Preempt, Reclaim and "no
// candidates". Resources no group covers are ignored (quotaCheckStrategy IgnoreUndeclared). A
// flavor's mode is the worst of its resources'. The search stops at a flavor where
// shouldTryNextFlavor says so: not NoFit or no candidates, not Preempt/Reclaim under
// whenCanPreempt TryNextFlavor (the default), not borrowing under whenCanBorrow TryNextFlavor;
// otherwise the preferred mode seen is kept (isPreferred: mode first — Fit > Reclaim > Preempt >
// no candidates — then the lower borrow height; the other way round under preference
// PreemptionOverBorrowing), the first of equals.
// Called by schedule_cycle; TAS runs afterwards on the chosen flavor (tas_assigner.h).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/kueue/scheduler/flavor_scan.h"
#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/preemption_candidates.h"
#include "model/kueue/scheduler/quota_tree.h"
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
  // The height of the lowest cohort subtree the chosen flavors fit in (Kueue's
  // Assignment.Borrowing; 0 when within the queue's nominal quota, or with no cohort).
  int borrowing = 0;
  FlavorScan scan;  // where each group's search stopped
  bool operator==(const FlavorAssignment&) const = default;
};

// What Kueue's SimulatePreemption says for one (flavor, resource) and the amount the Workload would
// use of it: whether preempting some candidates would make room, and whether every such candidate
// is in another ClusterQueue of the cohort (reclaim) or some is in this one (preempt); and the
// borrow height once they are gone.
enum class PreemptionPossibility { kNoCandidates, kPreempt, kReclaim };
struct OracleAnswer {
  PreemptionPossibility possibility = PreemptionPossibility::kNoCandidates;
  int borrow = 0;
  bool operator==(const OracleAnswer&) const = default;
};
using PreemptionOracle = std::function<OracleAnswer(const FlavorResource& fr, int64_t amount)>;

// The quota a ClusterQueue in a cohort sees: the cohort tree and the whole snapshot (every queue's
// reserved quota). Without it (or for a queue with no cohort) the queue's own nominal and usage
// are all there is.
struct CohortQuota {
  const QuotaTree* tree = nullptr;
  const UsageSnapshot* snapshot = nullptr;
  const QuotaUsage* bound = nullptr;  // the snapshot bound to the tree (faster), when the caller has it
};

// `usage` is the ClusterQueue's reserved quota so far (snapshot + this cycle's admissions).
// `oracle`: null when nothing can be preempted (withinClusterQueue Never, no reclaim): every
// flavor short of unused quota is then "no candidates", as before preemption was modelled.
// `info`: the Workload's per-PodSet requests as the QueueManager keeps them (workload_info.h);
// derived from the Pod templates when null. `cohort`: see CohortQuota. `resume`: where the last
// search stopped (FlavorFungibilityPreserveScanProgress): each group's search starts after the
// flavor it last attempted instead of at the first.
FlavorAssignment assign_flavors(const ClusterState& cluster, const ClusterQueue& cq, const Workload& wl,
                                const FlavorResourceAmounts& usage, const KueueConfig& config,
                                const PreemptionOracle* oracle = nullptr, const WorkloadInfo* info = nullptr,
                                const CohortQuota& cohort = {}, const FlavorScan* resume = nullptr);


}  // namespace chaintwin::model
