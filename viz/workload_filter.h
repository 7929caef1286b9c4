// Which Workload rows a view of the Workloads panel lists: all, pending (never evicted), admitted,
// evicted or retried (at least one eviction or Retry, whatever they are now), finished, rejected.
#pragma once

#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

enum class WorkloadView { kAll, kPending, kAdmitted, kEvictedOrRetried, kFinished, kRejected };

std::vector<size_t> workload_rows(const std::vector<WorkloadRow>& rows, WorkloadView view);

}  // namespace chaintwin::viz
