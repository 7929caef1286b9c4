#include "model/kueue/scheduler/workload_conditions.h"

#include <algorithm>

namespace chaintwin::model {
namespace {

void reset_checks(Workload& wl, TimeUs now) {
  for (auto& c : wl.status.admission_checks) {
    if (c.state == CheckState::kPending) continue;
    c.state = CheckState::kPending;
    c.message.clear();
    c.last_transition = now;
  }
}

}  // namespace

bool set_pending(Workload& wl, const std::string& reason, const std::string& message, TimeUs) {
  const bool changed = set_condition(wl.status.conditions, kWorkloadQuotaReserved, false, reason, message);
  set_condition(wl.status.conditions, kWorkloadAdmitted, false, "NoReservation", "The workload has no reservation");
  return changed;
}

bool pending_unchanged(const Workload& wl, const std::string& reason, const std::string& message) {
  const Condition* reserved = find_condition(wl.status.conditions, kWorkloadQuotaReserved);
  const Condition* admitted = find_condition(wl.status.conditions, kWorkloadAdmitted);
  // What set_pending() writes, compared field by field (no Condition built per call: the idle
  // cycles ask this of every parked head).
  return reserved != nullptr && admitted != nullptr && reserved->status == "False" && reserved->reason == reason &&
         reserved->message == message && reserved->observed_generation == 0 && admitted->status == "False" &&
         admitted->reason == "NoReservation" && admitted->message == "The workload has no reservation" &&
         admitted->observed_generation == 0;
}

std::vector<WorkloadTransition> reserve_quota(Workload& wl, const ClusterQueue& cq, Admission admission, TimeUs now) {
  const std::string key = object_key(wl.metadata);
  const std::string& name = cq.metadata.name;
  wl.status.admission = std::move(admission);
  wl.status.quota_reserved_time = now;
  for (const std::string_view type : {kWorkloadEvicted, kWorkloadPreempted}) {
    const Condition* prev = find_condition(wl.status.conditions, type);
    if (prev == nullptr || prev->status != "True") continue;
    set_condition(wl.status.conditions, type, false, "QuotaReserved", "Previously: " + prev->message);
  }
  std::vector<AdmissionCheckState> checks;
  for (const auto& check : cq.spec.admission_checks) {
    const auto it = std::find_if(wl.status.admission_checks.begin(), wl.status.admission_checks.end(),
                                 [&](const AdmissionCheckState& s) { return s.name == check; });
    if (it != wl.status.admission_checks.end()) checks.push_back(*it);
    else checks.push_back(AdmissionCheckState{check, CheckState::kPending, "", now});
  }
  wl.status.admission_checks = std::move(checks);
  const std::string message = "Quota reserved in ClusterQueue " + name;
  set_condition(wl.status.conditions, kWorkloadQuotaReserved, true, "QuotaReserved", message);
  set_condition(wl.status.conditions, kWorkloadAdmitted, false, "UnsatisfiedChecks",
                "The workload has not all checks ready");
  std::vector<WorkloadTransition> out{{key, name, TransitionType::kQuotaReserved, TransitionReason::kQuotaReserved, message}};
  for (auto& t : sync_admitted(wl, now)) out.push_back(std::move(t));
  return out;
}

std::vector<WorkloadTransition> sync_admitted(Workload& wl, TimeUs) {
  if (!wl.admitted()) return {};
  const std::string& cq = wl.status.admission->cluster_queue;
  if (!set_condition(wl.status.conditions, kWorkloadAdmitted, true, "Admitted", "The workload is admitted"))
    return {};
  return {{object_key(wl.metadata), cq, TransitionType::kAdmitted, TransitionReason::kAdmitted, "Admitted by ClusterQueue " + cq}};
}

void unset_quota_reservation(Workload& wl, const std::string& reason, const std::string& message, TimeUs now) {
  wl.status.admission.reset();
  set_condition(wl.status.conditions, kWorkloadQuotaReserved, false, reason, message);
  set_condition(wl.status.conditions, kWorkloadAdmitted, false, "NoReservation", "The workload has no reservation");
  reset_checks(wl, now);
}

void evict(Workload& wl, const std::string& reason, const std::string& message, TimeUs now) {
  set_condition(wl.status.conditions, kWorkloadEvicted, true, reason, message);
  ++wl.status.evictions;
  unset_quota_reservation(wl, "Pending", message, now);
}

std::vector<WorkloadTransition> evict_for_preemption(Workload& wl, const std::string& message, TimeUs now,
                                                     TransitionReason reason) {
  const std::string key = object_key(wl.metadata);
  const std::string cq = wl.status.admission ? wl.status.admission->cluster_queue : "";
  set_condition(wl.status.conditions, kWorkloadEvicted, true, "Preempted", message);
  set_condition(wl.status.conditions, kWorkloadPreempted, true, transition_reason_name(reason), message);
  ++wl.status.evictions;
  reset_checks(wl, now);
  if (!wl.status.admission_checks.empty())
    set_condition(wl.status.conditions, kWorkloadAdmitted, false, "UnsatisfiedChecks",
                  "The workload has not all checks ready");
  return {{key, cq, TransitionType::kEvicted, TransitionReason::kPreempted, message}, {key, cq, TransitionType::kPreempted, reason, message}};
}

void set_requeued(Workload& wl, bool requeued, const std::string& reason, const std::string& message) {
  set_condition(wl.status.conditions, kWorkloadRequeued, requeued, reason, message);
}

}  // namespace chaintwin::model
