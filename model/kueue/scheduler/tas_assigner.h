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
#include <string>

#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/stage4/cluster_state.h"

namespace chaintwin::model {

struct TopologyResult {
  std::optional<TopologyAssignment> assignment;  // set when the PodSet fits
  std::string message;  // Kueue's not-fit message, e.g. topology "t" doesn't allow to fit any of 1 pod(s)...
  bool operator==(const TopologyResult&) const = default;
};

TopologyResult assign_topology(const ClusterState& cluster, const ResourceFlavor& flavor, const PodSet& pod_set,
                               const std::map<std::string, ResourceAmounts>& node_usage, TasPlacement placement);

}  // namespace chaintwin::model
