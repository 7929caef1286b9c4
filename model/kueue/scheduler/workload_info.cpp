#include "model/kueue/scheduler/workload_info.h"

#include "model/admission/accelerator_claim.h"
#include "model/kueue/scheduler/tas_assigner.h"

namespace chaintwin::model {

WorkloadInfo workload_info(const Workload& wl, EffectiveRequestsFn transform) {
  WorkloadInfo info;
  info.transformed_by = transform;
  info.pod_sets.reserve(wl.pod_sets.size());
  for (const auto& ps : wl.pod_sets) {
    PodSetInfo p;
    p.requests = pod_effective_requests(ps.template_);
    p.amounts = resource_amounts(p.requests);
    p.kueue_amounts = resource_amounts(transform(p.requests));
    p.tas_per_pod = tas_per_pod(p.amounts);
    p.tas_shape = tas_shape_key(ps, p.tas_per_pod);
    info.pod_sets.push_back(std::move(p));
  }
  return info;
}

}  // namespace chaintwin::model
