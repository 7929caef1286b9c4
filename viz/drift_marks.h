// Which objects the live drift names, for the panels that mark them (a pool's row, a Node in the
// list): a pool drifts when its ClusterQueue or its InstanceType does.
#pragma once

#include <string_view>

#include "viz/snapshot.h"

namespace chaintwin::viz {

bool drifts(const Snapshot& s, std::string_view kind, std::string_view name);
bool pool_drifts(const Snapshot& s, std::string_view cluster_queue);

}  // namespace chaintwin::viz
