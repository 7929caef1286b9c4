// Which Workload rows a view of the Workloads panel lists: all, pending (never evicted), admitted,
// evicted or retried (at least one eviction or Retry, whatever they are now), finished, rejected;
// of one ClusterQueue only when a pool is selected (`gui --select`, a click in Pools).
#pragma once

#include <string>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

enum class WorkloadView { kAll, kPending, kAdmitted, kEvictedOrRetried, kFinished, kRejected };

std::vector<size_t> workload_rows(const std::vector<WorkloadRow>& rows, WorkloadView view,
                                  const std::string& cluster_queue = "");

}  // namespace chaintwin::viz
