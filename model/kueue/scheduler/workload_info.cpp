#include "model/kueue/scheduler/workload_info.h"

#include "model/admission/accelerator_claim.h"

namespace chaintwin::model {

WorkloadInfo workload_info(const Workload& wl) {
  WorkloadInfo info;
  info.pod_requests.reserve(wl.pod_sets.size());
  for (const auto& ps : wl.pod_sets) info.pod_requests.push_back(pod_effective_requests(ps.template_));
  return info;
}

}  // namespace chaintwin::model
