// The chain graph for one selection, laid out as the operator reads it: Node → ResourceFlavor →
// ClusterQueue → LocalQueue, four columns, with the links between neighbours. From a selected
// ClusterQueue: the flavors that fill its quota, the Nodes that contribute to them, the
// LocalQueues that enter it. From a selected Node: its flavors, the queues they fill, and theirs.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

struct ChainColumns {
  std::array<std::vector<std::string>, 4> columns;  // names (without the kind), sorted
  // (column, row) → (column + 1, row) links.
  std::vector<std::pair<std::pair<int, int>, std::pair<int, int>>> links;
  bool operator==(const ChainColumns&) const = default;
};

// `queue` wins over `node`; with neither, the first ClusterQueue in the graph.
ChainColumns chain_columns(const std::vector<ChainEdgeView>& edges, const std::string& queue, const std::string& node);

}  // namespace chaintwin::viz
