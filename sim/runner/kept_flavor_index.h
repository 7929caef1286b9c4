// NodeFlavor's view of the Nodes (model::schedule_flavor_index), kept across the passes of one
// fixpoint while no write touches a Node. The index reads nothing but the Nodes, and a Node object
// stays where it is until a write replaces or deletes it, so an index built after the last Node
// write is the one a rebuild would give. At the start, NodeFlavor runs twice (its own writes and
// Kueue's send it round again) on Nodes that stage 3 and NodeTopology finished writing before its
// first run: the second run reads the kept index instead of walking every Node again.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/cluster_state.h"
#include "model/stage4/node_flavor_index.h"
#include "model/stage4/plan.h"

namespace chaintwin::sim {

class KeptFlavorIndex {
 public:
  // The index of `state`, built again only when the fixpoint has applied a Node write since it
  // was built (`node_writes`: how many it has applied so far, a count that only grows).
  const model::ScheduleFlavorIndex& of(const model::ClusterState& state, std::size_t node_writes);
  // --verify: where the kept index differs from one built from `state` ("" when it does not).
  std::string differs_from_rebuild(const model::ClusterState& state) const;

 private:
  std::optional<model::ScheduleFlavorIndex> index_;
  std::size_t built_at_ = 0;
};

// How many of `writes` touch a Node object (any verb).
std::size_t node_writes_in(const std::vector<model::WriteReceipt>& writes);

}  // namespace chaintwin::sim
