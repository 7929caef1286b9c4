// The Workload status edits Kueue makes (pkg/workload: SetQuotaReservation, UnsetQuotaReservation,
// SyncAdmittedCondition, Evict and the check resets), shared by schedule_cycle and the lifecycle
// functions so every path writes the same conditions, reasons and messages.
#pragma once

#include <string>
#include <vector>

#include "model/kueue/scheduler/transitions.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// QuotaReserved=False with `reason` (Pending | Inadmissible) and `message`, Admitted=False
// NoReservation. Returns whether the QuotaReserved condition changed.
bool set_pending(Workload& wl, const std::string& reason, const std::string& message, TimeUs now);
// Whether set_pending(wl, reason, message) would change nothing.
bool pending_unchanged(const Workload& wl, const std::string& reason, const std::string& message);

// Writes the admission, QuotaReserved=True (its time kept for the preemption order; an Evicted or
// Preempted condition that is True turns False, reason QuotaReserved, "Previously: <message>"), the ClusterQueue's checks (existing states kept,
// missing ones Pending, others dropped), and Admitted (True at once when every check is Ready).
std::vector<WorkloadTransition> reserve_quota(Workload& wl, const ClusterQueue& cq, Admission admission, TimeUs now);

// Admitted=True when quota is reserved and every check is Ready and it was not yet; returns the
// Admitted transition, if any.
std::vector<WorkloadTransition> sync_admitted(Workload& wl, TimeUs now);

// Clears the admission (quota released), QuotaReserved=False with reason/message, Admitted=False,
// every check back to Pending.
void unset_quota_reservation(Workload& wl, const std::string& reason, const std::string& message, TimeUs now);

// Evicted=True with reason/message, evictions counted, then unset_quota_reservation (reason Pending).
void evict(Workload& wl, const std::string& reason, const std::string& message, TimeUs now);

// Kueue's eviction by preemption (workload.Evict with SetPreemptedCondition): Evicted=True reason
// Preempted, Preempted=True with the target's reason (InClusterQueue, InCohortReclamation,
// InCohortReclaimWhileBorrowing or InCohortFairSharing), both with `message`; evictions counted, every check back to
// Pending (Admitted=False/UnsatisfiedChecks when the queue has checks). The reservation stays
// until the victim's Pods are gone (release_preempted, admission_lifecycle.h).
std::vector<WorkloadTransition> evict_for_preemption(Workload& wl, const std::string& message, TimeUs now,
                                                     TransitionReason reason = TransitionReason::kInClusterQueue);

void set_requeued(Workload& wl, bool requeued, const std::string& reason, const std::string& message);

}  // namespace chaintwin::model
