// candidate_changes(): one generator per kind of change, each reading the explanation.
#include "sim/explain/candidate_changes.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/admission/device_allocator.h"
#include "model/api/settings.h"
#include "model/stage4/node_queue_entrance_reconciler.h"
#include "sim/explain/explain_report.h"

namespace chaintwin::sim {

namespace {

constexpr int64_t kCostSetting = 1;
constexpr int64_t kCostMigLayout = 2;
constexpr int64_t kCostReleaseBase = 10;  // + Workloads released
constexpr int64_t kCostNode = 1000;
constexpr size_t kNodesForRelease = 2;    // Nodes whose occupants are offered for release
constexpr size_t kMostReleasedOnNode = 4;  // the largest prefix of a Node's occupants tried
constexpr size_t kTemplates = 3;           // node templates tried

std::string list_text(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

TimelineAction finish(const std::string& workload) {
  TimelineAction a;
  a.kind = TimelineAction::Kind::kFinishWorkload;
  a.workload = workload;
  return a;
}

Change release(const std::vector<std::string>& workloads, const std::string& why) {
  Change c;
  c.kind = "release";
  c.summary = "release " + list_text(workloads) + " (" + why + ")";
  for (const auto& w : workloads) c.actions.push_back(finish(w));
  c.cost = kCostReleaseBase + static_cast<int64_t>(workloads.size());
  return c;
}

// Settings away from the operator's default, back to it.
void setting_changes(const model::ClusterState& cluster, std::vector<Change>& out) {
  const model::Settings defaults;
  for (const char* const* n = model::setting_names(); *n != nullptr; ++n) {
    const auto now = model::get_setting(cluster.settings, *n);
    const auto def = model::get_setting(defaults, *n);
    if (!now || !def || *now == *def) continue;
    Change c;
    c.kind = "setting";
    c.summary = std::string("set ") + *n + " back to " + (*def ? "true" : "false") + " (the operator's default)";
    TimelineAction a;
    a.kind = TimelineAction::Kind::kSetSetting;
    a.setting_name = *n;
    a.setting_value = *def ? "true" : "false";
    c.actions.push_back(std::move(a));
    c.cost = kCostSetting;
    out.push_back(std::move(c));
  }
}

// The fewest admitted holders whose release frees what the Workload is short of.
void quota_release(const model::Explanation& ex, std::vector<Change>& out) {
  std::vector<const model::QuotaLine*> short_lines;
  for (const auto& line : ex.quota)
    if (line.short_of() && line.need <= line.nominal) short_lines.push_back(&line);
  if (short_lines.empty()) return;
  std::map<std::pair<std::string, std::string>, int64_t> missing;
  for (const auto* l : short_lines) missing[{l->flavor, l->resource}] = l->need - l->free();
  // Each line is a flavor Kueue would try: freeing any one of them is enough. Per line, the
  // holders by what they hold there, largest first (then key), until the line is covered.
  std::optional<std::vector<std::string>> best;
  std::string best_why;
  for (const auto& [fr, gap] : missing) {
    std::vector<std::pair<int64_t, std::string>> by_amount;
    for (const auto& h : ex.holders) {
      if (!h.admitted) continue;
      for (const auto& held : h.held)
        if (held.flavor == fr.first && held.resource == fr.second && held.amount > 0)
          by_amount.emplace_back(-held.amount, h.workload);
    }
    std::sort(by_amount.begin(), by_amount.end());
    std::vector<std::string> chosen;
    int64_t freed = 0;
    for (const auto& [neg, key] : by_amount) {
      if (freed >= gap) break;
      chosen.push_back(key);
      freed -= neg;
    }
    if (freed < gap) continue;
    if (!best || chosen.size() < best->size()) {
      best = chosen;
      best_why = (chosen.size() == 1 ? "it holds " : "they hold ") + plain_amount(fr.second, freed) + " of " + fr.second +
                 " in flavor " + fr.first + "; " + plain_amount(fr.second, gap) + " more is needed";
    }
  }
  if (best) out.push_back(release(*best, best_why));
}

// The occupants of the Nodes with the fewest of them, a few at a time (most charged first).
void node_release(const model::Explanation& ex, std::vector<Change>& out) {
  std::vector<const model::NodeStanding*> nodes;
  for (const auto& n : ex.nodes)
    if (n.schedulable && !n.workloads.empty()) nodes.push_back(&n);
  std::stable_sort(nodes.begin(), nodes.end(), [](const auto* a, const auto* b) { return a->workloads.size() < b->workloads.size(); });
  if (nodes.size() > kNodesForRelease) nodes.resize(kNodesForRelease);
  for (const auto* n : nodes) {
    std::map<std::string, int64_t> charged;  // Workload → units on the Node's cards
    for (const auto& w : n->workloads) charged[w] = 0;
    for (const auto& card : n->cards)
      for (const auto& ch : card.charges) charged[ch.workload] += std::max<int64_t>(ch.units, 1);
    std::vector<std::pair<int64_t, std::string>> order;
    for (const auto& [w, units] : charged)
      if (w != ex.workload && w.rfind("Pod ", 0) != 0) order.emplace_back(-units, w);
    std::sort(order.begin(), order.end());
    std::vector<std::string> chosen;
    for (size_t k = 0; k < order.size() && k < kMostReleasedOnNode; ++k) {
      chosen.push_back(order[k].second);
      out.push_back(release(chosen, "on node " + n->node));
    }
  }
}

// An idle card of a Node the Workload could use, flipped to the mode its request needs.
void mig_layout(const model::Explanation& ex, bool wants_partition, std::vector<Change>& out) {
  for (const auto& n : ex.nodes) {
    if (!n.schedulable) continue;
    for (const auto& card : n.cards) {
      if (!card.charges.empty() || card.partitioned == wants_partition) continue;
      if (wants_partition && card.accelerator_key.rfind("nvidia-", 0) != 0) continue;
      Change c;
      c.kind = "mig-layout";
      c.summary = "flip idle card " + std::to_string(card.index) + " of " + n.node + " to " +
                  (wants_partition ? "MIG" : "logical") + " mode";
      TimelineAction a;
      a.kind = TimelineAction::Kind::kSetPartitioning;
      a.node = n.node;
      a.cards = {static_cast<int32_t>(card.index)};
      a.mode = wants_partition ? "mig" : "logical";
      c.actions.push_back(std::move(a));
      c.cost = kCostMigLayout;
      out.push_back(std::move(c));
      return;  // one card is the smallest such change
    }
  }
}

// The hardware a Node was specified with (the scenario's cluster, or the add-node that brought it).
bool node_spec(const Scenario& s, const std::string& name, model::Node& node, std::optional<model::Devices>& devices) {
  if (const auto it = s.cluster.nodes.find(name); it != s.cluster.nodes.end()) {
    node = it->second;
    if (const auto d = s.cluster.devices.find(name); d != s.cluster.devices.end()) devices = d->second;
    return true;
  }
  for (const auto& a : s.timeline)
    if (a.kind == TimelineAction::Kind::kAddNode && a.new_node && a.new_node->metadata.name == name) {
      node = *a.new_node;
      devices = a.new_devices;
      return true;
    }
  return false;
}

void add_node(const Scenario& s, const model::ClusterState& cluster, const model::Explanation& ex, std::vector<Change>& out) {
  std::set<std::string> flavors_done;
  for (const auto& n : ex.nodes) {
    if (flavors_done.size() >= kTemplates) break;
    if (!flavors_done.insert(n.flavor).second) continue;
    model::Node node;
    std::optional<model::Devices> devices;
    if (!node_spec(s, n.node, node, devices)) continue;
    std::string name;
    for (int i = 1;; ++i) {
      name = n.node + "-extra-" + std::to_string(i);
      if (!cluster.nodes.count(name) && !s.cluster.nodes.count(name)) break;
    }
    node.metadata.name = name;
    node.metadata.uid.clear();
    node.metadata.labels.mut()[std::string(model::kHostnameLabel)] = name;
    if (devices) {
      // The template's ledger as given charges the Pods outside Kueue bound to it: a new Node
      // joins with none of them.
      for (const auto& pod : s.pods_outside_kueue)
        if (pod.node_name == n.node) model::release_pod(*devices, pod, true);
      devices->metadata.name = name;
      devices->metadata.uid.clear();
      for (auto& g : devices->spec.groups)
        for (auto& acc : g.accelerators) acc.id += "-" + name;
      for (auto& g : devices->status.groups)
        for (auto& acc : g.accelerators) acc.id += "-" + name;
    }
    Change c;
    c.kind = "add-node";
    c.summary = "add one more node like " + n.node + " (flavor " + n.flavor + ") named " + name;
    TimelineAction a;
    a.kind = TimelineAction::Kind::kAddNode;
    a.node = name;
    a.new_node = std::move(node);
    a.new_devices = std::move(devices);
    c.actions.push_back(std::move(a));
    c.cost = kCostNode;
    out.push_back(std::move(c));
  }
}

bool asks_partition(const model::Explanation& ex) {
  for (const auto& line : ex.quota)
    if (line.resource.find(".partitioned") != std::string::npos) return true;
  return false;
}

}  // namespace

std::vector<Change> candidate_changes(const Scenario& scenario, const model::ClusterState& cluster,
                                      const model::Explanation& ex) {
  std::vector<Change> out;
  if (ex.place.standing != model::WorkloadStanding::kWaiting) return out;
  if (ex.place.gate == model::Gate::kQueue) {
    // The operator gives every Namespace it serves a LocalQueue per ClusterQueue.
    const std::string ns = ex.workload.substr(0, ex.workload.find('/'));
    if (model::is_reserved_namespace(ns)) {
      // The operator gives a reserved Namespace no LocalQueue: only another Namespace does.
      for (const auto& [name, object] : cluster.namespaces) {
        if (model::is_reserved_namespace(name) || object.metadata.deletion_timestamp) continue;
        Change c;
        c.kind = "namespace";
        c.summary = "submit it in Namespace " + name + " instead: " + ns +
                    " is reserved, and the operator gives it no LocalQueue";
        c.move_to_namespace = name;
        c.cost = kCostSetting;
        out.push_back(std::move(c));
        break;
      }
    } else if (!cluster.namespaces.count(ns)) {
      Change c;
      c.kind = "namespace";
      c.summary = "create Namespace " + ns + " (the operator then gives it its LocalQueues)";
      TimelineAction a;
      a.kind = TimelineAction::Kind::kAddNamespace;
      a.object_name = ns;
      c.actions.push_back(std::move(a));
      c.cost = kCostSetting;
      out.push_back(std::move(c));
    }
    setting_changes(cluster, out);
    return out;
  }
  setting_changes(cluster, out);
  mig_layout(ex, asks_partition(ex), out);
  quota_release(ex, out);
  node_release(ex, out);
  add_node(scenario, cluster, ex, out);
  std::stable_sort(out.begin(), out.end(), [](const Change& a, const Change& b) { return a.cost < b.cost; });
  // The same actions reached two ways (the largest quota holder is often the Node's too): once.
  std::vector<Change> unique;
  std::set<std::string> seen;
  for (auto& c : out)
    if (seen.insert(change_as_timeline(c, SimTime())).second) unique.push_back(std::move(c));
  return unique;
}

std::string change_as_timeline(const Change& change, SimTime at) {
  std::string out;
  if (!change.move_to_namespace.empty()) out += "  # not a timeline entry: the workload class's namespace: " + change.move_to_namespace + "\n";
  const std::string when = at.to_string();
  for (const auto& a : change.actions) {
    out += "  - {at: " + when + ", ";
    switch (a.kind) {
      case TimelineAction::Kind::kSetSetting:
        out += "action: set-setting, name: " + a.setting_name + ", value: " + a.setting_value + "}";
        break;
      case TimelineAction::Kind::kAddNamespace: out += "action: add-namespace, name: " + a.object_name + "}"; break;
      case TimelineAction::Kind::kFinishWorkload: out += "action: finish-workload, workload: " + a.workload + "}"; break;
      case TimelineAction::Kind::kSetPartitioning:
        out += "action: set-partitioning, node: " + a.node + ", cards: [" + std::to_string(a.cards.front()) +
               "], mode: " + a.mode + "}";
        break;
      case TimelineAction::Kind::kAddNode:
        // The name is "<template>-extra-<n>" (add_node below).
        out += "action: add-node, node: {name: " + a.node + ", …}}  # the hardware of " +
               a.node.substr(0, a.node.rfind("-extra-")) + " as the scenario gives it";
        break;
      default: out += "action: ?}"; break;
    }
    out += "\n";
  }
  return out;
}

}  // namespace chaintwin::sim
