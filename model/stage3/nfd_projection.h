// NFD's projection of NodeFeatures onto Nodes, as the twin models it: the labels a Node carries
// are its own labels with the `spec.labels` of every NodeFeature naming it (label
// nfd.node.kubernetes.io/node-name) laid over them. When NodeFeatures change, NFD sets the labels
// they now carry and removes the ones only the old ones carried; labels no NodeFeature ever
// carried are the Node's own and are left alone. The projection is immediate (NFD's master runs on
// every NodeFeature event). Stage 3 and stage 4 read Node labels, so they read the projection.
// Called by the simulator after the TopologySource controller's writes (sim/runner/topology_sources.cpp).
#pragma once

#include <map>
#include <string>

#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kNfdController = "NFD";

// The labels the NodeFeatures of `node` carry; where two carry one key, the first by
// "<namespace>/<name>" wins.
StringMap node_feature_labels(const std::map<std::string, NodeFeature>& features, const std::string& node);

// The Node's labels with its NodeFeatures' labels laid over its own.
StringMap projected_node_labels(const Node& node, const std::map<std::string, NodeFeature>& features);

// NFD's Node label updates after the NodeFeatures went from `before` to `after.node_features`
// (the Nodes as in `after`), in Node order; empty when no Node's projection changed.
Plan project_node_features(const std::map<std::string, NodeFeature>& before, const ClusterState& after);

}  // namespace chaintwin::model
