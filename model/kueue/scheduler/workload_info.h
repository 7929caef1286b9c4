// WorkloadInfo: what Kueue's workload.Info computes once, when a Workload enters the queues, and
// every nomination of it then reads: each PodSet's per-Pod requests (the effective requests of its
// Pod template: containers summed, init containers and sidecars folded in) as they are and as
// Kueue's int64 amounts (what the TAS usage and a topology search count), the same after Kueue's
// resources.transformations (what flavor assignment counts; Kueue's Info applies the
// transformations when it is built, too), and the key of its request shape in the TAS verdict
// cache (tas_leaf_cache.h). Deriving them walks every container's
// request list, and a pending Workload is nominated again after every change its verdict depends
// on; the QueueManager keeps one per tracked Workload, built again whenever the Workload is tracked
// again, and shares it between Workloads whose PodSets are identical (SharedWorkloadInfos).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/api/object_meta.h"
#include "model/kueue/scheduler/kueue_config.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

struct PodSetInfo {
  ResourceList requests;          // per Pod
  ResourceAmounts amounts;        // per Pod: resource_amounts(requests)
  ResourceAmounts kueue_amounts;  // per Pod, after `transformed_by` (resource_amounts of it)
  std::vector<std::pair<std::string, int64_t>> tas_per_pod;  // tas_per_pod(requests) (tas_assigner.h)
  std::string tas_shape;          // tas_shape_key() of the PodSet
  bool operator==(const PodSetInfo&) const = default;
};

struct WorkloadInfo {
  std::vector<PodSetInfo> pod_sets;  // in PodSet order
  EffectiveRequestsFn transformed_by = nullptr;  // the transformations kueue_amounts went through
  bool operator==(const WorkloadInfo&) const = default;
};

WorkloadInfo workload_info(const Workload& wl, EffectiveRequestsFn transform = kueue_effective_requests);

// The infos of the last Workloads derived, shared: a generator's or a trace's Workloads come in a
// few shapes, and deriving an info builds every list in it. A Workload gets the info of an entry
// only when the entry was derived with the same transformations from PodSets identical to the
// Workload's — equal, and every container request written the same (Quantity's == ignores the
// written form) — so what it gets is what workload_info() would derive; a hash of
// the PodSets skips the entries that cannot match. Which entries are held changes what is derived,
// never what a Workload gets.
class SharedWorkloadInfos {
 public:
  std::shared_ptr<const WorkloadInfo> of(const Workload& wl, EffectiveRequestsFn transform = kueue_effective_requests);

 private:
  struct Entry {
    uint64_t hash = 0;
    EffectiveRequestsFn transform = nullptr;
    std::vector<PodSet> pod_sets;  // what `info` was derived from
    std::shared_ptr<const WorkloadInfo> info;
  };
  static constexpr std::size_t kEntries = 16;
  std::vector<Entry> entries_;  // at most kEntries; a new one takes the place at next_ when full
  std::size_t next_ = 0;
};

}  // namespace chaintwin::model
