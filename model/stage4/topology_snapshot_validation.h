// Whether a writing TopologySource may publish a snapshot, and what it publishes — the operator's
// validateTopologySnapshot and topologySourcePublishedLabels (topology_source.go,
// topology_source_nodefeature.go) as pure functions. A snapshot is atomic: the first fault found
// rejects the whole revision, before any NodeFeature changes, with the operator's message naming
// the node, key or value. The operator walks Go maps (random order); the twin walks nodes by name
// and each node's keys in key order, so with several faults the one named is always the same.
// Called by the TopologySource controller (model/stage4/topology_source_reconciler.h).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "model/api/node.h"
#include "model/cluster_state.h"
#include "model/result.h"
#include "model/api/topology_snapshot.h"
#include "model/api/topology_source.h"

namespace chaintwin::model {

// Go's %q of a string: double quotes, with `"`, `\` and control bytes escaped.
std::string go_quote(std::string_view s);

// topology.kubernetes.io/region and /zone: a snapshot may name them only as read-only parents.
bool is_standard_topology_label(std::string_view key);
// topology.gpustack.ai/* except topology.gpustack.ai/profile, or under the source's prefix.
bool is_writable_topology_label(std::string_view key, std::string_view additional_write_prefix);

// The Nodes the source's nodeSelector selects, by name (the selector must be valid).
std::set<std::string> selected_node_names(const TopologySource& source, const NodeTable& nodes);

// The structure of the snapshot against the source and the selected Node names. Refuses, in
// this order: another apiVersion; a blank revision; then per node: an unknown or unselected
// Node; per key: an undeclared level, a label the source may not publish, an empty or invalid
// value, a level without one of its declared parents; then a child value seen under two parent
// tuples (the node's values of every coarser level).
Status validate_topology_snapshot(const TopologySource& source, const TopologySnapshot& snapshot,
                                  const std::set<std::string>& selected);

// The labels each described, selected Node's NodeFeature carries: the snapshot's labels without
// the standard parents, which must already equal the Node's own (else the whole snapshot is
// refused). Nodes left with nothing to publish get no entry.
Result<std::map<std::string, StringMap>> published_topology_labels(const TopologySnapshot& snapshot,
                                                                   const NodeTable& nodes,
                                                                   const std::set<std::string>& selected);

// The whole decision on one snapshot (the two functions above, ownership aside): accepted with
// the per-node labels the NodeFeatures carry, or rejected with reason SnapshotInvalid and the
// message.
struct SnapshotDecision {
  bool accepted = false;
  std::map<std::string, StringMap> node_labels;  // accepted: node → published labels
  std::string reason;                            // rejected: "SnapshotInvalid"
  std::string message;                           // rejected: the operator's message
  bool operator==(const SnapshotDecision&) const = default;
};
SnapshotDecision decide_topology_snapshot(const TopologySource& source, const TopologySnapshot& snapshot,
                                          const NodeTable& nodes);

}  // namespace chaintwin::model
