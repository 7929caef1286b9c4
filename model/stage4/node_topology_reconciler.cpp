// Topology profiles on Nodes and the generated Kueue Topologies behind them.
#include "model/stage4/node_topology_reconciler.h"

#include <algorithm>
#include <utility>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/api/k8s_validation.h"
#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage4/reconcile_error.h"

namespace chaintwin::model {
namespace {

const std::string kController(kNodeTopologyController);

std::optional<int64_t> fabric_tier(std::string_view level) {
  if (level.substr(0, kTopographFabricPrefix.size()) != kTopographFabricPrefix) return std::nullopt;
  return go_atoi(level.substr(kTopographFabricPrefix.size()));
}

std::string label_of(const StringMap& labels, std::string_view key) {
  const auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

// NodeDevicesReconciler's profile part: the Devices carries the node's profile, or none.
void mirror_onto_devices(const ClusterState& state, const std::string& node_name, const std::string& profile,
                         Plan& plan) {
  const Devices* devices = state.devices_of(node_name);
  if (devices == nullptr || devices->metadata.deletion_timestamp) return;
  const std::string key(keys::kTopologyProfile);
  const auto carried = devices->metadata.labels.find(key);
  const bool carries = carried != devices->metadata.labels.end();
  if (profile.empty() ? !carries : carries && carried->second == profile) return;  // already mirrored
  Devices want = *devices;
  if (profile.empty()) want.metadata.labels.erase(key);
  else want.metadata.labels[key] = profile;
  plan.writes.push_back({WriteVerb::kUpdate, std::move(want), std::string(kNodeDevicesController),
                         profile.empty() ? "node " + node_name + " carries no topology profile: drop it from its Devices"
                                         : "mirror topology profile " + profile + " of node " + node_name +
                                               " onto its Devices"});
}

// `pending` holds the Topologies this pass already plans to create (by name).
Plan reconcile_one(const ClusterState& state, const std::string& node_name, std::map<std::string, Topology>& pending) {
  Plan plan;
  const auto found = state.nodes.find(node_name);
  if (found == state.nodes.end()) return plan;
  const Node& node = found->second;
  const std::string current = label_of(node.metadata.labels, keys::kTopologyProfile);
  if (node.metadata.deletion_timestamp) {
    mirror_onto_devices(state, node_name, current, plan);
    return plan;
  }

  const auto levels = resolve_node_topology_levels(node, state.topology_sources);
  if (!levels.ok()) {
    plan.requeues.push_back(reconcile_error(kController, node_name, levels.error()));
    return plan;
  }
  const std::string profile = topology_profile(*levels);
  const Topology wanted = generated_topology(profile, *levels);
  const std::string& name = wanted.metadata.name;

  // ensureTopology: create when missing, refuse a level drift, never rewrite.
  const auto existing = state.topologies.find(name);
  const auto planned = pending.find(name);
  if (existing == state.topologies.end() && planned == pending.end()) {
    plan.writes.push_back({WriteVerb::kCreate, wanted, kController,
                           "generate Topology " + name + " for the levels of node " + node_name});
    pending.emplace(name, wanted);
  } else {
    const Topology& have = existing != state.topologies.end() ? existing->second : planned->second;
    if (have.levels != wanted.levels) {
      plan.requeues.push_back(reconcile_error(kController, node_name,
                                              "managed Topology \"" + name + "\" has immutable level drift"));
      mirror_onto_devices(state, node_name, current, plan);
      return plan;
    }
  }

  if (current != profile) {
    Node updated = node;
    updated.metadata.labels[std::string(keys::kTopologyProfile)] = profile;
    plan.writes.push_back({WriteVerb::kUpdate, std::move(updated), kController,
                           "node " + node_name + " has topology profile " + profile +
                               (current.empty() ? "" : " (was " + current + ")")});
  }
  mirror_onto_devices(state, node_name, profile, plan);
  return plan;
}

}  // namespace

std::vector<std::string> normalize_topology_levels(std::vector<std::string> levels) {
  for (size_t start = 0; start < levels.size();) {
    if (!fabric_tier(levels[start])) {
      ++start;
      continue;
    }
    size_t end = start + 1;
    while (end < levels.size() && fabric_tier(levels[end])) ++end;
    if (*fabric_tier(levels[start]) < *fabric_tier(levels[end - 1]))
      std::reverse(levels.begin() + static_cast<std::ptrdiff_t>(start), levels.begin() + static_cast<std::ptrdiff_t>(end));
    start = end;
  }
  return levels;
}

std::vector<std::string> topology_prefix(const StringMap& node_labels, const std::vector<std::string>& levels) {
  std::vector<std::string> out;
  for (const auto& level : levels) {
    if (label_of(node_labels, level).empty()) break;
    out.push_back(level);
  }
  return out;
}

Result<std::vector<std::string>> resolve_node_topology_levels(const Node& node,
                                                              const std::map<std::string, TopologySource>& sources) {
  std::vector<std::string> matched;
  int matches = 0;
  for (const auto& [name, source] : sources) {
    if (!source.ready()) continue;
    if (const Status valid = validate_label_selector(source.node_selector); !valid.ok())
      return err("TopologySource " + name + ": " + valid.error());
    if (!selector_matches(source.node_selector, node.metadata.labels)) continue;
    ++matches;
    matched = topology_prefix(node.metadata.labels, normalize_topology_levels(source.levels));
  }
  if (matches != 1) matched.clear();
  matched.emplace_back(keys::kHostname);
  return matched;
}

Topology generated_topology(std::string_view profile, const std::vector<std::string>& levels) {
  Topology t;
  t.metadata.name = topology_name(profile);
  t.metadata.labels[std::string(keys::kResourceType)] = std::string(kTopologyResourceType);
  t.levels = levels;
  return t;
}

Plan reconcile_node_topology_key(const ClusterState& state, const std::string& node_name) {
  std::map<std::string, Topology> pending;
  return reconcile_one(state, node_name, pending);
}

Plan reconcile_node_topology(const ClusterState& state) {
  Plan plan;
  std::map<std::string, Topology> pending;
  for (const auto& [name, node] : state.nodes) plan.append(reconcile_one(state, name, pending));
  return plan;
}

}  // namespace chaintwin::model
