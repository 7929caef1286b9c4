// What the simulated Kueue did to one Workload, as a value with Kueue's reason and message; the
// runner logs these and turns them into events. Returned by schedule_cycle and the lifecycle
// functions (admission_lifecycle.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/kueue/scheduler/usage_snapshot.h"

namespace chaintwin::model {

// The Workload condition a transition sets (Kueue's condition types, plus the two the runner reads
// off the lifecycle: Requeued and QuotaReleased). Printed by name (transition_type_name).
enum class TransitionType : uint8_t {
  kQuotaReserved,
  kAdmitted,
  kPending,
  kEvicted,
  kPreempted,
  kRequeued,
  kFinished,
  kDeactivated,
  kQuotaReleased,
};

// Kueue's reason on that condition, as Kueue spells it (transition_reason_name).
enum class TransitionReason : uint8_t {
  kQuotaReserved,
  kAdmitted,
  kPending,
  kInadmissible,
  kPreempted,
  kInClusterQueue,
  kAdmissionCheck,
  kBackoffFinished,
  kDeactivated,
  kClusterQueueStopped,
  kClusterQueueRestarted,
  kSucceeded,
  kFinished,
  kInCohortReclamation,
  kInCohortReclaimWhileBorrowing,
  kInCohortFairSharing,
};

std::string_view transition_type_name(TransitionType type);
std::string_view transition_reason_name(TransitionReason reason);

struct WorkloadTransition {
  std::string workload;  // "<ns>/<name>"
  std::string cluster_queue;
  TransitionType type;
  TransitionReason reason;
  std::string message;
  bool operator==(const WorkloadTransition&) const = default;
};

// One admission of a cycle: the Workload, the amounts it added to the snapshot the cycle decided
// against, and, when that snapshot is the caller's kept one (KeptCycleState::reserved), the cells
// of it they went to (empty otherwise).
struct AdmittedUsage {
  std::string key;
  WorkloadUsage usage;
  CellCharges cells;
  bool operator==(const AdmittedUsage&) const = default;
};

struct CycleResult {
  std::vector<WorkloadTransition> transitions;
  int32_t popped = 0;  // heads examined
  int32_t preemptions = 0;  // Workloads evicted by preemption in this cycle
  // The cycle admitted a Workload: Kueue's KeepGoing (else SlowDown, cycle_cadence.h). Issuing
  // preemptions is not progress: Kueue marks only assumed (and TAS-replacement-evicted) entries so.
  bool progressed = false;
  // What each admission added to the snapshot the cycle decided against, in admission order: a
  // kept snapshot's owner records it instead of deriving it again.
  std::vector<AdmittedUsage> admitted_usage;
  bool operator==(const CycleResult&) const = default;
};

}  // namespace chaintwin::model
