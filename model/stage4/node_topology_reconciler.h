// NodeTopologyReconciler (the operator's node_topology.go) as a pure reconciler: every Node that
// is not being deleted gets the topology profile of the one Ready TopologySource whose
// nodeSelector matches it (none or several → the hostname-only hierarchy): the source's levels,
// Topograph fabric tiers normalized to descending tier, cut at the first level the node lacks,
// with kubernetes.io/hostname appended. The reconciler makes sure the generated Kueue Topology
// `gpustack-<profile>` exists with those levels (created once, never rewritten: a level drift is
// an error), then writes `topology.gpustack.ai/profile` on the Node itself (a plain Node update,
// no NodeFeature). The operator's NodeDevicesReconciler mirrors the profile onto the same-named
// Devices; that mirror is included here, as a separate write attributed to "NodeDevices".
// Called by the stage-4 loop; the ResourceFlavor side reads the profile label it writes.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"
#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kNodeTopologyController = "NodeTopology";
inline constexpr std::string_view kNodeDevicesController = "NodeDevices";
inline constexpr std::string_view kTopologyResourceType = "topology";  // resource.gpustack.ai/type
inline constexpr std::string_view kTopographFabricPrefix = "fabric.topograph.run/tier-";

// Each run of consecutive `fabric.topograph.run/tier-<N>` levels whose first tier is lower than
// its last is reversed, so fabric tiers always read coarse (high N) to fine; other levels stay.
std::vector<std::string> normalize_topology_levels(std::vector<std::string> levels);

// The leading levels the node carries with a non-empty value (stops at the first missing one).
std::vector<std::string> topology_prefix(const StringMap& node_labels, const std::vector<std::string>& levels);

// The node's ordered levels, hostname last. Refuses a Ready source whose selector is malformed
// (as LabelSelectorAsSelector would).
Result<std::vector<std::string>> resolve_node_topology_levels(const Node& node,
                                                              const std::map<std::string, TopologySource>& sources);

// The Topology the operator generates for a profile: `gpustack-<profile>`, the levels, and the
// `resource.gpustack.ai/type=topology` label.
Topology generated_topology(std::string_view profile, const std::vector<std::string>& levels);

// One Node (the operator's Reconcile for that key) plus its Devices mirror.
Plan reconcile_node_topology_key(const ClusterState& state, const std::string& node_name);

// Every Node, in name order; a Topology needed by several nodes is created once.
Plan reconcile_node_topology(const ClusterState& state);

}  // namespace chaintwin::model
