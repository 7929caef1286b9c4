#include "viz/workload_filter.h"

namespace chaintwin::viz {

std::vector<size_t> workload_rows(const std::vector<WorkloadRow>& rows, WorkloadView view,
                                  const std::string& cluster_queue) {
  std::vector<size_t> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    const WorkloadRow& w = rows[i];
    if (!cluster_queue.empty() && w.cluster_queue != cluster_queue) continue;
    bool keep = false;
    switch (view) {
      case WorkloadView::kAll: keep = true; break;
      case WorkloadView::kPending: keep = w.phase == WorkloadPhase::kPending; break;
      case WorkloadView::kAdmitted: keep = w.phase == WorkloadPhase::kAdmitted; break;
      case WorkloadView::kEvictedOrRetried: keep = w.evictions > 0 || w.retries > 0; break;
      case WorkloadView::kFinished: keep = w.phase == WorkloadPhase::kFinished; break;
      case WorkloadView::kRejected: keep = w.phase == WorkloadPhase::kRejected; break;
    }
    if (keep) out.push_back(i);
  }
  return out;
}

}  // namespace chaintwin::viz
