// The model chooser of the full-demand experiment's chain runs (chain_full_demand.h): at a GPU
// pod's arrival, which InstanceType's pool it queues on, among the pools of the models it allows
// (every model when it names none). A pool's room for the pod is how many pods of its shape the
// pool's Nodes could still take: cards with the share free, or sets of free whole cards on one
// Node, limited by the Node's free CPU. Pure: the caller reads the Nodes' state from the chain.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/placement/share_node.h"
#include "sim/random_stream.h"

namespace chaintwin::sim {

enum class ModelChooser {
  kDefaultModel,  // the trace's selector: the default model for pods naming none (the replay's rule)
  kMostFree,      // the pool with the most room (ties: the first, in InstanceType name order)
  kBestFit,       // the pool with the least room that still takes the pod now; else the most room
  kProportional,  // a pool drawn with probability proportional to its cards (seeded; no state read)
};

// "default-model", "most-free", "best-fit", "proportional"; nullopt for another text.
std::optional<ModelChooser> model_chooser_named(const std::string& name);

// One InstanceType's pool as the chooser sees it: the trace Nodes its ClusterQueue's flavors
// select, their GPU model and cards.
struct ChooserPool {
  std::string instance_type;
  int32_t model = -1;
  std::vector<size_t> nodes;  // indexes into the trace's Nodes
  int64_t cards = 0;
};

// How many pods of `pod`'s shape a Node in the state `node` could still take.
int64_t room_for(const model::placement::ShareNode& node, const model::placement::SharePod& pod);

// The chooser's pick among the pools of the models `pod` allows: a pool's index, or -1 when none.
int32_t choose_pool(const std::vector<model::placement::ShareNode>& state, const model::placement::SharePod& pod,
                    const std::vector<ChooserPool>& pools, ModelChooser chooser, RandomStream& random);

}  // namespace chaintwin::sim
