// WorkloadInfo: what Kueue's workload.Info computes once, when a Workload enters the queues, and
// every nomination of it then reads: each PodSet's per-Pod requests (the effective requests of its
// Pod template: containers summed, init containers and sidecars folded in) and the key of its
// request shape in the TAS verdict cache (tas_leaf_cache.h). Deriving them walks every container's
// request list, and a pending Workload is nominated again after every change its verdict depends
// on; the QueueManager keeps one per tracked Workload, built again whenever the Workload is tracked
// again.
#pragma once

#include <string>
#include <vector>

#include "model/api/object_meta.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

struct PodSetInfo {
  ResourceList requests;  // per Pod
  std::string tas_shape;  // tas_shape_key() of the PodSet
  bool operator==(const PodSetInfo&) const = default;
};

struct WorkloadInfo {
  std::vector<PodSetInfo> pod_sets;  // in PodSet order
  bool operator==(const WorkloadInfo&) const = default;
};

WorkloadInfo workload_info(const Workload& wl);

}  // namespace chaintwin::model
