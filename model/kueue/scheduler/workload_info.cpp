#include "model/kueue/scheduler/workload_info.h"

#include "model/admission/accelerator_claim.h"
#include "model/kueue/scheduler/tas_assigner.h"

namespace chaintwin::model {

WorkloadInfo workload_info(const Workload& wl) {
  WorkloadInfo info;
  info.pod_sets.reserve(wl.pod_sets.size());
  for (const auto& ps : wl.pod_sets) {
    ResourceList requests = pod_effective_requests(ps.template_);
    std::string shape = tas_shape_key(ps, requests);
    info.pod_sets.push_back({std::move(requests), std::move(shape)});
  }
  return info;
}

}  // namespace chaintwin::model
