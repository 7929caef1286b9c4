// The runner's timeline: what an admin or the infrastructure does to the cluster at a scenario's
// dated moments, applied the way it would reach the API server, after which the operator's
// controllers and Kueue react as to any other change (simulation.cpp).
#include <algorithm>

#include "model/device_manager/detection_pass.h"
#include "model/device_manager/device_inventory.h"
#include "model/device_manager/first_detection.h"
#include "model/catalog/label_keys.h"
#include "model/device_manager/mode_flip_window.h"
#include "model/catalog/resource_names.h"
#include "model/stage4/plan.h"
#include "sim/runner/chain_sync.h"
#include "sim/runner/simulation.h"

namespace chaintwin::sim {
namespace {

const char* kind_name(TimelineAction::Kind k) {
  switch (k) {
    case TimelineAction::Kind::kAddNode: return "add-node";
    case TimelineAction::Kind::kRemoveNode: return "remove-node";
    case TimelineAction::Kind::kCordon: return "cordon";
    case TimelineAction::Kind::kUncordon: return "uncordon";
    case TimelineAction::Kind::kSetManaged: return "set-managed";
    case TimelineAction::Kind::kSetPartitioning: return "set-partitioning";
    case TimelineAction::Kind::kSetSetting: return "set-setting";
    case TimelineAction::Kind::kSetInactive: return "set-inactive";
    case TimelineAction::Kind::kDelete: return "delete";
    case TimelineAction::Kind::kKubeletRestart: return "kubelet-restart";
    case TimelineAction::Kind::kTopologySnapshot: return "topology-snapshot";
    case TimelineAction::Kind::kTopologyReadFailure: return "topology-read-failure";
    case TimelineAction::Kind::kDetectionPass: return "detection-pass";
    case TimelineAction::Kind::kFinishWorkload: return "finish-workload";
    case TimelineAction::Kind::kAddNamespace: return "add-namespace";
  }
  return "?";
}

}  // namespace

void Simulation::on_timeline(int64_t index) {
  report_every_queue_ = true;  // an admin action may write any object directly
  const TimelineAction& a = scenario_.timeline[static_cast<size_t>(index)];
  const std::string where = a.where.str();
  auto refuse = [&](const std::string& why) { log("action", where, std::string(kind_name(a.kind)) + " skipped: " + why); };
  kueue_.kueue_objects_changed();  // an admin action may change anything Kueue's search reads
  switch (a.kind) {
    case TimelineAction::Kind::kAddNode: {
      if (!a.new_node) return refuse("no node given");
      const std::string name = a.new_node->metadata.name;
      if (cluster_.nodes.count(name)) return refuse("Node " + name + " already exists");
      joined_by_[name] = index;
      if (a.new_devices && a.detect_after) {
        // The Device Manager has not detected yet: its first pass found nothing, so it publishes
        // nothing — or, with --no-fast-failed, the empty result (operator-domain §10.3).
        cluster_.nodes[name] = model::node_before_first_detection(*a.new_node, *a.new_devices);
        for (const auto& m : model::detected_manufacturers(*a.new_devices)) {
          detection_standing_[name][m] = model::DetectionStanding::kAwaitingFirst;
          detection_pass(name, m, model::DetectionOutcome::kNothingFound);
        }
        log("action", "Node " + name, "add-node: the Node joins the cluster");
        log("action", "Node " + name,
            scenario_.device_manager.no_fast_failed
                ? "the device manager has not detected its accelerators yet; with --no-fast-failed it publishes the "
                  "empty result: a Devices record with no accelerator, no accelerator labels, no device-plugin pools; "
                  "it detects after " + a.detect_after->to_string()
                : "the device manager has not detected its accelerators yet: no Devices record, no accelerator "
                  "labels, no device-plugin pools; it detects after " + a.detect_after->to_string());
        schedule(now_ + *a.detect_after, {SimEvent::Kind::kRedetect, index, name, 0});
        reconcile_writing_sources();  // writing sources reconcile on a Node's creation
        resync({name});
        after_queue_change();
        return;
      }
      cluster_.nodes[name] = *a.new_node;
      if (a.new_devices) cluster_.devices[name] = *a.new_devices;
      log("action", "Node " + name, "add-node: the Node joins the cluster");
      if (a.new_devices && a.ledger_after) {
        // The device manager has created the Devices record but not yet written its ledger.
        cluster_.devices[name].status = {};
        log("action", "Devices " + name, "no allocation ledger yet; the device manager publishes it after " +
                                             a.ledger_after->to_string());
        schedule(now_ + *a.ledger_after, {SimEvent::Kind::kRedetect, index, name, 0});
      }
      reconcile_writing_sources();  // writing sources reconcile on a Node's creation
      resync({name});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kRemoveNode: {
      if (!cluster_.nodes.count(a.node)) return refuse("no Node " + a.node);
      // Its Pods go with it; the worker deletes the Devices record of a Node that is gone.
      std::vector<std::string> tracked_keys;
      book_.each([&](const WorkloadBook::Entry& entry) {
        if (entry.tracked) tracked_keys.push_back(entry.key);
      });
      std::sort(tracked_keys.begin(), tracked_keys.end());  // in key order, whatever the slots
      for (const auto& key : tracked_keys) {
        Tracked& t = *book_.tracked(key);
        std::vector<model::SlotTable<model::Pod>::Slot> kept;
        for (const auto slot : t.pods) {
          const auto p = workloads_.pods.slot_iterator(slot);
          if (p->second.node_name == a.node) {
            kueue_.note_non_tas_usage(p->second, -1);
            workloads_.pods.erase(p);
          } else {
            kept.push_back(slot);
          }
        }
        t.pods = std::move(kept);
      }
      // Pods outside Kueue on it go too; the kept usage is rebuilt without them.
      for (auto p = workloads_.pods.begin(); p != workloads_.pods.end();)
        if (p->second.node_name == a.node) {
          p = workloads_.pods.erase(p);
          kueue_.usage_dropped();
        } else {
          ++p;
        }
      node_pods_.drop_node(a.node);
      cluster_.nodes.erase(a.node);
      cluster_.devices.erase(a.node);
      forget_detection(a.node);
      gpu_usage_.on_node(now_, a.node, nullptr);
      log("action", "Node " + a.node, "remove-node: the Node leaves; its Pods and Devices record go with it");
      collect_node_features(a.node);
      reconcile_writing_sources();  // and on its deletion
      resync({});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kCordon:
    case TimelineAction::Kind::kUncordon: {
      auto node = cluster_.nodes.find(a.node);
      if (node == cluster_.nodes.end()) return refuse("no Node " + a.node);
      node->second.unschedulable = a.kind == TimelineAction::Kind::kCordon;
      log("action", "Node " + a.node, std::string(kind_name(a.kind)) + ": spec.unschedulable=" +
                                          (node->second.unschedulable ? "true" : "false"));
      resync({a.node});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kSetManaged: {
      auto node = cluster_.nodes.find(a.node);
      if (node == cluster_.nodes.end()) return refuse("no Node " + a.node);
      node->second.metadata.labels[std::string(model::keys::kManaged)] = a.value ? "true" : "false";
      log("action", "Node " + a.node, std::string("set-managed: ") + std::string(model::keys::kManaged) + "=" +
                                          (a.value ? "true" : "false"));
      resync({a.node});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kSetPartitioning: {
      const auto devices = cluster_.devices.find(a.node);
      if (devices == cluster_.devices.end()) return refuse("Node " + a.node + " has no Devices record");
      // The vendor CLI refuses a busy card; otherwise the hardware is in the new mode from now on,
      // while the Devices record and the registered pools stay as detected until re-detection.
      if (auto s = model::check_mode_flip(devices->second, a.cards, a.mode == "mig"); !s.ok())
        return refuse("the vendor tool refuses the mode change: " + s.error());
      pending_flips_[a.node] =
          model::merge_pending_flip(devices->second, std::move(pending_flips_[a.node]), a.cards, a.mode == "mig");
      if (pending_flips_[a.node].empty()) pending_flips_.erase(a.node);
      const SimTime after = a.redetect_after.value_or(scenario_.timings.redetect_after);
      log("action", "Node " + a.node,
          "set-partitioning: the admin switches cards to " + a.mode + "; the device manager re-detects after " +
              after.to_string());
      schedule(now_ + after, {SimEvent::Kind::kRedetect, index, a.node, 0});
      return;
    }
    case TimelineAction::Kind::kSetSetting: {
      if (auto s = model::set_setting(cluster_.settings, a.setting_name, a.setting_value); !s.ok())
        return refuse(s.error());
      log("action", "Setting " + a.setting_name, "set-setting: " + a.setting_name + "=" + a.setting_value);
      resync({});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kFinishWorkload: {
      // The job ends now: as on_finish at the end of its duration (quota and cards released, its
      // Pods deleted after its podDeletionDelay).
      const WorkloadBook::Entry* entry = book_.find(a.workload);
      const auto w = workloads_.workloads.find(a.workload);
      if (entry == nullptr || !entry->tracked || w == workloads_.workloads.end() || !w->second.admitted() ||
          w->second.finished())
        return refuse("Workload " + a.workload + " is not admitted");
      log("action", "Workload " + a.workload, "finish-workload: its job ends now");
      on_finish(entry->id.packed(), entry->tracked->epoch);
      return;
    }
    case TimelineAction::Kind::kAddNamespace: {
      if (cluster_.namespaces.count(a.object_name)) return refuse("Namespace " + a.object_name + " already exists");
      model::Namespace ns;
      ns.metadata.name = a.object_name;
      cluster_.namespaces[a.object_name] = std::move(ns);
      log("action", "Namespace " + a.object_name, "add-namespace: the Namespace is created");
      resync({});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kSetInactive: {
      auto it = cluster_.instance_types.find(a.instance_type);
      if (it == cluster_.instance_types.end()) return refuse("no InstanceType " + a.instance_type);
      if (it->second.spec.inactive != a.value) {
        it->second.spec.inactive = a.value;
        ++it->second.metadata.generation;
      }
      log("action", "InstanceType " + a.instance_type,
          std::string("set-inactive: spec.inactive=") + (a.value ? "true" : "false"));
      resync({});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kKubeletRestart: {
      auto node = cluster_.nodes.find(a.node);
      auto devices = cluster_.devices.find(a.node);
      if (node == cluster_.nodes.end() || devices == cluster_.devices.end())
        return refuse("no Node " + a.node + " with a Devices record");
      // A restarted kubelet reports every device-plugin resource at zero capacity until the plugin
      // registers again (allocatable follows the capacity).
      for (const auto& [key, q] : model::device_plugin_capacity(devices->second)) {
        auto& capacity = node->second.status.capacity;
        if (const auto c = capacity.find(key); c != capacity.end()) capacity.value_at(c) = model::Quantity::from_int(0);
      }
      log("action", "Node " + a.node,
          "kubelet-restart: the device plugins' pools read 0 until they register again in " + a.restart_for.to_string());
      schedule(now_ + a.restart_for, {SimEvent::Kind::kRedetect, index, a.node, 0});
      resync({a.node});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kTopologySnapshot:
    case TimelineAction::Kind::kTopologyReadFailure: {
      auto arm = topology_arms_.find(a.source);
      if (arm == topology_arms_.end()) return refuse("no writing TopologySource " + a.source);
      arm->second.read = a.read;
      log("action", "TopologySource " + a.source,
          a.read.snapshot ? "topology-snapshot: the arm now reads revision " + a.read.snapshot->revision + " (" +
                                std::to_string(a.read.snapshot->nodes.size()) + " nodes)"
                          : "topology-read-failure: the arm's read now fails: " + a.read.failure_reason + ": " +
                                a.read.failure_message);
      auto writes = reconcile_topology_source(a.source);
      if (!fatal_.empty() || writes.empty()) return;
      after_chain_writes(writes, {}, {});
      resync({});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kDetectionPass: {
      if (!cluster_.nodes.count(a.node)) return refuse("no Node " + a.node);
      const std::vector<std::string> manufacturers =
          a.manufacturer.empty() ? manufacturers_on(a.node) : std::vector<std::string>{a.manufacturer};
      if (manufacturers.empty()) return refuse("Node " + a.node + " has no accelerators (no Device Manager runs there)");
      bool changed = false;
      for (const auto& m : manufacturers) {
        const model::DetectionDecision d = detection_pass(a.node, m, a.outcome);
        log("action", "Node " + a.node,
            "detection-pass " + std::string(model::to_string(a.outcome)) + ": " + d.reason);
        changed = changed || (d.effect != model::DetectionEffect::kKeep && d.effect != model::DetectionEffect::kHoldBack);
      }
      if (!changed) return;
      resync({a.node});
      after_queue_change();
      return;
    }
    case TimelineAction::Kind::kDelete: {
      model::Plan plan;
      model::Write w;
      w.verb = model::WriteVerb::kDelete;
      w.controller = "admin";
      w.reason = "timeline delete";
      if (a.kind_name == "TopologySource") {
        if (!cluster_.topology_sources.count(a.object_name)) return refuse("no TopologySource " + a.object_name);
        log("action", "TopologySource " + a.object_name, "delete: the admin deletes it");
        delete_topology_source(a.object_name);
        resync({});
        after_queue_change();
        return;
      }
      if (a.kind_name == "InstanceType") {
        auto it = cluster_.instance_types.find(a.object_name);
        if (it == cluster_.instance_types.end()) return refuse("no InstanceType " + a.object_name);
        w.object = it->second;
      } else {
        auto cq = cluster_.cluster_queues.find(a.object_name);
        if (cq == cluster_.cluster_queues.end()) return refuse("no ClusterQueue " + a.object_name);
        w.object = cq->second;
      }
      plan.writes.push_back(std::move(w));
      auto applied = model::apply_plan(cluster_, plan, rfc3339(now_));
      if (!applied.ok()) return refuse(applied.error());
      cluster_ = std::move(applied.value());
      log("action", a.kind_name + " " + a.object_name, "delete: the admin deletes it");
      resync({});
      after_queue_change();
      return;
    }
  }
}

void Simulation::on_redetect(int64_t index) {
  const TimelineAction& a = scenario_.timeline[static_cast<size_t>(index)];
  kueue_.kueue_objects_changed();
  if (a.kind == TimelineAction::Kind::kAddNode && a.detect_after) {
    // The first detection: a pass that found the cards publishes the Devices record, the
    // NodeFeature's labels and the pools (unless a detection-pass already did).
    const auto joined = joined_by_.find(a.node);
    if (!cluster_.nodes.count(a.node) || !a.new_devices || !a.new_node || joined == joined_by_.end() ||
        joined->second != index) {
      log("action", "Node " + a.node, "first detection skipped: the Node is gone");
      return;
    }
    bool published = false;
    for (const auto& m : model::detected_manufacturers(*a.new_devices)) {
      const model::DetectionDecision d = detection_pass(a.node, m, model::DetectionOutcome::kFound);
      if (d.effect == model::DetectionEffect::kPublish) published = true;
      else log("action", "Node " + a.node, "first detection: " + d.reason);
    }
    if (!published) return;
    log("action", "Node " + a.node, "the device manager detected its accelerators and published them");
    resync({a.node});
    after_queue_change();
    return;
  }
  auto devices = cluster_.devices.find(a.node);
  auto node = cluster_.nodes.find(a.node);
  if (devices == cluster_.devices.end() || node == cluster_.nodes.end()) {
    log("action", "Node " + a.node, "re-detection skipped: the Node or its Devices record is gone");
    return;
  }
  if (a.kind == TimelineAction::Kind::kAddNode) {
    // add-node with ledgerAfter: the device manager publishes the free ledger it detected.
    if (a.new_devices) devices->second.status = a.new_devices->status;
    log("action", "Devices " + a.node, "the device manager published the allocation ledger");
    resync({a.node});
    after_queue_change();
    return;
  }
  if (a.kind == TimelineAction::Kind::kKubeletRestart) {
    // The device plugins register again: their pools as the cards now back them.
    for (const auto& [k, v] : model::device_plugin_capacity(devices->second)) node->second.status.capacity[k] = v;
    log("action", "Node " + a.node, "the device plugins registered again with the restarted kubelet");
    resync({a.node});
    after_queue_change();
    return;
  }
  // The restarted device manager detects every card as the hardware now is: each flip still
  // pending on the node (a later restart finds nothing left to change).
  const auto pending = pending_flips_.find(a.node);
  if (pending != pending_flips_.end()) {
    for (const auto& flip : pending->second) {
      if (auto s = model::set_card_partitioning(devices->second, flip.cards, flip.mig); !s.ok()) {
        // Allocations on a flipped card fail in the window, so its ledger row stays free.
        log("action", "Node " + a.node, "re-detection refused: " + s.error());
        return;
      }
    }
    pending_flips_.erase(pending);
  }
  // The device plugin registers its pools again: replace every pool token of the Node's
  // manufacturers with what the cards now back.
  const model::ResourceList tokens = model::device_plugin_capacity(devices->second);
  for (const auto& group : devices->second.spec.groups) {
    const auto names = model::resource_names_for(group.manufacturer);
    if (!names) continue;
    for (const std::string* key : {&names->exclusive, &names->shared, &names->sliced, &names->partitioned}) {
      if (key->empty()) continue;
      if (tokens.count(*key) == 0) node->second.status.capacity.erase(*key);
    }
  }
  for (const auto& [k, v] : tokens) node->second.status.capacity[k] = v;
  log("action", "Node " + a.node, "the device manager re-detected the cards as " + a.mode);
  resync({a.node});
  after_queue_change();
}

}  // namespace chaintwin::sim
