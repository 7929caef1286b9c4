// The NodeFlavor controller's view of Nodes (node_flavor.go: indexNodeByScheduleFlavor,
// matchNodeFlavor, nodeIsAccelerated and the contributor filter of Reconcile): which
// topology-qualified ResourceFlavor names a Node feeds and whether it counts for one of them.
// Called by node_flavor_reconciler.cpp; usable by any reader of the flavor index.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/stage3/node_keys.h"
#include "model/cluster_state.h"

namespace chaintwin::model {

// The `nodes.schedule.gpustack.ai/flavor` index of one Node: the topology-qualified names of its
// ExtractNodeFlavors, or nothing when the Node is not managed (`gpustack.ai/managed` != "true")
// or carries no `topology.gpustack.ai/profile`. Taints and a deletion timestamp do not matter.
std::vector<std::string> node_schedule_flavor_index(const Node& node);

// The Node's flavor whose topology-qualified name is `flavor_name` (nullopt when it has none, or
// no profile). Reads labels only, not the managed mark.
std::optional<NodeFlavor> match_node_flavor(const Node& node, std::string_view flavor_name);

// `feature.gpustack.ai/acceleratable=true` on the Node.
bool node_is_accelerated(const Node& node);

// Whether a Node whose flavor `matched` is counted: with mixing off an accelerated Node does not
// feed a CPU flavor.
bool node_contributes(const Node& node, const NodeFlavor& matched, bool mixing_allowed);

struct Contributor {
  const Node* node = nullptr;
  NodeFlavor flavor;  // the node's flavor of that name
  bool operator==(const Contributor&) const = default;  // the same Node object, the same flavor
};

// The whole index: flavor name -> the indexed Nodes, both in name order, each with its flavor of
// that name (what match_node_flavor gives, extracted once per Node when the index is built rather
// than once per flavor it feeds). The Nodes point into the `state` it was built from.
using ScheduleFlavorIndex = std::map<std::string, std::vector<Contributor>>;
ScheduleFlavorIndex schedule_flavor_index(const ClusterState& state);

// The Nodes that contribute to `flavor_name` under `mixing_allowed`, in Node name order. The
// operator takes them in the order its cache lists them (a hash set, so unspecified); the twin
// fixes name order, which decides only whose CPU detail the cpuDetail note shows.
std::vector<Contributor> flavor_contributors(const ClusterState& state, std::string_view flavor_name,
                                             bool mixing_allowed);

// The same, reading the Nodes from an index built once (schedule_flavor_index of the state) instead
// of scanning every Node: what a reconcile over every flavor uses, so one pass costs the cluster
// once rather than once per flavor.
std::vector<Contributor> flavor_contributors(const ScheduleFlavorIndex& index, std::string_view flavor_name,
                                             bool mixing_allowed);

}  // namespace chaintwin::model
