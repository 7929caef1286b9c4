// The TopologySource controller: conditions, status and the NodeFeatures of one source.
#include "model/stage4/topology_source_reconciler.h"

#include <algorithm>

#include "model/fnv.h"
#include "model/catalog/label_keys.h"
#include "model/api/rfc3339.h"
#include "model/stage4/node_topology_reconciler.h"
#include "model/stage4/reconcile_error.h"
#include "model/stage4/topology_snapshot_validation.h"

namespace chaintwin::model {
namespace {

const std::string kController(kTopologySourceController);
constexpr std::string_view kOwnerApiVersion = "worker.gpustack.ai/v1alpha1";  // the operator's scheme GVK

std::string kind_of_arm(const TopologySource& s) {
  if (s.arm == "nodeLabels") return "NodeLabels";
  if (s.arm == "configMap") return "ConfigMap";
  if (s.arm == "webhook") return "Webhook";
  return "";
}

// "ConfigMap snapshot" / "webhook snapshot", as the operator's messages call them.
std::string description(const TopologySource& s) { return s.arm == "webhook" ? "webhook snapshot" : "ConfigMap snapshot"; }

void set(std::vector<Condition>& conditions, const char* type, const char* status, std::string reason,
         std::string message, int64_t generation) {
  set_condition(conditions, {type, status, std::move(reason), std::move(message), generation});
}

struct Builder {
  const TopologySource& source;
  TopologySourceDecision d;

  void conditions(const char* ready, std::string ready_reason, std::string ready_message, const char* valid,
                  std::string valid_reason, std::string valid_message, const char* conflict,
                  std::string conflict_reason, std::string conflict_message) {
    const int64_t g = source.metadata.generation;
    set(d.conditions, "Ready", ready, std::move(ready_reason), std::move(ready_message), g);
    set(d.conditions, "Valid", valid, std::move(valid_reason), std::move(valid_message), g);
    set(d.conditions, "OwnershipConflict", conflict, std::move(conflict_reason), std::move(conflict_message), g);
  }

  // markTopologySourceSnapshotInvalid: keep the last valid NodeFeatures while they are fresh.
  void invalid(const std::string& reason, const std::string& message, int64_t now_seconds) {
    const std::string desc = description(source);
    const auto last = parse_rfc3339(source.status.last_successful_refresh_time);
    if (last) {
      const int64_t age_us = (now_seconds - *last) * 1'000'000;
      const int64_t max_us = source.max_staleness_us();
      if (age_us < max_us) {
        conditions("False", "Stale", "retaining the last valid " + desc, "False", reason, message, "False",
                   "NoConflict", "no contested labels were written");
        d.requeue_after_us = max_us - age_us;
        d.why = "keeps the last valid " + desc + " (revision " + source.status.last_successful_revision + ") for " +
                std::to_string((max_us - age_us) / 1'000'000) + "s more: " + reason + ": " + message;
        return;
      }
      d.node_features = std::map<std::string, StringMap>{};
      conditions("False", "Expired", "the last valid " + desc + " expired and owned NodeFeatures were removed",
                 "False", reason, message, "False", "NoConflict", "no contested labels were written");
      d.why = "the last valid " + desc + " expired: " + reason + ": " + message;
      return;
    }
    conditions("False", reason, desc + " is unavailable", "False", reason, message, "False", "NoConflict",
               "no contested labels were written");
    d.why = desc + " is unavailable: " + reason + ": " + message;
  }
};

}  // namespace

std::string topology_source_node_feature_name(std::string_view source_uid, std::string_view node) {
  return "gpustack-topology-" + sum_by_fnv64a({source_uid, std::string_view("\0", 1), node});
}

OwnershipConflicts find_ownership_conflicts(const TopologySource& source, const std::set<std::string>& selected,
                                            const NodeTable& nodes,
                                            const std::map<std::string, TopologySource>& sources) {
  OwnershipConflicts out;
  std::set<std::string> conflicted;
  for (const auto& [name, other] : sources) {
    const bool same = (!source.metadata.uid.empty() && other.metadata.uid == source.metadata.uid) ||
                      name == source.metadata.name;
    if (same || !other.writes()) continue;
    const bool overlap = std::any_of(source.levels.begin(), source.levels.end(), [&, &theirs = other.levels](const std::string& level) {
      return std::find(theirs.begin(), theirs.end(), level) != theirs.end();
    });
    if (!overlap) continue;
    bool any = false;
    for (const auto& n : selected) {
      const auto node = nodes.find(n);
      if (node != nodes.end() && selector_matches(other.node_selector, node->second.metadata.labels)) {
        conflicted.insert(n);
        any = true;
      }
    }
    if (any) out.sources.push_back(name);
  }
  out.nodes = static_cast<int32_t>(conflicted.size());
  return out;
}

Status validate_node_hierarchy(const std::vector<std::string>& levels, const std::vector<const Node*>& nodes) {
  std::map<std::string, std::map<std::string, std::string>> parents;
  for (const Node* node : nodes) {
    const StringMap& labels = node->metadata.labels;
    auto value_of = [&](const std::string& key) {
      const auto it = labels.find(key);
      return it == labels.end() ? std::string() : it->second;
    };
    bool missing_parent = false;
    for (size_t i = 0; i < levels.size(); ++i) {
      const std::string value = value_of(levels[i]);
      if (value.empty()) {
        missing_parent = true;
        continue;
      }
      if (missing_parent)
        return err("node " + go_quote(node->metadata.name) + " has level " + go_quote(levels[i]) + " without its parent");
      if (i == 0) continue;
      std::string tuple;
      for (size_t p = 0; p < i; ++p) {
        if (p > 0) tuple += '\0';
        tuple += value_of(levels[p]);
      }
      auto& by_value = parents[levels[i]];
      const auto seen = by_value.find(value);
      if (seen != by_value.end() && seen->second != tuple)
        return err("level " + go_quote(levels[i]) + " value " + go_quote(value) + " has conflicting parent tuples");
      by_value[value] = tuple;
    }
  }
  return Ok{};
}

TopologySourceDecision decide_topology_source(const TopologySource& source, const TopologyRead& read,
                                              const NodeTable& nodes,
                                              const std::map<std::string, TopologySource>& sources,
                                              int64_t now_seconds) {
  Builder b{source, {}};
  TopologySourceDecision& d = b.d;
  d.conditions = source.conditions;
  d.status = source.status;
  d.status.observed_generation = source.metadata.generation;
  d.status.source_kind = kind_of_arm(source);
  d.status.mutated_nodes = 0;
  d.status.conflicted_nodes = 0;
  const std::set<std::string> selected = selected_node_names(source, nodes);

  if (source.arm == "nodeLabels") {
    // Read-only: validate the selected Nodes' labels; any NodeFeature left from a writing arm goes.
    d.node_features = std::map<std::string, StringMap>{};
    d.status.selected_nodes = static_cast<int32_t>(selected.size());
    std::vector<const Node*> picked;
    for (const auto& n : selected) picked.push_back(&nodes.at(n));
    if (const Status s = validate_node_hierarchy(normalize_topology_levels(source.levels), picked); !s.ok()) {
      b.conditions("False", "InvalidHierarchy", "selected Node labels do not form a topology tree", "False",
                   "InvalidHierarchy", s.error(), "False", "ReadOnly", "nodeLabels does not claim Node labels");
      d.why = "selected Node labels do not form a topology tree: " + s.error();
    } else {
      b.conditions("True", "Observed", "selected Node labels are available", "True", "Observed",
                   "selected Node labels are valid input", "False", "ReadOnly", "nodeLabels does not claim Node labels");
      d.why = "selected Node labels are valid input (" + std::to_string(selected.size()) + " Nodes)";
    }
    return d;
  }

  if (!source.writes()) {
    d.status.selected_nodes = 0;
    b.conditions("False", "PendingInventoryAdapter", "the inventory adapter is not active", "Unknown",
                 "PendingInventoryAdapter", "the inventory adapter is not active", "False", "NoConflict",
                 "the inventory adapter has not claimed Nodes");
    d.why = "the inventory adapter is not active";
    return d;
  }

  if (!read.snapshot) {
    b.invalid(read.failure_reason, read.failure_message, now_seconds);
  } else if (const Status valid = validate_topology_snapshot(source, *read.snapshot, selected); !valid.ok()) {
    b.invalid(std::string(kSnapshotInvalid), valid.error(), now_seconds);
  } else if (const OwnershipConflicts c = find_ownership_conflicts(source, selected, nodes, sources); c.nodes > 0) {
    std::string names;
    for (const auto& n : c.sources) names += (names.empty() ? "" : ", ") + n;
    const std::string message = "writing sources " + go_quote(names) + " select the same Nodes and levels";
    d.node_features = std::map<std::string, StringMap>{};
    d.status.selected_nodes = static_cast<int32_t>(selected.size());
    d.status.conflicted_nodes = c.nodes;
    b.conditions("False", "OwnershipConflict", message, "True", "Observed",
                 "topology snapshot is valid but cannot claim contested labels", "True", "OverlappingSources", message);
    d.requeue_after_us = kOwnershipConflictRequeueUs;
    d.why = "revision " + read.snapshot->revision + " is valid but " + message;
  } else if (auto published = published_topology_labels(*read.snapshot, nodes, selected); !published.ok()) {
    b.invalid(std::string(kSnapshotInvalid), published.error(), now_seconds);
  } else {
    d.node_features = std::move(published).value();
    d.status.selected_nodes = static_cast<int32_t>(selected.size());
    d.status.last_successful_revision = read.snapshot->revision;
    d.status.last_successful_refresh_time = format_rfc3339(now_seconds);
    b.conditions("True", "Observed", "topology snapshot is published through NodeFeatures", "True", "Observed",
                 "topology snapshot is valid", "False", "NoConflict", "topology snapshot owns no contested labels");
    d.why = "revision " + read.snapshot->revision + " is published through NodeFeatures on " +
            std::to_string(d.node_features->size()) + " of " + std::to_string(selected.size()) + " selected Nodes";
  }
  if (source.webhook) {
    const int64_t poll = source.webhook->poll_interval_us;
    if (!d.requeue_after_us || poll < *d.requeue_after_us) d.requeue_after_us = poll;
  }
  return d;
}

std::vector<std::string> owned_node_features(const ClusterState& state, const TopologySource& source) {
  std::vector<std::string> out;
  for (const auto& [key, f] : state.node_features) {
    const OwnerReference* controller = nullptr;
    for (const auto& o : f.metadata.owner_references)
      if (o.controller) controller = &o;
    bool owned = false;
    if (controller != nullptr) {
      owned = controller->uid == source.metadata.uid;
    } else {
      const auto uid = f.metadata.labels.find(kTopologySourceUidLabel);
      const std::string node = f.node_name();
      owned = !node.empty() && uid != f.metadata.labels.end() && uid->second == source.metadata.uid &&
              f.metadata.name == topology_source_node_feature_name(source.metadata.uid, node);
    }
    if (owned) out.push_back(key);
  }
  return out;
}

Plan reconcile_topology_source(const ClusterState& state, const std::string& name, const TopologyRead& read,
                               const std::string& now) {
  Plan plan;
  const auto it = state.topology_sources.find(name);
  const auto now_seconds = parse_rfc3339(now);
  if (it == state.topology_sources.end() || !now_seconds) return plan;
  const TopologySource& source = it->second;
  if (source.metadata.deletion_timestamp) return plan;
  TopologySourceDecision d = decide_topology_source(source, read, state.nodes, state.topology_sources, *now_seconds);

  int32_t mutated = 0;
  if (d.node_features) {
    const std::string& uid = source.metadata.uid;
    const std::string ns(keys::kSystemNamespace);
    const std::vector<std::string> owned = owned_node_features(state, source);
    // NodeFeatures the source owns that it no longer wants (or that carry another name) go first.
    for (const auto& key : owned) {
      const NodeFeature& f = state.node_features.at(key);
      const std::string node = f.node_name();
      if (d.node_features->count(node) != 0 && f.metadata.name == topology_source_node_feature_name(uid, node)) continue;
      plan.writes.push_back({WriteVerb::kDelete, f, kController,
                             "TopologySource " + name + " no longer describes node " + node});
      ++mutated;
    }
    for (const auto& [node, labels] : *d.node_features) {
      if (labels.empty()) continue;
      NodeFeature want;
      want.metadata.namespace_ = ns;
      want.metadata.name = topology_source_node_feature_name(uid, node);
      const std::string key = node_feature_key(ns, want.metadata.name);
      const auto have = state.node_features.find(key);
      if (have != state.node_features.end()) {
        if (std::find(owned.begin(), owned.end(), key) == owned.end()) {
          plan.writes.clear();
          plan.requeues.push_back(reconcile_error(kController, name, "NodeFeature " + key +
                                                                         " is not owned by TopologySource " +
                                                                         go_quote(name)));
          return plan;
        }
        want.metadata = have->second.metadata;
      }
      want.metadata.labels[std::string(kNfdNodeNameLabel)] = node;
      want.metadata.labels[std::string(kTopologySourceUidLabel)] = uid;
      want.metadata.owner_references = {
          {std::string(kOwnerApiVersion), "TopologySource", source.metadata.name, uid, true}};
      want.labels = labels;
      if (have == state.node_features.end()) {
        plan.writes.push_back({WriteVerb::kCreate, want, kController,
                               "TopologySource " + name + " publishes the labels of node " + node});
        ++mutated;
      } else if (have->second.metadata.labels != want.metadata.labels || have->second.labels != want.labels ||
                 have->second.metadata.owner_references != want.metadata.owner_references) {
        plan.writes.push_back({WriteVerb::kUpdate, want, kController,
                               "TopologySource " + name + " publishes the labels of node " + node});
        ++mutated;
      }
    }
  }
  d.status.mutated_nodes = mutated;
  if (d.conditions != source.conditions || d.status != source.status) {
    TopologySource updated = source;
    updated.conditions = d.conditions;
    updated.status = d.status;
    plan.writes.push_back({WriteVerb::kUpdateStatus, updated, kController, d.why});
  }
  if (d.requeue_after_us && *d.requeue_after_us > 0)
    plan.requeues.push_back({kController, name, (*d.requeue_after_us + 999'999) / 1'000'000, d.why});
  return plan;
}

}  // namespace chaintwin::model
