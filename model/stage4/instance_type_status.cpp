// InstanceType status (instance_type.go computeStatus, computeDetail, getCPUResource,
// publishPartitionProfileNames; apistatus.GetSummaryOfClusterQueue).
#include "model/stage4/instance_type_status.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage3/pool_identity.h"
#include "model/catalog/profile_names.h"
#include "model/stage3/sliced_detail.h"
#include "model/stage4/accelerator_views.h"
#include "model/stage4/instance_type_schedule_labels.h"

namespace chaintwin::model {
namespace {

constexpr std::string_view kNodesResourceType = "nodes";

bool is_operator_flavor(const ResourceFlavor& rf) {
  const auto it = rf.metadata.labels.find(keys::kResourceType);
  return it != rf.metadata.labels.end() && it->second == kNodesResourceType;
}

std::string note_of(const ObjectMeta& meta, std::string_view name) {
  const auto it = meta.annotations.find(std::string(keys::kNotePrefix) + std::string(name));
  return it == meta.annotations.end() ? std::string() : it->second;
}

std::vector<const Devices*> pool_devices(const ClusterState& state, const StringMap& queue_labels) {
  std::vector<const Devices*> out;
  for (const auto& node : pool_node_names(state, queue_labels))
    if (const Devices* d = state.devices_of(node)) out.push_back(d);
  return out;
}

// The pool's slicing catalog for the group: every matching spec group's cards, re-aggregated.
AcceleratorSlicedDetail pool_sliced_detail(const std::vector<const Devices*>& pool, std::string_view accelerator_group) {
  std::vector<Accelerator> cards;
  for (const Devices* devices : pool)
    for (const auto& group : devices->spec.groups)
      if (group.manufacturer + "-" + group.id == accelerator_group)
        cards.insert(cards.end(), group.accelerators.begin(), group.accelerators.end());
  return aggregate_accelerator_sliced_detail(cards);
}

InstanceTypeDetail compute_detail(const ClusterState& state, const InstanceType& type,
                                  const std::vector<const Devices*>& pool) {
  const bool aware = state.settings.instance_type_aware_cpu_manufacturer;
  if (!type.spec.acceleratable && !aware) return {};  // the collapsed generic pool
  StringMap wanted = instance_type_schedule_labels(type, aware);
  wanted[std::string(keys::kResourceType)] = std::string(kNodesResourceType);
  const ResourceFlavor* flavor = nullptr;
  for (const auto& [name, rf] : state.resource_flavors) {
    if (map_contains(rf.metadata.labels, wanted)) {
      flavor = &rf;
      break;
    }
  }
  if (flavor == nullptr) return {};  // not synced yet; a later pass fills it
  InstanceTypeDetail detail;
  detail.manufacturer = note_of(flavor->metadata, "manufacturer");
  detail.product = note_of(flavor->metadata, "product");
  detail.family = note_of(flavor->metadata, "family");
  if (type.spec.acceleratable) {
    detail.memory = note_of(flavor->metadata, "memory");
    detail.cores = note_of(flavor->metadata, "cores");
    detail.sliced_detail = pool_sliced_detail(pool, type.spec.accelerator_group);
    if (aware) detail.cpu = note_of(flavor->metadata, "cpuDetail");
  } else {
    detail.cpu = note_of(flavor->metadata, "cpuDetail");
  }
  return detail;
}

}  // namespace

std::vector<std::string> pool_node_names(const ClusterState& state, const StringMap& queue_labels) {
  std::set<std::string> names;
  for (const auto& [flavor_name, rf] : state.resource_flavors) {
    if (!is_operator_flavor(rf) || rf.metadata.deletion_timestamp) continue;
    if (!flavor_feeds_queue(rf.metadata.labels, queue_labels)) continue;
    if (rf.spec.node_labels.empty()) continue;  // selects every node: not a pool flavor
    for (const auto& [node_name, node] : state.nodes)
      if (map_contains(node.metadata.labels, rf.spec.node_labels)) names.insert(node_name);
  }
  return {names.begin(), names.end()};
}

int64_t node_flavor_count_from_name(std::string_view name) {
  const std::string profile_marker = "-" + std::string(kTopologyProfilePrefix);
  if (const auto at = name.rfind(profile_marker); at != std::string_view::npos) name = name.substr(0, at);
  while (!name.empty()) {
    const auto dash = name.rfind('-');
    const std::string_view segment = dash == std::string_view::npos ? name : name.substr(dash + 1);
    if (segment.size() >= 2 && (segment.back() == 'c' || segment.back() == 'd')) {
      if (const auto v = go_atoi(segment.substr(0, segment.size() - 1))) return *v;
    }
    if (dash == std::string_view::npos) break;
    name = name.substr(0, dash);
  }
  return 0;
}

InstanceTypeCapacityView cpu_view(const ClusterQueue& queue) {
  int64_t capacity_milli = 0, largest_node = 0;
  for (const auto& group : queue.spec.resource_groups) {
    for (const auto& flavor : group.flavors) {
      for (const auto& r : flavor.resources)
        if (r.name == "cpu") capacity_milli += r.nominal_quota.milli_value_ceil();
      largest_node = std::max(largest_node, node_flavor_count_from_name(flavor.name));
    }
  }
  int64_t remaining_milli = capacity_milli;
  for (const auto& flavor : queue.status.flavors_reservation)
    for (const auto& r : flavor.resources)
      if (r.name == "cpu") remaining_milli -= r.total.milli_value_ceil();
  remaining_milli = std::max<int64_t>(remaining_milli, 0);
  const int64_t once_milli = std::min(largest_node * 1000, remaining_milli);
  return {capacity_milli / 1000, once_milli / 1000, remaining_milli / 1000};
}

void publish_partition_profile_names(InstanceTypeStatus& status) {
  const std::string& manufacturer = status.detail.manufacturer;
  if (manufacturer.empty()) return;  // no detail yet: names stay as read; a later pass publishes them
  for (auto& p : status.detail.sliced_detail.physical.profiles)
    p.name = publish_partitioned_profile_name(manufacturer, p.name);
  for (auto* counts : {&status.accelerator_partitioned.remaining_profiles, &status.accelerator_partitioned.allocated_profiles}) {
    std::map<std::string, int64_t> published;  // a map: the published names come out in name order
    for (const auto& [name, count] : *counts) published[publish_partitioned_profile_name(manufacturer, name)] += count;
    *counts = std::move(published);
  }
}

bool cluster_queue_has_reserved(const ClusterQueue& queue) {
  if (queue.status.reserving_workloads != 0 || queue.status.admitted_workloads != 0) return true;
  for (const auto& flavor : queue.status.flavors_reservation)
    for (const auto& r : flavor.resources)
      if (!r.total.is_zero()) return true;
  return false;
}

std::pair<std::string, std::string> cluster_queue_phase(const ClusterQueue& queue) {
  switch (queue.stop_policy()) {
    case StopPolicy::kHoldAndDrain:
      if (cluster_queue_has_reserved(queue)) return {"Draining", "cluster queue is draining admitted workloads"};
      return {"Inactive", "cluster queue is held and drained"};
    case StopPolicy::kHold: return {"Inactive", "cluster queue is held"};
    case StopPolicy::kNone: break;
  }
  const Condition* active = find_condition(queue.status.conditions, "Active");
  if (active != nullptr && active->status == "True") return {"Active", ""};
  if (active != nullptr && active->status == "False") return {"Inactive", active->message};
  return {"Activating", active != nullptr ? active->message : ""};
}

InstanceTypeStatusComputation compute_instance_type_status(const ClusterState& state, const InstanceType& type,
                                                           const ClusterQueue& queue) {
  InstanceTypeStatusComputation out;
  InstanceTypeStatus& st = out.status;
  const bool draining = queue.stop_policy() == StopPolicy::kHoldAndDrain;
  std::vector<const Devices*> pool;
  if (type.spec.acceleratable) pool = pool_devices(state, queue.metadata.labels);
  if (!draining) {
    if (type.spec.acceleratable) {
      auto views = accelerator_views(pool, type.spec.accelerator_group);
      st.accelerator = views.exclusive;
      st.accelerator_shared = views.shared;
      st.accelerator_sliced = views.sliced;
      st.accelerator_partitioned = std::move(views.partitioned);
      out.notes = std::move(views.notes);
    } else {
      st.cpu = cpu_view(queue);
    }
  }
  st.detail = compute_detail(state, type, pool);
  publish_partition_profile_names(st);
  st.entrance = format_local_queue_name(queue.metadata.name);
  std::tie(st.phase, st.phase_message) = cluster_queue_phase(queue);
  return out;
}

}  // namespace chaintwin::model
