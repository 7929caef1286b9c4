#include "sim/runner/kueue_support.h"

namespace chaintwin::sim {
namespace {

bool preempts(const std::string& policy) { return !policy.empty() && policy != "Never"; }

}  // namespace

model::Status check_modelled_kueue(const Scenario& scenario, const model::ClusterState& settled) {
  if (!scenario.kueue.fair_sharing) return model::Ok{};
  for (const auto& [name, cq] : settled.cluster_queues) {
    if (cq.spec.cohort_name.empty()) continue;
    const auto& p = cq.spec.preemption;
    std::string field;
    if (preempts(p.within_cluster_queue)) field = "withinClusterQueue: " + p.within_cluster_queue;
    else if (preempts(p.reclaim_within_cohort)) field = "reclaimWithinCohort: " + p.reclaim_within_cohort;
    else if (preempts(p.borrow_within_cohort_policy)) field = "borrowWithinCohort.policy: " + p.borrow_within_cohort_policy;
    if (field.empty()) continue;
    return model::err(scenario.kueue.fair_sharing_at + ": kueue.fairSharing: ClusterQueue '" + name + "' in cohort '" +
                      cq.spec.cohort_name + "' may preempt (spec.preemption." + field +
                      "), and Kueue's fair-sharing preemption (its strategies LessThanOrEqualToFinalShare and "
                      "LessThanInitialShare) is not modelled yet: set its preemption policies to Never, or leave "
                      "fair sharing off");
  }
  return model::Ok{};
}

}  // namespace chaintwin::sim
