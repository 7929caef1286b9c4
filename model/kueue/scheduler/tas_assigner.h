// Kueue's topology-aware placement of one PodSet on one TAS flavor (pkg/cache/scheduler/
// tas_flavor_snapshot.go): the nodes that carry the flavor's nodeLabels and every level label of
// its Topology and are not cordoned; per node (hostname lowest level) the PodSet's nodeSelector
// and required affinity (the fit pin is a `Gt` requirement); per-node pod capacity =
// CountIn(per-pod PodSpec requests + pods, allocatable − TAS usage), a requested resource missing
// from allocatable giving 0; with a required level the whole PodSet goes into one domain of it.
// Domains are filled in the configured order (least free capacity first, or BestFit).
// Called by schedule_cycle for each PodSet whose assigned flavor names a Topology.
#pragma once

#include <optional>
#include <map>
#include <string>
#include <vector>

#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/tas_leaf_cache.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/kueue/scheduler/workload_info.h"
#include "model/cluster_state.h"

namespace chaintwin::model {

struct TopologyResult {
  std::optional<TopologyAssignment> assignment;  // set when the PodSet fits
  std::string message;  // Kueue's not-fit message, e.g. topology "t" doesn't allow to fit any of 1 pod(s)...
  bool operator==(const TopologyResult&) const = default;
};

// The Nodes each TAS flavor can place on, by flavor name, in Node name order: not cordoned, carrying
// the flavor's nodeLabels and every level label of its Topology. It depends on Node membership,
// labels and schedulability, the flavors' nodeLabels and the Topologies' levels — not on Node status
// or usage — so a caller may keep it across cycles until one of those changes.
using TasNodeIndex = std::map<std::string, std::vector<std::string>>;
TasNodeIndex build_tas_node_index(const ClusterState& cluster);

// `index`: when given and it lists the flavor, only those Nodes are looked at (it must equal
// build_tas_node_index(cluster)); otherwise every Node is. `cache`: per-Node verdicts kept by the
// caller (tas_leaf_cache.h), used only with `index` and only when `node_usage` is the usage its
// generations follow. `info`: the PodSet's per-Pod amounts and shape key as kept
// (workload_info.h); derived from its Pod template when null.
TopologyResult assign_topology(const ClusterState& cluster, const ResourceFlavor& flavor, const PodSet& pod_set,
                               const NodeUsage& node_usage, TasPlacement placement,
                               const TasNodeIndex* index = nullptr, TasLeafCache* cache = nullptr,
                               const PodSetInfo* info = nullptr);

// What one Pod of a PodSet asks of a Node in a topology search: its requests as Kueue's amounts,
// with `pods` at 1, in name order.
using TasPerPod = std::vector<std::pair<std::string, int64_t>>;
TasPerPod tas_per_pod(const ResourceList& requests);
// The same from the requests' amounts (resource_amounts of them).
TasPerPod tas_per_pod(ResourceAmounts amounts);

// The key a PodSet's verdicts are kept under in the TasLeafCache: its per-Pod requests (`requests`,
// with one Pod), nodeSelector and required node affinity — everything a Node's verdict reads of it.
std::string tas_shape_key(const PodSet& pod_set, const ResourceList& requests);
std::string tas_shape_key(const PodSet& pod_set, const TasPerPod& per_pod);

}  // namespace chaintwin::model
