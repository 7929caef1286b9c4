// timeline: dated changes to the cluster, checked against the nodes that exist at their time.
#include <algorithm>
#include <set>

#include "model/device_manager/detection_pass.h"
#include "model/catalog/mig_catalog.h"
#include "model/api/settings.h"
#include "model/api/k8s_validation.h"
#include "sim/scenario/scenario_fields.h"
#include "sim/scenario/scenario_sections.h"

namespace chaintwin::sim::scenario_detail {
namespace {

using Kind = TimelineAction::Kind;

struct ActionInfo {
  const char* name;
  Kind kind;
  std::vector<std::string> fields;  // besides at and action
};

const std::vector<ActionInfo>& actions() {
  static const std::vector<ActionInfo> a{
      {"add-node", Kind::kAddNode, {"node", "ledgerAfter", "detectAfter"}},
      {"remove-node", Kind::kRemoveNode, {"node"}},
      {"cordon", Kind::kCordon, {"node"}},
      {"uncordon", Kind::kUncordon, {"node"}},
      {"set-managed", Kind::kSetManaged, {"node", "value"}},
      {"set-partitioning", Kind::kSetPartitioning, {"node", "cards", "mode", "redetectAfter"}},
      {"set-setting", Kind::kSetSetting, {"name", "value"}},
      {"set-inactive", Kind::kSetInactive, {"instanceType", "value"}},
      {"delete", Kind::kDelete, {"kind", "name"}},
      {"kubelet-restart", Kind::kKubeletRestart, {"node", "for"}},
      {"detection-pass", Kind::kDetectionPass, {"node", "outcome", "manufacturer"}},
      {"topology-snapshot", Kind::kTopologySnapshot, {"source", "revision", "nodes", "apiVersion"}},
      {"topology-read-failure", Kind::kTopologyReadFailure, {"source", "reason", "message"}},
      {"finish-workload", Kind::kFinishWorkload, {"workload"}},
      {"add-namespace", Kind::kAddNamespace, {"name"}},
  };
  return a;
}

std::string setting_value_text(const Val& v) {
  if (v.json->is_boolean()) return v.json->get<bool>() ? "true" : "false";
  const std::string s = as_string(v, "true or false");
  if (s != "true" && s != "false") fail(v, "'" + s + "' is not a setting value (expected true or false)");
  return s;
}

TimelineAction read_action(const Val& v, std::vector<std::string>& action_names) {
  expect_keys(v, scenario_fields_at("TimelineAction"), "a timeline action");
  TimelineAction a;
  a.where = v.ref();
  a.at = as_duration(req(v, "at", "when, e.g. 2h"));
  const Val action = req(v, "action", "what happens");
  const std::string name = as_choice(action, action_names);
  const ActionInfo& info = *std::find_if(actions().begin(), actions().end(),
                                         [&](const ActionInfo& i) { return name == i.name; });
  a.kind = info.kind;
  for (const auto& item : v.json->items()) {
    const std::string& k = item.key();
    if (k != "at" && k != "action" && std::find(info.fields.begin(), info.fields.end(), k) == info.fields.end())
      fail(v.at(k), "not a field of action " + name + " (expected: at, action, " + join(info.fields) + ")");
  }
  switch (a.kind) {
    case Kind::kAddNode: {
      auto nodes = read_node_spec(req(v, "node", "the new node's spec {name, cpu, memory, accelerators, ...}"), false);
      a.node = nodes[0].node.metadata.name;
      a.new_node = std::move(nodes[0].node);
      a.new_devices = std::move(nodes[0].devices);
      if (const auto l = opt(v, "ledgerAfter")) {
        if (!a.new_devices) fail(*l, "node '" + a.node + "' has no accelerators (no Devices ledger to publish)");
        a.ledger_after = as_duration(*l);
      }
      if (const auto d = opt(v, "detectAfter")) {
        if (!a.new_devices) fail(*d, "node '" + a.node + "' has no accelerators (nothing for the device manager to detect)");
        if (a.ledger_after) fail(*d, "give either detectAfter or ledgerAfter, not both");
        a.detect_after = as_duration(*d);
        if (a.detect_after->us() <= 0) fail(*d, "must be greater than 0");
      }
      break;
    }
    case Kind::kRemoveNode:
    case Kind::kCordon:
    case Kind::kUncordon:
      a.node = as_string(req(v, "node", "the node's name"));
      break;
    case Kind::kSetManaged:
      a.node = as_string(req(v, "node", "the node's name"));
      a.value = as_bool(req(v, "value", "true or false"));
      break;
    case Kind::kSetPartitioning: {
      a.node = as_string(req(v, "node", "the node's name"));
      const Val cards = req(v, "cards", "the card indexes to flip");
      for (const auto& c : as_list(cards, "card indexes")) a.cards.push_back(static_cast<int32_t>(as_int(c, 0, 4095)));
      if (a.cards.empty()) fail(cards, "expected at least one card index");
      a.mode = as_choice(req(v, "mode", "mig or logical"), {"mig", "logical"});
      if (const auto r = opt(v, "redetectAfter")) a.redetect_after = as_duration(*r);
      break;
    }
    case Kind::kSetSetting: {
      const Val n = req(v, "name", "the setting's name");
      a.setting_name = as_string(n);
      a.setting_value = a.setting_name == "model-artifact-delivery-mode"
                            ? as_choice(req(v, "value", "Engine or Node"), {"Engine", "Node"})
                            : setting_value_text(req(v, "value", "true or false"));
      model::Settings probe;
      if (const auto ok = model::set_setting(probe, a.setting_name, a.setting_value); !ok) fail(n, ok.error());
      break;
    }
    case Kind::kSetInactive:
      a.instance_type = as_string(req(v, "instanceType", "the InstanceType's name"));
      a.value = as_bool(req(v, "value", "true or false"));
      break;
    case Kind::kKubeletRestart: {
      a.node = as_string(req(v, "node", "the node's name"));
      const Val f = req(v, "for", "how long the device plugins stay unregistered, e.g. 2m");
      a.restart_for = as_duration(f);
      if (a.restart_for <= SimTime{}) fail(f, "expected a positive duration");
      break;
    }
    case Kind::kDetectionPass: {
      a.node = as_string(req(v, "node", "the node's name"));
      const Val o = req(v, "outcome", "Failed, NothingFound or Found");
      a.outcome = *model::parse_detection_outcome(as_choice(o, {"Failed", "NothingFound", "Found"}));
      if (const auto m = opt(v, "manufacturer")) a.manufacturer = as_string(*m, "a manufacturer such as nvidia");
      break;
    }
    case Kind::kFinishWorkload: {
      const Val w = req(v, "workload", "the Workload as <namespace>/<name>");
      a.workload = as_string(w);
      const size_t slash = a.workload.find('/');
      if (slash == std::string::npos || slash == 0 || slash + 1 == a.workload.size() ||
          a.workload.find('/', slash + 1) != std::string::npos)
        fail(w, "'" + a.workload + "' is not <namespace>/<name>");
      break;
    }
    case Kind::kAddNamespace: {
      const Val n = req(v, "name", "the Namespace's name");
      a.object_name = as_string(n);
      if (!model::is_dns1123_label(a.object_name)) fail(n, "'" + a.object_name + "' is not a DNS-1123 label (a Namespace name)");
      break;
    }
    case Kind::kDelete:
      a.kind_name = as_choice(req(v, "kind", "InstanceType, ClusterQueue or TopologySource"),
                              {"InstanceType", "ClusterQueue", "TopologySource"});
      a.object_name = as_string(req(v, "name", "the object's name"));
      break;
    case Kind::kTopologySnapshot: {
      a.source = as_string(req(v, "source", "the writing TopologySource's name"));
      model::TopologySnapshot snap;
      if (const auto api = opt(v, "apiVersion")) snap.api_version = as_string(*api);
      snap.revision = as_string(req(v, "revision", "the snapshot's revision, e.g. inventory-42"));
      const Val nodes = req(v, "nodes", "{node: {level key: value}}");
      if (!nodes.is_object()) fail(nodes, "expected a mapping {node: {level key: value}}");
      for (const auto& item : nodes.json->items()) {
        const Val labels = nodes.at(item.key());
        if (!labels.is_object()) fail(labels, "expected a mapping {level key: value} (quote numbers)");
        snap.nodes[item.key()] = as_string_map(labels);
      }
      a.read.snapshot = std::move(snap);
      break;
    }
    case Kind::kTopologyReadFailure:
      a.source = as_string(req(v, "source", "the writing TopologySource's name"));
      if (const auto r = opt(v, "reason"))
        a.read.failure_reason = as_choice(*r, {std::string(model::kConfigMapReadFailed),
                                               std::string(model::kSnapshotKeyMissing),
                                               std::string(model::kSnapshotInvalid),
                                               std::string(model::kWebhookReadFailed)});
      if (const auto m = opt(v, "message")) {
        a.read.failure_message = as_string(*m);
        if (a.read.failure_message.empty()) fail(*m, "expected the error the operator reports (not empty)");
      }
      break;
  }
  return a;
}

// A topology action names a writing source that exists at its time; a read failure's reason must
// be one its arm can give, and its message defaults to the error the operator would report.
void check_topology_action(TimelineAction& a, const Val& v, const Scenario& scenario,
                           const std::set<std::string>& deleted) {
  const auto it = scenario.cluster.topology_sources.find(a.source);
  if (it == scenario.cluster.topology_sources.end() || deleted.count(a.source)) {
    std::vector<std::string> known;
    for (const auto& [name, ts] : scenario.cluster.topology_sources)
      if (ts.writes() && !deleted.count(name)) known.push_back(name);
    fail(v.at("source"), "no TopologySource '" + a.source + "' exists at " + a.at.to_string() +
                             (known.empty() ? " (the cluster has no configMap or webhook source)"
                                            : " (writing sources: " + join(known) + ")"));
  }
  const model::TopologySource& ts = it->second;
  if (!ts.writes())
    fail(v.at("source"), "TopologySource '" + a.source + "' has a " + ts.arm +
                             " arm: only a configMap or webhook source reads a snapshot");
  if (a.kind != Kind::kTopologyReadFailure) return;
  model::TopologyRead& r = a.read;
  if (ts.webhook) {
    if (r.failure_reason.empty()) r.failure_reason = std::string(model::kWebhookReadFailed);
    if (r.failure_reason != model::kWebhookReadFailed)
      fail(v.at("reason"), "a webhook source reports every read failure as WebhookReadFailed");
    if (r.failure_message.empty()) r.failure_message = "topology webhook returned HTTP 503";
    return;
  }
  if (r.failure_reason.empty()) r.failure_reason = std::string(model::kConfigMapReadFailed);
  if (r.failure_reason == model::kWebhookReadFailed)
    fail(v.at("reason"), "a configMap source reports ConfigMapReadFailed, SnapshotKeyMissing or SnapshotInvalid");
  if (!r.failure_message.empty()) return;
  const auto& cm = *ts.config_map;
  if (r.failure_reason == model::kConfigMapReadFailed)
    r.failure_message = "configmaps \"" + cm.config_map_ref.name + "\" not found";
  else if (r.failure_reason == model::kSnapshotKeyMissing)
    r.failure_message = "ConfigMap key \"" + cm.key + "\" is missing";
  else
    r.failure_message = "decode topology snapshot: invalid YAML or JSON";
}

}  // namespace

std::vector<TimelineAction> read_timeline(const Val& list, const Scenario& scenario) {
  std::vector<std::string> names;
  for (const auto& i : actions()) names.emplace_back(i.name);
  std::vector<TimelineAction> out;
  std::vector<Val> vals;
  for (const auto& v : as_list(list, "timeline actions")) {
    out.push_back(read_action(v, names));
    vals.push_back(v);
    if (out.back().at > scenario.horizon)
      fail(v.at("at"), out.back().at.to_string() + " is after the horizon (" + scenario.horizon.to_string() + ")");
  }
  std::vector<size_t> order(out.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out[a].at < out[b].at; });

  // Walk the actions in time order over the node names, Devices and TopologySources that exist then.
  std::set<std::string> deleted_sources;
  std::map<std::string, const model::Devices*> nodes;
  for (const auto& [name, node] : scenario.cluster.nodes) nodes[name] = scenario.cluster.devices_of(name);
  std::vector<TimelineAction> sorted;
  for (const size_t i : order) {
    const TimelineAction& a = out[i];
    const Val& v = vals[i];
    if (a.kind == Kind::kAddNode) {
      if (nodes.count(a.node)) fail(v.at("node"), "node name '" + a.node + "' is used twice (it exists at " + a.at.to_string() + ")");
      nodes[a.node] = a.new_devices ? &*a.new_devices : nullptr;
    } else if (!a.node.empty()) {
      if (!nodes.count(a.node)) fail(v.at("node"), "no node '" + a.node + "' exists at " + a.at.to_string());
      if (a.kind == Kind::kRemoveNode) nodes.erase(a.node);
    }
    if (a.kind == Kind::kKubeletRestart && nodes[a.node] == nullptr)
      fail(v.at("node"), "node '" + a.node + "' has no accelerators (no device plugin to lose)");
    if (a.kind == Kind::kDetectionPass) {
      const model::Devices* d = nodes[a.node];
      const auto made = d == nullptr ? std::vector<std::string>{} : model::detected_manufacturers(*d);
      if (made.empty()) fail(v.at("node"), "node '" + a.node + "' has no accelerators (no Device Manager runs there)");
      if (!a.manufacturer.empty() && std::find(made.begin(), made.end(), a.manufacturer) == made.end())
        fail(v.at("manufacturer"), "node '" + a.node + "' has no " + a.manufacturer + " accelerators (it has: " +
                                       join(made) + ")");
    }
    if (a.kind == Kind::kSetPartitioning) {
      const model::Devices* d = nodes[a.node];
      if (d == nullptr) fail(v.at("node"), "node '" + a.node + "' has no accelerators (no Devices record)");
      for (const auto c : a.cards) {
        bool found = false;
        for (const auto& g : d->spec.groups)
          for (const auto& acc : g.accelerators) found = found || acc.index == static_cast<uint32_t>(c);
        if (!found) fail(v.at("cards"), "node '" + a.node + "' has no card " + std::to_string(c));
      }
      if (a.mode == "mig") {
        for (const auto& g : d->spec.groups)
          for (const auto& acc : g.accelerators)
            if (std::find(a.cards.begin(), a.cards.end(), static_cast<int32_t>(acc.index)) != a.cards.end() &&
                !model::find_catalog_model(g.name))
              fail(v.at("mode"), "card " + std::to_string(acc.index) + " ('" + g.name + "') has no MIG mode");
      }
    }
    if (a.kind == Kind::kDelete && a.kind_name == "TopologySource") {
      if (!scenario.cluster.topology_sources.count(a.object_name) || deleted_sources.count(a.object_name))
        fail(v.at("name"), "no TopologySource '" + a.object_name + "' exists at " + a.at.to_string());
      deleted_sources.insert(a.object_name);
    }
    if (a.kind == Kind::kTopologySnapshot || a.kind == Kind::kTopologyReadFailure)
      check_topology_action(sorted.emplace_back(a), v, scenario, deleted_sources);
    else
      sorted.push_back(a);
  }
  return sorted;
}

}  // namespace chaintwin::sim::scenario_detail
