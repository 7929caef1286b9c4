#include "model/workload/workload.h"

#include <algorithm>

namespace chaintwin::model {

std::string_view to_string(CheckState state) {
  switch (state) {
    case CheckState::kPending: return "Pending";
    case CheckState::kReady: return "Ready";
    case CheckState::kRetry: return "Retry";
    case CheckState::kRejected: return "Rejected";
  }
  return "Pending";
}

std::string_view to_string(PodPhase phase) {
  switch (phase) {
    case PodPhase::kPending: return "Pending";
    case PodPhase::kRunning: return "Running";
    case PodPhase::kSucceeded: return "Succeeded";
    case PodPhase::kFailed: return "Failed";
  }
  return "Pending";
}

bool Workload::admitted() const {
  if (!quota_reserved()) return false;
  return std::all_of(status.admission_checks.begin(), status.admission_checks.end(),
                     [](const AdmissionCheckState& c) { return c.state == CheckState::kReady; });
}

bool Workload::finished() const {
  const Condition* c = find_condition(status.conditions, kWorkloadFinished);
  return c != nullptr && c->status == "True";
}

}  // namespace chaintwin::model
