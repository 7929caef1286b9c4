#include "sim/scenario/expectation_check.h"

#include "model/catalog/resource_names.h"
#include "model/stage4/topology_source_reconciler.h"
#include <cstdio>

#include "model/credits.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::sim {
namespace {

// Credits in the ClusterQueue's own words, with cards beside them: "25600000 (16.000 cards)".
std::string credits_text(int64_t credits) {
  char cards[32];
  std::snprintf(cards, sizeof cards, "%.3f", static_cast<double>(credits) / static_cast<double>(model::kUnitsPerAccelerator));
  return std::to_string(credits) + " (" + cards + " cards)";
}

std::string view_text(const model::InstanceTypeCapacityView& v) {
  return std::to_string(v.once_max_request) + "/" + std::to_string(v.remaining);
}

struct Checker {
  const Expectation& e;
  std::string object;
  std::vector<ExpectationFailure> failures;

  void differ(const std::string& field, const std::string& want, const std::string& got) {
    if (want != got)
      failures.push_back({e.where, e.at ? e.at->to_string() : "end", object, field, want, got});
  }
};

void check_conditions(Checker& c, const std::vector<model::Condition>& conditions) {
  for (const auto& [type, want] : c.e.conditions) {
    const model::Condition* cond = model::find_condition(conditions, type);
    std::string got = "(absent)";
    if (cond != nullptr) got = want.find('/') == std::string::npos ? cond->status : cond->status + "/" + cond->reason;
    c.differ("conditions[" + type + "]", want, got);
  }
}

void check_cluster_queue(Checker& c, const model::ClusterState& state) {
  const auto it = state.cluster_queues.find(c.e.cluster_queue);
  if (it == state.cluster_queues.end()) return c.differ("exists", "yes", "no");
  const model::ClusterQueue& q = it->second;
  if (c.e.stop_policy) c.differ("stopPolicy", *c.e.stop_policy, std::string(model::to_string(q.stop_policy())));
  for (const auto& [manufacturer, want] : c.e.nominal_credits) {
    const std::string resource = model::credits_resource_name(manufacturer);
    int64_t sum = 0;
    for (const auto& group : q.spec.resource_groups)
      for (const auto& flavor : group.flavors)
        for (const auto& r : flavor.resources)
          if (r.name == resource) sum += r.nominal_quota.value_ceil();
    c.differ("nominalCredits[" + manufacturer + "]", credits_text(want), credits_text(sum));
  }
  for (const auto& [key, want] : c.e.annotations) {
    const auto a = q.metadata.annotations.find(key);
    const std::string got = a == q.metadata.annotations.end() ? "(absent)" : a->second;
    c.differ("annotations[" + key + "]", want ? *want : "(absent)", got);
  }
  check_conditions(c, q.status.conditions);
}

void check_topology_source(Checker& c, const model::ClusterState& state) {
  const auto it = state.topology_sources.find(c.e.topology_source);
  if (it == state.topology_sources.end()) return c.differ("exists", "yes", "no");
  const model::TopologySource& ts = it->second;
  check_conditions(c, ts.conditions);
  for (const auto& [type, want] : c.e.condition_messages) {
    const model::Condition* cond = model::find_condition(ts.conditions, type);
    c.differ("conditions[" + type + "].message", want, cond == nullptr ? "(absent)" : cond->message);
  }
  if (c.e.last_successful_revision)
    c.differ("status.lastSuccessfulRevision", *c.e.last_successful_revision,
             ts.status.last_successful_revision.empty() ? "(unset)" : ts.status.last_successful_revision);
  if (c.e.node_features)
    c.differ("nodeFeatures", std::to_string(*c.e.node_features),
             std::to_string(model::owned_node_features(state, ts).size()));
}

// want: a quantity, or nullopt for must-be-absent; values compared, not spellings.
void check_quantity(Checker& c, const std::string& field, const model::ResourceList& list, const std::string& resource,
                    const std::optional<std::string>& want) {
  const auto q = list.find(resource);
  const std::string got = q == list.end() ? "(absent)" : q->second.to_string();
  if (!want) return c.differ(field + "[" + resource + "]", "(absent)", got);
  // Compare values, not spellings: "12800k" and "12800000" are the same quantity.
  const auto w = model::Quantity::parse(*want);
  if (q != list.end() && w.ok() && *w == q->second) return;
  c.differ(field + "[" + resource + "]", *want, got);
}

void check_node(Checker& c, const model::ClusterState& state) {
  const auto it = state.nodes.find(c.e.node);
  if (it == state.nodes.end()) return c.differ("exists", "yes", "no");
  const model::Node& n = it->second;
  for (const auto& [resource, want] : c.e.capacity) check_quantity(c, "capacity", n.status.capacity, resource, want);
  for (const auto& resource : c.e.capacity_absent)
    check_quantity(c, "capacity", n.status.capacity, resource, std::nullopt);
  for (const auto& [resource, want] : c.e.allocatable)
    check_quantity(c, "allocatable", n.status.allocatable, resource, want);
  for (const auto& [label, want] : c.e.labels) {
    const auto l = n.metadata.labels.find(label);
    const std::string got = l == n.metadata.labels.end() ? "(absent)" : l->second;
    c.differ("labels[" + label + "]", want ? *want : "(absent)", got);
  }
}

void check_instance_type(Checker& c, const model::ClusterState& state) {
  const auto it = state.instance_types.find(c.e.instance_type);
  if (it == state.instance_types.end()) return c.differ("exists", "yes", "no");
  const model::InstanceTypeStatus& st = it->second.status;
  const std::map<std::string, const model::InstanceTypeCapacityView*> views{
      {"accelerator", &st.accelerator},
      {"acceleratorShared", &st.accelerator_shared},
      {"acceleratorSliced", &st.accelerator_sliced},
      {"acceleratorPartitioned", &st.accelerator_partitioned.view},
  };
  if (c.e.phase) c.differ("status.phase", *c.e.phase, st.phase);
  for (const auto& [view, want] : c.e.status) {
    // The CPU column reads onceMaxRequest/capacity (operator-domain.md §12.3), not /remaining.
    if (view == "cpu") {
      c.differ("status.cpu", want, std::to_string(st.cpu.once_max_request) + "/" + std::to_string(st.cpu.capacity));
      continue;
    }
    const auto v = views.find(view);
    c.differ("status." + view, want, v == views.end() ? "(unknown view)" : view_text(*v->second));
  }
}

void check_resource_flavor(Checker& c, const model::ClusterState& state) {
  const auto it = state.resource_flavors.find(c.e.resource_flavor);
  const bool there = it != state.resource_flavors.end();
  if (c.e.exists) c.differ("exists", *c.e.exists ? "yes" : "no", there ? "yes" : "no");
  if (c.e.terminating) {
    const std::string got = !there ? "(absent)" : it->second.metadata.deletion_timestamp ? "yes" : "no";
    c.differ("terminating", *c.e.terminating ? "yes" : "no", got);
  }
}

void check_devices(Checker& c, const model::ClusterState& state) {
  const auto it = state.devices.find(c.e.devices);
  const bool there = it != state.devices.end();
  if (c.e.exists) c.differ("exists", *c.e.exists ? "yes" : "no", there ? "yes" : "no");
  if (c.e.cards) {
    int64_t cards = 0;
    if (there)
      for (const auto& g : it->second.spec.groups) cards += static_cast<int64_t>(g.accelerators.size());
    c.differ("cards", std::to_string(*c.e.cards), there ? std::to_string(cards) : "(no Devices record)");
  }
}

void check_instance(Checker& c, const model::ClusterState& state) {
  const auto it = state.instances.find(c.e.instance);
  if (it == state.instances.end()) return c.differ("exists", "yes", "no");
  const model::Instance& inst = it->second;
  if (c.e.stop) c.differ("spec.stop", *c.e.stop ? "true" : "false", inst.spec.stop ? "true" : "false");
  if (c.e.phase) c.differ("status.phase", *c.e.phase, inst.status.phase.empty() ? "(unset)" : inst.status.phase);
}

void check_workloads(Checker& c, const WorkloadCounters& total,
                     const std::map<std::string, WorkloadCounters>& by_generator) {
  const WorkloadCounters* counters = &total;
  static const WorkloadCounters kNone{};
  if (!c.e.workload_name.empty()) {
    const auto it = by_generator.find(c.e.workload_name);
    counters = it == by_generator.end() ? &kNone : &it->second;
  }
  if (c.e.rejected_message)
    c.differ("rejectedMessage", *c.e.rejected_message,
             counters->last_rejection.empty() ? "(none rejected)" : counters->last_rejection);
  for (const auto& [name, cmp] : c.e.counters) {
    const auto got = counter_value(*counters, name);
    if (!got) {
      c.differ(name, cmp.str(), "(unknown counter)");
    } else if (!cmp.holds(*got)) {
      c.failures.push_back({c.e.where, c.e.at ? c.e.at->to_string() : "end", c.object, name, cmp.str(),
                            std::to_string(*got)});
    }
  }
}

}  // namespace

std::string ExpectationFailure::str() const {
  return where.str() + ": at " + at + ": " + object + ": " + field + ": want " + want + ", got " + got;
}

std::optional<int64_t> counter_value(const WorkloadCounters& c, const std::string& name) {
  if (name == "admitted") return c.admitted;
  if (name == "running") return c.running;
  if (name == "pending") return c.pending;
  if (name == "evicted") return c.evicted;
  if (name == "preempted") return c.preempted;
  if (name == "retries") return c.retries;
  if (name == "finished") return c.finished;
  if (name == "rejected") return c.rejected;
  return std::nullopt;
}

std::vector<ExpectationFailure> check_expectation(const Expectation& e, const model::ClusterState& state,
                                                  const WorkloadCounters& total,
                                                  const std::map<std::string, WorkloadCounters>& by_generator) {
  Checker c{e, "", {}};
  if (!e.cluster_queue.empty()) {
    c.object = "ClusterQueue/" + e.cluster_queue;
    check_cluster_queue(c, state);
  } else if (!e.node.empty()) {
    c.object = "Node/" + e.node;
    check_node(c, state);
  } else if (!e.instance_type.empty()) {
    c.object = "InstanceType/" + e.instance_type;
    check_instance_type(c, state);
  } else if (!e.resource_flavor.empty()) {
    c.object = "ResourceFlavor/" + e.resource_flavor;
    check_resource_flavor(c, state);
  } else if (!e.devices.empty()) {
    c.object = "Devices/" + e.devices;
    check_devices(c, state);
  } else if (!e.instance.empty()) {
    c.object = "Instance/" + e.instance;
    check_instance(c, state);
  } else if (!e.topology_source.empty()) {
    c.object = "TopologySource/" + e.topology_source;
    check_topology_source(c, state);
  } else if (e.workloads) {
    c.object = e.workload_name.empty() ? "Workloads" : "Workloads/" + e.workload_name;
    check_workloads(c, total, by_generator);
  }
  return c.failures;
}

}  // namespace chaintwin::sim
