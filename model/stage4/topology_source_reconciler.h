// The TopologySource controller (the operator's TopologySourceReconciler, topology_source*.go) as
// pure functions. A writing source (configMap | webhook) validates what its arm read against the
// Nodes its selector picks, refuses to claim labels another writing source with an overlapping
// level also selects the same Nodes for, publishes the accepted labels through one NFD NodeFeature
// per described Node, keeps the last valid NodeFeatures for maxStaleness after the last
// successful read and removes them after that; a nodeLabels source only checks that its selected
// Nodes' labels form a tree. Either way the outcome is the source's conditions — Ready, Valid,
// OwnershipConflict, with the operator's reasons and messages — and status.
//
// decide_topology_source() is the decision on explicit inputs (tests table it);
// reconcile_topology_source() turns it into a Plan against a ClusterState: NodeFeature creates,
// updates and deletes, then the status update, and the requeue the operator asks for (webhook:
// the poll interval; stale: when the kept snapshot expires; ownership conflict: 1 minute).
// The simulator calls it when the arm's content changes, on a requeue, and when a Node joins or
// leaves (sim/runner/topology_sources.cpp); NFD's projection of the NodeFeatures onto the Nodes is
// model/stage3/nfd_projection.h.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/stage4/plan.h"
#include "model/api/topology_snapshot.h"

namespace chaintwin::model {

inline constexpr std::string_view kTopologySourceController = "TopologySource";
inline constexpr std::string_view kTopologySourceUidLabel = "topology.gpustack.ai/source-uid";
inline constexpr int64_t kOwnershipConflictRequeueUs = 60'000'000;  // the operator's RequeueAfter: time.Minute

// `gpustack-topology-<16 hex>`: FNV-1a-64 of the source UID, a NUL byte and the Node's name.
std::string topology_source_node_feature_name(std::string_view source_uid, std::string_view node);

// The other writing sources (sorted by name) that select at least one of `selected` and share a
// level with `source`, and how many of `selected` they select. nodeLabels sources never conflict;
// neither does the source itself.
struct OwnershipConflicts {
  std::vector<std::string> sources;
  int32_t nodes = 0;
};
OwnershipConflicts find_ownership_conflicts(const TopologySource& source, const std::set<std::string>& selected,
                                            const NodeTable& nodes,
                                            const std::map<std::string, TopologySource>& sources);

// The operator's validateTopologyNodeHierarchy over the selected Nodes (by name): a level present
// after a missing one, or one value of a level under two parent tuples.
Status validate_node_hierarchy(const std::vector<std::string>& levels, const std::vector<const Node*>& nodes);

struct TopologySourceDecision {
  std::vector<Condition> conditions;  // the source's conditions with Ready, Valid, OwnershipConflict set
  TopologySourceStatus status;        // mutated_nodes left at 0: the NodeFeature diff counts it
  // The NodeFeatures the source wants, node → labels; nullopt leaves them as they are (a stale
  // source keeps the last valid ones; a source that never succeeded touches none).
  std::optional<std::map<std::string, StringMap>> node_features;
  std::optional<int64_t> requeue_after_us;  // RequeueAfter, when the operator asks for one
  std::string why;                          // one line for the event log
};

// One reconcile of `source` at `now_seconds` (Unix seconds). `read` is what a writing arm read
// (ignored for nodeLabels); `nodes` every Node; `sources` every TopologySource (the others are
// read for ownership conflicts). The source's status.lastSuccessfulRefreshTime is its memory of
// the last successful read; a malformed one counts as none.
TopologySourceDecision decide_topology_source(const TopologySource& source, const TopologyRead& read,
                                              const NodeTable& nodes,
                                              const std::map<std::string, TopologySource>& sources,
                                              int64_t now_seconds);

// The decision for source `name` in `state` at `now` (RFC 3339) as a Plan: NodeFeature writes in
// node order (deletes of unwanted ones first), then the status update when the status changed,
// and the requeue (whole seconds, rounded up). A NodeFeature of the wanted name the source does not
// own is a reconcile error (nothing written). An unknown source or a bad `now` plans nothing.
Plan reconcile_topology_source(const ClusterState& state, const std::string& name, const TopologyRead& read,
                               const std::string& now);

// The NodeFeatures `source` owns in `state`, by key: named for it, labelled with its UID and a Node,
// or controlled by it.
std::vector<std::string> owned_node_features(const ClusterState& state, const TopologySource& source);

}  // namespace chaintwin::model
