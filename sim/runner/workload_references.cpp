// The load-time check of workload references (workload_references.h).
#include "sim/runner/workload_references.h"

#include <deque>
#include <set>
#include <string>
#include <vector>

#include "model/api/settings.h"
#include "model/catalog/label_keys.h"
#include "sim/runner/chain_sync.h"
#include "sim/runner/workload_factory.h"

namespace chaintwin::sim {
namespace {

// What a run can hold: the InstanceTypes, Topology levels and clusters seen so far.
struct Holdings {
  std::set<std::string> instance_types;
  std::set<std::string> local_queues;  // "<namespace>/<name>"
  std::set<std::string> levels{std::string(model::keys::kHostname)};
  std::vector<const model::ClusterState*> states;  // every settled cluster looked at
  std::deque<model::ClusterState> copies;          // those of the timeline (the initial one is the run's)

  // `cluster` must outlive the holdings (the run's settled state), or be a copy kept here.
  void take(const model::ClusterState& cluster) {
    for (const auto& [name, it] : cluster.instance_types) instance_types.insert(name);
    for (const auto& [key, lq] : cluster.local_queues) local_queues.insert(key);
    for (const auto& [name, t] : cluster.topologies) levels.insert(t.levels.begin(), t.levels.end());
    for (const auto& [name, s] : cluster.topology_sources) levels.insert(s.levels.begin(), s.levels.end());
    states.push_back(&cluster);
  }
  void take_copy(const model::ClusterState& cluster) { take(copies.emplace_back(cluster)); }
  bool serves(const std::string& accelerator) const {
    InstanceTypeSelector selector;
    selector.accelerator = accelerator;
    for (const auto* cluster : states)
      if (!choose_instance_type(*cluster, selector, true).empty()) return true;
    return false;
  }
};

// One unresolved name, to be reported with the generator's place.
struct Missing {
  const WorkloadSpec* spec;
  std::string field;  // "instanceType", "accelerator", "requiredTopologyLevel"
  std::string value;
};

std::vector<Missing> unresolved(const Scenario& scenario, const Holdings& held) {
  std::vector<Missing> out;
  for (const auto& w : scenario.workloads) {
    if (!w.local_queue.empty() && !held.local_queues.count(model::local_queue_key(w.namespace_, w.local_queue)))
      out.push_back({&w, "localQueue", w.local_queue});
    if (!w.instance_type.name.empty() && !held.instance_types.count(w.instance_type.name))
      out.push_back({&w, "instanceType", w.instance_type.name});
    if (!w.instance_type.accelerator.empty() && !held.serves(w.instance_type.accelerator))
      out.push_back({&w, "accelerator", w.instance_type.accelerator});
    for (const auto& alt : w.instance_type.alternatives)
      if (!held.serves(alt)) out.push_back({&w, "accelerator", alt});
    if (!w.required_topology_level.empty() && !held.levels.count(w.required_topology_level))
      out.push_back({&w, "requiredTopologyLevel", w.required_topology_level});
  }
  return out;
}

// The settled cluster with every Node the timeline adds and every Setting it sets, each state on
// the way settled by the operator's controllers; the refusal of a controller ends the look early
// (the run itself reports it when it gets there).
void take_timeline(const Scenario& scenario, const model::ClusterState& settled, Holdings& held) {
  model::ClusterState cluster = settled;
  std::set<std::string> added;
  for (const auto& a : scenario.timeline) {
    if (a.kind != TimelineAction::Kind::kAddNode || !a.new_node) continue;
    const std::string& name = a.new_node->metadata.name;
    if (cluster.nodes.count(name)) continue;
    cluster.nodes[name] = *a.new_node;
    if (a.new_devices) cluster.devices[name] = *a.new_devices;
    added.insert(name);
  }
  if (!added.empty()) {
    if (!sync_chain(cluster, added, SimTime{}).ok()) return;
    held.take_copy(cluster);
  }
  for (const auto& a : scenario.timeline) {
    if (a.kind != TimelineAction::Kind::kSetSetting) continue;
    if (!model::set_setting(cluster.settings, a.setting_name, a.setting_value).ok()) continue;
    if (!sync_chain(cluster, {}, SimTime{}).ok()) return;
    held.take_copy(cluster);
  }
}

std::string listed(const std::set<std::string>& names) {
  std::string out;
  size_t shown = 0;
  for (const auto& n : names) {
    if (shown == 8) return out + ", … (" + std::to_string(names.size()) + " in all)";
    out += (out.empty() ? "" : ", ") + n;
    ++shown;
  }
  return out.empty() ? "none" : out;
}

// The accelerators the held InstanceTypes serve, as a generator would name them.
std::set<std::string> accelerator_keys(const Holdings& held) {
  std::set<std::string> keys;
  for (const auto* cluster : held.states)
    for (const auto& [name, it] : cluster->instance_types)
      if (it.spec.acceleratable && !it.spec.accelerator_group.empty()) keys.insert(accelerator_selector_key(it));
  return keys;
}

}  // namespace

model::Status check_workload_references(const Scenario& scenario, const model::ClusterState& settled) {
  Holdings held;
  held.take(settled);
  if (unresolved(scenario, held).empty()) return model::Ok{};
  take_timeline(scenario, settled, held);
  const auto missing = unresolved(scenario, held);
  if (missing.empty()) return model::Ok{};
  const Missing& m = missing.front();
  size_t index = 0;
  while (&scenario.workloads[index] != m.spec) ++index;
  const std::string at = m.spec->where.str() + ": workloads[" + std::to_string(index) + "]." + m.field + ": ";
  if (m.field == "instanceType")
    return model::err(at + "no InstanceType '" + m.value +
                      "' exists or is derived at any time of the run (InstanceTypes: " + listed(held.instance_types) +
                      ")");
  if (m.field == "localQueue")
    return model::err(at + "no LocalQueue '" + m.value + "' in namespace '" + m.spec->namespace_ +
                      "' among the cluster's objects (LocalQueues: " + listed(held.local_queues) + ")");
  if (m.field == "accelerator")
    return model::err(at + "no InstanceType of the run serves accelerator '" + m.value +
                      "' at any time (the accelerators of its InstanceTypes: " + listed(accelerator_keys(held)) + ")");
  return model::err(at + "no Topology of the run has the level '" + m.value + "' (levels: " + listed(held.levels) +
                    ")");
}

}  // namespace chaintwin::sim
