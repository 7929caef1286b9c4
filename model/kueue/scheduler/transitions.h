// What the simulated Kueue did to one Workload, as a value with Kueue's reason and message; the
// runner logs these and turns them into events. Returned by schedule_cycle and the lifecycle
// functions (admission_lifecycle.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chaintwin::model {

struct WorkloadTransition {
  std::string workload;       // "<ns>/<name>"
  std::string cluster_queue;
  std::string type;           // QuotaReserved, Admitted, Pending, Evicted, Preempted, Requeued, Finished, Deactivated, QuotaReleased
  std::string reason;         // Kueue's reason
  std::string message;
  bool operator==(const WorkloadTransition&) const = default;
};

struct CycleResult {
  std::vector<WorkloadTransition> transitions;
  int32_t popped = 0;  // heads examined
  int32_t preemptions = 0;  // Workloads evicted by preemption in this cycle
  // The cycle admitted a Workload: Kueue's KeepGoing (else SlowDown, cycle_cadence.h). Issuing
  // preemptions is not progress: Kueue marks only assumed (and TAS-replacement-evicted) entries so.
  bool progressed = false;
  bool operator==(const CycleResult&) const = default;
};

}  // namespace chaintwin::model
