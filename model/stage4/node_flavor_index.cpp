// Which ResourceFlavor names a Node feeds, and whether it counts.
#include "model/stage4/node_flavor_index.h"

#include <algorithm>
#include <utility>

#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

std::string label_of(const Node& node, std::string_view key) {
  const auto it = node.metadata.labels.find(key);
  return it == node.metadata.labels.end() ? std::string() : it->second;
}

// The Node's flavors under their topology-qualified names, in extraction order; none when the
// Node is not managed or carries no topology profile. The one source of the schedule-flavor index.
std::vector<std::pair<std::string, NodeFlavor>> indexed_flavors(const Node& node) {
  if (label_of(node, keys::kManaged) != "true") return {};
  const std::string profile = label_of(node, keys::kTopologyProfile);
  if (profile.empty()) return {};
  std::vector<std::pair<std::string, NodeFlavor>> out;
  for (auto& f : extract_node_flavors(node)) {
    std::string name = topology_qualified_flavor_name(f.name, profile);
    out.emplace_back(std::move(name), std::move(f));
  }
  return out;
}

}  // namespace

std::vector<std::string> node_schedule_flavor_index(const Node& node) {
  std::vector<std::string> names;
  for (auto& [name, flavor] : indexed_flavors(node)) names.push_back(std::move(name));
  return names;
}

std::optional<NodeFlavor> match_node_flavor(const Node& node, std::string_view flavor_name) {
  const std::string profile = label_of(node, keys::kTopologyProfile);
  if (profile.empty()) return std::nullopt;
  for (auto& f : extract_node_flavors(node))
    if (topology_qualified_flavor_name(f.name, profile) == flavor_name) return std::move(f);
  return std::nullopt;
}

bool node_is_accelerated(const Node& node) { return label_of(node, keys::kAcceleratable) == "true"; }

bool node_contributes(const Node& node, const NodeFlavor& matched, bool mixing_allowed) {
  return mixing_allowed || matched.acceleratable || !node_is_accelerated(node);
}

ScheduleFlavorIndex schedule_flavor_index(const ClusterState& state) {
  ScheduleFlavorIndex index;
  for (const auto& [name, node] : state.nodes) {
    // The first of the Node's flavors with a given qualified name is the one match_node_flavor gives.
    for (auto& [flavor_name, flavor] : indexed_flavors(node)) {
      auto& nodes = index[flavor_name];
      if (nodes.empty() || nodes.back().node != &node) nodes.push_back({&node, std::move(flavor)});
    }
  }
  return index;
}

std::vector<Contributor> flavor_contributors(const ClusterState& state, std::string_view flavor_name,
                                             bool mixing_allowed) {
  std::vector<Contributor> out;
  for (const auto& [name, node] : state.nodes) {
    auto flavors = indexed_flavors(node);
    const auto matched = std::find_if(flavors.begin(), flavors.end(), [&](const auto& f) { return f.first == flavor_name; });
    if (matched == flavors.end() || !node_contributes(node, matched->second, mixing_allowed)) continue;
    out.push_back({&node, std::move(matched->second)});
  }
  return out;
}

std::vector<Contributor> flavor_contributors(const ScheduleFlavorIndex& index, std::string_view flavor_name,
                                             bool mixing_allowed) {
  std::vector<Contributor> out;
  const auto it = index.find(std::string(flavor_name));
  if (it == index.end()) return out;
  for (const auto& c : it->second)
    if (node_contributes(*c.node, c.flavor, mixing_allowed)) out.push_back(c);
  return out;
}

}  // namespace chaintwin::model
