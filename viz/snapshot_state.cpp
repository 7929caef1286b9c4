#include "viz/snapshot_state.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "model/admission/accelerator_claim.h"
#include "model/admission/credit_transform.h"
#include "model/stage3/card_ledger.h"
#include "model/api/devices_codec.h"
#include "model/stage3/fit_labels.h"
#include "model/stage3/population.h"
#include "model/catalog/partition_geometry.h"
#include "model/kueue/scheduler/queue_manager.h"
#include "model/stage4/chain_graph.h"
#include "model/stage4/node_queue_decision.h"
#include "model/stage4/stop_policy_migration.h"

namespace chaintwin::viz {
namespace {

constexpr std::string_view kEmptyPlanHoldAnnotation = "topology.gpustack.ai/empty-plan-hold";

int64_t kueue_units(const std::string& resource, const model::Quantity& q) {
  return resource == "cpu" ? q.milli_value_ceil() : q.value_ceil();
}

std::string view_text(const model::InstanceTypeCapacityView& v) {
  return std::to_string(v.once_max_request) + "/" + std::to_string(v.remaining);
}


// The family a pool is drawn in: CPU for a general type; otherwise the first accelerator view that
// has capacity, in the order EX, SH, SL, PT (EX when none has any yet).
Family family_of(const model::InstanceType* it) {
  if (it == nullptr || !it->spec.acceleratable) return Family::kCpu;
  const auto& s = it->status;
  if (s.accelerator.capacity > 0) return Family::kExclusive;
  if (s.accelerator_shared.capacity > 0) return Family::kShared;
  if (s.accelerator_sliced.capacity > 0) return Family::kSliced;
  if (s.accelerator_partitioned.view.capacity > 0) return Family::kPartitioned;
  return Family::kExclusive;
}

// The resource a queue's pool is measured in: its credits resource when it covers one, else cpu.
std::string pool_resource(const model::ClusterQueue& cq) {
  std::string out;
  for (const auto& rg : cq.spec.resource_groups)
    for (const auto& r : rg.covered_resources) {
      if (r.rfind("credits.gpustack.ai/", 0) == 0) return r;
      if (r == "cpu") out = r;
    }
  return out.empty() ? "cpu" : out;
}

int64_t usage_of(const std::vector<model::FlavorUsage>& flavors, const std::string& resource) {
  int64_t sum = 0;
  for (const auto& f : flavors)
    for (const auto& r : f.resources)
      if (r.name == resource) sum += kueue_units(resource, r.total);
  return sum;
}

// What one Workload asks of `resource` once Kueue's transformation turned its accelerator keys
// into credits: Σ over PodSets of count × the Pod's effective request.
int64_t demand_of(const model::Workload& wl, const std::string& resource) {
  int64_t sum = 0;
  for (const auto& ps : wl.pod_sets) {
    const model::ResourceList per_pod = model::kueue_effective_requests(model::pod_effective_requests(ps.template_));
    const auto it = per_pod.find(resource);
    if (it != per_pod.end()) sum += static_cast<int64_t>(ps.count) * kueue_units(resource, it->second);
  }
  return sum;
}

std::string cluster_queue_of(const model::ClusterState& cluster, const model::Workload& wl) {
  if (wl.status.admission) return wl.status.admission->cluster_queue;
  const auto lq = cluster.local_queues.find(model::local_queue_key(wl.metadata.namespace_, wl.queue_name));
  return lq == cluster.local_queues.end() ? "" : lq->second.cluster_queue;
}

WorkloadPhase phase_of(const model::Workload& wl) {
  if (wl.finished()) return WorkloadPhase::kFinished;
  if (wl.admitted()) return WorkloadPhase::kAdmitted;
  return wl.status.evictions > 0 ? WorkloadPhase::kEvicted : WorkloadPhase::kPending;
}

std::string condition_status(const std::vector<model::Condition>& conditions, std::string_view type,
                             std::string* reason) {
  for (const auto& c : conditions)
    if (c.type == type) {
      *reason = c.reason;
      return c.status;
    }
  return "";
}

// Every family the type has capacity in, EX, SH, SL, PT; CPU for a general type.
std::vector<Family> families_of(const model::InstanceType* it) {
  if (it == nullptr || !it->spec.acceleratable) return {Family::kCpu};
  const auto& s = it->status;
  std::vector<Family> out;
  if (s.accelerator.capacity > 0) out.push_back(Family::kExclusive);
  if (s.accelerator_shared.capacity > 0) out.push_back(Family::kShared);
  if (s.accelerator_sliced.capacity > 0) out.push_back(Family::kSliced);
  if (s.accelerator_partitioned.view.capacity > 0) out.push_back(Family::kPartitioned);
  return out;
}

// The memory slices of a partitionable card: the widest placement end over its profiles.
int32_t memory_slices_of(const model::AcceleratorStatus& capability) {
  int32_t slices = 0;
  for (const auto& p : capability.physical_sliced.profiles) {
    slices = std::max(slices, p.memory_slices);
    for (const auto& pl : p.placements) slices = std::max(slices, pl.start + pl.length);
  }
  return slices;
}

// The ledger row of card `index` of group `group` as the Devices status carries it.
std::string ledger_row_text(const nlohmann::json& devices_json, size_t group, size_t index) {
  const auto& groups = devices_json["status"]["groups"];
  if (!groups.is_array() || group >= groups.size()) return "";
  const auto& accelerators = groups[group]["accelerators"];
  if (!accelerators.is_array() || index >= accelerators.size()) return "";
  return accelerators[index].dump(2);
}

}  // namespace

StopPolicy stop_policy_of(model::StopPolicy p) {
  switch (p) {
    case model::StopPolicy::kNone: return StopPolicy::kNone;
    case model::StopPolicy::kHold: return StopPolicy::kHold;
    case model::StopPolicy::kHoldAndDrain: return StopPolicy::kHoldAndDrain;
  }
  return StopPolicy::kNone;
}

std::vector<PoolRow> pool_rows(const model::ClusterState& cluster, const model::WorkloadState& workloads) {
  std::vector<PoolRow> rows;
  std::map<std::string, size_t> by_queue;
  for (const auto& [name, cq] : cluster.cluster_queues) {
    PoolRow row;
    row.cluster_queue = name;
    const auto it_it = cluster.instance_types.find(name);
    const model::InstanceType* it = it_it == cluster.instance_types.end() ? nullptr : &it_it->second;
    row.family = family_of(it);
    row.families = families_of(it);
    row.resource = pool_resource(cq);
    for (const auto& rg : cq.spec.resource_groups)
      for (const auto& f : rg.flavors)
        for (const auto& r : f.resources)
          if (r.name == row.resource) row.nominal += kueue_units(r.name, r.nominal_quota);
    row.reserved = usage_of(cq.status.flavors_reservation, row.resource);
    row.admitted = usage_of(cq.status.flavors_usage, row.resource);
    row.pending_workloads = cq.status.pending_workloads;
    row.reserving_workloads = cq.status.reserving_workloads;
    row.admitted_workloads = cq.status.admitted_workloads;
    if (it != nullptr) {
      row.display_name = it->spec.display_name;
      row.phase = it->status.phase;
      row.view_ex = view_text(it->status.accelerator);
      row.view_sh = view_text(it->status.accelerator_shared);
      row.view_sl = view_text(it->status.accelerator_sliced);
      row.view_pt = view_text(it->status.accelerator_partitioned.view);
      row.view_cpu = view_text(it->status.cpu);
    }
    row.stop_policy = stop_policy_of(cq.stop_policy());
    const auto hold = cq.metadata.annotations.find(std::string(kEmptyPlanHoldAnnotation));
    row.empty_plan_hold = hold != cq.metadata.annotations.end() && hold->second == "true";
    row.migration_phase = model::migration_phase(cq);
    row.topology_ready =
        condition_status(cq.status.conditions, model::kTopologyReadyCondition, &row.topology_reason);
    by_queue[name] = rows.size();
    rows.push_back(std::move(row));
  }
  for (const auto* kv : workloads.workloads.in_key_order()) {
    const auto& [key, wl] = *kv;
    if (wl.quota_reserved() || wl.finished()) continue;
    const auto at = by_queue.find(cluster_queue_of(cluster, wl));
    if (at == by_queue.end()) continue;
    PoolRow& row = rows[at->second];
    row.pending_demand += demand_of(wl, row.resource);
  }
  return rows;
}

std::vector<NodeView> node_views(const model::ClusterState& cluster, const model::WorkloadState* workloads) {
  std::vector<NodeView> out;
  const model::ChainGraph graph = model::ChainGraph::build(cluster);
  std::map<std::string, std::vector<std::string>> flavors;
  for (const auto& [from, kind, to] : graph.edges())
    if (kind == model::ChainEdgeKind::kContributes && from.kind == model::ChainVertexKind::kNode)
      flavors[from.name].push_back(to.name);
  for (const auto& [name, node] : cluster.nodes) {
    NodeView v;
    v.name = name;
    v.ready = !node.unschedulable;
    v.terminating = node.metadata.deletion_timestamp.has_value();
    v.managed = model::is_managed(node.metadata);
    v.flavors = flavors[name];
    for (const auto& [key, q] : node.status.capacity)
      if (key.find('/') != std::string::npos && key.rfind("credits.", 0) != 0) v.capacity_keys.emplace_back(key, q.to_string());
    for (const auto& [key, value] : node.metadata.labels)
      if (model::is_fit_label_key(key)) v.fit_labels.emplace_back(key, value);
    if (const model::Devices* devices = cluster.devices_of(name)) {
      const nlohmann::json devices_json = model::encode_devices(*devices);
      const std::vector<model::CardGroup> groups = model::card_groups_of(*devices);
      for (size_t g = 0; g < groups.size(); ++g) {
        std::string product;
        for (const auto& sg : devices->spec.groups)
          if (sg.id == groups[g].id && sg.manufacturer == groups[g].manufacturer) product = sg.name;
        for (size_t i = 0; i < groups[g].cards.size(); ++i) {
          const model::CardLedger& card = groups[g].cards[i];
          CardView c;
          c.id = card.ledger.id;
          c.index = card.ledger.index;
          c.product = product;
          c.accelerator_key = card.accelerator_key();
          c.mode = std::string(model::to_string(card.ledger.mode));
          c.unhealthy = card.capability.unhealthy;
          c.remaining = card.ledger.remaining;
          c.slices_used = card.ledger.allocated_slices;
          c.slice_count = card.capability.logical_sliced.count;
          c.memory_slices = memory_slices_of(card.capability);
          c.hardware_mode = model::is_partitioned(card.capability)           ? "MIG"
                            : model::is_logically_sliceable(card.capability) ? "logical"
                                                                             : "whole";
          if (c.hardware_mode == "MIG") {
            c.ledger_ready = model::partition_ledger_ready(&card.ledger);
            const model::PartitionGeometry geometry =
                model::geometry_from_capability(card.manufacturer, card.capability.physical_sliced);
            if (auto view = model::card_view_from_ledger(geometry, &card.ledger); view.ok())
              for (const auto& p : view->profiles)
                if (p.offered) c.profiles.push_back({p.profile, p.published, p.allocated, p.remaining});
          }
          for (const auto& inst : card.ledger.instances) {
            PlacedInstance placed{inst.profile, inst.placement.start, inst.placement.length, "", ""};
            for (const auto& charge : card.ledger.charges)
              if (charge.profile == inst.profile && charge.start == inst.placement.start) {
                placed.pod = charge.holder.substr(0, charge.holder.rfind('/'));  // "<ns>/<pod>/<container>"
                if (workloads != nullptr)
                  if (const auto pod = workloads->pods.find(placed.pod); pod != workloads->pods.end())
                    if (const auto w = pod->second.metadata.annotations.find(std::string(model::kWorkloadAnnotation));
                        w != pod->second.metadata.annotations.end())
                      placed.workload = pod->second.metadata.namespace_ + "/" + w->second;
              }
            c.instances.push_back(std::move(placed));
          }
          c.ledger_row = ledger_row_text(devices_json, g, i);
          v.cards.push_back(std::move(c));
        }
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

void fill_cluster_state(Snapshot& out, const model::ClusterState& cluster, const model::WorkloadState& workloads) {
  out.pools = pool_rows(cluster, workloads);
  out.nodes = node_views(cluster, &workloads);
  out.chain.clear();
  const model::ChainGraph graph = model::ChainGraph::build(cluster);
  for (const auto& [from, kind, to] : graph.edges())
    out.chain.push_back({from.label(), std::string(model::to_string(kind)), to.label()});
  out.flavors.clear();
  for (const auto& [name, rf] : cluster.resource_flavors) {
    FlavorView f;
    f.name = name;
    for (const auto& [k, v] : rf.spec.node_labels) f.node_labels.emplace_back(k, v);
    for (const auto& t : rf.spec.node_taints)
      f.node_taints.push_back(t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + t.effect);
    for (const auto& t : rf.spec.tolerations)
      f.tolerations.push_back((t.key.empty() ? "*" : t.key) + (t.operator_ == "Exists" ? " exists" : "=" + t.value) +
                              (t.effect.empty() ? "" : ":" + t.effect));
    f.topology = rf.spec.topology_name;
    out.flavors.push_back(std::move(f));
  }
  // Each Workload's Pods bound to Nodes, with the cards they were granted.
  std::map<std::string, std::vector<PodPlacement>> placements;
  for (const auto& [key, pod] : workloads.pods) {
    if (pod.node_name.empty()) continue;
    const auto w = pod.metadata.annotations.find(std::string(model::kWorkloadAnnotation));
    if (w == pod.metadata.annotations.end()) continue;
    PodPlacement placed{key, pod.node_name, {}, {}};
    for (const auto& a : pod.allocations) {
      placed.cards.push_back("#" + std::to_string(a.index) + " " + std::string(model::to_string(a.mode)) +
                             (a.profile.empty() || a.profile == "-" ? "" : " " + a.profile));
      placed.card_ids.push_back(a.accelerator);
    }
    placements[pod.metadata.namespace_ + "/" + w->second].push_back(std::move(placed));
  }
  std::map<std::string, std::string> resource_of_queue;
  for (const auto& p : out.pools) resource_of_queue[p.cluster_queue] = p.resource;
  // Each ClusterQueue's waiting Workloads in Kueue's order of heads.
  std::map<std::string, std::vector<model::QueueEntry>> waiting;
  std::map<std::string, size_t> rows;
  for (size_t i = 0; i < out.workloads.size(); ++i) rows[out.workloads[i].key] = i;
  for (const auto* kv : workloads.workloads.in_key_order()) {
    const auto& [key, wl] = *kv;
    auto it = rows.find(key);
    if (it == rows.end()) {
      WorkloadRow fresh;
      fresh.key = key;
      fresh.created_us = wl.creation_time;
      out.workloads.push_back(std::move(fresh));
      it = rows.emplace(key, out.workloads.size() - 1).first;
    }
    WorkloadRow& r = out.workloads[it->second];
    r.cluster_queue = cluster_queue_of(cluster, wl);
    if (r.phase != WorkloadPhase::kRejected) r.phase = phase_of(wl);
    r.evictions = wl.status.evictions;
    r.retries = wl.status.retries;
    r.priority = wl.priority;
    if (auto p = placements.find(key); p != placements.end()) {
      r.placements = std::move(p->second);
      std::sort(r.placements.begin(), r.placements.end(),
                [](const PodPlacement& a, const PodPlacement& b) { return a.pod < b.pod; });
    } else {
      r.placements.clear();
    }
    if (const auto res = resource_of_queue.find(r.cluster_queue); res != resource_of_queue.end()) {
      r.resource = res->second;
      r.requested = demand_of(wl, r.resource);
    }
    if (!r.cluster_queue.empty() && !wl.quota_reserved() && !wl.finished() && r.phase != WorkloadPhase::kRejected)
      waiting[r.cluster_queue].push_back(model::queue_entry(wl));
    // Without a history (a live cluster), a waiting Workload's reason is what Kueue last said.
    if (r.reason.empty() && r.phase == WorkloadPhase::kPending)
      if (const model::Condition* c = model::find_condition(wl.status.conditions, model::kWorkloadQuotaReserved);
          c != nullptr && c->status == "False")
        r.reason = c->message;
  }
  for (auto& [queue, entries] : waiting) {
    std::sort(entries.begin(), entries.end());
    for (size_t i = 0; i < entries.size(); ++i)
      if (const auto it = rows.find(entries[i].key); it != rows.end())
        out.workloads[it->second].queue_position = static_cast<int32_t>(i + 1);
  }
  for (auto& r : out.workloads)
    if (r.phase == WorkloadPhase::kAdmitted || r.phase == WorkloadPhase::kFinished) {
      r.gate.clear();  // it no longer waits
      r.reason.clear();
    }
}

}  // namespace chaintwin::viz
