// The status the InstanceType controller keeps on each InstanceType (instance_type.go
// computeStatus): the four accelerator views from the Devices ledgers of the pool's nodes, the
// CPU view from the backing ClusterQueue, the phase mirrored from the queue, the entrance
// (LocalQueue name) and the hardware detail. Pure: the reconciler writes it only when it
// differs from the stored status.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/cluster_state.h"

namespace chaintwin::model {

// The nodes backing a queue: the nodes selected (spec.nodeLabels ⊆ node labels) by a live
// operator ResourceFlavor (resource.gpustack.ai/type=nodes, not terminating) that feeds the
// queue (flavor_feeds_queue on the queue's labels). Sorted, each once.
std::vector<std::string> pool_node_names(const ClusterState& state, const StringMap& queue_labels);

// The per-node count a node ResourceFlavor name carries ("...-16c", "...-4d"), looked for from
// the end once a "-fnv64-<hash>" topology suffix is cut; 0 when the name has none.
int64_t node_flavor_count_from_name(std::string_view flavor_name);

// The CPU view of a non-accelerated type (getCPUResource): capacity = Σ nominal cpu quota of
// the queue's flavors; remaining = capacity − Σ reserved cpu (flavorsReservation), floored at
// 0; onceMaxRequest = the largest per-node core count of the queue's flavors, capped at
// remaining. Whole cores (a fractional reservation rounds the remaining down).
InstanceTypeCapacityView cpu_view(const ClusterQueue& queue);

// Whether Kueue still reports reserved or admitted work on the queue.
bool cluster_queue_has_reserved(const ClusterQueue& queue);

// The phase and message the type mirrors from its queue: HoldAndDrain reads Draining while
// work is reserved, then Inactive; Hold reads Inactive; otherwise the queue's Active condition
// (True Active, False Inactive, Unknown or absent Activating).
std::pair<std::string, std::string> cluster_queue_phase(const ClusterQueue& queue);

// publishPartitionProfileNames: with status.detail.manufacturer set, every partition profile name
// the status shows (detail.slicedDetail.physical.profiles, acceleratorPartitioned.remainingProfiles
// and allocatedProfiles) in its published spelling (publish_partitioned_profile_name, T-Head
// "4g48gb" -> "4g.48gb"; idempotent), the two per-profile lists in name order. No manufacturer
// (no detail yet): nothing changes. (The model's per-profile lists are maps, already keyed by the
// published name, so for them this only re-keys; two spellings of one profile would sum.)
void publish_partition_profile_names(InstanceTypeStatus& status);

struct InstanceTypeStatusComputation {
  InstanceTypeStatus status;
  std::vector<std::string> notes;  // ledger rows read from their published counts, and why
};

// computeStatus: `queue` is the backing queue as this pass leaves it (labels aligned). A queue
// being drained (HoldAndDrain) reports every view at zero; the detail, entrance and phase are
// always filled. The detail comes from the first (by name) operator ResourceFlavor carrying the
// type's schedule labels: manufacturer, product and family always; for an accelerated type
// memory, cores, the pool's slicing catalog (profile names published) and, when CPU awareness
// is on, the cpuDetail note; for a CPU type the cpuDetail note. The collapsed generic pool
// (CPU, awareness off) has no representative flavor and an empty detail.
InstanceTypeStatusComputation compute_instance_type_status(const ClusterState& state, const InstanceType& type,
                                                           const ClusterQueue& queue);

}  // namespace chaintwin::model
