#include "model/kueue/scheduler/transitions.h"

namespace chaintwin::model {

std::string_view transition_type_name(TransitionType type) {
  switch (type) {
    case TransitionType::kQuotaReserved: return "QuotaReserved";
    case TransitionType::kAdmitted: return "Admitted";
    case TransitionType::kPending: return "Pending";
    case TransitionType::kEvicted: return "Evicted";
    case TransitionType::kPreempted: return "Preempted";
    case TransitionType::kRequeued: return "Requeued";
    case TransitionType::kFinished: return "Finished";
    case TransitionType::kDeactivated: return "Deactivated";
    case TransitionType::kQuotaReleased: return "QuotaReleased";
  }
  return "";
}

std::string_view transition_reason_name(TransitionReason reason) {
  switch (reason) {
    case TransitionReason::kQuotaReserved: return "QuotaReserved";
    case TransitionReason::kAdmitted: return "Admitted";
    case TransitionReason::kPending: return "Pending";
    case TransitionReason::kInadmissible: return "Inadmissible";
    case TransitionReason::kPreempted: return "Preempted";
    case TransitionReason::kInClusterQueue: return "InClusterQueue";
    case TransitionReason::kAdmissionCheck: return "AdmissionCheck";
    case TransitionReason::kBackoffFinished: return "BackoffFinished";
    case TransitionReason::kDeactivated: return "Deactivated";
    case TransitionReason::kClusterQueueStopped: return "ClusterQueueStopped";
    case TransitionReason::kClusterQueueRestarted: return "ClusterQueueRestarted";
    case TransitionReason::kSucceeded: return "Succeeded";
    case TransitionReason::kFinished: return "Finished";
    case TransitionReason::kInCohortReclamation: return "InCohortReclamation";
    case TransitionReason::kInCohortReclaimWhileBorrowing: return "InCohortReclaimWhileBorrowing";
    case TransitionReason::kInCohortFairSharing: return "InCohortFairSharing";
  }
  return "";
}

}  // namespace chaintwin::model
