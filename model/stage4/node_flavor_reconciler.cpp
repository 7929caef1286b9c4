// The NodeFlavor controller: one node-derived ResourceFlavor per name, its siblings, its Topology
// and the pool's derived InstanceType.
#include "model/stage4/node_flavor_reconciler.h"

#include "model/stage3/pool_identity.h"

#include <set>
#include <tuple>

#include "model/stage4/derived_instance_type.h"
#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage4/node_flavor_index.h"
#include "model/stage4/node_flavor_shape.h"
#include "model/stage4/node_topology_reconciler.h"
#include "model/stage4/reconcile_error.h"

namespace chaintwin::model {
namespace {

const std::string kController(kNodeFlavorController);

std::string label_of(const StringMap& labels, std::string_view key) {
  const auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

bool has_resource_type(const ObjectMeta& meta, std::string_view type) {
  return label_of(meta.labels, keys::kResourceType) == type;
}

// hasUnprofiledContributor: a Node selected by the flavor's nodeLabels (profile aside) that has
// no profile yet — the flavor is kept while the NodeTopology controller catches up.
bool has_unprofiled_contributor(const ClusterState& state, const ResourceFlavor& rf) {
  StringMap selector = rf.spec.node_labels;
  selector.erase(std::string(keys::kTopologyProfile));
  if (selector.empty()) return false;
  for (const auto& [name, node] : state.nodes) {
    bool selected = true;
    for (const auto& [k, v] : selector) {
      const auto it = node.metadata.labels.find(k);
      if (it == node.metadata.labels.end() || it->second != v) {
        selected = false;
        break;
      }
    }
    if (selected && label_of(node.metadata.labels, keys::kTopologyProfile).empty()) return true;
  }
  return false;
}

// The "fnv64-<16 lower-case hex>" tail of a flavor name, or "" when it has none.
std::string profile_of_flavor_name(std::string_view flavor_name) {
  const std::string marker = "-" + std::string(kTopologyProfilePrefix);
  const size_t at = flavor_name.rfind(marker);
  if (at == std::string_view::npos) return "";
  const std::string_view profile = flavor_name.substr(at + 1);
  if (profile.size() != kTopologyProfilePrefix.size() + 16) return "";
  for (const char c : profile.substr(kTopologyProfilePrefix.size()))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return "";
  return std::string(profile);
}

// retireUnusedTopologyForFlavor, given the profile: a generated Topology is deleted once no Node
// carries its profile and no ResourceFlavor (any, terminating too) references it.
void retire_unused_topology(const ClusterState& state, const std::string& profile, Plan& plan) {
  if (profile.empty()) return;
  for (const auto& [name, node] : state.nodes)
    if (label_of(node.metadata.labels, keys::kTopologyProfile) == profile) return;
  const std::string topology = topology_name(profile);
  for (const auto& [name, rf] : state.resource_flavors)
    if (rf.spec.topology_name == topology) return;
  const auto it = state.topologies.find(topology);
  if (it == state.topologies.end()) return;
  if (it->second.metadata.deletion_timestamp || !has_resource_type(it->second.metadata, kTopologyResourceType)) return;
  plan.writes.push_back({WriteVerb::kDelete, it->second, kController,
                         "no Node carries topology profile " + profile + " and no ResourceFlavor references " +
                             topology});
}

void author_instance_type(const ClusterState& state, const NodeFlavor& flavor, Plan& plan) {
  const auto id = derived_instance_type_identity(flavor, state.settings.instance_type_aware_cpu_manufacturer);
  const auto it = state.instance_types.find(id.name);
  const auto decision =
      decide_derived_instance_type(flavor, state.settings, it == state.instance_types.end() ? nullptr : &it->second);
  if (decision.action == AuthorAction::kCreate)
    plan.writes.push_back({WriteVerb::kCreate, decision.instance_type, kController, decision.reason});
}

void reconcile_key(const ClusterState& state, const ScheduleFlavorIndex& index, const std::string& name, Plan& plan) {
  const auto found = state.resource_flavors.find(name);
  const ResourceFlavor* rf = found == state.resource_flavors.end() ? nullptr : &found->second;
  if (rf != nullptr && rf->metadata.deletion_timestamp) return;  // terminating: Kueue's to finish

  const bool mixing_allowed = state.settings.instance_type_mixed_on_node;
  const auto contributors = flavor_contributors(index, name, mixing_allowed);

  if (contributors.empty()) {
    if (rf == nullptr) {
      retire_unused_topology(state, profile_of_flavor_name(name), plan);
      return;
    }
    if (has_unprofiled_contributor(state, *rf)) {
      plan.requeues.push_back({kController, name, kUnprofiledContributorRequeueSeconds,
                               "a Node selected by " + name + " has no topology profile yet: keep the flavor"});
      return;
    }
    plan.writes.push_back({WriteVerb::kDelete, *rf, kController, "no Node contributes to " + name});
    return;
  }

  const NodeFlavor& flavor = contributors.front().flavor;
  const auto desired = desired_resource_flavor(name, flavor, *contributors.front().node,
                                               static_cast<int64_t>(contributors.size()), state.settings);
  const ResourceFlavor& want = desired.object;

  if (rf == nullptr) {
    plan.writes.push_back({WriteVerb::kCreate, want, kController,
                           std::to_string(contributors.size()) + " Node(s) contribute to " + name + ", capacity " +
                               label_of(want.metadata.labels, feature_key_label(flavor.acceleratable, flavor.own_key()) +
                                                                  std::string(kFlavorCapacitySuffix))});
  } else {
    if (resource_flavor_mixing_selector_drift(*rf, want, flavor.acceleratable)) {
      plan.writes.push_back({WriteVerb::kDelete, *rf, kController,
                             "the cpu-only pin of " + name +
                                 " no longer matches instance-type-mixed-on-node: retire it so a fresh one is created"});
      return;
    }
    if (rf->spec != want.spec) {
      plan.requeues.push_back(reconcile_error(
          kController, name,
          "managed ResourceFlavor \"" + name + "\" has immutable topology drift; create fresh scheduling objects"));
      return;
    }
    ResourceFlavor next = *rf;
    bool changed = false;
    for (const auto& [k, v] : want.metadata.labels) {  // merged: labels are never removed
      const auto it = next.metadata.labels.find(k);
      if (it != next.metadata.labels.end() && it->second == v) continue;
      next.metadata.labels[k] = v;
      changed = true;
    }
    if (sync_node_flavor_notes(next, desired.notes)) changed = true;
    if (changed)
      plan.writes.push_back({WriteVerb::kUpdate, next, kController,
                             "align the schedule labels and notes of " + name + " with its " +
                                 std::to_string(contributors.size()) + " contributing Node(s)"});
  }

  plan.append(retire_unused_topology_profile_siblings(state, index, want, mixing_allowed));
  if (state.settings.instance_type_derived_from_node) author_instance_type(state, flavor, plan);
}

std::tuple<WriteVerb, std::string, std::string> write_key(const Write& w) {
  const ObjectMeta& meta = metadata_of(w.object);
  return {w.verb, std::string(kind_of(w.object)), meta.namespace_ + "/" + meta.name};
}

}  // namespace

Plan retire_unused_topology_profile_siblings(const ClusterState& state, const ScheduleFlavorIndex& index,
                                            const ResourceFlavor& wanted, bool mixing_allowed) {
  Plan plan;
  const std::string base =
      topology_unqualified_flavor_name(wanted.metadata.name, label_of(wanted.metadata.labels, keys::kTopologyProfile));
  for (const auto& [name, rf] : state.resource_flavors) {
    if (!has_resource_type(rf.metadata, kResourceFlavorResType)) continue;
    if (name == wanted.metadata.name || rf.metadata.deletion_timestamp) continue;
    if (topology_unqualified_flavor_name(name, label_of(rf.metadata.labels, keys::kTopologyProfile)) != base) continue;
    if (!flavor_contributors(index, name, mixing_allowed).empty()) continue;
    plan.writes.push_back({WriteVerb::kDelete, rf, kController,
                           "no Node contributes to " + name + " any more; " + wanted.metadata.name +
                               " replaces it under another topology profile"});
  }
  return plan;
}

Plan retire_unused_topology_profile_siblings(const ClusterState& state, const ResourceFlavor& wanted,
                                            bool mixing_allowed) {
  return retire_unused_topology_profile_siblings(state, schedule_flavor_index(state), wanted, mixing_allowed);
}

Plan reconcile_node_flavor_key(const ClusterState& state, const std::string& flavor_name) {
  Plan plan;
  reconcile_key(state, schedule_flavor_index(state), flavor_name, plan);
  return plan;
}

Plan reconcile_node_flavor(const ClusterState& state) { return reconcile_node_flavor(state, schedule_flavor_index(state)); }

Plan reconcile_node_flavor(const ClusterState& state, const ScheduleFlavorIndex& index) {
  std::set<std::string> names;
  for (const auto& [name, nodes] : index) names.insert(name);
  for (const auto& [name, rf] : state.resource_flavors)
    if (has_resource_type(rf.metadata, kResourceFlavorResType)) names.insert(name);

  Plan all;
  for (const auto& name : names) reconcile_key(state, index, name, all);
  for (const auto& [name, topology] : state.topologies) {
    const std::string_view prefix = kTopologyNamePrefix;
    if (name.substr(0, prefix.size()) != prefix) continue;
    const std::string profile = name.substr(prefix.size());
    if (profile_of_flavor_name("-" + profile) == profile) retire_unused_topology(state, profile, all);
  }

  Plan plan;
  std::set<std::tuple<WriteVerb, std::string, std::string>> planned;
  for (auto& w : all.writes)
    if (planned.insert(write_key(w)).second) plan.writes.push_back(std::move(w));
  plan.requeues = std::move(all.requeues);
  return plan;
}

}  // namespace chaintwin::model
