// Test builders for the NodeQueue reconciler, shaped like the operator's node_queue_test.go
// fixtures (newNodesFlavor, newInstanceTypeQueue, cpuResourceGroup, buildNodeQueueClient,
// markClusterQueueStopped): a pool flavor carries its feature key, count and capacity labels and
// its notes; the world adds the hostname topology profile, the flavor's nodeLabels, one Node per
// counted unit and the Topology objects. Settings default to what the operator's unit-test binary
// resolves (mixing, derived-from-node and drain all off). Shared by the unit tests and the golden
// handlers.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/cluster_state.h"
#include "model/stage4/node_queue_reconciler.h"
#include "model/stage4/plan.h"
#include "model/stage4/queue_status.h"
#include "model/stage4/resource_groups.h"

namespace chaintwin::model::queue_fixtures {

inline std::string str(std::string_view s) { return std::string(s); }

inline std::string hostname_profile() { return topology_profile({str(keys::kHostname)}); }

inline std::string feature_key_label(bool acceleratable, const std::string& key) {
  return str(acceleratable ? keys::kAcceleratablePrefix : keys::kGeneralPrefix) + key;
}

// newNodesFlavor: `manufacturer` empty makes a CPU flavor ("generic" manufacturer note).
inline ResourceFlavor nodes_flavor(const std::string& name, const std::string& key, int64_t count, int64_t capacity,
                                   const std::string& manufacturer = "", const std::string& general_key = "") {
  const bool acceleratable = !manufacturer.empty();
  const std::string key_label = feature_key_label(acceleratable, key);
  ResourceFlavor rf;
  rf.metadata.name = name;
  rf.metadata.labels = {{key_label, "true"},
                        {str(keys::kAcceleratable), acceleratable ? "true" : "false"},
                        {str(keys::kOs), "linux"},
                        {str(keys::kArch), "amd64"},
                        {key_label + ".count", std::to_string(count)},
                        {key_label + ".capacity", std::to_string(capacity)},
                        {str(keys::kResourceType), str(kResourceFlavorResType)}};
  if (!general_key.empty()) rf.metadata.labels[str(keys::kGeneralPrefix) + general_key] = "true";
  const std::string note = str(keys::kNotePrefix);
  rf.metadata.annotations = {{note + "acceleratable", acceleratable ? "true" : "false"},
                             {note + "manufacturer", acceleratable ? manufacturer : "generic"},
                             {note + "product", ""},
                             {note + "family", ""},
                             {note + "memory", ""}};
  rf.metadata.generation = 1;
  return rf;
}

inline ResourceGroup cpu_resource_group(const std::string& flavor, int64_t cpu) {
  ResourceGroup g;
  g.covered_resources = {"cpu"};
  ResourceQuota q;
  q.name = "cpu";
  q.nominal_quota = Quantity::from_int(cpu);
  g.flavors.push_back({flavor, {q}});
  return g;
}

inline std::string node_queue_name(const std::string& key) { return "gpustack-" + key + "-linux-amd64"; }

// newInstanceTypeQueue: schedule labels, the instancetypes resType, StopPolicy None, the given
// groups (then marked tas-queue).
inline ClusterQueue instance_type_queue(const std::string& key, bool acceleratable,
                                        std::vector<ResourceGroup> groups = {}) {
  ClusterQueue cq;
  cq.metadata.name = node_queue_name(key);
  cq.metadata.labels = {{feature_key_label(acceleratable, key), "true"},
                        {str(keys::kAcceleratable), acceleratable ? "true" : "false"},
                        {str(keys::kOs), "linux"},
                        {str(keys::kArch), "amd64"},
                        {str(keys::kResourceType), str(kClusterQueueResType)}};
  cq.metadata.generation = 1;
  cq.metadata.uid = "uid-" + cq.metadata.name;
  cq.spec.stop_policy = StopPolicy::kNone;
  if (!groups.empty()) cq.metadata.annotations[str(keys::kTasQueue)] = "true";
  cq.spec.resource_groups = std::move(groups);
  return cq;
}

// collapsedGenericQueue: acceleratable=false + os/arch, and general.<group>=true when aware.
inline ClusterQueue collapsed_generic_queue(const std::string& name, const std::string& general_group) {
  ClusterQueue cq;
  cq.metadata.name = name;
  cq.metadata.labels = {{str(keys::kAcceleratable), "false"},
                        {str(keys::kOs), "linux"},
                        {str(keys::kArch), "amd64"},
                        {str(keys::kResourceType), str(kClusterQueueResType)}};
  if (!general_group.empty()) cq.metadata.labels[str(keys::kGeneralPrefix) + general_group] = "true";
  cq.metadata.generation = 1;
  cq.spec.stop_policy = StopPolicy::kNone;
  return cq;
}

inline AdmissionCheck admission_check(const std::string& name, const std::string& controller, bool active) {
  AdmissionCheck ac;
  ac.metadata.name = name;
  ac.controller_name = controller;
  if (active) ac.conditions.push_back({"Active", "True", "Ready", "", 0});
  return ac;
}

inline void add_flavor(ClusterState& s, ResourceFlavor rf) {
  const std::string profile = hostname_profile();
  rf.metadata.labels[str(keys::kTopologyProfile)] = profile;
  if (rf.spec.node_labels.empty()) {
    StringMap& nl = rf.spec.node_labels;
    nl[str(keys::kManaged)] = "true";
    nl[str(keys::kOs)] = rf.metadata.labels[str(keys::kOs)];
    nl[str(keys::kArch)] = rf.metadata.labels[str(keys::kArch)];
    nl[str(keys::kTopologyProfile)] = profile;
    for (const auto& [key, value] : rf.metadata.labels) {
      const bool feature = value == "true" && (key.rfind(keys::kGeneralPrefix, 0) == 0 ||
                                               key.rfind(keys::kAcceleratablePrefix, 0) == 0);
      if (key != keys::kAcceleratable && !feature) continue;
      nl[key] = value;
      const auto count = rf.metadata.labels.find(key + ".count");
      if (count != rf.metadata.labels.end()) nl[key + ".count"] = count->second;
    }
  }
  if (rf.spec.topology_name.empty()) rf.spec.topology_name = topology_name(profile);
  Topology topology;
  topology.metadata.name = rf.spec.topology_name;
  topology.levels = {str(keys::kHostname)};
  s.topologies[topology.metadata.name] = topology;
  if (!rf.metadata.deletion_timestamp) {
    const int64_t count = resource_flavor_count(rf);
    const int64_t capacity = resource_flavor_capacity(rf);
    for (int64_t i = 0; count > 0 && i < capacity / count; ++i) {
      Node node;
      node.metadata.name = rf.metadata.name + "-" + std::to_string(i);
      node.metadata.labels = rf.spec.node_labels;
      node.metadata.labels[str(keys::kHostname)] = node.metadata.name;
      s.nodes[node.metadata.name] = node;
    }
  }
  s.resource_flavors[rf.metadata.name] = rf;
}

// buildNodeQueueClient.
inline ClusterState queue_world(const std::vector<ClusterQueue>& queues, const std::vector<ResourceFlavor>& flavors,
                                const std::vector<AdmissionCheck>& checks = {}) {
  ClusterState s;
  s.settings.instance_type_mixed_on_node = false;
  s.settings.instance_type_derived_from_node = false;
  s.settings.instance_type_drain_when_no_flavors = false;
  for (const auto& cq : queues) s.cluster_queues[cq.metadata.name] = cq;
  for (const auto& rf : flavors) add_flavor(s, rf);
  for (const auto& ac : checks) s.admission_checks[ac.metadata.name] = ac;
  return s;
}

inline ResourceFlavor terminating(ResourceFlavor rf) {
  rf.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  rf.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  return rf;
}

// One NodeQueue pass over `name`, applied like the API server would; returns the requeue (0: none).
inline int64_t reconcile_once(ClusterState& s, const std::string& name) {
  const Plan plan = reconcile_node_queue(s, name);
  auto next = apply_plan(s, plan, "2024-01-01T00:00:00Z");
  if (!next.ok()) throw std::runtime_error(next.error());
  s = std::move(next).value();
  int64_t after = 0;
  for (const auto& r : plan.requeues)
    if (r.key == name) after = r.after_seconds;
  return after;
}

// reconcileNodeQueueN: n passes; the last pass's requeue.
inline int64_t reconcile_n(ClusterState& s, const std::string& name, int n) {
  int64_t after = 0;
  for (int i = 0; i < n; ++i) after = reconcile_once(s, name);
  return after;
}

inline void set_active(ClusterState& s, const std::string& name, const std::string& status, const std::string& reason,
                       int64_t observed_generation) {
  auto& cq = s.cluster_queues.at(name);
  set_condition(cq.status.conditions, {str(kClusterQueueActiveCondition), status, reason, "", observed_generation});
}

// markClusterQueueStopped: Kueue reports Active=False/Stopped at the current generation.
inline void mark_stopped(ClusterState& s, const std::string& name) {
  set_active(s, name, "False", str(kClusterQueueActiveReasonStopped), s.cluster_queues.at(name).metadata.generation);
}

// Kueue reports the queue at its current generation: Active when its stop policy is None, else Stopped.
inline void observe(ClusterState& s, const std::string& name) {
  const auto& cq = s.cluster_queues.at(name);
  if (cq.stop_policy() == StopPolicy::kNone) set_active(s, name, "True", "Ready", cq.metadata.generation);
  else mark_stopped(s, name);
}

inline const Condition* topology_ready(const ClusterState& s, const std::string& name) {
  return find_condition(s.cluster_queues.at(name).status.conditions, "TopologyReady");
}

inline std::string annotation(const ClusterState& s, const std::string& name, std::string_view key) {
  const auto& a = s.cluster_queues.at(name).metadata.annotations;
  const auto it = a.find(str(key));
  return it == a.end() ? std::string("absent") : it->second;
}

inline std::vector<std::string> flavor_names(const ClusterQueue& cq) {
  std::vector<std::string> out;
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& f : g.flavors) out.push_back(f.name);
  return out;
}

}  // namespace chaintwin::model::queue_fixtures
