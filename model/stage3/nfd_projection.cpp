// NodeFeature labels onto Nodes.
#include "model/stage3/nfd_projection.h"

namespace chaintwin::model {

StringMap node_feature_labels(const std::map<std::string, NodeFeature>& features, const std::string& node) {
  StringMap out;
  for (const auto& [key, f] : features) {
    if (f.node_name() != node) continue;
    for (const auto& [k, v] : f.labels) out.emplace(k, v);  // emplace: the first NodeFeature keeps a key
  }
  return out;
}

StringMap projected_node_labels(const Node& node, const std::map<std::string, NodeFeature>& features) {
  StringMap labels = node.metadata.labels;
  for (const auto& [k, v] : node_feature_labels(features, node.metadata.name)) labels[k] = v;
  return labels;
}

Plan project_node_features(const std::map<std::string, NodeFeature>& before, const ClusterState& after) {
  Plan plan;
  for (const auto& [name, node] : after.nodes) {
    const StringMap old_labels = node_feature_labels(before, name);
    const StringMap new_labels = node_feature_labels(after.node_features, name);
    if (old_labels == new_labels) continue;
    Node updated = node;
    std::string added, removed;
    for (const auto& [k, v] : old_labels)
      if (new_labels.count(k) == 0 && updated.metadata.labels.erase(k) > 0) removed += (removed.empty() ? "" : ", ") + k;
    for (const auto& [k, v] : new_labels) {
      auto& label = updated.metadata.labels[k];
      if (label != v) added += (added.empty() ? "" : ", ") + k + "=" + v;
      label = v;
    }
    if (updated.metadata.labels == node.metadata.labels) continue;
    std::string why = "NodeFeature labels of node " + name;
    if (!added.empty()) why += ": set " + added;
    if (!removed.empty()) why += std::string(added.empty() ? ": " : "; ") + "removed " + removed;
    plan.writes.push_back({WriteVerb::kUpdate, updated, std::string(kNfdController), why});
  }
  return plan;
}

}  // namespace chaintwin::model
