#include "model/kueue/scheduler/workload_info.h"

#include "model/admission/accelerator_claim.h"
#include "model/kueue/scheduler/tas_assigner.h"

namespace chaintwin::model {

WorkloadInfo workload_info(const Workload& wl, EffectiveRequestsFn transform) {
  WorkloadInfo info;
  info.transformed_by = transform;
  info.pod_sets.reserve(wl.pod_sets.size());
  for (const auto& ps : wl.pod_sets) {
    ResourceList requests = pod_effective_requests(ps.template_);
    ResourceAmounts amounts = resource_amounts(transform(requests));
    std::string shape = tas_shape_key(ps, requests);
    info.pod_sets.push_back({std::move(requests), std::move(amounts), std::move(shape)});
  }
  return info;
}

}  // namespace chaintwin::model
