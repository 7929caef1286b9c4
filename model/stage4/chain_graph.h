// The chain as a graph of who feeds whom (Boost.Graph): Node → ResourceFlavor → ClusterQueue →
// LocalQueue, Topology → ResourceFlavor, InstanceType ↔ ClusterQueue, Devices → InstanceType
// (its ledger drives the type's status), AdmissionCheck → ClusterQueue. "What does this node feed"
// and "what feeds this queue" are graph walks; the order the controllers reconcile in is a
// topological sort of which controller reads whose writes. Used by the CLI, the GUI and explain.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "model/cluster_state.h"
#include "model/stage4/reconcile_loop.h"

namespace chaintwin::model {

enum class ChainVertexKind { kNode, kDevices, kTopology, kResourceFlavor, kInstanceType, kClusterQueue, kLocalQueue, kAdmissionCheck };
std::string_view to_string(ChainVertexKind k);

struct ChainVertex {
  ChainVertexKind kind = ChainVertexKind::kNode;
  std::string name;  // LocalQueue: "<namespace>/<name>"
  auto operator<=>(const ChainVertex&) const = default;
  std::string label() const;  // "ResourceFlavor/gpustack--..."
};

enum class ChainEdgeKind {
  kContributes,   // Node → ResourceFlavor: the node's labels satisfy the flavor's nodeLabels
  kTopologyOf,    // Topology → ResourceFlavor: spec.topologyName
  kFillsQuota,    // ResourceFlavor → ClusterQueue: a flavor of its resource groups
  kBacks,         // InstanceType → ClusterQueue: the same name
  kReportsTo,     // ClusterQueue → InstanceType: the queue's state shows in the type's status
  kDrivesStatus,  // Devices → InstanceType: the ledger feeds the four views
  kEntrance,      // ClusterQueue → LocalQueue: spec.clusterQueue
  kChecks,        // AdmissionCheck → ClusterQueue: referenced by the queue
};
std::string_view to_string(ChainEdgeKind k);

class ChainGraph {
 public:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, ChainVertex, ChainEdgeKind>;

  static ChainGraph build(const ClusterState& state);

  size_t vertex_count() const { return boost::num_vertices(graph_); }
  size_t edge_count() const { return boost::num_edges(graph_); }
  bool contains(const ChainVertex& v) const;
  // Every edge as (from, kind, to), sorted.
  std::vector<std::tuple<ChainVertex, ChainEdgeKind, ChainVertex>> edges() const;
  // Everything `from` feeds, directly or not (breadth-first), sorted; empty when unknown.
  std::vector<ChainVertex> downstream(const ChainVertex& from) const;
  // Everything that feeds `to`, sorted.
  std::vector<ChainVertex> upstream(const ChainVertex& to) const;

 private:
  size_t add(const ChainVertex& v);
  std::vector<ChainVertex> walk(const ChainVertex& start, bool forward) const;

  Graph graph_;
  std::map<ChainVertex, size_t> index_;
};

// The order to run controllers in so each runs after those it reads from (a topological sort);
// refuses a cycle or an unknown dependency, naming it.
Result<std::vector<std::string>> reconcile_order(const std::vector<Controller>& controllers);

}  // namespace chaintwin::model
