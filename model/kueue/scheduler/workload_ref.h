// WorkloadRef: a pending Workload as the scheduler's kept state knows it inside, by the dense slot
// its QueueManager gave it (queue_manager.h). A slot is reused once its Workload is removed; the
// incarnation, counted per slot, tells the Workloads that held it apart.
#pragma once

#include <cstdint>

namespace chaintwin::model {

using WorkloadSlot = uint32_t;
inline constexpr WorkloadSlot kNoWorkloadSlot = UINT32_MAX;

struct WorkloadRef {
  WorkloadSlot slot = kNoWorkloadSlot;
  uint32_t incarnation = 0;
  bool operator==(const WorkloadRef&) const = default;
};

}  // namespace chaintwin::model
