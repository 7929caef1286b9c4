#include "model/stage4/tas_validation.h"

#include <algorithm>
#include <set>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage3/pool_identity.h"
#include "model/stage4/resource_groups.h"

namespace chaintwin::model {
namespace {

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string_view lookup(const StringMap& map, std::string_view key) {
  const auto it = map.find(key);
  return it == map.end() ? std::string_view() : std::string_view(it->second);
}

std::optional<QueueRefusal> topology_binding(const ClusterState& state, const ResourceFlavor& rf) {
  const std::string profile(lookup(rf.spec.node_labels, keys::kTopologyProfile));
  if (profile.empty() || lookup(rf.metadata.labels, keys::kTopologyProfile) != profile || rf.spec.topology_name.empty())
    return QueueRefusal{"MissingTopology", "ResourceFlavor " + quoted(rf.metadata.name) +
                                               " is not bound to one topology profile"};
  const std::string expected = topology_name(profile);
  if (rf.spec.topology_name != expected)
    return QueueRefusal{"MissingTopology", "ResourceFlavor " + quoted(rf.metadata.name) + " references Topology " +
                                               quoted(rf.spec.topology_name) + " instead of profile Topology " +
                                               quoted(expected)};
  if (!state.topologies.count(rf.spec.topology_name))
    return QueueRefusal{"MissingTopology", "ResourceFlavor " + quoted(rf.metadata.name) +
                                               " references missing Topology " + quoted(rf.spec.topology_name)};
  return std::nullopt;
}

// The names of the Nodes whose labels contain `selector`, in name order (pointing into `state`).
std::vector<const std::string*> selected_nodes(const ClusterState& state, const StringMap& selector) {
  std::vector<const std::string*> names;
  for (const auto& [name, node] : state.nodes)
    if (map_contains(node.metadata.labels, selector)) names.push_back(&name);
  return names;
}

bool selects(const std::vector<const std::string*>& names, const std::string& name) {
  return std::binary_search(names.begin(), names.end(), &name,
                            [](const std::string* a, const std::string* b) { return *a < *b; });
}

}  // namespace

std::optional<QueueRefusal> duplicate_covered_resource(const std::vector<ResourceGroup>& groups) {
  std::set<std::string> seen;
  for (const auto& g : groups)
    for (const auto& r : g.covered_resources)
      if (!seen.insert(r).second)
        return QueueRefusal{"DuplicateCoveredResource",
                            "resource " + quoted(r) + " is covered by more than one ClusterQueue resource group"};
  return std::nullopt;
}

std::optional<QueueRefusal> unsupported_existing_object(const ClusterQueue& cq) {
  if (cq.spec.resource_groups.empty() || lookup(cq.metadata.annotations, keys::kTasQueue) == "true") return std::nullopt;
  return QueueRefusal{"UnsupportedExistingObject",
                      "existing ClusterQueue has quota that was not created by the topology-aware queue controller; "
                      "create fresh managed objects"};
}

std::optional<QueueRefusal> validate_tas_flavors(const ClusterState& state, const StringMap& queue_labels,
                                                 const std::vector<ResourceFlavor>& flavors) {
  if (flavors.size() > kMaxQueueFlavors)
    return QueueRefusal{"TooManyFlavors", "covered resource requires " + std::to_string(flavors.size()) +
                                              " flavors; Kueue permits at most " + std::to_string(kMaxQueueFlavors)};
  std::vector<std::vector<const std::string*>> selected;  // per flavor, the Nodes it selects (name order)
  std::vector<int64_t> selected_counts;
  for (const auto& rf : flavors) {
    if (auto refusal = topology_binding(state, rf)) return refusal;
    auto nodes = selected_nodes(state, rf.spec.node_labels);
    selected_counts.push_back(static_cast<int64_t>(nodes.size()));
    // A Node an earlier flavor selects: the first such flavor is named.
    for (const std::string* node : nodes)
      for (std::size_t earlier = 0; earlier < selected.size(); ++earlier)
        if (selects(selected[earlier], *node))
          return QueueRefusal{"OverlappingSelectors", "Node " + quoted(*node) + " is selected by ResourceFlavors " +
                                                          quoted(flavors[earlier].metadata.name) + " and " +
                                                          quoted(rf.metadata.name)};
    selected.push_back(std::move(nodes));
  }
  for (size_t i = 0; i < flavors.size(); ++i) {
    const int64_t count = resource_flavor_count(flavors[i]);
    const int64_t capacity = resource_flavor_capacity(flavors[i]);
    if (count <= 0 || capacity != selected_counts[i] * count)
      return QueueRefusal{"NonConservedQuota", "ResourceFlavor " + quoted(flavors[i].metadata.name) +
                                                   " advertises capacity " + std::to_string(capacity) + " but " +
                                                   std::to_string(selected_counts[i]) + " selected Nodes contribute " +
                                                   std::to_string(count) + " each"};
  }

  // Every Node the flavor reconciler would count for this pool must be selected by a live flavor.
  auto pool = pool_flavor_selector(queue_labels);
  if (!pool) return std::nullopt;
  const bool cpu_pool = lookup(*pool, keys::kAcceleratable) != "true";
  if (cpu_pool) pool->erase(std::string(keys::kAcceleratable));  // CPU nodes simply lack the label
  (*pool)[std::string(keys::kManaged)] = "true";
  const bool mixing = state.settings.instance_type_mixed_on_node;
  for (const auto& [name, node] : state.nodes) {
    if (!map_contains(node.metadata.labels, *pool)) continue;
    if (lookup(node.metadata.labels, keys::kTopologyProfile).empty()) continue;
    if (cpu_pool && !mixing && lookup(node.metadata.labels, keys::kAcceleratable) == "true") continue;
    if (std::none_of(selected.begin(), selected.end(), [&node_name = name](const auto& nodes) { return selects(nodes, node_name); }))
      return QueueRefusal{"NonConservedQuota",
                          "Node " + quoted(name) + " belongs to the queue pool but contributes to no ResourceFlavor"};
  }
  return std::nullopt;
}

}  // namespace chaintwin::model
