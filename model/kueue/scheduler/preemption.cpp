#include "model/kueue/scheduler/preemption.h"

namespace chaintwin::model {
namespace {

int64_t nominal_of(const ClusterQueue& cq, const FlavorResource& fr) {
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& f : g.flavors) {
      if (f.name != fr.first) continue;
      for (const auto& r : f.resources)
        if (r.name == fr.second) return resource_value(r.name, r.nominal_quota);
    }
  return 0;
}

// HumanReadablePreemptionReasons (preemption.go).
std::string human_readable(TransitionReason reason) {
  switch (reason) {
    case TransitionReason::kInClusterQueue: return "prioritization in the ClusterQueue";
    case TransitionReason::kInCohortReclamation: return "reclamation within the cohort";
    case TransitionReason::kInCohortReclaimWhileBorrowing: return "reclamation within the cohort while borrowing";
    case TransitionReason::kInCohortFairSharing: return "Fair Sharing within the cohort";
    default: return "UNKNOWN";
  }
}

}  // namespace

bool quota_fits(const ClusterQueue& cq, const FlavorResourceAmounts& request, const UsageSnapshot& usage) {
  const auto q = usage.quota.find(cq.metadata.name);
  for (const auto& [fr, v] : request) {
    int64_t used = 0;
    if (q != usage.quota.end())
      if (const auto u = q->second.find(fr); u != q->second.end()) used = u->second;
    if (v > nominal_of(cq, fr) - used) return false;
  }
  return true;
}

std::vector<std::string> minimal_victims(const std::vector<const Workload*>& candidates, const UsageSnapshot& usage,
                                         const PreemptorFits& fits) {
  if (candidates.empty()) return {};
  UsageSnapshot trial = usage;
  std::vector<const Workload*> targets;
  for (const Workload* c : candidates) {
    add_workload_usage(trial, *c, -1);
    targets.push_back(c);
    if (!fits(trial)) continue;
    // Fill back, in reverse order, every victim the preemptor can do without (Kueue moves the
    // last victim into the freed place, so the order of the result is Kueue's).
    for (std::size_t n = targets.size(); n >= 2; --n) {
      const std::size_t i = n - 2;
      add_workload_usage(trial, *targets[i]);
      if (fits(trial)) {
        targets[i] = targets.back();
        targets.pop_back();
      } else {
        add_workload_usage(trial, *targets[i], -1);
      }
    }
    std::vector<std::string> out;
    for (const Workload* t : targets) out.push_back(object_key(t->metadata));
    return out;
  }
  return {};
}

std::string preemption_message(const Workload& preemptor, TransitionReason reason) {
  const std::string uid = preemptor.metadata.uid.empty() ? "UNKNOWN" : preemptor.metadata.uid;
  const auto job = preemptor.metadata.labels.find("kueue.x-k8s.io/job-uid");
  const std::string job_uid = job == preemptor.metadata.labels.end() || job->second.empty() ? "UNKNOWN" : job->second;
  return "Preempted to accommodate a workload (UID: " + uid + ", JobUID: " + job_uid +
         ") due to " + human_readable(reason);
}

}  // namespace chaintwin::model
