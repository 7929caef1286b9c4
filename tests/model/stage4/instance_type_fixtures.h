// Test fixtures for the InstanceType controller: managed Nodes with their flavor labels,
// operator ResourceFlavors selecting them, Devices records with ledgers, InstanceTypes and
// their filled queues — shaped the way the stage 3 controllers and the NodeQueue reconciler
// leave them, so the InstanceType status can be read off a realistic ClusterState.
#pragma once

#include <string>
#include <vector>

#include "model/credits.h"
#include "model/catalog/label_keys.h"
#include "model/catalog/mig_catalog.h"
#include "model/cluster_state.h"
#include "model/stage4/instance_type_reconciler.h"

namespace chaintwin::test {

namespace m = chaintwin::model;
namespace k = chaintwin::model::keys;

inline const std::string kProfile = "fnv64-87bf574bea2a4f23";  // hostname-only topology profile

inline std::string gen(const std::string& key) { return std::string(k::kGeneralPrefix) + key; }
inline std::string acc(const std::string& key) { return std::string(k::kAcceleratablePrefix) + key; }

// A managed linux/amd64 node with `cores` CPUs of gKey `gkey` and `cards` cards of aKey `akey`.
inline m::Node make_node(const std::string& name, const std::string& gkey, int cores, const std::string& akey = "",
                         int cards = 0) {
  m::Node n;
  n.metadata.name = name;
  auto& l = n.metadata.labels;
  l[std::string(k::kManaged)] = "true";
  l[std::string(k::kOs)] = "linux";
  l[std::string(k::kArch)] = "amd64";
  l[std::string(k::kHostname)] = name;
  l[std::string(k::kTopologyProfile)] = kProfile;
  l[gen(gkey)] = "true";
  l[gen(gkey) + ".count"] = std::to_string(cores);
  if (!akey.empty()) {
    l[std::string(k::kAcceleratable)] = "true";
    l[acc(akey)] = "true";
    l[acc(akey) + ".count"] = std::to_string(cards);
  }
  n.status.capacity["cpu"] = m::Quantity::from_int(cores);
  return n;
}

inline void set_notes(m::ObjectMeta& meta, const m::StringMap& notes) {
  for (const auto& [key, v] : notes) meta.annotations[std::string(k::kNotePrefix) + key] = v;
}

// The CPU ResourceFlavor of `nodes` nodes with `cores` CPUs each (mixing on: no cpu-only pin).
inline m::ResourceFlavor cpu_flavor(const std::string& gkey, int cores, int nodes) {
  m::ResourceFlavor rf;
  rf.metadata.name = "gpustack--" + gkey + "-linux-amd64-" + std::to_string(cores) + "c-" + kProfile;
  rf.metadata.labels = {{gen(gkey), "true"},
                        {gen(gkey) + ".count", std::to_string(cores)},
                        {gen(gkey) + ".capacity", std::to_string(cores * nodes)},
                        {std::string(k::kAcceleratable), "false"},
                        {std::string(k::kOs), "linux"},
                        {std::string(k::kArch), "amd64"},
                        {std::string(k::kTopologyProfile), kProfile},
                        {std::string(k::kResourceType), "nodes"}};
  rf.spec.node_labels = {{std::string(k::kManaged), "true"},          {std::string(k::kOs), "linux"},
                         {std::string(k::kArch), "amd64"},            {gen(gkey), "true"},
                         {gen(gkey) + ".count", std::to_string(cores)}, {std::string(k::kTopologyProfile), kProfile}};
  rf.spec.tolerations = {{"", "Exists", "", ""}};
  rf.spec.topology_name = "gpustack-" + kProfile;
  set_notes(rf.metadata, {{"acceleratable", "false"},
                          {"generalGroup", gkey},
                          {"acceleratorGroup", ""},
                          {"manufacturer", gkey.substr(0, gkey.find('-'))},
                          {"product", gkey},
                          {"family", ""},
                          {"memory", ""},
                          {"cores", ""},
                          {"topologyProfile", kProfile},
                          {"cpuDetail", "{\"cores\":" + std::to_string(cores) + "}"}});
  return rf;
}

struct DeviceNotes {
  std::string manufacturer, product, family, memory, cores;
};

// The device ResourceFlavor of `nodes` nodes with `cards` cards each.
inline m::ResourceFlavor device_flavor(const std::string& gkey, const std::string& akey, int cards, int nodes,
                                       const DeviceNotes& d) {
  m::ResourceFlavor rf;
  rf.metadata.name = "gpustack--" + gkey + "--" + akey + "-linux-amd64-" + std::to_string(cards) + "d-" + kProfile;
  rf.metadata.labels = {{acc(akey), "true"},
                        {acc(akey) + ".count", std::to_string(cards)},
                        {acc(akey) + ".capacity", std::to_string(cards * nodes)},
                        {gen(gkey), "true"},
                        {std::string(k::kAcceleratable), "true"},
                        {std::string(k::kOs), "linux"},
                        {std::string(k::kArch), "amd64"},
                        {std::string(k::kTopologyProfile), kProfile},
                        {std::string(k::kResourceType), "nodes"}};
  rf.spec.node_labels = {{std::string(k::kManaged), "true"},
                         {std::string(k::kOs), "linux"},
                         {std::string(k::kArch), "amd64"},
                         {gen(gkey), "true"},
                         {acc(akey), "true"},
                         {acc(akey) + ".count", std::to_string(cards)},
                         {std::string(k::kTopologyProfile), kProfile}};
  rf.spec.tolerations = {{"", "Exists", "", ""}};
  rf.spec.topology_name = "gpustack-" + kProfile;
  set_notes(rf.metadata, {{"acceleratable", "true"},
                          {"generalGroup", gkey},
                          {"acceleratorGroup", akey},
                          {"manufacturer", d.manufacturer},
                          {"product", d.product},
                          {"family", d.family},
                          {"memory", d.memory},
                          {"cores", d.cores},
                          {"topologyProfile", kProfile}});
  return rf;
}

// A logically sliceable card (128 slices, cores overcommit) with a free ledger row.
inline m::Accelerator logical_card(int index) {
  m::Accelerator a;
  a.id = "GPU-" + std::to_string(index);
  a.index = static_cast<uint32_t>(index);
  a.status.logical_sliced = {true, 128};
  return a;
}

// A card in partition (MIG) mode with the catalog capability of `model`.
inline m::Accelerator partitioned_card(int index, const std::string& model) {
  m::Accelerator a;
  a.id = "GPU-" + std::to_string(index);
  a.index = static_cast<uint32_t>(index);
  a.status = m::catalog_accelerator_status(*m::find_catalog_model(model));
  return a;
}

inline m::AcceleratorAllocation free_row(const m::Accelerator& card) {
  m::AcceleratorAllocation row;
  row.id = card.id;
  row.index = card.index;
  row.remaining = static_cast<int32_t>(m::kUnitsPerAccelerator);
  return row;
}

// A Devices record: one group `<manufacturer>-<group_id>` holding `cards`, every card free.
inline m::Devices make_devices(const std::string& node, const std::string& manufacturer, const std::string& group_id,
                               const std::string& product, const std::vector<m::Accelerator>& cards) {
  m::Devices d;
  d.metadata.name = node;
  m::DevicesGroup g;
  g.id = group_id;
  g.manufacturer = manufacturer;
  g.name = product;
  g.accelerators = cards;
  d.spec.groups.push_back(g);
  m::DevicesAllocationGroup s;
  s.id = group_id;
  s.manufacturer = manufacturer;
  for (const auto& c : cards) s.accelerators.push_back(free_row(c));
  d.status.groups.push_back(s);
  return d;
}

inline m::AcceleratorAllocation& row_of(m::ClusterState& state, const std::string& node, size_t index) {
  return state.devices.at(node).status.groups.at(0).accelerators.at(index);
}

inline m::InstanceType make_type(const std::string& name, bool acceleratable, const std::string& akey,
                                 const std::string& general_group) {
  m::InstanceType it;
  it.metadata.name = name;
  it.metadata.finalizers = {std::string(k::kControlledFinalizer)};
  it.spec.acceleratable = acceleratable;
  it.spec.accelerator_group = akey;
  it.spec.general_group = general_group;
  it.spec.os = "linux";
  it.spec.arch = "amd64";
  return it;
}

// The queue as the NodeQueue reconciler leaves a filled, active pool: marker dropped, None,
// Kueue reporting Active; `cpu_flavors` become the cpu resource group (nominal = capacity).
inline m::ClusterQueue active_queue(const m::InstanceType& it, bool aware,
                                    const std::vector<const m::ResourceFlavor*>& cpu_flavors = {}) {
  m::ClusterQueue cq = m::new_cluster_queue_for(it, aware);
  cq.metadata.annotations.clear();
  cq.metadata.annotations[std::string(k::kTasQueue)] = "true";
  cq.spec.stop_policy = m::StopPolicy::kNone;
  cq.status.conditions.push_back({"Active", "True", "Ready", "Can admit new workloads", 1});
  if (!cpu_flavors.empty()) {
    m::ResourceGroup g;
    g.covered_resources = {"cpu"};
    for (const auto* rf : cpu_flavors) {
      int64_t capacity = 0;
      for (const auto& [key, v] : rf->metadata.labels)
        if (key.size() > 9 && key.compare(key.size() - 9, 9, ".capacity") == 0) capacity = std::stoll(v);
      g.flavors.push_back({rf->metadata.name, {{"cpu", m::Quantity::from_int(capacity), {}, {}}}});
    }
    cq.spec.resource_groups.push_back(g);
  }
  return cq;
}

}  // namespace chaintwin::test
